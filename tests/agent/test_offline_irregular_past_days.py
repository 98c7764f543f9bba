"""A day told of in the past by an irregular verb ("I rang the garage on Monday", "we swam
on Tuesday") is the one gone by, as with a regular one ("I phoned"); and the end of a
stretch told of a day gone by ("… on Monday, and asked them to hold it till Thursday")
counts from that day when it has gone by too. What is to come stays to come."""

from __future__ import annotations

from datetime import date

import pytest

from doctree.agent.offline import language as lang
from doctree.agent.offline.resolve import resolve_relative
from tests.agent.offline_runs import current_facts, run, transcript

SAID_ON = date(2037, 10, 9)  # a Friday


def _days(said: str, anchors=None) -> list[str]:
    return [
        d.isoformat()
        for _, d in resolve_relative(said, SAID_ON, by_clause=True, anchors=anchors)[1]
    ]


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("I rang the garage on Monday about the clutch.", ["2037-10-05"]),
        ("We swam in the lido on Tuesday.", ["2037-10-06"]),
        ("He drank far too much at the quiz on Wednesday.", ["2037-10-07"]),
        ("The choir sang at the care home on the 3rd.", ["2037-10-03"]),
    ],
)
def test_an_irregular_past_tells_of_a_day_gone_by(said, meant):
    assert lang.past_tense(said)
    assert _days(said) == meant


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        # nouns and names that look like pasts tell of nothing gone by
        ("Rose is coming on Monday.", ["2037-10-12"]),
        ("I'll need a bit of help on Tuesday.", ["2037-10-13"]),
        ("It's meant to rain on Sunday.", ["2037-10-11"]),
        ("I'll ring the garage on Monday.", ["2037-10-12"]),
    ],
)
def test_what_is_to_come_stays_to_come(said, meant):
    assert _days(said) == meant


def test_a_stretch_told_of_a_day_gone_by_counts_from_it():
    said = "I rang the yard on Monday and asked them to hold the skip till Wednesday."
    assert _days(said) == ["2037-10-05", "2037-10-07"]


def test_a_stretch_told_in_the_next_sentence_counts_from_the_day_said_last():
    anchors = [("we got to the cottage on saturday the 3rd", date(2037, 10, 3))]
    assert _days("We stayed until Tuesday.", anchors) == ["2037-10-06"]


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        # a stretch to come: booked in the past, ending after today
        (
            "I rang the yard yesterday and booked the skip until Monday.",
            ["2037-10-08", "2037-10-12"],
        ),
        # said in the present: the day to come
        ("I paid on Monday and the van is mine until Sunday.", ["2037-10-05", "2037-10-11"]),
    ],
)
def test_a_stretch_still_to_come_stays_to_come(said, meant):
    assert _days(said) == meant


def test_the_day_gone_by_is_on_the_page(repo):
    run(
        repo,
        transcript(
            "s-yard",
            (
                "user",
                "2037-10-09T10:00:00Z",
                "I rang the skip yard on Monday afternoon and they kept the skip for me.",
            ),
            ("assistant", "2037-10-09T10:01:00Z", "Noted."),
        ),
    )
    facts = current_facts(repo)
    assert "2037-10-05" in facts and "2037-10-12" not in facts
