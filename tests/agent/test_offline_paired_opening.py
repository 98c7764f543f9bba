"""A sentence's first word joined by "and" to a name ("Tom and Jake came round") may be
someone too, though its capital tells nothing: a "he" or "she" right after it could mean
either, so the sentence is kept as said, not made about the name the rules know."""

from __future__ import annotations

from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import everything, run, transcript


def _said(repo: DocumentsRepository, *messages: str) -> str:
    run(
        repo,
        transcript(
            "s-pair",
            *[("user", f"2029-03-07T10:{i:02d}:00Z", m) for i, m in enumerate(messages)],
        ),
    )
    return everything(repo, archive=False)


def test_he_after_a_first_word_paired_with_a_name_means_no_one(tmp_path):
    with DocumentsRepository(tmp_path / "p.db") as repo:
        pages = _said(
            repo, "Ollie and Marcus dropped by after work. He's starting at Arup in June."
        )
    assert "Marcus is starting at Arup" not in pages, pages
    assert "starting at Arup in June" in pages, pages


def test_she_after_two_women_paired_is_kept_as_said(tmp_path):
    with DocumentsRepository(tmp_path / "p.db") as repo:
        pages = _said(repo, "Hannah and Ruth stayed over. She left her scarf on the sofa.")
    assert "Ruth left her scarf" not in pages, pages
    assert "She left her scarf" in pages, pages


def test_he_after_a_common_word_paired_with_a_name_is_that_name(tmp_path):
    with DocumentsRepository(tmp_path / "p.db") as repo:
        pages = _said(
            repo, "My brother Marcus came round after work.", "He's starting at Arup in June."
        )
    assert "Marcus is starting at Arup in June" in pages, pages
