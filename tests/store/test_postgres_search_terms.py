"""The term statistics the PostgreSQL backend keeps for BM25 (in the PostgreSQL baseline migration):
after any write, move, delete, restore, passage sync, hand-over or erasure they equal a
count of the rows themselves; concurrent writers do not queue on one counter row; the
ranking reads them instead of counting rows; an erased word leaves no row behind."""

from __future__ import annotations

import math

import psycopg
import pytest

from doctree.memory.erase import forget
from doctree.memory.passages import sync_passages
from doctree.store.backends.postgres import TSCONFIG, _idf
from doctree.store.documents import DocumentsRepository
from doctree.store.recall import RecallIndex, RecallRow

SOURCES = {"documents": "deleted_at IS NULL", "passages": "TRUE", "recall_passages": "TRUE"}


def counted(conn, source: str) -> tuple[dict[str, int], dict[tuple[str, str], int]]:
    """N per owner and df per (owner, lexeme), counted from the rows."""
    live = SOURCES[source]
    n = {
        r[0]: r[1]
        for r in conn.execute(f"SELECT owner, COUNT(*) FROM {source} WHERE {live} GROUP BY owner")
    }
    df = {
        (r[0], r[1]): r[2]
        for r in conn.execute(
            f"SELECT owner, t, COUNT(*) FROM {source}, unnest(tsvector_to_array(search_vector)) t"
            f" WHERE {live} AND search_vector IS NOT NULL GROUP BY owner, t"
        )
    }
    return n, df


def kept(conn, source: str) -> tuple[dict[str, int], dict[tuple[str, str], int]]:
    n = {
        r[0]: int(r[1])
        for r in conn.execute(
            "SELECT owner, SUM(n) FROM search_counts WHERE source = ? GROUP BY owner HAVING SUM(n) <> 0",
            (source,),
        )
    }
    df = {
        (r[0], r[1]): int(r[2])
        for r in conn.execute(
            "SELECT owner, term, SUM(df) FROM search_terms WHERE source = ? GROUP BY owner, term",
            (source,),
        )
    }
    return n, df


def assert_exact(conn) -> None:
    for source in SOURCES:
        assert kept(conn, source) == counted(conn, source), source


@pytest.fixture
def pg_repo(postgres_url):
    repo = DocumentsRepository(postgres_url)
    yield repo
    repo.close()


def test_the_kept_figures_equal_a_count_of_the_rows_after_every_kind_of_write(pg_repo):
    repo = pg_repo
    repo.write("main", "~/notes/tea", "Green tea and black tea, brewed.\n", title="Tea")
    repo.write("main", "~/notes/coffee", "Black coffee, strong.\n")
    repo.write("other", "~/notes/tea", "Tea for the other owner.\n")
    assert_exact(repo.conn)
    live = kept(repo.conn, "documents")[0]  # (folders are documents too)
    repo.write("main", "~/notes/tea", "Only oolong now.\n")  # a new version: old words go
    repo.edit("main", "~/notes/coffee", "strong", "mild")
    repo.move("main", "~/notes/coffee", "~/drinks/coffee")
    assert_exact(repo.conn)
    live = kept(repo.conn, "documents")[0]  # (a move may add a folder)
    repo.delete("main", "~/notes/tea")  # a deleted document is counted no more
    assert kept(repo.conn, "documents")[0] == {**live, "main": live["main"] - 1}
    assert_exact(repo.conn)
    repo.restore("main", "~/notes/tea", 1)
    assert_exact(repo.conn)
    sync_passages(repo, "main")
    RecallIndex(repo.conn).add(
        "main",
        "s-1",
        [RecallRow("r1", 0, "user", "2024-01-01T00:00:00Z", None, "I drank tea at noon.", 5)],
    )
    assert kept(repo.conn, "passages")[0]["main"] >= 2
    assert kept(repo.conn, "recall_passages")[0] == {"main": 1}
    assert_exact(repo.conn)


def test_a_forgotten_word_leaves_no_row_in_the_statistics(pg_repo):
    repo = pg_repo
    repo.write("main", "~/notes/a", "We met zorbleq at the fair.\n")
    repo.write("main", "~/notes/b", "Nothing secret here, just the fair.\n")
    sync_passages(repo, "main")
    RecallIndex(repo.conn).add(
        "main", "s-1", [RecallRow("r1", 0, "user", "t", None, "zorbleq said hello", 3)]
    )
    terms = "SELECT source, SUM(df) FROM search_terms WHERE term = 'zorbleq' GROUP BY source"
    assert dict(repo.conn.execute(terms).fetchall()) == {
        "documents": 1,
        "passages": 1,
        "recall_passages": 1,
    }

    forget(repo, "main", "zorbleq", vacuum_file=False)

    assert repo.conn.execute(terms).fetchall() == []
    assert repo.conn.execute("SELECT COUNT(*) FROM search_terms WHERE term = 'fair'").fetchone()[0]
    assert_exact(repo.conn)


