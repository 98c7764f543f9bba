"""Many hosts, simulated: 4 memory-worker processes and 4 writer processes on one PostgreSQL
database, with `kill -9` of workers in the middle of hand-overs and restarts.

Each process has its own connections, as processes on separate hosts would; the server is
the only thing they share. Every record the writers append is stored, and every record is
handed over exactly once — the one exception being the hand-over a worker was killed in
after its handler ran and before its mark committed, which the next holder hands over again
(at least once across a crash; see docs/scaling.md).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

import pytest

from doctree.sessions.repository import SessionsRepository
from tests.worker.test_worker_processes import read_jobs, wait_for, worker_cmd

pytestmark = [pytest.mark.slow, pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")]

ROOT = Path(__file__).resolve().parents[2]
WORKERS = 4
WRITERS = 4
SESSIONS_PER_WRITER = 4

# A writer host: appends records to its own sessions in rounds, puts some to sleep as it
# goes (each sleep makes the session pending), until the file `done` exists; then puts them
# all to sleep. Prints the id of every record it appended, one a line.
WRITER = """
import os, random, sys, time
from doctree.sessions.repository import SessionsRepository

url, prefix, seed, done = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
rng = random.Random(seed)
ids, appended = [f"{prefix}s{i}" for i in range(int(sys.argv[5]))], []
with SessionsRepository(url) as sessions:
    for sid in ids:
        sessions.create("main", sid)
    n = 0
    while not os.path.exists(done) or n < 20:
        n += 1
        sid = rng.choice(ids)
        for _ in range(rng.randint(1, 4)):
            appended.append(sessions.append_history(sid, "user", f"{sid} round {n} {rng.random()}"))
        if rng.random() < 0.3:
            sessions.sleep(sid)
        time.sleep(rng.uniform(0.0, 0.03))
    for sid in ids:
        sessions.sleep(sid)
print("\\n".join(map(str, appended)), flush=True)
"""


def start_writer(url: str, index: int, done: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", WRITER, url, f"w{index}", str(index), str(done),
         str(SESSIONS_PER_WRITER)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def spawn(url: str, jobs, logs: Path, **kw) -> subprocess.Popen:
    """Start a worker process, its output in files (a full pipe never blocks it), and wait
    for its start-up line (its signal handlers are set)."""
    logs.mkdir(exist_ok=True)
    n = len(list(logs.iterdir())) // 2
    out, err = (open(logs / f"{n}.{x}", "w+") for x in ("out", "err"))  # noqa: SIM115
    proc = subprocess.Popen(worker_cmd(url, jobs, **kw), stdout=out, stderr=err, text=True)
    proc.log = err  # type: ignore[attr-defined]
    wait_for(lambda: "every" in Path(err.name).read_text(), 30, "the worker to start")
    return proc


def stop(proc: subprocess.Popen, timeout: float = 30) -> tuple[int, str]:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
    proc.wait(timeout)
    return proc.returncode, Path(proc.log.name).read_text()  # type: ignore[attr-defined]


def pending(sessions: SessionsRepository) -> int:
    row = sessions.conn.execute(
        "SELECT COUNT(*) FROM sessions WHERE invalidated_at IS NOT NULL"
    ).fetchone()
    return int(row[0])


def mid_hand_over(sessions: SessionsRepository, workers: list[subprocess.Popen]) -> int | None:
    """The index of a worker process that holds a session lease now (in the middle of a
    hand-over), if any."""
    holders = {
        r[0].split(":")[2]
        for r in sessions.conn.execute(
            "SELECT holder FROM leases WHERE holder LIKE ? AND expires_at > ?",
            ("worker:%", time.time()),
        )
    }
    return next((i for i, w in enumerate(workers) if str(w.pid) in holders), None)


def wait_for_value(probe, timeout: float):
    """The first value of `probe()` that is not None, within `timeout` seconds."""
    end = time.time() + timeout
    while time.time() < end:
        value = probe()
        if value is not None:
            return value
        time.sleep(0.02)
    raise AssertionError("timed out waiting for a worker to take a session lease")


def test_four_workers_and_four_writers_on_one_server_with_kill_9(postgres_url, tmp_path):
    url = postgres_url
    jobs_file, logs = tmp_path / "jobs.jsonl", tmp_path / "logs"
    sessions = SessionsRepository(url)
    worker_kw = {"delay": 0.05, "ttl": 2.0, "batch": 3}
    workers = [spawn(url, jobs_file, logs, **worker_kw) for _ in range(WORKERS)]
    done = tmp_path / "done"
    writers = [start_writer(url, i, done) for i in range(WRITERS)]
    killed: list[int] = []
    try:
        # While the writers write: kill -9 a worker caught holding a session lease (so in
        # the middle of a hand-over), start a new one in its place; five times.
        for _ in range(5):
            slot = wait_for_value(lambda: mid_hand_over(sessions, workers), 30)
            victim = workers[slot]
            os.kill(victim.pid, signal.SIGKILL)
            victim.wait(10)
            assert victim.returncode == -signal.SIGKILL
            killed.append(victim.pid)
            workers[slot] = spawn(url, jobs_file, logs, **worker_kw)
            time.sleep(0.3)
        done.touch()
        written: list[int] = []
        for w in writers:
            out, err = w.communicate(timeout=60)
            assert w.returncode == 0, err
            written += [int(line) for line in out.split()]
        wait_for(lambda: pending(sessions) == 0, 45, "every session handed over")
    finally:
        for w in writers:
            if w.poll() is None:
                w.kill()
                w.wait(10)
        results = [stop(w) for w in workers]
    assert [rc for rc, _ in results] == [0] * WORKERS, [err[-2000:] for _, err in results]

    ids = [f"w{i}s{j}" for i in range(WRITERS) for j in range(SESSIONS_PER_WRITER)]
    stored = {r.id for sid in ids for r in sessions.history(sid)}
    # Nothing lost on the writers' side: every id a writer was given is stored, once.
    assert len(written) == len(set(written)) and set(written) == stored

    jobs = read_jobs(jobs_file)
    last_of_killed = {}
    for i, job in enumerate(jobs):
        if job["pid"] in killed:
            last_of_killed[job["pid"]] = i
    in_flight = set(last_of_killed.values())  # a killed worker's hand-over in hand
    handed: dict[int, list[int]] = defaultdict(list)  # record id -> indexes of its jobs
    for i, job in enumerate(jobs):
        for r in sessions.history(
            job["session_id"], after_id=job["first_history_id"] - 1, until_id=job["last_history_id"]
        ):
            handed[r.id].append(i)
    # Nothing lost on the workers' side: every stored record was handed over.
    assert set(handed) == stored
    # Exactly once, apart from a killed worker's last hand-over (its mark never committed):
    # leaving those out, no record was handed over twice.
    again = {rid for rid, js in handed.items() if len(js) > 1}
    for rid in again:
        assert len([j for j in handed[rid] if j not in in_flight]) <= 1, (rid, handed[rid])
    assert len({jobs[j]["session_id"] for rid in again for j in handed[rid]}) <= len(killed)
    # Several processes shared the queue.
    assert len({job["pid"] for job in jobs}) >= WORKERS

    # Every session is handed over up to its last record, and the workers stopped released
    # their leases (a killed one's lease, on a session it found done, expires by itself).
    for sid in ids:
        s = sessions.require(sid)
        assert s.invalidated_at is None and s.processed_until == sessions.max_id(sid), s
    held = sessions.conn.execute(
        "SELECT name, holder FROM leases WHERE expires_at > ?", (time.time(),)
    ).fetchall()
    assert [tuple(r) for r in held if int(r[1].split(":")[2]) not in killed] == []
    sessions.close()
    print(
        f"{len(stored)} records from {WRITERS} writers, {len(jobs)} hand-overs by "
        f"{len({j['pid'] for j in jobs})} worker processes, {len(killed)} killed, "
        f"{len(again)} records handed over again after a kill"
    )


# A host taking one lease over and over: inside it, a read-modify-write of a shared file
# that two holders at once would lose an increment of. Prints how often it held the lease.
CLAIMER = """
import os, sys, time
from doctree.store import db
from doctree.store.leases import Leases, new_holder

