"""A day counted "within" a count of an event ("within 30 days of the purchase") is the
event's day plus the count; working or business days count Monday to Friday only. "Two
weeks of rain" is a length, no day."""

from __future__ import annotations

from datetime import date

import pytest

from doctree.agent.offline.resolve import absolute_dates, resolve_relative, session_dates

REF = date(2037, 6, 1)  # a Monday


def _session(*texts: str) -> list[str]:
    anchors: list = []
    out = []
    for text in texts:
        fixed = absolute_dates(text, REF, by_clause=True)
        given = [(text.lower().find(p.lower()), d) for p, d in fixed]
        said, found = resolve_relative(text, REF, by_clause=True, anchors=anchors, given=given)
        session_dates(anchors, text, found + fixed)
        out.append(said)
    return out


@pytest.mark.parametrize(
    ("later", "expected"),
    [
        # 5 June 2037 is a Friday: ten working days skip two weekends
        ("The insurer replies within 10 working days of the claim.", "claim (2037-06-19)"),
        ("They answer within 3 business days of the claim.", "claim (2037-06-10)"),
        ("A refund comes within 30 days of the claim.", "claim (2037-07-05)"),
        ("The assessor visits 2 working days after the claim.", "claim (2037-06-09)"),
    ],
)
def test_a_count_within_or_after_an_event(later: str, expected: str):
    _, said = _session("I filed the claim on Friday 5 June.", later)
    assert expected in said


def test_a_length_of_something_is_no_day():
    _, said = _session("I filed the claim on Friday 5 June.", "Two weeks of the claim dragging on.")
    assert "(20" not in said


def test_within_without_an_event_dated_is_left_as_said():
    _, said = _session(
        "I filed the claim on Friday 5 June.", "Expect a call within 10 days of the visit."
    )
    assert "(20" not in said
