"""Vector storage: int8 blobs that keep the cosine, and the shortlist scan of many vectors
that finds what the exact scan finds."""

from __future__ import annotations

import dataclasses

import numpy as np

from doctree.llm.embedders import default_embedder
from doctree.store import db as dbmod
from doctree.store import migrations as sqlite_migrations
from doctree.store import vectors as v
from doctree.store.backends import postgres as pg
from doctree.store.backends import write_transaction
from doctree.store.vectors import VectorIndex, decode, encode

OWNER = "main"

WORDS = ["garden", "taxes", "the sea", "bees", "a launch", "coffee", "jazz", "Berlin"]


def test_stored_vectors_keep_the_cosine_within_a_hundredth():
    e = default_embedder()
    assert e is not None
    m = e.embed(["a passage about bees", "another about the sea", "a third on taxes"])
    back = decode(encode(m), e.dimension)
    assert back.dtype == np.float32 and back.shape == m.shape
    assert np.abs(back @ back.T - m @ m.T).max() < 0.01


def test_the_shortlist_scan_of_many_vectors_finds_what_the_exact_scan_finds(monkeypatch):
    """Past `EXACT_ROWS` an owner's vectors are ranked by their first components, then the
    shortlist exactly: the best hits are those of the exact product."""
    rnd = np.random.default_rng(3)
    e = default_embedder()
    assert e is not None
    m = e.embed([f"note {i} about {w}" for i, w in enumerate(rnd.choice(WORDS, 3000))])
    q = e.embed(["a note about the garden"])[0]
    rows = [(i, 1, blob) for i, blob in enumerate(encode(m))]
    exact = v._Matrix.of_rows(0, rows, e.dimension)
    monkeypatch.setattr(v, "EXACT_ROWS", 100)
    monkeypatch.setattr(v, "SHORTLIST", 500)
    shortlisted = v._Matrix.of_rows(0, rows, e.dimension)
    assert exact.full is not None and shortlisted.full is None
    rows_a, sims_a = exact.similarities(q, 20)
    rows_b, sims_b = shortlisted.similarities(q, 20)
    assert list(rows_a[:10]) == list(rows_b[:10])
    assert np.allclose(sims_a[:10], sims_b[:10], atol=1e-4)


def test_a_reader_sees_vectors_stored_rewritten_and_deleted_since_it_last_read(repo):
    """The scan keeps an owner's vectors in memory and reads only what changed since: the
    result is the one a fresh read gives."""
    e = default_embedder()
    assert e is not None
    vectors = VectorIndex(repo.conn, "recall")
    with repo.transaction():
        vectors.adopt(e)
        vectors.put(OWNER, [1, 2, 3], e.embed(["bees", "the sea", "taxes"]))
        vectors.put("other", [9], e.embed(["bees and honey"]))
    q = e.embed(["honey bees in a hive"])[0]
    assert vectors.search(OWNER, q, 1)[0].passage_id == 1
    with repo.transaction():
        vectors.put(OWNER, [1], e.embed(["income taxes"]))  # rewritten
        vectors.put(OWNER, [4], e.embed(["a hive of bees"]))  # new
        repo.conn.execute("DELETE FROM recall_vectors WHERE owner = ? AND passage_id = 2", (OWNER,))
    hits = vectors.search(OWNER, q, 10)
    assert [h.passage_id for h in hits][0] == 4
    assert {h.passage_id for h in hits} == {1, 3, 4}
    by_id = {h.passage_id: h.similarity for h in hits}
    assert abs(by_id[1] - float(e.embed(["income taxes"])[0] @ q)) < 0.01
    v._CACHE.clear()
    assert vectors.search(OWNER, q, 10) == hits
    # Stored and rewritten only (no row deleted): found by their stamps alone.
    with repo.transaction():
        vectors.put(OWNER, [3], e.embed(["bees in the garden"]))
        vectors.put(OWNER, [5], e.embed(["the sea is calm"]))
    hits = vectors.search(OWNER, q, 10)
    assert {h.passage_id for h in hits} == {1, 3, 4, 5}
    by_id = {h.passage_id: h.similarity for h in hits}
    assert abs(by_id[3] - float(e.embed(["bees in the garden"])[0] @ q)) < 0.01
    v._CACHE.clear()
    assert vectors.search(OWNER, q, 10) == hits