def test_idf_is_the_bm25_rarity_of_a_count_over_the_rows(pg_repo):
    repo = pg_repo
    for i in range(12):
        body = "tea " * (1 + i % 3) + ("green " if i % 4 == 0 else "") + f"note{i} brewing"
        repo.write("main", f"~/notes/n{i}", body + "\n")
    repo.write("other", "~/notes/x", "green green green\n")
    repo.delete("main", "~/notes/n11")
    terms = [
        "'tea'",
        "'green'",
        "'brewed'",
        "'absent'",
        "'not':*",
        "('green' <-> 'tea')",
        "'tea':C",
    ]
    got = _idf(repo.conn, "documents", "main", terms, "deleted_at IS NULL")
    n = repo.conn.execute(
        "SELECT COUNT(*) FROM documents WHERE owner = 'main' AND deleted_at IS NULL"
    ).fetchone()[0]
    want = []
    for term in terms:
        df = repo.conn.execute(
            "SELECT COUNT(*) FROM documents WHERE owner = 'main' AND deleted_at IS NULL"
            f" AND search_vector @@ to_tsquery('{TSCONFIG}', ?)",
            (term,),
        ).fetchone()[0]
        want.append(math.log(1 + (n - df + 0.5) / (df + 0.5)))
    assert n >= 11  # the notes (and their folder)
    assert got == pytest.approx(want)
    assert got[1] > got[0]  # "green" is rarer than "tea"; "brewed" stems to "brew"


def test_two_writers_at_once_do_not_wait_for_each_other_on_a_counter_row(postgres_url):
    """Each connection adds to its own slot: a second writer of the same owner and word
    commits while the first one's transaction, holding its rows, is still open."""
    DocumentsRepository(postgres_url).close()  # migrated
    first = psycopg.connect(postgres_url)
    try:
        second = psycopg.connect(postgres_url, autocommit=True)
        while second.info.backend_pid % 16 == first.info.backend_pid % 16:  # another slot
            second.close()
            second = psycopg.connect(postgres_url, autocommit=True)
        insert = (
            "INSERT INTO documents (owner, path, title, version, content_sha256, size,"
            " created_at, updated_at, search_vector) VALUES ('main', %s, '', 1, '', 0, 't', 't',"
            f" to_tsvector('{TSCONFIG}', 'tea'))"
        )
        first.execute(insert, ("~/a",))  # not committed: its slot's rows stay locked
        second.execute("SET lock_timeout = '2s'")
        second.execute(insert, ("~/b",))  # would fail on the lock timeout if rows were shared
        rows = second.execute(
            "SELECT SUM(df) FROM search_terms WHERE owner = 'main' AND term = 'tea'"
        ).fetchone()
        assert rows[0] == 1
        first.commit()
        counts = second.execute(
            "SELECT COUNT(*), SUM(df) FROM search_terms WHERE owner = 'main' AND term = 'tea'"
        ).fetchone()
        assert counts == (2, 2)  # two slots, summed on read
        second.close()
    finally:
        first.close()


def test_a_writer_removing_a_common_word_does_not_wait_for_another_writers_slot(postgres_url):
    """Only a term whose sum reads zero is locked across slots: taking one row of a word
    many rows hold goes on while another writer holds its own slot's row of that word."""
    DocumentsRepository(postgres_url).close()  # migrated
    first = psycopg.connect(postgres_url, autocommit=True)
    second = psycopg.connect(postgres_url, autocommit=True)
    try:
        while second.info.backend_pid % 16 == first.info.backend_pid % 16:  # another slot
            second.close()
            second = psycopg.connect(postgres_url, autocommit=True)
        insert = (
            "INSERT INTO documents (owner, path, title, version, content_sha256, size,"
            " created_at, updated_at, search_vector) VALUES ('main', %s, '', 1, '', 0, 't', 't',"
            f" to_tsvector('{TSCONFIG}', 'tea'))"
        )
        first.execute(insert, ("~/a",))
        second.execute(insert, ("~/b",))
        with first.transaction():
            first.execute(insert, ("~/c",))  # its slot's row of "tea" stays locked
            second.execute("SET lock_timeout = '2s'")
            second.execute("UPDATE documents SET deleted_at = 't' WHERE path = '~/b'")
        total = second.execute(
            "SELECT SUM(df) FROM search_terms WHERE owner = 'main' AND term = 'tea'"
        ).fetchone()[0]
        assert total == 2
    finally:
        first.close()
        second.close()
