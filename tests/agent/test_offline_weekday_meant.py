"""A weekday said with "the" is the day of that weekday said just before ("Tuesday 13 and
Wednesday 14 March … booked the Tuesday"), and "the first Thursday back after Easter" is
the first Thursday after the holiday."""

from __future__ import annotations

from datetime import date

import pytest

from doctree.agent.offline.resolve import resolve_relative
from tests.agent.offline_runs import current_facts, run, transcript


def test_the_weekday_of_a_day_said_just_before(repo):
    day = "2040-03-02T18:"
    run(
        repo,
        transcript(
            "s-wd",
            ("user", f"{day}00:00Z", "The open evenings are Tuesday 13 and Wednesday 14 March."),
            ("assistant", f"{day}01:00Z", "Noted."),
            ("user", f"{day}02:00Z", "Booked the Tuesday, 5.10pm slot."),
        ),
    )
    facts = current_facts(repo)
    assert "Booked the Tuesday (2040-03-13)" in facts
    assert "2040-03-20" not in facts


def test_a_weekday_after_a_day_said_of_another_weekday_is_still_after_it(repo):
    day = "2040-03-02T18:"
    run(
        repo,
        transcript(
            "s-wd",
            ("user", f"{day}00:00Z", "We fly out on Thursday 14 June and come back on the Monday."),
        ),
    )
    assert "the Monday (2040-06-18)" in current_facts(repo)


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("He starts the first Thursday back after Easter.", "2041-04-25"),
        ("The group starts the Thursday after Easter.", "2041-04-25"),
        ("We meet the Friday before Christmas.", "2041-12-20"),
        ("Pick-up is the Monday after Easter.", "2041-04-22"),
    ],
)
def test_a_weekday_counted_from_a_holiday(said, meant):
    text, found = resolve_relative(said, date(2041, 3, 27))
    assert f"({meant})" in text
    assert [d.isoformat() for _, d in found] == [meant]
