"""Migration 018 on PostgreSQL: the notes a statement leaves for its COMMIT (the vectors a
transaction added and took away, which the COMMIT adds up into the term statistics) are kept
in a temporary table of the writing connection, emptied by the COMMIT, instead of a table
shared by every connection, whose deleted rows kept the notes' lexemes in its file until
VACUUM. A database written before it keeps every document, version, reference and passage,
every figure, and every search finds what it found before, ranked as before."""

from __future__ import annotations

import pytest

from doctree.memory.recall import catch_up
from doctree.store import db as dbmod
from doctree.store.backends import postgres
from doctree.store.documents import DocumentsRepository
from tests.store.test_passage_text_migration import NOTES, everything, searches
from tests.store.test_postgres_search_terms import assert_exact
from tests.store.test_search_stats_migration import figures, notes

pytestmark = pytest.mark.postgres

MIGRATION = "018_search_notes_per_connection"


def test_a_database_written_before_keeps_everything_and_every_search(
    postgres_url_without_tables, monkeypatch
):
    # A database as an older release wrote it, lexical then; the vectors kept at write by a
    # default that ranks by meaning need tables of later migrations.
    monkeypatch.setenv("DOCTREE_RETRIEVAL", "lexical")
    old = dbmod.connect(postgres_url_without_tables, migrate=False)
    postgres.apply_migrations(old, available=[m for m in postgres.migrations() if m[0] < 18])
    source = DocumentsRepository(old)
    for path, body in NOTES.items():
        source.write("main", path, body)
    with source.transaction():
        for i, body in enumerate(notes(40, 1)):
            source.write("main", f"~/log/n{i:02d}", body)
    source.write("main", "~/garden/roses", NOTES["~/garden/roses"] + "\n\nSee [[~/kitchen/bread]].")
    source.move("main", "~/log/n00", "~/log/first")
    source.delete("main", "~/log/n01")
    catch_up(source.conn, "main")
    before = everything(source)
    found = searches(source)
    kept = figures(source.conn)
    assert sum(len(v) for v in found.values()) > 10  # the queries find something
    log = {
        p: [(v.version, v.operation, v.path, v.body) for v in source.history("main", p)]
        for p in ("~/log/first", "~/log/n01")
    }
    source.close()
    old.close()

    repo = DocumentsRepository(postgres_url_without_tables)  # applies migration 018
    applied = [r[0] for r in repo.conn.execute("SELECT name FROM doctree_migrations")]
    assert MIGRATION in applied
    shared = repo.conn.execute("SELECT to_regclass('public.search_deltas')").fetchone()[0]
    assert shared is None  # no table of notes shared by the connections
    assert everything(repo) == before
    assert searches(repo) == found
    assert figures(repo.conn) == kept
    assert {
        p: [(v.version, v.operation, v.path, v.body) for v in repo.history("main", p)] for p in log
    } == log

    # Written after it: the figures are still the count of the rows, in one transaction of
    # many statements, in one rolled back, and in one that deletes what an earlier one wrote.
    with repo.transaction():
        for i, body in enumerate(notes(30, 2)):
            repo.write("main", f"~/log/m{i:02d}", body)
    with pytest.raises(RuntimeError), repo.transaction():
        repo.write("main", "~/log/gone", "a note rolled back with its transaction")
        raise RuntimeError("rolled back")
    repo.delete("main", "~/log/m03")
    catch_up(repo.conn, "main")
    assert_exact(repo.conn)
    repo.close()


def raw_pages(conn) -> bytes:
    """Every page of every table, index and TOAST table of doctree's schema, as the server
    holds it (its buffers included: the pages of an unlogged table reach the disk only at a
    shutdown), dead rows and all."""
    conn.execute("CREATE EXTENSION IF NOT EXISTS pageinspect")
    rels = conn.execute(
        "SELECT c.oid::regclass::text, pg_relation_size(c.oid) / current_setting('block_size')::int"
        " FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
        " WHERE (n.nspname = current_schema() OR n.nspname = 'pg_toast')"
        " AND c.relkind IN ('r', 'i', 't')"
    ).fetchall()
    out = bytearray()
    for rel, blocks in rels:
        for b in range(blocks):
            out += conn.execute("SELECT get_raw_page(?, ?)", (rel, b)).fetchone()[0]
    return bytes(out)


def test_a_commit_leaves_no_note_of_its_writes_in_a_shared_table(postgres_url):
    # A note's vector with its lexemes alone (no positions) keeps them side by side, sorted:
    # the two words' bytes joined are in a note and in no vector of a row, nor in the text.
    repo = DocumentsRepository(postgres_url)
    with repo.transaction():
        for i in range(20):
            repo.write("main", f"~/notes/n{i:02d}", f"Note {i}: zzqxa zzqxb.")
    catch_up(repo.conn, "main")
    pages = raw_pages(repo.conn)
    assert b"zzqxa" in pages  # the check sees the rows' words
    assert b"zzqxazzqxb" not in pages
    # The connection's own table of notes is empty once the COMMIT is done.
    assert repo.conn.execute("SELECT COUNT(*) FROM pg_temp.search_deltas").fetchone()[0] == 0
    assert_exact(repo.conn)
    repo.close()
