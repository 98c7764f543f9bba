"""Weekdays shortened as people text them ("next thurs", "Sat 3rd", "Mon: gym") are read as
the day they name, only where they can only be a day: after "on", "this", "next", "last"
or "by", before a day of the month, or capitalised in a list or a schedule line. The same
words as ordinary words ("I sat down", "the sun", "they wed", "mon ami") stay as said."""

from __future__ import annotations

from datetime import date

import pytest

from doctree.agent.offline.language import weekdays_spelled
from doctree.agent.offline.resolve import resolve_relative
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript

WED = date(2029, 3, 7)  # a Wednesday


def _read(said: str) -> tuple[str, list]:
    """`said` on WED read as the agent reads a sentence: days spelled out, dates resolved."""
    return resolve_relative(weekdays_spelled(said), WED)


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("see you next thurs", "next Thursday (2029-03-15)"),
        ("Can we do next Thur instead?", "next Thursday (2029-03-15)"),
        ("dentist on fri at 4", "on Friday (2029-03-09)"),
        ("I need it by tues.", "by Tuesday (2029-03-13)"),
        ("what about this sat?", "this Saturday (2029-03-10)"),
        ("Tuesday's fine, or on Weds if not", "on Wednesday (2029-03-14)"),
        ("on mon we had the review", "on Monday (2029-03-12)"),
        ("on sun morning we drive back", "on Sunday (2029-03-11) morning"),
        ("she's coming over sat w her kid", "over Saturday (2029-03-10) w her"),
    ],
)
def test_a_shortened_weekday_after_a_word_that_leads_a_day_is_that_day(said, meant):
    out, found = _read(said)
    assert meant in out, out
    assert found


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("Mon: gym", "Monday (2029-03-12): gym"),
        ("Tue/Thu swim", "Tuesday (2029-03-13)/Thursday (2029-03-08) swim"),
        ("Sat 10am football", "Saturday (2029-03-10) 10am"),
        ("- Sat - pick up the cake", "Saturday (2029-03-10) -"),
        ("Wed and Sun are booked", "Wednesday (2029-03-14) and Sunday (2029-03-11)"),
    ],
)
def test_a_capitalised_shortened_weekday_in_a_list_or_schedule_is_that_day(said, meant):
    out, _ = _read(said)
    assert meant in out, out


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("lunch on mon 26th?", "Monday 26th (2029-03-26)"),
        ("the fete is sat 14th", "Saturday 14th (2029-04-14)"),
        ("can you do Sat 5?", "Saturday 5 (2029-05-05)"),
    ],
)
def test_a_shortened_weekday_before_a_day_of_the_month_is_that_date(said, meant):
    out, _ = _read(said)
    assert meant in out, out


@pytest.mark.parametrize(
    "said",
    [
        "I sat down with Jo for an hour.",
        "the sun was out all day",
        "they wed in a tiny chapel",
        "c'est mon ami Pierre",
        "mon dieu, what a day",
        "we sat on the sun loungers",
        "Sun was out, so we walked",
        "Sat down and cried.",
        "she lay on sun loungers by the pool",
        "we stayed in to watch this sun set",
        "I sat 3 exams in May",
    ],
)
def test_the_same_words_as_ordinary_words_are_no_date(said):
    out, found = _read(said)
    assert out == said
    assert not found


def test_a_whole_weekday_in_lower_case_after_next_is_that_day():
    out, _ = resolve_relative("I'll see you next thursday", WED)
    assert "next thursday (2029-03-15)" in out
    out, found = resolve_relative("cron runs when day == 'friday'", WED)
    assert not found


def test_a_shortened_weekday_reaches_the_page_with_its_date(repo: DocumentsRepository):
    run(
        repo,
        transcript("s-abbr", ("user", "2029-03-07T10:00:00Z", "Piano lesson moved to next thurs.")),
    )
    pages = "\n".join(d.body for d in repo.documents("main", "~/memory"))
    assert "next Thursday (2029-03-15)" in pages, pages
