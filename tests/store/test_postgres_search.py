"""Search on PostgreSQL: one statement per search (ranking, idf weights and the hits' bodies),
planned once per connection, its scores those of the ranking's definition, and its hits
those SQLite finds, in SQLite's order where the two rankings agree."""

from __future__ import annotations

import math

import pytest

from doctree.store.backends.postgres import _DOC_WEIGHTS, TSCONFIG
from doctree.store.documents import DocumentsRepository
from doctree.store.passages import PassageIndex, PassageRow
from doctree.store.search import parse_search, snippet_of

# Short notes on birds, a few words each, some words common, some rare.
CORPUS = {
    "~/birds/heron": "Grey heron fishing at the river, a heron stands still for an hour.",
    "~/birds/kingfisher": "A kingfisher dives from the willow; kingfisher and heron share the river.",
    "~/birds/otter": "An otter, not a bird, swims past the heron at dawn.",
    "~/birds/wren": "The wren sings loudly from the hedge.",
    "~/birds/robin": "A robin in the hedge, a wren beside it.",
    "~/birds/swift": "Swifts scream over the roofs in summer.",
    "~/walks/river": "Walked along the river at dawn: herons, an otter, a kingfisher.",
    "~/walks/hill": "Up the hill in the fog; no birds at all.",
}
QUERIES = [
    "heron",
    "kingfisher",
    "otter heron",
    "kingfisher otter heron",
    "wren robin",
    "hedge",
    "swifts summer",
    "dawn river",
    "kingf*",
    '"grey heron"',
    "heron -otter",
]


def _fill(repo: DocumentsRepository) -> None:
    with repo.transaction():
        for path, body in CORPUS.items():
            repo.write("main", path, body)


@pytest.fixture
def pg_repo(postgres_url):
    r = DocumentsRepository(postgres_url)
    _fill(r)
    yield r
    r.close()


def _trips(repo: DocumentsRepository, fn):
    before = repo.conn.round_trips
    value = fn()
    return value, repo.conn.round_trips - before


def test_a_search_with_its_snippets_is_one_round_trip(pg_repo):
    # The ranking, the terms' idf weights and the bodies the snippets are cut from come
    # back from one statement.
    hits, trips = _trips(pg_repo, lambda: pg_repo.search("main", "kingfisher heron"))
    assert trips == 1
    assert {h.path for h in hits} == {
        "~/birds/heron",
        "~/birds/kingfisher",
        "~/birds/otter",
        "~/walks/river",
    }
    snippet = next(h.snippet for h in hits if h.path == "~/birds/kingfisher")
    assert "[kingfisher]" in snippet and "[heron]" in snippet
    hits, trips = _trips(pg_repo, lambda: pg_repo.search("main", '"grey heron"'))
    assert trips == 1 and [h.path for h in hits] == ["~/birds/heron"]
    assert "[Grey] [heron]" in hits[0].snippet


def test_a_search_finds_nothing_in_one_round_trip(pg_repo):
    hits, trips = _trips(pg_repo, lambda: pg_repo.search("main", "albatross"))
    assert (hits, trips) == ([], 1)


def _search_plans(repo: DocumentsRepository) -> list[tuple[int, int]]:
    """(generic, custom) plans of each statement the connection prepared that ranks by
    ts_rank (the search's)."""
    return [
        (r[0], r[1])
        for r in repo.conn.execute(
            "SELECT generic_plans, custom_plans FROM pg_prepared_statements"
            " WHERE statement LIKE '%ts_rank(%'"
        )
    ]


def test_searches_of_as_many_words_are_planned_once_per_connection(pg_repo):
    # The statement's text depends on the number of words only: the connection prepares
    # it and the server reuses one plan for any two words, instead of planning each search
    # (a plan of the words themselves was estimated cheaper by the server on a table of
    # some size, so it planned every search again).
    words = sorted({w for body in CORPUS.values() for w in body.lower().split() if len(w) > 3})
    with pg_repo.transaction():
        for i in range(400):
            pg_repo.write("main", f"~/many/n{i}", " ".join(words[i % 7 :: 5]) + f" n{i}")
    pg_repo.conn.execute("ANALYZE documents")
    pairs = ["heron river", "wren hedge", "otter dawn", "robin wren", "swifts roofs"]
    for _ in range(5):
        for pair in pairs:
            assert pg_repo.search("main", pair, snippets=False)
    [(generic, custom)] = _search_plans(pg_repo)
    assert generic >= 10 and custom <= 5


