"""A month-day in a clause with no verb of its own ("…, first session on 3 May") borrows no
past tense from the clause before it: its year is the one that puts it nearest the day said.
A day in a clause with its own past verb is still the latest one."""

from __future__ import annotations

from datetime import date

from doctree.agent.offline.resolve import absolute_dates
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import facts_after

SAID = date(2033, 3, 20)


def _days(text: str) -> list[date]:
    return [d for _, d in absolute_dates(text, SAID, by_clause=True)]


def test_a_verbless_clause_after_a_past_one_is_the_coming_day():
    said = "I've signed up to coach the juniors at the rowing club, first outing on 2 Apr."
    assert _days(said) == [date(2033, 4, 2)]


def test_a_clause_with_its_own_past_verb_keeps_the_latest_day():
    assert _days("We stayed at the lodge on 2 Apr.") == [date(2032, 4, 2)]
    assert _days("I've signed up to coach, and we trained on 2 Apr.") == [date(2032, 4, 2)]


def test_the_coming_day_reaches_the_page(repo: DocumentsRepository):
    facts = facts_after(
        repo,
        "I've agreed to run the tombola at the fete, setup with Marisol on 9 April.",
        "2033-03-20T09:00:00Z",
    )
    assert "2033-04-09" in facts
    assert "2032-04-09" not in facts
