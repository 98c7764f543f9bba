"""Sessions: invalidation, find_invalidated, the mark_processed CAS, history counts, the
6th-record threshold, the lifecycle points and the memory-agent exemption (seed 003 tasks
1-4, 7)."""

from __future__ import annotations

import time

import pytest

from doctree.errors import ConflictError, NotFoundError, UserError
from doctree.sessions.claims import lease_name
from doctree.sessions.repository import SessionsRepository
from doctree.sessions.sessions import AgentDescriptor
from doctree.store.db import connect
from doctree.store.leases import Leases


@pytest.fixture
def sessions(db_path):
    s = SessionsRepository(db_path)
    yield s
    s.close()


def _session_with(sessions, n, sid="s1", agent="main"):
    sessions.create(agent, sid)
    return [sessions.append_history(sid, "user", f"message {i}") for i in range(n)]


# -- migration ---------------------------------------------------------------------------


@pytest.mark.sqlite_only
def test_migration_adds_nullable_memory_columns(db_path):
    conn = connect(db_path)
    cols = {r["name"]: r for r in conn.execute("PRAGMA table_info(sessions)")}
    assert cols["invalidated_at"]["type"] == "INTEGER" and not cols["invalidated_at"]["notnull"]
    assert cols["processed_until"]["type"] == "INTEGER" and not cols["processed_until"]["notnull"]


@pytest.mark.sqlite_only
def test_migration_indexes_invalidated_at(db_path):
    conn = connect(db_path)
    cols = [r["name"] for r in conn.execute("PRAGMA index_info(idx_sessions_invalidated_at)")]
    assert cols == ["invalidated_at"]


@pytest.mark.sqlite_only
def test_find_invalidated_uses_the_index(sessions):
    plan = sessions.conn.execute(
        "EXPLAIN QUERY PLAN SELECT id FROM sessions WHERE invalidated_at IS NOT NULL"
        " ORDER BY invalidated_at LIMIT 10"
    ).fetchall()
    assert any("idx_sessions_invalidated_at" in r["detail"] for r in plan)


def test_new_session_has_null_memory_columns(sessions):
    s = sessions.create("main", "s1")
    assert (s.invalidated_at, s.processed_until) == (None, None)


# -- creating sessions -------------------------------------------------------------------


def test_create_rejects_an_existing_id(sessions):
    sessions.create("main", "s1")
    with pytest.raises(ConflictError, match="'s1': already exists"):
        sessions.create("main", "s1")


def test_create_rejects_session_id_with_whitespace(sessions):
    with pytest.raises(UserError, match="session id 'a b'"):
        sessions.create("main", "a b")


def test_create_generates_an_id_when_none_is_given(sessions):
    s = sessions.create("main")
    assert s.id.startswith("s-") and sessions.get(s.id) == s


def test_ensure_refuses_a_session_of_another_agent(sessions):
    sessions.create("main", "s1")
    with pytest.raises(ConflictError, match="belongs to agent:main"):
        sessions.ensure("other", "s1")


def test_descriptor_parses_type_prefix():
    assert AgentDescriptor.of("memory-agent:main") == AgentDescriptor("memory-agent", "main")
    assert AgentDescriptor.of({"type": "agent", "owner": "bob"}) == AgentDescriptor("agent", "bob")
    assert AgentDescriptor.of("bob") == AgentDescriptor("agent", "bob")


def test_descriptor_rejects_bad_type():
    with pytest.raises(UserError, match="agent type 'Memory Agent'"):
        AgentDescriptor("Memory Agent", "main")


# -- invalidate ------------------------------------------------------------------------


def test_invalidate_sets_the_mark(sessions):
    sessions.create("main", "s1")
    assert sessions.invalidate("s1", 5) is True
    assert sessions.get("s1").invalidated_at == 5


def test_invalidate_is_idempotent(sessions):
    sessions.create("main", "s1")
    sessions.invalidate("s1", 5)
    assert sessions.invalidate("s1", 5) is False
    assert sessions.get("s1").invalidated_at == 5


def test_invalidate_keeps_the_larger_value(sessions):
    sessions.create("main", "s1")
    sessions.invalidate("s1", 9)
    sessions.invalidate("s1", 4)
    assert sessions.get("s1").invalidated_at == 9


