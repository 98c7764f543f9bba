"""Dates run together as logbooks, tickets and forms write them ("23MAR31", "04-May-2031")
are read with their year, and a table laid out in columns by spaces under a row naming
every column is read row by row, each row labelled by its columns."""

from __future__ import annotations

from datetime import date

import pytest

from doctree.agent.offline.resolve import absolute_dates
from doctree.agent.offline.segment import pasted_rows
from tests.agent.offline_runs import run, transcript

REF = date(2031, 4, 1)


@pytest.mark.parametrize(
    ("said", "phrase", "day"),
    [
        ("Checkride booked for 14JUN31 at the club", "14JUN31", date(2031, 6, 14)),
        ("renewed 02-FEB-31, good for a year", "02-FEB-31", date(2031, 2, 2)),
        ("the permit runs to 30Sep2033", "30Sep2033", date(2033, 9, 30)),
        ("visa issued 9-Nov-2030", "9-Nov-2030", date(2030, 11, 9)),
        ("her passport says born 12AUG79", "12AUG79", date(1979, 8, 12)),
    ],
)
def test_a_date_run_together_is_read_with_its_year(said, phrase, day):
    assert absolute_dates(said, REF) == [(phrase, day)]


@pytest.mark.parametrize(
    "said",
    [
        "the code was 23mar31 in lower case",  # lower case: a code, not a date
        "flight 31FEB31 cannot be",  # no such day
        "part no. 12MARK31",  # the month runs on into a word
        "serial A23MAR31B",  # inside a longer code
    ],
)
def test_what_only_looks_like_a_date_run_together_is_none(said):
    assert absolute_dates(said, REF) == []


LOG = """DATE      CLASS    VENUE         RESULT
07JAN31   U15      Riverside     2nd, 11.92s
21JAN31   U15      Hollins Park  1st, 11.80s
04FEB31   Open     Riverside     DNS"""


def test_a_table_aligned_by_spaces_under_named_columns_is_read_row_by_row():
    rows = pasted_rows(LOG.split("\n"))
    assert rows == [
        "07JAN31, class: U15; venue: Riverside; result: 2nd, 11.92s.",
        "21JAN31, class: U15; venue: Hollins Park; result: 1st, 11.80s.",
        "04FEB31, class: Open; venue: Riverside; result: DNS.",
    ]


@pytest.mark.parametrize(
    "block",
    [
        # a process list: a column name that is no label, a command in a cell
        "USER   PID  %CPU  COMMAND\nroot   1    0.0   /sbin/init\nroot   2    0.0   kthreadd",
        # rows of another width than the header
        "NAME   ROLE   DESK\nAmira  lead\nJonas  dev    4B",
        # a column name with a digit
        "Q1   Q2   Q3\n10   12   9\n11   13   8",
    ],
)
def test_columns_that_are_no_table_of_named_columns_give_no_rows(block):
    from doctree.agent.offline.segment import _aligned_rows

    assert _aligned_rows([r for r in block.split("\n") if r.strip()]) is None


def test_a_pasted_log_in_a_fence_keeps_each_row_with_its_date(repo):
    said = f"My race results so far this season:\n\n```\n{LOG}\n```\n"
    run(repo, transcript("s-races", ("user", "2031-02-10T18:00:00Z", said)))
    text = "\n".join(d.body for d in repo.documents("main", "~/memory"))
    assert "2031-01-21" in text and "Hollins Park" in text and "11.80s" in text
