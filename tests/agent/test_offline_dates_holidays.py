"""Holidays said by name ("Christmas Eve", "Good Friday", "the day after Boxing Day") are
made absolute: the next one from the day said (the latest one, in a sentence about the past
or after "last"); Easter and the days counted from it are computed for the year."""

from __future__ import annotations

from datetime import date

import pytest

from doctree.agent.offline.resolve import resolve_relative
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript

NOV = date(2026, 11, 26)


def _dates(said: str, on: date = NOV, *, past: bool = False) -> list[date]:
    return [d for _, d in resolve_relative(said, on, past=past)[1]]


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("We're at mum's on Christmas Eve.", date(2026, 12, 24)),
        ("xmas day at ours", date(2026, 12, 25)),
        ("The shop is shut on Boxing Day.", date(2026, 12, 26)),
        ("NYE at Sam's?", date(2026, 12, 31)),
        ("back at work on New Year's Day", date(2027, 1, 1)),
        ("new years eve we're in Leeds", date(2026, 12, 31)),
        ("dinner booked for Valentine's Day", date(2027, 2, 14)),
        ("what are you doing for valentines?", date(2027, 2, 14)),
        ("Halloween is a Sunday this time", date(2027, 10, 31)),
        ("the kids' trick-or-treat on Halloween starts at dusk", date(2027, 10, 31)),
        # Easter 2027 is on 28 March
        ("the office is closed on Good Friday", date(2027, 3, 26)),
        ("we fly back on Easter Monday", date(2027, 3, 29)),
        ("lunch at Gran's on Easter Sunday", date(2027, 3, 28)),
    ],
)
def test_a_holiday_said_by_name_is_the_next_one(said, meant):
    assert _dates(said) == [meant]


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("the day before Christmas Eve", date(2026, 12, 23)),
        ("we leave the day after Boxing Day", date(2026, 12, 27)),
        ("two days before Christmas", date(2026, 12, 23)),
        ("a week after Easter", date(2027, 4, 4)),
        ("the evening before New Year's Day", date(2026, 12, 31)),
    ],
)
def test_a_day_counted_from_a_holiday(said, meant):
    assert _dates(said) == [meant]


def test_the_past_one_in_a_sentence_about_the_past_or_after_last():
    assert _dates("We spent Christmas at my sister's.", past=True) == [date(2025, 12, 25)]
    assert _dates("last Easter was a washout") == [date(2026, 4, 5)]  # Easter 2026: 5 April
    assert _dates("Halloween was fun", date(2026, 11, 1), past=True) == [date(2026, 10, 31)]


def test_on_the_day_itself_it_is_that_day():
    assert _dates("It's Christmas Day!", date(2026, 12, 25)) == [date(2026, 12, 25)]


@pytest.mark.parametrize(
    "said",
    [
        "the Christmas party is at the pub",
        "I bought Easter eggs for the kids",
        "we had a good friday at the market",
        "every Christmas we go to Gran's",
        "a Halloween costume for Ada",
        "NYE plans are still open",
    ],
)
def test_a_holiday_word_that_qualifies_a_thing_or_no_one_day_is_no_date(said):
    assert _dates(said) == []


def test_a_holiday_reaches_the_page_with_its_date(repo: DocumentsRepository):
    run(
        repo,
        transcript(
            "s-hol", ("user", "2026-11-26T10:00:00Z", "My parents arrive the day after Boxing Day.")
        ),
    )
    pages = "\n".join(d.body for d in repo.documents("main", "~/memory"))
    assert "the day after Boxing Day (2026-12-27)" in pages, pages


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        # counted from Easter (28 March 2027)
        ("pancakes on Shrove Tuesday", date(2027, 2, 9)),
        ("the service on Ash Wednesday", date(2027, 2, 10)),
        ("flowers for Mum on Mothering Sunday", date(2027, 3, 7)),
        ("we travel on Maundy Thursday", date(2027, 3, 25)),
        ("the christening is at Pentecost", date(2027, 5, 16)),
        ("back on Whit Monday", date(2027, 5, 17)),
        # on a weekday of a month, the first or the last
        ("turkey at Thanksgiving", date(2026, 11, 26)),
        ("the garden party is on the spring bank holiday", date(2027, 5, 31)),
        ("a barbecue on the August bank holiday", date(2027, 8, 30)),
        ("the early May bank holiday Monday", date(2027, 5, 3)),
        ("lunch on Father's Day", date(2027, 6, 20)),
        ("the parade on Labor Day", date(2027, 9, 6)),
        # on a fixed day
        ("fireworks on Bonfire Night", date(2027, 11, 5)),
        ("the pub on St. Patrick's Day", date(2027, 3, 17)),
        ("the block party on the Fourth of July", date(2027, 7, 4)),
    ],
)
def test_the_calendars_other_feasts_and_holidays(said, meant):
    assert _dates(said) == [meant]


@pytest.mark.parametrize(
    "said",
    ["I had an epiphany about the budget", "the Thanksgiving menu is long", "an independence day"],
)
def test_a_feasts_name_used_as_a_word_is_no_date(said):
    assert _dates(said) == []