def test_nearest_gives_what_search_finds_as_two_lists(repo):
    """`nearest` (ids and cosines, plain Python numbers) and `search` (one hit a passage)
    are the same scan, best first, the other owner's vectors left out."""
    e = default_embedder()
    assert e is not None
    vectors = VectorIndex(repo.conn, "passages")
    with repo.transaction():
        vectors.adopt(e)
        vectors.put(OWNER, [1, 2, 3], e.embed(["bees", "the sea", "taxes"]))
        vectors.put("other", [9], e.embed(["bees and honey"]))
    q = e.embed(["honey bees in a hive"])[0]
    ids, sims = vectors.nearest(OWNER, q, 2)
    assert ids[0] == 1 and len(ids) == len(sims) == 2
    assert all(type(i) is int for i in ids) and all(type(x) is float for x in sims)
    assert [(h.passage_id, h.similarity) for h in vectors.search(OWNER, q, 2)] == list(
        zip(ids, sims, strict=True)
    )
    assert vectors.nearest(OWNER, q, 0) == ([], []) and vectors.nearest("nobody", q, 5) == ([], [])


# -- a reader after a write: the rows stored and deleted since, not every row --------------


class Recording:
    """A connection that notes each statement it runs (the rest is the connection's)."""

    def __init__(self, conn):
        self._conn = conn
        self.statements: list[str] = []

    def execute(self, sql, *args):
        self.statements.append(sql)
        return self._conn.execute(sql, *args)

    def executemany(self, sql, *args):
        self.statements.append(sql)
        return self._conn.executemany(sql, *args)

    def __getattr__(self, name):
        return getattr(self._conn, name)


def whole_listings(statements: list[str], table: str) -> list[str]:
    """The statements that list every vector row of an owner (no stamp, no id asked)."""
    return [
        s
        for s in statements
        if s.startswith("SELECT passage_id, stamp")
        and s.endswith(f"FROM {table} WHERE owner = ?")
        or f"FROM {table} WHERE owner = ? ORDER BY passage_id" in s
    ]


def matrix(vectors: VectorIndex, owner: str) -> v._Matrix:
    model, dimension = vectors.model()
    m = vectors._matrix(owner, model, dimension)
    assert m is not None
    return m


def assert_fresh(vectors: VectorIndex, owner: str, m: v._Matrix) -> None:
    """`m` (a reader's matrix, caught up) holds what a whole read of the owner's rows does."""
    rows = vectors.conn.execute(
        f"SELECT passage_id, stamp, vector FROM {vectors.table} WHERE owner = ?"
        " ORDER BY passage_id",
        (owner,),
    ).fetchall()
    fresh = v._Matrix.of_rows(vectors.generation(owner) or 0, rows, vectors.model()[1])
    order = np.argsort(m.ids, kind="stable")
    assert m.generation == fresh.generation
    assert m.ids[order].tolist() == fresh.ids.tolist()
    assert m.stamps[order].tolist() == fresh.stamps.tolist()
    assert np.array_equal(m.codes[order], fresh.codes)
    assert np.allclose(m.inv_norm[order], fresh.inv_norm)
    assert np.allclose(m.head[order], fresh.head)


def many(e, owner: str, ids: list[int], vectors: VectorIndex) -> None:
    vectors.put(owner, ids, e.embed([f"note {i} about {WORDS[i % len(WORDS)]}" for i in ids]))


