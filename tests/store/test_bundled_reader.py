"""Passage searches on SQLite run on the newer SQLite bundled with `apsw` when no transaction
is open (`doctree.store.backends.sqlite.bundled_reader`): the same rows as the connection's
own SQLite would give, what a transaction sees inside one, never a file replaced under the
process, and the connection's own errors for a statement the bundled SQLite refuses."""

from __future__ import annotations

import os
import sqlite3

import apsw
import pytest

from doctree.errors import DatabaseGoneError
from doctree.memory.passages import sync_passages
from doctree.store.backends.sqlite import SQLITE
from doctree.store.documents import Actor, DocumentsRepository, Provenance
from doctree.store.model import PassageSearch
from doctree.store.passages import PassageIndex

OWNER = "ada"
PROV = Provenance(Actor("agent", OWNER))
WEIGHTS = (1.0, 0.3, 0.0, 1.0)


def store(path) -> DocumentsRepository:
    repo = DocumentsRepository(path)
    with repo.transaction():
        for i in range(40):
            words = " ".join(f"w{(i * 7 + k) % 23}" for k in range(6))
            repo.write(OWNER, f"~/memory/n{i}", f"- {words}.\n- kiwi {i}.\n", provenance=PROV)
    sync_passages(repo, OWNER)
    return repo


def on_connection(repo: DocumentsRepository, match: str, limit: int = 300) -> list[tuple]:
    """(id, score) of the best matches, the statement run on the connection's own SQLite."""
    w = ", ".join(f"{x:.4f}" for x in (0.0, *WEIGHTS))
    rows = repo.conn.execute(
        f"SELECT p.id, -bm25(passages_fts, {w}) AS score FROM passages_fts"
        " JOIN passages p ON p.id = passages_fts.rowid WHERE passages_fts MATCH ?"
        " AND p.owner = ? ORDER BY score DESC, p.id LIMIT ?",
        [f"{{text surroundings speaker dates}} : ({match})", OWNER, limit],
    ).fetchall()
    return [(r[0], r[1]) for r in rows]


def test_search_outside_a_transaction_runs_on_the_bundled_sqlite_with_the_same_rows(tmp_path):
    repo = store(tmp_path / "d.db")
    index = PassageIndex(repo)
    for match in ('"w3"', '"w3" OR "w5" OR "w3 w4"', '"kiwi"'):
        hits = index.search(OWNER, match, limit=300, weights=WEIGHTS)
        assert [(h.id, h.score) for h in hits] == on_connection(repo, match)
    reader = repo.conn.reader
    assert reader is not None
    assert reader.execute("SELECT sqlite_version()").fetchone()[0] == apsw.sqlite_lib_version()
    repo.close()


def test_search_inside_a_snapshot_sees_the_snapshot_not_a_later_commit(tmp_path):
    repo = store(tmp_path / "d.db")
    other = DocumentsRepository(tmp_path / "d.db")
    index = PassageIndex(repo)
    with repo.snapshot():
        before = index.search(OWNER, '"mango"', weights=WEIGHTS)
        other.write(OWNER, "~/memory/fruit", "- mango season.\n", provenance=PROV)
        sync_passages(other, OWNER)
        assert index.search(OWNER, '"mango"', weights=WEIGHTS) == before == []
    assert [h.path for h in index.search(OWNER, '"mango"', weights=WEIGHTS)] == ["~/memory/fruit"]
    other.close()
    repo.close()


def test_search_inside_a_write_transaction_finds_its_own_uncommitted_passages(tmp_path):
    repo = store(tmp_path / "d.db")
    index = PassageIndex(repo)
    index.search(OWNER, '"w3"', weights=WEIGHTS)  # the bundled reader is open
    with repo.transaction():
        repo.write(OWNER, "~/memory/fruit", "- papaya season.\n", provenance=PROV)
        sync_passages(repo, OWNER)
        found = index.search(OWNER, '"papaya"', weights=WEIGHTS)
        assert [h.path for h in found] == ["~/memory/fruit"]
    repo.close()


def test_search_after_the_file_is_replaced_says_the_database_is_gone(tmp_path):
    repo = store(tmp_path / "d.db")
    index = PassageIndex(repo)
    assert index.search(OWNER, '"kiwi"', weights=WEIGHTS)
    store(tmp_path / "other.db").close()
    os.replace(tmp_path / "other.db", tmp_path / "d.db")
    with pytest.raises(DatabaseGoneError, match="replaced by another"):
        index.search(OWNER, '"kiwi"', weights=WEIGHTS)
    repo.close()


def test_closing_the_connection_closes_the_bundled_reader(tmp_path):
    repo = store(tmp_path / "d.db")
    PassageIndex(repo).search(OWNER, '"kiwi"', weights=WEIGHTS)
    reader = repo.conn.reader
    repo.close()
    with pytest.raises(apsw.ConnectionClosedError):
        reader.execute("SELECT 1")


def test_a_statement_the_bundled_sqlite_refuses_raises_the_connections_error(tmp_path):
    repo = store(tmp_path / "d.db")
    PassageIndex(repo).search(OWNER, '"kiwi"', weights=WEIGHTS)
    assert repo.conn.reader is not None
    search = PassageSearch('"kiwi" OR', OWNER, 10, WEIGHTS)
    with pytest.raises(sqlite3.OperationalError, match="fts5: syntax error"):
        SQLITE.search_passages(repo.conn, "passages", "c.id", search)
    repo.close()
