"""A stretch of days ("from the 14th to the 17th", "14-17 March", "du 14 au 17", "vom 14.
bis 17.", "del 14 al 17") has both its ends made absolute, the first read from the last:
the same month, or the month before when the first day is the larger number."""

from __future__ import annotations

from datetime import date

import pytest

from doctree.agent.offline.resolve import absolute_dates, resolve_relative
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript

NOV = date(2026, 11, 26)


def _ends(said: str, on: date = NOV, *, past: bool = False) -> tuple[str, list[date]]:
    out, found = resolve_relative(said, on, past=past)
    return out, [d for _, d in found]


@pytest.mark.parametrize(
    "said",
    [
        "We're away from the 14th to the 17th.",
        "away 14th-17th",
        "away the 14th till the 17th",
        "on sera là du 14 au 17",
        "ich bin vom 14. bis 17. weg",
        "estamos fuera del 14 al 17",
        "siamo via dal 14 al 17",
    ],
)
def test_a_stretch_of_days_of_the_month_has_both_ends(said):
    out, ends = _ends(said)
    assert ends == [date(2026, 12, 14), date(2026, 12, 17)], out
    assert "(2026-12-14 to 2026-12-17)" in out


@pytest.mark.parametrize(
    ("said", "first", "last"),
    [
        ("booked 14-17 March", date(2027, 3, 14), date(2027, 3, 17)),
        ("Rome, March 14-17", date(2027, 3, 14), date(2027, 3, 17)),
        ("from 14 to 17 March 2028", date(2028, 3, 14), date(2028, 3, 17)),
        ("du 2 au 5 janvier", date(2027, 1, 2), date(2027, 1, 5)),
        ("del 20 al 23 de diciembre", date(2026, 12, 20), date(2026, 12, 23)),
    ],
)
def test_a_stretch_with_its_month_has_both_ends_in_that_month(said, first, last):
    out, ends = _ends(said)
    assert ends == [first, last], out
    assert absolute_dates(said, NOV) == []  # read once, as a stretch, not as one date


def test_a_stretch_across_the_end_of_a_month_and_of_a_year():
    _, ends = _ends("we're in Lisbon from the 28th to the 3rd", date(2026, 12, 10))
    assert ends == [date(2026, 12, 28), date(2027, 1, 3)]


def test_a_stretch_already_begun_is_the_one_under_way():
    _, ends = _ends("I'm off from the 24th to the 28th", NOV)
    assert ends == [date(2026, 11, 24), date(2026, 11, 28)]


def test_in_a_sentence_about_the_past_the_stretch_gone():
    _, ends = _ends("we were away from the 14th to the 17th", NOV, past=True)
    assert ends == [date(2026, 11, 14), date(2026, 11, 17)]


@pytest.mark.parametrize("said", ["ages 14-17 only", "we won 3-1", "from 14 to 17 people"])
def test_two_numbers_without_a_month_or_an_ordinal_are_no_stretch(said):
    out, ends = _ends(said)
    assert ends == [] and out == said


def test_a_stretch_reaches_the_page_with_both_ends(repo: DocumentsRepository):
    run(
        repo,
        transcript(
            "s-range", ("user", "2026-11-26T10:00:00Z", "The conference runs 14-17 March in Porto.")
        ),
    )
    pages = "\n".join(d.body for d in repo.documents("main", "~/memory"))
    assert "14-17 March (2027-03-14 to 2027-03-17)" in pages, pages


@pytest.mark.parametrize(
    ("said", "first", "last"),
    [
        ("The conference is Tuesday 9 to Thursday 11 March 2027.", date(2027, 3, 9), None),
        ("Lodge booked Fri 12 – Sun 14 February", date(2027, 2, 12), date(2027, 2, 14)),
        ("kids at camp Monday 2 to Friday 6 August", date(2027, 8, 2), date(2027, 8, 6)),
    ],
)
def test_a_stretch_with_a_weekday_at_each_end_has_both_ends(said, first, last):
    out, ends = _ends(said)
    assert ends == [first, last or date(2027, 3, 11)], out


@pytest.mark.parametrize(
    "said",
    [
        # no month after the last day: each day read with its own weekday, as before
        "She's off from Friday the 4th to Monday the 7th.",
        # a score and a weekday: no stretch
        "We lost 3 to 1 on Saturday 6 March.",
    ],
)
def test_a_weekday_in_a_stretch_needs_the_month_after_it(said):
    out, _ = _ends(said)
    assert " to 20" not in out, out