url, counter, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
conn = db.connect(url)
leases, held, end = Leases(conn), 0, time.time() + seconds
while time.time() < end:
    holder = new_holder()
    if leases.acquire("shared", holder, 30.0):
        with open(counter, "r+") as f:
            value = int(f.read() or 0)
            time.sleep(0.002)
            f.seek(0)
            f.write(str(value + 1))
            f.truncate()
        held += 1
        leases.release("shared", holder)
print(held, flush=True)
"""


def test_processes_claiming_one_lease_never_hold_it_at_once(db_path, tmp_path):
    """Lease claims from several processes exclude each other (on PostgreSQL: one upsert
    under the row's lock, without the store's write lock)."""
    counter = tmp_path / "counter"
    counter.write_text("0")
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", CLAIMER, str(db_path), str(counter), "2.0"],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )  # fmt: skip
        for _ in range(6)
    ]
    held = []
    for p in procs:
        out, err = p.communicate(timeout=60)
        assert p.returncode == 0, err
        held.append(int(out))
    assert sum(held) == int(counter.read_text())  # no increment lost: never two holders
    assert sum(1 for h in held if h) >= 2 and sum(held) >= 20  # the claims did contend


def test_a_lease_claim_does_not_wait_for_the_write_lock(postgres_url):
    """On PostgreSQL a worker claims a session while another host holds the store's write
    lock (a long write transaction), and a second claim of the same lease is refused."""
    from doctree.store import db
    from doctree.store.backends import begin_write
    from doctree.store.leases import Leases

    writer, a, b = (db.connect(postgres_url) for _ in range(3))
    try:
        for conn in (a, b):
            conn.execute("SET lock_timeout = 2000")
        begin_write(writer)  # held until the end of the test's claims
        t0 = time.monotonic()
        assert Leases(a).acquire("session:s1", "host-a", 30.0)
        assert not Leases(b).acquire("session:s1", "host-b", 30.0)  # held by host-a
        assert Leases(b).acquire("session:s2", "host-b", 30.0)
        assert time.monotonic() - t0 < 1.5  # none of them waited for the write lock
        assert Leases(b).holder("session:s1") == "host-a"
        writer.execute("ROLLBACK")
        assert Leases(b).acquire("session:s1", "host-b", 30.0) is False
    finally:
        for conn in (writer, a, b):
            conn.close()