def test_after_a_rewrite_a_reader_reads_the_rows_changed_not_every_row(repo):
    """A document rewritten deletes its passages' vectors and stores new ones: the reader
    drops those deleted since (`vector_deletions`) and reads those stored since, and holds
    what a whole read holds, without listing the owner's every row."""
    e = default_embedder()
    assert e is not None
    vectors = VectorIndex(repo.conn, "recall")
    with repo.transaction():
        vectors.adopt(e)
        many(e, OWNER, list(range(1, 41)), vectors)
        many(e, "other", [99], vectors)
    v._CACHE.clear()
    before = matrix(vectors, OWNER)
    with repo.transaction():
        vectors.put(OWNER, [1], e.embed(["income taxes"]))  # rewritten
        vectors.put(OWNER, [41], e.embed(["a hive of bees"]))  # new
        repo.conn.execute("DELETE FROM recall_vectors WHERE owner = ? AND passage_id = 2", (OWNER,))
        repo.conn.execute("DELETE FROM recall_vectors WHERE owner = ? AND passage_id = 3", (OWNER,))
        many(e, OWNER, [3], vectors)  # deleted, then stored again
        many(e, "other", [98], vectors)
    seen = Recording(repo.conn)
    after = matrix(VectorIndex(seen, "recall"), OWNER)  # type: ignore[arg-type]
    assert after is not before and after.generation > before.generation
    assert not whole_listings(seen.statements, "recall_vectors"), seen.statements
    assert 2 not in after.ids.tolist() and 41 in after.ids.tolist()
    assert_fresh(vectors, OWNER, after)
    q = e.embed(["income taxes"])[0]
    hits = vectors.search(OWNER, q, 5)
    v._CACHE.clear()
    assert vectors.search(OWNER, q, 5) == hits and hits[0].passage_id == 1


def test_a_reader_older_than_the_deletions_kept_lists_every_row(repo, monkeypatch):
    """Deletions far behind the current generation are pruned and the floor raised: a
    reader whose vectors are older than the floor lists every row, and is right."""
    monkeypatch.setattr(v, "KEPT_DELETIONS", 7)
    e = default_embedder()
    assert e is not None
    vectors = VectorIndex(repo.conn, "passages")
    with repo.transaction():
        vectors.adopt(e)
        many(e, OWNER, list(range(1, 21)), vectors)
    v._CACHE.clear()
    before = matrix(vectors, OWNER)
    with repo.transaction():
        repo.conn.execute(
            "DELETE FROM passage_vectors WHERE owner = ? AND passage_id = 5", (OWNER,)
        )
        many(e, OWNER, [6, 7, 8, 9, 10], vectors)  # rewritten: five deleted, five stored
    floor = repo.conn.execute(
        "SELECT generation FROM vector_deletion_floors WHERE kind = 'passages' AND owner = ?",
        (OWNER,),
    ).fetchone()[0]
    generation = vectors.generation(OWNER)
    assert generation is not None and floor == generation - 7 > before.generation
    kept = repo.conn.execute(
        "SELECT generation FROM vector_deletions WHERE kind = 'passages' AND owner = ?", (OWNER,)
    ).fetchall()
    assert kept and all(floor < g <= generation for (g,) in kept)
    seen = Recording(repo.conn)
    after = matrix(VectorIndex(seen, "passages"), OWNER)  # type: ignore[arg-type]
    assert whole_listings(seen.statements, "passage_vectors")  # the fallback was taken
    assert 5 not in after.ids.tolist()
    assert_fresh(vectors, OWNER, after)


def test_a_new_model_drops_the_deletions_listed_and_raises_the_floor(repo):
    """`adopt` deletes every vector: the deletions it made are not kept (no reader's
    vectors survive it), and a reader of the model before, back again, reads anew."""
    e = default_embedder()
    assert e is not None
    vectors = VectorIndex(repo.conn, "passages")
    with repo.transaction():
        vectors.adopt(e)
        many(e, OWNER, [1, 2, 3], vectors)
    v._CACHE.clear()
    before = matrix(vectors, OWNER)

    @dataclasses.dataclass
    class Other:
        name: str = "another model"
        dimension: int = e.dimension

    with repo.transaction():
        assert vectors.adopt(Other())  # type: ignore[arg-type]
    listed = "SELECT COUNT(*) FROM vector_deletions WHERE kind = 'passages'"
    assert repo.conn.execute(listed).fetchone()[0] == 0
    floor = repo.conn.execute(
        "SELECT generation FROM vector_deletion_floors WHERE kind = 'passages' AND owner = ?",
        (OWNER,),
    ).fetchone()[0]
    assert floor == vectors.generation(OWNER) > before.generation
    with repo.transaction():
        vectors.adopt(e)
        many(e, OWNER, [2, 4], vectors)
    after = matrix(vectors, OWNER)
    assert after.ids.tolist() == [2, 4]
    assert_fresh(vectors, OWNER, after)


