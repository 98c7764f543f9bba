"""The worker's queue: claiming pending sessions with their leases, and settling a hand-over
(the compare-and-swap under the lease), on both backends; on PostgreSQL, that claims pass
over rows other claims hold (SKIP LOCKED) and that the queue's bookkeeping never waits for
the store's write lock."""

from __future__ import annotations

import sqlite3
import threading
import time

import pytest

from doctree.sessions.claims import lease_name
from doctree.sessions.repository import SessionsRepository
from doctree.store.backends import begin_write, dialect_of
from doctree.store.leases import Leases

T0 = 1_800_000_000.0  # the tests' clock (unix seconds): leases are compared against it


@pytest.fixture
def sessions(db_path):
    s = SessionsRepository(db_path)
    yield s
    s.close()


def _pending(sessions, sid, n=1):
    sessions.create("main", sid)
    ids = [sessions.append_history(sid, "user", f"{sid} message {i}") for i in range(n)]
    sessions.sleep(sid)
    return ids


def _holder(sessions, sid):
    row = sessions.conn.execute(
        "SELECT holder, expires_at FROM leases WHERE name = ?", (lease_name(sid),)
    ).fetchone()
    return None if row is None else (row[0], row[1])


# -- claim ---------------------------------------------------------------------------------


def test_claim_takes_the_oldest_pending_session_with_its_lease(sessions):
    _pending(sessions, "first")
    _pending(sessions, "second")
    (claim,) = sessions.claim("worker:a", 60, now=T0)
    assert (claim.session.id, claim.leased) == ("first", True)
    assert claim.session.invalidated_at == sessions.get("first").invalidated_at
    assert _holder(sessions, "first") == ("worker:a", T0 + 60)
    assert _holder(sessions, "second") is None


def test_claim_takes_up_to_limit_sessions_oldest_first(sessions):
    for sid in ("a", "b", "c"):
        _pending(sessions, sid)
    claims = sessions.claim("worker:a", 60, limit=2, now=T0)
    assert [(c.session.id, c.leased) for c in claims] == [("a", True), ("b", True)]


def test_claim_passes_over_a_session_leased_by_another_worker(sessions):
    _pending(sessions, "first")
    _pending(sessions, "second")
    Leases(sessions.conn, clock=lambda: T0).acquire(lease_name("first"), "worker:b", 60)
    (claim,) = sessions.claim("worker:a", 60, now=T0 + 1)
    assert claim.session.id == "second"
    assert _holder(sessions, "first")[0] == "worker:b"


def test_claim_takes_over_an_expired_lease(sessions):
    _pending(sessions, "s1")
    Leases(sessions.conn, clock=lambda: T0).acquire(lease_name("s1"), "worker:dead", 60)
    assert sessions.claim("worker:a", 60, now=T0 + 59) == []
    (claim,) = sessions.claim("worker:a", 60, now=T0 + 60)
    assert claim.leased and _holder(sessions, "s1") == ("worker:a", T0 + 120)


def test_claim_skips_excluded_sessions_and_those_waiting_for_a_retry(sessions):
    for sid in ("a", "b", "c"):
        _pending(sessions, sid)
    sessions.record_failure("b", "boom", retry_in=60, now=T0)
    assert [c.session.id for c in sessions.claim("w", 60, limit=9, now=T0, exclude=["a"])] == ["c"]
    assert [c.session.id for c in sessions.claim("w", 60, limit=9, now=T0 + 60)] == [
        "a",
        "b",
        "c",
    ]


def test_claim_of_nothing_pending_takes_no_lease(sessions):
    sessions.create("main", "quiet")
    sessions.append_history("quiet", "user", "hi")
    assert sessions.claim("worker:a", 60, now=T0) == []
    assert sessions.conn.execute("SELECT COUNT(*) FROM leases").fetchone()[0] == 0


# -- settle: the compare-and-swap under the lease ------------------------------------------


def _claimed(sessions, sid="s1", n=3, holder="worker:a"):
    ids = _pending(sessions, sid, n)
    (claim,) = sessions.claim(holder, 60, now=T0)
    assert claim.leased
    return ids, claim.session.invalidated_at


def test_settle_clears_an_unchanged_mark_and_extends_the_lease(sessions):
    ids, mark = _claimed(sessions)
    assert sessions.settle("s1", ids[-1], mark, holder="worker:a", ttl=60, now=T0 + 10) == (
        "processed"
    )
    s = sessions.get("s1")
    assert (s.invalidated_at, s.processed_until) == (None, ids[-1])
    assert _holder(sessions, "s1") == ("worker:a", T0 + 70)


