"""A capitalised word the sentence reads as a holiday ("wor Easter", "Diwali at ours") is a
day, no person, in whatever dialect it is said; nor is "God" of "thank God". A person whose
name a day counts from ("the day after Marisol's party") is still a person."""

from __future__ import annotations

from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript


def _people(repo: DocumentsRepository) -> set[str]:
    return {
        d.path.rsplit("/", 1)[-1]
        for d in repo.documents("main", "~/memory")
        if "/people/" in d.path
    }


def _said(repo: DocumentsRepository, message: str) -> None:
    day = "2034-12-03T10:00:00Z"
    run(repo, transcript("s-hol", ("user", day, message), ("assistant", day, "Noted.")))


def test_a_holiday_after_a_dialect_word_is_no_person(repo: DocumentsRepository):
    # the "she" of the next sentence once made the holiday someone to refer to
    _said(repo, "Ah need a hand sortin wor Christmas. She's comin up from Whitby on the 21st.")
    assert "christmas" not in _people(repo)


def test_thank_god_names_nobody(repo: DocumentsRepository):
    _said(repo, "The boiler's fixed, thank God, so my neighbour Oskar can come round on Friday.")
    people = _people(repo)
    assert "god" not in people
    assert "oskar" in people


def test_a_person_a_day_counts_from_is_still_someone(repo: DocumentsRepository):
    _said(repo, "My cousin Marisol has her party on Friday and we clean up the day after.")
    assert "marisol" in _people(repo)