def test_the_deletions_listed_hold_ids_and_generations_never_text(repo):
    e = default_embedder()
    assert e is not None
    vectors = VectorIndex(repo.conn, "recall")
    with repo.transaction():
        vectors.adopt(e)
        many(e, OWNER, [1, 2], vectors)
        repo.conn.execute("DELETE FROM recall_vectors WHERE owner = ? AND passage_id = 1", (OWNER,))
    for table, width in (("vector_deletions", 4), ("vector_deletion_floors", 3)):
        rows = repo.conn.execute(f"SELECT * FROM {table}").fetchall()
        assert rows, table
        for row in rows:
            assert len(row) == width
            assert (row[0], row[1]) == ("recall", OWNER)
            assert all(type(x) is int for x in row[2:])


def caught_up_across_the_migration(target, apply, shipped, number: int) -> None:
    """Vectors stored (and one deleted) before the migration that lists deletions, a reader
    holding them: its floor is the generation then, and a reader of then drops the vector
    deleted after it and reads the one stored, listing no row."""
    e = default_embedder()
    assert e is not None
    conn = dbmod.connect(target, migrate=False)
    apply(conn, available=[m for m in shipped if m[0] < number])
    with write_transaction(conn):
        conn.execute(
            "UPDATE vector_models SET model = ?, dimension = ? WHERE kind = 'passages'",
            (e.name, e.dimension),
        )
        for i, blob in enumerate(encode(e.embed(["bees", "the sea", "taxes"])), start=1):
            conn.execute(
                "INSERT INTO passage_vectors (owner, passage_id, vector, stamp) VALUES (?, ?, ?, 1)",
                (OWNER, i, blob),
            )
        conn.execute("DELETE FROM passage_vectors WHERE owner = ? AND passage_id = 3", (OWNER,))
    vectors = VectorIndex(conn, "passages")
    v._CACHE.clear()
    before = matrix(vectors, OWNER)
    assert before.ids.tolist() == [1, 2]
    assert apply(conn, available=shipped)
    floor = conn.execute(
        "SELECT generation FROM vector_deletion_floors WHERE kind = 'passages' AND owner = ?",
        (OWNER,),
    ).fetchone()[0]
    assert floor == before.generation == vectors.generation(OWNER)
    with write_transaction(conn):
        conn.execute("DELETE FROM passage_vectors WHERE owner = ? AND passage_id = 2", (OWNER,))
        vectors.put(OWNER, [4], e.embed(["a hive of bees"]))
    seen = Recording(conn)
    after = matrix(VectorIndex(seen, "passages"), OWNER)  # type: ignore[arg-type]
    assert not whole_listings(seen.statements, "passage_vectors"), seen.statements
    assert after.ids.tolist() == [1, 4]
    assert_fresh(vectors, OWNER, after)
    conn.close()


def test_vectors_stored_before_the_migration_are_caught_up_by_the_deletions_after(tmp_path):
    shipped = sqlite_migrations.migrations()
    caught_up_across_the_migration(tmp_path / "old.db", dbmod.apply_migrations, shipped, 17)


def test_vectors_stored_before_the_migration_are_caught_up_on_postgresql(
    postgres_url_without_tables,
):
    caught_up_across_the_migration(
        postgres_url_without_tables, pg.apply_migrations, pg.migrations(), 19
    )
