"""The database going away under running processes: a PostgreSQL server of this module's
own, stopped and started again under real `doctree worker` and `doctree serve`
subprocesses and under writes in flight; a server unreachable at start; a SQLite file
deleted under a running worker.

The reconnect times measured are printed (`pytest -s` shows them)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from email.message import Message
from pathlib import Path

import pytest

from doctree.errors import DatabaseGoneError, DatabaseUnavailableError, NotFoundError
from doctree.sessions.repository import SessionsRepository
from doctree.store.documents import Actor, DocumentsRepository, Provenance
from tests.pg_server import Server

pytestmark = pytest.mark.slow

ACTOR = Actor("user", "test")


@pytest.fixture(scope="module")
def server():
    """A PostgreSQL server for this module alone: the tests stop and start it."""
    s = Server()
    if not s.start():
        pytest.skip(f"PostgreSQL: {s.why_not}")
    yield s
    s.stop()


def wait_for(predicate, timeout=30.0, what="condition"):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what() if callable(what) else what}")


def doctree(*args: str) -> list[str]:
    return [sys.executable, "-m", "doctree", *args]


def add_session(url: str, sid: str) -> None:
    """A session with six records: the sixth invalidates it, so a worker picks it up."""
    sessions = SessionsRepository(url)
    try:
        sessions.create("main", sid)
        for j in range(6):
            sessions.append_history(sid, "user", f"{sid} message {j}")
    finally:
        sessions.close()


def handed_over(jobs, sid: str) -> bool:
    if not jobs.exists():
        return False
    return any(json.loads(line)["session_id"] == sid for line in jobs.read_text().splitlines())


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(port: int, path: str) -> tuple[int, Message, str]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=30) as r:
            return r.status, r.headers, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read().decode()


# -- PostgreSQL: the worker -----------------------------------------------------------------


@pytest.mark.postgres
def test_worker_waits_out_a_stopped_server_and_hands_over_what_came_after(server, tmp_path):
    url = server.new_database()
    jobs = tmp_path / "jobs.jsonl"
    log = tmp_path / "worker.err"
    add_session(url, "before")
    with log.open("w") as sink:
        proc = subprocess.Popen(
            doctree("--db", url, "worker", "--interval", "0.2", "--backend", f"jobs:{jobs}"),
            stdout=subprocess.DEVNULL,
            stderr=sink,
            text=True,
        )
    try:
        wait_for(lambda: handed_over(jobs, "before"), what="the first hand-over")
        server.halt()
        # Down longer than a statement waits to reconnect (2 s): the worker's ticks fail, and
        # its loop tries again, backing off. (The session in hand may still be finishing when
        # the server stops, its after-steps each waiting out a reconnect first: so wait for
        # the loop's own failed ticks, not for a fixed time.)
        wait_for(
            lambda: len(re.findall("database unavailable attempt=", log.read_text())) >= 2,
            timeout=60.0,
            what=lambda: f"two failed ticks; the worker said:\n{log.read_text()}",
        )
        assert proc.poll() is None, "the worker exited while the server was down"
        server.resume()
        back = time.monotonic()
        add_session(url, "after")
        wait_for(lambda: handed_over(jobs, "after"), what="the hand-over after the restart")
        print(f"\nworker: next hand-over {time.monotonic() - back:.2f}s after the server was back")
        assert proc.poll() is None
    finally:
        proc.terminate()
        proc.wait(timeout=60)
    err = log.read_text()
    assert proc.returncode == 0, err
    assert "Traceback" not in err, err
    attempts = re.findall(r"database unavailable attempt=(\d+) retry_in=([\d.]+)s", err)
    assert len(attempts) >= 2, err  # one line per attempt, backing off
    assert [int(n) for n, _ in attempts] == list(range(1, len(attempts) + 1))
    assert max(float(w) for _, w in attempts) <= 0.2  # never longer than the interval
    assert re.search(r"database available again attempts=\d+ after=[\d.]+s", err), err
    assert re.search(r"database reconnect failed attempt=1 .*retry_in=", err), err
    assert "database reconnected" in err


# -- PostgreSQL: the inspector --------------------------------------------------------------


@pytest.mark.postgres
def test_serve_answers_503_while_the_server_is_down_and_recovers_on_its_own(server):
    url = server.new_database()
    with DocumentsRepository(url) as repo:
        repo.write(
            "main", "~/memory/alice", "# Alice\n\nLikes tea.\n", provenance=Provenance(ACTOR)
        )
    port = free_port()
    proc = subprocess.Popen(
        doctree("--db", url, "serve", "--port", str(port)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert "inspector on" in proc.stderr.readline()
        assert get(port, "/doc/~/memory/alice")[0] == 200

        # A restart between two requests: the next request reconnects, no error shown.
        server.halt()
        server.resume()
        back = time.monotonic()
        status, _, body = get(port, "/doc/~/memory/alice")
        print(f"\nserve: first page after a restart in {time.monotonic() - back:.2f}s")
        assert status == 200 and "Likes tea." in body

        # Down: 503 with Retry-After, quickly, page after page.
        server.halt()
        for _ in range(2):
            asked = time.monotonic()
            status, headers, body = get(port, "/doc/~/memory/alice")
            assert status == 503, body
            assert headers.get("Retry-After") == "2"
            assert "Database unavailable" in body and "try again" in body
            assert time.monotonic() - asked < 10
        server.resume()
        back = time.monotonic()
        status, _, body = get(port, "/tree")
        print(f"serve: first page after the server came back in {time.monotonic() - back:.2f}s")
        assert status == 200 and "alice" in body
    finally:
        proc.terminate()
        out, err = proc.communicate(timeout=60)
    assert "Traceback" not in err, err
    assert re.search(r"database reconnect failed attempt=1 .*retry_in=", err), err
    assert "database reconnected" in err


# -- PostgreSQL: what was acknowledged ------------------------------------------------------


@pytest.mark.postgres
def test_writes_acknowledged_before_a_restart_are_kept_and_none_is_half_stored(server):
    url = server.new_database()
    repo = DocumentsRepository(url)
    acked: dict[str, str] = {}
    failed: dict[str, str] = {}
    errors: list[str] = []
    done = threading.Event()

    def writer() -> None:
        i = 0
        while not done.is_set():
            path, body = f"~/notes/n{i}", f"# Note {i}\n\n" + f"line of note {i}\n" * 40
            try:
                repo.write("main", path, body, provenance=Provenance(ACTOR))
                acked[path] = body
            except (DatabaseUnavailableError, sqlite3.Error) as e:
                failed[path] = body
                errors.append(f"{type(e).__name__}: {e}")
            i += 1

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        wait_for(lambda: len(acked) >= 20, what="writes before the restart")
        server.halt()
        time.sleep(0.5)
        server.resume()
        after = len(acked)
        wait_for(
            lambda: len(acked) >= after + 20,
            what=lambda: (
                f"writes after the restart ({len(acked) - after} acknowledged,"
                f" {len(failed)} failed, writer alive: {thread.is_alive()},"
                f" last error: {errors[-1] if errors else None})"
            ),
        )
    finally:
        done.set()
        thread.join(timeout=60)
        repo.close()
    print(f"\nwrites: {len(acked)} acknowledged, {len(failed)} reported failed")
    with DocumentsRepository(url) as check:
        for path, body in acked.items():
            assert check.read("main", path).body == body, path
        for path, body in failed.items():  # stored whole, or not at all
            with contextlib.suppress(NotFoundError):
                assert check.read("main", path).body == body, path
        stored = {d.path for d in check.children("main", "~/notes")}
        assert stored <= set(acked) | set(failed)
        assert set(acked) <= stored


@pytest.mark.postgres
def test_a_transaction_open_when_the_connection_is_lost_is_rolled_back_whole(server):
    url = server.new_database()
    repo = DocumentsRepository(url)
    try:
        with pytest.raises(DatabaseUnavailableError, match="rolled back"), repo.transaction():
            repo.write("main", "~/t/a", "first\n", provenance=Provenance(ACTOR))
            server.halt()
            server.resume()
            repo.write("main", "~/t/b", "second\n", provenance=Provenance(ACTOR))
        assert not repo.exists("main", "~/t/a")  # read on a new connection
        assert repo.write("main", "~/t/c", "third\n", provenance=Provenance(ACTOR)).version == 1
    finally:
        repo.close()


# -- unreachable at start -------------------------------------------------------------------


SMALL_TALK = str(
    Path(__file__).resolve().parents[1] / "fixtures" / "transcripts" / "10-small-talk.md"
)


@pytest.mark.parametrize(
    "command", [["show"], ["worker", "--once"], ["serve", "--port", "0"], ["replay", SMALL_TALK]]
)
def test_a_server_unreachable_at_start_is_one_line_and_exit_1(tmp_path, command):
    url = f"postgresql://nobody:pw@/doctree?host={tmp_path}"  # no server listens there
    result = subprocess.run(doctree("--db", url, *command), capture_output=True, text=True)
    assert result.returncode == 1, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert "cannot connect" in lines[0] and "nobody:***@" in lines[0] and "pw@" not in lines[0]


# -- SQLite: the file deleted under a running process ---------------------------------------


def test_a_database_file_deleted_under_the_worker_stops_it_with_one_line(tmp_path):
    db = tmp_path / "doctree.db"
    jobs = tmp_path / "jobs.jsonl"
    add_session(str(db), "s1")
    proc = subprocess.Popen(
        doctree("--db", str(db), "worker", "--interval", "0.1", "--backend", f"jobs:{jobs}"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    wait_for(lambda: handed_over(jobs, "s1"), what="the first hand-over")
    for name in ("doctree.db", "doctree.db-wal", "doctree.db-shm"):
        (tmp_path / name).unlink(missing_ok=True)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 1, err
    assert "Traceback" not in err, err
    assert err.strip().splitlines()[-1].startswith("error: database ")
    assert "was deleted or moved while in use" in err
    assert not db.exists()  # nothing was created in its place


def test_a_write_to_a_replaced_database_file_is_refused(tmp_path):
    db = tmp_path / "doctree.db"
    repo = DocumentsRepository(db)
    repo.write("main", "~/a", "one\n", provenance=Provenance(ACTOR))
    os.replace(db, tmp_path / "moved.db")
    DocumentsRepository(db).close()  # another database now at the path
    with pytest.raises(DatabaseGoneError, match="replaced by another"):
        repo.write("main", "~/b", "two\n", provenance=Provenance(ACTOR))
    repo.close()
    with DocumentsRepository(tmp_path / "moved.db") as moved:
        assert not moved.exists("main", "~/b")


# -- SQLite: a lock held past the busy timeout ----------------------------------------------


def test_serve_answers_503_to_a_write_while_another_process_holds_the_lock(tmp_path, monkeypatch):
    from starlette.testclient import TestClient

    from doctree.store.runs import Runs
    from doctree.web.app import create_app

    monkeypatch.setenv("DOCTREE_BUSY_TIMEOUT_MS", "200")
    db = tmp_path / "doctree.db"
    with DocumentsRepository(db) as repo:
        runs = Runs(repo.conn)
        run_id = runs.start(owner="main", backend="offline", model="offline")
        repo.write("main", "~/a", "written by the run\n", provenance=Provenance(actor=Actor("memory-agent", "main"), run=run_id))  # fmt: skip
        runs.finish(run_id, "completed", "end_turn")
    with TestClient(create_app(str(db), "main"), base_url="http://127.0.0.1:8765") as client:
        page = client.get(f"/runs/{run_id}").text
        csrf = re.search(r'name=csrf value="([^"]+)"', page).group(1)
        holder = sqlite3.connect(db, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # another process's write transaction
        try:
            refused = client.post(f"/runs/{run_id}/revert", data={"csrf": csrf})
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        assert refused.status_code == 503, refused.text[:500]
        assert refused.headers["Retry-After"] == "2"
        assert "database is locked" in refused.text and "Traceback" not in refused.text
        with DocumentsRepository(db) as repo:
            assert repo.read("main", "~/a").body == "written by the run\n"  # nothing changed
        done = client.post(f"/runs/{run_id}/revert", data={"csrf": csrf})
        assert done.status_code == 200 and "put back" in done.text


@pytest.mark.postgres
def test_a_read_snapshot_cut_by_a_restart_fails_and_the_next_read_works(server):
    url = server.new_database()
    with DocumentsRepository(url) as repo:
        repo.write("main", "~/a", "one\n", provenance=Provenance(ACTOR))
        with pytest.raises(DatabaseUnavailableError), repo.snapshot():
            assert repo.read("main", "~/a").body == "one\n"
            server.halt()
            server.resume()
            repo.read("main", "~/a")
        assert repo.read("main", "~/a").body == "one\n"
        assert repo.write("main", "~/b", "two\n", provenance=Provenance(ACTOR)).version == 1


@pytest.mark.postgres
def test_a_commit_cut_off_by_a_lost_connection_is_resolved_by_asking_the_server(server):
    """The connection is ended just before COMMIT: the server rolled the transaction back,
    and the COMMIT, after asking the server (txid_status), says so rather than 'unknown'."""
    import psycopg

    url = server.new_database()
    repo = DocumentsRepository(url)
    try:
        with (
            psycopg.connect(url, autocommit=True) as admin,
            pytest.raises(DatabaseUnavailableError) as lost,
            repo.transaction(),
        ):
            repo.write("main", "~/a", "in flight\n", provenance=Provenance(ACTOR))
            pid = repo.conn.execute("SELECT pg_backend_pid()").fetchone()[0]
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        assert "COMMIT did not complete" in str(lost.value)
        assert "nothing of it is stored" in str(lost.value)
        assert not repo.exists("main", "~/a")
        assert repo.write("main", "~/b", "after\n", provenance=Provenance(ACTOR)).version == 1
    finally:
        repo.close()


@pytest.mark.postgres
def test_a_connection_left_inside_a_batch_it_cannot_end_is_opened_again(postgres_url):
    """A server lost in the middle of a batch can leave the client's connection in pipeline
    mode it cannot leave ("cannot exit pipeline mode while busy"): neither closed nor
    broken, it failed every statement after. It is now taken for lost and opened again."""
    from doctree.store.backends.postgres import connect

    conn = connect(postgres_url)
    try:
        stuck = conn._raw.pipeline()
        stuck.__enter__()  # a batch the connection never left
        before = conn.reconnects
        assert conn.execute("SELECT 1").fetchone()[0] == 1
        assert conn.reconnects == before + 1
    finally:
        conn.close()