def test_invalidate_raises_a_smaller_mark(sessions):
    sessions.create("main", "s1")
    sessions.invalidate("s1", 4)
    sessions.invalidate("s1", 9)
    assert sessions.get("s1").invalidated_at == 9


# -- find_invalidated --------------------------------------------------------------------


def test_find_invalidated_returns_only_invalidated(sessions):
    sessions.create("main", "a")
    sessions.create("main", "b")
    sessions.invalidate("b", 3)
    assert [s.id for s in sessions.find_invalidated(10)] == ["b"]


def test_find_invalidated_respects_limit(sessions):
    for i in range(5):
        sessions.create("main", f"s{i}")
        sessions.invalidate(f"s{i}", i + 1)
    assert len(sessions.find_invalidated(3)) == 3


def test_find_invalidated_orders_by_mark_oldest_first(sessions):
    for sid, mark in [("a", 30), ("b", 10), ("c", 20)]:
        sessions.create("main", sid)
        sessions.invalidate(sid, mark)
    assert [s.id for s in sessions.find_invalidated(10)] == ["b", "c", "a"]


def test_find_invalidated_skips_a_session_waiting_for_retry(sessions):
    sessions.create("main", "a")
    sessions.invalidate("a", 1)
    sessions.record_failure("a", "boom", retry_in=60)
    assert sessions.find_invalidated(10) == []
    assert [s.id for s in sessions.find_invalidated(10, now=time.time() + 61)] == ["a"]


def test_find_invalidated_skips_a_session_leased_by_another_worker(sessions):
    sessions.create("main", "a")
    sessions.invalidate("a", 1)
    Leases(sessions.conn).acquire(lease_name("a"), "worker-2", ttl=60)
    assert sessions.find_invalidated(10, holder="worker-1") == []
    assert [s.id for s in sessions.find_invalidated(10, holder="worker-2")] == ["a"]


def test_find_invalidated_takes_over_an_expired_lease(sessions):
    sessions.create("main", "a")
    sessions.invalidate("a", 1)
    Leases(sessions.conn).acquire(lease_name("a"), "crashed", ttl=-1)
    assert [s.id for s in sessions.find_invalidated(10, holder="worker-1")] == ["a"]


# -- mark_processed (CAS) ---------------------------------------------------------------


def test_mark_processed_clears_mark_when_unchanged(sessions):
    sessions.create("main", "s1")
    sessions.invalidate("s1", 7)
    assert sessions.mark_processed("s1", 7, 7) is True
    s = sessions.get("s1")
    assert (s.invalidated_at, s.processed_until) == (None, 7)


def test_mark_processed_fails_when_mark_changed(sessions):
    sessions.create("main", "s1")
    sessions.invalidate("s1", 7)
    sessions.invalidate("s1", 9)  # records arrived while the worker worked
    assert sessions.mark_processed("s1", 7, 7) is False
    s = sessions.get("s1")
    assert (s.invalidated_at, s.processed_until) == (9, None)


def test_mark_processed_fails_when_already_cleared(sessions):
    sessions.create("main", "s1")
    sessions.invalidate("s1", 7)
    sessions.mark_processed("s1", 7, 7)
    assert sessions.mark_processed("s1", 7, 7) is False


def test_complete_after_race_advances_processed_until_and_keeps_mark(sessions):
    sessions.create("main", "s1")
    sessions.invalidate("s1", 7)
    sessions.invalidate("s1", 9)
    assert sessions.complete("s1", 7, 7) is False
    s = sessions.get("s1")
    assert (s.invalidated_at, s.processed_until) == (9, 7)


def test_complete_never_moves_processed_until_back(sessions):
    sessions.create("main", "s1")
    sessions.invalidate("s1", 7)
    sessions.mark_processed("s1", 7, 7)
    sessions.invalidate("s1", 9)
    sessions.complete("s1", 5, 8)
    assert sessions.get("s1").processed_until == 7


# -- history counts ----------------------------------------------------------------------


def test_append_history_returns_increasing_ids(sessions):
    ids = _session_with(sessions, 3)
    assert ids == sorted(ids) and len(set(ids)) == 3


