"""A run-on sentence is cut into its clauses at its commas, but never inside a quotation:
someone's words (she said "fine, we'll keep it") stay whole with who said them, so
that their "we'll" is never read as the user's own plan."""

from __future__ import annotations

import pytest

from doctree.agent.offline.segment import run_on_pieces

LONG = (
    "So I phoned the depot on the Tuesday morning before work, I asked them to hold the "
    "parcel until Friday because I was away, I gave them my reference number twice over, "
    "and the woman on the desk said {q}fine, we'll keep it behind the desk till it gets collected{e}."
)


@pytest.mark.parametrize(("q", "e"), [('"', '"'), ("“", "”")])
def test_words_in_quotes_stay_whole(q, e):
    pieces = run_on_pieces(LONG.format(q=q, e=e))
    assert len(pieces) > 1  # still cut at the clauses outside the quotation
    said = next(p for p in pieces if "woman on the desk" in p)
    assert "we'll keep it behind the desk" in said
    assert not any(p.startswith("We'll") for p in pieces)


def test_a_long_list_without_quotes_is_still_cut():
    said = (
        "Moving day is the 23rd of the month, the van comes at 8 in the morning, the day before "
        "we defrost the freezer and fridge, the keys go to the agent by noon on the day, and "
        "the cat goes to my mum's for the week."
    )
    assert len(run_on_pieces(said)) == 5
