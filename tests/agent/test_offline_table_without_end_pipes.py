"""A table pasted without pipes at the ends of its lines ("SHELF | BOOK | LENT TO") is read
as a table: each row a statement of its own, its cells labelled by their column. One line
with pipes in it, or lines of different widths, are left as they are."""

from __future__ import annotations

from doctree.agent.offline.segment import outer_pipes
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import current_facts, run, transcript

TABLE = (
    "My book loans so far:\n\n"
    "SHELF | BOOK | LENT TO | WHEN\n"
    "A | Middlemarch | Thaddeus | March\n"
    "B | The Leopard, Lampedusa | Wilhelmina | last week\n"
)


def test_rows_without_end_pipes_get_them():
    assert outer_pipes("X | Y | Z\n1 | 2 | 3") == "| X | Y | Z |\n| 1 | 2 | 3 |"


def test_one_line_with_pipes_is_prose():
    said = "Options are tea | coffee | juice, you pick."
    assert outer_pipes(said) == said


def test_lines_of_different_widths_are_left():
    said = "a | b | c\nd | e | f | g"
    assert outer_pipes(said) == said


def test_a_fenced_table_is_left():
    said = "```\na | b | c\nd | e | f\n```"
    assert outer_pipes(said) == said


def test_each_row_is_a_line_of_its_own(repo: DocumentsRepository):
    day = "2037-02-02T09:00:00Z"
    run(repo, transcript("s-loans", ("user", day, TABLE), ("assistant", day, "Noted.")))
    facts = current_facts(repo)
    row = next(ln for ln in facts.splitlines() if "Lampedusa" in ln)
    assert "Wilhelmina" in row
    assert "Middlemarch" not in row