def test_count_since_counts_records_after_the_id(sessions):
    ids = _session_with(sessions, 4)
    assert sessions.count_since("s1", ids[1]) == 2


def test_count_since_returns_zero_when_none(sessions):
    ids = _session_with(sessions, 2)
    assert sessions.count_since("s1", ids[-1]) == 0


def test_count_since_ignores_other_sessions(sessions):
    _session_with(sessions, 2, "a")
    _session_with(sessions, 3, "b")
    assert sessions.count_since("a", None) == 2


def test_max_id_returns_the_last_record(sessions):
    ids = _session_with(sessions, 3)
    assert sessions.max_id("s1") == ids[-1]


def test_max_id_is_none_for_an_empty_session(sessions):
    sessions.create("main", "s1")
    assert sessions.max_id("s1") is None


def test_history_round_trips_text_and_tool_content(sessions):
    sessions.create("main", "s1")
    sessions.append_history("s1", "user", "hi", time="2026-11-20T09:00:00Z")
    sessions.append_history("s1", "tool_call", {"id": "t", "name": "x", "input": {"q": 1}})
    records = sessions.history("s1")
    assert [(r.kind, r.content) for r in records] == [
        ("user", "hi"),
        ("tool_call", {"id": "t", "name": "x", "input": {"q": 1}}),
    ]
    assert records[0].time == "2026-11-20T09:00:00Z"


def test_append_history_rejects_unknown_kind(sessions):
    sessions.create("main", "s1")
    with pytest.raises(UserError, match="history kind 'robot'"):
        sessions.append_history("s1", "robot", "x")


def test_append_history_rejects_dict_content_for_text_kind(sessions):
    sessions.create("main", "s1")
    with pytest.raises(UserError, match="'user' record needs text"):
        sessions.append_history("s1", "user", {"text": "x"})


def test_append_history_to_unknown_session_is_not_found(sessions):
    with pytest.raises(NotFoundError, match="session 'nope'"):
        sessions.append_history("nope", "user", "x")


def test_append_history_rejects_bad_time(sessions):
    sessions.create("main", "s1")
    with pytest.raises(UserError, match="time 'yesterday'"):
        sessions.append_history("s1", "user", "x", time="yesterday")


# -- the threshold: the 6th record, not the 5th -----------------------------------------


def test_fifth_record_does_not_invalidate_session(sessions):
    _session_with(sessions, 5)
    assert sessions.get("s1").invalidated_at is None


def test_sixth_record_invalidates_session(sessions):
    ids = _session_with(sessions, 6)
    assert sessions.get("s1").invalidated_at == ids[5]


def test_seventh_record_raises_the_mark(sessions):
    ids = _session_with(sessions, 7)
    assert sessions.get("s1").invalidated_at == ids[6]


def test_threshold_counts_from_processed_until(sessions):
    ids = _session_with(sessions, 6)
    sessions.mark_processed("s1", ids[-1], ids[-1])
    for i in range(5):
        sessions.append_history("s1", "user", f"more {i}")
    assert sessions.get("s1").invalidated_at is None
    sixth = sessions.append_history("s1", "user", "sixth since processed")
    assert sessions.get("s1").invalidated_at == sixth


# -- lifecycle points ----------------------------------------------------------------------


def test_sleep_invalidates_at_the_last_record(sessions):
    ids = _session_with(sessions, 2)
    assert sessions.sleep("s1") is True
    assert sessions.get("s1").invalidated_at == ids[-1]


def test_sleep_of_a_fully_processed_session_does_not_invalidate(sessions):
    ids = _session_with(sessions, 2)
    sessions.invalidate("s1", ids[-1])
    sessions.mark_processed("s1", ids[-1], ids[-1])
    assert sessions.sleep("s1") is False
    assert sessions.get("s1").invalidated_at is None


def test_sleep_of_an_empty_session_does_not_invalidate(sessions):
    sessions.create("main", "s1")
    assert sessions.sleep("s1") is False


def test_reset_invalidates_the_old_session_and_starts_a_new_one(sessions):
    ids = _session_with(sessions, 2)
    new = sessions.reset("s1", new_session_id="s2")
    old = sessions.get("s1")
    assert (old.invalidated_at, old.ended_reason) == (ids[-1], "reset")
    assert new.id == "s2" and new.agent == old.agent and new.invalidated_at is None
    assert sessions.current("main").id == "s2"


