"""A weekday said with a day of the month ("Monday 22nd", "mon the 22nd", "Fri 3") is the
date where both agree: the first month from the day it is said (back from it, in a sentence
about the past), within four, in which that day of the month falls on that weekday; else the
day of the month alone."""

from __future__ import annotations

from datetime import date

import pytest

from doctree.agent.offline.language import weekdays_spelled
from doctree.agent.offline.resolve import resolve_relative


def _read(said: str, on: date, *, past: bool = False) -> list[date]:
    return [d for _, d in resolve_relative(weekdays_spelled(said), on, past=past)[1]]


@pytest.mark.parametrize(
    "said",
    [
        "The recital is Monday 22nd.",
        "recital is mon the 22nd",
        "Recital: Mon 22",
        "on Monday, the 22nd",
    ],
)
def test_a_weekday_and_a_day_of_the_month_take_the_first_month_where_they_agree(said):
    # said on Thursday 2026-11-26: the 22nd is a Tuesday in December, a Friday in January,
    # a Monday in February 2027
    assert _read(said, date(2026, 11, 26)) == [date(2027, 2, 22)]


def test_across_the_end_of_a_year():
    # said on Monday 2026-12-28: "Fri 1" is 1 January 2027, a Friday
    assert _read("party is Fri 1!", date(2026, 12, 28)) == [date(2027, 1, 1)]
    # "Sat 2" is 2 January too, the day after
    assert _read("brunch Sat 2?", date(2026, 12, 28)) == [date(2027, 1, 2)]


def test_across_the_end_of_a_month():
    # said on Friday 2027-04-30: "Saturday the 1st" is tomorrow, 1 May 2027
    assert _read("The fair is Saturday the 1st.", date(2027, 4, 30)) == [date(2027, 5, 1)]


def test_when_no_month_within_four_agrees_the_day_of_the_month_wins():
    # from April 2027, the first 31st that is a Thursday is in August 2028: too far, so the
    # coming 31st, of May 2027 (a Monday), as "the 31st" alone reads
    assert _read("Deadline is Thursday the 31st.", date(2027, 4, 30)) == [date(2027, 5, 31)]
    # said on 2027-03-15: the 19th is a Thursday first in August, five months on; a weekday
    # misremembered is likelier, so the coming 19th (a Friday)
    assert _read("The play is Thursday the 19th.", date(2027, 3, 15)) == [date(2027, 3, 19)]


def test_the_day_itself_when_it_agrees_today():
    # Wednesday 2029-03-07
    assert _read("meeting is Wed 7", date(2029, 3, 7)) == [date(2029, 3, 7)]


def test_in_a_sentence_about_the_past_the_latest_month_where_they_agree():
    # said on 2026-12-10: the latest Friday the 13th was in November 2026, the next one is
    # in August 2027
    assert _read("It happened on Friday the 13th.", date(2026, 12, 10), past=True) == [
        date(2026, 11, 13)
    ]
    # the next Friday the 13th is in August 2027, too far: the coming 13th
    assert _read("It is on Friday the 13th.", date(2026, 12, 10)) == [date(2026, 12, 13)]


def test_a_time_or_a_count_after_a_weekday_is_no_day_of_the_month():
    on = date(2029, 3, 7)  # a Wednesday
    assert _read("call Friday 3:30", on) == [date(2029, 3, 9)]
    assert _read("call Fri 10am", on) == [date(2029, 3, 9)]
    assert _read("Friday 3 people came", on) == []


@pytest.mark.parametrize(
    "said",
    [
        "The review on Thursday (2031-03-13) moved to the afternoon.",
        "Thursday's 2031-03-13 slot was cancelled.",
        "We met on Thursday, 13 March, and agreed.",
        "It was Thursday (March 13th) that the boiler failed.",
    ],
)
def test_a_weekday_said_with_its_date_is_that_date_not_another_one(said):
    # said on Monday 2031-03-17, in the past tense: the date given names the Thursday
    from doctree.agent.offline.directory import OTHER_KINDS, Directory
    from doctree.agent.offline.extract import read_sentence

    d = Directory({}, {}, {kind: {} for kind in OTHER_KINDS})
    s = read_sentence("2031-03-17T10:00:00Z", said, date(2031, 3, 17), d)
    assert "2031-03-13" in s.text and "2031-03-06" not in s.text, s.text
    assert s.text.count("2031-03-13") == 1, s.text


@pytest.mark.parametrize(
    "said", ["I run the Sunday 5-a-side.", "Got the Sat 3-day pass.", "the Friday 10-minute drill"]
)
def test_a_count_joined_to_a_word_after_a_weekday_is_no_day_of_the_month(said):
    assert _read(said, date(2026, 11, 26)) == []


def test_in_the_past_tense_a_coming_day_that_agrees_with_its_weekday_is_that_day():
    # said on Monday 2026-11-23: "Fri 27th" is this week's Friday, though "confirmed" is past
    assert _read("Fri 27th 9-11 confirmed for the survey.", date(2026, 11, 23), past=True) == [
        date(2026, 11, 27)
    ]
    # one gone that agrees is still that one: Monday 9 November 2026
    assert _read("We met on Monday 9th.", date(2026, 11, 23), past=True) == [date(2026, 11, 9)]


@pytest.mark.parametrize("said", ["Di match deh Monday di 22nd.", "we go Monday de 22nd"])
def test_the_spelled_as_creoles_spell_it_joins_a_weekday_to_its_day(said):
    # "di", "de" for "the" between the weekday and the day: one date, not next Monday and the
    # 22nd apart
    assert _read(said, date(2026, 11, 26)) == [date(2027, 2, 22)]


def test_a_weekday_before_other_words_of_di_stays_the_next_weekday():
    assert _read("Monday di shop shut", date(2026, 11, 26)) == [date(2026, 11, 30)]
    assert _read("Monday, and di 22nd is free", date(2026, 11, 26)) == [
        date(2026, 11, 30),
        date(2026, 12, 22),
    ]
