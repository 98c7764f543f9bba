"""A later value said in the same session edits the earlier sentence in place when that
sentence said more than the value: what else it said stays current."""

from __future__ import annotations

from tests.agent.offline_runs import current_facts, past_facts, run, transcript

DAY = "2034-02-06T10:00:00Z"
LATER = "2034-02-06T10:04:00Z"


def _run(repo, first: str, then: str) -> tuple[str, str]:
    run(
        repo,
        transcript(
            "s-edit", ("user", DAY, first), ("assistant", DAY, "Noted."), ("user", LATER, then)
        ),
    )
    return current_facts(repo), past_facts(repo)


def test_the_rest_of_the_sentence_stays_with_the_new_value(repo):
    now, past = _run(
        repo,
        "The violin lessons are £38 a lesson, starting 3 March.",
        "Actually the start has moved to 10 March, the teacher emailed.",
    )
    assert "£38 a lesson, starting" in now
    assert "(2034-03-10)" in now
    assert "(2034-03-03)" not in now  # the old day is no longer current
    assert "(2034-03-03)" in past


def test_a_sentence_of_the_value_alone_goes_under_past(repo):
    now, past = _run(
        repo, "The boiler service is on 3 March.", "Actually the service moved to 10 March."
    )
    assert "(2034-03-03)" not in now
    assert "(2034-03-03)" in past
