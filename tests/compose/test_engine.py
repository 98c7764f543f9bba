"""The engine-facing facade: the acceptance checks of seed 003 task 7, through `Engine`."""

from __future__ import annotations

import json
import time

import pytest

from doctree.engine import Engine
from doctree.errors import UserError
from doctree.sessions.transcripts import parse_transcript


class Collect:
    def __init__(self, during=None):
        self.jobs = []
        self.during = during

    def handle(self, job):
        self.jobs.append(job)
        if self.during:
            self.during(job)


@pytest.fixture
def engine(db_path):
    e = Engine(db_path, handler=Collect(), interval=0.05)
    yield e
    e.close()


def _wait(predicate, timeout=5.0):
    end = time.time() + timeout
    while time.time() < end:
        if predicate():
            return True
        time.sleep(0.02)
    return False


def test_session_is_invalidated_on_agent_sleep(engine):
    s = engine.start_session("main")
    last = engine.append(s.id, "user", "hello")
    engine.sleep(s.id)
    assert engine.session(s.id).invalidated_at == last


def test_session_is_invalidated_after_more_than_five_unprocessed_records(engine):
    s = engine.start_session("main")
    ids = [engine.append(s.id, "user", f"m{i}") for i in range(6)]
    assert engine.session(s.id).invalidated_at == ids[-1]


def test_five_records_leave_the_session_open(engine):
    s = engine.start_session("main")
    for i in range(5):
        engine.append(s.id, "user", f"m{i}")
    assert engine.session(s.id).invalidated_at is None


def test_session_is_invalidated_on_context_compaction(engine):
    s = engine.start_session("main")
    last = engine.append(s.id, "user", "long context")
    new = engine.compact_context(s.id)
    assert engine.session(s.id).invalidated_at == last
    assert engine.current_session("main") == new


def test_session_is_invalidated_on_reset(engine):
    s = engine.start_session("main")
    last = engine.append(s.id, "user", "start over")
    engine.reset(s.id)
    assert engine.session(s.id).invalidated_at == last


def test_reset_agent_without_a_session_only_starts_one(engine):
    new = engine.reset_agent("main", new_session_id="first")
    assert new.id == "first" and new.invalidated_at is None


def test_reset_agent_invalidates_its_current_session(engine):
    s = engine.start_session("main")
    last = engine.append(s.id, "user", "x")
    engine.reset_agent("main")
    assert engine.session(s.id).invalidated_at == last


@pytest.mark.parametrize("point", ["records", "sleep", "reset", "context-compaction"])
def test_memory_agent_sessions_are_exempt_at_every_point(engine, point):
    s = engine.start_session("memory-agent:main")
    for i in range(8 if point == "records" else 2):
        engine.append(s.id, "assistant", f"note {i}")
    if point == "sleep":
        engine.sleep(s.id)
    elif point == "reset":
        engine.reset(s.id)
    elif point == "context-compaction":
        engine.compact_context(s.id)
    assert engine.session(s.id).invalidated_at is None


def test_worker_polls_invalidated_sessions_and_clears_the_mark(engine):
    s = engine.start_session("main")
    last = engine.append(s.id, "user", "hello")
    engine.sleep(s.id)
    engine.start_worker()
    assert _wait(lambda: engine.session(s.id).invalidated_at is None)
    assert engine.session(s.id).processed_until == last
    engine.stop_worker()


def test_cas_keeps_the_mark_when_messages_arrive_during_processing(db_path):
    with Engine(db_path) as engine:
        s = engine.start_session("main")
        for i in range(6):
            engine.append(s.id, "user", f"m{i}")
        late = []
        engine.handler = Collect(
            during=lambda job: late.append(engine.append(s.id, "user", "late"))
        )
        engine.run_worker_once()
        assert engine.session(s.id).invalidated_at == late[0]


