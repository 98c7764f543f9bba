"""Worker attacks with real processes: `kill -9` of a worker mid-run, and a worker that loses
its session lease mid-hand-over (frozen with SIGSTOP past its TTL while another takes over)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from doctree.sessions.repository import SessionsRepository
from doctree.store.documents import DocumentsRepository
from doctree.store.runs import Runs

pytestmark = [pytest.mark.slow, pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")]

HERE = Path(__file__).resolve().parent
SID = "s1"
PAGE = f"~/memory/log/{SID}"


def spawn(db, tmp_path, *, ttl, hold: bool):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(HERE), env.get("PYTHONPATH", "")])
    env["DOCTREE_TEST_STARTED"] = str(tmp_path / "started")
    env["DOCTREE_TEST_HOLD"] = str(tmp_path / "hold") if hold else ""
    cmd = [
        sys.executable,
        "-m",
        "doctree",
        "--db",
        str(db),
        "worker",
        "--interval",
        "0.05",
        "--backend",
        "python:run_handlers:slow_agent",
        "--lease-ttl",
        str(ttl),
        "--retry-base",
        "0.1",
        "--json",
    ]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stderr.readline()
    assert "every" in line, line + proc.stderr.read()
    return proc


def wait_for(predicate, timeout=30.0, what="condition"):
    end = time.time() + timeout
    while time.time() < end:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def started(tmp_path) -> list[tuple[int, int]]:
    f = tmp_path / "started"
    if not f.exists():
        return []
    return [tuple(map(int, line.split())) for line in f.read_text().splitlines() if line]


def stop(proc):
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=30)
    return out, err


@pytest.fixture
def pending(db_path):
    with SessionsRepository(db_path) as s:
        s.create("main", SID)
        for i in range(6):
            s.append_history(SID, "user", f"message {i}")
        s.sleep(SID)
    return db_path


def test_a_run_orphaned_by_kill_9_is_failed_and_reverted_before_the_retry(pending, tmp_path):
    db = pending
    (tmp_path / "hold").touch()
    a = spawn(db, tmp_path, ttl=1.0, hold=True)
    try:
        wait_for(lambda: started(tmp_path), what="the first run to start")
        [(pid_a, run_a)] = started(tmp_path)
        os.kill(pid_a, signal.SIGKILL)
        a.wait(timeout=30)
    finally:
        stop(a)

    with DocumentsRepository(db) as repo:
        # the dead run is never shown as running, by the library or the CLI
        (shown,) = Runs(repo.conn).list(owner="main")
        assert (shown.id, shown.status, shown.stop_reason) == (run_a, "failed", "orphaned")
        assert Runs(repo.conn).list(status="running") == []
        assert repo.read("main", PAGE).body.endswith(f"by pid {pid_a}\n")  # its partial write
    cli = subprocess.run(
        [sys.executable, "-m", "doctree", "--db", str(db), "--owner", "main", "runs", "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert [r["status"] for r in json.loads(cli.stdout)] == ["failed"]

    (tmp_path / "hold").unlink()
    b = spawn(db, tmp_path, ttl=1.0, hold=False)
    try:
        with SessionsRepository(db) as s:
            wait_for(lambda: s.get(SID).invalidated_at is None, what="the retry")
    finally:
        out, _ = stop(b)
    ticks = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    assert [t["orphans"] for t in ticks if t["orphans"]] == [[run_a]]

    with DocumentsRepository(db) as repo:
        runs = Runs(repo.conn)
        orphan = runs.get(run_a)
        assert (orphan.status, orphan.stop_reason) == ("failed", "orphaned")
        assert orphan.reverted_at is not None  # its partial write was put back
        retry = [r for r in runs.list(owner="main") if r.id != run_a]
        assert [(r.status, r.pid) for r in retry] == [("completed", b.pid)]
        # the orphan's page was deleted by the revert; the retry created it again
        assert [(v.operation, v.run_id) for v in repo.history("main", PAGE)] == [
            ("created", retry[0].id)
        ]
        assert repo.read("main", PAGE).body.endswith(f"by pid {b.pid}\n")


def test_a_worker_that_lost_its_lease_mid_hand_over_marks_nothing_and_reverts(pending, tmp_path):
    db = pending
    (tmp_path / "hold").touch()
    a = spawn(db, tmp_path, ttl=0.5, hold=True)
    b = None
    try:
        wait_for(lambda: started(tmp_path), what="the first hand-over to start")
        [(pid_a, run_a)] = started(tmp_path)
        a.send_signal(signal.SIGSTOP)  # frozen mid-hand-over: its lease keeper too
        time.sleep(1.0)  # past the TTL
        (tmp_path / "hold").unlink()
        b = spawn(db, tmp_path, ttl=5.0, hold=False)
        with SessionsRepository(db) as s:
            wait_for(lambda: s.get(SID).invalidated_at is None, what="the take-over")
        out_b, _ = stop(b)
        with SessionsRepository(db) as s:
            marked = s.get(SID)
        a.send_signal(signal.SIGCONT)
        wait_for(lambda: len(started(tmp_path)) >= 2, what="a to resume")
        with DocumentsRepository(db) as repo:
            wait_for(
                lambda: (
                    Runs(repo.conn).get(run_a).reverted_at is not None
                    or Runs(repo.conn).get(run_a).stop_reason == "lease_lost"
                ),
                what="a to give up its run",
            )
        time.sleep(0.3)
    finally:
        if a.poll() is None:
            a.send_signal(signal.SIGCONT)
        out_a, err_a = stop(a)
        if b is not None:
            stop(b)

    ticks_a = [json.loads(line) for line in out_a.splitlines() if line.startswith("{")]
    assert [t["lost"] for t in ticks_a if t["lost"]] == [[SID]], err_a
    assert not any(t["processed"] or t["raced"] for t in ticks_a)
    with SessionsRepository(db) as s:
        after = s.get(SID)
        # a marked nothing: the session is as b left it
        assert (after.invalidated_at, after.processed_until) == (None, marked.processed_until)
    with DocumentsRepository(db) as repo:
        runs = Runs(repo.conn)
        lost = runs.get(run_a)
        assert lost.status == "failed" and lost.stop_reason in ("orphaned", "lease_lost")
        others = [r for r in runs.list(owner="main") if r.id != run_a]
        assert [r.status for r in others] == ["completed"]
        # what stays is b's hand-over, once
        assert repo.read("main", PAGE).body.endswith(f"by pid {b.pid}\n")


def test_a_failure_that_quotes_a_secret_leaves_it_out_of_the_log_and_the_record(
    db_path, pending, tmp_path
):
    secret = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"  # a GitHub token's shape
    env = dict(os.environ, DOCTREE_TEST_SECRET=secret)
    env["PYTHONPATH"] = os.pathsep.join([str(HERE), env.get("PYTHONPATH", "")])
    done = subprocess.run(
        [
            *[sys.executable, "-m", "doctree", "--db", str(db_path), "worker", "--once"],
            *["--backend", "python:run_handlers:leaky_agent"],
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "session failed" in done.stderr and "[secret: github-token]" in done.stderr
    assert secret not in done.stderr + done.stdout
    with SessionsRepository(db_path) as s:
        assert "[secret: github-token]" in (s.get(SID).last_error or "")
