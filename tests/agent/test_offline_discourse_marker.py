"""A word that opens a sentence before a comma ("Sorry, the school bus …", "Actually, the
bank holiday …") is no name: "X, the school …" makes X an organisation only when X can be a
name ("Larchfield, the school my niece goes to")."""

from __future__ import annotations

import pytest

from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript


def _pages(repo: DocumentsRepository, *messages: str) -> set[str]:
    run(
        repo,
        transcript(
            "s-marker",
            *[("user", f"2029-03-07T10:{i:02d}:00Z", m) for i, m in enumerate(messages)],
        ),
    )
    return {d.path for d in repo.documents("main", "~/memory")}


@pytest.mark.parametrize(
    "said",
    [
        "Sorry, the school concert is on the 13th, not the 12th.",
        "Actually, the school concert is on the 13th, not the 12th.",
    ],
)
def test_a_word_opening_a_sentence_before_a_comma_is_no_organisation(tmp_path, said):
    with DocumentsRepository(tmp_path / "p.db") as repo:
        pages = _pages(repo, "The school concert is on the 12th of May.", said)
    assert not any(p.startswith("~/memory/organisations/") for p in pages), pages


def test_a_name_before_the_school_is_still_an_organisation(tmp_path):
    with DocumentsRepository(tmp_path / "p.db") as repo:
        pages = _pages(repo, "Larchfield, the school my niece goes to, shuts on Friday.")
    assert "~/memory/organisations/larchfield" in pages, pages
