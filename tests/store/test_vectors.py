"""Vector storage: int8 blobs that keep the cosine, and the shortlist scan of many vectors
that finds what the exact scan finds."""

from __future__ import annotations

import numpy as np

from doctree.llm.embedders import default_embedder
from doctree.store import vectors as v
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
