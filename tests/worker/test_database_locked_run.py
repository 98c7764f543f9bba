"""A memory agent run whose database is locked by another process past the busy timeout in
the middle of the run: the run fails (what it wrote is put back) and its session stays
pending with no failure counted, so the next attempt writes what the first could not; a run
never completes with a page left unwritten. The lock is taken by a real second process, at
the moment the run begins writing a page."""

from __future__ import annotations

import subprocess
import sys

import pytest

from doctree.compose import Settings, build_handler, build_worker, open_repository
from doctree.errors import DatabaseUnavailableError
from doctree.interop.tools import MemoryTools
from doctree.sessions.repository import SessionsRepository
from doctree.store.documents import DocumentsRepository
from doctree.store.runs import Runs

pytestmark = [pytest.mark.sqlite_only, pytest.mark.slow]

PAGE = "~/memory/people/dr-okafor"
BUSY_MS = 1000  # the busy timeout of the test's connections
HELD = 1.5  # seconds the other process holds the lock: past one busy timeout, not two, so
# the page's write fails and the run's failure is then recorded

#: Takes the write lock when told to, says so, holds it `sys.argv[2]` seconds, lets go.
HOLDER = """
import sqlite3, sys, time
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
sys.stdin.readline()
conn.execute("BEGIN IMMEDIATE")
print("held", flush=True)
time.sleep(float(sys.argv[2]))
conn.execute("COMMIT")
"""


class LockHolder:
    """A second process that takes the database's write lock when `take` is called."""

    def __init__(self, db, seconds: float):
        self.proc = subprocess.Popen(
            [sys.executable, "-c", HOLDER, str(db), str(seconds)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.taken = False

    def take(self) -> None:
        self.taken = True
        self.proc.stdin.write("go\n")
        self.proc.stdin.flush()
        assert self.proc.stdout.readline().strip() == "held"

    def wait(self) -> None:
        self.proc.wait(timeout=60)


def lock_at_the_first_write_of(repo: DocumentsRepository, holder: LockHolder, path: str):
    """Have `holder` take the lock as `repo` begins the write transaction that follows its
    first look at `path` (a write of that page)."""
    seen = []

    def trace(sql: str) -> None:
        if f"path = '{path}'" in sql:
            seen.append(sql)
        elif seen and not holder.taken and sql.startswith("BEGIN IMMEDIATE"):
            holder.take()

    repo.conn.set_trace_callback(trace)


TRANSCRIPT = [
    ("user", "I have a dentist appointment next Tuesday at 10:00 with Dr. Okafor."),
    ("assistant", "Noted: Dr. Okafor, next Tuesday at 10:00."),
]


@pytest.fixture
def locked_db(tmp_path, monkeypatch):
    monkeypatch.setenv("DOCTREE_BUSY_TIMEOUT_MS", str(BUSY_MS))
    db = tmp_path / "memory.db"
    with SessionsRepository(db) as sessions:
        sessions.create("main", "s-1")
        for kind, text in TRANSCRIPT:
            sessions.append_history("s-1", kind, text, time="2031-03-10T09:00:00Z")
        sessions.sleep("s-1")
    return db


def test_a_run_whose_page_write_finds_the_database_locked_fails_and_the_session_is_retried(
    locked_db,
):
    settings = Settings(db=str(locked_db), owner="main", backend="offline")
    repo = open_repository(settings)
    holder = LockHolder(locked_db, seconds=HELD)
    lock_at_the_first_write_of(repo, holder, PAGE)
    worker = build_worker(settings, build_handler(repo, settings), compact=False)
    try:
        with pytest.raises(DatabaseUnavailableError, match="database is locked"):
            worker.tick()  # (`worker.run` waits for the database, then ticks again)
        holder.wait()
        repo.conn.set_trace_callback(None)

        assert holder.taken
        with SessionsRepository(locked_db) as sessions:
            s = sessions.get("s-1")  # pending, with no failure counted against it
            assert (s.processed_until, s.failures, s.last_error) == (None, 0, None)
        run = Runs(repo.conn).list(owner="main")[0]
        assert run.status == "failed" and f"document_write of '{PAGE}'" in (run.error or "")
        assert repo.documents("main") == []  # what the run wrote before is put back

        second = worker.tick()  # the database is back: the session is read again, whole

        assert second.processed == ["s-1"]
        assert "Okafor" in repo.read("main", PAGE).body
    finally:
        worker.close()
        repo.close()


def test_a_memory_tool_call_the_locked_database_cannot_serve_is_raised_not_answered(
    locked_db,
):
    repo = DocumentsRepository(locked_db)
    holder = LockHolder(locked_db, seconds=HELD)
    tools = MemoryTools(repo, "main", session_id="s-1")
    try:
        holder.take()
        with pytest.raises(DatabaseUnavailableError, match="database is locked") as e:
            tools.call("document_write", {"path": "~/memory/notes", "body": "kept"})
        assert "document_write of '~/memory/notes'" in str(e.value)
        holder.wait()
        assert repo.get("main", "~/memory/notes") is None
        assert not tools.call("document_write", {"path": "~/memory/notes", "body": "kept"}).is_error
    finally:
        repo.close()


def runs_listed(db) -> list[dict]:
    """`doctree runs --json` as another process reads them."""
    import json

    proc = subprocess.run(
        [sys.executable, "-m", "doctree", "--db", str(db), "--owner", "main", "runs", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_a_run_whose_failure_finds_the_database_locked_too_ends_failed_not_running(locked_db):
    """The lock outlasts two busy timeouts: the page's write fails, and so does the write
    recording the run's failure. The run is not left `running` while this process runs it no
    more: it ends failed (what it wrote put back) at the database's first write, before the
    worker claims anything, and the session is handed over again with no failure counted."""
    settings = Settings(db=str(locked_db), owner="main", backend="offline")
    repo = open_repository(settings)
    holder = LockHolder(locked_db, seconds=2.5)  # past two busy timeouts, not three
    lock_at_the_first_write_of(repo, holder, PAGE)
    worker = build_worker(settings, build_handler(repo, settings), compact=False)
    try:
        with pytest.raises(DatabaseUnavailableError, match="database is locked"):
            worker.tick()  # (`worker.run` waits for the database, then ticks again)
        assert runs_listed(locked_db)[0]["status"] == "running"  # no write could end it yet
        holder.wait()
        repo.conn.set_trace_callback(None)
        assert holder.taken

        second = worker.tick()

        listed = runs_listed(locked_db)
        assert [r["status"] for r in listed if r["status"] == "running"] == []
        first = min(listed, key=lambda r: r["id"])
        assert first["status"] == "failed" and "database is locked" in (first["error"] or "")
        assert first["reverted_at"] is not None
        assert second.processed == ["s-1"]
        with SessionsRepository(locked_db) as sessions:
            assert sessions.get("s-1").failures == 0
        assert "Okafor" in repo.read("main", PAGE).body
    finally:
        worker.close()
        repo.close()
