"""After forget, no copy anywhere: every table, every index, free pages and the WAL on
SQLite (read as raw bytes of the .db, -wal and -shm files), and the table, index and TOAST
files of PostgreSQL (read from the server's data directory after a checkpoint). And a
forget racing writers and the passage index leaves no stale path or text in it."""

from __future__ import annotations

import glob
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from doctree.agent.runtime import MemoryAgentRuntime
from doctree.memory.erase import forget
from doctree.memory.passages import sync_passages
from doctree.memory.recall import hand_over
from doctree.memory.retrieval import retrieve
from doctree.sessions.repository import SessionsRepository
from doctree.sessions.sessions import AgentDescriptor
from doctree.sessions.transcripts import format_transcript
from doctree.store import encoding
from doctree.store.backends import is_database_url
from doctree.store.documents import DocumentsRepository
from doctree.store.runs import Runs

SECRET = "kohlqz"  # one lowercase word: every index keeps it (or its stem) as it is


def seed(repo: DocumentsRepository) -> None:
    """The secret in every place doctree keeps text: current and old bodies, a title, a
    path, a link and its reference, a deleted page, the passage index, a session's history,
    the memory agent's run and its conversation, the recall record (text and the context
    of the record next to it) and a run's error."""
    repo.write("main", "~/memory/people/alice", f"# Alice\nLikes tea.\nMet {SECRET} at the fair.\n")
    repo.write("main", "~/memory/people/alice", "# Alice\nLikes tea.\nWorks at Acme.\n")
    repo.write("main", f"~/memory/people/{SECRET}", "# K\nA friend.\n", title=f"Mr {SECRET}")
    repo.write("main", "~/memory/links", f"See [[~/memory/people/{SECRET}]].\n")
    repo.write("main", "~/memory/gone", f"{SECRET} in a page deleted later\n")
    repo.delete("main", "~/memory/gone")
    sessions = SessionsRepository(repo.conn)
    sessions.ensure(AgentDescriptor("agent", "main"), "s-1")
    sessions.append_history("s-1", "user", f"I met {SECRET} at the harbour fair yesterday.")
    sessions.append_history("s-1", "assistant", "Noted, the harbour fair.")
    records = sessions.history("s-1")
    hand_over(repo.conn, "main", "s-1", records)
    transcript = format_transcript(records, owner="main", session_id="s-1")
    MemoryAgentRuntime(repo, backend="offline").run("main", "s-1", transcript)
    retrieve(repo, "main", f"who is {SECRET}", budget_words=200)  # cuts the passages
    runs = Runs(repo.conn)
    failed = runs.start(owner="main", backend="offline", model="offline")
    runs.finish(failed, "failed", "error", error=f"a tool error quoting {SECRET}")


def sqlite_files(db: Path) -> dict[str, bytes]:
    return {
        p: Path(p).read_bytes() for p in (str(db), f"{db}-wal", f"{db}-shm") if Path(p).exists()
    }


def postgres_files(url: str) -> dict[str, bytes]:
    """The files of every table, index and TOAST table of the database, after a checkpoint
    (read from the server's data directory: the tests' server runs on this machine)."""
    from doctree.store.backends.postgres import connect

    conn = connect(url, migrate=False)
    try:
        conn.execute("CHECKPOINT")
        data = conn.execute("SHOW data_directory").fetchone()[0]
        rels = [
            r[0]
            for r in conn.execute(
                "SELECT pg_relation_filepath(c.oid) FROM pg_class c"
                " JOIN pg_namespace n ON n.oid = c.relnamespace"
                " WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')"
                " AND c.relkind IN ('r', 'i', 't') AND pg_relation_filepath(c.oid) IS NOT NULL"
            )
        ]
    finally:
        conn.close()
    files = {}
    for rel in rels:
        for p in glob.glob(os.path.join(data, rel)) + glob.glob(os.path.join(data, rel) + ".*"):
            files[p] = Path(p).read_bytes()
    assert files, "the database's files were found"
    return files


def files_of(db) -> dict[str, bytes]:
    return postgres_files(db) if is_database_url(db) else sqlite_files(db)


def holding(files: dict[str, bytes], text: str) -> list[str]:
    needles = {text.encode(), text.upper().encode(), text.encode("utf-16-le")}
    return sorted(p for p, data in files.items() if any(n in data for n in needles))


def test_after_forget_no_file_of_the_database_holds_the_text(db_path):
    repo = DocumentsRepository(db_path)
    seed(repo)
    assert holding(files_of(db_path), SECRET)  # the check can see it when it is there

    report = forget(repo, "main", SECRET)

    assert report.file_vacuumed, report.note
    assert report.recall_contexts >= 1  # the neighbour's context held it too
    assert holding(files_of(db_path), SECRET) == []
    repo.close()
    assert holding(files_of(db_path), SECRET) == []


def test_after_forget_no_row_of_any_table_holds_the_text(repo):
    seed(repo)

    forget(repo, "main", SECRET, vacuum_file=False)

    if is_database_url(repo.location):
        query = (
            "SELECT table_name FROM information_schema.tables"
            " WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
        )
    else:
        query = "SELECT name FROM sqlite_master WHERE type = 'table'"
    tables = [r[0] for r in repo.conn.execute(query)]
    assert {"document_references", "recall_passages", "passages"} <= set(tables)
    for table in tables:
        for row in repo.conn.execute(f"SELECT * FROM {table}"):
            assert SECRET not in repr(tuple(row)).lower(), table
    assert repo.search("main", SECRET) == []
    # Everything else stays: the lines around it, and the page that never held it.
    assert repo.read("main", "~/memory/people/alice", version=1).body == (
        "# Alice\nLikes tea.\nMet [forgotten] at the fair.\n"
    )


