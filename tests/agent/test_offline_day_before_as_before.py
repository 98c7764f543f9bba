""" "The day before" (or after) goes on counting from the date said last when a word of as
it was set follows it ("the fitting is the day before as before", "… the day after as
usual"); said in brackets right after a date ("Friday 9 May (the day before), the show on
the 10th") it tells what that date is to another, and is no date of its own."""

from __future__ import annotations

from datetime import date

import pytest

from doctree.agent.offline.extract import _days_with_month, _placed
from doctree.agent.offline.resolve import resolve_relative

SAID_ON = date(2036, 4, 21)


def _days(said: str) -> list[tuple[str, str]]:
    found = _days_with_month(said, SAID_ON, None)
    _, rel = resolve_relative(said, SAID_ON, by_clause=True, given=_placed(said, found))
    return [(p, d.isoformat()) for p, d in rel]


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        (
            "The show moved to Saturday 10 May and the dress rehearsal is the day before as before.",
            "2036-05-09",
        ),
        ("The sale is on 3 June and the clear-up is the day after as usual.", "2036-06-04"),
    ],
)
def test_the_day_before_as_before_counts_from_the_date_said(said, meant):
    assert _days(said) == [("the day before" if "before as" in said else "the day after", meant)]


@pytest.mark.parametrize(
    "said",
    [
        "Rehearsal on Friday 9 May 2036 (the day before), the show on Saturday 10 May 2036.",
        "Set-up on the 9th (the day before), then the show.",
        "Clear-up on 11 May (the day after), then a rest.",
    ],
)
def test_in_brackets_after_a_date_it_is_no_date(said):
    assert not any(p.startswith("the day") for p, _ in _days(said))


def test_the_day_before_alone_still_counts():
    said = "The show is on 10 May and we set up the day before."
    assert _days(said) == [("the day before", "2036-05-09")]
