"""A weekday whose thing comes round every week ("the Saturday quiz every week") and a
holiday's name in a title ("the Christmas Special", "the Easter Fair") are no dates; a day
said beside them still is."""

from __future__ import annotations

from datetime import date

import pytest

from doctree.agent.offline.resolve import resolve_relative

SAID_ON = date(2043, 2, 4)  # a Wednesday


@pytest.mark.parametrize(
    "said",
    [
        "He does the Saturday quiz every week without fail.",
        "Our Tuesday choir, weekly, is in the church hall.",
        "Bins go out Monday night each week.",
        "Ines is making the Christmas Special this year.",
        "The Easter Fair is on the green.",
    ],
)
def test_no_date(said):
    text, found = resolve_relative(said, SAID_ON)
    assert found == [] and text == said


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("The Saturday match is at 2pm.", "2043-02-07"),
        ("I'm off Friday and every week after that I'm in.", "2043-02-06"),
        ("See you at Christmas.", "2043-12-25"),
        ("Over Christmas Tom is coming to stay.", "2043-12-25"),
    ],
)
def test_still_a_date(said, meant):
    _, found = resolve_relative(said, SAID_ON)
    assert [d.isoformat() for _, d in found] == [meant]
