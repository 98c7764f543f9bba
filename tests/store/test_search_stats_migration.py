"""Migration 017 on PostgreSQL: the term statistics take less room and count the same.
`search_terms` keeps half of each page free, so a COMMIT's update of a word's row stays in
its page (a HOT update) instead of leaving the old version behind elsewhere; the notes a
statement leaves for its COMMIT (`search_deltas`) hold lexemes only. A database written
before it keeps every document, version, reference and passage, every figure, and every
search finds what it found before, ranked as before."""

from __future__ import annotations

import random

import pytest

from doctree.memory.recall import catch_up
from doctree.store import db as dbmod
from doctree.store.backends import postgres
from doctree.store.documents import DocumentsRepository
from tests.store.test_passage_text_migration import NOTES, everything, searches
from tests.store.test_postgres_search_terms import assert_exact

pytestmark = pytest.mark.postgres

MIGRATION = "017_leaner_search_stats"
WORDS = [
    "harbour", "lantern", "orchard", "violin", "granite", "meadow", "copper", "willow",
    "falcon", "saffron", "glacier", "tundra", "basalt", "juniper", "marble", "cobalt",
]  # fmt: skip


def notes(n: int, seed: int) -> list[str]:
    rnd = random.Random(seed)
    return [" ".join(rnd.choice(WORDS) for _ in range(12)) + "." for _ in range(n)]


def figures(conn) -> list[tuple[object, ...]]:
    """Every kept figure: N per owner and table, df per owner, table and word."""
    return [
        *conn.execute(
            "SELECT owner, source, SUM(n) FROM search_counts GROUP BY 1, 2 ORDER BY 1, 2"
        ).fetchall(),
        *conn.execute(
            "SELECT owner, source, term, SUM(df) FROM search_terms GROUP BY 1, 2, 3"
            " ORDER BY 1, 2, 3"
        ).fetchall(),
    ]


def test_a_database_written_before_keeps_everything_and_every_search(
    postgres_url_without_tables, monkeypatch
):
    # A database as an older release wrote it, lexical then; the vectors kept at write by a
    # default that ranks by meaning need tables of later migrations.
    monkeypatch.setenv("DOCTREE_RETRIEVAL", "lexical")
    old = dbmod.connect(postgres_url_without_tables, migrate=False)
    postgres.apply_migrations(old, available=[m for m in postgres.migrations() if m[0] < 17])
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

    repo = DocumentsRepository(postgres_url_without_tables)  # applies migration 017
    applied = [r[0] for r in repo.conn.execute("SELECT name FROM doctree_migrations")]
    assert MIGRATION in applied
    options = repo.conn.execute(
        "SELECT reloptions FROM pg_class WHERE relname = 'search_terms'"
    ).fetchone()[0]
    assert "fillfactor=50" in options
    assert everything(repo) == before
    assert searches(repo) == found
    assert figures(repo.conn) == kept
    assert {
        p: [(v.version, v.operation, v.path, v.body) for v in repo.history("main", p)] for p in log
    } == log
    assert log["~/log/n01"][-1][1] == "deleted"

    # Written after it: the figures are still the count of the rows.
    with repo.transaction():
        for i, body in enumerate(notes(30, 2)):
            repo.write("main", f"~/log/m{i:02d}", body)
    repo.delete("main", "~/log/m03")
    catch_up(repo.conn, "main")
    assert_exact(repo.conn)
    repo.close()


def test_a_commit_updates_the_figures_of_common_words_in_their_own_pages(postgres_url):
    rnd = random.Random(3)
    letters = "bcdfghjklmnpqrstvwxz"
    vocabulary = sorted({"".join(rnd.choice(letters) for _ in range(7)) for _ in range(600)})
    repo = DocumentsRepository(postgres_url)
    repo.conn.execute("SELECT pg_stat_reset_single_table_counters('search_terms'::regclass)")
    pages = 0
    for batch in range(10):  # each COMMIT adds to the rows of (nearly) every word
        with repo.transaction():
            for i in range(60):
                body = " ".join(rnd.choice(vocabulary) for _ in range(40))
                repo.write("main", f"~/b{batch:02d}/n{i:02d}", body)
        pages = repo.conn.execute("SELECT pg_relation_size('search_terms') / 8192").fetchone()[0]
    repo.conn.execute("SELECT pg_stat_force_next_flush()").fetchall()
    updated, hot = repo.conn.execute(
        "SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables WHERE relname = 'search_terms'"
    ).fetchone()
    assert pages > 3  # rows of several pages
    assert updated >= 8 * len(vocabulary)  # the figures of the words, at each COMMIT
    assert hot >= 0.9 * updated  # each new version in its row's page (27% without 017)
    assert_exact(repo.conn)
    repo.close()


def test_the_notes_left_for_the_commit_hold_lexemes_only(postgres_url):
    repo = DocumentsRepository(postgres_url)
    with repo.transaction():
        repo.write("main", "~/harbour", "The lantern by the harbour, and the harbour wall.")
        notes_v = [r[0] for r in repo.conn.execute("SELECT v::text FROM search_deltas").fetchall()]
    assert notes_v and all(":" not in v for v in notes_v)  # no positions, no weights
    assert any("'harbour'" in v and "'lantern'" in v for v in notes_v)
    assert_exact(repo.conn)
    repo.close()