def test_context_compaction_invalidates_the_old_session_and_starts_a_new_one(sessions):
    ids = _session_with(sessions, 3)
    new = sessions.compact_context("s1")
    old = sessions.get("s1")
    assert (old.invalidated_at, old.ended_reason) == (ids[-1], "context-compaction")
    assert sessions.current("main") == new


# -- the memory-agent exemption at all four points ---------------------------------------


def _memory_agent_session(sessions, n):
    sessions.create("memory-agent:main", "m1")
    return [sessions.append_history("m1", "assistant", f"note {i}") for i in range(n)]


def test_memory_agent_session_is_exempt_from_record_threshold(sessions):
    _memory_agent_session(sessions, 8)
    assert sessions.get("m1").invalidated_at is None


def test_memory_agent_session_is_exempt_from_sleep(sessions):
    _memory_agent_session(sessions, 2)
    assert sessions.sleep("m1") is False
    assert sessions.get("m1").invalidated_at is None


def test_memory_agent_session_is_exempt_from_reset(sessions):
    _memory_agent_session(sessions, 2)
    sessions.reset("m1", new_session_id="m2")
    assert sessions.get("m1").invalidated_at is None
    assert sessions.get("m2").agent == AgentDescriptor("memory-agent", "main")


def test_memory_agent_session_is_exempt_from_context_compaction(sessions):
    _memory_agent_session(sessions, 2)
    sessions.compact_context("m1")
    assert sessions.get("m1").invalidated_at is None


def test_invalidate_never_marks_a_memory_agent_session(sessions):
    _memory_agent_session(sessions, 1)
    assert sessions.invalidate("m1", 1) is False


# -- failures and listing ------------------------------------------------------------------


def test_record_failure_keeps_the_reason_and_counts(sessions):
    sessions.create("main", "s1")
    sessions.invalidate("s1", 1)
    sessions.record_failure("s1", "model timeout", retry_in=30)
    s = sessions.record_failure("s1", "model timeout again", retry_in=60)
    assert (s.failures, s.last_error) == (2, "model timeout again")
    assert s.retry_at > time.time() + 50


def test_success_clears_the_failure(sessions):
    sessions.create("main", "s1")
    sessions.invalidate("s1", 1)
    sessions.record_failure("s1", "boom", retry_in=0)
    sessions.mark_processed("s1", 1, 1)
    s = sessions.get("s1")
    assert (s.failures, s.last_error, s.retry_at) == (0, None, None)


def test_list_shows_states(sessions):
    _session_with(sessions, 2, "open1")
    _session_with(sessions, 6, "pending1")
    _session_with(sessions, 6, "failing1")
    sessions.record_failure("failing1", "boom", retry_in=10)
    _session_with(sessions, 2, "done1")
    last = sessions.max_id("done1")
    sessions.invalidate("done1", last)
    sessions.mark_processed("done1", last, last)
    _memory_agent_session(sessions, 1)
    states = {i.session.id: i.state for i in sessions.list_sessions()}
    assert states == {
        "open1": "open",
        "pending1": "pending",
        "failing1": "failing",
        "done1": "processed",
        "m1": "exempt",
    }


def test_list_filters_by_state(sessions):
    _session_with(sessions, 2, "open1")
    _session_with(sessions, 6, "pending1")
    assert [i.session.id for i in sessions.list_sessions(state="pending")] == ["pending1"]


def test_list_rejects_unknown_state(sessions):
    with pytest.raises(UserError, match="state 'done'"):
        sessions.list_sessions(state="done")


def test_counts_report_pending_and_failing(sessions):
    _session_with(sessions, 6, "a")
    _session_with(sessions, 6, "b")
    sessions.record_failure("b", "boom", retry_in=10)
    assert sessions.counts() == {"pending": 1, "failing": 1, "total": 2}


# -- the CLI -------------------------------------------------------------------------------


def _run(db_path, *args):
    from click.testing import CliRunner

    from doctree.cli import cli

    return CliRunner().invoke(cli, ["--db", str(db_path), *args], catch_exceptions=False)


