"""Bytes on disk: what a write leaves behind besides the version it stores.

The full-text index does not keep the terms of replaced entries, a new SQLite file gives
its free pages back, and a document's current body is stored once, not also in its
current version's row."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from doctree.errors import NotFoundError
from doctree.store.documents import Actor, DocumentsRepository, Provenance

OWNER = "a"
PROV = Provenance(Actor("agent", OWNER))
WORDS = [f"w{i:03d}x" for i in range(400)]


def note(rnd: random.Random, lines: int = 30) -> str:
    return "".join(" ".join(rnd.choice(WORDS) for _ in range(9)) + "\n" for _ in range(lines))


def index_bytes(path: Path) -> int:
    """Bytes the rows of the documents' full-text index hold (SQLite's `dbstat` payload):
    what the index keeps, whatever the page size of the file."""
    conn = sqlite3.connect(path)
    try:
        return conn.execute(
            "SELECT SUM(payload) FROM dbstat WHERE name LIKE 'documents_fts%'"
        ).fetchone()[0]
    finally:
        conn.close()


def test_edits_one_by_one_leave_no_old_terms_piling_up_in_the_index(tmp_path):
    """Each write its own transaction (as the CLI and the agent's tools write): the index
    stays within a few times one merged segment of the current bodies, instead of holding
    every replaced body's terms until some later merge (measured: 3.6x merged with the
    merging after writes, 7.4x without)."""
    path = tmp_path / "m.db"
    repo = DocumentsRepository(path)
    rnd = random.Random(1)
    body = note(rnd)
    for k in range(300):
        lines = body.splitlines(keepends=True)
        lines[rnd.randrange(len(lines))] = note(rnd, 1)
        body = "".join(lines)
        repo.write(OWNER, f"~/notes/n{k % 5}", body, provenance=PROV)
    repo.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    kept = index_bytes(path)
    repo.optimize_search_index()
    repo.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    merged = index_bytes(path)
    assert kept <= 5 * merged, (kept, merged)
    assert [h.path for h in repo.search(OWNER, body.split()[0])][:1]  # still searchable
    repo.close()


@pytest.mark.parametrize("batch", [100, 1000])
def test_edits_in_transactions_of_many_leave_no_old_terms_piling_up_in_the_index(tmp_path, batch):
    """Many edits to a transaction (a batch, an import): the merge after each COMMIT takes
    in a page for every two entries the transaction replaced, so the index stays near one
    merged segment of the current bodies (measured, 500 notes edited 1,250 times: 1.07x
    merged; 1.6x when each merge was bounded to 16 pages, which FTS5 left half done)."""
    path = tmp_path / "m.db"
    repo = DocumentsRepository(path)
    rnd = random.Random(2)
    bodies = {f"~/notes/n{i:03d}": note(rnd) for i in range(500)}
    changes = list(bodies.items())
    for _ in range(1250):
        p = rnd.choice(list(bodies))
        lines = bodies[p].splitlines(keepends=True)
        lines[rnd.randrange(len(lines))] = note(rnd, 1)
        bodies[p] = "".join(lines)
        changes.append((p, bodies[p]))
    for i in range(0, len(changes), batch):
        with repo.transaction():
            for p, body in changes[i : i + batch]:
                repo.write(OWNER, p, body, provenance=PROV)
    repo.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    kept = index_bytes(path)
    repo.optimize_search_index()
    repo.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    merged = index_bytes(path)
    assert kept <= 1.25 * merged, (kept, merged)
    repo.close()


def test_a_new_file_has_small_pages_and_an_empty_store_is_small(tmp_path):
    """Every table and index takes a page at least: with pages of `PAGE_SIZE` (2 KB) an
    empty store is about half of what it is with SQLite's 4 KB pages."""
    from doctree.store.db import PAGE_SIZE

    path = tmp_path / "m.db"
    repo = DocumentsRepository(path)
    assert repo.conn.execute("PRAGMA page_size").fetchone()[0] == PAGE_SIZE == 2048
    repo.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    pages = repo.conn.execute("PRAGMA page_count").fetchone()[0]
    assert path.stat().st_size == pages * PAGE_SIZE <= 200_000
    repo.close()


def test_an_existing_file_keeps_its_page_size(tmp_path):
    """A file made with SQLite's default 4 KB pages (as doctree made them before) opens,
    migrates and is written with its own page size: only a new file takes `PAGE_SIZE`."""
    path = tmp_path / "old.db"
    plain = sqlite3.connect(path)
    plain.execute("PRAGMA page_size = 4096")
    plain.execute("VACUUM")
    plain.close()
    repo = DocumentsRepository(path)
    repo.write(OWNER, "~/a", "alpha\n", provenance=PROV)
    assert repo.conn.execute("PRAGMA page_size").fetchone()[0] == 4096
    assert repo.read(OWNER, "~/a").body == "alpha\n"
    repo.close()


