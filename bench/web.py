"""Benchmark of blame and of the web inspector's pages, each next to a baseline measured in
the same run.

    .venv/bin/python bench/web.py            # blame of 1,000 versions, the demo, 10k documents
    .venv/bin/python bench/web.py --quick    # smaller: 200 versions, 2,000 documents

- blame of a page with 1,000 versions (target < 100 ms), against a naive re-diff of every
  pair of versions with difflib over the whole body (the textbook way);
- every page of the demo's memory through the inspector's full HTTP stack (target < 100 ms
  each), against the floor of that stack (a 404 page);
- the tree page of 10k documents (target < 1 s), against the CLI's text rendering of the
  same tree (`doctree show`).
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from difflib import SequenceMatcher
from pathlib import Path

from doctree.store.documents import Provenance

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import benchreport  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from doctree.interop.render import render_tree  # noqa: E402
from doctree.store.blame import blame  # noqa: E402
from doctree.store.documents import Actor, DocumentsRepository  # noqa: E402, Provenance
from doctree.store.runs import Runs  # noqa: E402
from doctree.web.app import create_app  # noqa: E402
from doctree.web.html import doc_url  # noqa: E402

OWNER = "main"
BASE = "http://127.0.0.1:8765"


def best(fn, repeat: int = 5) -> float:
    """The median of `repeat` timings of fn(), in milliseconds."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


ROWS: list[dict] = []  # what the run measured, for --json-out
FIGURES: dict[str, float] = {}


def row(measure: str, ours: float, base: float, target: str, ok: bool, baseline: str = "") -> None:
    ratio = ours / base if base else float("nan")
    FIGURES[f"{measure} ms"], FIGURES[f"{measure} baseline ms"] = ours, base
    ROWS.append(
        benchreport.row(
            measure,
            f"{ours:.1f} ms",
            f"{base:.1f} ms {baseline}".strip(),
            f"{ratio:.2f}x",
            target,
            ok,
        )
    )
    print(
        f"{measure:<44} {ours:>9.1f} ms  baseline {base:>9.1f} ms  ratio {ratio:>6.2f}  "
        f"target {target:<9} {'ok' if ok else 'MISSED'}"
    )


# -- blame --------------------------------------------------------------------------------


