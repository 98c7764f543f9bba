"""Run every bench in bench/ in its quick form and report all figures in one table.

    .venv/bin/python bench/all.py                    # every bench, --quick
    .venv/bin/python bench/all.py --only worker,startup
    .venv/bin/python bench/all.py --out .bench/today.json
    make bench

Each bench runs in its own process (`python bench/NAME.py --quick --json-out FILE`), so each
stays runnable alone and a crash in one does not stop the others. Every figure is printed
beside the baseline that bench measured in the same run (raw sqlite3, git, bare python, ...)
with the ratio and the target; the whole report is written as one JSON file (`--out`,
default `.bench/all-<UTC time>.json`). Benches that need PostgreSQL start a throwaway server
(tests/pg_server.py) or are skipped with a line saying why; the relevance benches are skipped
when their data set is absent.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"

# (name, extra arguments beyond --quick), fastest first.
BENCHES: list[tuple[str, list[str]]] = [
    ("startup", []),
    ("worker", []),
    # the bytes against git are measured at the sizes their targets are set at: a quick
    # history is mostly the empty schema's pages
    ("store", ["--full-history"]),
    ("store_postgres", []),
    ("transcripts", []),
    ("agent", []),
    ("web", []),
    ("context", []),
    ("compaction", []),
    ("secret_detection", []),
    ("pages", []),
    ("locomo", []),
    ("longmemeval", []),
    ("scale", []),
    ("vectors", []),
]


def pg_missing() -> str | None:
    """Why the PostgreSQL benches cannot run here, or None."""
    sys.path.insert(0, str(ROOT / "tests"))
    try:
        import pg_server
    finally:
        sys.path.pop(0)
    if pg_server.find_binaries() is None:
        return "no PostgreSQL server binaries: " + pg_server.INSTALL_HINT
    return None


def run_one(name: str, extra: list[str], tmp: Path, timeout: float) -> dict[str, Any]:
    out = tmp / f"{name}.json"
    cmd = [sys.executable, str(BENCH / f"{name}.py"), "--quick", "--json-out", str(out), *extra]
    t0 = time.perf_counter()
    try:
        proc = subprocess.run(
            cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout, check=False
        )
    except subprocess.TimeoutExpired:
        return {"bench": name, "rows": [], "figures": {}, "error": f"timed out after {timeout} s"}
    seconds = time.perf_counter() - t0
    if out.exists():
        report = json.loads(out.read_text(encoding="utf-8"))
    else:
        report = {"bench": name, "rows": [], "figures": {}}
    report["seconds"] = round(seconds, 1)
    report["exit"] = proc.returncode
    if proc.returncode not in (0, 1) or not out.exists():  # 1: ran, a target missed
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no output"]
        report["error"] = f"exit {proc.returncode}: {tail[0][:200]}"
    report["stdout"] = proc.stdout
    return report


def table(reports: list[dict[str, Any]]) -> str:
    head = ("bench", "measure", "figure", "baseline (same run)", "ratio", "target", "status")
    lines: list[tuple[str, ...]] = [head]
    notes: list[str] = []
    for rep in reports:
        if rep.get("skipped"):
            notes.append(f"{rep['bench']}: skipped: {rep['skipped']}")
        if rep.get("error"):
            notes.append(f"{rep['bench']}: {rep['error']}")
        for r in rep["rows"]:
            ok = r.get("ok")
            status = "" if ok is None else ("ok" if ok else "MISSED")
            lines.append(
                (
                    rep["bench"],
                    r["measure"],
                    r["value"],
                    r.get("baseline", ""),
                    r.get("ratio", ""),
                    r.get("target", ""),
                    status,
                )
            )
    widths = [max(len(line[i]) for line in lines) for i in range(len(head))]
    text = ["  ".join(c.ljust(w) for c, w in zip(line, widths, strict=True)) for line in lines]
    text.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(s.rstrip() for s in text + [""] + notes)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter
    )
    ap.add_argument(
        "--only",
        help="comma-separated bench names (default: all): " + ", ".join(n for n, _ in BENCHES),
    )
    ap.add_argument("--skip", default="", help="comma-separated bench names to leave out")
    ap.add_argument("--out", type=Path, help="the JSON report (default .bench/all-<time>.json)")
    ap.add_argument(
        "--timeout", type=float, default=1800, help="seconds one bench may take (default 1800)"
    )
    ap.add_argument("-v", "--verbose", action="store_true", help="also print each bench's output")
    args = ap.parse_args(argv)
    names = [n for n, _ in BENCHES]
    only = args.only.split(",") if args.only else names
    unknown = sorted(set(only + [s for s in args.skip.split(",") if s]) - set(names))
    if unknown:
        ap.error(f"unknown bench {', '.join(unknown)}; the benches are {', '.join(names)}")
    chosen = [(n, extra) for n, extra in BENCHES if n in only and n not in args.skip.split(",")]
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    out = args.out or ROOT / ".bench" / f"all-{stamp}.json"
    no_pg = pg_missing()
    reports: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="doctree-bench-all-") as d:
        for name, extra in chosen:
            if name == "store_postgres" and no_pg:
                reports.append({"bench": name, "rows": [], "figures": {}, "skipped": no_pg})
                print(f"{name}: skipped: {no_pg}", flush=True)
                continue
            print(f"{name}: running ...", end="", flush=True)
            rep = run_one(name, extra, Path(d), args.timeout)
            print(
                f" {rep.get('seconds', '?')} s" + (f" ({rep['error']})" if "error" in rep else "")
            )
            if args.verbose:
                print(rep.get("stdout", ""))
            reports.append(rep)
    print()
    print(table(reports))
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load average at the end: {load}")
    out.parent.mkdir(parents=True, exist_ok=True)
    doc = {
        "when": stamp,
        "commit": subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
        ).stdout.strip(),
        "python": sys.version.split()[0],
        "load_average": os.getloadavg(),
        "benches": reports,
    }
    out.write_text(json.dumps(doc, indent=2, default=str) + "\n", encoding="utf-8")
    print(f"report written to {out}")
    failed = [r["bench"] for r in reports if r.get("error")]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
