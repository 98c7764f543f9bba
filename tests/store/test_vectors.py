"""Vector storage: int8 blobs that keep the cosine, and the shortlist scan of many vectors
that finds what the exact scan finds."""

from __future__ import annotations

import numpy as np

from doctree.llm.embedders import default_embedder
from doctree.store import vectors as v
from doctree.store.vectors import decode, encode

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
    ids = np.arange(len(m), dtype=np.int64)
    exact = v._Matrix(0, ids, encode(m), e.dimension)
    monkeypatch.setattr(v, "EXACT_ROWS", 100)
    monkeypatch.setattr(v, "SHORTLIST", 500)
    shortlisted = v._Matrix(0, ids, encode(m), e.dimension)
    assert exact.full is not None and shortlisted.full is None
    rows_a, sims_a = exact.similarities(q, 20)
    rows_b, sims_b = shortlisted.similarities(q, 20)
    assert list(rows_a[:10]) == list(rows_b[:10])
    assert np.allclose(sims_a[:10], sims_b[:10], atol=1e-4)
