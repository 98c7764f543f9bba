"""bench/all.py runs every bench in bench/: each one must take --quick and --json-out."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


def _all():
    spec = importlib.util.spec_from_file_location("bench_all", BENCH / "all.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_bench_script_is_run_by_all():
    names = {n for n, _ in _all().BENCHES}
    # `census` reads misses by hand (which stage lost each fact): no figure, no baseline
    scripts = {p.stem for p in BENCH.glob("*.py")} - {"all", "benchreport", "census"}
    assert scripts == names


@pytest.mark.slow
@pytest.mark.parametrize("name", [n for n, _ in _all().BENCHES])
def test_bench_takes_quick_and_json_out(name):
    proc = subprocess.run(
        [sys.executable, str(BENCH / f"{name}.py"), "--help"], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    assert "--quick" in proc.stdout and "--json-out" in proc.stdout


def test_table_puts_each_figure_beside_its_baseline_and_says_what_was_skipped():
    all_ = _all()
    reports = [
        {
            "bench": "worker",
            "rows": [
                {
                    "measure": "worker hand-over",
                    "value": "500 sessions/s",
                    "baseline": "2,000 sessions/s",
                    "ratio": "0.250x",
                    "target": ">= 0.25x",
                    "ok": True,
                }
            ],
        },
        {"bench": "store_postgres", "rows": [], "skipped": "no PostgreSQL server binaries"},
    ]
    text = all_.table(reports)
    line = next(x for x in text.splitlines() if x.startswith("worker"))
    assert line.split() == [
        "worker",
        "worker",
        "hand-over",
        "500",
        "sessions/s",
        "2,000",
        "sessions/s",
        "0.250x",
        ">=",
        "0.25x",
        "ok",
    ]
    assert "store_postgres: skipped: no PostgreSQL server binaries" in text