def test_settle_after_records_arrived_keeps_the_session_pending(sessions):
    ids, mark = _claimed(sessions, n=6)
    late = [sessions.append_history("s1", "user", f"late {i}") for i in range(6)]
    assert sessions.get("s1").invalidated_at == late[-1]  # the 6th unprocessed record
    assert sessions.settle("s1", ids[-1], mark, holder="worker:a", ttl=60, now=T0) == "raced"
    s = sessions.get("s1")
    assert (s.invalidated_at, s.processed_until) == (late[-1], ids[-1])


def test_settle_of_a_first_slice_only_moves_processed_until_on(sessions):
    ids, mark = _claimed(sessions, n=4)
    out = sessions.settle("s1", ids[1], mark, holder="worker:a", ttl=60, partial=True, now=T0)
    s = sessions.get("s1")
    assert out == "raced" and (s.invalidated_at, s.processed_until) == (mark, ids[1])


def test_settle_never_moves_processed_until_back(sessions):
    ids, mark = _claimed(sessions, n=4)
    sessions.advance("s1", ids[-1])
    out = sessions.settle("s1", ids[1], mark, holder="worker:a", ttl=60, partial=True, now=T0)
    assert out == "raced" and sessions.get("s1").processed_until == ids[-1]


def test_settle_by_a_worker_whose_lease_was_taken_over_changes_nothing(sessions):
    ids, mark = _claimed(sessions)
    # worker:a stalls past its TTL; worker:b takes the session over.
    (claim,) = sessions.claim("worker:b", 60, now=T0 + 61)
    assert claim.leased
    before = sessions.get("s1")
    assert sessions.settle("s1", ids[-1], mark, holder="worker:a", ttl=60, now=T0 + 62) == "lost"
    assert sessions.get("s1") == before
    assert _holder(sessions, "s1") == ("worker:b", T0 + 121)
    # ... even once worker:b has released it again.
    Leases(sessions.conn).release(lease_name("s1"), "worker:b")
    assert sessions.settle("s1", ids[-1], mark, holder="worker:a", ttl=60, now=T0 + 63) == "lost"
    assert sessions.get("s1") == before


def test_settle_with_release_gives_the_lease_up_in_the_same_write(sessions):
    ids, mark = _claimed(sessions, n=6)
    out = sessions.settle("s1", ids[-1], mark, holder="worker:a", ttl=60, release=True, now=T0 + 10)
    assert out == "processed" and _holder(sessions, "s1") is None
    assert sessions.get("s1").invalidated_at is None
    # a raced hand-over releases it too, and the session stays pending for anyone
    late = [sessions.append_history("s1", "user", f"late {i}") for i in range(6)]
    (claim,) = sessions.claim("worker:a", 60, now=T0 + 20)
    out = sessions.settle(
        "s1", late[2], claim.session.invalidated_at, holder="worker:a", ttl=60,
        partial=True, release=True, now=T0 + 20,
    )  # fmt: skip
    assert out == "raced" and _holder(sessions, "s1") is None
    assert sessions.get("s1").processed_until == late[2]
    assert [c.session.id for c in sessions.claim("worker:b", 60, now=T0 + 21)] == ["s1"]


def test_settle_with_release_by_a_worker_whose_lease_was_taken_over_changes_nothing(sessions):
    ids, mark = _claimed(sessions)
    (claim,) = sessions.claim("worker:b", 60, now=T0 + 61)
    assert claim.leased
    before = sessions.get("s1")
    out = sessions.settle("s1", ids[-1], mark, holder="worker:a", ttl=60, release=True, now=T0 + 62)
    assert out == "lost" and sessions.get("s1") == before
    assert _holder(sessions, "s1") == ("worker:b", T0 + 121)  # not released by worker:a


def test_settle_with_an_expired_lease_nobody_took_still_applies(sessions):
    ids, mark = _claimed(sessions)
    assert sessions.settle("s1", ids[-1], mark, holder="worker:a", ttl=60, now=T0 + 600) == (
        "processed"
    )


def test_record_failure_by_a_worker_holds_the_session_back(sessions):
    _claimed(sessions)
    s = sessions.record_failure(
        "s1", "model overloaded", retry_in=30, now=T0, holder="worker:a", ttl=60
    )
    assert (s.failures, s.last_error, s.retry_at) == (1, "model overloaded", T0 + 30)


def test_record_failure_by_a_worker_that_lost_its_lease_records_nothing(sessions):
    _claimed(sessions)
    sessions.claim("worker:b", 60, now=T0 + 61)
    s = sessions.record_failure("s1", "late", retry_in=30, now=T0 + 62, holder="worker:a", ttl=60)
    assert (s.failures, s.last_error, s.retry_at) == (0, None, None)


# -- PostgreSQL: row locks -----------------------------------------------------------------