def test_a_new_file_gives_its_free_pages_back(tmp_path):
    """Pages freed by a write (here: the index entries of deleted documents, merged away)
    do not stay in the file as free pages past a small share of it."""
    path = tmp_path / "m.db"
    repo = DocumentsRepository(path)
    assert repo.conn.execute("PRAGMA auto_vacuum").fetchone()[0] == 2  # incremental
    rnd = random.Random(2)
    with repo.transaction():
        for k in range(300):
            repo.write(OWNER, f"~/tmp/n{k}", note(rnd), provenance=PROV)
    for start in range(0, 300, 15):  # each transaction merges the index a step further
        with repo.transaction():
            for k in range(start, start + 15):
                repo.delete(OWNER, f"~/tmp/n{k}", provenance=PROV)
    free = repo.conn.execute("PRAGMA freelist_count").fetchone()[0]
    pages = repo.conn.execute("PRAGMA page_count").fetchone()[0]
    assert free * 32 <= pages or free < 8, (free, pages)
    repo.close()


def test_a_documents_current_body_is_stored_once(repo):
    """The current version of a document kept in full does not copy the body the document
    holds; every version still reads back exactly once later versions are written."""
    rnd = random.Random(3)
    bodies = {f"~/notes/n{k}": note(rnd) for k in range(40)}
    with repo.transaction():
        for path, body in bodies.items():
            repo.write(OWNER, path, body, provenance=PROV)
    in_versions, in_documents = repo.conn.execute(
        "SELECT (SELECT SUM(length(body_data)) FROM document_versions),"
        " (SELECT SUM(length(body_data)) FROM documents)"
    ).fetchone()
    assert in_versions < 0.05 * in_documents, (in_versions, in_documents)
    edited = {p: b.replace("\n", " edited\n", 1) for p, b in list(bodies.items())[:20]}
    for path, body in edited.items():
        repo.write(OWNER, path, body, provenance=PROV)
    for path, body in bodies.items():
        assert repo.read(OWNER, path, version=1).body == body
        assert repo.read(OWNER, path).body == edited.get(path, body)
        assert [v.body for v in repo.history(OWNER, path)][-1] == edited.get(path, body)
    assert {v.body for v in repo.iter_versions(OWNER)} == {
        *bodies.values(),
        *edited.values(),
        "",  # the parent ~/notes
    }


def test_edits_add_no_entry_to_the_index_of_paths_over_time(tmp_path):
    """`read(at=)` finds a path's document among the versions that changed a path (created,
    moved): an edit adds nothing to that index, and reads by time stay exact."""
    path = tmp_path / "m.db"
    repo = DocumentsRepository(path)
    stamps = []
    for k in range(300):
        repo.write(OWNER, "~/a", f"body {k} " + "x" * 40, provenance=PROV)
        stamps.append(repo.read(OWNER, "~/a").updated_at)
    repo.move(OWNER, "~/a", "~/b", provenance=PROV)
    repo.write(OWNER, "~/a", "a new document at the old path", provenance=PROV)
    conn = sqlite3.connect(path)
    pages = conn.execute(
        "SELECT COUNT(*) FROM dbstat WHERE name = 'idx_versions_path_time'"
    ).fetchone()[0]
    conn.close()
    assert pages == 1
    for k in (0, 150, 299):
        assert repo.read(OWNER, "~/a", at=stamps[k]).body.startswith(f"body {k} ")
        with pytest.raises(NotFoundError):  # the document was not at ~/b yet
            repo.read(OWNER, "~/b", at=stamps[k])
    moved = repo.read(OWNER, "~/b")
    assert repo.read(OWNER, "~/b", at=moved.updated_at).body == moved.body
    assert repo.read(OWNER, "~/a").body == "a new document at the old path"
    repo.close()


@pytest.mark.sqlite_only
def test_an_owners_log_is_read_newest_first_from_one_index_without_sorting(tmp_path):
    """The change log of an owner (also since a time) walks the index on (owner,
    created_at) in order, so it costs the versions it returns, not every version of the
    owner; no second index on (owner, id) is kept for it (migration 008)."""
    repo = DocumentsRepository(tmp_path / "log.db")
    with repo.transaction():
        for k in range(60):
            repo.write(OWNER, f"~/n/d{k % 7}", f"body {k}", provenance=PROV)
            repo.write("other", f"~/n/d{k % 5}", f"body {k}", provenance=PROV)
    indexes = {
        r[0]
        for r in repo.conn.execute(
            "SELECT name FROM sqlite_master WHERE tbl_name = 'document_versions' AND type = 'index'"
        )
    }
    assert "idx_versions_owner_id" not in indexes
    everything = repo.log(OWNER, limit=None)
    assert [v.id for v in everything] == sorted((v.id for v in everything), reverse=True)
    assert {v.owner for v in everything} == {OWNER} and len(everything) == 60 + 1
    since = everything[9].created_at
    assert [v.id for v in repo.log(OWNER, since=since, limit=None)] == [
        v.id for v in everything if v.created_at >= since
    ]
    assert [v.id for v in repo.log(OWNER, limit=5)] == [v.id for v in everything[:5]]
    for sql in (
        "SELECT * FROM document_versions WHERE owner = ? ORDER BY created_at DESC, id DESC LIMIT 5",
        "SELECT * FROM document_versions WHERE owner = ? AND created_at >= ?"
        " ORDER BY created_at DESC, id DESC LIMIT 5",
    ):
        params = (OWNER,) if sql.count("?") == 1 else (OWNER, since)
        plan = " ".join(r[3] for r in repo.conn.execute("EXPLAIN QUERY PLAN " + sql, params))
        assert "idx_versions_owner_time" in plan and "TEMP B-TREE" not in plan, plan
    repo.close()
