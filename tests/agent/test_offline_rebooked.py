"""An appointment cancelled and booked again for another day ("rebooked it for 19 March",
"has been rearranged for 21 February", "a new appointment has been made for 5 July")
replaces the one line that gave the old day, as "moved to" does; "it" in the clause of the
new day is the thing the sentence named before it."""

from __future__ import annotations

import pytest

from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript

DAY1 = "2029-01-04T08:10:00Z"
DAY2 = "2029-01-12T08:10:00Z"


def _lines(repo: DocumentsRepository) -> tuple[str, str]:
    """(current lines, Past lines) of the pages a person reads."""
    now, past = [], []
    for d in repo.documents("main", "~/memory"):
        if "/archive/" in d.path:
            continue
        head, _, tail = d.body.partition("## Past")
        for section in head.split("\n## ")[1:]:
            name, *rest = section.split("\n")
            if name.strip() not in ("Recent sessions", "Sessions", "Related"):
                now += [ln for ln in rest if ln.startswith("- ")]
        past += [ln for ln in tail.split("\n") if ln.startswith("- ")]
    return "\n".join(now), "\n".join(past)


@pytest.mark.parametrize(
    ("first", "later", "old", "new"),
    [
        (
            "The boiler service is booked for 12 March with Dwyer Heating.",
            "Dwyer Heating cancelled the boiler service and rebooked it for 19 March.",
            "2029-03-12",
            "2029-03-19",
        ),
        (
            "The MRI scan is on 14 February at the Royal.",
            "They rang: the MRI scan has been rearranged for 21 February.",
            "2029-02-14",
            "2029-02-21",
        ),
        (
            "My dermatology appointment is on Tuesday 20 February at 10:45 with Dr Tomczak.",
            "Letter from the hospital: my appointment on 20 February has been cancelled. "
            "A new appointment is booked for Thursday 8 March with Dr Tomczak.",
            "2029-02-20",
            "2029-03-08",
        ),
    ],
)
def test_a_day_booked_again_replaces_the_old_one(repo, first, later, old, new):
    run(repo, transcript("s-one", ("user", DAY1, first)))
    run(repo, transcript("s-two", ("user", DAY2, later)))
    now, past = _lines(repo)
    assert old not in now, now
    assert new in now
    assert old in past


def test_a_day_booked_again_that_two_lines_could_mean_moves_neither(repo):
    run(
        repo,
        transcript(
            "s-one",
            ("user", DAY1, "The boiler service is booked for 12 March."),
            ("user", "2029-01-04T08:11:00Z", "The gas boiler check is booked for 14 March."),
        ),
    )
    run(repo, transcript("s-two", ("user", DAY2, "They cancelled and rebooked it for 19 March.")))
    now, _ = _lines(repo)
    assert "2029-03-12" in now and "2029-03-14" in now, now


@pytest.mark.parametrize(
    "later",
    [
        "The dentist pushed my check-up to 16 March.",
        "My dentist check-up got shifted to 16 March.",
        "The practice swapped my dentist check-up to 16 March.",
    ],
)
def test_a_day_pushed_or_shifted_replaces_the_old_one(repo, later):
    run(repo, transcript("s-one", ("user", DAY1, "My dentist check-up is on 9 March.")))
    run(repo, transcript("s-two", ("user", DAY2, later)))
    now, past = _lines(repo)
    assert "2029-03-09" not in now, now
    assert "2029-03-16" in now
