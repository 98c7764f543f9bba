"""Where someone works is a value a later one replaces; what the old line said beside the
employer (a role, a team) is of that job and is never carried to the new one."""

from __future__ import annotations

import pytest

from doctree.agent.offline import supersession
from tests.agent.offline_runs import current_facts, past_facts, run, transcript


def _two_sessions(repo, first: str, then: str) -> tuple[str, str]:
    for session, day, said in (("s-one", "2035-04-02", first), ("s-two", "2035-04-16", then)):
        run(
            repo,
            transcript(
                session,
                ("user", f"{day}T09:00:00Z", said),
                ("assistant", f"{day}T09:01:00Z", "Noted."),
            ),
        )
    return current_facts(repo), past_facts(repo)


def test_a_new_employer_replaces_the_old(repo):
    now, past = _two_sessions(
        repo, "I work at Corvell as a payroll clerk.", "I work at Pennant Mills now."
    )
    assert "Pennant Mills" in now
    assert "Corvell" not in now
    assert "Corvell" in past
    assert "Pennant Mills as a payroll clerk" not in now  # the role was of the old job


def test_someone_elses_employer_is_theirs(repo):
    now, _ = _two_sessions(
        repo, "Tamsin works for Lowther Print.", "Ewan works for Brockley Glass now."
    )
    assert "Lowther Print" in now
    assert "Brockley Glass" in now


def test_the_employer_is_the_value_not_the_thing():
    said = supersession.values("Tamsin works for Lowther Print these days.")
    assert [(v.kind, v.norm) for v in said] == [("workplace", "lowther print")]


@pytest.mark.parametrize(
    "said", ["I left Corvell in January.", "I no longer work at Corvell.", "I quit Corvell."]
)
def test_a_job_left_is_past(repo, said):
    now, past = _two_sessions(repo, "I work at Corvell as a payroll clerk.", said)
    assert "payroll clerk" in past
    assert "payroll clerk" not in now


def test_what_the_user_no_longer_does_reads_as_said():
    from doctree.agent.offline.language import third_person

    assert third_person("I no longer work at Corvell.") == "The user no longer works at Corvell."


def test_leaving_something_of_the_firm_is_not_leaving_the_job():
    line = "2035-04-02: The user works at Corvell as a payroll clerk. ([[x|s-one]])"
    assert supersession.ends("The user left Corvell in March.", line)
    assert not supersession.ends("The user left Corvell's open day early.", line)
    assert not supersession.ends("Noor left Corvell in March.", line)  # someone else's job


@pytest.mark.parametrize(
    ("first", "then", "old", "new"),
    [
        # a job's word before "at" names the employer as "works at" does, either way round
        ("I'm a nurse at Kingsmill Hospital.", "I work at Pennant Health now.",
         "Kingsmill Hospital", "Pennant Health"),
        ("I work at Corvell.", "I'm an analyst at Dunmore now.", "Corvell", "Dunmore"),
        # a new job said as the job's own
        ("I work at Corvell.", "My new job at Fenwick starts in May.", "Corvell", "Fenwick"),
        ("My sister Noor is a nurse at Kingsmill Hospital.",
         "Noor's new job at Brayfield starts on Monday.", "Kingsmill Hospital", "Brayfield"),
    ],
)  # fmt: skip
def test_a_job_said_another_way_replaces_the_employer(repo, first, then, old, new):
    now, past = _two_sessions(repo, first, then)
    assert new in now
    assert old not in now
    assert old in past


@pytest.mark.parametrize(
    ("first", "then"),
    [
        # someone else's job
        ("Tamsin is a nurse at Kingsmill Hospital.", "I'm a teacher at Ashby Primary now."),
        ("My sister works at Corvell.", "I work at Pennant Mills now."),
        # a "she" may be anyone: the sentence does not say it is the same one
        ("She works at Corvell.", "She's a nurse at Kingsmill Hospital now."),
        # no job's word: a regular at a pub works nowhere
        ("I work at Corvell.", "I'm a regular at the Swan now."),
    ],
)  # fmt: skip
def test_another_ones_job_or_no_job_replaces_nothing(repo, first, then):
    now, past = _two_sessions(repo, first, then)
    assert first.rstrip(".").split()[-1] in now
    assert not past
