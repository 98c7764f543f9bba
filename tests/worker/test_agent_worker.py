"""The memory agent as the worker's handler: sessions in, runs and versions out."""

from __future__ import annotations

from pathlib import Path

import pytest

from doctree.agent.runtime import MemoryAgentRuntime
from doctree.compose import Settings, build_handler
from doctree.sessions.repository import SessionsRepository
from doctree.store.runs import Runs
from doctree.worker.worker import MemoryWorker
from tests.fakes.messages_api import (
    FakeMessagesServer,
    HttpError,
    Scripted,
    ScriptedMemoryModel,
    message,
    text_block,
    tool_use_block,
)

FIXTURES = Path(__file__).parents[1] / "fixtures" / "transcripts"


def fill_session(repo, session_id="s-1", agent="main", records=6):
    sessions = SessionsRepository(repo.conn)
    sessions.create(agent, session_id)
    for i in range(records):
        kind = "user" if i % 2 == 0 else "assistant"
        sessions.append_history(
            session_id, kind, f"message {i}: I met Alice Smith", time=f"2026-11-20T09:0{i}:00Z"
        )
    return sessions


def runtime_on(repo, srv):
    return MemoryAgentRuntime(
        repo, backend="anthropic", api_key="k", base_url=srv.base_url, max_retries=0
    )


@pytest.mark.slow
def test_sixth_record_hands_the_session_to_the_memory_agent(repo):
    sessions = fill_session(repo)
    with FakeMessagesServer(ScriptedMemoryModel()) as srv:
        tick = MemoryWorker(repo.conn, handler=runtime_on(repo, srv)).tick()
    assert tick.processed == ["s-1"]
    [run] = Runs(repo.conn).list()
    assert (run.session_id, run.first_history_id, run.last_history_id, run.status) == (
        "s-1",
        1,
        6,
        "completed",
    )
    assert sessions.require("s-1").invalidated_at is None


def test_versions_from_the_worker_path_cite_session_and_run(repo):
    fill_session(repo)
    with FakeMessagesServer(ScriptedMemoryModel()) as srv:
        MemoryWorker(repo.conn, handler=runtime_on(repo, srv)).tick()
    [run] = Runs(repo.conn).list()
    versions = repo.log("main", "~/memory")
    assert versions
    assert {(v.actor, v.session_id, v.run_id) for v in versions} == {
        ("memory-agent:main", "s-1", run.id)
    }


def test_a_failed_run_leaves_the_session_pending_with_the_error(repo):
    sessions = fill_session(repo)
    with FakeMessagesServer(Scripted([HttpError(400, "bad model")])) as srv:
        tick = MemoryWorker(repo.conn, handler=runtime_on(repo, srv)).tick()
    assert tick.failed == ["s-1"]
    s = sessions.require("s-1")
    assert s.invalidated_at is not None
    assert "bad model" in s.last_error
    assert Runs(repo.conn).list()[0].status == "failed"


def test_the_memory_agents_own_session_is_never_invalidated(repo):
    fill_session(repo)
    calls = [
        message(tool_use_block("document_write", {"path": f"~/memory/p{i}", "body": "x"}))
        for i in range(4)
    ]
    with FakeMessagesServer(Scripted([*calls, message(text_block("done"))])) as srv:
        MemoryWorker(repo.conn, handler=runtime_on(repo, srv)).tick()
    sessions = SessionsRepository(repo.conn)
    [run] = Runs(repo.conn).list()
    own = sessions.require(run.memory_session_id)
    history = sessions.history(own.id)
    assert own.agent.type == "memory-agent" and own.agent.owner == "main"
    assert len(history) > 5
    assert own.invalidated_at is None
    assert sessions.invalidate(own.id, history[-1].id) is False
    assert sessions.sleep(own.id) is False
    assert [s.id for s in sessions.find_invalidated(10)] == []


def test_the_memory_agents_session_holds_its_tool_calls_and_results(repo):
    fill_session(repo)
    call = tool_use_block("document_read", {"path": "~/memory"})
    with FakeMessagesServer(Scripted([message(call), message(text_block("done"))])) as srv:
        MemoryWorker(repo.conn, handler=runtime_on(repo, srv)).tick()
    [run] = Runs(repo.conn).list()
    kinds = [r.kind for r in SessionsRepository(repo.conn).history(run.memory_session_id)]
    assert kinds == ["user", "tool_call", "tool_result", "assistant"]


def test_the_handler_by_name_spells_replay_with_its_cassette(repo, tmp_path):
    cassette = tmp_path / "c.json"
    cassette.write_text('{"format": "doctree-cassette/1", "interactions": []}')
    handler = build_handler(repo, Settings(backend=f"replay:{cassette}"))
    assert (handler.backend, handler.cassette_path, handler.record) == ("replay", cassette, False)


def test_the_handler_by_name_spells_record_with_its_cassette(repo, tmp_path):
    handler = build_handler(repo, Settings(backend=f"record:{tmp_path / 'new.json'}"))
    assert (handler.backend, handler.record) == ("replay", True)


def test_the_workers_handler_by_name_is_the_memory_agent_runtime(repo):
    assert isinstance(build_handler(repo, Settings(backend="offline")), MemoryAgentRuntime)


@pytest.mark.skipif(not (FIXTURES / "03-apollo-day1-kickoff.md").exists(), reason="no fixture")
def test_offline_backend_writes_through_the_same_tools(repo):
    text = (FIXTURES / "03-apollo-day1-kickoff.md").read_text(encoding="utf-8")
    result = MemoryAgentRuntime(repo, backend="offline").run("main", "s-x", text)
    assert (result.run.backend, result.run.model, result.run.status) == (
        "offline",
        "offline",
        "completed",
    )
    assert result.run.tool_calls > 0
    versions = repo.log(None, limit=None)
    assert versions
    assert {(v.actor, v.session_id, v.run_id) for v in versions} == {
        ("memory-agent:main", "s-x", result.run_id)
    }
    assert all(v.path.startswith("~/memory") for v in versions)
