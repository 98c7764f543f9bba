"""The inspector serves requests side by side: a page that waits on the database (here a
write held by another process's lock) does not hold up the pages after it. A real
`doctree serve` process on a free loopback port, on SQLite and on PostgreSQL."""

from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from web_demo import free_port

from doctree.store.backends import is_database_url
from doctree.store.documents import DocumentsRepository

DOC = "~/memory/a"
HELD_FOR = 60_000
"""The server's busy timeout (ms): a write waiting on the held lock waits this long."""
ANSWER_WITHIN = 10.0
"""Seconds a page has to answer while the other request is held; well under `HELD_FOR`,
so a server that blocks until the held request gives up cannot pass."""


def request(url: str, data: dict[str, str] | None = None, timeout: float = 90) -> tuple[int, str]:
    body = urllib.parse.urlencode(data).encode() if data is not None else None
    req = urllib.request.Request(url, data=body, method="POST" if data is not None else "GET")
    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(req, timeout=timeout) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


@contextmanager
def serving(db: Any) -> Iterator[str]:
    port = free_port()
    env = {**os.environ, "DOCTREE_BUSY_TIMEOUT_MS": str(HELD_FOR)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "doctree", "--db", str(db), "serve", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    try:
        while True:
            try:
                request(base + "/tree", timeout=2)
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    proc.kill()
                    raise RuntimeError(proc.stderr.read().decode()) from None
                time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@contextmanager
def write_lock_held(db: Any) -> Iterator[Any]:
    """Another process's hold on the database's write lock, for as long as the block runs;
    yields a function that waits until a write of the server's is seen waiting for it (on
    PostgreSQL, where the server says so; SQLite tells no one, so a second is given)."""
    if is_database_url(db):
        import psycopg

        from doctree.store.backends.postgres import WRITE_LOCK

        with psycopg.connect(str(db), autocommit=True) as holder:
            holder.execute("SELECT pg_advisory_lock(%s)", (WRITE_LOCK,))

            def wait_for_waiter() -> None:
                deadline = time.monotonic() + 30
                while time.monotonic() < deadline:
                    row = holder.execute(
                        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                        " AND query LIKE %s AND pid <> pg_backend_pid()",
                        ("%pg_advisory_xact_lock%",),
                    ).fetchone()
                    if row and row[0] > 0:
                        return
                    time.sleep(0.05)
                raise AssertionError("the server's write never waited on the lock")

            try:
                yield wait_for_waiter
            finally:
                holder.execute("SELECT pg_advisory_unlock(%s)", (WRITE_LOCK,))
        return
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        yield lambda: time.sleep(1.0)
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_a_request_waiting_on_the_database_does_not_hold_up_other_pages(db_path):
    with DocumentsRepository(db_path) as repo:
        repo.write("main", DOC, "# A\nfirst\n")
        repo.write("main", DOC, "# A\nsecond\n")
    with serving(db_path) as base:
        page = request(base + "/history/" + DOC)[1]
        csrf = re.search(r'name=csrf value="([^"]+)"', page).group(1)
        posted: dict[str, Any] = {}

        def restore() -> None:
            posted["answer"] = request(
                base + "/restore/" + DOC, {"csrf": csrf, "version": "1"}, timeout=HELD_FOR / 1000
            )

        writer = threading.Thread(target=restore)
        with write_lock_held(db_path) as wait_for_waiter:
            writer.start()
            wait_for_waiter()
            assert writer.is_alive()  # the restore is held on the lock ...
            started = time.monotonic()
            status, tree = request(base + "/tree", timeout=ANSWER_WITHIN)
            took = time.monotonic() - started
            status_doc, doc = request(base + "/doc/" + DOC, timeout=ANSWER_WITHIN)
            assert writer.is_alive()  # ... and still held while the pages answered
        writer.join(timeout=60)
    assert status == 200 and "memory" in tree, tree[:300]
    assert status_doc == 200 and "second" in doc
    assert took < ANSWER_WITHIN
    assert posted["answer"][0] == 303, posted["answer"][1][:300]  # the held write went through
    with DocumentsRepository(db_path) as repo:
        now = repo.read("main", DOC)
        assert now.version == 3 and now.body == "# A\nfirst\n"
