"""The memory worker in one process: ticks, the CAS race, exemption, failures with backoff,
leases, after_handle, start/stop (seed 003 tasks 5 and 7)."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from doctree.compose import Settings, build_handler
from doctree.errors import UserError
from doctree.sessions.claims import lease_name
from doctree.sessions.repository import SessionsRepository
from doctree.sessions.transcripts import parse_transcript
from doctree.store.leases import Leases
from doctree.store.secrets import mask_value
from doctree.worker.worker import (
    DEFAULT_BATCH,
    DEFAULT_INTERVAL,
    JobsFileHandler,
    MemoryWorker,
    TranscriptJob,
    backoff,
)


class Collect:
    """An in-process memory agent that keeps every job it is handed."""

    def __init__(self, during=None, fail_for=()):
        self.jobs: list[TranscriptJob] = []
        self.during = during
        self.fail_for = set(fail_for)

    def handle(self, job: TranscriptJob) -> None:
        if job.session_id in self.fail_for:
            raise RuntimeError(f"model unavailable for {job.session_id}")
        self.jobs.append(job)
        if self.during is not None:
            self.during(job)


@pytest.fixture
def sessions(db_path):
    s = SessionsRepository(db_path)
    yield s
    s.close()


@pytest.fixture
def make_worker(db_path):
    made = []

    def make(handler, **kw):
        w = MemoryWorker(db_path, handler=handler, **kw)
        made.append(w)
        return w

    yield make
    for w in made:
        w.close()


def _pending(sessions, sid, n=6, agent="main"):
    sessions.create(agent, sid)
    ids = [sessions.append_history(sid, "user", f"{sid} message {i}") for i in range(n)]
    sessions.sleep(sid)
    return ids


def test_defaults_are_thirty_seconds_and_ten_sessions(db_path):
    w = MemoryWorker(db_path, handler=Collect())
    try:
        assert (w.interval, w.batch) == (DEFAULT_INTERVAL, DEFAULT_BATCH) == (30.0, 10)
    finally:
        w.close()


def test_tick_finds_invalidated_sessions_and_marks_them_processed(sessions, make_worker):
    ids = _pending(sessions, "s1")
    result = make_worker(Collect()).tick()
    s = sessions.get("s1")
    assert result.processed == ["s1"]
    assert (s.invalidated_at, s.processed_until) == (None, ids[-1])


def test_tick_hands_over_a_transcript_of_the_records(sessions, make_worker):
    ids = _pending(sessions, "s1", n=3)
    handler = Collect()
    make_worker(handler).tick()
    (job,) = handler.jobs
    assert (job.owner, job.session_id) == ("main", "s1")
    assert (job.first_history_id, job.last_history_id) == (ids[0], ids[-1])
    t = parse_transcript(job.transcript)
    assert [m.content for m in t.messages] == [f"s1 message {i}" for i in range(3)]
    assert (t.owner, t.session_id) == ("main", "s1")


def test_tick_hands_over_only_records_after_processed_until(sessions, make_worker):
    _pending(sessions, "s1", n=3)
    handler = Collect()
    worker = make_worker(handler)
    worker.tick()
    new = sessions.append_history("s1", "assistant", "later")
    sessions.sleep("s1")
    worker.tick()
    second = handler.jobs[1]
    assert (second.first_history_id, second.last_history_id) == (new, new)
    assert [m.content for m in parse_transcript(second.transcript).messages] == ["later"]


def test_tick_ignores_sessions_that_are_not_invalidated(sessions, make_worker):
    sessions.create("main", "quiet")
    sessions.append_history("quiet", "user", "hi")
    handler = Collect()
    result = make_worker(handler).tick()
    assert (result.found, handler.jobs) == (0, [])


def test_tick_respects_the_batch_size(sessions, make_worker):
    for i in range(5):
        _pending(sessions, f"s{i}", n=1)
    result = make_worker(Collect(), batch=2).tick()
    assert len(result.processed) == 2
    assert sessions.counts()["pending"] == 3


def test_the_next_session_is_claimed_in_the_write_that_settles_the_last(
    sessions, make_worker, db_path
):
    for sid in ("s1", "s2", "s3"):
        _pending(sessions, sid, n=6)
    w = make_worker(Collect())
    statements: list[str] = []
    if hasattr(w.sessions.conn, "set_trace_callback"):  # SQLite: one write per session
        w.sessions.conn.set_trace_callback(statements.append)
    assert w.tick().processed == ["s1", "s2", "s3"]
    assert sessions.counts()["pending"] == 0
    if statements:
        begins = sum(x.startswith("BEGIN IMMEDIATE") for x in statements)
        assert begins == 1 + 3 + 1  # the first claim, three settles, the catch-up


def test_a_stop_asked_for_after_the_next_claim_lets_its_session_go(sessions, make_worker, db_path):
    _pending(sessions, "s1")
    _pending(sessions, "s2")
    holder: list[MemoryWorker] = []
    # after_handle runs after the settle, in whose write the next session was claimed
    w = make_worker(Collect(), after_handle=lambda job: holder[0].request_stop())
    holder.append(w)
    result = w.tick()
    assert result.processed == ["s1"] and result.found == 1
    assert Leases(sessions.conn).holder(lease_name("s2")) is None  # not held any more
    other = make_worker(Collect())
    assert other.tick().processed == ["s2"]  # taken at once by another worker


def test_tick_processes_oldest_mark_first(sessions, make_worker):
    _pending(sessions, "first", n=1)
    _pending(sessions, "second", n=1)
    handler = Collect()
    make_worker(handler, batch=1).tick()
    assert [j.session_id for j in handler.jobs] == ["first"]


# -- the CAS race --------------------------------------------------------------------------


def test_session_pending_again_within_a_tick_is_taken_by_the_next_tick(sessions, make_worker):
    # s1 is handed over first; while s2 is in hand, s1 gets enough records to be pending
    # again. A tick takes a session at most once: s1's new records wait for the next tick,
    # and s1's lease is not left behind by this one.
    _pending(sessions, "s1", n=6)
    _pending(sessions, "s2", n=6)

    def more_for_s1(job):
        if job.session_id == "s2":
            for i in range(6):
                sessions.append_history("s1", "user", f"later {i}")

    handler = Collect(during=more_for_s1)
    worker = make_worker(handler, batch=10)
    first = worker.tick()
    assert [j.session_id for j in handler.jobs] == ["s1", "s2"]
    assert (first.found, first.processed) == (2, ["s1", "s2"])
    assert sessions.get("s1").invalidated_at is not None
    assert Leases(sessions.conn).holder(lease_name("s1")) is None
    second = worker.tick()
    assert second.processed == ["s1"]
    assert [m.content for m in handler.jobs[-1].parsed.messages] == [f"later {i}" for i in range(6)]


def test_records_arriving_during_processing_keep_the_session_pending(sessions, make_worker):
    ids = _pending(sessions, "s1", n=6)
    late = []

    def arrive(job):
        late.append(sessions.append_history("s1", "user", "arrived while processing"))

    result = make_worker(Collect(during=arrive)).tick()
    s = sessions.get("s1")
    assert result.raced == ["s1"]
    assert s.invalidated_at == late[0]  # the CAS failed: still pending, at the new mark
    assert s.processed_until == ids[-1]  # what was handed over is not handed over again


def test_after_a_race_the_next_tick_hands_over_only_the_new_records(sessions, make_worker):
    _pending(sessions, "s1", n=6)
    late = []
    handler = Collect(during=lambda job: late.append(sessions.append_history("s1", "user", "x")))
    worker = make_worker(handler)
    worker.tick()
    handler.during = None
    worker.tick()
    assert (handler.jobs[1].first_history_id, handler.jobs[1].last_history_id) == (
        late[0],
        late[0],
    )
    assert sessions.get("s1").invalidated_at is None


def test_record_arriving_without_a_new_mark_is_not_marked_processed(sessions, make_worker):
    ids = _pending(sessions, "s1", n=2)  # a sleep mark; one more record stays under the limit
    late = []
    make_worker(
        Collect(during=lambda j: late.append(sessions.append_history("s1", "user", "x")))
    ).tick()
    s = sessions.get("s1")
    assert s.invalidated_at is None
    assert s.processed_until == ids[-1] < late[0]
    assert sessions.count_since("s1", s.processed_until) == 1


# -- memory-agent sessions ---------------------------------------------------------------


def test_memory_agent_session_is_skipped_and_marked_processed(sessions, make_worker):
    sessions.create("memory-agent:main", "m1")
    last = sessions.append_history("m1", "assistant", "wrote ~/memory/x")
    # The sessions API never marks a memory-agent session; a database written by an older
    # engine might hold one, and the worker must not hand it over.
    sessions.conn.execute("UPDATE sessions SET invalidated_at = ? WHERE id = 'm1'", (last,))
    handler = Collect()
    result = make_worker(handler).tick()
    s = sessions.get("m1")
    assert result.exempt == ["m1"] and handler.jobs == []
    assert (s.invalidated_at, s.processed_until) == (None, last)


# -- failures ------------------------------------------------------------------------------


def test_failing_session_does_not_block_the_others(sessions, make_worker):
    _pending(sessions, "bad", n=1)
    _pending(sessions, "good", n=1)
    handler = Collect(fail_for={"bad"})
    result = make_worker(handler).tick()
    assert (result.failed, result.processed) == (["bad"], ["good"])


def test_failure_is_visible_with_reason_and_retry_time(sessions, make_worker):
    _pending(sessions, "bad", n=1)
    make_worker(Collect(fail_for={"bad"}), retry_base=30).tick()
    s = sessions.get("bad")
    assert s.failures == 1
    assert s.last_error == "RuntimeError: model unavailable for bad"
    assert s.retry_at > time.time() + 25
    assert s.invalidated_at is not None
    assert [i.state for i in sessions.list_sessions()] == ["failing"]


def test_failing_session_waits_for_its_backoff(sessions, make_worker):
    _pending(sessions, "bad", n=1)
    handler = Collect(fail_for={"bad"})
    worker = make_worker(handler, retry_base=30)
    worker.tick()
    assert worker.tick().found == 0


class Clock:
    """A clock the test moves by hand (unix seconds)."""

    def __init__(self, now: float = 1_800_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def test_failing_session_is_retried_after_backoff_and_recovers(sessions, make_worker):
    ids = _pending(sessions, "bad", n=1)
    handler = Collect(fail_for={"bad"})
    clock = Clock()
    worker = make_worker(handler, retry_base=30, clock=clock)
    worker.tick()
    handler.fail_for.clear()
    clock.advance(29)
    assert worker.tick().found == 0  # still backing off
    clock.advance(1)
    result = worker.tick()
    s = sessions.get("bad")
    assert result.processed == ["bad"]
    assert (s.failures, s.last_error, s.processed_until) == (0, None, ids[-1])


def test_repeated_failures_back_off_exponentially(sessions, make_worker):
    _pending(sessions, "bad", n=1)
    clock = Clock()
    worker = make_worker(Collect(fail_for={"bad"}), retry_base=30, retry_max=100, clock=clock)
    delays = []
    for _ in range(4):
        assert worker.tick().failed == ["bad"]
        delays.append(sessions.get("bad").retry_at - clock.now)
        clock.advance(delays[-1])
    assert delays == [30, 60, 100, 100]
    assert sessions.get("bad").failures == 4


def test_backoff_doubles_and_is_capped():
    assert [backoff(n, 30, 100) for n in (1, 2, 3, 4)] == [30, 60, 100, 100]


# -- after_handle ------------------------------------------------------------------------


def test_after_handle_runs_after_a_successful_handle(sessions, make_worker):
    _pending(sessions, "s1", n=1)
    seen = []
    make_worker(Collect(), after_handle=lambda job: seen.append(job.session_id)).tick()
    assert seen == ["s1"]


def test_after_handle_failure_never_fails_the_session(sessions, make_worker):
    _pending(sessions, "s1", n=1)

    def broken(job):
        raise RuntimeError("compaction broke")

    result = make_worker(Collect(), after_handle=broken).tick()
    s = sessions.get("s1")
    assert result.processed == ["s1"] and (s.invalidated_at, s.failures) == (None, 0)


def test_after_handle_is_not_called_when_the_handler_fails(sessions, make_worker):
    _pending(sessions, "s1", n=1)
    seen = []
    make_worker(Collect(fail_for={"s1"}), after_handle=seen.append).tick()
    assert seen == []


# -- leases --------------------------------------------------------------------------------


def test_session_leased_by_another_worker_is_not_handed_over(sessions, make_worker):
    _pending(sessions, "s1", n=1)
    Leases(sessions.conn).acquire(lease_name("s1"), "worker:elsewhere", ttl=60)
    handler = Collect()
    make_worker(handler).tick()
    assert handler.jobs == [] and sessions.get("s1").invalidated_at is not None


def test_expired_lease_of_a_crashed_worker_is_taken_over(sessions, make_worker):
    _pending(sessions, "s1", n=1)
    clock = Clock()
    Leases(sessions.conn, clock=clock).acquire(lease_name("s1"), "worker:crashed", ttl=60)
    worker = make_worker(Collect(), clock=clock)
    assert worker.tick().processed == []
    clock.advance(60)
    assert worker.tick().processed == ["s1"]


def test_lease_is_held_during_handle_and_released_after(sessions, make_worker):
    _pending(sessions, "s1", n=1)
    holders = []
    leases = Leases(sessions.conn)
    worker = make_worker(
        Collect(during=lambda job: holders.append(leases.holder(lease_name("s1"))))
    )
    worker.tick()
    assert holders == [worker.holder]
    assert leases.holder(lease_name("s1")) is None


def test_lease_is_renewed_while_a_slow_handler_works(sessions, make_worker):
    _pending(sessions, "s1", n=1)
    clock = Clock()
    leases = Leases(sessions.conn, clock=clock)
    ttl = 0.3
    seen = []

    def expires_at() -> float:
        row = sessions.conn.execute(
            "SELECT expires_at FROM leases WHERE name = ?", (lease_name("s1"),)
        ).fetchone()
        return row[0]

    def slow(job):
        # The handler's clock runs five lease lifetimes; the keeper (renewing every ttl/3 of
        # real time) must carry the lease along each step before it would have expired.
        for _ in range(5):
            clock.advance(ttl * 0.9)
            assert _wait(lambda: expires_at() >= clock.now + ttl * 0.5, timeout=5)
            seen.append(leases.holder(lease_name("s1")))

    worker = make_worker(Collect(during=slow), lease_ttl=ttl, clock=clock)
    worker.tick()
    assert seen == [worker.holder] * 5


def test_long_backlog_is_handed_over_in_slices_without_gaps(sessions, make_worker):
    ids = _pending(sessions, "s1", n=12)
    handler = Collect()
    worker = make_worker(handler, max_records=5)
    for _ in range(3):
        worker.tick()
    ranges = [(j.first_history_id, j.last_history_id) for j in handler.jobs]
    assert ranges == [(ids[0], ids[4]), (ids[5], ids[9]), (ids[10], ids[11])]
    assert sessions.get("s1").invalidated_at is None


# -- start / stop --------------------------------------------------------------------------


def _wait(predicate, timeout=5.0):
    end = time.time() + timeout
    while time.time() < end:
        if predicate():
            return True
        time.sleep(0.02)
    return False


def test_started_worker_processes_pending_sessions(sessions, make_worker):
    _pending(sessions, "s1", n=1)
    worker = make_worker(Collect(), interval=0.05)
    worker.start()
    assert _wait(lambda: sessions.get("s1").invalidated_at is None)
    worker.stop()


def test_no_ticks_after_stop(sessions, make_worker):
    worker = make_worker(Collect(), interval=0.05)
    worker.start()
    assert _wait(lambda: worker.ticks >= 2)
    worker.stop()
    ticks = worker.ticks
    _pending(sessions, "s1", n=1)
    time.sleep(0.3)
    assert worker.ticks == ticks and not worker.running
    assert sessions.get("s1").invalidated_at is not None


def test_worker_can_start_again_after_stop(sessions, make_worker):
    worker = make_worker(Collect(), interval=0.05)
    worker.start()
    worker.stop()
    _pending(sessions, "s1", n=1)
    worker.start()
    assert _wait(lambda: sessions.get("s1").invalidated_at is None)
    worker.stop()


def test_worker_rejects_a_zero_interval(db_path):
    with pytest.raises(UserError, match="interval 0"):
        MemoryWorker(db_path, handler=Collect(), interval=0)


# -- handlers by name ----------------------------------------------------------------------


def test_recorder_handler_appends_one_json_line_per_job(sessions, make_worker, tmp_path):
    _pending(sessions, "s1", n=2)
    out = tmp_path / "jobs.jsonl"
    make_worker(build_handler(None, Settings(backend=f"jobs:{out}"))).tick()
    import json

    (line,) = [json.loads(x) for x in out.read_text().splitlines()]
    assert (line["session_id"], line["messages"]) == ("s1", 2)


def test_recorder_spec_takes_an_optional_delay(tmp_path):
    h = build_handler(None, Settings(backend=f"jobs:{tmp_path}/x.jsonl:0.5"))
    assert isinstance(h, JobsFileHandler) and h.delay == 0.5


def test_python_handler_spec_that_cannot_be_imported_is_a_user_error():
    with pytest.raises(UserError, match="'python:no_such_module:H': cannot be imported"):
        build_handler(None, Settings(backend="python:no_such_module:H"))


def test_model_handler_names_go_to_the_agent_runtime(repo):
    from doctree.agent import runtime as agent

    handler = build_handler(repo, Settings(backend="offline"))
    assert isinstance(handler, agent.MemoryAgentRuntime)
    handler.close()


# -- fixtures replay like live sessions ------------------------------------------------------

FIXTURES = sorted((Path(__file__).parents[1] / "fixtures" / "transcripts").glob("*.md"))


@pytest.mark.skipif(not FIXTURES, reason="no fixture transcripts")
@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda p: p.name)
def test_fixture_replayed_as_a_session_is_handed_over_unchanged(sessions, make_worker, fixture):
    """Word for word, but for secrets: those were stored, and so are handed over, as markers."""
    t = parse_transcript(fixture.read_text(encoding="utf-8"), source=fixture.name)
    sessions.create(t.owner, t.session_id)
    for m in t.messages:
        sessions.append_history(t.session_id, m.kind, m.content, time=m.time)
    sessions.sleep(t.session_id)
    handler = Collect()
    worker = make_worker(handler)
    while worker.tick().found:
        pass
    handed = [m for job in handler.jobs for m in parse_transcript(job.transcript).messages]
    assert handed == [replace(m, content=mask_value(m.content)) for m in t.messages]


def test_tick_logs_each_hand_over(sessions, make_worker, caplog):
    _pending(sessions, "s1", n=2)
    with caplog.at_level("INFO", logger="doctree.worker.worker"):
        make_worker(Collect()).tick()
    assert any(
        "event: handed over session=s1 agent=main records=2" in r.getMessage()
        for r in caplog.records
    )


# -- a property: whatever the interleaving, every record is handed over exactly once ---------

_ops = st.lists(
    st.one_of(
        st.tuples(st.just("append"), st.integers(0, 2), st.integers(1, 8)),
        st.tuples(st.just("sleep"), st.integers(0, 2), st.just(0)),
        st.tuples(st.just("reset"), st.integers(0, 2), st.just(0)),
        st.tuples(st.just("tick"), st.integers(0, 2), st.integers(0, 7)),  # records during
        st.tuples(st.just("fail"), st.integers(0, 2), st.just(0)),
    ),
    max_size=25,
)


@pytest.mark.slow
@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(ops=_ops)
def test_every_record_is_handed_over_exactly_once_whatever_the_interleaving(tmp_path_factory, ops):
    db = tmp_path_factory.mktemp("prop") / "doctree.db"
    sessions = SessionsRepository(db)
    current = [sessions.create("main", f"a{k}").id for k in range(3)]
    handler = Collect()
    worker = MemoryWorker(db, handler=handler, retry_base=0, batch=2)
    failing = MemoryWorker(db, handler=_Failing(), retry_base=0, batch=2)
    try:
        for op, k, n in ops:
            if op == "append":
                for i in range(n):
                    sessions.append_history(current[k], "user", f"{op} {i}")
            elif op == "sleep":
                sessions.sleep(current[k])
            elif op == "reset":
                current[k] = sessions.reset(current[k]).id
            elif op == "fail":
                failing.tick()
            else:
                # While the memory agent works, n records arrive: in the session being handed
                # over when k is 0 (the CAS race), else in the agent's current session k.
                def arrive(job, k=k, n=n):
                    sid = job.session_id if k == 0 else current[k]
                    for _ in range(n):
                        sessions.append_history(sid, "user", "late")

                handler.during = arrive
                worker.tick()
        handler.during = None
        for info in sessions.list_sessions(limit=None):
            sessions.sleep(info.session.id)
        while worker.tick().found:
            pass
        counts: dict[int, int] = {}
        for job in handler.jobs:
            for r in sessions.history(
                job.session_id, after_id=job.first_history_id - 1, until_id=job.last_history_id
            ):
                counts[r.id] = counts.get(r.id, 0) + 1
        all_ids = {
            r.id
            for info in sessions.list_sessions(limit=None)
            for r in sessions.history(info.session.id)
        }
        assert set(counts) == all_ids
        assert set(counts.values()) <= {1}
    finally:
        worker.close()
        failing.close()
        sessions.close()


class _Failing:
    """A memory agent that is down: every hand-over fails."""

    def handle(self, job: TranscriptJob) -> None:
        raise RuntimeError("memory agent down")