@pytest.fixture
def pg(postgres_url):
    """Connections of their own (as on separate hosts) to one PostgreSQL database; each
    waits for a lock at most 10 s, so a wait shows as time, not as a hang."""
    opened: list[SessionsRepository] = []

    def open_() -> SessionsRepository:
        s = SessionsRepository(postgres_url)
        dialect_of(s.conn).set_wait_timeout(s.conn, 10_000)
        opened.append(s)
        return s

    yield open_
    for s in opened:
        if s.conn.in_transaction:
            s.conn.execute("ROLLBACK")
        s.close()


def _timed(fn):
    start = time.monotonic()
    value = fn()
    return value, time.monotonic() - start


def _is_locked(sessions: SessionsRepository, sid: str) -> bool:
    """Whether another connection holds the session's row lock (a plain locking read gives
    up after 200 ms)."""
    dialect_of(sessions.conn).set_wait_timeout(sessions.conn, 200)
    sessions.conn.execute("BEGIN")
    try:
        sessions.conn.execute(
            "SELECT 1 FROM sessions WHERE id = ? FOR NO KEY UPDATE", (sid,)
        ).fetchall()
        return False
    except sqlite3.OperationalError:
        return True
    finally:
        sessions.conn.execute("ROLLBACK")
        dialect_of(sessions.conn).set_wait_timeout(sessions.conn, 10_000)


def test_a_claim_passes_over_a_row_another_claim_holds_without_waiting(pg):
    """SKIP LOCKED at work: host A's claim is still open (its transaction holds the row
    lock of the session it took); host B's claim takes the next session at once instead of
    waiting for A, and a third host finds nothing left to take."""
    setup = pg()
    for sid in ("s1", "s2"):
        _pending(setup, sid)
    a, b, c = pg(), pg(), pg()
    a.conn.execute("BEGIN")  # A claims inside a transaction it keeps open
    (claim_a,) = a.claim("worker:a", 60, now=T0)
    assert (claim_a.session.id, claim_a.leased) == ("s1", True)
    assert _is_locked(setup, "s1")
    claims_b, waited = _timed(lambda: b.claim("worker:b", 60, now=T0))
    assert [(x.session.id, x.leased) for x in claims_b] == [("s2", True)]
    assert waited < 2.0, f"B's claim waited {waited:.2f}s for A's row lock"
    claims_c, waited = _timed(lambda: c.claim("worker:c", 60, now=T0))
    assert claims_c == [] and waited < 2.0
    a.conn.execute("COMMIT")
    assert _holder(setup, "s1") == ("worker:a", T0 + 60)
    assert _holder(setup, "s2") == ("worker:b", T0 + 60)


def test_of_a_claim_and_a_renewal_of_one_lease_the_renewal_wins(pg):
    """The lease's upsert decides what the row lock does not: B's clock says A's lease
    expired, but A is renewing it (its transaction holds the lease's row): B's claim waits
    for that row, sees the renewal and takes nothing."""
    setup = pg()
    _pending(setup, "s1")
    a, b = pg(), pg()
    a.claim("worker:a", 60, now=T0)
    a.conn.execute("BEGIN")
    assert Leases(a.conn, clock=lambda: T0 + 61).renew(lease_name("s1"), "worker:a", 60)
    out = {}
    t = threading.Thread(target=lambda: out.update(r=b.claim("worker:b", 60, now=T0 + 61)))
    t.start()
    time.sleep(0.5)
    assert t.is_alive()  # waiting for the lease's row
    a.conn.execute("COMMIT")
    t.join(10)
    assert [(c.session.id, c.leased) for c in out["r"]] == [("s1", False)]
    assert _holder(setup, "s1") == ("worker:a", T0 + 121)


def test_the_queue_never_waits_for_the_store_write_lock(pg):
    """Another host holds the store's write lock (a long write transaction): claims, lease
    renewals, the hand-over's compare-and-swap, a failure's backoff and lease releases all
    complete at once; a write of the store waits for it."""
    setup = pg()
    for sid in ("s1", "s2", "s3"):
        _pending(setup, sid, n=2)
    writer = pg()
    begin_write(writer.conn)  # holds pg_advisory_xact_lock until it ends
    worker = pg()
    try:
        leases = Leases(worker.conn, clock=lambda: T0 + 1)
        steps = {
            "claim": lambda: worker.claim("worker:a", 60, limit=3, now=T0),
            "renew": lambda: leases.renew(lease_name("s1"), "worker:a", 60),
            "settle": lambda: worker.settle(
                "s1",
                worker.max_id("s1"),
                worker.get("s1").invalidated_at,
                holder="worker:a",
                ttl=60,
                now=T0 + 2,
            ),  # fmt: skip
            "complete": lambda: worker.complete(
                "s3", worker.max_id("s3"), worker.get("s3").invalidated_at
            ),
            "record_failure": lambda: worker.record_failure(
                "s2", "boom", retry_in=30, now=T0 + 3, holder="worker:a", ttl=60
            ),
            "release": lambda: leases.release(lease_name("s2"), "worker:a"),
        }
        done = {}
        for name, step in steps.items():
            done[name], waited = _timed(step)
            assert waited < 2.0, f"{name} waited {waited:.2f}s for the write lock"
        assert [c.session.id for c in done["claim"]] == ["s1", "s2", "s3"]
        assert done["settle"] == "processed" and done["complete"] and done["renew"]
        assert worker.get("s1").invalidated_at is None is worker.get("s3").invalidated_at
        assert worker.get("s2").failures == 1
        # The lock is held all along: a write of the store waits for it (and gives up).
        dialect_of(worker.conn).set_wait_timeout(worker.conn, 300)
        with pytest.raises(sqlite3.OperationalError):
            worker.append_history("s2", "user", "a write waits for the write lock")
    finally:
        writer.conn.execute("ROLLBACK")


