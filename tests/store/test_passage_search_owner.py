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
    """(id, score) of the best `limit` passages, each match's row checked: the reference.
    Each of the index's two tables (migration 017) gives the owner's best `limit` in scope by
    BM25 over its columns; a passage's score is the sum of its scores in the two lists. The
    surroundings' table keeps no entry's length: each entry is scored as one of its average
    length, BM25's normalisation `1 - b + b * D / avgdl` with D = -1 made up for by the
    weight (the average counted here from the table's terms)."""
    text_w, around_w, speaker_w, dates_w = WEIGHTS
    conn = repo.conn
    conn.execute(
        "CREATE VIRTUAL TABLE IF NOT EXISTS temp.around_terms"
        " USING fts5vocab(main, passages_surroundings_fts, 'col')"
    )
    tokens = conn.execute("SELECT SUM(cnt) FROM temp.around_terms").fetchone()[0]
    entries = conn.execute("SELECT COUNT(*) FROM passages").fetchone()[0]
    x = 1 - 0.75 - 0.75 / (tokens / entries)
    assert x > 0.05  # entries long enough to be scored by the weight alone
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
    scores: dict[int, float] = {}
    for table, weights in (
        ("passages_fts", (0.0, text_w, 0.0, speaker_w, dates_w)),
        ("passages_surroundings_fts", (0.0, 0.0, around_w * x, 0.0, 0.0)),
    ):
        w = ", ".join(f"{x:.4f}" for x in weights)
        rows = repo.conn.execute(
            f"SELECT p.id, -bm25({table}, {w}) AS score FROM {table}"
            f" JOIN passages p ON p.id = {table}.rowid WHERE {table} MATCH ?"
            " AND p.owner = ?" + scope + " ORDER BY score DESC, p.id LIMIT ?",
            [f"{{text surroundings speaker dates}} : ({match})", owner, *params, limit],
        ).fetchall()
        for i, score in rows:
            scores[i] = scores.get(i, 0.0) + score
    return sorted(scores.items(), key=lambda x: (-x[1], x[0]))[:limit]


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
