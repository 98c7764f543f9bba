"""Round trips to the server per write on PostgreSQL: the full-text entry of a document (or
a passage) is set by the statement that writes its row, a write transaction opens with its
lock in one round trip, and a batch of passages is one pipelined round trip."""

from __future__ import annotations

import pytest

from doctree.store.documents import DocumentsRepository
from doctree.store.passages import PassageIndex, PassageRow
from doctree.store.recall import RecallIndex, RecallRow


@pytest.fixture
def pgrepo(postgres_url):
    r = DocumentsRepository(postgres_url)
    yield r
    r.close()


def _trips(repo, fn):
    before = repo.conn.round_trips
    value = fn()
    return value, repo.conn.round_trips - before


def _found(repo, query):
    return [h.path for h in repo.search("main", query)]


def test_a_write_of_its_own_is_six_round_trips(pgrepo):
    pgrepo.write("main", "~/notes/a", "first [b](~/notes/b)")
    # BEGIN with the write lock, the rows of the path and its parent, the document (with
    # its full-text entry), its version, its references, COMMIT.
    _, created = _trips(pgrepo, lambda: pgrepo.write("main", "~/notes/c", "a note about otters"))
    _, modified = _trips(pgrepo, lambda: pgrepo.write("main", "~/notes/c", "a note about beavers"))
    assert (created, modified) == (6, 6)
    assert _found(pgrepo, "beavers") == ["~/notes/c"] and _found(pgrepo, "otters") == []


def test_a_write_in_a_batch_is_four_round_trips(pgrepo):
    pgrepo.write("main", "~/notes/a", "first")
    with pgrepo.transaction():
        _, trips = _trips(pgrepo, lambda: pgrepo.write("main", "~/notes/b", "second, about herons"))
    assert trips == 4
    assert _found(pgrepo, "herons") == ["~/notes/b"]


def test_the_index_follows_moves_deletes_and_restores(pgrepo):
    pgrepo.write("main", "~/notes/a", "kingfishers dive")
    pgrepo.move("main", "~/notes/a", "~/birds/a")
    assert _found(pgrepo, "kingfishers") == ["~/birds/a"]
    assert _found(pgrepo, "notes") == ["~/notes"]  # the path is indexed: the old one is gone
    pgrepo.delete("main", "~/birds/a")
    assert _found(pgrepo, "kingfishers") == []
    pgrepo.restore("main", "~/birds/a", 2)
    assert _found(pgrepo, "kingfishers") == ["~/birds/a"]


def test_a_modify_keeps_the_pins_of_references_the_version_before_made(repo):
    """(On both backends: the pin is now read by the INSERT of the new version's
    references.)"""
    repo.write("main", "~/a", "see [b](~/b)")
    repo.write("main", "~/b", "the first b")
    repo.move("main", "~/b", "~/c")  # the link from ~/a is pinned to the document now at ~/c
    repo.write("main", "~/a", "see [b](~/b) again")
    assert [r.source_path for r in repo.backlinks("main", "~/c")] == ["~/a"]
    repo.write("main", "~/b", "a new b")
    assert repo.backlinks("main", "~/b") == []


def test_passages_are_stored_and_indexed_in_one_round_trip(pgrepo):
    doc = pgrepo.write("main", "~/notes/log", "a log")
    rows = [PassageRow(seq=i, text=f"passage {i} about cranes", words=4) for i in range(50)]
    passages = PassageIndex(pgrepo.conn)
    with pgrepo.transaction():
        _, trips = _trips(pgrepo, lambda: passages.replace(doc.id, "main", 1, doc.path, rows))
    # forget the old passages (two statements), the source row, its catch-up mark, and
    # the 50 passages with their full-text entries in one pipeline
    assert trips <= 5
    assert len(passages.search("main", "cranes", limit=100)) == 50

    recall = RecallIndex(pgrepo.conn)
    said = [
        RecallRow(f"r{i}", 0, "user", "2026-11-20T09:00:00Z", None, f"storks {i}", 2)
        for i in range(30)
    ]
    with pgrepo.transaction():
        added, trips = _trips(pgrepo, lambda: recall.add("main", "s1", said))
    assert (added, trips) == (30, 1)
    with pgrepo.transaction():  # handed over again: nothing new
        assert recall.add("main", "s1", [*said, said[0]]) == 0
    assert len(recall.search("main", "storks")) == 30


def test_a_search_ranks_in_one_round_trip_with_its_idf_weights(pgrepo):
    pgrepo.write("main", "~/notes/a", "otters and herons by the river")
    pgrepo.write("main", "~/notes/b", "herons only")
    # The terms' document frequencies and the owner's rows are read by the ranking
    # statement itself (kept statistics), not by a statement of their own before it.
    hits, trips = _trips(pgrepo, lambda: pgrepo.search("main", "otters herons", snippets=False))
    assert trips == 1
    assert [h.path for h in hits] == ["~/notes/a", "~/notes/b"]
    doc = pgrepo.write("main", "~/notes/log", "a log")
    rows = [PassageRow(seq=i, text=f"passage {i} about otters", words=4) for i in range(3)]
    passages = PassageIndex(pgrepo.conn)
    with pgrepo.transaction():
        passages.replace(doc.id, "main", 1, doc.path, rows)
    found, trips = _trips(pgrepo, lambda: passages.search("main", '"otters" OR "herons"'))
    assert trips == 1 and len(found) == 3
