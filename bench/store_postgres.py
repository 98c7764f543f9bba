"""Benchmark of the document store on PostgreSQL against raw psycopg doing the same work.

    .venv/bin/python bench/store_postgres.py --quick          # a throwaway local server
    .venv/bin/python bench/store_postgres.py --url postgresql://user@host/db
    .venv/bin/python bench/store.py --backend postgres --quick   # the same

The figures of bench/store.py on the PostgreSQL backend: batched writes, single-write
transactions, point reads of current documents, search, show of a tree, and the history
of a document. Each is measured in this run next to raw psycopg 3 doing the equivalent
minimal inserts / selects (the same rows into the same tables with the same full-text
vectors, values computed beforehand; no write lock, no preconditions), and printed with
the ratio. Run bench/store.py in the same period for the SQLite figures.

Without `--url`, a throwaway server is started from the machine's PostgreSQL binaries
(tests/pg_server.py: initdb + pg_ctl in a temporary directory, a Unix socket, fsync off).
With `--url`, each measure creates its own database on that server (the user needs
CREATEDB) named `doctree_bench_*`, and drops it afterwards.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from doctree.store.documents import Provenance

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import benchreport  # noqa: E402

from doctree.interop.render import render_tree  # noqa: E402
from doctree.store.backends import describe, search_words  # noqa: E402
from doctree.store.backends.postgres import TSCONFIG  # noqa: E402
from doctree.store.documents import DocumentsRepository  # noqa: E402, Provenance


def _load_sqlite_bench() -> Any:
    spec = importlib.util.spec_from_file_location("bench_store", ROOT / "bench" / "store.py")
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    sys.modules["bench_store"] = module
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


base = _load_sqlite_bench()  # the workload, the table and the timing helpers are shared
OWNER, ACTOR, BATCH, Row = base.OWNER, base.ACTOR, base.BATCH, base.Row
ms, pct, timings = base.ms, base.pct, base.timings


# -- the server and its databases ------------------------------------------------------------


class Databases:
    """New databases on one server: `create()` gives a URL to an empty database."""

    def __init__(self, url: str):
        import psycopg

        self.psycopg = psycopg
        self.url = url
        self.created: list[str] = []
        self._n = 0

    def _with_db(self, name: str) -> str:
        parts = urlsplit(self.url)
        return urlunsplit(parts._replace(path="/" + name))

    def create(self) -> str:
        self._n += 1
        name = f"doctree_bench_{os.getpid()}_{self._n}"
        with self.psycopg.connect(self.url, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name}")
            admin.execute(f"CREATE DATABASE {name}")
        self.created.append(name)
        return self._with_db(name)

    def drop_all(self) -> None:
        with self.psycopg.connect(self.url, autocommit=True) as admin:
            for name in self.created:
                admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        self.created.clear()


@contextmanager
def server(url: str | None) -> Iterator[str]:
    """The URL of a server to benchmark on: `url`, or a throwaway local one."""
    if url:
        yield url
        return
    from tests.pg_server import Server

    s = Server()
    if not s.start():
        raise SystemExit(f"no PostgreSQL server: {s.why_not}; or give --url")
    try:
        yield s.url
    finally:
        s.stop()


def raw_connect(url: str) -> Any:
    """A plain psycopg connection to a doctree database (its schema made by doctree)."""
    import psycopg

    from doctree.store.db import connect

    connect(url).close()  # migrated: the same tables and indexes as doctree's
    return psycopg.connect(url, autocommit=True)


# -- raw psycopg ----------------------------------------------------------------------------

_VECTOR = (
    f"setweight(to_tsvector('{TSCONFIG}', ?), 'A') || setweight(to_tsvector('{TSCONFIG}', ?),"
    f" 'B') || setweight(to_tsvector('{TSCONFIG}', ?), 'C')"
)


def raw_insert(conn: Any, row: tuple, parents: dict[str, int]) -> None:
    """The rows a create stores, as bench/store.py's raw_insert on SQLite, the full-text
    vector in the document's row."""
    base.raw_insert(
        conn,
        row,
        parents,
        mark="%s",
        index_value=lambda path, title, body: (
            "search_vector",
            _VECTOR,
            [search_words(path), search_words(title), search_words(body)],
        ),
    )


