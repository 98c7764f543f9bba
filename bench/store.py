"""Benchmark of the document store against raw sqlite3 doing the same minimal work.

    .venv/bin/python bench/store.py            # the full run: 100k documents
    .venv/bin/python bench/store.py --quick    # a small run (seconds)

Each figure is measured on a fresh database in this run, next to raw `sqlite3` doing the
equivalent minimal inserts / selects (the same rows into the same tables, values computed
beforehand), and printed with the ratio and the target of issue 2.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from doctree.interop.render import render_tree  # noqa: E402
from doctree.store import db as dbmod  # noqa: E402
from doctree.store.documents import Actor, DocumentsRepository, now, title_for  # noqa: E402
from doctree.store.paths import parent_of  # noqa: E402
from doctree.store.references import body_links  # noqa: E402

OWNER = "bench"
ACTOR = Actor("agent", OWNER)
BATCH = 1000


@dataclass
class Row:
    measure: str
    doctree: str
    raw: str
    ratio: str
    target: str
    ok: bool | None


# -- data ---------------------------------------------------------------------------------


def vocabulary(n: int = 3000) -> list[str]:
    rnd = random.Random(7)
    letters = "abcdefghijklmnopqrstuvwxyz"
    words = set()
    while len(words) < n:
        words.add("".join(rnd.choice(letters) for _ in range(rnd.randint(3, 9))))
    return sorted(words)


WORDS = vocabulary()


def make_body(rnd: random.Random, i: int, paths: list[str]) -> str:
    """A note of 40-90 words (Zipf-like word choice), sometimes linking to other notes."""
    n = rnd.randint(40, 90)
    words = [WORDS[min(int(rnd.paretovariate(1.1)) - 1, len(WORDS) - 1)] for _ in range(n)]
    words += [rnd.choice(WORDS) for _ in range(n // 4)]
    rnd.shuffle(words)
    text = " ".join(words)
    extra = ""
    if paths and rnd.random() < 0.3:
        extra += f"\n\nSee [[{rnd.choice(paths)}]]."
    if paths and rnd.random() < 0.2:
        extra += f" Related: [note]({rnd.choice(paths)})."
    return f"# Note {i}\n\n{text}.{extra}\n"


def layout(n_docs: int, tree_nodes: int) -> list[str]:
    """Paths: a `~/big` subtree of `tree_nodes` nodes, the rest under `~/notes`."""
    paths = []
    per_folder = 100
    folders = max(1, tree_nodes // (per_folder + 1))
    for f in range(folders):
        for d in range(per_folder):
            paths.append(f"~/big/f{f:03d}/d{d:03d}")
    j = 0
    while len(paths) + (len(paths) // 1000) < n_docs:
        paths.append(f"~/notes/g{j // 1000:03d}/n{j:06d}")
        j += 1
    return paths


def workload(paths: list[str], seed: int = 1) -> list[tuple[str, str]]:
    rnd = random.Random(seed)
    return [(p, make_body(rnd, i, paths)) for i, p in enumerate(paths)]


# -- raw sqlite3 ----------------------------------------------------------------------------


def raw_rows(items: list[tuple[str, str]]) -> list[tuple]:
    """Everything the store computes for a create, precomputed: raw sqlite3 only inserts."""
    ts = now()
    out = []
    for path, body in items:
        parent = parent_of(path)
        refs = [("parent", parent)] if parent and parent != "~" else []
        refs += [("body", t) for t in body_links(body)]
        out.append(
            (
                path,
                title_for(path, body),
                body,
                hashlib.sha256(body.encode()).hexdigest(),
                len(body.encode()),
                ts,
                refs,
            )
        )
    return out


def raw_insert(conn: sqlite3.Connection, row: tuple, parents: dict[str, int]) -> None:
    path, title, body, digest, size, ts, refs = row
    doc_id = conn.execute(
        "INSERT INTO documents (owner, path, parent_id, title, body, version, content_sha256,"
        " size, links, created_at, updated_at) VALUES (?,?,?,?,?,1,?,?,NULL,?,?)",
        (OWNER, path, parents.get(parent_of(path) or ""), title, body, digest, size, ts, ts),
    ).lastrowid
    parents[path] = doc_id
    conn.execute(
        "INSERT INTO document_versions (document_id, owner, version, operation, path, title,"
        " body, content_sha256, size, actor_kind, actor_id, session_id, run_id, links,"
        " deleted, created_at) VALUES (?,?,1,'created',?,?,?,?,?,'agent',?,NULL,NULL,NULL,0,?)",
        (doc_id, OWNER, path, title, body, digest, size, OWNER, ts),
    )
    for kind, target in refs:
        conn.execute(
            "INSERT INTO document_references (source_id, version, kind, owner, target_path,"
            " target_id) VALUES (?,1,?,?,?,?)",
            (doc_id, kind, OWNER, target, parents.get(target)),
        )
    conn.execute(
        "INSERT INTO documents_fts (rowid, path, title, body) VALUES (?,?,?,?)",
        (doc_id, path, title, body),
    )


def with_parents(items: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The items with every missing ancestor first (the store creates those itself)."""
    seen: set[str] = set()
    out = []
    for path, body in items:
        segs = path.split("/")
        for k in range(2, len(segs)):
            anc = "/".join(segs[:k])
            if anc not in seen:
                seen.add(anc)
                out.append((anc, ""))
        seen.add(path)
        out.append((path, body))
    return out


