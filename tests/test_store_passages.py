"""The passage index finds what changed through the store: a live document is stale at a newer
version, a deleted one is dropped once and then recorded with no passages, and when nothing
changed nothing is stale."""

from __future__ import annotations

from doctree.memory.passages import sync_passages
from doctree.store.passages import PassageIndex

OWNER = "a"


def stale(repo) -> tuple[list[tuple[int, int]], list[int]]:
    fresh, gone = PassageIndex(repo).stale(OWNER)
    return [(s.document_id, s.version) for s in fresh], gone


def test_nothing_is_stale_after_a_sync(repo):
    repo.write(OWNER, "~/memory/a", "Alice likes tea.")
    repo.write(OWNER, "~/memory/b", "Bob likes water.")

    sync_passages(repo, OWNER)

    assert stale(repo) == ([], [])


def test_an_edited_document_is_stale_at_its_new_version(repo):
    doc = repo.write(OWNER, "~/memory/a", "Alice likes tea.")
    sync_passages(repo, OWNER)

    repo.write(OWNER, "~/memory/a", "Alice likes coffee.")

    assert stale(repo) == ([(doc.id, 2)], [])


def test_a_deleted_document_is_dropped_once_and_its_passages_are_gone(repo):
    repo.write(OWNER, "~/memory/a", "Alice likes tea.")
    gone = repo.write(OWNER, "~/memory/b", "Bob likes marmalade.")
    sync_passages(repo, OWNER)
    repo.delete(OWNER, "~/memory/b")
    assert stale(repo) == ([], [gone.id])

    sync_passages(repo, OWNER)

    assert stale(repo) == ([], [])
    assert PassageIndex(repo).search(OWNER, '"marmalade"') == []


def test_a_document_deleted_before_it_was_ever_cut_into_passages_is_recorded_once(repo):
    repo.write(OWNER, "~/memory/a", "Alice likes tea.")
    never = repo.write(OWNER, "~/memory/b", "Bob likes water.")
    repo.delete(OWNER, "~/memory/b")
    assert stale(repo)[1] == [never.id]

    sync_passages(repo, OWNER)

    assert stale(repo) == ([], [])


def test_a_restored_document_is_cut_into_passages_again(repo):
    doc = repo.write(OWNER, "~/memory/b", "Bob likes marmalade.")
    repo.delete(OWNER, "~/memory/b")
    sync_passages(repo, OWNER)

    repo.restore(OWNER, "~/memory/b", 1)

    assert stale(repo) == ([(doc.id, 3)], [])
    sync_passages(repo, OWNER)
    assert [h.document_id for h in PassageIndex(repo).search(OWNER, '"marmalade"')] == [doc.id]


def test_a_redacted_deleted_document_is_recorded_at_its_new_version(repo):
    doc = repo.write(OWNER, "~/memory/b", "secret")
    repo.delete(OWNER, "~/memory/b")
    sync_passages(repo, OWNER)

    repo.erase_version_by_id(doc.id, 1)

    assert stale(repo) == ([], [doc.id])
    sync_passages(repo, OWNER)
    assert stale(repo) == ([], [])


def test_the_index_takes_the_store_or_its_connection(repo):
    repo.write(OWNER, "~/memory/a", "Alice likes tea.")

    assert PassageIndex(repo.conn).stale(OWNER) == PassageIndex(repo).stale(OWNER)
