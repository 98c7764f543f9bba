"""Forget against an attacker: the secret everywhere doctree keeps text, and a writer
process racing it. After forget and a checkpoint, the database file holds no copy: checked
on the file's bytes, so an index added later that keeps a copy fails here too."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from doctree.agent.runtime import MemoryAgentRuntime
from doctree.errors import DoctreeError
from doctree.memory.erase import forget
from doctree.memory.retrieval import retrieve
from doctree.sessions.repository import SessionsRepository
from doctree.sessions.sessions import AgentDescriptor
from doctree.sessions.transcripts import format_transcript
from doctree.store.documents import DocumentsRepository
from doctree.store.runs import Runs

SECRET = "zqxsecret42"  # one lowercase token: the search index stores it as it is


def _file_bytes(db_path) -> bytes:
    conn = sqlite3.connect(db_path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return db_path.read_bytes()


def _seed_everywhere(repo: DocumentsRepository) -> str:
    """The secret in bodies (current and old), a title, path segments, a declared link, a
    deleted document, a session transcript, the memory agent's own conversation and the
    passage index. Returns the source session id."""
    repo.write("main", "~/memory/people/alice", f"# Alice\nHer code is {SECRET}.\n")
    repo.write("main", "~/memory/people/alice", "# Alice\nLikes tea.\n")
    repo.write("main", f"~/memory/vault-{SECRET}/keys", "the keys page\n")
    repo.write("main", "~/memory/titled", "plain body\n", title=f"About {SECRET}")
    repo.write("main", "~/memory/linker", "links away\n", links=[f"~/memory/vault-{SECRET}/keys"])
    repo.write("main", "~/memory/gone", f"{SECRET} in a page deleted later\n")
    repo.delete("main", "~/memory/gone")
    sessions = SessionsRepository(repo.conn)
    sessions.ensure(AgentDescriptor("agent", "main"), "s-forget")
    sessions.append_history("s-forget", "user", f"remember the launch code {SECRET} please")
    sessions.append_history("s-forget", "assistant", "Noted.")
    sessions.append_history(
        "s-forget", "tool_call", {"id": "t1", "name": "note", "input": {"text": SECRET}}
    )
    records = sessions.history("s-forget")
    transcript = format_transcript(records, owner="main", session_id="s-forget")
    MemoryAgentRuntime(repo, backend="offline").run("main", "s-forget", transcript)
    retrieve(repo, "main", f"launch code {SECRET}", budget_words=200)  # builds passages
    runs = Runs(repo.conn)
    failed = runs.start(owner="main", backend="offline", model="offline")
    runs.finish(failed, "failed", "error", error=f"tool error quoting {SECRET}")
    return "s-forget"


@pytest.mark.sqlite_only
def test_forget_leaves_no_copy_in_the_database_file(db_path):
    repo = DocumentsRepository(db_path)
    session_id = _seed_everywhere(repo)
    assert SECRET.encode() in _file_bytes(db_path)
    memory_sessions = [
        s.session.id for s in SessionsRepository(repo.conn).list_sessions(agent="memory-agent:main")
    ]
    assert memory_sessions, "the run kept the memory agent's conversation"

    report = forget(repo, "main", SECRET)

    assert report.file_vacuumed
    assert report.rewritten >= 2
    assert report.history_records >= 2
    # Every door that shows text shows it no more.
    assert repo.search("main", SECRET) == []
    assert all(SECRET not in d.path + d.title + d.body for d in repo.documents("main"))
    sessions = SessionsRepository(repo.conn)
    for sid in [session_id, *memory_sessions]:
        for record in sessions.history(sid):
            assert SECRET not in str(record.content)
    # The tree is still one tree: the renamed folder kept its child, every parent is there.
    live = {d.path for d in repo.documents("main")}
    assert any("/vault-forgotten-" in p and p.endswith("/keys") for p in live)
    assert all(p.rsplit("/", 1)[0] in live for p in live if p.count("/") > 1)
    repo.close()
    data = _file_bytes(db_path)
    assert SECRET.encode() not in data
    assert SECRET.upper().encode() not in data


def test_forget_of_an_old_version_leaves_no_copy_in_redaction_records(repo):
    repo.write("main", "~/n", f"v1 {SECRET}\n")
    repo.write("main", "~/n", f"v2 {SECRET} again\n")
    repo.write("main", "~/n", "v3 clean\n")

    forget(repo, "main", SECRET, vacuum_file=False)

    for v in repo.history("main", "~/n"):
        assert SECRET not in (v.body or "") + v.title + v.path
    assert repo.read("main", "~/n").body == "v3 clean\n"


def test_redacting_an_old_version_then_its_content_in_the_current_one_leaves_no_copy(repo):
    repo.write("main", "~/n", "first\n")
    repo.write("main", "~/n", f"second {SECRET}\n")
    repo.erase_version("main", "~/n", 1)  # records the redaction with the current body
    repo.erase_version("main", "~/n", 2)

    assert all(SECRET not in (v.body or "") for v in repo.history("main", "~/n"))
    assert SECRET not in repo.read("main", "~/n").body


WRITER = textwrap.dedent(
    """
    import sys, time
    from doctree.store.documents import DocumentsRepository
    repo = DocumentsRepository(sys.argv[1])
    stop = time.monotonic() + float(sys.argv[2])
    n = 0
    print("ready", flush=True)
    while time.monotonic() < stop:
        for i in range(40):
            repo.write("main", f"~/memory/d{i}", f"round {n}: the code is {sys.argv[3]}\\n")
        n += 1
    """
)


@pytest.mark.slow
def test_forget_racing_a_writer_process_erases_every_version_that_existed(db_path, tmp_path):
    repo = DocumentsRepository(db_path)
    for i in range(40):
        repo.write("main", f"~/memory/d{i}", f"seed: the code is {SECRET}\n")
    script = tmp_path / "writer.py"
    script.write_text(WRITER)
    writer = subprocess.Popen(
        [sys.executable, str(script), str(db_path), "4", SECRET],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert writer.stdout.readline().strip() == "ready"
        time.sleep(0.5)
        report = forget(repo, "main", SECRET, vacuum_file=False)
    finally:
        writer.wait(timeout=120)
    assert writer.returncode == 0
    assert report.rewritten > 40
    for v in repo.iter_versions("main"):  # every stored version, decoded
        if v.id <= report.last_version_id or v.operation == "redacted":
            assert SECRET not in (v.body or ""), (v.id, v.document_id, v.version, v.operation)
    repo.close()


def test_forget_under_a_path_keeps_the_tree_whole_outside_it(repo):
    repo.write("main", "~/a/x", f"note {SECRET}\n")
    repo.move("main", "~/a/x", f"~/{SECRET}/x")  # it lived under ~/a, now lives elsewhere
    repo.write("main", "~/a/y", "plain\n")

    forget(repo, "main", SECRET, under="~/a", vacuum_file=False)

    doc = repo.read_by_id(repo.history("main", f"~/{SECRET}/x")[0].document_id)
    parent = repo.get("main", f"~/{SECRET}")
    assert parent is not None and doc.path.startswith(parent.path + "/")  # still its child
    assert SECRET not in doc.body
    assert all(SECRET not in (v.body or "") for v in repo.history("main", doc.path))


_ops = st.lists(
    st.tuples(
        st.sampled_from(["write", "write", "move", "delete", "title"]),
        st.lists(st.sampled_from(["a", "b", f"s-{SECRET}", "c"]), min_size=1, max_size=3),
        st.lists(st.sampled_from(["a", "b", f"s-{SECRET}", "c"]), min_size=1, max_size=3),
        st.sampled_from(["plain", f"holds {SECRET}", f"[[~/{SECRET}]] link"]),
    ),
    min_size=1,
    max_size=12,
)


@pytest.mark.slow
@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(ops=_ops)
def test_after_any_history_forget_leaves_no_copy_and_one_tree(tmp_path_factory, ops):
    db = tmp_path_factory.mktemp("forget") / "f.db"
    repo = DocumentsRepository(db)
    for op, segs, segs2, body in ops:
        path, other = "~/" + "/".join(segs), "~/" + "/".join(segs2)
        try:
            if op == "write":
                repo.write("main", path, body + "\n")
            elif op == "title":
                repo.write("main", path, "t\n", title=f"T {body}")
            elif op == "move":
                repo.move("main", path, other)
            else:
                repo.delete("main", path, recursive=True)
        except DoctreeError:
            pass
    forget(repo, "main", SECRET)
    for v in repo.log("main", limit=None):
        assert SECRET not in (v.body or "") + v.title + v.path + " ".join(v.links)
    live = {d.path for d in repo.documents("main")}
    assert all(p.rsplit("/", 1)[0] in live for p in live if p.count("/") > 1)
    repo.close()
    assert SECRET.encode() not in _file_bytes(db)
