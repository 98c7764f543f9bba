"""Benchmark the memory worker (not a test).

1. Throughput: sessions per second through `MemoryWorker.tick()` with an instant memory
   agent (claim and lease, load the records, format the transcript, hand over, CAS, and
   the catch-up that stores every record in the recall record: the time ends when all are
   stored), against a baseline measured in the same run: the bare find_invalidated +
   mark_processed loop of the seed's stub worker, without leases or transcripts.
2. `find_invalidated(10)` latency as the sessions table grows (10k, 100k, 1M sessions, 1%
   of them invalidated), against the 10k figure as baseline: the partial index on
   `invalidated_at` should keep it flat.

    .venv/bin/python bench/worker.py            # full run (about a minute, ~150 MB in /tmp)
    .venv/bin/python bench/worker.py --quick    # 1k sessions and 10k/100k totals
    .venv/bin/python bench/worker.py --catch-up 200            # the catch-up alone
    .venv/bin/python bench/worker.py --catch-up 200 --fill-only  # (its fill, to subtract)

`--catch-up N`: N sessions of `--records` records handed over (noted, as the worker notes
them) and not stored yet, then one `catch_up_recall` that stores them all: its time and the
database's size after. With `--fill-only` the catch-up is left out, so that a count of
instructions of the whole process (valgrind's callgrind) less that of the fill alone is
the catch-up's.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import benchreport

from doctree.memory.recall import catch_up_recall
from doctree.sessions.repository import SessionsRepository
from doctree.store.recall import RecallIndex
from doctree.worker.worker import MemoryWorker, TranscriptJob


class Instant:
    """A memory agent that accepts every job at once."""

    def __init__(self) -> None:
        self.jobs = 0

    def handle(self, job: TranscriptJob) -> None:
        self.jobs += 1


def fill_pending(db: Path, n: int, records: int) -> None:
    with SessionsRepository(db) as s:
        s.create_many("main", (f"s{i}" for i in range(n)))
        with s.transaction():
            for i in range(n):
                for j in range(records):
                    s.append_history(f"s{i}", "user", f"message {j} of session {i}: some text")
                s.sleep(f"s{i}")


def throughput(tmp: Path, n: int, records: int, batch: int) -> tuple[float, float]:
    """(worker sessions/s, baseline sessions/s)."""
    db = tmp / "throughput.db"
    fill_pending(db, n, records)
    handler = Instant()
    worker = MemoryWorker(db, handler=handler, batch=batch)
    t0 = time.perf_counter()
    while worker.tick().found:
        pass
    worker_s = time.perf_counter() - t0
    stored = RecallIndex(worker.sessions.conn).count("main")
    worker.close()
    size = sum(f.stat().st_size for f in tmp.glob(db.name + "*"))
    print(f"database after the worker: {size / 1e6:.2f} MB ({n * records} records)")
    assert handler.jobs == n, handler.jobs
    assert stored == n * records, f"{stored} of {n * records} records in the recall record"

    base_db = tmp / "baseline.db"
    fill_pending(base_db, n, records)
    with SessionsRepository(base_db) as s:
        t0 = time.perf_counter()
        while found := s.find_invalidated(batch):
            for sess in found:
                last = s.max_id(sess.id)
                s.mark_processed(sess.id, last, sess.invalidated_at)
        base_s = time.perf_counter() - t0
    return n / worker_s, n / base_s


def catch_up(tmp: Path, n: int, records: int, fill_only: bool) -> None:
    """The catch-up alone: `n` sessions handed over and noted, then stored at once."""
    db = tmp / "catch-up.db"
    fill_pending(db, n, records)
    with SessionsRepository(db) as s:
        index = RecallIndex(s.conn)
        with s.transaction():
            for i in range(n):
                index.note_handed_over("main", f"s{i}", 0, s.max_id(f"s{i}"))
        if fill_only:
            return
        t0 = time.perf_counter()
        stored = catch_up_recall(s.conn)
        spent = time.perf_counter() - t0
        s.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    assert stored == n * records, stored
    size = sum(f.stat().st_size for f in tmp.glob(db.name + "*"))
    print(f"catch-up of {n} sessions x {records} records: {spent * 1000:.0f} ms; ", end="")
    print(f"database after it: {size / 1e6:.2f} MB")


def find_latency(
    tmp: Path, totals: list[int], share: float, repeat: int
) -> list[tuple[int, float]]:
    """Median find_invalidated(10) latency in ms at each total, grown in one database."""
    db = tmp / "latency.db"
    out = []
    have = 0
    with SessionsRepository(db) as s:
        for total in totals:
            step = round(1 / share)
            s.create_many("main", (f"s{i:08d}" for i in range(have, total)))
            with s.transaction():
                for i in range(have, total, step):
                    s.invalidate(f"s{i:08d}", i + 1)
            have = total
            s.conn.execute("ANALYZE")
            s.find_invalidated(10, holder="bench")  # warm the cache
            times = []
            for _ in range(repeat):
                t0 = time.perf_counter()
                found = s.find_invalidated(10, holder="bench")
                times.append(time.perf_counter() - t0)
            assert len(found) == 10
            out.append((total, statistics.median(times) * 1000))
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="small sizes, for a smoke run")
    p.add_argument("--sessions", type=int, help="sessions through the worker (default 5000)")
    p.add_argument("--records", type=int, default=6, help="records per session (default 6)")
    p.add_argument("--batch", type=int, default=100, help="sessions per tick (default 100)")
    p.add_argument("--repeat", type=int, default=200, help="find_invalidated calls per size")
    p.add_argument("--catch-up", type=int, metavar="N", help="only the catch-up, of N sessions")
    p.add_argument("--fill-only", action="store_true", help="with --catch-up: only its fill")
    benchreport.add_json_out(p)
    args = p.parse_args(argv)
    if args.catch_up:
        with tempfile.TemporaryDirectory(prefix="doctree-bench-") as d:
            catch_up(Path(d), args.catch_up, args.records, args.fill_only)
        return 0
    n = args.sessions or (1000 if args.quick else 5000)
    totals = [10_000, 100_000] if args.quick else [10_000, 100_000, 1_000_000]

    with tempfile.TemporaryDirectory(prefix="doctree-bench-") as d:
        tmp = Path(d)
        worker_rate, base_rate = throughput(tmp, n, args.records, args.batch)
        print(f"worker throughput ({n} sessions x {args.records} records, batch {args.batch}):")
        print(f"  MemoryWorker.tick, instant agent   {worker_rate:10.0f} sessions/s")
        print(f"  baseline: bare find + CAS loop     {base_rate:10.0f} sessions/s")
        print(f"  ratio worker / baseline            {worker_rate / base_rate:10.2f}")
        print()
        print("find_invalidated(10) latency, 1% of sessions invalidated (median):")
        latency = find_latency(tmp, totals, 0.01, args.repeat)
        base_ms = latency[0][1]
        for total, ms in latency:
            print(
                f"  {total:>9,} sessions  {ms:8.3f} ms   ratio to {totals[0]:,}: {ms / base_ms:5.2f}"
            )
    ratio = worker_rate / base_rate
    rows = [
        benchreport.row(
            "worker hand-over",
            f"{worker_rate:,.0f} sessions/s",
            f"{base_rate:,.0f} sessions/s (bare find + CAS loop)",
            f"{ratio:.3f}x",
            ">= 0.25x",
            ratio >= 0.25,
        )
    ]
    total, ms = latency[-1]
    rows.append(
        benchreport.row(
            f"find_invalidated(10) at {total:,} sessions",
            f"{ms:.3f} ms",
            f"{base_ms:.3f} ms at {totals[0]:,}",
            f"{ms / base_ms:.2f}x",
            "flat (<= 2x)",
            ms / base_ms <= 2,
        )
    )
    figures = {"worker_sessions_per_s": worker_rate, "baseline_sessions_per_s": base_rate}
    figures.update({f"find_invalidated_{t}_ms": m for t, m in latency})
    benchreport.write(args.json_out, "worker", rows, figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