# -- measures -------------------------------------------------------------------------------


def fresh(tmp: Path, name: str) -> Path:
    path = tmp / f"{name}.db"
    for suffix in ("", "-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    return path


def batched_writes(tmp: Path, items: list[tuple[str, str]]) -> tuple[float, float, int]:
    """Versioned writes per second, BATCH writes per transaction: doctree vs raw."""
    repo = DocumentsRepository(fresh(tmp, "batched"))
    t0 = time.perf_counter()
    for i in range(0, len(items), BATCH):
        with repo.transaction():
            for path, body in items[i : i + BATCH]:
                repo.write(OWNER, path, body, actor=ACTOR)
    store_s = time.perf_counter() - t0
    n_rows = repo.conn.execute("SELECT COUNT(*) FROM documents").fetchone()[0]
    repo.close()

    rows = raw_rows(with_parents(items))
    conn = dbmod.connect(fresh(tmp, "raw_batched"))
    parents: dict[str, int] = {}
    t0 = time.perf_counter()
    for i in range(0, len(rows), BATCH):
        conn.execute("BEGIN IMMEDIATE")
        for row in rows[i : i + BATCH]:
            raw_insert(conn, row, parents)
        conn.execute("COMMIT")
    raw_s = time.perf_counter() - t0
    conn.close()
    assert len(rows) == n_rows, (len(rows), n_rows)
    return n_rows / store_s, n_rows / raw_s, n_rows


def single_writes(tmp: Path, items: list[tuple[str, str]]) -> tuple[float, float]:
    """Writes per second when each write is its own transaction: doctree vs raw."""
    items = with_parents(items)
    repo = DocumentsRepository(fresh(tmp, "single"))
    t0 = time.perf_counter()
    for path, body in items:
        repo.write(OWNER, path, body, actor=ACTOR)
    store_s = time.perf_counter() - t0
    repo.close()
    rows = raw_rows(items)
    conn = dbmod.connect(fresh(tmp, "raw_single"))
    parents: dict[str, int] = {}
    t0 = time.perf_counter()
    for row in rows:
        conn.execute("BEGIN IMMEDIATE")
        raw_insert(conn, row, parents)
        conn.execute("COMMIT")
    raw_s = time.perf_counter() - t0
    conn.close()
    return len(items) / store_s, len(rows) / raw_s


def populate(path: Path, items: list[tuple[str, str]]) -> tuple[DocumentsRepository, float]:
    repo = DocumentsRepository(path)
    t0 = time.perf_counter()
    for i in range(0, len(items), BATCH):
        with repo.transaction():
            for p, body in items[i : i + BATCH]:
                repo.write(OWNER, p, body, actor=ACTOR)
    rate = len(items) / (time.perf_counter() - t0)
    repo.conn.execute("PRAGMA optimize")
    return repo, rate


def timings(fn, args: list, repeat: int = 1) -> list[float]:
    out = []
    for a in args:
        for _ in range(repeat):
            t0 = time.perf_counter()
            fn(a)
            out.append(time.perf_counter() - t0)
    return out


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def point_reads(repo: DocumentsRepository, paths: list[str], n: int) -> tuple[list, list]:
    rnd = random.Random(3)
    sample = [rnd.choice(paths) for _ in range(n)]
    for p in sample[:50]:  # warm the page cache the same way for both
        repo.read(OWNER, p)
    store = timings(lambda p: repo.read(OWNER, p), sample)
    conn = repo.conn
    raw = timings(
        lambda p: conn.execute(
            "SELECT * FROM documents WHERE owner = ? AND path = ? AND deleted_at IS NULL",
            (OWNER, p),
        ).fetchone(),
        sample,
    )
    return store, raw


def show_tree(repo: DocumentsRepository, repeat: int) -> tuple[list, list, int]:
    nodes = sum(1 for r in repo.tree(OWNER, "~/big") for _ in r.walk())

    def show(_):
        roots = repo.tree(OWNER, "~/big")
        return "\n".join(render_tree(roots, home=False))

    store = timings(show, [None], repeat)
    conn = repo.conn
    raw = timings(
        lambda _: conn.execute(
            "SELECT id, path, title, version, size, updated_at FROM documents"
            " WHERE owner = ? AND deleted_at IS NULL AND path >= ? AND path < ?",
            (OWNER, "~/big", "~/big0"),
        ).fetchall(),
        [None],
        repeat,
    )
    return store, raw, nodes


def searches(repo: DocumentsRepository, n: int) -> tuple[list, list]:
    rnd = random.Random(5)
    queries = [
        " ".join(
            rnd.choice(WORDS[: 400 if k % 2 else len(WORDS)]) for _ in range(rnd.randint(1, 3))
        )
        for k in range(n)
    ]
    store = timings(lambda q: repo.search(OWNER, q, limit=10), queries)
    conn = repo.conn
    raw = timings(
        lambda q: conn.execute(
            "SELECT rowid FROM documents_fts WHERE documents_fts MATCH ? ORDER BY rank LIMIT 10",
            (" OR ".join(f'"{w}"' for w in q.split()),),
        ).fetchall(),
        queries,
    )
    return store, raw


def doctree_command() -> list[str]:
    """How to run the CLI: the project's .venv script, the console script on PATH, or
    `python -m doctree` with this interpreter."""
    exe = ROOT / ".venv" / "bin" / "doctree"
    if exe.exists():
        return [str(exe)]
    found = shutil.which("doctree")
    return [found] if found else [sys.executable, "-m", "doctree"]


def help_time(repeat: int) -> tuple[float, float]:
    cmd = doctree_command()
    env = {**os.environ, "DOCTREE_DB": os.devnull}

    def run(argv):
        t0 = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, env=env)
        return time.perf_counter() - t0

    run(cmd + ["--help"])
    store = statistics.median(run(cmd + ["--help"]) for _ in range(repeat))
    bare = statistics.median(run([sys.executable, "-c", "pass"]) for _ in range(repeat))
    return store, bare