def test_settle_waits_for_a_write_to_the_session_and_sees_its_new_mark(pg):
    """A writer appending to the session holds its row (the mark raised, not committed):
    the compare-and-swap waits for it, then decides on the committed mark (raced), so the
    new records stay pending; nothing is lost between the two."""
    setup = pg()
    ids = _pending(setup, "s1", n=6)
    worker = pg()
    (claim,) = worker.claim("worker:a", 60, now=T0)
    mark = claim.session.invalidated_at
    writer = pg()
    begin_write(writer.conn)
    late = [writer.append_history("s1", "user", f"late {i}") for i in range(6)]
    out = {}
    t = threading.Thread(
        target=lambda: out.update(
            r=worker.settle("s1", ids[-1], mark, holder="worker:a", ttl=60, now=T0)
        )
    )
    t.start()
    time.sleep(0.5)
    assert t.is_alive()  # waiting for the writer's row lock
    writer.conn.execute("COMMIT")
    t.join(10)
    assert out["r"] == "raced"
    s = setup.get("s1")
    assert (s.invalidated_at, s.processed_until) == (late[-1], ids[-1])


def test_a_claim_passes_over_a_session_whose_hand_over_is_being_settled(pg):
    """While a settle holds the session's row (and its lease's), a claim by a host whose
    clock says the lease expired does not wait and takes nothing; once the settle commits,
    the lease is renewed and the session processed."""
    setup = pg()
    ids = _pending(setup, "s1")
    a, b = pg(), pg()
    (claim,) = a.claim("worker:a", 60, now=T0)
    a.conn.execute("BEGIN")
    assert a.settle("s1", ids[-1], claim.session.invalidated_at, holder="worker:a", ttl=60,
                    now=T0 + 59) == "processed"  # fmt: skip
    claims, waited = _timed(lambda: b.claim("worker:b", 60, now=T0 + 61))
    assert claims == [] and waited < 2.0
    a.conn.execute("COMMIT")
    assert setup.get("s1").invalidated_at is None
    assert _holder(setup, "s1") == ("worker:a", T0 + 119)


# -- the worker ----------------------------------------------------------------------------


def test_a_hand_over_the_database_does_not_record_stays_pending_and_is_retried(db_path):
    """The compare-and-swap fails (another connection holds what it needs past the wait
    timeout): nothing is marked, the session stays pending (the hand-over counts as
    `lost`), and the next tick hands the same records over again."""
    from doctree.worker.worker import MemoryWorker

    setup = SessionsRepository(db_path)
    ids = _pending(setup, "s1", n=2)
    blocker = SessionsRepository(db_path)
    jobs = []

    class Handler:
        def handle(self, job):
            jobs.append((job.first_history_id, job.last_history_id))
            if len(jobs) == 1:  # another connection takes the session's lock meanwhile
                if dialect_of(blocker.conn).row_locks:
                    blocker.conn.execute("BEGIN")
                    blocker.conn.execute(
                        "SELECT 1 FROM sessions WHERE id = 's1' FOR UPDATE"
                    ).fetchall()
                else:
                    begin_write(blocker.conn)

    worker = MemoryWorker(db_path, handler=Handler())
    dialect_of(worker.sessions.conn).set_wait_timeout(worker.sessions.conn, 300)
    try:
        first = worker.tick()
        blocker.conn.execute("ROLLBACK")
        assert first.lost == ["s1"] and first.processed == []
        s = setup.get("s1")
        assert (s.invalidated_at, s.processed_until) == (ids[-1], None)
        second = worker.tick()
        assert second.processed == ["s1"]
        assert jobs == [(ids[0], ids[-1])] * 2
        assert setup.get("s1").invalidated_at is None
    finally:
        worker.close()
        blocker.close()
        setup.close()