def raw_rows(items: list[tuple[str, str]]) -> list[tuple]:
    # Bodies as the store keeps them (bytes for BYTEA), the rest as bench/store.py's.
    return [(*r[:3], bytes(r[3]), *r[4:]) for r in base.raw_rows(items)]


def bulk_fill(url: str, items: list[tuple[str, str]], batch: int = 2_000) -> float:
    """The documents' rows (no versions, no references: what a search reads), inserted a
    batch to a statement with their vectors computed by the server; the rate per second.
    Many times faster than writing each through the store, for the search measure at
    100k-1M documents (`--search-only`)."""
    conn = raw_connect(url)
    t0 = time.perf_counter()
    for i in range(0, len(items), batch):
        rows = raw_rows(items[i : i + batch])
        cols = list(zip(*[(r[0], r[1], r[3], r[4], r[5], r[6]) for r in rows], strict=True))
        words = [[search_words(r[k]) for r in rows] for k in range(3)]
        with conn.transaction():
            conn.execute(
                "INSERT INTO documents (owner, path, title, body_data, version, content_sha256,"
                " size, created_at, updated_at, search_vector)"
                " SELECT %s, p, t, b, 1, d, s, ts, ts,"
                f" setweight(to_tsvector('{TSCONFIG}', wp), 'A')"
                f" || setweight(to_tsvector('{TSCONFIG}', wt), 'B')"
                f" || setweight(to_tsvector('{TSCONFIG}', wb), 'C')"
                " FROM unnest(%s::text[], %s::text[], %s::bytea[], %s::bytea[], %s::bigint[],"
                " %s::text[], %s::text[], %s::text[], %s::text[]) AS x(p, t, b, d, s, ts, wp, wt, wb)",
                (OWNER, *[list(c) for c in cols], *words),
            )
    rate = len(items) / (time.perf_counter() - t0)
    # Settled as a database written over time is: GIN's pending list merged (a search
    # reads all of it), the visibility map set, the planner's statistics taken.
    conn.execute("VACUUM ANALYZE")
    conn.close()
    return rate


# -- measures -------------------------------------------------------------------------------


def write_rates(dbs: Databases, items: list[tuple[str, str]], batch: int) -> tuple[float, float]:
    """Versioned writes per second, `batch` to a transaction: doctree vs raw psycopg."""
    repo = DocumentsRepository(dbs.create())
    t0 = time.perf_counter()
    for i in range(0, len(items), batch):
        if batch == 1:
            repo.write(OWNER, *items[i], provenance=Provenance(ACTOR))
            continue
        with repo.transaction():
            for path, body in items[i : i + batch]:
                repo.write(OWNER, path, body, provenance=Provenance(ACTOR))
    store_s = time.perf_counter() - t0
    n_rows = repo.conn.execute("SELECT COUNT(*) FROM documents").fetchone()[0]
    repo.close()

    rows = raw_rows(base.with_parents(items))
    conn = raw_connect(dbs.create())
    parents: dict[str, int] = {}
    t0 = time.perf_counter()
    for i in range(0, len(rows), batch):
        with conn.transaction():
            for row in rows[i : i + batch]:
                raw_insert(conn, row, parents)
    raw_s = time.perf_counter() - t0
    conn.close()
    assert len(rows) == n_rows, (len(rows), n_rows)
    return n_rows / store_s, n_rows / raw_s


