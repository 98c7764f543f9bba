"""Decoding a document's history: deltas whose offsets and lengths need one or several
varint bytes, and the link lists of a run of versions (decoded once, owned by each)."""

from __future__ import annotations

import random

from doctree.store import encoding
from doctree.store.documents import DocumentsRepository


def test_deltas_round_trip_across_the_one_byte_varint_boundary():
    rnd = random.Random(3)
    text = "".join(rnd.choice("abc\nxyz é") for _ in range(40_000))
    for _ in range(200):
        at = rnd.choice([0, 5, 63, 64, 127, 128, 129, 16_383, 16_384, 20_000, len(text) - 1])
        cut = rnd.choice([0, 1, 63, 64, 200, 20_000])
        new = text[:at] + "".join(rnd.choice("qrs é") for _ in range(rnd.choice([1, 64, 300])))
        new += text[at + cut :]
        value = encoding.encode(new, text, 2)
        assert encoding.decode(value, text) == new
        text = new


def test_history_versions_own_their_link_lists(tmp_path):
    repo = DocumentsRepository(tmp_path / "d.db")
    for i in range(5):
        repo.write("main", "~/a", f"# A\n\nedit {i}\n", links=["~/b"])
    history = repo.history("main", "~/a")
    assert [v.links for v in history] == [["~/b"]] * 5
    history[0].links.append("~/c")
    assert history[1].links == ["~/b"]
    repo.close()


def test_a_version_stored_against_the_next_one_is_read_from_itself_to_its_block_end():
    """Only the rest of its block is read for a delta against the next version (the half of
    the block before it is needed by no value after it); one of the older kind, or a run
    of both, from its block's start."""
    from doctree.store.rows import spans

    chain = encoding.CHAIN
    assert spans([5], {5}) == [(5, chain)]
    assert spans([5]) == [(1, chain)]
    assert spans([3, 5], {5}) == [(1, chain)]
    assert spans([5, chain + 2], {5, chain + 2}) == [(5, chain), (chain + 2, 2 * chain)]
    assert spans([chain, chain + 1], {chain}) == [(chain, 2 * chain)]
