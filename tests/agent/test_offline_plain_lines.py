"""A chat speaker's small talk on their page: every fact of a kind, no question that holds
nothing, and a bounded number of plain lines (the session's record keeps every word)."""

from __future__ import annotations

from doctree.agent.offline.model import Sentence
from doctree.agent.offline.write import MAX_PLAIN_LINES, _facts_of

T = "2033-01-14T09:00:00Z"


def _said(text: str, *kinds: str) -> Sentence:
    return Sentence(time=T, text=text, kinds=list(kinds), speaker="Oona")


def test_a_question_holding_nothing_is_no_line():
    kept = _facts_of([_said("How did the open day go?"), _said("Oona bakes on Sundays.")])
    assert [s.text for s in kept] == ["Oona bakes on Sundays."]


def test_a_question_holding_a_figure_or_name_stays():
    # what a question says in passing may be the only place a fact was said
    said = [_said("Is the flat on Mercer Road still £900?"), _said("Shall I bring 12 chairs?")]
    assert _facts_of(said) == said


def test_plain_lines_are_bounded_and_facts_of_a_kind_are_not():
    plain = [_said(f"That was such a lovely afternoon number {i}.") for i in range(30)]
    facts = [_said(f"Oona's exam is on day {i}.", "date") for i in range(30)]
    kept = _facts_of(plain + facts)
    assert sum(1 for s in kept if not s.kinds) == MAX_PLAIN_LINES
    assert [s for s in kept if s.kinds] == facts  # the 21st fact of a kind is kept