def edit_some(repo: DocumentsRepository, paths: list[str], edits: int) -> list[str]:
    """`edits` one-line edits spread over 1/10 of `paths` (each such note gets ~10
    versions); returns the edited paths."""
    rnd = random.Random(21)
    chosen = rnd.sample(paths, max(1, edits // 10))
    with repo.transaction():
        for k in range(edits):
            p = chosen[k % len(chosen)]
            repo.write(
                OWNER, p, f"{p} edit {k}: {base.note_line(rnd)}", provenance=Provenance(ACTOR)
            )
    return chosen


def point_reads(repo: DocumentsRepository, raw: Any, paths: list[str], n: int):
    rnd = random.Random(3)
    sample = [rnd.choice(paths) for _ in range(n)]
    for p in sample[:50]:  # warm the server's cache the same way for both
        repo.read(OWNER, p)
    store = timings(lambda p: repo.read(OWNER, p), sample)
    other = timings(
        lambda p: raw.execute(
            "SELECT * FROM documents WHERE owner = %s AND path = %s AND deleted_at IS NULL",
            (OWNER, p),
        ).fetchone(),
        sample,
    )
    return store, other


def searches(repo: DocumentsRepository, raw: Any, n: int):
    rnd = random.Random(5)
    words = base.WORDS
    queries = [
        " ".join(
            rnd.choice(words[: 400 if k % 2 else len(words)]) for _ in range(rnd.randint(1, 3))
        )
        for k in range(n)
    ]
    store: list[float] = []
    other: list[float] = []
    raw_search = (
        f"SELECT id FROM documents, to_tsquery('{TSCONFIG}', %s) q"
        " WHERE search_vector @@ q AND owner = %s AND deleted_at IS NULL"
        " ORDER BY ts_rank_cd(search_vector, q) DESC LIMIT 10"
    )

    def raw_query(q: str) -> Any:
        return raw.execute(raw_search, (" | ".join(f"'{w}'" for w in q.split()), OWNER)).fetchall()

    for q in queries[:10]:  # both warmed alike (statements prepared, plans chosen)
        repo.search(OWNER, q, limit=10)
        raw_query(q)
    for q in queries:  # each query by both in turn: a load that comes and goes hits both
        store += timings(lambda q: repo.search(OWNER, q, limit=10), [q])
        other += timings(raw_query, [q])
    return store, other


def show_tree(repo: DocumentsRepository, raw: Any, repeat: int):
    nodes = sum(1 for r in repo.tree(OWNER, "~/big") for _ in r.walk())
    store = timings(
        lambda _: "\n".join(render_tree(repo.tree(OWNER, "~/big"), home=False)), [None], repeat
    )
    other = timings(
        lambda _: raw.execute(
            "SELECT id, path, title, version, size, updated_at FROM documents"
            " WHERE owner = %s AND deleted_at IS NULL AND path >= %s AND path < %s",
            (OWNER, "~/big", "~/big0"),
        ).fetchall(),
        [None],
        repeat,
    )
    return store, other, nodes


def history_reads(repo: DocumentsRepository, raw: Any, edited: list[str], n: int):
    rnd = random.Random(17)
    picks = [rnd.choice(edited) for _ in range(n)]
    store = timings(lambda p: repo.history(OWNER, p), picks)
    other = timings(
        lambda p: raw.execute(
            "SELECT v.version, v.operation, v.path, v.title, v.size, v.actor_kind, v.actor_id,"
            " v.created_at FROM document_versions v JOIN documents d ON d.id = v.document_id"
            " WHERE d.owner = %s AND d.path = %s AND d.deleted_at IS NULL ORDER BY v.version",
            (OWNER, p),
        ).fetchall(),
        picks,
    )
    return store, other


# -- the run --------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--url", help="an existing server (postgresql://...); default: a throwaway one")
    ap.add_argument("--quick", action="store_true", help="a small run: 5k documents")
    ap.add_argument("--docs", type=int, help="documents for the read/search measures")
    ap.add_argument("--json", action="store_true", help="also print the figures as JSON")
    ap.add_argument(
        "--search-only",
        action="store_true",
        help="measure search alone, on documents inserted in bulk (fast at 100k-1M)",
    )
    benchreport.add_json_out(ap)
    args = ap.parse_args(argv)
    try:
        import psycopg  # noqa: F401
    except ImportError:
        raise SystemExit("needs psycopg 3: pip install 'doctree[postgres]'") from None

    n_docs = args.docs or (5_000 if args.quick else 100_000)
    n_tree = 2_000 if args.quick else 10_000
    n_batched = 2_000 if args.quick else 20_000
    n_single = 300 if args.quick else 2_000
    n_reads = 500 if args.quick else 5_000
    n_search = 100 if args.quick else 500
    n_edits = 2_000 if args.quick else 10_000

    rows: list[Row] = []
    figures: dict[str, float] = {}

    def add(row: Row) -> None:
        rows.append(row)
        print(f"  {row.measure}: {row.doctree} vs {row.raw} ({row.ratio})", flush=True)

    def latency(name: str, key: str, store: list[float], other: list[float]) -> None:
        for p in (50, 99):
            s, r = pct(store, p), pct(other, p)
            figures[f"{key}_p{p}_ms"], figures[f"{key}_raw_p{p}_ms"] = s * 1e3, r * 1e3
            add(Row(f"{name} p{p}", ms(s), ms(r), f"{s / r:.1f}x raw", "-", None))

    with server(args.url) as url:
        dbs = Databases(url)
        if args.search_only:
            try:
                items = base.workload(base.layout(n_docs, n_tree))
                big = dbs.create()
                DocumentsRepository(big).close()  # migrated
                rate = bulk_fill(big, items)
                print(f"filled {len(items):,} documents in bulk at {rate:,.0f}/s", flush=True)
                repo, raw = DocumentsRepository(big), raw_connect(big)
                store, other = searches(repo, raw, n_search)
                latency(f"search ({len(items):,} docs)", "search", store, other)
                raw.close()
                repo.close()
            finally:
                dbs.drop_all()
            print()
            print_table(rows)
            if args.json:
                print(json.dumps(figures, indent=2))
            return 0
        try:
            with psycopg_version(url) as version:
                print(f"server: {describe(url)} (PostgreSQL {version})")
            paths = base.layout(n_docs, n_tree)
            items = base.workload(paths)
            print(f"workload: {len(items):,} documents, {sum(len(b) for _, b in items):,} bytes")
            if hasattr(os, "getloadavg"):
                print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
            rnd = random.Random(9)
            pool = items[n_tree:] or items  # (all of them when --docs is below the tree)
            sample = rnd.sample(pool, min(n_batched, len(pool)))

            store_rate, raw_rate = write_rates(dbs, sample, BATCH)
            figures.update(batched_per_s=store_rate, batched_raw_per_s=raw_rate)
            add(
                Row(
                    f"batched writes ({BATCH}/tx)",
                    f"{store_rate:,.0f}/s",
                    f"{raw_rate:,.0f}/s",
                    f"{store_rate / raw_rate:.0%} of raw",
                    "-",
                    None,
                )
            )
            store_rate, raw_rate = write_rates(dbs, sample[:n_single], 1)
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

            big = dbs.create()
            repo, rate = base.populate(big, items, statistics="ANALYZE")
            total = repo.conn.execute("SELECT COUNT(*) FROM documents").fetchone()[0]
            figures.update(populate_per_s=rate, documents=total)
            print(f"populated {total:,} documents at {rate:,.0f} writes/s (batched)")
            edited = edit_some(repo, paths[n_tree:] or paths, n_edits)
            repo.conn.execute("ANALYZE")
            raw = raw_connect(big)

            store, other = point_reads(repo, raw, paths, n_reads)
            latency(f"point read ({total:,} docs)", "read", store, other)
            store, other = searches(repo, raw, n_search)
            latency(f"search ({total:,} docs)", "search", store, other)
            store, other, nodes = show_tree(repo, raw, 3 if args.quick else 5)
            s50, r50 = statistics.median(store), statistics.median(other)
            figures.update(show_s=s50, show_raw_s=r50, show_nodes=nodes)
            add(
                Row(
                    f"show of {nodes:,} nodes (tree + render)",
                    ms(s50),
                    ms(r50),
                    f"{s50 / r50:.1f}x raw",
                    "-",
                    None,
                )
            )
            store, other = history_reads(repo, raw, edited, n_reads // 5)
            latency("history of a note (~10 versions)", "history", store, other)
            raw.close()
            repo.close()
        finally:
            dbs.drop_all()

    print()
    print_table(rows)
    benchreport.write(
        args.json_out,
        "store_postgres",
        [
            benchreport.row(
                f"{r.measure} (PostgreSQL)",
                r.doctree,
                f"{r.raw} (raw psycopg)",
                r.ratio,
                r.target if r.target != "-" else "",
                r.ok,
            )
            for r in rows
        ],
        figures,
    )
    if args.json:
        print(json.dumps(figures, indent=2))
    return 0


@contextmanager
def psycopg_version(url: str) -> Iterator[str]:
    import psycopg

    with psycopg.connect(url) as conn:
        yield conn.execute("SHOW server_version").fetchone()[0]


def print_table(rows: list[Any]) -> None:
    head = Row("measure (PostgreSQL)", "doctree", "baseline (raw psycopg)", "ratio", "", None)
    table = [(r.measure, r.doctree, r.raw, r.ratio) for r in [head, *rows]]
    widths = [max(len(c) for c in col) for col in zip(*table, strict=True)]
    for k, cells in enumerate(table):
        print("  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)))
        if k == 0:
            print("  ".join("-" * w for w in widths))


if __name__ == "__main__":
    sys.exit(main())
