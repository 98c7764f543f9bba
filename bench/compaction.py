"""Benchmark: memory within budget.

1. Growth and compaction. The fixture transcripts (tests/fixtures/transcripts/*.md) are
   replayed many times over (round r shifts every time by r weeks and renames the session)
   through the live path: session history, sleep, a worker tick, the offline memory agent,
   and the compaction hook after each run. Printed: the size of ~/memory before and after
   each compaction, and at the end the size with compaction against the same replay
   without it (the baseline, measured in the same run).
2. `load_memories` latency at 10k documents (cap 8,000 characters; by recency and by
   query), against the baselines of raw sqlite3 reading the newest bodies (ORDER BY
   updated_at) and of loading every document and sorting, in the same run. With a query,
   before and after ranking moved to passage retrieval: the store's full-text search over
   whole documents (before) and `rank_documents` (now), and the one-off cost of building
   the passage index for 10k documents and of bringing it up to date after one write.
3. `load_memories(query=...)` relevance on LoCoMo (when `../shared/data/locomo/` or
   `DOCTREE_LOCOMO` holds it; skipped otherwise): each conversation's sessions stored as
   documents, as in `bench/locomo.py` raw mode; per question (categories 1-4), the share
   of its evidence turns inside the loaded text at caps of 4,000, 8,000 and 16,000
   characters, before (store search) and now (passages), per split.

    .venv/bin/python bench/compaction.py            # full
    .venv/bin/python bench/compaction.py --quick    # a small run
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import sqlite3
import sys
import tempfile
import time
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import benchreport  # noqa: E402

from doctree.compose import Settings, build_handler  # noqa: E402
from doctree.memory.compaction import CompactionPolicy, CompactionResult, Compactor  # noqa: E402
from doctree.memory.context import (  # noqa: E402
    DEFAULT_CAP,
    SEPARATOR,
    load_memories,
    recent_documents,
    render_document,
)
from doctree.memory.passages import sync_passages  # noqa: E402
from doctree.sessions.repository import SessionsRepository  # noqa: E402
from doctree.sessions.transcripts import Transcript, parse_transcript  # noqa: E402
from doctree.store import encoding  # noqa: E402
from doctree.store.documents import DocumentsRepository  # noqa: E402
from doctree.worker.worker import MemoryWorker  # noqa: E402

FIXTURES = ROOT / "tests" / "fixtures" / "transcripts"
OWNER = "main"


def shifted(t: Transcript, weeks: int) -> Transcript:
    """The transcript `weeks` later, under a session id of its own."""

    def later(ts: str | None) -> str | None:
        if ts is None:
            return None
        dt = datetime.fromisoformat(ts.replace("Z", "+00:00")) + timedelta(weeks=weeks)
        return dt.strftime("%Y-%m-%dT%H:%M:%SZ")

    return replace(
        t,
        session_id=f"{t.session_id}-r{weeks}" if weeks else t.session_id,
        started=later(t.started),
        ended=later(t.ended),
        messages=tuple(replace(m, time=later(m.time)) for m in t.messages),
    )


def grow(db: Path, rounds: int, policy: CompactionPolicy | None) -> tuple[int, list[dict]]:
    """Replay the fixtures `rounds` times; compact after each run if a policy is given.
    Returns the final size of ~/memory and one row per compaction pass."""
    transcripts = [
        parse_transcript(p.read_text(encoding="utf-8"), source=p.name)
        for p in sorted(FIXTURES.glob("*.md"))
    ]
    repo = DocumentsRepository(db)
    sessions = SessionsRepository(db)
    passes: list[dict] = []
    compactor = Compactor(repo, condenser="offline", policy=policy) if policy else None
    current: dict[str, object] = {}

    def hook(job: object) -> None:
        assert compactor is not None
        result: CompactionResult = compactor.maybe_compact(job.owner)
        if result.status == "compacted":
            passes.append(
                {
                    "round": current["round"],
                    "after": current["name"],
                    "before": result.size_before,
                    "after_size": result.size_after,
                    "retired": len(result.retired),
                    "ms": result.seconds * 1000,
                }
            )

    worker = MemoryWorker(
        db,
        handler=build_handler(repo, Settings(backend="offline")),
        after_handle=hook if compactor else None,
    )
    for r in range(rounds):
        for t in transcripts:
            s = shifted(t, r)
            current.update(round=r, name=s.session_id)
            sessions.ensure(s.owner, s.session_id, created_at=s.started)
            for m in s.messages:
                sessions.append_history(s.session_id, m.kind, m.content, time=m.time)
            sessions.sleep(s.session_id)
            worker.tick()
    size = repo.total_size(OWNER, "~/memory")
    worker.close()
    sessions.close()
    repo.close()
    return size, passes


def p(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def timed(fn, n: int) -> list[float]:
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1000)
    return out


WORDS = [
    "alice",
    "bob",
    "priya",
    "marcus",
    "apollo",
    "hermes",
    "ledger",
    "launch",
    "review",
    "postgres",
    "kafka",
    "budget",
    "decided",
    "prefers",
    "meeting",
    "deadline",
    "migration",
    "schema",
    "tests",
    "deploy",
    "staging",
    "rollback",
    "tuesday",
    "friday",
    "coffee",
    "tea",
    "berlin",
    "lisbon",
    "munich",
    "design",
    "api",
    "mobile",
    "backend",
]


def fill(db: Path, n: int) -> None:
    """n notes of 40-120 words: mostly from a 2,000-word vocabulary, one word in ten from
    the domain words above (so a query matches a realistic share of the notes)."""
    rng = random.Random(7)
    letters = "abcdefghijklmnopqrstuvwxyz"
    vocabulary = sorted(
        {"".join(rng.choice(letters) for _ in range(rng.randint(3, 9))) for _ in range(2000)}
    )
    repo = DocumentsRepository(db)
    with repo.transaction():
        for i in range(n):
            words = [
                rng.choice(WORDS) if rng.random() < 0.1 else rng.choice(vocabulary)
                for _ in range(rng.randint(40, 120))
            ]
            repo.write(
                OWNER, f"~/memory/topic-{i % 50}/note-{i}", f"# Note {i}\n\n{' '.join(words)}.\n"
            )
    repo.close()


def load_before(
    repo: DocumentsRepository, query: str, cap: int = DEFAULT_CAP, owner: str = OWNER
) -> str:
    """`load_memories(query=...)` as it was before passage ranking: the store's full-text
    search (BM25 over whole documents, titles and paths) first, then the rest by recency,
    under the same soft cap."""
    docs, given = [], set()
    for hit in repo.search(owner, query, under="~/memory", limit=50):
        doc = repo.get(owner, hit.path)
        if doc is not None and doc.body.strip():
            given.add(doc.id)
            docs.append(doc)
    parts: list[str] = []
    length = 0
    rest = (d for d in recent_documents(repo, owner, "~/memory") if d.id not in given)
    for doc in itertools.chain(docs, rest):
        text = render_document(doc)
        extra = len(text) + (len(SEPARATOR) if parts else 0)
        if length + extra > cap:
            break
        parts.append(text)
        length += extra
    return SEPARATOR.join(parts)


QUERY = "apollo launch review"
QUESTION = "when is the apollo launch review?"


def latency(db: Path, runs: int) -> tuple[list[tuple[str, float, float]], list[tuple[str, float]]]:
    repo = DocumentsRepository(db)
    raw = sqlite3.connect(db)

    def baseline() -> str:
        rows = raw.execute(
            "SELECT body_data FROM documents WHERE owner = ? AND deleted_at IS NULL"
            " AND path >= '~/memory/' AND path < '~/memory0' ORDER BY updated_at DESC LIMIT 20",
            (OWNER,),
        ).fetchall()
        # A document's stored body is a full copy (see doctree.store.encoding).
        return "\n\n---\n\n".join(encoding.decode(r[0], None) for r in rows)

    def naive() -> str:
        docs = sorted(repo.documents(OWNER, "~/memory"), key=lambda d: d.updated_at, reverse=True)
        return "\n\n---\n\n".join(d.body for d in docs[:20])

    once: list[tuple[str, float]] = []
    t0 = time.perf_counter()
    n = sync_passages(repo, OWNER)
    once.append((f"build the passage index ({n:,} documents, once)", time.perf_counter() - t0))
    rows = []
    for label, fn in (
        ("raw sqlite3: newest 20 bodies (baseline)", baseline),
        ("every document, then sort (naive)", naive),
        ("load_memories(cap=8000)", lambda: load_memories(repo, OWNER)),
        (f"query {QUERY!r}, store search (before)", lambda: load_before(repo, QUERY)),
        (f"query {QUERY!r}, passages (now)", lambda: load_memories(repo, OWNER, query=QUERY)),
        (f"query {QUESTION!r}, before", lambda: load_before(repo, QUESTION)),
        (f"query {QUESTION!r}, now", lambda: load_memories(repo, OWNER, query=QUESTION)),
    ):
        fn()
        t = timed(fn, runs)
        rows.append((label, p(t, 0.5), p(t, 0.99)))
    repo.write(OWNER, "~/memory/topic-0/note-0", "# Note 0\n\nThe apollo launch review moved.\n")
    t0 = time.perf_counter()
    load_memories(repo, OWNER, query=QUERY)
    once.append(
        ("load_memories(query=...) after one write (cuts it again)", time.perf_counter() - t0)
    )
    raw.close()
    repo.close()
    return rows, once


LOCOMO_CAPS = (4_000, 8_000, 16_000)


def locomo_relevance(workdir: Path) -> None:
    """Evidence recall of `load_memories(query=...)` on LoCoMo, before and now."""
    sys.path.insert(0, str(ROOT / "bench"))
    import locomo

    path = locomo.data_dir()
    if not (path / "locomo10.json").exists():
        print(f"LoCoMo not found at {path} (set DOCTREE_LOCOMO); skipping relevance.")
        return
    conversations, _ = locomo.load(path, False)
    repo = DocumentsRepository(workdir / "locomo.db")
    print(f"{'split':<12} {'ranking':<22}" + "".join(f" {c:>8,}" for c in LOCOMO_CAPS))
    try:
        for split, ids in locomo.SPLITS.items():
            recalls: dict[tuple[str, int], list[float]] = {}
            for c in (c for c in conversations if c.sample_id in ids):
                locomo.store_raw(repo, c)
                sync_passages(repo, c.sample_id)
                for q in c.questions:
                    for cap in LOCOMO_CAPS:
                        for name, text in (
                            ("store search (before)", load_before(repo, q.text, cap, c.sample_id)),
                            ("passages (now)", load_memories(repo, c.sample_id, cap, q.text)),
                        ):
                            found = set(locomo.DIA_ID.findall(text))
                            recalls.setdefault((name, cap), []).append(
                                locomo.recall(q.evidence, found)
                            )
            for name in ("store search (before)", "passages (now)"):
                cells = "".join(
                    f" {sum(recalls[name, c]) / len(recalls[name, c]):>8.3f}" for c in LOCOMO_CAPS
                )
                print(f"{split:<12} {name:<22}{cells}")
            print(f"{'':<12} ({len(recalls['passages (now)', LOCOMO_CAPS[0]])} questions)")
    finally:
        repo.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="2 rounds, 2,000 documents")
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--threshold", type=int, default=24_000, help="compaction threshold, bytes")
    ap.add_argument("--docs", type=int, default=10_000)
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--no-locomo", action="store_true", help="skip the LoCoMo relevance part")
    benchreport.add_json_out(ap)
    args = ap.parse_args()
    if args.quick:
        args.rounds, args.docs, args.runs = 2, 2_000, 10
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        n = len(list(FIXTURES.glob("*.md")))
        print(f"== growth: {n} fixture transcripts x {args.rounds} rounds, offline agent ==")
        t0 = time.perf_counter()
        plain, _ = grow(tmp / "plain.db", args.rounds, None)
        t_plain = time.perf_counter() - t0
        t0 = time.perf_counter()
        policy = CompactionPolicy(threshold=args.threshold)
        compacted, passes = grow(tmp / "compacted.db", args.rounds, policy)
        t_comp = time.perf_counter() - t0
        print(
            f"threshold {args.threshold:,} bytes on ~/memory (tier pages kept: "
            f"{', '.join(policy.keep)})"
        )
        print(
            f"{'round':>5}  {'after session':<42} {'before':>9} {'after':>9} {'ratio':>6}"
            f" {'retired':>7} {'ms':>7}"
        )
        for row in passes:
            print(
                f"{row['round']:>5}  {row['after']:<42} {row['before']:>9,} "
                f"{row['after_size']:>9,} {row['after_size'] / row['before']:>6.2f} "
                f"{row['retired']:>7} {row['ms']:>7.1f}"
            )
        print(f"passes: {len(passes)}")
        print(
            f"~/memory at the end without compaction (baseline): {plain:>9,} bytes"
            f"  ({t_plain:.1f} s)"
        )
        print(
            f"~/memory at the end with compaction:               {compacted:>9,} bytes"
            f"  ({t_comp:.1f} s)"
        )
        print(f"ratio to baseline: {compacted / plain:.2f}")
        print()
        print(f"== load_memories latency at {args.docs:,} documents ({args.runs} runs) ==")
        fill(tmp / "big.db", args.docs)
        rows, once = latency(tmp / "big.db", args.runs)
        base = rows[0][1]
        print(f"{'':<58} {'p50 ms':>8} {'p99 ms':>8} {'x baseline':>10}")
        for label, p50, p99 in rows:
            print(f"{label:<58} {p50:>8.2f} {p99:>8.2f} {p50 / base:>10.2f}")
        for label, seconds in once:
            print(f"{label:<58} {seconds * 1000:>8.1f} ms")
        report = [
            benchreport.row(
                f"~/memory after {args.rounds} rounds, compacted",
                f"{compacted:,} bytes",
                f"{plain:,} bytes (no compaction)",
                f"{compacted / plain:.2f}x",
            )
        ]
        report += [
            benchreport.row(
                f"{label} p50, {args.docs:,} docs",
                f"{p50:.2f} ms",
                f"{base:.2f} ms ({rows[0][0]})",
                f"{p50 / base:.2f}x",
            )
            for label, p50, _ in rows[1:]
        ]
        figures = {"compacted_bytes": compacted, "plain_bytes": plain}
        figures.update({f"{label} p50 ms": p50 for label, p50, _ in rows})
        benchreport.write(args.json_out, "compaction", report, figures)
        print(f"load average: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
        if not args.no_locomo and not args.quick:
            print()
            print("== load_memories(query=...) relevance on LoCoMo: evidence recall by cap ==")
            locomo_relevance(tmp)


if __name__ == "__main__":
    main()