def test_in_process_worker_with_a_named_handler(db_path, tmp_path):
    out = tmp_path / "jobs.jsonl"
    with Engine(db_path, handler=f"jobs:{out}", interval=0.05) as engine:
        s = engine.start_session("main", "s1")
        engine.append(s.id, "user", "hi")
        engine.sleep(s.id)
        engine.start_worker()
        assert _wait(lambda: out.exists() and out.read_text())
        engine.stop_worker()
    assert json.loads(out.read_text())["session_id"] == "s1"


def test_close_stops_the_worker(db_path):
    engine = Engine(db_path, handler=Collect(), interval=0.05)
    worker = engine.start_worker()
    engine.close()
    assert not worker.running


def test_handed_over_transcript_names_agent_and_session(engine):
    s = engine.start_session("bob", "s-bob")
    engine.append(s.id, "user", "Bob moved to Berlin.", time="2026-11-20T09:00:00Z")
    engine.append(
        s.id,
        "tool_call",
        {"id": "t1", "name": "note", "input": {"x": 1}},
        time="2026-11-20T09:00:01Z",
    )
    engine.sleep(s.id)
    engine.run_worker_once()
    t = parse_transcript(engine.handler.jobs[0].transcript)
    assert (t.owner, t.session_id, t.started, t.ended) == (
        "bob",
        "s-bob",
        "2026-11-20T09:00:00Z",
        "2026-11-20T09:00:01Z",
    )


def test_worker_process_needs_a_handler_name(engine):
    with pytest.raises(UserError, match="handler by name"):
        engine.worker_command()


def test_worker_command_runs_doctree_worker_on_the_database(db_path):
    with Engine(db_path, handler="offline", batch=3) as engine:
        cmd = engine.worker_command(once=True)
    assert cmd[1:] == [
        "-m",
        "doctree",
        "--db",
        str(db_path),
        "worker",
        "--interval",
        "30.0",
        "--batch",
        "3",
        "--backend",
        "offline",
        "--once",
    ]


def _offline_available() -> bool:
    import importlib.util

    return all(
        importlib.util.find_spec(m) for m in ("doctree.agent.runtime", "doctree.agent.offline")
    )


@pytest.mark.skipif(not _offline_available(), reason="the offline memory agent is not installed")
def test_offline_memory_agent_writes_memory_from_a_slept_session(db_path):
    from doctree.store.documents import DocumentsRepository

    with Engine(db_path, handler="offline") as engine:
        s = engine.start_session("main", "s-2026-11-20-tea")
        engine.append(
            s.id,
            "user",
            "Remember that Alice leads project Apollo.",
            time="2026-11-20T09:00:00Z",
        )
        engine.sleep(s.id)
        assert engine.run_worker_once().processed == [s.id]
        states = {i.session.agent.type: i.state for i in engine.sessions.list_sessions()}
    with DocumentsRepository(db_path) as repo:
        paths = [d.path for d in repo.documents("main")]
    assert "~/memory/projects/apollo" in paths
    assert states == {"agent": "processed", "memory-agent": "exempt"}


def test_engine_shows_why_a_session_failed(db_path):
    class Broken:
        def handle(self, job):
            raise RuntimeError("model overloaded")

    with Engine(db_path, handler=Broken()) as engine:
        s = engine.start_session("main", "s1")
        engine.append(s.id, "user", "hi")
        engine.sleep(s.id)
        engine.run_worker_once()
        (failed,) = engine.failing()
    assert (failed.id, failed.failures, failed.last_error) == (
        "s1",
        1,
        "RuntimeError: model overloaded",
    )


def test_the_documented_sequence_start_stop_then_run_once_processes_the_session(db_path):
    # docs/collection-loop.md: start_worker(), stop_worker(), then run_worker_once()
    handler = Collect()
    with Engine(db_path, handler=handler, interval=3600) as engine:
        engine.start_worker()
        engine.stop_worker()
        s = engine.start_session("main")
        last = engine.append(s.id, "user", "Remember: Alice prefers green tea.")
        engine.sleep(s.id)
        tick = engine.run_worker_once()
        assert tick.processed == [s.id]
        assert engine.session(s.id).processed_until == last
        assert engine.failing() == []
    assert [j.session_id for j in handler.jobs] == [s.id]
