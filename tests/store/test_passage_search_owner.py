"""A passage search on SQLite checks the owner and the path scope on its best matches only,
asking the index for more when too few pass: its result must be the one a check of every
match gives — the best `limit` of the owner's matches in scope, ties in id order."""

from __future__ import annotations

import random

import pytest

from doctree.memory.context import load_memories
from doctree.memory.passages import sync_passages
from doctree.store.documents import Actor, DocumentsRepository, Provenance
from doctree.store.passages import PassageIndex

WORDS = [f"w{i:03d}" for i in range(60)]
WEIGHTS = (1.0, 0.3, 0.0, 1.0)


def every_match(repo: DocumentsRepository, owner: str, match: str, under: str, limit: int):
    """(id, score) of the best `limit` passages, each match's row checked: the reference."""
    w = ", ".join(f"{x:.4f}" for x in (0.0, *WEIGHTS))
    scope, params = "", []
    if under != "~":
        scope, params = (
            " AND (p.path = ? OR (p.path >= ? AND p.path < ?))",
            [
                under,
                under + "/",
                under + "0",
            ],
        )
    rows = repo.conn.execute(
        f"SELECT p.id, -bm25(passages_fts, {w}) AS score FROM passages_fts"
        " JOIN passages p ON p.id = passages_fts.rowid WHERE passages_fts MATCH ?"
        " AND p.owner = ?" + scope + " ORDER BY score DESC, p.id LIMIT ?",
        [f"{{text surroundings speaker dates}} : ({match})", owner, *params, limit],
    ).fetchall()
    return [(r[0], r[1]) for r in rows]


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """Three owners over one index: `big` holds most passages, `small` a few; each has a
    subtree `~/memory/a` and the rest; some documents are identical but for their path
    (tied scores)."""
    rnd = random.Random(5)
    repo = DocumentsRepository(tmp_path_factory.mktemp("search") / "d.db")
    with repo.transaction():
        for owner, n in (("big", 400), ("mid", 120), ("small", 12)):
            prov = Provenance(Actor("agent", owner))
            for i in range(n):
                items = [
                    "- " + " ".join(rnd.choice(WORDS) for _ in range(rnd.randint(3, 12)))
                    for _ in range(rnd.randint(1, 4))
                ]
                sub = "a" if i % 3 == 0 else "b"
                repo.write(owner, f"~/memory/{sub}/n{i}", "\n".join(items), provenance=prov)
                if i % 7 == 0:  # the same passage, title and surroundings: tied scores
                    repo.write(owner, f"~/memory/{sub}/t{i}", "w001 w002 w003", title="tie",
                               provenance=prov)  # fmt: skip
    for owner in ("big", "mid", "small"):
        sync_passages(repo, owner)
    yield repo
    repo.close()


@pytest.mark.parametrize("owner", ["big", "mid", "small"])
@pytest.mark.parametrize("under", ["~", "~/memory/a"])
@pytest.mark.parametrize("limit", [1, 7, 60, 300])
def test_a_search_gives_what_a_check_of_every_match_gives(store, owner, under, limit):
    rnd = random.Random(f"{owner}{under}{limit}")
    index = PassageIndex(store)
    for _ in range(6):
        terms = rnd.sample(WORDS[:20], rnd.randint(1, 3))
        match = " OR ".join(f'"{t}"' for t in terms)
        got = [
            (h.id, h.score)
            for h in index.search(owner, match, under=under, limit=limit, weights=WEIGHTS)
        ]
        assert got == every_match(store, owner, match, under, limit)


def test_tied_passages_come_in_id_order(store):
    hits = PassageIndex(store).search("mid", '"w001 w002 w003"', limit=300, weights=WEIGHTS)
    tied = [h for h in hits if h.text == "w001 w002 w003"]
    assert len(tied) >= 10
    assert [h.id for h in tied] == sorted(h.id for h in tied)


def test_the_few_matches_of_an_owner_outranked_by_another_owners_are_all_found(store):
    """The first matches the index gives are `big`'s: `small`'s are found by asking again."""
    match = '"w001"'
    first = PassageIndex(store).search("big", match, limit=300, weights=WEIGHTS)
    small = PassageIndex(store).search("small", match, limit=300, weights=WEIGHTS)
    assert len(first) > 20 and small
    assert {h.id for h in small} == {i for i, _ in every_match(store, "small", match, "~", 300)}
    memory = load_memories(store, "small", query="w001", cap=100_000)
    for h in small:
        assert f"<!-- {h.path} v1 -->" in memory