def build_history(repo: DocumentsRepository, versions: int) -> str:
    """One page edited `versions` times: lines changed, inserted, deleted, appended, moved;
    with a move of the page and a few restores on the way."""
    rnd = random.Random(11)
    path = "~/memory/projects/long"
    lines = [f"- fact {i}: {'lorem ipsum dolor sit amet ' * 2}{i}" for i in range(60)]
    repo.write(OWNER, path, "# Long\n\n" + "\n".join(lines) + "\n")
    actors = [Actor("memory-agent", OWNER), Actor("user", "ann"), Actor("agent", OWNER)]
    n = 1
    with repo.transaction():
        while n < versions:
            op = rnd.random()
            if n == versions // 2:
                new = path.replace("projects", "archive")
                n = repo.move(OWNER, path, new)[0].version
                path = new
            elif op < 0.03 and n > 10:
                n = repo.restore(OWNER, path, rnd.randint(max(1, n - 20), n - 1)).version
            else:
                k = rnd.randrange(len(lines) + 1)
                if op < 0.35 and lines:
                    lines[min(k, len(lines) - 1)] = f"- changed at {n}: {rnd.random():.6f}"
                elif op < 0.55 and len(lines) > 40:
                    del lines[min(k, len(lines) - 1)]
                elif op < 0.65 and len(lines) > 5:
                    a = rnd.randrange(len(lines) - 3)
                    block = lines[a : a + 3]
                    del lines[a : a + 3]
                    lines[rnd.randrange(len(lines)) : 0] = block
                else:
                    lines.insert(k, f"- new at {n}: {rnd.random():.6f}")
                n = repo.write(
                    OWNER,
                    path,
                    "# Long\n\n" + "\n".join(lines) + "\n",
                    provenance=Provenance(actor=rnd.choice(actors), run=n // 10 + 1),
                ).version
    return path


def naive_blame(repo: DocumentsRepository, path: str) -> list[int]:
    """The baseline: difflib over whole bodies, for every pair of consecutive versions."""
    attr: list[int] = []
    prev: list[str] = []
    for v in repo.history(OWNER, path):
        if v.body is None:
            continue
        cur = v.body.splitlines()
        new = [v.version] * len(cur)
        for a, b, size in SequenceMatcher(None, prev, cur, autojunk=False).get_matching_blocks():
            new[b : b + size] = attr[a : a + size]
        prev, attr = cur, new
    return attr


def bench_blame(versions: int) -> None:
    with tempfile.TemporaryDirectory() as d:
        repo = DocumentsRepository(Path(d) / "blame.db")
        path = build_history(repo, versions)
        count = len(repo.history(OWNER, path))
        lines = len(blame(repo, OWNER, path).lines)
        ours = best(lambda: blame(repo, OWNER, path))
        base = best(lambda: naive_blame(repo, path), repeat=3)
        read = best(lambda: repo.history(OWNER, path))
        print(
            f"blame: a page of {count} versions, {lines} lines now; reading its history {read:.1f} ms"
        )
        row(f"blame, {count} versions", ours, base, "< 100 ms", ours < 100, "(difflib re-diff)")
        repo.close()


# -- pages of the demo --------------------------------------------------------------------


def demo_pages(db: Path) -> list[str]:
    with DocumentsRepository(db) as repo:
        docs = repo.documents(OWNER)
        runs = Runs(repo.conn).list(owner=OWNER, limit=None)
        sessions = {r.session_id for r in runs if r.session_id}
        pages = ["/tree", "/runs", "/sessions", "/search?q=apollo launch"]
        pages += ["/search?q=launch&at=2030-01-01", "/search?q=December&all=1"]
        for doc in docs:
            for kind in ("doc", "history", "blame"):
                pages.append(doc_url(kind, doc.path))
            if doc.version > 1:
                pages.append(doc_url("diff", doc.path, **{"from": 1, "to": doc.version}))
        pages += [f"/runs/{r.id}" for r in runs]
        pages += [f"/sessions/{s}" for s in sorted(sessions)]
    return pages


def bench_demo() -> None:
    with tempfile.TemporaryDirectory() as d:
        db = Path(d) / "demo.db"
        transcripts = sorted((ROOT / "tests" / "fixtures" / "transcripts").glob("*.md"))
        subprocess.run(
            [sys.executable, "-m", "doctree", "--db", str(db), "replay", "--backend", "offline"]
            + [str(t) for t in transcripts],
            check=True,
            capture_output=True,
        )
        pages = demo_pages(db)
        with TestClient(create_app(str(db), OWNER), base_url=BASE) as c:
            for p in pages:  # warm up
                assert c.get(p).status_code == 200, p
            floor = best(lambda: c.get("/no-such-page"), repeat=21)
            timings = sorted(
                ((best(lambda p=p: c.get(p), repeat=3), p) for p in pages), reverse=True
            )
        worst, where = timings[0]
        median = statistics.median(t for t, _ in timings)
        print(f"demo: {len(pages)} pages; median {median:.1f} ms; slowest {where}")
        row("slowest page of the demo", worst, floor, "< 100 ms", worst < 100, "(a 404 page)")


# -- the tree of 10k documents ------------------------------------------------------------


def bench_tree(n: int) -> None:
    with tempfile.TemporaryDirectory() as d:
        db = Path(d) / "tree.db"
        repo = DocumentsRepository(db)
        with repo.transaction():
            for i in range(n):
                n = repo.write(
                    OWNER,
                    f"~/memory/topic-{i // 100:03d}/page-{i % 100:03d}",
                    f"# Page {i}\n\nSome text about item {i}.\n",
                )
        total = len(repo.documents(OWNER))

        def text() -> None:
            render_tree(repo.tree(OWNER, "~"), home=True)

        base = best(text, repeat=3)
        with TestClient(create_app(str(db), OWNER), base_url=BASE) as c:
            assert c.get("/tree").status_code == 200
            ours = best(lambda: c.get("/tree"), repeat=3)
            size = len(c.get("/tree").content)
        repo.close()
        print(f"tree: {total} documents, page of {size / 1e6:.1f} MB")
        row(f"tree page, {total} documents", ours, base, "< 1000 ms", ours < 1000, "(doctree show)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="Smaller sizes (seconds).")
    benchreport.add_json_out(ap)
    args = ap.parse_args()
    bench_blame(200 if args.quick else 1000)
    bench_demo()
    bench_tree(2000 if args.quick else 10_000)
    benchreport.write(args.json_out, "web", ROWS, FIGURES)


if __name__ == "__main__":
    main()
