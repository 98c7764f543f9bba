"""Benchmark of the document store against raw sqlite3 and git doing the same work.

    .venv/bin/python bench/store.py            # the full run: 100k documents
    .venv/bin/python bench/store.py --quick    # a small run (seconds)
    .venv/bin/python bench/store.py --history  # only the history part, against git
    .venv/bin/python bench/store.py --no-history  # leave it out
    .venv/bin/python bench/store.py --quick --full-history  # quick, but the history full size
    .venv/bin/python bench/store.py --backend postgres [--url URL]  # bench/store_postgres.py

Each figure is measured on a fresh database in this run, next to raw `sqlite3` doing the
equivalent minimal inserts / selects (the same rows into the same tables, values computed
beforehand), and printed with the ratio and the target of issues 2 and 12.

The history part keeps the same history in doctree and in a git repository (written with
`git fast-import`, one commit per change, then `git gc`): 2,000 notes of ~2 KB then 5,000
one-line edits, and one 10 KB document edited 1,000 times. It compares bytes on disk, the
time to read an old version, a document's history and a diff (git through its command
line, as a user of either would), and how zlib and zstd (when the `zstandard` package is
importable) compress the bodies of the workload.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import benchreport  # noqa: E402
import startup  # noqa: E402

from doctree.interop.render import render_tree  # noqa: E402
from doctree.store import db as dbmod  # noqa: E402
from doctree.store import encoding  # noqa: E402
from doctree.store.documents import Actor, DocumentsRepository, Provenance, now, title_for  # noqa: E402
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
    """Everything the store computes for a create, precomputed: raw sqlite3 only inserts
    (the stored values too: the body encoded as the store keeps it)."""
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
                encoding.encode_full(body),
                hashlib.sha256(body.encode()).digest(),
                len(body.encode()),
                ts,
                refs,
            )
        )
    return out


def raw_insert(
    conn: Any,
    row: tuple,
    parents: dict[str, int],
    *,
    mark: str = "?",
    index_value: Callable[[str, str, str], tuple[str, str, list[str]]] | None = None,
) -> None:
    """The rows a create stores, values computed beforehand: document, version, references,
    the full-text entry and the document's place in the passage index's queue. `mark` is
    the driver's placeholder; `index_value(path, title, body)` gives (column, SQL value,
    parameters) where the entry is a column of the document's row (PostgreSQL:
    bench/store_postgres.py, where a trigger queues the document), else it goes to
    `documents_fts` and the queue's row is inserted here."""
    path, title, body, data, digest, size, ts, refs = row
    column, value, extra = ("", "", [])
    if index_value is not None:
        name, value, extra = index_value(path, title, body)
        column, value = f", {name}", f",{value}"
    insert = (
        "INSERT INTO documents (owner, path, parent_id, title, body_data, version,"
        f" content_sha256, size, links, created_at, updated_at{column})"
        f" VALUES (?,?,?,?,?,1,?,?,NULL,?,?{value})"
    ).replace("?", mark)
    values = (OWNER, path, parents.get(parent_of(path) or ""), title, data, digest, size, ts,
              ts, *extra)  # fmt: skip
    if index_value is None:
        # SQLite gives the id without RETURNING, which would give the statement a statement
        # journal, and FTS5 a flush of its pending entries at each row (migration 015).
        doc_id = conn.execute(insert, values).lastrowid
    else:
        doc_id = conn.execute(insert + " RETURNING id", values).fetchone()[0]
    parents[path] = doc_id
    conn.execute(
        (
            "INSERT INTO document_versions (document_id, owner, version, operation, path,"
            " title, body_data, size, actor_kind, actor_id, session_id, run_id,"
            " links, deleted, created_at)"
            " VALUES (?,?,1,'created',?,?,?,?,'agent',?,NULL,NULL,NULL,0,?)"
        ).replace("?", mark),
        (doc_id, OWNER, path, title, data, size, OWNER, ts),
    )
    for kind, target in refs:
        conn.execute(
            (
                "INSERT INTO document_references (source_id, version, kind, owner, target_path,"
                " target_id) VALUES (?,1,?,?,?,?)"
            ).replace("?", mark),
            (doc_id, kind, OWNER, target, parents.get(target)),
        )
    if index_value is None:
        conn.execute(
            "INSERT INTO passage_pending (document_id, owner) VALUES (?,?)", (doc_id, OWNER)
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
                repo.write(OWNER, path, body, provenance=Provenance(ACTOR))
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
        repo.write(OWNER, path, body, provenance=Provenance(ACTOR))
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


def populate(
    path: Path | str, items: list[tuple[str, str]], *, statistics: str = "PRAGMA optimize"
) -> tuple[DocumentsRepository, float]:
    """A store at `path` (a file, or a database URL) holding `items`, written in batches,
    and the write rate; then `statistics` lets the planner see the tables."""
    repo = DocumentsRepository(path)
    t0 = time.perf_counter()
    for i in range(0, len(items), BATCH):
        with repo.transaction():
            for p, body in items[i : i + BATCH]:
                repo.write(OWNER, p, body, provenance=Provenance(ACTOR))
    rate = len(items) / (time.perf_counter() - t0)
    repo.conn.execute(statistics)
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


def whole_show(repos: list[DocumentsRepository], rounds: int) -> list[tuple[float, int]]:
    """For each repository: the best CPU seconds of `show ~` of its whole tree (tree +
    render) and its node count. The repositories are measured in turn, round after round,
    so that a busy machine weighs on each alike; CPU time, not wall time, for the same
    reason."""

    def show(repo: DocumentsRepository) -> float:
        t0 = time.process_time()
        "\n".join(render_tree(repo.tree(OWNER, "~"), home=True))
        return time.process_time() - t0

    best = [float("inf")] * len(repos)
    for _ in range(rounds):
        for i, repo in enumerate(repos):
            best[i] = min(best[i], show(repo))
    nodes = [sum(1 for r in repo.tree(OWNER, "~") for _ in r.walk()) for repo in repos]
    return list(zip(best, nodes, strict=True))


def search_large_bodies(tmp: Path, sizes: tuple[int, ...]) -> list[tuple[int, float]]:
    """Seconds of one search (with its snippet) over one document of each body size, whose
    every sixth word matches: the snippet must cost time in proportion to the body."""
    rnd = random.Random(3)
    words = ["alpha", "beta", "gamma", "delta", "apollo", "kafka"]
    out = []
    for size in sizes:
        repo = DocumentsRepository(fresh(tmp, f"large{size}"), max_body_bytes=size * 2)
        body = " ".join(rnd.choice(words) for _ in range(size // 6))
        repo.write(OWNER, "~/large", body, provenance=Provenance(ACTOR))
        repo.search(OWNER, "apollo")  # warm
        out.append(
            (
                size,
                statistics.median(timings(lambda _, r=repo: r.search(OWNER, "apollo"), [None], 3)),
            )
        )
        repo.close()
    return out


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


# -- history against git --------------------------------------------------------------------


def note_text(rnd: random.Random, i: int, lines: int) -> str:
    """A note of `lines` lines of ~65 characters (Zipf-like words): ~2 KB at 30 lines."""
    return f"# Note {i}\n\n" + "".join(note_line(rnd) for _ in range(lines))


def note_line(rnd: random.Random) -> str:
    words: list[str] = []
    while sum(len(w) + 1 for w in words) < 64:
        words.append(WORDS[min(int(rnd.paretovariate(1.1)) - 1, len(WORDS) - 1)])
    return " ".join(words) + "\n"


def one_line_edit(rnd: random.Random, body: str) -> str:
    """The body with one of its lines (not the heading) replaced by a new one."""
    lines = body.splitlines(keepends=True)
    k = rnd.randrange(2, len(lines))
    lines[k] = note_line(rnd)
    return "".join(lines)


def history_changes(n_notes: int, n_edits: int, seed: int = 11) -> list[tuple[str, str]]:
    """(path, new body) in order: every note written, then one-line edits of random notes."""
    rnd = random.Random(seed)
    paths = [f"~/notes/g{i // 100:02d}/n{i:05d}" for i in range(n_notes)]
    current = {p: note_text(rnd, i, 30) for i, p in enumerate(paths)}
    changes = list(current.items())
    for _ in range(n_edits):
        p = rnd.choice(paths)
        current[p] = one_line_edit(rnd, current[p])
        changes.append((p, current[p]))
    return changes


def big_doc_changes(n_edits: int, seed: int = 13) -> list[tuple[str, str]]:
    """One 10 KB document (150 lines) written, then edited `n_edits` times, one line each."""
    rnd = random.Random(seed)
    body = note_text(rnd, 0, 150)
    changes = [("~/big-doc", body)]
    for _ in range(n_edits):
        body = one_line_edit(rnd, body)
        changes.append(("~/big-doc", body))
    return changes


def db_bytes(repo: DocumentsRepository) -> int:
    """Bytes on disk of the database once its write-ahead log is checkpointed."""
    repo.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    path = str(repo.path)
    return sum(os.path.getsize(path + s) for s in ("", "-wal") if os.path.exists(path + s))


def print_table_bytes(repo: DocumentsRepository, label: str, n: int, top: int = 14) -> None:
    """Bytes of each table and index (SQLite's `dbstat`, as sqlite3_analyzer counts them),
    largest first, per version; the one-page objects (empty tables) summed."""
    rows = repo.conn.execute(
        "SELECT name, SUM(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC, 1"
    ).fetchall()
    print(f"bytes by table and index, {label} ({n:,} versions):")
    small = [r for r in rows if r[1] <= 4096]
    for name, size in [r for r in rows if r[1] > 4096][:top]:
        print(f"  {name:38s} {size:>11,}  {size / n:6.0f} B/version")
    print(f"  {len(small)} objects of one page{'':15s} {sum(r[1] for r in small):>11,}")


def git_repo(tmp: Path, name: str, changes: list[tuple[str, str]]) -> tuple[Path, list[str]]:
    """A git repository with one commit per change; returns it and each change's commit."""
    root = tmp / name
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)
    stream = bytearray()
    for k, (path, body) in enumerate(changes, start=1):
        data = body.encode()
        msg = f"change {k}".encode()
        stream += f"commit refs/heads/main\nmark :{k}\n".encode()
        stream += f"committer bench <bench@example.org> {1_700_000_000 + k} +0000\n".encode()
        stream += b"data %d\n%s\n" % (len(msg), msg)
        stream += f"M 100644 inline {path[2:]}.md\ndata {len(data)}\n".encode() + data + b"\n"
    marks = tmp / f"{name}.marks"
    subprocess.run(
        ["git", "-C", str(root), "fast-import", "--quiet", f"--export-marks={marks}"],
        input=bytes(stream),
        check=True,
    )
    subprocess.run(["git", "-C", str(root), "gc", "--quiet"], check=True)
    by_mark = dict(line.split() for line in marks.read_text().splitlines())
    return root, [by_mark[f":{k}"] for k in range(1, len(changes) + 1)]


def aggressive_bytes(root: Path) -> tuple[int, int]:
    """Bytes of the pack and of the whole .git after `git gc --aggressive` (run last: it
    changes the repository the other figures were measured on)."""
    subprocess.run(["git", "-C", str(root), "gc", "--quiet", "--aggressive"], check=True)
    return tree_bytes(root, ".git/objects/pack"), tree_bytes(root, ".git")


def vacuumed_bytes(repo: DocumentsRepository) -> int:
    """Bytes of the database after SQLite's VACUUM, the nearest to git's repack (doctree
    has no command of its own that only does that; `forget` ends with it). Run last."""
    repo.conn.execute("VACUUM")
    return db_bytes(repo)


def size_row(label: str, ours: int, plain: int, aggressive: int, n: int, vacuumed: int) -> Row:
    """Our bytes as written (and after VACUUM) against `git gc --aggressive`'s .git
    (target <= 1.0x), per version."""
    return Row(
        f"bytes vs git gc --aggressive: {label}",
        f"{ours / n:,.0f} B/version (after VACUUM {vacuumed / n:,.0f})",
        f".git {aggressive / n:,.0f} B/version (plain gc {plain / n:,.0f})",
        f"{ours / aggressive:.2f}x",
        "<= 1.0x",
        ours <= aggressive,
    )


def tree_bytes(root: Path, sub: str = "") -> int:
    return sum(f.stat().st_size for f in (root / sub).rglob("*") if f.is_file())


def git_time(root: Path, argv: list[str], repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run(["git", "-C", str(root), *argv], check=True, stdout=subprocess.DEVNULL)
        out.append(time.perf_counter() - t0)
    return out


def history_part(tmp: Path, rows: list[Row], figures: dict[str, float], quick: bool) -> None:
    n_notes, n_edits, n_big = (500, 1_250, 250) if quick else (2_000, 5_000, 1_000)
    samples = 20 if quick else 50
    changes = history_changes(n_notes, n_edits)
    big = big_doc_changes(n_big)
    print(
        f"history workloads: {n_notes:,} notes then {n_edits:,} one-line edits; "
        f"a {len(big[0][1]):,}-byte document edited {n_big:,} times"
    )

    # doctree: the same changes, 100 to a transaction
    repo = DocumentsRepository(fresh(tmp, "notes"))
    t0 = time.perf_counter()
    for i in range(0, len(changes), 100):
        with repo.transaction():
            for path, body in changes[i : i + 100]:
                repo.write(OWNER, path, body, provenance=Provenance(ACTOR))
    write_s = time.perf_counter() - t0
    notes_bytes = db_bytes(repo)
    print_table_bytes(repo, "notes", len(changes))
    root, commits = git_repo(tmp, "notes-git", changes)
    git_pack, git_all = tree_bytes(root, ".git/objects/pack"), tree_bytes(root, ".git")
    notes_git = git_all
    figures.update(
        notes_db_bytes=notes_bytes, notes_git_pack_bytes=git_pack, notes_git_bytes=git_all
    )
    figures.update(notes_write_s=write_s)
    rows.append(
        Row(
            f"bytes: {n_notes:,} notes + {n_edits:,} edits",
            f"{notes_bytes / 1e6:.2f} MB",
            f"git gc'd .git {git_all / 1e6:.2f} MB (pack {git_pack / 1e6:.2f})",
            f"{notes_bytes / git_all:.2f}x git",
            "<= 1.5x git",
            notes_bytes <= 1.5 * git_all,
        )
    )

    # reads of old versions, history, diff: random notes with more than one version
    rnd = random.Random(17)
    versions: dict[str, list[int]] = {}
    for k, (path, _) in enumerate(changes):
        versions.setdefault(path, []).append(k)
    edited = [p for p, ks in versions.items() if len(ks) > 1]
    picks = [rnd.choice(edited) for _ in range(samples)]

    def old_read(p: str) -> None:
        repo.read(OWNER, p, version=rnd.randint(1, len(versions[p])))

    store = timings(old_read, picks)
    git = []
    for p in picks[: samples // 2]:
        k = rnd.choice(versions[p])
        git += git_time(root, ["show", f"{commits[k]}:{p[2:]}.md"], 1)
    figures.update(old_read_p50_ms=pct(store, 50) * 1e3, git_show_p50_ms=pct(git, 50) * 1e3)
    rows.append(
        Row(
            "read of an old version p50",
            ms(pct(store, 50)),
            f"git show {ms(pct(git, 50))}",
            f"{pct(git, 50) / pct(store, 50):.0f}x faster",
            "< 1 ms",
            pct(store, 50) < 0.001,
        )
    )
    store = timings(lambda p: repo.history(OWNER, p), picks)
    git = []
    for p in picks[: samples // 2]:
        git += git_time(root, ["log", "--format=%H %an %ad %s", "--", f"{p[2:]}.md"], 1)
    speedup = pct(git, 50) / pct(store, 50)
    figures.update(history_p50_ms=pct(store, 50) * 1e3, git_log_p50_ms=pct(git, 50) * 1e3)
    rows.append(
        Row(
            "history of a note p50",
            ms(pct(store, 50)),
            f"git log -- path {ms(pct(git, 50))}",
            f"{speedup:.0f}x faster",
            ">= 10x faster than git",
            speedup >= 10,
        )
    )
    store = timings(lambda p: repo.diff(OWNER, p, 1, len(versions[p])), picks)
    git = []
    for p in picks[: samples // 2]:
        first, last = versions[p][0], versions[p][-1]
        git += git_time(root, ["diff", commits[first], commits[last], "--", f"{p[2:]}.md"], 1)
    speedup = pct(git, 50) / pct(store, 50)
    figures.update(diff_p50_ms=pct(store, 50) * 1e3, git_diff_p50_ms=pct(git, 50) * 1e3)
    rows.append(
        Row(
            "diff first..last of a note p50",
            ms(pct(store, 50)),
            f"git diff {ms(pct(git, 50))}",
            f"{speedup:.0f}x faster",
            ">= 10x faster than git",
            speedup >= 10,
        )
    )
    notes_vacuumed = vacuumed_bytes(repo)
    figures.update(notes_db_vacuumed_bytes=notes_vacuumed)
    repo.close()
    aggr_pack, aggr_all = aggressive_bytes(root)
    figures.update(notes_git_aggressive_bytes=aggr_all, notes_git_aggressive_pack=aggr_pack)
    rows.append(
        size_row(f"{n_notes:,} notes + {n_edits:,} edits", notes_bytes, notes_git, aggr_all,
                 len(changes), notes_vacuumed)
    )  # fmt: skip

    # one 10 KB document edited many times
    repo = DocumentsRepository(fresh(tmp, "bigdoc"))
    with repo.transaction():
        for path, body in big:
            repo.write(OWNER, path, body, provenance=Provenance(ACTOR))
    big_bytes = db_bytes(repo)
    print_table_bytes(repo, "one 10 KB document", len(big))
    root, commits = git_repo(tmp, "bigdoc-git", big)
    git_pack, git_all = tree_bytes(root, ".git/objects/pack"), tree_bytes(root, ".git")
    n = len(big)
    figures.update(bigdoc_db_bytes=big_bytes, bigdoc_git_pack_bytes=git_pack)
    figures.update(bigdoc_git_bytes=git_all)
    rows.append(
        Row(
            f"bytes per version: 10 KB doc x {n_big:,}",
            f"{big_bytes / n:,.0f} B",
            f"git pack {git_pack / n:,.0f} B, .git {git_all / n:,.0f} B",
            f"{big_bytes / git_all:.2f}x git's .git",
            "<= 2x git's .git",
            big_bytes <= 2 * git_all,
        )
    )
    store = timings(lambda v: repo.read(OWNER, "~/big-doc", version=v), rnd.sample(range(1, n), 50))
    figures.update(bigdoc_old_read_p50_ms=pct(store, 50) * 1e3)
    rows.append(
        Row(
            f"read of an old version p50 ({n:,} versions)",
            ms(pct(store, 50)),
            "-",
            "-",
            "< 1 ms",
            pct(store, 50) < 0.001,
        )
    )
    # every version with its body (ours) against every commit with its patch (git's)
    repo.history(OWNER, "~/big-doc")  # warm both alike
    git_time(root, ["log", "-p", "--", "big-doc.md"], 1)
    store = timings(lambda _: repo.history(OWNER, "~/big-doc"), [None], 7)
    git = git_time(root, ["log", "-p", "--", "big-doc.md"], 7)
    speedup = statistics.median(git) / statistics.median(store)
    figures.update(bigdoc_history_ms=statistics.median(store) * 1e3)
    figures.update(bigdoc_git_log_p_ms=statistics.median(git) * 1e3)
    rows.append(
        Row(
            f"history of {n:,} versions (bodies decoded)",
            ms(statistics.median(store)),
            f"git log -p -- path {ms(statistics.median(git))}",
            f"{speedup:.1f}x faster",
            ">= 2x faster than git",
            speedup >= 2,
        )
    )
    big_vacuumed = vacuumed_bytes(repo)
    figures.update(bigdoc_db_vacuumed_bytes=big_vacuumed)
    repo.close()
    aggr_pack, aggr_all = aggressive_bytes(root)
    figures.update(bigdoc_git_aggressive_bytes=aggr_all, bigdoc_git_aggressive_pack=aggr_pack)
    rows.append(
        size_row(f"10 KB doc x {n_big:,} edits", big_bytes, git_all, aggr_all, n, big_vacuumed)
    )
    compression_rows(changes, big, rows, figures)
    delta_rows(changes, big, rows, figures)


def compression_rows(
    changes: list[tuple[str, str]],
    big: list[tuple[str, str]],
    rows: list[Row],
    figures: dict[str, float],
) -> None:
    """zlib (what the store uses) against zstd on the full copies the store would keep."""
    firsts: dict[str, str] = {}
    for path, body in changes:
        firsts.setdefault(path, body)
    bodies = [*firsts.values(), big[0][1]]
    plain = sum(len(b.encode()) for b in bodies)
    raw = [b.encode() for b in bodies]
    t0 = time.perf_counter()
    z = [encoding.encode_full(b) for b in bodies]
    z_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    for v in z:
        encoding.decode(v, None)
    zd_s = time.perf_counter() - t0
    figures.update(zlib_ratio=sum(map(len, z)) / plain)
    line = f"{sum(map(len, z)) / plain:.0%} of plain, {z_s * 1e6 / len(z):.0f} us in"
    line += f" / {zd_s * 1e6 / len(z):.0f} us out"
    try:
        import zstandard  # type: ignore[import-not-found]
    except ImportError:
        zline, zstd_ratio = "not installed (pip install zstandard to compare)", None
    else:
        cctx, dctx = zstandard.ZstdCompressor(level=3), zstandard.ZstdDecompressor()
        t0 = time.perf_counter()
        zs = [cctx.compress(b) for b in raw]
        zs_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        for v in zs:
            dctx.decompress(v)
        zsd_s = time.perf_counter() - t0
        zstd_ratio = sum(map(len, zs)) / plain
        zline = f"{zstd_ratio:.0%} of plain, {zs_s * 1e6 / len(zs):.0f} us in"
        zline += f" / {zsd_s * 1e6 / len(zs):.0f} us out"
        figures.update(zstd_ratio=zstd_ratio)
    rows.append(
        Row(
            f"full copies ({len(bodies):,} bodies)", f"zlib {line}", f"zstd {zline}", "-", "-", None
        )
    )


def delta_rows(
    changes: list[tuple[str, str]],
    big: list[tuple[str, str]],
    rows: list[Row],
    figures: dict[str, float],
) -> None:
    """Bytes per version of every body of both workloads as the store keeps them: the
    newest text whole (`encode_full`) and each older one against the text after it, a full
    copy closing each block of `CHAIN` versions: the store's delta (copy/insert ops, then
    DEFLATE with the end of the next text as preset dictionary, `encode_older`) against
    DEFLATE of the whole text with the next text as preset dictionary, and zstd with it as
    a raw-content dictionary (when importable)."""
    import zlib

    chains: dict[str, list[str]] = {}
    for path, body in [*changes, *big]:
        chains.setdefault(path, []).append(body)

    def measure(delta: Callable[[str, str], bytes]) -> tuple[float, float]:
        total = count = 0
        t0 = time.perf_counter()
        for texts in chains.values():
            for v, text in enumerate(texts, start=1):
                newer = None if v == len(texts) or v % encoding.CHAIN == 0 else texts[v]
                total += len(encoding.encode_full(text) if newer is None else delta(text, newer))
                count += 1
        return total / count, (time.perf_counter() - t0) * 1e6 / count

    def ours(text: str, newer: str) -> bytes:
        return encoding.encode_older(text, newer, 2)

    def preset(text: str, newer: str) -> bytes:
        c = zlib.compressobj(encoding.LEVEL, zlib.DEFLATED, -15, zdict=newer.encode()[-32768:])
        return c.compress(text.encode()) + c.flush()

    per, us = measure(ours)
    line = f"{per:,.1f} B/version ({us:.0f} us each)"
    figures.update(delta_bytes_per_version=per)
    per, us = measure(preset)
    other = f"zlib preset dict {per:,.1f} B ({us:.0f} us)"
    figures.update(delta_zdict_bytes_per_version=per)
    try:
        import zstandard  # type: ignore[import-not-found]
    except ImportError:
        other += "; zstd not installed"
    else:

        def zstd(text: str, newer: str) -> bytes:
            d = zstandard.ZstdCompressionDict(
                newer.encode(), dict_type=zstandard.DICT_TYPE_RAWCONTENT
            )
            return zstandard.ZstdCompressor(level=19, dict_data=d, write_dict_id=False).compress(
                text.encode()
            )

        per, us = measure(zstd)
        other += f"; zstd-19 dict {per:,.1f} B ({us:.0f} us)"
        figures.update(delta_zstd_bytes_per_version=per)
    rows.append(Row("bodies, both workloads (store's encoding)", line, other, "-", "-", None))


def doctree_command() -> list[str]:
    """How to run the CLI: the project's .venv script, the console script on PATH, or
    `python -m doctree` with this interpreter."""
    exe = ROOT / ".venv" / "bin" / "doctree"
    if exe.exists():
        return [str(exe)]
    found = shutil.which("doctree")
    return [found] if found else [sys.executable, "-m", "doctree"]


def help_time(repeat: int) -> tuple[float, float]:
    """Median wall times of `doctree --help` and of `python -c pass`, with bytecode cached
    as an installed doctree has it (as bench/startup.py runs them: without
    PYTHONDONTWRITEBYTECODE, `.pyc` files in a temporary PYTHONPYCACHEPREFIX written by the
    warm-up runs)."""
    cmd = doctree_command()
    with tempfile.TemporaryDirectory(prefix="doctree-pycache-") as pycache:
        env = {**startup.child_env(Path(pycache)), "DOCTREE_DB": os.devnull}

        def run(argv: list[str]) -> float:
            t0 = time.perf_counter()
            subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, env=env)
            return time.perf_counter() - t0

        run(cmd + ["--help"])
        run([sys.executable, "-c", "pass"])
        store = statistics.median(run(cmd + ["--help"]) for _ in range(repeat))
        bare = statistics.median(run([sys.executable, "-c", "pass"]) for _ in range(repeat))
    return store, bare


# -- report ---------------------------------------------------------------------------------


def ms(x: float) -> str:
    return f"{x * 1000:.3f} ms" if x < 0.01 else f"{x * 1000:.1f} ms"


def print_table(rows: list[Row]) -> None:
    head = Row("measure", "doctree", "baseline (raw sqlite3, git)", "ratio", "target", None)
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


def write_report(path: Path | None, rows: list[Row], figures: dict[str, float]) -> None:
    out = [benchreport.row(r.measure, r.doctree, r.raw, r.ratio, r.target, r.ok) for r in rows]
    benchreport.write(path, "store", out, figures)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    pick = argparse.ArgumentParser(add_help=False)
    pick.add_argument("--backend", choices=("sqlite", "postgres"), default="sqlite")
    known, rest = pick.parse_known_args(argv)
    if known.backend == "postgres":  # the same figures against raw psycopg
        sys.path.insert(0, str(ROOT / "bench"))
        import store_postgres

        return store_postgres.main(rest)
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "--backend",
        choices=("sqlite", "postgres"),
        default="sqlite",
        help="postgres: the same figures on PostgreSQL (bench/store_postgres.py; --url URL)",
    )
    ap.add_argument("--quick", action="store_true", help="a small run: 5k documents")
    ap.add_argument("--docs", type=int, help="documents for the read/search measures")
    ap.add_argument("--json", action="store_true", help="also print the figures as JSON")
    ap.add_argument("--history", action="store_true", help="only the history part, against git")
    ap.add_argument("--no-history", action="store_true", help="leave out the history part")
    ap.add_argument(
        "--full-history",
        action="store_true",
        help="the history part at full size even with --quick (2,000 notes + 5,000 edits, "
        "a 10 KB document edited 1,000 times: the sizes the bytes targets are set at; "
        "~30 s more)",
    )
    benchreport.add_json_out(ap)
    args = ap.parse_args(argv)
    if args.history:
        rows: list[Row] = []
        figures: dict[str, float] = {}
        with tempfile.TemporaryDirectory(prefix="doctree-bench-") as d:
            history_part(Path(d), rows, figures, args.quick and not args.full_history)
        print()
        print_table(rows)
        write_report(args.json_out, rows, figures)
        if args.json:
            print(json.dumps(figures, indent=2))
        return 1 if any(r.ok is False for r in rows) else 0
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
                "< 0.05 ms",
                p50 < 0.00005,
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

        # `show ~` of the whole tree against the same measure on a tenth of it, made in
        # this run: per node, the large tree should cost what the small one does (linear).
        small_repo, _ = populate(fresh(tmp, "small"), items[: max(len(items) // 10, 1)])
        (big_s, big_nodes), (small_s, small_nodes) = whole_show([repo, small_repo], 5)
        small_repo.close()
        growth = (big_s / big_nodes) / (small_s / small_nodes)
        figures.update(show_all_s=big_s, show_all_nodes=big_nodes, show_tenth_s=small_s)
        figures.update(show_all_per_node_growth=growth)
        rows.append(
            Row(
                f"show ~ of {big_nodes:,} nodes (CPU time)",
                ms(big_s),
                f"{ms(small_s)} ({small_nodes:,} nodes)",
                f"{growth:.2f}x per node",
                "<= 1.5x per node",
                growth <= 1.5,
            )
        )
        print(f"show ~: {big_nodes:,} nodes {ms(big_s)}; {small_nodes:,} nodes {ms(small_s)}")

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
        if not args.no_history:
            history_part(tmp, rows, figures, args.quick and not args.full_history)

        sizes = (50_000, 200_000, 800_000) if args.quick else (100_000, 400_000, 1_600_000)
        large = search_large_bodies(tmp, sizes)
        (s0, t0), (s1, t1) = large[0], large[-1]
        growth = (t1 / s1) / (t0 / s0)
        figures.update({f"search_body_{s}_s": t for s, t in large})
        figures.update(search_body_growth=growth)
        for size, t in large:
            print(f"search over one {size:,}-byte body: {ms(t)}")
        rows.append(
            Row(
                f"search over a {s1 // 1000:,} KB body",
                ms(t1),
                f"{ms(t0)} ({s0 // 1000:,} KB)",
                f"{growth:.2f}x per byte",
                "<= 2x per byte (linear)",
                growth <= 2.0,
            )
        )

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
    write_report(args.json_out, rows, figures)
    if args.json:
        print(json.dumps(figures, indent=2))
    missed = [r.measure for r in rows if r.ok is False]
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