# -- report ---------------------------------------------------------------------------------


def ms(x: float) -> str:
    return f"{x * 1000:.3f} ms" if x < 0.01 else f"{x * 1000:.1f} ms"


def print_table(rows: list[Row]) -> None:
    head = Row("measure", "doctree", "raw sqlite3", "ratio", "target", None)
    cols = list(
        zip(*[(r.measure, r.doctree, r.raw, r.ratio, r.target) for r in [head, *rows]], strict=True)
    )
    widths = [max(len(c) for c in col) for col in cols]
    for k, r in enumerate([head, *rows]):
        cells = [r.measure, r.doctree, r.raw, r.ratio, r.target]
        status = "" if r.ok is None else ("ok" if r.ok else "MISSED")
        if k == 0:
            status = "status"
        print("  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)) + "  " + status)
        if k == 0:
            print("  ".join("-" * w for w in widths) + "  ------")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="a small run: 5k documents")
    ap.add_argument("--docs", type=int, help="documents for the read/search measures")
    ap.add_argument("--json", action="store_true", help="also print the figures as JSON")
    args = ap.parse_args(argv)
    n_docs = args.docs or (5_000 if args.quick else 100_000)
    n_tree = 2_000 if args.quick else 10_000
    n_batched = 2_000 if args.quick else 20_000
    n_single = 300 if args.quick else 2_000
    n_reads = 500 if args.quick else 5_000
    n_search = 100 if args.quick else 500

    rows: list[Row] = []
    figures: dict[str, float] = {}

    def add(row: Row) -> None:  # each figure is printed as soon as it is measured
        rows.append(row)
        status = "" if row.ok is None else ("  ok" if row.ok else "  MISSED")
        print(f"  {row.measure}: {row.doctree} vs {row.raw} ({row.ratio}){status}", flush=True)

    with tempfile.TemporaryDirectory(prefix="doctree-bench-") as d:
        tmp = Path(d)
        paths = layout(n_docs, n_tree)
        items = workload(paths)
        print(
            f"workload: {len(items):,} documents, {sum(len(b) for _, b in items):,} bytes of body"
        )
        if hasattr(os, "getloadavg"):  # a busy machine slows every figure, ratios less so
            print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")

        rnd = random.Random(9)
        sample = rnd.sample(items[n_tree:] or items, min(n_batched, len(items) - n_tree))
        store_rate, raw_rate, n_rows = batched_writes(tmp, sample)
        ratio = store_rate / raw_rate
        figures.update(batched_per_s=store_rate, batched_raw_per_s=raw_rate)
        add(
            Row(
                f"batched writes ({n_rows:,} rows, {BATCH}/tx)",
                f"{store_rate:,.0f}/s",
                f"{raw_rate:,.0f}/s",
                f"{ratio:.0%} of raw",
                ">= 40% of raw",
                ratio >= 0.40,
            )
        )

        store_rate, raw_rate = single_writes(tmp, sample[:n_single])
        figures.update(single_per_s=store_rate, single_raw_per_s=raw_rate)
        add(
            Row(
                "single-write transactions",
                f"{store_rate:,.0f}/s",
                f"{raw_rate:,.0f}/s",
                f"{store_rate / raw_rate:.0%} of raw",
                "-",
                None,
            )
        )

        repo, rate = populate(fresh(tmp, "big"), items)
        total = repo.conn.execute("SELECT COUNT(*) FROM documents").fetchone()[0]
        figures.update(populate_per_s=rate, documents=total)
        print(f"populated {total:,} documents at {rate:,.0f} writes/s (batched)")

        store, raw = point_reads(repo, paths, n_reads)
        p50, p99, r50 = pct(store, 50), pct(store, 99), pct(raw, 50)
        figures.update(read_p50_ms=p50 * 1e3, read_p99_ms=p99 * 1e3, read_raw_p50_ms=r50 * 1e3)
        add(
            Row(
                f"point read p50 ({total:,} docs)",
                ms(p50),
                ms(r50),
                f"{p50 / r50:.1f}x raw",
                "< 1 ms",
                p50 < 0.001,
            )
        )
        add(
            Row(
                "point read p99",
                ms(p99),
                ms(pct(raw, 99)),
                f"{p99 / pct(raw, 99):.1f}x raw",
                "-",
                None,
            )
        )

        store, raw, nodes = show_tree(repo, 3 if args.quick else 5)
        s50, r50 = statistics.median(store), statistics.median(raw)
        figures.update(show_s=s50, show_raw_s=r50, show_nodes=nodes)
        add(
            Row(
                f"show of {nodes:,} nodes (tree + render)",
                ms(s50),
                ms(r50),
                f"{s50 / r50:.1f}x raw",
                "< 1 s" if nodes >= 10_000 else "< 1 s (at 10k)",
                s50 < 1.0,
            )
        )

        store, raw = searches(repo, n_search)
        p50, r50 = pct(store, 50), pct(raw, 50)
        figures.update(search_p50_ms=p50 * 1e3, search_p99_ms=pct(store, 99) * 1e3)
        figures.update(search_raw_p50_ms=r50 * 1e3)
        add(
            Row(
                f"search p50 ({total:,} docs)",
                ms(p50),
                ms(r50),
                f"{p50 / r50:.1f}x raw",
                "< 20 ms",
                p50 < 0.020,
            )
        )
        add(
            Row(
                "search p99",
                ms(pct(store, 99)),
                ms(pct(raw, 99)),
                f"{pct(store, 99) / pct(raw, 99):.1f}x raw",
                "-",
                None,
            )
        )
        repo.close()

    try:
        help_s, bare_s = help_time(5)
    except (OSError, subprocess.CalledProcessError) as e:  # the figures above still count
        print(f"doctree --help could not be timed: {e}")
    else:
        figures.update(help_s=help_s, python_startup_s=bare_s)
        add(
            Row(
                "doctree --help (subprocess)",
                ms(help_s),
                f"{ms(bare_s)} (python -c pass)",
                f"{help_s / bare_s:.1f}x bare python",
                "< 0.3 s",
                help_s < 0.3,
            )
        )
    print()
    print_table(rows)
    if args.json:
        print(json.dumps(figures, indent=2))
    missed = [r.measure for r in rows if r.ok is False]
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
