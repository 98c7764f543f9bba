"""A table drawn with bars in a fenced block ("name | dish" over "-----+-----", as a
database client prints it, a markdown table, or one boxed in "+----+") is read row by row,
each row a statement with its cells labelled, also when a title or a line of where and when
stands above or below it (read as the message's own). A later "X instead of Y" of one
person's row moves that row, not another line naming Y."""

from __future__ import annotations

import pytest

from doctree.agent.offline.segment import pasted_rows
from tests.agent.offline_runs import current_facts, page_lines, run, transcript

PSQL = """stall     | bringing        | tins
----------+-----------------+-----
Marguerite| lemon drizzle   | 2
Tobias    | flapjacks       | 3
Ines      | cheese scones   | 1"""

BOXED = """+-------+-------+
| room  | paint |
+-------+-------+
| hall  | sage  |
| study | ochre |
+-------+-------+"""


@pytest.mark.parametrize(
    ("block", "row"),
    [
        (PSQL, "Tobias, bringing: flapjacks; tins: 3."),
        (BOXED, "study, paint: ochre."),
        ("| who | pud |\n|---|---|\n| Ann | trifle |\n| Raj | kulfi |", "Raj, pud: kulfi."),
    ],
)
def test_a_drawn_table_is_read_row_by_row(block, row):
    assert row in pasted_rows(block.split("\n"))


@pytest.mark.parametrize(
    "block",
    [
        # rows apart from each other, or of another width, or code
        "a | b | c\n-----\nnot a row here\n1 | 2 | 3",
        "who | pud\n----+----\nAnn | trifle | extra\nRaj | kulfi",
        "x = a | b\n----+----\ny = c | d\nz = e | f",
        # a header that is no label
        "2024 | 2025\n-----+-----\n10 | 12\n11 | 13",
    ],
)
def test_no_table_no_rows(block):
    assert pasted_rows(block.split("\n")) == []


def _bake_sale(repo):
    run(
        repo,
        transcript(
            "s-bake",
            (
                "user",
                "2031-09-03T18:00:00Z",
                "The bake sale rota came round:\n\n```\nPARISH BAKE SALE - who brings what\n"
                + PSQL
                + "\nSale: St Anne's hall, 10am, Saturday 13 September\n```\n\n"
                "Tobias's flapjacks always sell out first.",
            ),
            ("assistant", "2031-09-03T18:01:00Z", "Noted."),
        ),
    )


def test_the_rows_and_the_notes_beside_them_are_kept(repo):
    _bake_sale(repo)
    facts = current_facts(repo)
    assert "Marguerite, bringing: lemon drizzle" in facts
    assert "St Anne's hall" in facts  # the note under the table


def test_instead_of_moves_the_named_persons_row(repo):
    _bake_sale(repo)
    run(
        repo,
        transcript(
            "s-bake2",
            (
                "user",
                "2031-09-08T18:00:00Z",
                "Tobias says he'll bring brownies instead of the flapjacks, for a change.",
            ),
            ("assistant", "2031-09-08T18:01:00Z", "Noted."),
        ),
    )
    now, past = page_lines(repo)
    assert any("Tobias, bringing: flapjacks" in ln for ln in past)
    assert not any("Tobias, bringing: flapjacks" in ln for ln in now)
    assert any("always sell out" in ln for ln in now)  # the other line naming them stays


def test_instead_of_moves_the_row_of_a_table_outside_a_fence(repo):
    run(
        repo,
        transcript(
            "s-pot",
            (
                "user",
                "2031-09-03T18:00:00Z",
                "Potluck list:\n\n| who | dish | serves |\n|---|---|---|\n"
                "| Odile | tagine | 6 |\n| Bram | paella | 8 |\n\nEveryone at the allotments loves Bram's paella.",
            ),
            ("assistant", "2031-09-03T18:01:00Z", "Noted."),
        ),
    )
    run(
        repo,
        transcript(
            "s-pot2",
            (
                "user",
                "2031-09-08T18:00:00Z",
                "Bram is making a risotto instead of the paella, for a change.",
            ),
            ("assistant", "2031-09-08T18:01:00Z", "Noted."),
        ),
    )
    now, past = page_lines(repo)
    assert any("Bram, dish: paella" in ln for ln in past)
    assert any("loves" in ln for ln in now)
