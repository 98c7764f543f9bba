"""A grid the user pastes (a timetable by day, a rota under week headings, a fixture list in
fixed-width columns) is read cell by cell with its row and column headers; a grid of codes or
a shell history is no timetable; "Sat 12 Jan" is a Saturday, not the verb "sat"."""

from __future__ import annotations

from datetime import date

import pytest

from doctree.agent.offline.grids import grid_lines, is_grid, read_grids
from doctree.agent.offline.language import past_tense
from doctree.agent.offline.resolve import absolute_dates
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import current_facts, past_facts, run, transcript


def _say(repo: DocumentsRepository, session: str, time: str, text: str) -> str:
    run(repo, transcript(session, ("user", time, text)))
    return current_facts(repo)


def test_a_rota_under_week_headings_is_read_a_line_per_row_with_its_week_and_day(repo):
    now = _say(
        repo,
        "s-rota",
        "2031-05-04T18:00:00Z",
        "The bin and pet rota for the boys, it alternates:\n\n"
        "ODD WEEKS\n"
        "Mon\tOwen feeds the fish\n"
        "Tue\t-\n"
        "Wed\tBen takes the recycling out\n"
        "Fri\tOwen hoovers the stairs\n\n"
        "EVEN WEEKS\n"
        "Mon    Ben feeds the fish\n"
        "Wed    Owen takes the recycling out\n"
        "Thu    Ben waters the plants\n",
    )
    assert "Owen feeds the fish — Odd Weeks, Mondays" in now, now
    assert "Ben waters the plants — Even Weeks, Thursdays" in now, now
    # a weekday alone in a grid comes back every week: no single date is pinned on it
    assert "2031-05-05" not in now and "2031-05-08" not in now, now
    assert "Tuesday" not in now, now  # an empty cell gives nothing, and no range of days


def test_a_fixed_width_fixture_list_keeps_each_dated_row(repo):
    now = _say(
        repo,
        "s-fixtures",
        "2030-03-02T12:00:00Z",
        "Our cricket fixtures:\n\n"
        "```\n"
        "Sat 15 Mar   v Ashby Wanderers   (H)  13:00\n"
        "Sat 22 Mar   v Kirkby Town       (A)  13:30\n"
        "Sat 29 Mar   v Moorside          (H)  14:00\n"
        "```",
    )
    assert "Sat 22 Mar (2030-03-22): v Kirkby Town, (A), 13:30" in now, now
    assert "Sat 29 Mar (2030-03-29): v Moorside" in now, now


def test_a_match_postponed_retires_its_fixture_row(repo):
    _say(
        repo,
        "s-fix-1",
        "2030-03-02T12:00:00Z",
        "```\n"
        "Sat 15 Mar   v Ashby Wanderers   (H)  13:00\n"
        "Sat 22 Mar   v Kirkby Town       (A)  13:30\n"
        "Sat 29 Mar   v Moorside          (H)  14:00\n"
        "```",
    )
    now = _say(
        repo,
        "s-fix-2",
        "2030-03-10T12:00:00Z",
        "The Kirkby Town game got postponed, their pitch is waterlogged.",
    )
    assert "2030-03-22" not in now, now
    assert "Kirkby Town" in past_facts(repo)


def test_a_grid_with_day_columns_reads_each_cell_with_its_column_and_row():
    lines = grid_lines(
        [
            "          Mon        Tue        Wed",
            "9:00      Maths      Science    Art",
            "10:00     English    -          Music",
            "11:00     Drama      History    Maths",
        ]
    )
    assert lines is not None
    assert "Maths — Mondays, 9:00." in lines
    assert "Music — Wednesdays, 10:00." in lines
    assert not any(line.startswith("-") for line in lines)


@pytest.mark.parametrize(
    "block",
    [
        ["4hq7-2mzp  8ktd-c3ve", "h2rw-77cn  p5ja-0lqe", "mz8u-kk41  t6fy-3nhs"],  # codes
        [
            "  101  ssh deploy@web-01",
            "  102  sudo systemctl restart app",
            "  103  tail -n 50 /var/log/app.log",
        ],
        ["We had a lovely time.  Then it rained.", "The kids loved it.  So did we.", "Done."],
        ["Tel:     0161 555 0199", "Mobile:  07700 900 123", "Email:   ana@example.org"],
    ],
)
def test_codes_a_shell_history_double_spaced_prose_and_aligned_fields_are_no_grid(block):
    assert not is_grid(block)


def test_plain_prose_is_left_as_it_is():
    text = "We met at ten.  It went well.\nThen lunch.  Then home.\nA good day."
    assert read_grids(text) == text


def test_sat_before_a_date_is_a_saturday_not_the_verb():
    assert not past_tense("v Kirkby Town, (A), 13:30 — Sat 22 Mar")
    assert past_tense("We sat with Ana for an hour on 3 May")
    # said on 2030-03-10, "Sat 22 Mar" is the coming one, not last year's
    assert absolute_dates("Sat 22 Mar: v Kirkby Town", date(2030, 3, 10), by_clause=True) == [
        ("22 Mar", date(2030, 3, 22))
    ]


def test_a_date_rearranged_for_a_weekday_and_day_is_the_coming_one():
    said = "The league has rearranged it for Sat 16 Feb, same time."
    assert absolute_dates(said, date(2030, 1, 22), by_clause=True) == [
        ("16 Feb", date(2030, 2, 16))
    ]
