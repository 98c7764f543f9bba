"""bench/scale.py fills a store and measures it; a small run here proves the script works
end to end on SQLite (the figures themselves are the bench's, not the test's)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # a subprocess or a server of its own

BENCH = Path(__file__).resolve().parents[2] / "bench"


def test_a_small_scale_run_reports_every_measure_beside_its_baseline(tmp_path):
    out = tmp_path / "scale.json"
    proc = subprocess.run(
        [
            sys.executable,
            str(BENCH / "scale.py"),
            "--docs",
            "2000",
            "--backend",
            "sqlite",
            "--queries",
            "10",
            "--json-out",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["bench"] == "scale" and report["skipped"] is None
    figures = report["figures"]
    assert figures["docs"] == 2000 and "sqlite_broke" not in figures
    for name in ("search_p50", "baseline_p50", "context_p50", "show_subtree_p50", "bytes"):
        assert figures[f"sqlite_{name}"] > 0, name
    search = next(r for r in report["rows"] if r["measure"] == "SQLite: search p50")
    assert "plain FTS" in search["baseline"] and search["ratio"].endswith("x")


@pytest.mark.postgres
def test_a_postgres_run_says_where_the_bytes_are(tmp_path):
    """On PostgreSQL the run also gives the bytes of each table's rows, TOAST and indexes;
    they add up to the tables' total, which the database's size holds. The target compares
    like with like: doctree's tables with the plain table, neither with a catalog."""
    out = tmp_path / "scale.json"
    proc = subprocess.run(
        [sys.executable, str(BENCH / "scale.py"), "--docs", "2000", "--backend", "postgres",
         "--queries", "10", "--json-out", str(out)],
        capture_output=True,
        text=True,
        timeout=600,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    report = json.loads(out.read_text(encoding="utf-8"))
    if report["skipped"]:
        pytest.skip(report["skipped"])
    figures = report["figures"]
    parts = figures["postgres_parts"]
    for part in ("documents/heap", "documents/idx_documents_search", "passages/heap"):
        assert parts[part] > 0, part
    assert sum(parts.values()) == figures["postgres_tables_bytes"]
    assert 0 < figures["postgres_tables_bytes"] < figures["postgres_bytes"]
    assert "where the bytes are" in proc.stdout
    rows = {r["measure"]: r for r in report["rows"]}
    tables = rows["PostgreSQL: size of doctree's tables (no catalog)"]
    assert tables["target"] == "<= 2.5x" and "plain FTS" in tables["baseline"]
    assert not any(r["target"] for m, r in rows.items() if "catalog on both sides" in m)
    assert 0 < figures["postgres_empty_database_bytes"] < figures["postgres_bytes"]
    # VACUUM takes the dead rows out, and gives a table that had none its free-space map
    # and visibility map (three pages and one, at least): with few dead rows left by the
    # writing, the tables can read a little more after it than before.
    tables_with_rows = {name.split("/")[0] for name in parts}
    maps = 4 * 8192 * len(tables_with_rows)
    assert 0 < figures["postgres_tables_vacuumed_bytes"] <= figures["postgres_tables_bytes"] + maps
