"""A month-day said with the year by its place ("14 October next year"), a count of months
or years from today ("three years from today") and "last night" are the dates they say."""

from __future__ import annotations

from datetime import date

import pytest

from doctree.agent.offline.language import PETS
from doctree.agent.offline.resolve import absolute_dates, resolve_relative

SAID_ON = date(2031, 10, 15)


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("Next booster is due 14 October next year.", date(2032, 10, 14)),
        ("The MOT runs out on March 3 next year.", date(2032, 3, 3)),
        ("We married on 3 June last year.", date(2030, 6, 3)),
        ("The renewal was on 2 March this year.", date(2031, 3, 2)),
    ],
)
def test_a_month_day_said_with_next_last_or_this_year_is_in_that_year(said, meant):
    assert [d for _, d in absolute_dates(said, SAID_ON)] == [meant]


@pytest.mark.parametrize(
    ("said", "written"),
    [
        ("The guarantee runs three years from today.", "three years from today (2034-10-15)"),
        ("The lease ends six months from now.", "six months from now (2032-04-15)"),
        ("The warranty is 2 years from today.", "2 years from today (2033-10-15)"),
        ("Biscuit had his booster last night, all good.", "last night (2031-10-14)"),
    ],
)
def test_counts_of_months_and_years_from_today_and_last_night_are_dated(said, written):
    assert written in resolve_relative(said, SAID_ON)[0]


@pytest.mark.parametrize(
    "said", ["It's about Biscuit, my spaniel.", "our old labrador Bramble", "Pip (the terrier)"]
)
def test_an_animal_named_by_its_breed_is_a_pet(said):
    assert any(p.search(said) for p in PETS)


@pytest.mark.parametrize(
    ("said", "on", "meant"),
    [
        ("INSET day: Friday 14 February, school closed.", date(2031, 1, 10), date(2031, 2, 14)),
        ("The hall is booked for Sat 3 January, all paid.", date(2030, 12, 1), date(2031, 1, 3)),
        ("The party was on Saturday 14 December.", date(2031, 1, 10), date(2030, 12, 14)),
    ],
)
def test_a_weekday_said_with_a_month_day_tells_its_year(said, on, meant):
    assert [d for _, d in absolute_dates(said, on, by_clause=True)] == [meant]


def test_a_weekday_that_fits_no_near_year_leaves_the_date_as_the_tense_reads_it():
    assert [d for _, d in absolute_dates("Thursday 19 March was lovely.", SAID_ON, past=True)] == [
        date(2031, 3, 19)
    ]


@pytest.mark.parametrize(
    ("said", "first"),
    [
        ("Parents' evening: Monday 8 and Tuesday 9 March.", ("Monday 8", date(2032, 3, 8))),
        ("Pick one of the 3rd or 4th of May.", ("the 3rd", date(2031, 5, 3))),
        ("Open days are 21 & 22 November.", ("21", date(2031, 11, 21))),
    ],
)
def test_the_first_of_two_days_said_with_one_month_is_of_that_month(said, first):
    assert first in absolute_dates(said, SAID_ON)


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        # a place or a ticket got (said in the past) for an event still to come
        ("I've got a place in the Riverside 10k on 8 November.", date(2031, 11, 8)),
        ("We bought tickets for the panto on 20 December.", date(2031, 12, 20)),
        ("I signed up for the pottery course on 4 November.", date(2031, 11, 4)),
        # something done on the day stays in the past
        ("We went to the panto on 20 December.", date(2030, 12, 20)),
        ("I got a parking ticket on 8 November, annoyingly.", date(2030, 11, 8)),
    ],
)
def test_a_place_or_a_ticket_got_is_for_the_date_to_come(said, meant):
    assert [d for _, d in absolute_dates(said, SAID_ON, by_clause=True)] == [meant]
