"""Who serves a place or a congregation ("our councillor is …", "the vicar, …") is a person
with that role, as a plumber or a vet is: the sentence is theirs, not that of someone named
before it whom its "him" or "her" might otherwise be read as."""

from __future__ import annotations

from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript


def _pages(repo: DocumentsRepository, message: str) -> dict[str, str]:
    day = "2035-05-14T18:00:00Z"
    run(repo, transcript("s-civic", ("user", day, message), ("assistant", day, "Noted.")))
    return {
        d.path.rsplit("/", 1)[-1]: d.body
        for d in repo.documents("main", "~/memory")
        if "/people/" in d.path
    }


def test_a_councillor_named_is_a_person_with_the_role(repo: DocumentsRepository):
    pages = _pages(
        repo,
        "My niece Oona helped with the petition. "
        "Our councillor is Bartholomew Quayle, I'll send him a copy.",
    )
    assert "bartholomew-quayle" in pages
    assert "councillor" in pages["bartholomew-quayle"]
    assert "send him a copy" in pages["bartholomew-quayle"]
    assert "send him a copy" not in pages.get("oona", "")


def test_the_vicar_set_beside_a_name(repo: DocumentsRepository):
    pages = _pages(repo, "The vicar, Ottilie Marsh, is taking the service on Sunday.")
    assert "ottilie-marsh" in pages


def test_a_single_word_after_the_role_is_no_person(repo: DocumentsRepository):
    # a party or a ward may stand where the name would
    pages = _pages(repo, "Our councillor is Labour this time round.")
    assert "labour" not in pages