def test_passage_searches_are_planned_once_per_connection(pg_repo):
    doc = pg_repo.write("main", "~/notes/log", "a log")
    rows = [
        PassageRow(seq=i, text=f"passage {i} about otters and herons", words=6) for i in range(5)
    ]
    passages = PassageIndex(pg_repo.conn)
    with pg_repo.transaction():
        passages.replace(doc.id, "main", 1, doc.path, rows)
    # (the first search learns that the owner holds most passages; psycopg prepares a
    # statement at its sixth run, the server plans it for its first five runs of the
    # prepared statement, then reuses one plan)
    for _ in range(25):
        assert len(passages.search("main", '"otters" OR "herons"')) == 5
    [(generic, custom)] = _search_plans(pg_repo)
    assert generic >= 10 and custom <= 5


def test_the_score_is_each_terms_rank_weighted_by_its_rarity(pg_repo):
    """A hit's score is the sum over the query's words of the word's ts_rank in the document
    (fields weighted) times BM25's idf of the word among the owner's live documents, the
    best first and equal scores by id."""
    conn = pg_repo.conn
    pg_repo.delete("main", "~/walks/hill")
    pg_repo.write("other", "~/birds/heron", "heron heron heron")  # not the owner's: not counted
    n = conn.execute(
        "SELECT COUNT(*) FROM documents WHERE owner = 'main' AND deleted_at IS NULL"
    ).fetchone()[0]
    words = ["heron", "kingfisher", "wren"]
    hits = pg_repo.search("main", " ".join(words), limit=50)
    assert len(hits) >= 5
    for hit in hits:
        want = 0.0
        for word in words:
            df, rank = conn.execute(
                "SELECT (SELECT COUNT(*) FROM documents WHERE owner = 'main'"
                f" AND deleted_at IS NULL AND search_vector @@ to_tsquery('{TSCONFIG}', ?)),"
                f" ts_rank({_DOC_WEIGHTS}, search_vector, to_tsquery('{TSCONFIG}', ?), 1)"
                " FROM documents WHERE id = ?",
                (word, word, hit.document_id),
            ).fetchone()
            want += math.log(1 + (n - df + 0.5) / (df + 0.5)) * rank
        assert hit.score == pytest.approx(want, rel=1e-6)
    assert [(-h.score, h.document_id) for h in hits] == sorted(
        (-h.score, h.document_id) for h in hits
    )


def test_both_backends_find_the_same_hits(pg_repo, tmp_path):
    """The same notes on SQLite (BM25) and PostgreSQL (idf-weighted ts_rank): every query
    finds the same documents on both (their order may differ: the rankings weigh a word's
    count and a note's length differently)."""
    lite = DocumentsRepository(tmp_path / "same.db")
    _fill(lite)
    try:
        for query in QUERIES:
            on_pg = [h.path for h in pg_repo.search("main", query, limit=20)]
            on_lite = [h.path for h in lite.search("main", query, limit=20)]
            assert on_pg, query
            assert sorted(on_pg) == sorted(on_lite), query
    finally:
        lite.close()


# Notes of eight words each, holding three, two, one or none of the words amber, basalt
# and cobalt (cobalt twice in one of them), and zircon in one.
EVEN = {
    "~/n/one": "amber basalt cobalt fern grove hollow inlet jetty",
    "~/n/two": "amber basalt kelp lagoon marsh nettle orchard pebble",
    "~/n/three": "cobalt quarry reed shingle cobalt upland valley weir",
    "~/n/four": "cobalt zircon yarrow alder birch cedar damson elder",
    "~/n/five": "fennel gorse heather ivy juniper kale larch maple",
}


def test_both_backends_rank_in_the_same_order_where_the_rankings_agree(pg_repo, tmp_path):
    """Where notes of one length differ only in how many of the query's words they hold,
    or in how rare the one word they hold is, BM25 and PostgreSQL's ranking agree: the
    same hits in the same order on both backends."""
    lite = DocumentsRepository(tmp_path / "even.db")
    try:
        for repo in (pg_repo, lite):
            with repo.transaction():
                for path, body in EVEN.items():
                    repo.write("even", path, body)
        for query in ["amber basalt cobalt", "basalt cobalt", "zircon cobalt"]:
            on_pg = [h.path for h in pg_repo.search("even", query, limit=20)]
            on_lite = [h.path for h in lite.search("even", query, limit=20)]
            assert len(on_pg) >= 3 and on_pg == on_lite, query
    finally:
        lite.close()


