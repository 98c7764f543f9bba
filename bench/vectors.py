"""Vectors at scale: indexing speed, query latency and database size at 100k documents.

    .venv/bin/python bench/vectors.py                  # 100k documents
    .venv/bin/python bench/vectors.py --docs 10000     # a quicker size
    .venv/bin/python bench/vectors.py --quick          # 5,000 documents

A SQLite database of N documents (2-4 paragraphs each, sentences drawn from LoCoMo's turns
when the data is beside the checkout, else from a synthetic vocabulary) is written in
batches of 1,000, each followed by the passage index's catch-up, as the hand-over does:
first with no vectors (today's lexical index, the baseline), its size taken; then every
passage is embedded by the default embedder and stored (`VectorIndex.catch_up`), timed per
1,000 passages, and the size taken again. Then, per query (60 sentences of the same pool,
and 60 short questions made of two of their content words): the vector scan alone (cold,
on a new connection, then warm), and `retrieve` at 2,000 words in lexical mode (the
baseline) and in hybrid mode, p50 and p99. Targets: vector search p50 < 20 ms, p99 < 100 ms
at 100k; indexing >= 2,000 passages/s; size <= 1.3x the lexical database.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import benchreport  # noqa: E402

from doctree.llm.embedders import default_embedder  # noqa: E402
from doctree.memory.meaning import query_vector  # noqa: E402
from doctree.memory.passages import sync_passages  # noqa: E402
from doctree.memory.ranking import DEFAULT_SETTINGS  # noqa: E402
from doctree.memory.retrieval import retrieve  # noqa: E402
from doctree.stopwords import ENGLISH  # noqa: E402
from doctree.store.documents import Actor, DocumentsRepository, Provenance  # noqa: E402
from doctree.store.vectors import VectorIndex  # noqa: E402

OWNER = "bench"
WRITER = Provenance(Actor("memory-agent", OWNER))
BATCH = 1000


def sentences(rnd: random.Random) -> list[str]:
    """Sentences to write documents of: LoCoMo's turns if present, else synthetic ones."""
    from locomo import data_dir

    f = data_dir() / "locomo10.json"
    if f.exists():
        out = []
        for conv in json.loads(f.read_text(encoding="utf-8")):
            for key, turns in conv["conversation"].items():
                if key.startswith("session_") and isinstance(turns, list):
                    out += [t["text"] for t in turns if t.get("text")]
        return out
    letters = "abcdefghijklmnopqrstuvwxyz"
    words = ["".join(rnd.choice(letters) for _ in range(rnd.randint(3, 8))) for _ in range(4000)]
    return [" ".join(rnd.choice(words) for _ in range(rnd.randint(8, 25))) for _ in range(6000)]


def body(rnd: random.Random, pool: list[str], i: int) -> str:
    paras = [rnd.choice(pool) for _ in range(rnd.randint(2, 4))]
    return f"# Note {i}\n\n" + "\n\n".join(paras) + "\n"


def short_question(rnd: random.Random, sentence: str) -> str:
    """A question of two content words of `sentence`: what a person asks."""
    words = [w.strip(".,!?'\"").lower() for w in sentence.split()]
    content = [w for w in words if len(w) > 3 and w.isalpha() and w not in ENGLISH]
    picked = rnd.sample(content, min(2, len(content))) if content else words[:2]
    return f"what about {' '.join(picked)}?"


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p * (len(xs) - 1)))]


def size_mb(repo: DocumentsRepository, db: Path) -> float:
    repo.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return db.stat().st_size / 1e6


def timed(fn: Callable[[Any], object], items: Sequence[Any]) -> list[float]:
    out = []
    for x in items:
        t0 = time.perf_counter()
        fn(x)
        out.append((time.perf_counter() - t0) * 1000)
    return out


