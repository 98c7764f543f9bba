"""A value corrected by naming the old one after "not" ("it's 36 litres, not 38"), said
later in the session than the line that gave the old one: that line is no longer current.
The same when the new value is read off what was written, in the next sentence ("it's not
12 500. It says NOK 21 500."), and for sums written with a currency's code and their
thousands grouped by spaces ("NOK 12 500")."""

from __future__ import annotations

from doctree.agent.offline import supersession
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript


def current_lines(repo: DocumentsRepository) -> str:
    """Every current line of memory's pages (none under Past, none of the archive)."""
    return "\n".join(
        ln
        for d in repo.documents("main", "~/memory")
        if "/archive/" not in d.path
        for ln in d.body.splitlines()
        if "— past:" not in ln
    )


def said(repo: DocumentsRepository, *messages: str) -> str:
    turns = []
    for i, m in enumerate(messages):
        turns.append(("user", f"2027-05-03T18:{2 * i:02d}:00Z", m))
        turns.append(("assistant", f"2027-05-03T18:{2 * i + 1:02d}:00Z", "Noted."))
    run(repo, transcript("s-1", *turns))
    return current_lines(repo)


def test_a_value_said_again_with_the_old_one_after_not_replaces_its_line(repo):
    text = said(
        repo,
        "Plant feed 5ml/1l: stock bottle at 450ml, checked and logged.",
        "And I've just measured the plant feed: it's 430 ml, not 450.",
    )
    assert "430 ml" in text
    assert "450ml, checked" not in text


def test_a_value_not_named_as_the_old_one_leaves_the_line_current(repo):
    # the "not" names a value no line gave: the rain butt's line stays as said
    text = said(
        repo,
        "The rain butt by the greenhouse holds 38 litres when full.",
        "The watering can by the greenhouse is 9 litres, not 12.",
    )
    assert "38 litres when full" in text


def test_a_sum_read_again_off_the_paper_in_the_next_sentence_replaces_its_line(repo):
    text = said(
        repo,
        "The garage in Bergen wants NOK 12 500 for the new exhaust on the van.",
        "Sorry, I misread the invoice, it's not 12 500. It says NOK 21 500.",
    )
    assert "21 500" in text
    assert "12 500 for the new exhaust" not in text


def test_a_currency_code_and_spaced_thousands_are_read_as_one_sum():
    said = supersession.values("they charged CHF 4 250 for the repair")
    assert [(v.kind, v.norm) for v in said] == [("amount", "4250")]


def test_a_code_or_a_number_with_no_currency_is_no_sum():
    # capitals that are no currency's code, and a number whose groups have no code before it
    said = supersession.values("flight ABC 4 250 left from gate 12 000")
    assert not [v for v in said if v.kind == "amount"]


def test_a_sum_read_off_another_paper_with_no_not_leaves_the_line_current(repo):
    # two quotes said side by side: no old value denied, two facts
    text = said(
        repo,
        "The garage in Bergen wants NOK 12 500 for the new exhaust on the van.",
        "I asked a second garage. Their quote says NOK 9 800 for the exhaust.",
    )
    assert "12 500 for the new exhaust" in text