def _rows_read(repo: DocumentsRepository, fn) -> int:
    """How many rows of `documents` and entries of its full-text index `fn` read, by any
    scan (the server's counters of the connection, before and after it)."""
    sql = (
        "SELECT pg_stat_get_xact_tuples_returned('documents'::regclass)"
        " + pg_stat_get_xact_tuples_fetched('documents'::regclass)"
        " + pg_stat_get_xact_tuples_returned('idx_documents_search'::regclass)"
    )
    with repo.snapshot():  # (the counters are read as they stand inside a transaction)
        before = repo.conn.execute(sql).fetchone()[0]
        fn()
        return repo.conn.execute(sql).fetchone()[0] - before


def test_a_search_in_a_subtree_reads_the_subtree_not_every_match_of_a_common_word(pg_repo):
    """Planned for its words: a word every note holds is looked for among the subtree's
    few notes, not read for all the owner's notes first (a plan made for any words, as the
    server reuses for a search of the whole home, read all of a common word's matches from
    the index at 100k documents: 36 ms against 1 ms)."""
    with pg_repo.transaction():
        for i in range(600):
            pg_repo.write("main", f"~/many/n{i:03d}", f"a common note, number {i}")
        for i in range(3):
            pg_repo.write("main", f"~/few/f{i}", f"a common note about a heron {i}")
    pg_repo.conn.execute("ANALYZE documents")
    for _ in range(12):  # as many as make a statement prepared and its plan reused
        hits = pg_repo.search("main", "common", under="~/few")
        assert [h.path for h in hits] == ["~/few/f0", "~/few/f1", "~/few/f2"]
    assert _search_plans(pg_repo) == []  # planned for its words each time, never prepared
    assert _rows_read(pg_repo, lambda: pg_repo.search("main", "common", under="~/few")) < 30
    # (the count can tell: a search of the whole home reads every match)
    assert _rows_read(pg_repo, lambda: pg_repo.search("main", "common")) >= 600


def test_an_owner_with_few_of_the_notes_is_planned_for_its_words(pg_repo):
    """Beside an owner who holds most notes, a small owner's search is planned for its
    words and owner each time: a word every note holds is looked for among the small
    owner's notes, not read for everyone's first. The owner who holds most reuses one plan."""
    with pg_repo.transaction():
        for i in range(600):
            pg_repo.write("main", f"~/many/n{i:03d}", f"a common note, number {i}")
        for i in range(3):
            pg_repo.write("small", f"~/f{i}", f"a common note about a heron {i}")
    pg_repo.conn.execute("ANALYZE documents")
    for _ in range(12):
        hits = pg_repo.search("small", "common")
        assert [h.path for h in hits] == ["~/f0", "~/f1", "~/f2"]
    assert _search_plans(pg_repo) == []  # never prepared
    assert _rows_read(pg_repo, lambda: pg_repo.search("small", "common")) < 30
    for _ in range(25):
        assert len(pg_repo.search("main", "common")) == 10
    [(generic, custom)] = _search_plans(pg_repo)
    assert generic >= 10 and custom <= 5


def test_the_hits_bodies_come_with_the_ranking_not_read_again(pg_repo):
    """The snippets' bodies are carried through the ranking's sort: a search with snippets
    reads no row of `documents` more than the same search without them (before, a join read
    each hit again by id, one more index lookup a hit), and cuts the same snippets as the
    bodies read one by one."""
    with pg_repo.transaction():
        for i in range(40):
            pg_repo.write("main", f"~/many/n{i:02d}", f"a heron at the river, number {i}")
    pg_repo.conn.execute("ANALYZE documents")
    for _ in range(8):  # prepared, and its plan reused, as a connection's searches are
        pg_repo.search("main", "heron river")
    bare = _rows_read(pg_repo, lambda: pg_repo.search("main", "heron river", snippets=False))
    hits: list = []
    with_bodies = _rows_read(pg_repo, lambda: hits.extend(pg_repo.search("main", "heron river")))
    assert len(hits) == 10 and with_bodies == bare
    query = parse_search("heron river")
    assert [h.snippet for h in hits] == [
        snippet_of(pg_repo.read("main", h.path).body, query) for h in hits
    ]