def test_cli_sessions_lists_state_per_session(sessions, db_path):
    _session_with(sessions, 6, "busy")
    _session_with(sessions, 1, "quiet")
    out = _run(db_path, "sessions").output
    lines = {line.split()[0]: line.split()[2] for line in out.splitlines()[1:]}
    assert lines == {"busy": "pending", "quiet": "open"}


def test_cli_sessions_json_has_state_and_failure_reason(sessions, db_path):
    _session_with(sessions, 6, "bad")
    sessions.record_failure("bad", "model timeout", retry_in=60)
    import json

    (row,) = json.loads(_run(db_path, "sessions", "--json").output)
    assert (row["id"], row["state"], row["last_error"], row["failures"]) == (
        "bad",
        "failing",
        "model timeout",
        1,
    )


def test_cli_sessions_filters_by_state(sessions, db_path):
    _session_with(sessions, 6, "busy")
    _session_with(sessions, 1, "quiet")
    out = _run(db_path, "sessions", "--state", "open").output
    assert "quiet" in out and "busy" not in out


def test_cli_transcript_prints_the_session_as_markdown(sessions, db_path):
    from doctree.sessions.transcripts import parse_transcript

    _session_with(sessions, 3, "s1")
    t = parse_transcript(_run(db_path, "transcript", "s1").output)
    assert (t.session_id, len(t.messages)) == ("s1", 3)


def test_cli_transcript_new_shows_only_unprocessed_records(sessions, db_path):
    from doctree.sessions.transcripts import parse_transcript

    ids = _session_with(sessions, 3, "s1")
    sessions.invalidate("s1", ids[1])
    sessions.mark_processed("s1", ids[1], ids[1])
    t = parse_transcript(_run(db_path, "transcript", "s1", "--new").output)
    assert [m.content for m in t.messages] == ["message 2"]


def test_cli_transcript_of_unknown_session_is_a_one_line_error(sessions, db_path):
    result = _run(db_path, "transcript", "nope")
    assert result.exit_code == 2
    assert result.output.strip() == "error: session 'nope': no such session"


def test_cli_worker_once_hands_pending_sessions_over(sessions, db_path, tmp_path):
    _session_with(sessions, 6, "s1")
    jobs = tmp_path / "jobs.jsonl"
    result = _run(db_path, "worker", "--once", "--backend", f"jobs:{jobs}")
    assert result.exit_code == 0
    assert "1 processed" in result.output
    assert sessions.get("s1").invalidated_at is None


def test_cli_worker_with_unknown_handler_module_is_a_user_error(db_path):
    result = _run(db_path, "worker", "--once", "--backend", "python:no_such_mod:H")
    assert result.exit_code == 2 and "cannot be imported" in result.output


# -- append_many: a batch ends as the same records appended one by one ------------------


@pytest.mark.parametrize("n", [0, 1, 5, 6, 9])
def test_append_many_ends_as_one_by_one(db_path, n):
    one = SessionsRepository(db_path)
    one.create("main", "a")
    single = [one.append_history("a", "user", f"m {i} key AKIA1234567890ABCDEF") for i in range(n)]
    one.create("main", "b")
    batch = one.append_many(
        "b", [("user", f"m {i} key AKIA1234567890ABCDEF", None) for i in range(n)]
    )
    assert len(batch) == n
    a, b = one.get("a"), one.get("b")
    # the mark sits on the same position of the batch as of the single appends
    pos = {x: i for i, x in enumerate(single)}
    pos_b = {x: i for i, x in enumerate(batch)}
    assert pos.get(a.invalidated_at) == pos_b.get(b.invalidated_at)
    assert (a.invalidated_at is None) == (b.invalidated_at is None) == (n <= 5)
    texts = [r.content for r in one.history("b")]
    assert texts == [r.content for r in one.history("a")]
    assert all("AKIA1234567890ABCDEF" not in t for t in texts)
    one.close()


def test_append_many_checks_every_record_before_writing_any(sessions):
    sessions.create("main", "s1")
    with pytest.raises(UserError, match="history kind"):
        sessions.append_many("s1", [("user", "fine", None), ("nonsense", "x", None)])
    assert sessions.history("s1") == []
