"""A sentence that denies one day and gives another in a clause of its own ("the tuner can't
come Monday, he's coming Friday instead") is about the day given, not the one denied; two
days denied together ("can't do Tuesday or Thursday") give no day in place of either."""

from __future__ import annotations

from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript


def _upcoming(repo: DocumentsRepository, *messages: str) -> list[str]:
    """The Upcoming lines of the active page after `messages`, said on a Wednesday."""
    run(
        repo,
        transcript(
            "s-denied",
            *[("user", f"2029-03-07T10:{i:02d}:00Z", m) for i, m in enumerate(messages)],
        ),
    )
    body = next(d.body for d in repo.documents("main", "~/memory") if d.path.endswith("/active"))
    part = body.split("## Upcoming", 1)[1].split("\n## ", 1)[0] if "## Upcoming" in body else ""
    return [ln for ln in part.splitlines() if ln.startswith("- ")]


def test_the_day_given_after_a_denied_one_is_the_day_of_the_line(repo):
    lines = _upcoming(repo, "The piano tuner can't come Monday, he's coming Friday instead.")
    assert any(ln.startswith("- 2029-03-09:") for ln in lines), lines
    assert not any(ln.startswith("- 2029-03-12:") for ln in lines), lines


def test_a_day_no_longer_on_gives_way_to_the_day_said_after_it(repo):
    lines = _upcoming(
        repo,
        "My aunt flies in on Thursday.",
        "Plans changed, she doesn't fly in Thursday any more, she's flying in Sunday.",
    )
    assert any(ln.startswith("- 2029-03-11:") for ln in lines), lines


def test_two_days_denied_together_give_no_day_in_place_of_either(repo):
    lines = _upcoming(repo, "We can't do Tuesday or Thursday for the survey visit.")
    assert not any(ln.startswith("- 2029-03-08:") for ln in lines), lines
