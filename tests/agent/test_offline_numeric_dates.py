"""Numeric dates ("04/02/2030", "Tuesday 04/09", "14/03") are read in the order the
conversation shows: a first number over 12, "mm/dd", a US or UK telephone number, a weekday
said with the date. Without a sign an ambiguous date is left as said, and a fraction, a score
or a version is never a date."""

from __future__ import annotations

from datetime import date

import pytest

from doctree.agent.offline.numeric import date_order, numeric_dates
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript

REF = date(2031, 3, 10)


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("The lease ends 28/02/2031 and the deposit is due 03/04/2031.", "dmy"),
        ("Checkout is 02/28/2031, the deposit is due 03/04/2031.", "mdy"),
        ("Dates below are mm/dd. Recital 05/06.", "mdy"),
        ("Call the office on (512) 555-0199 about 05/06.", "mdy"),
        ("We live in Tacoma, Washington. Recital 05/06.", "mdy"),
        ("Ring me on +44 20 7946 0958 about 05/06.", "dmy"),
        ("Recital 05/06, bring a snack.", None),
    ],
)
def test_the_order_of_numeric_dates_is_the_one_the_text_shows(text, order):
    assert date_order(text) == order


def test_a_month_first_date_is_read_month_first():
    assert numeric_dates("Spring fair: 04/02/2031.", REF, "mdy") == [
        ("04/02/2031", date(2031, 4, 2))
    ]


def test_a_day_first_date_is_read_day_first():
    assert numeric_dates("Le rendez-vous est le 04/02/2031.", REF, "dmy") == [
        ("04/02/2031", date(2031, 2, 4))
    ]


def test_an_ambiguous_date_without_a_sign_is_left_as_said():
    assert numeric_dates("The recital is 05/06/2031.", REF, None) == []


def test_a_date_only_one_order_can_read_needs_no_sign():
    assert numeric_dates("Die Frist endet am 23/04/2031.", REF, None) == [
        ("23/04/2031", date(2031, 4, 23))
    ]


def test_a_weekday_said_with_the_date_settles_its_order():
    # 2031-04-08 is a Tuesday, 2031-08-04 a Monday
    assert numeric_dates("The call moved to Tuesday 04/08.", REF, None) == [
        ("04/08", date(2031, 4, 8))
    ]
    assert numeric_dates("The call moved to Monday 04/08.", REF, None) == [
        ("04/08", date(2031, 8, 4))
    ]


def test_a_yearless_date_is_the_next_such_day_unless_the_sentence_is_past():
    assert numeric_dates("The dentist is 02/03 at 9:30.", REF, "mdy") == [
        ("02/03", date(2032, 2, 3))
    ]
    assert numeric_dates("Cita con el dentista: 04/05 @ 10am.", REF, "dmy") == [
        ("04/05", date(2031, 5, 4))
    ]
    assert numeric_dates("The dentist was on 02/03.", REF, "mdy") == [("02/03", date(2031, 2, 3))]


@pytest.mark.parametrize(
    "text",
    [
        "Add 1/2 cup of flour and 3/4 of the sugar.",
        "We scored 10/12 in the quiz.",
        "Upgraded to 3.5 and then 2.4.1; the ratio is 16/9.",
        "The match ended 3-1, the series stands at 2/3.",
        "Served 95/100 customers, 45/60 min in.",
        "Open https://example.org/05/06/x for the notes.",
    ],
)
def test_a_fraction_score_or_version_is_no_date(text):
    assert numeric_dates(text, REF, "mdy") == []


def _current(repo: DocumentsRepository) -> str:
    return "\n".join(
        d.body.split("\n## Past")[0]
        for d in repo.documents("main", "~/memory")
        if "/archive" not in d.path
    )


def test_a_pasted_us_schedule_is_dated_month_first_and_its_neighbours_stay(repo):
    run(
        repo,
        transcript(
            "s-us-dates",
            (
                "user",
                "2031-03-10T15:00:00Z",
                "The league office in Dayton (937) 555-0112 sent the schedule. The opener is"
                " 04/05/2031 at Riverside Park. Jonah got a new glove for $45.",
            ),
        ),
    )
    now = _current(repo)
    assert "2031-04-05" in now, now
    assert "2031-05-04" not in now, now
    assert "Jonah got a new glove for $45" in now, now
