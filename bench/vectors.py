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
at 100k; indexing >= 2,000 passages/s; size <= 1.3x the lexical database. Each latency is
given in wall time, in CPU time and as time spent waiting for a CPU (runnable, not running:
/proc's schedstat), so that a loaded machine's queue is told apart from the work itself.
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
from doctree.store import encoding  # noqa: E402
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


def waited_ms() -> float:
    """How long this thread has waited for a CPU, runnable but not running (ms; Linux's
    /proc schedstat, 0 where there is none): on a shared machine, the gap between wall
    time and CPU time."""
    try:
        return int(Path("/proc/thread-self/schedstat").read_text().split()[1]) / 1e6
    except (OSError, IndexError, ValueError):
        return 0.0


@dataclasses.dataclass
class Timings:
    """Per call, in ms: wall time, CPU time (the process's, all threads), and time spent
    waiting for a CPU."""

    wall: list[float] = dataclasses.field(default_factory=list)
    cpu: list[float] = dataclasses.field(default_factory=list)
    waited: list[float] = dataclasses.field(default_factory=list)

    def summary(self) -> str:
        return (
            f"p50 {statistics.median(self.wall):6.1f} ms  p99 {pct(self.wall, 0.99):6.1f} ms"
            f"  (CPU p50 {statistics.median(self.cpu):.1f} p99 {pct(self.cpu, 0.99):.1f};"
            f" waiting for a CPU p50 {statistics.median(self.waited):.1f}"
            f" p99 {pct(self.waited, 0.99):.1f})"
        )


def timed(fn: Callable[[Any], object], items: Sequence[Any]) -> Timings:
    out = Timings()
    for x in items:
        w0, c0, q0 = time.perf_counter(), time.process_time(), waited_ms()
        fn(x)
        out.wall.append((time.perf_counter() - w0) * 1000)
        out.cpu.append((time.process_time() - c0) * 1000)
        out.waited.append(waited_ms() - q0)
    return out


def whole_text_rate(embedder: Any, texts: Sequence[str]) -> float:
    """Texts a second embedded the way wordllama's own inference does it (each text
    tokenized whole, its tokens' rows averaged): the reference for the default embedder's
    word-by-word tokenizing; 0 for another embedder."""
    import numpy as np

    tokenizer, columns = getattr(embedder, "_tokenizer", None), getattr(embedder, "_columns", None)
    if tokenizer is None or columns is None:
        return 0.0
    t0 = time.perf_counter()
    for start in range(0, len(texts), 4096):
        part = list(texts[start : start + 4096])
        for e in tokenizer.encode_batch(part, add_special_tokens=False):
            if e.ids:
                np.take(columns, e.ids, axis=1).sum(axis=1)
    return len(texts) / (time.perf_counter() - t0)


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
    texts = [  # a passage's text may be stored packed (store/encoding.py)
        encoding.text_of(r[0]) for r in repo.conn.execute("SELECT text FROM passages LIMIT 20000")
    ]
    whole_per_s = whole_text_rate(embedder, texts)
    t0 = time.perf_counter()
    embedder.embed(texts)
    embed_per_s = len(texts) / (time.perf_counter() - t0)
    t0, c0 = time.perf_counter(), time.process_time()
    with repo.transaction():
        vectors.catch_up(OWNER, embedder)
    index_s, index_cpu_s = time.perf_counter() - t0, time.process_time() - c0
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
        "whole_text_per_s": whole_per_s,
        "index_per_s": passages / index_s,
        "index_cpu_per_s": passages / index_cpu_s,
        "index_ms_per_1000": index_s / passages * 1000 * 1000,
        "lexical_mb": lexical_mb,
        "hybrid_mb": hybrid_mb,
        "cold_ms": cold_ms,
        "scan_p50": statistics.median(scan.wall),
        "scan_p99": pct(scan.wall, 0.99),
        "scan_cpu_p50": statistics.median(scan.cpu),
        "scan_cpu_p99": pct(scan.cpu, 0.99),
        "scan_waited_p50": statistics.median(scan.waited),
        "lex_p50": statistics.median(lex.wall),
        "lex_p99": pct(lex.wall, 0.99),
        "hyb_p50": statistics.median(hyb.wall),
        "hyb_p99": pct(hyb.wall, 0.99),
        "hyb_cpu_p50": statistics.median(hyb.cpu),
        "hyb_cpu_p99": pct(hyb.cpu, 0.99),
        "summaries": {"scan": scan.summary(), "lex": lex.summary(), "hyb": hyb.summary()},  # type: ignore[dict-item]
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
                f"({r['index_ms_per_1000']:.0f} ms per 1,000; in CPU time "
                f"{r['index_cpu_per_s']:.0f}/s)   target >= 2,000/s"
            )
            print(
                f"  embedding alone       {r['embed_per_s']:8.0f} passages/s "
                f"(each text tokenized whole, as wordllama does: {r['whole_text_per_s']:.0f}/s)"
            )
            print(
                f"  database size         {r['hybrid_mb']:8.1f} MB, lexical alone "
                f"{r['lexical_mb']:.1f} MB: {ratio:.2f}x   target <= 1.3x"
            )
            print(f"  vector scan, cold     {r['cold_ms']:8.1f} ms (a new connection loads them)")
            sums = r.pop("summaries")
            print(f"  vector scan, warm     {sums['scan']}   target p50 < 20 ms, p99 < 100 ms")
            print(f"  retrieve hybrid       {sums['hyb']}")
            print(f"  retrieve lexical      {sums['lex']}   (baseline, same database)")
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
                    f"{r['scan_p50']:.1f} / {r['scan_p99']:.1f} ms (CPU "
                    f"{r['scan_cpu_p50']:.1f} / {r['scan_cpu_p99']:.1f} ms)",
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
