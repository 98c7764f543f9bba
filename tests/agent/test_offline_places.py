"""Places: a name after "in" or "at" is a place only when the whole word is the name."""

from __future__ import annotations

from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript

DAY = "2028-03-09T19:30:00Z"


def _pages(repo: DocumentsRepository) -> dict[str, str]:
    return {d.path: d.body for d in repo.documents("main", "~/memory")}


def test_a_day_with_a_possessive_after_in_is_no_place(repo):
    """ "in Thursday's release": the place pattern once stopped inside the word ("Thursda"),
    where the check for a possessive could not see it, and made a place page of it."""
    run(
        repo,
        transcript(
            "s-ship",
            (
                "user",
                DAY,
                "Pushed the fix, Odile is reviewing it, it goes out in Thursday's release.",
            ),
        ),
    )
    pages = _pages(repo)
    assert not [p for p in pages if p.startswith("~/memory/places/")], sorted(pages)
    assert "Thursday" in "\n".join(pages.values())  # the sentence itself is kept