WRITER = textwrap.dedent(
    """
    import sys, time
    from doctree.errors import DoctreeError
    from doctree.memory.passages import sync_passages
    from doctree.store.documents import DocumentsRepository
    repo = DocumentsRepository(sys.argv[1])
    folder, stop = sys.argv[2], time.monotonic() + float(sys.argv[3])
    print("ready", flush=True)
    n = 0
    while time.monotonic() < stop:
        for i in range(12):
            try:  # the page may have been renamed by the forget: then it is not found
                repo.edit("main", f"{folder}/d{i}", f"round {n - 1}.", f"round {n}.")
            except DoctreeError:
                pass
            repo.write("main", f"~/memory/plain/p{i}", f"plain round {n}\\n")
        sync_passages(repo, "main")
        n += 1
    """
)


@pytest.mark.slow
def test_forget_racing_writers_and_the_passage_index_leaves_no_stale_path_or_text(
    db_path, tmp_path
):
    folder = f"~/memory/{SECRET}"
    repo = DocumentsRepository(db_path)
    for i in range(12):  # the text in the path of every page, in the body of some
        about = f" about {SECRET}" if i % 3 == 0 else ""
        repo.write("main", f"{folder}/d{i}", f"Page {i}{about}: round -1.\n")
    sync_passages(repo, "main")
    script = tmp_path / "writer.py"
    script.write_text(WRITER)
    writers = [
        subprocess.Popen(
            [sys.executable, str(script), str(db_path), folder, "4"],
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    try:
        for w in writers:
            assert w.stdout.readline().strip() == "ready"
        time.sleep(0.7)
        forget(repo, "main", SECRET, vacuum_file=False)
    finally:
        for w in writers:
            w.wait(timeout=180)
    assert [w.returncode for w in writers] == [0, 0]
    sync_passages(repo, "main")  # whatever the writers left pending is caught up now

    rows = repo.conn.execute(
        "SELECT p.path, p.text, d.path FROM passages p JOIN documents d ON d.id = p.document_id"
        " WHERE p.owner = 'main'"
    ).fetchall()
    assert rows
    for passage_path, stored, document_path in rows:
        assert passage_path == document_path  # no stale path
        assert SECRET not in passage_path + encoding.text_of(stored)
    assert all(SECRET not in d.path + d.body for d in repo.documents("main"))
    repo.close()


@pytest.mark.slow
def test_a_passage_index_update_that_read_before_forget_stores_nothing_stale(db_path):
    """The passage index reads documents outside its write transaction: one that read a
    page before a forget renamed it (in place, no new version) must not store the old path
    after it, nor mark the page caught up."""
    import threading

    repo = DocumentsRepository(db_path)
    with repo.transaction():  # enough history that the forget holds the lock a while
        for i in range(300 if is_database_url(db_path) else 800):
            for n in range(3):
                repo.write("main", f"~/memory/filler/f{i}", f"filler {i} edit {n}\n")
    sync_passages(repo, "main")
    for i in range(6):
        repo.write("main", f"~/memory/{SECRET}/d{i}", f"Page {i}.\n")  # pending, not cut
    indexer = DocumentsRepository(db_path)
    started = threading.Event()

    def run_forget() -> None:
        other = DocumentsRepository(db_path)
        started.set()
        forget(other, "main", SECRET, vacuum_file=False)
        other.close()

    thread = threading.Thread(target=run_forget)
    thread.start()
    started.wait()
    time.sleep(0.1)  # the forget holds the write lock now; the index reads what was there
    sync_passages(indexer, "main")
    thread.join(timeout=300)
    sync_passages(indexer, "main")

    rows = repo.conn.execute(
        "SELECT p.path, d.path FROM passages p JOIN documents d ON d.id = p.document_id"
        " WHERE p.owner = 'main' AND d.path NOT LIKE '~/memory/filler/%'"
    ).fetchall()
    assert len(rows) == 6
    assert all(p == d and SECRET not in p for p, d in rows), rows
    indexer.close()
    repo.close()


@pytest.mark.parametrize("read_here", [False, True])
def test_a_hand_over_of_records_read_before_forget_stores_them_as_forget_left_them(repo, read_here):
    """The worker reads a session's records, then hands them over: a forget between the two
    must not come back through the recall record, even when the caller says it read them in
    its write transaction (`read_here`) but has none open."""
    sessions = SessionsRepository(repo.conn)
    sessions.ensure(AgentDescriptor("agent", "main"), "s-1")
    sessions.append_history("s-1", "user", f"My locker code is {SECRET}, remember it.")
    sessions.append_history("s-1", "assistant", "I will remember the locker code.")
    records = sessions.history("s-1")  # what the worker read

    forget(repo, "main", SECRET, vacuum_file=False)
    assert not repo.conn.in_transaction
    hand_over(repo.conn, "main", "s-1", records, read_here=read_here)

    from doctree.store.recall import RecallIndex

    texts = [p.text for p in RecallIndex(repo.conn).passages("main")]
    assert texts == [
        "My locker code is [forgotten], remember it.",
        "I will remember the locker code.",
    ]
    assert RecallIndex(repo.conn).search("main", SECRET) == []