def run(n_docs: int, tmp: Path) -> dict[str, float]:
    rnd = random.Random(n_docs)
    pool = sentences(rnd)
    db = tmp / f"vectors-{n_docs}.db"
    repo = DocumentsRepository(db)
    t0 = time.perf_counter()
    for start in range(0, n_docs, BATCH):
        with repo.transaction():
            for i in range(start, min(n_docs, start + BATCH)):
                path = f"~/memory/t{i % 97:02d}/n{i}"
                repo.write(OWNER, path, body(rnd, pool, i), provenance=WRITER)
        sync_passages(repo, OWNER)  # no vectors yet: none was ever asked for
    populate_s = time.perf_counter() - t0
    lexical_mb = size_mb(repo, db)
    passages = repo.conn.execute("SELECT COUNT(*) FROM passages").fetchone()[0]

    embedder = default_embedder()
    assert embedder is not None, "DOCTREE_EMBEDDER=none: nothing to measure"
    vectors = VectorIndex(repo.conn, "passages")
    texts = [r[0] for r in repo.conn.execute("SELECT text FROM passages LIMIT 20000")]
    t0 = time.perf_counter()
    embedder.embed(texts)
    embed_per_s = len(texts) / (time.perf_counter() - t0)
    t0 = time.perf_counter()
    with repo.transaction():
        vectors.catch_up(OWNER, embedder)
    index_s = time.perf_counter() - t0
    hybrid_mb = size_mb(repo, db)
    repo.close()

    long_queries = [rnd.choice(pool) for _ in range(60)]
    queries = long_queries + [short_question(rnd, s) for s in long_queries]
    repo = DocumentsRepository(db)
    vectors = VectorIndex(repo.conn, "passages")
    t0 = time.perf_counter()
    vectors.search(OWNER, embedder.embed([queries[0]])[0], 300)
    cold_ms = (time.perf_counter() - t0) * 1000
    scan = timed(lambda q: vectors.search(OWNER, query_vector(q, vectors), 300), queries)
    lexical = dataclasses.replace(DEFAULT_SETTINGS, mode="lexical")
    hybrid = dataclasses.replace(DEFAULT_SETTINGS, mode="hybrid")
    lex = timed(lambda q: retrieve(repo, OWNER, q, budget_words=2000, settings=lexical), queries)
    hyb = timed(lambda q: retrieve(repo, OWNER, q, budget_words=2000, settings=hybrid), queries)
    repo.close()
    return {
        "passages": passages,
        "populate_s": populate_s,
        "embed_per_s": embed_per_s,
        "index_per_s": passages / index_s,
        "index_ms_per_1000": index_s / passages * 1000 * 1000,
        "lexical_mb": lexical_mb,
        "hybrid_mb": hybrid_mb,
        "cold_ms": cold_ms,
        "scan_p50": statistics.median(scan),
        "scan_p99": pct(scan, 0.99),
        "lex_p50": statistics.median(lex),
        "lex_p99": pct(lex, 0.99),
        "hyb_p50": statistics.median(hyb),
        "hyb_p99": pct(hyb, 0.99),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--docs", default="100000", help="comma-separated sizes")
    ap.add_argument("--quick", action="store_true", help="5,000 documents")
    benchreport.add_json_out(ap)
    args = ap.parse_args(argv)
    if args.quick:
        args.docs = "5000"
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    os.environ.setdefault("DOCTREE_EMBEDDER", "wordllama")
    report: list[dict] = []
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="doctree-vectors-") as tmp:
        for n in (int(x) for x in args.docs.split(",")):
            r = run(n, Path(tmp))
            e = default_embedder()
            ratio = r["hybrid_mb"] / r["lexical_mb"]
            print(
                f"\n{n} documents, {r['passages']} passages (written and cut in "
                f"{r['populate_s']:.0f} s); embedder {e.name if e else 'none'}"
            )
            print(
                f"  indexing vectors      {r['index_per_s']:8.0f} passages/s "
                f"({r['index_ms_per_1000']:.0f} ms per 1,000; embedding alone "
                f"{r['embed_per_s']:.0f}/s)   target >= 2,000/s"
            )
            print(
                f"  database size         {r['hybrid_mb']:8.1f} MB, lexical alone "
                f"{r['lexical_mb']:.1f} MB: {ratio:.2f}x   target <= 1.3x"
            )
            print(f"  vector scan, cold     {r['cold_ms']:8.1f} ms (a new connection loads them)")
            print(
                f"  vector scan, warm     p50 {r['scan_p50']:6.1f} ms  p99 {r['scan_p99']:6.1f} ms"
                "   target p50 < 20 ms, p99 < 100 ms"
            )
            print(f"  retrieve hybrid       p50 {r['hyb_p50']:6.1f} ms  p99 {r['hyb_p99']:6.1f} ms")
            print(
                f"  retrieve lexical      p50 {r['lex_p50']:6.1f} ms  p99 {r['lex_p99']:6.1f} ms"
                "   (baseline, same database)"
            )
            figures.update({f"{n}_{k}": float(v) for k, v in r.items()})
            report += [
                benchreport.row(
                    f"vector indexing, {n} documents",
                    f"{r['index_per_s']:.0f} passages/s",
                    target=">= 2,000/s",
                    ok=r["index_per_s"] >= 2000,
                ),
                benchreport.row(
                    f"database size with vectors, {n} documents",
                    f"{r['hybrid_mb']:.1f} MB",
                    f"{r['lexical_mb']:.1f} MB (lexical)",
                    f"{ratio:.2f}x",
                    "<= 1.3x",
                    ratio <= 1.3,
                ),
                benchreport.row(
                    f"vector search p50 / p99, {n} documents",
                    f"{r['scan_p50']:.1f} / {r['scan_p99']:.1f} ms",
                    target="< 20 / < 100 ms",
                    ok=r["scan_p50"] < 20 and r["scan_p99"] < 100,
                ),
                benchreport.row(
                    f"retrieve hybrid p50, {n} documents",
                    f"{r['hyb_p50']:.1f} ms",
                    f"{r['lex_p50']:.1f} ms (lexical)",
                    f"{r['hyb_p50'] / r['lex_p50']:.2f}x",
                ),
                benchreport.row(
                    f"first vector search on a new connection, {n} documents",
                    f"{r['cold_ms']:.0f} ms",
                ),
            ]
    benchreport.write(args.json_out, "vectors", report, figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
