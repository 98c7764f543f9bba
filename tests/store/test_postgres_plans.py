"""The plan PostgreSQL chooses for a search right after a bulk write: the matches read from
the GIN index, whether the server plans the statement for its values or reuses one plan
for any, and not every row of the owner read and matched one by one (which a table the
planner has no statistics of gets, until autovacuum's next round)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from doctree.store.backends.postgres import (
    _DOC_WEIGHTS,
    ANALYZE_AFTER_CHANGES,
    ANALYZE_MIN_ROWS,
    _ranked,
    fts_to_tsquery,
)
from doctree.store.documents import DocumentsRepository

pytestmark = pytest.mark.postgres

WORDS = [f"w{i:03d}word" for i in range(400)]


def _notes(n: int, seed: int = 3) -> list[str]:
    rnd = random.Random(seed)
    return [" ".join(rnd.choice(WORDS) for _ in range(25)) for _ in range(n)]


@pytest.fixture(scope="module")
def loaded(postgres_server):
    """A new database (never analyzed) with 1,500 notes of one owner, written in one
    transaction as a bulk import writes them; shared by the module's tests."""
    url = postgres_server.new_database()
    repo = DocumentsRepository(url)
    assert max(ANALYZE_AFTER_CHANGES, ANALYZE_MIN_ROWS) <= 1500
    with repo.transaction():
        for i, body in enumerate(_notes(1500)):
            repo.write("main", f"~/notes/n{i:04d}", body)
    yield repo
    repo.close()
    postgres_server.drop_database(url)


def _nodes(plan: dict[str, Any]) -> list[dict[str, Any]]:
    out = [plan]
    for child in plan.get("Plans", []):
        out += _nodes(child)
    return out


def _search_plan(repo: DocumentsRepository, query: str, mode: str) -> list[dict[str, Any]]:
    """The nodes of the plan of the store's search statement for `query` (the owner holds
    every row: the statement the connection prepares), under `plan_cache_mode` `mode`."""
    sql, params = _ranked(
        "documents",
        "d",
        "d.id, d.path",
        fts_to_tsquery(query),
        _DOC_WEIGHTS,
        "deleted_at IS NULL",
        "d.owner = ? AND d.deleted_at IS NULL",
        ["main"],
        10,
    )
    repo.conn.execute(f"SET plan_cache_mode = {mode}")
    try:
        [(plan,)] = repo.conn.execute("EXPLAIN (FORMAT JSON) " + sql, params).fetchall()
    finally:
        repo.conn.execute("RESET plan_cache_mode")
    plan = json.loads(plan) if isinstance(plan, str) else plan
    return _nodes(plan[0]["Plan"])


@pytest.mark.parametrize("mode", ["force_custom_plan", "force_generic_plan"])
def test_a_search_after_a_bulk_write_reads_its_matches_from_the_gin_index(loaded, mode):
    nodes = _search_plan(loaded, f"{WORDS[40]} {WORDS[41]}", mode)
    [scan] = [n for n in nodes if n.get("Alias") == "d"]
    assert scan["Node Type"] == "Bitmap Heap Scan", scan["Node Type"]
    assert [n["Index Name"] for n in _nodes(scan) if n["Node Type"] == "Bitmap Index Scan"] == [
        "idx_documents_search"
    ]


def test_the_bulk_write_left_the_planner_the_tables_row_count(loaded):
    [(planned,)] = loaded.conn.execute(
        "SELECT reltuples FROM pg_class WHERE relname = 'documents'"
    ).fetchall()
    assert planned == pytest.approx(1500, rel=0.1)
    # Up to date now: another look analyzes nothing.
    assert loaded.conn.refresh_statistics() == []


def test_small_writes_cost_no_extra_round_trip(loaded):
    before = loaded.conn.round_trips
    loaded.write("main", "~/notes/one", "one more note")
    assert loaded.conn.round_trips - before == 6  # as tests/store/test_postgres_round_trips.py


def test_the_full_text_indexes_keep_no_pending_list(loaded):
    # A pending list is read whole by every search until VACUUM merges it.
    options = dict(
        loaded.conn.execute(
            "SELECT relname, reloptions FROM pg_class WHERE relname IN"
            " ('idx_documents_search', 'idx_passages_search', 'idx_recall_search')"
        ).fetchall()
    )
    assert options == {
        name: ["fastupdate=off"]
        for name in ("idx_documents_search", "idx_passages_search", "idx_recall_search")
    }
    loaded.conn.execute("CREATE EXTENSION IF NOT EXISTS pgstattuple")
    [(pending,)] = loaded.conn.execute(
        "SELECT pending_pages FROM pgstatginindex('idx_documents_search')"
    ).fetchall()
    assert pending == 0


def test_a_table_that_doubled_since_its_statistics_is_analyzed_again(loaded):
    # (last in the module: it adds to the shared database)
    with loaded.transaction():
        for i, body in enumerate(_notes(1600, seed=4)):
            loaded.write("main", f"~/more/n{i:04d}", body)
    [(planned, rows)] = loaded.conn.execute(
        "SELECT reltuples, (SELECT COUNT(*) FROM documents) FROM pg_class"
        " WHERE relname = 'documents'"
    ).fetchall()
    assert rows > 3100 and planned == pytest.approx(rows, rel=0.1)
