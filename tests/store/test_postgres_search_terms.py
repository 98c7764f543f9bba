"""The term statistics the PostgreSQL backend keeps for BM25 (in the PostgreSQL baseline
migration, applied once per transaction since migration 005): after any write, move, delete,
restore, passage sync, hand-over or erasure, in transactions of one write or of many, with
savepoints rolled back and with writers on several connections at once, they equal a count
of the rows themselves (a word two rows at most hold has no row, migration 014: it is counted
through the GIN index); a transaction updates each word's row once; concurrent writers do not
queue on one counter row; the ranking reads them instead of counting rows; an erased word
leaves no row behind."""

from __future__ import annotations

import math
import random
import threading

import psycopg
import pytest

from doctree.memory.erase import forget, redact, redact_version
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
    """Every kept figure is the count of the rows; every word more than two rows hold has
    one (a rarer word may have none: it is counted through the GIN index)."""
    for source in SOURCES:
        (kept_n, kept_df), (n, df) = kept(conn, source), counted(conn, source)
        assert kept_n == n, source
        assert {k: df.get(k, 0) for k in kept_df} == kept_df, source
        assert {k: v for k, v in df.items() if v > 2} == {
            k: v for k, v in kept_df.items() if v > 2
        }, source
    # The notes a transaction leaves for its COMMIT are gone with it (a connection that has
    # written has its table of notes; one that has not, none).
    if conn.execute("SELECT to_regclass('pg_temp.search_deltas')").fetchone()[0]:
        assert conn.execute("SELECT COUNT(*) FROM pg_temp.search_deltas").fetchone()[0] == 0
    assert conn.execute("SELECT COUNT(*) FROM search_flush").fetchone()[0] == 0


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
    for name in "acd":  # three rows hold it: it has rows in the statistics
        repo.write("main", f"~/notes/{name}", "We met zorbleq at the fair.\n")
    repo.write("main", "~/notes/b", "Nothing secret here, just the fair.\n")
    sync_passages(repo, "main")
    RecallIndex(repo.conn).add(
        "main",
        "s-1",
        [RecallRow(f"r{i}", 0, "user", "t", None, "zorbleq said hello", 3) for i in range(3)],
    )
    terms = "SELECT source, SUM(df) FROM search_terms WHERE term = 'zorbleq' GROUP BY source"
    assert dict(repo.conn.execute(terms).fetchall()) == {
        "documents": 3,
        "passages": 3,
        "recall_passages": 3,
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
        "'note3'",  # one row holds it: no row of its own, counted through the GIN index
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
        for i in range(3):  # three rows hold the word: it has rows in the statistics
            second.execute(insert, (f"~/s{i}",))
        first.execute(insert, ("~/a",))  # not committed: its slot's rows stay locked
        second.execute("SET lock_timeout = '2s'")
        second.execute(insert, ("~/b",))  # would fail on the lock timeout if rows were shared
        rows = second.execute(
            "SELECT SUM(df) FROM search_terms WHERE owner = 'main' AND term = 'tea'"
        ).fetchone()
        assert rows[0] == 4
        first.commit()
        counts = second.execute(
            "SELECT COUNT(*), SUM(df) FROM search_terms WHERE owner = 'main' AND term = 'tea'"
        ).fetchone()
        assert counts == (2, 5)  # two slots, summed on read
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
        for i in range(3):  # three rows hold the word: it has rows in the statistics
            second.execute(insert, (f"~/s{i}",))
        first.execute(insert, ("~/a",))
        second.execute(insert, ("~/b",))
        with first.transaction():
            first.execute(insert, ("~/c",))  # its slot's row of "tea" stays locked
            second.execute("SET lock_timeout = '2s'")
            second.execute("UPDATE documents SET deleted_at = 't' WHERE path = '~/b'")
        total = second.execute(
            "SELECT SUM(df) FROM search_terms WHERE owner = 'main' AND term = 'tea'"
        ).fetchone()[0]
        assert total == 5
    finally:
        first.close()
        second.close()


def test_a_transaction_of_many_notes_writes_each_word_of_the_statistics_once(pg_repo):
    """Forty notes sharing their words, in one transaction: each (owner, word) row of
    `search_terms` is written once, at COMMIT, not once per note."""
    repo = pg_repo
    with repo.transaction():
        for i in range(40):
            repo.write("main", f"~/notes/n{i}", f"Tea and biscuits at four, note {i}.\n")
        repo.conn.execute("SET CONSTRAINTS ALL IMMEDIATE")  # what COMMIT would apply, now
        inserted, updated = repo.conn.execute(
            "SELECT pg_stat_get_xact_tuples_inserted(c), pg_stat_get_xact_tuples_updated(c)"
            " FROM CAST('search_terms' AS regclass) AS c"
        ).fetchone()
    words = repo.conn.execute(
        "SELECT COUNT(*) FROM (SELECT t FROM documents, unnest(tsvector_to_array(search_vector))"
        " t WHERE owner = 'main' GROUP BY t HAVING COUNT(*) > 2) x"
    ).fetchone()[0]
    assert words >= 6  # "note", "tea", "and", "biscuit", "at", "four" (n0..n39: one note each)
    assert (inserted, updated) == (words, 0)
    assert_exact(repo.conn)


def test_the_figures_equal_a_recount_after_a_mixed_transaction_and_every_erasure(pg_repo):
    repo = pg_repo
    repo.write("main", "~/notes/keep", "Keep the kettle warm.\n")
    with repo.transaction():
        repo.write("main", "~/notes/a", "Apricot jam and quince paste.\n", title="Jams")
        repo.write("main", "~/notes/b", "Quince trees in the orchard.\n")
        repo.edit("main", "~/notes/a", "Apricot", "Plum")  # a row written twice in it
        repo.delete("main", "~/notes/b")  # written and deleted in the same transaction
        repo.write("main", "~/notes/keep", "Keep the kettle warm, and the pot.\n")
        # A savepoint rolled back: its notes go with it.
        with pytest.raises(RuntimeError), repo.transaction():
            repo.write("main", "~/notes/gone", "Zyzzyva beetles everywhere.\n")
            raise RuntimeError("undo")
        repo.move("main", "~/notes/a", "~/pantry/a")
    assert_exact(repo.conn)
    gone = "SELECT COUNT(*) FROM search_terms WHERE term = 'zyzzyva'"
    assert repo.conn.execute(gone).fetchone()[0] == 0
    # A transaction rolled back applies nothing.
    with pytest.raises(psycopg.Error), psycopg.connect(repo.conn.url) as raw:
        raw.execute(
            "INSERT INTO documents (owner, path, title, version, content_sha256, size,"
            " created_at, updated_at, search_vector) VALUES ('main', '~/x', '', 1, '', 0,"
            f" 't', 't', to_tsvector('{TSCONFIG}', 'zyzzyva'))"
        )
        raw.execute("SELECT 1/0")
    assert repo.conn.execute(gone).fetchone()[0] == 0
    sync_passages(repo, "main")
    RecallIndex(repo.conn).add(
        "main",
        "s-1",
        [RecallRow("r1", 0, "user", "t", None, "Plum jam for the orchard party.", 6)],
    )
    assert_exact(repo.conn)
    redact(repo, "main", "~/pantry/a", "quince", vacuum_file=False)
    assert_exact(repo.conn)
    redact_version(repo, "main", "~/notes/keep", 2, vacuum_file=False)
    assert_exact(repo.conn)
    forget(repo, "main", "orchard", vacuum_file=False)
    assert_exact(repo.conn)
    for word in ("quinc", "orchard"):
        assert (
            repo.conn.execute(
                "SELECT COUNT(*) FROM search_terms WHERE term = ?", (word,)
            ).fetchone()[0]
            == 0
        ), word


WORDS = ["tea", "kettle", "plum", "quince", "orchard", "beetle", "lantern", "harbour"]


def _raw_writer(url: str, name: str, rounds: int, seed: int, errors: list[BaseException]) -> None:
    """Transactions of several inserts, rewrites, soft and hard deletes of its own rows,
    on a connection of its own that takes no write lock (so its COMMIT overlaps others')."""
    rnd = random.Random(seed)
    try:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("SET lock_timeout = '20s'")
            ids: list[int] = []
            for r in range(rounds):
                for _attempt in range(5):
                    try:
                        with conn.transaction():
                            for _ in range(rnd.randint(1, 4)):
                                text = " ".join(rnd.choices(WORDS, k=rnd.randint(1, 5)))
                                op = rnd.random() if ids else 0.0
                                if op < 0.5:
                                    ids.append(
                                        conn.execute(
                                            "INSERT INTO documents (owner, path, title, version,"
                                            " content_sha256, size, created_at, updated_at,"
                                            " search_vector) VALUES (%s, %s, '', 1, '', 0, 't',"
                                            f" 't', to_tsvector('{TSCONFIG}', %s)) RETURNING id",
                                            (rnd.choice(["main", "other"]),
                                             f"~/{name}/r{r}-{len(ids)}", text),
                                        ).fetchone()[0]
                                    )  # fmt: skip
                                elif op < 0.75:
                                    conn.execute(
                                        "UPDATE documents SET search_vector ="
                                        f" to_tsvector('{TSCONFIG}', %s) WHERE id = %s",
                                        (text, rnd.choice(ids)),
                                    )
                                elif op < 0.9:
                                    conn.execute(
                                        "UPDATE documents SET deleted_at = 't' WHERE id = %s",
                                        (rnd.choice(ids),),
                                    )
                                else:
                                    doc = ids.pop(rnd.randrange(len(ids)))
                                    conn.execute(
                                        "DELETE FROM passage_pending WHERE document_id = %s",
                                        (doc,),
                                    )
                                    conn.execute("DELETE FROM documents WHERE id = %s", (doc,))
                            # Its rows have no body to cut passages from: the store's
                            # catch-up is not told about them.
                            conn.execute(
                                "DELETE FROM passage_pending WHERE document_id = ANY(%s)", (ids,)
                            )
                        break
                    except psycopg.errors.DeadlockDetected:
                        continue  # rolled back whole: tried again
    except BaseException as e:  # reported by the test
        errors.append(e)


def _repo_writer(url: str, name: str, rounds: int, errors: list[BaseException]) -> None:
    try:
        repo = DocumentsRepository(url)
        try:
            for r in range(rounds):
                with repo.transaction():
                    repo.write("main", f"~/{name}/n{r}", f"{WORDS[r % 8]} and {WORDS[r % 5]}\n")
                    if r % 3 == 2:
                        repo.delete("main", f"~/{name}/n{r - 1}")
                if r % 4 == 3:
                    sync_passages(repo, "main")
        finally:
            repo.close()
    except BaseException as e:  # reported by the test
        errors.append(e)


def test_the_figures_equal_a_recount_after_writers_on_four_connections_at_once(postgres_url):
    """Two connections writing through the store (serialised by its write lock) and two
    writing rows directly (no lock: their COMMITs overlap), all on the same words."""
    DocumentsRepository(postgres_url).close()  # migrated
    errors: list[BaseException] = []
    threads = [
        threading.Thread(target=_repo_writer, args=(postgres_url, "w1", 24, errors)),
        threading.Thread(target=_repo_writer, args=(postgres_url, "w2", 24, errors)),
        threading.Thread(target=_raw_writer, args=(postgres_url, "r1", 40, 1, errors)),
        threading.Thread(target=_raw_writer, args=(postgres_url, "r2", 40, 2, errors)),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not errors, errors
    repo = DocumentsRepository(postgres_url)
    try:
        live = repo.conn.execute(
            "SELECT COUNT(*) FROM documents WHERE deleted_at IS NULL AND path LIKE '~/r%'"
        ).fetchone()[0]
        assert live > 10  # the direct writers' rows are there to count
        assert_exact(repo.conn)
    finally:
        repo.close()


def test_lexemes_with_quotes_and_backslashes_are_counted_exactly(pg_repo):
    """A word without rows is counted through the GIN index by its lexeme as the index
    holds it: lexemes with a quote, a backslash, a colon, a slash or a space are counted
    like any other, get their row once three rows hold them, and stay exact as rows go."""
    repo = pg_repo
    odd = ["o'brien", "c:\\temp", "back\\", "a''b", "/usr/local", "two words", "x:1", "it's"]
    with psycopg.connect(repo.conn.url, autocommit=True) as raw:
        for i in range(4):
            with raw.transaction():
                raw.execute(
                    "INSERT INTO documents (owner, path, title, version, content_sha256, size,"
                    " created_at, updated_at, search_vector) VALUES ('main', %s, '', 1, '', 0,"
                    " 't', 't', array_to_tsvector(%s::text[]))",
                    (f"~/odd/n{i}", [*odd, f"only{i}"]),
                )
                raw.execute("DELETE FROM passage_pending")
            assert_exact(repo.conn)
            held = kept(repo.conn, "documents")[1]
            assert all((("main", x) in held) == (i >= 2) for x in odd)  # rows from the third
        for i in range(4):
            raw.execute("UPDATE documents SET deleted_at = 't' WHERE path = %s", (f"~/odd/n{i}",))
            assert_exact(repo.conn)
    assert kept(repo.conn, "documents")[1] == {}
