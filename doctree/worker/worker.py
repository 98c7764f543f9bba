"""The memory worker: hands each pending session's new records to the memory agent.

Each tick claims up to `batch` invalidated sessions (oldest mark first), one at a time,
each with the lease `session:<id>` (so two workers never hand one session over at once; a
crashed worker's lease expires and is taken over). For each it loads the records after
`processed_until`, formats them as a markdown transcript and hands a `TranscriptJob` to the
handler — the memory agent of its owner. Then it marks the session processed with a
compare-and-swap: if records arrived meanwhile, the mark stays and the next tick hands over
only the new records. A failing session is retried later with exponential backoff and never
blocks the others.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from doctree.errors import DatabaseGoneError, DatabaseUnavailableError, DoctreeError, UserError
from doctree.memory.passages import sync_passages
from doctree.memory.recall import catch_up_recall
from doctree.sessions.claims import Claim, lease_name
from doctree.sessions.handover import HandOverOutcome
from doctree.sessions.records import HistoryRecord
from doctree.sessions.repository import SessionsRepository
from doctree.sessions.sessions import Session
from doctree.sessions.transcripts import (
    Message,
    Transcript,
    format_transcript,
    transcript_of,
)
from doctree.store import db as dbmod
from doctree.store.backends import dialect_of, is_connection, is_database_url, write_transaction
from doctree.store.documents import DEFAULT_MAX_BODY_BYTES, DocumentsRepository
from doctree.store.leases import Leases, new_holder
from doctree.store.recall import RecallIndex
from doctree.store.runs import Runs
from doctree.store.secrets import mask_text

log = logging.getLogger("doctree.worker.worker")

DEFAULT_INTERVAL = 30.0
DEFAULT_BATCH = 10
DEFAULT_LEASE_TTL = 60.0
DEFAULT_RETRY_BASE = 30.0
DEFAULT_RETRY_MAX = 3600.0
DEFAULT_MAX_RECORDS = 1000
#: Records handed over are stored in the recall record at the end of a tick, many sessions
#: in one write; within a long tick, at least this often (seconds). Readers catch up first
#: in any case (`doctree.memory.recall.refresh_recall`).
RECALL_CATCH_UP_INTERVAL = 1.0
# The lease keeper renews every ttl/4, each attempt waiting at most ttl/4 for a busy
# database, so three attempts fit in one TTL; below this a thread's scheduling delay alone
# can outlast the lease, so such a TTL is refused.
MIN_LEASE_TTL = 0.25
# While the database is unavailable (a server restarting), the loop tries again after
# 1, 2, 4, ... seconds, at most this long (and never longer than its interval).
OUTAGE_RETRY_BASE = 1.0
OUTAGE_RETRY_MAX = 30.0


@dataclass(frozen=True)
class TranscriptJob:
    """What the memory agent receives: one session's records not yet handed over."""

    owner: str  # the agent whose session this was (owner of ~/memory)
    session_id: str
    transcript: str  # markdown (docs/transcripts.md) of the records after processed_until
    first_history_id: int
    last_history_id: int
    # The same records as a parsed `Transcript` (what `parse_transcript(transcript)` returns),
    # so a memory agent that works on messages need not parse the markdown again.
    parsed: Transcript | None = None


class MemoryAgentHandler(Protocol):
    """The memory agent as the worker sees it: `handle` raises on failure."""

    def handle(self, job: TranscriptJob) -> object: ...


@dataclass
class TickResult:
    """What one tick did, session ids by outcome."""

    found: int = 0
    processed: list[str] = field(default_factory=list)  # handed over, mark cleared
    raced: list[str] = field(default_factory=list)  # handed over; newer records keep it pending
    exempt: list[str] = field(default_factory=list)  # memory-agent sessions, marked processed
    skipped: list[str] = field(default_factory=list)  # leased elsewhere or done meanwhile
    failed: list[str] = field(default_factory=list)  # handler failed; retried after backoff
    lost: list[str] = field(default_factory=list)  # lease lost mid-hand-over: not marked
    orphans: list[int] = field(default_factory=list)  # runs of dead workers, failed + reverted
    records: int = 0  # records handed over
    unrecorded: list[int] = field(default_factory=list)  # runs failed earlier, recorded now

    def to_dict(self) -> dict[str, Any]:
        return {
            "found": self.found,
            "processed": self.processed,
            "raced": self.raced,
            "exempt": self.exempt,
            "skipped": self.skipped,
            "failed": self.failed,
            "lost": self.lost,
            "orphans": self.orphans,
            "records": self.records,
            "unrecorded": self.unrecorded,
        }


def backoff(
    failures: int, base: float = DEFAULT_RETRY_BASE, cap: float = DEFAULT_RETRY_MAX
) -> float:
    """Seconds to wait before retrying after the n-th consecutive failure: base * 2^(n-1)."""
    return min(cap, base * (2 ** max(0, failures - 1)))


def _db_file(conn: sqlite3.Connection) -> str | None:
    """Where the connection's database is, to open another connection to it."""
    return dialect_of(conn).location(conn)


class _LeaseKeeper:
    """Renews the lease in hand from its own thread and connection while a handler runs."""

    def __init__(
        self, path: str | None, holder: str, ttl: float, clock: Callable[[], float] = time.time
    ):
        self.path, self.holder, self.ttl, self.clock = path, holder, ttl, clock
        self._name: str | None = None
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._closed = False
        self._thread: threading.Thread | None = None
        self.lost: set[str] = set()

    def hold(self, name: str | None) -> None:
        if self.path is None:
            return
        with self._lock:
            self._name = name
            if name is not None:
                self.lost.discard(name)  # taken again: a loss before this one is over
        if name is not None and self._thread is None:
            self._thread = threading.Thread(target=self._run, name="doctree-lease", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        assert self.path is not None  # (hold() starts no thread without one)
        try:
            conn = dbmod.connect(self.path, migrate=False, create=False)
        except (DoctreeError, sqlite3.Error) as e:  # the lease is then kept by the checks of
            log.warning("event: lease keeper cannot open the database error=%s", e)  # _held
            return
        # A renewal never waits for a busy database longer than a quarter of the TTL, so a
        # failed attempt leaves time for the next ones before the lease expires.
        dialect_of(conn).set_wait_timeout(conn, max(1, int(self.ttl * 250)))
        leases = Leases(conn, clock=self.clock)
        try:
            while not self._closed:
                self._wake.wait(self.ttl / 4)
                # Renew under the lock, so the worker never releases a lease mid-renewal.
                with self._lock:
                    name = self._name
                    if name is None or self._closed:
                        continue
                    try:
                        if not leases.renew(name, self.holder, self.ttl):
                            self.lost.add(name)
                            log.warning("event: lease lost lease=%s holder=%s", name, self.holder)
                    except sqlite3.Error as e:  # a busy database: try again next round
                        log.warning("event: lease renewal failed lease=%s error=%s", name, e)
        finally:
            conn.close()

    def close(self) -> None:
        self._closed = True
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=5)


class MemoryWorker:
    """Collects pending sessions into the memory agent: `tick()` once, or `start()` a loop.

    `db` is a database path (the worker opens its own connection, so it can run in its own
    thread next to the engine) or an open connection. `after_handle(job)` runs after a
    successful hand-over (compaction plugs in there); its failure is logged, never fatal.
    `clock` gives the time in unix seconds for retries and leases (tests pass their own).
    The records handed over are stored in the recall record at the end of each tick, and
    in a longer tick before the next claim once `catch_up_interval` seconds have passed
    since the first of them was handed over (readers catch up first in any case).
    """

    def __init__(
        self,
        db: str | os.PathLike[str] | sqlite3.Connection,
        *,
        handler: MemoryAgentHandler,
        interval: float = DEFAULT_INTERVAL,
        batch: int = DEFAULT_BATCH,
        after_handle: Callable[[TranscriptJob], object] | None = None,
        lease_ttl: float = DEFAULT_LEASE_TTL,
        retry_base: float = DEFAULT_RETRY_BASE,
        retry_max: float = DEFAULT_RETRY_MAX,
        max_records: int | None = DEFAULT_MAX_RECORDS,
        holder: str | None = None,
        clock: Callable[[], float] = time.time,
        catch_up_interval: float = RECALL_CATCH_UP_INTERVAL,
    ):
        if interval <= 0:
            raise UserError(f"interval {interval!r}: must be a positive number of seconds")
        if batch < 1:
            raise UserError(f"batch {batch!r}: must be at least 1")
        if not catch_up_interval >= 0:
            raise UserError(f"catch-up interval {catch_up_interval!r}: must be 0 or more seconds")
        if not lease_ttl >= MIN_LEASE_TTL:
            raise UserError(
                f"lease ttl {lease_ttl!r}: must be at least {MIN_LEASE_TTL} seconds (the lease "
                "is renewed every quarter of it; a shorter one cannot be kept)"
            )
        if is_connection(db):
            self.sessions = SessionsRepository(db)
            path = _db_file(db)
        else:
            self.sessions = SessionsRepository(db)
            path = db if is_database_url(db) else str(Path(db))
        self.db_path = path
        self.clock = clock
        self.leases = Leases(self.sessions.conn, clock=clock)
        self.handler = handler
        self.interval = float(interval)
        self.batch = int(batch)
        self.after_handle = after_handle
        self.lease_ttl = float(lease_ttl)
        self.retry_base = float(retry_base)
        self.retry_max = float(retry_max)
        self.max_records = max_records
        self.catch_up_interval = float(catch_up_interval)
        self.holder = holder or new_holder("worker")
        self._keeper = _LeaseKeeper(path, self.holder, self.lease_ttl, clock)
        self._stop = threading.Event()
        self._stops = 0  # stop requests so far: a tick ends early only for one made during it
        self._thread: threading.Thread | None = None
        self._busy = threading.Lock()
        self._docs: DocumentsRepository | None = None
        # when the first record not yet in the recall record was handed over (monotonic)
        self._handed_since: float | None = None
        self._written: set[str] = set()  # owners handed over since: pages to index
        # the records read with the claims since the last catch-up, by id, with their
        # content as stored (`Records.read_history`): the catch-up takes those still
        # stored as they were from here rather than decode them again
        self._known: dict[int, tuple[str, HistoryRecord]] = {}
        # the next claim, made in the write of the last settle (`_claim_ahead`), and what
        # it leaves out (None: the tick takes no more); the stop requests at the tick's start
        self._ahead: tuple[list[Claim], dict[str, list[HistoryRecord]]] | None = None
        self._ahead_exclude: list[str] | None = None
        self._tick_stops = 0
        self.ticks = 0

    # -- one tick --------------------------------------------------------------------------

    def tick(self) -> TickResult:
        """Process up to `batch` pending sessions; one session's failure never stops the rest.

        Sessions are claimed one at a time (the oldest mark first, each with its lease, in
        one short transaction): a worker holds only the session in hand, so while it works
        another host takes the next one. A session is taken at most once per tick."""
        with self._busy:
            result = TickResult()
            stops = self._stops
            taken = 0
            # a run that failed while the database took no write ends `failed` before any
            # claim: no run is left `running` once this process no longer runs it
            end_unrecorded = getattr(self.handler, "end_unrecorded", None)
            if end_unrecorded is not None:
                result.unrecorded = end_unrecorded()
            # The claim leaves out the sessions taken in this tick that are still pending
            # (failed, raced, skipped, lost); one whose mark was cleared is out of the
            # pending ones anyway, unless records arrived since: it is then let go below.
            # (A shorter list to leave out keeps the claim's query cheap.)
            pending: list[str] = []
            settled: set[str] = set()
            self._tick_stops = stops
            try:
                while taken < self.batch and self._stops == stops:
                    claims, loaded = self._next_claims(pending)
                    if claims is None:
                        break
                    for claim in claims:
                        sid = claim.session.id
                        pending.append(sid)
                        if sid in settled:  # taken already in this tick, pending again since
                            if claim.leased:
                                self._release(lease_name(sid))
                            continue
                        taken += 1
                        result.found += 1
                        # the next claim may be made with this session's settle, in its
                        # write, when the tick goes on after it (`_claim_ahead`)
                        self._ahead_exclude = pending if taken < self.batch else None
                        if claim.leased:
                            self._process(claim.session, result, loaded.get(sid))
                        else:  # another worker took its lease at the same moment
                            result.skipped.append(sid)
                        self._ahead_exclude = None
                        if result.processed[-1:] == [sid] or result.exempt[-1:] == [sid]:
                            pending.pop()
                            settled.add(sid)
            finally:
                self._let_go_ahead()
            if self._handed_since is not None or self._written:
                self._catch_up()
            self.ticks += 1
            if result.found:
                log.info(
                    "event: tick found=%d processed=%d raced=%d exempt=%d skipped=%d failed=%d",
                    result.found,
                    len(result.processed),
                    len(result.raced),
                    len(result.exempt),
                    len(result.skipped),
                    len(result.failed),
                )
            return result

    def _next_claims(
        self, pending: list[str]
    ) -> tuple[list[Claim] | None, dict[str, list[HistoryRecord]]]:
        """The next claim of the tick: the one made with the last settle (`_claim_ahead`),
        or a new one (after a catch-up, when one is due); None when there is nothing to
        take or the claim failed."""
        if self._ahead is not None:
            (ahead, loaded), self._ahead = self._ahead, None
            return ahead or None, loaded
        if self._catch_up_due():
            self._catch_up(before_claim=True)
        try:
            claims, loaded = self._claim(pending)
        except (DatabaseUnavailableError, DatabaseGoneError):
            raise  # the loop waits for the database to come back, or stops
        except sqlite3.Error as e:
            log.warning("event: claim failed error=%s", e)
            return None, {}
        return claims or None, loaded

    def _catch_up_due(self) -> bool:
        return (
            self._handed_since is not None
            and time.monotonic() - self._handed_since >= self.catch_up_interval
        )

    def _claim_ahead(self) -> None:
        """Inside the write that settles a hand-over (`SessionsRepository.settle`'s `then`):
        take the tick's next session there, rather than in a write of its own after it,
        when the tick goes on (no stop asked for, no catch-up due, the batch not full). A
        failed claim is undone alone (a savepoint): the settle stands, and the tick claims
        again by itself."""
        exclude, self._ahead_exclude = self._ahead_exclude, None
        if exclude is None or self._stops != self._tick_stops or self._catch_up_due():
            return
        try:
            self._ahead = self._claim(exclude)
        except Exception as e:  # (never the settle's failure)
            log.warning("event: claim failed error=%s", e)

    def _let_go_ahead(self) -> None:
        """Release the leases of a claim made ahead that the tick did not get to (a stop
        asked for after it was made)."""
        ahead, self._ahead = self._ahead, None
        for claim in ahead[0] if ahead is not None else []:
            if claim.leased:
                self._release(lease_name(claim.session.id))

    def _claim(self, exclude: list[str]) -> tuple[list[Claim], dict[str, list[HistoryRecord]]]:
        """Take the next pending session with its lease (`SessionsRepository.claim`), and
        the records it will hand over, by session id.

        On SQLite the claim with the check for runs orphaned by a dead worker (one
        statement), the read of the records and the note that they are handed over are one
        write transaction (what
        `_load` does in a second one otherwise); a session with orphaned runs, or one on a
        server with row locks, is read by `_load` after the claim."""
        conn = self.sessions.conn
        if dialect_of(conn).row_locks:
            claims = self.sessions.claim(
                self.holder, self.lease_ttl, now=self.clock(), exclude=exclude
            )
            return claims, {}
        loaded: dict[str, list[HistoryRecord]] = {}
        with write_transaction(conn):
            claims = self.sessions.claim(
                self.holder, self.lease_ttl, now=self.clock(), exclude=exclude
            )
            for c in claims:
                s = c.session
                fresh = c.leased and not s.exempt and s.invalidated_at is not None
                if fresh and not (c.running if c.running is not None else Runs(conn).running(s.id)):
                    loaded[s.id] = self._read(s)
        return claims, loaded

    def _read(self, s: Session) -> list[HistoryRecord]:
        """The session's records after `processed_until` (at most `max_records`), noted as
        handed over for the recall record (`RecallIndex.note_handed_over`: stored by the
        catch-up at the end of the tick, whatever the memory agent does with them). Inside
        the caller's write transaction."""
        records, known = self.sessions.read_history(
            s.id, after_id=s.processed_until, limit=self.max_records
        )
        if records:
            self._known.update(known)  # for the catch-up: no record decoded twice
            RecallIndex(self.sessions.conn).note_handed_over(
                s.agent.owner, s.id, s.processed_until or 0, records[-1].id
            )
            if self._handed_since is None:
                self._handed_since = time.monotonic()
        return records

    def _catch_up(self, *, before_claim: bool = False) -> None:
        """Store the records handed over since the last catch-up in the recall record, in
        one write (`doctree.memory.recall.catch_up_recall`), and index the pages the memory
        agent wrote (`sync_passages` of each owner handed over), rather than leave both to
        the next reader. A failure is logged: what is left stays noted, and the next tick or
        reader catches up. With the database unavailable, the pages' index is not tried
        (it would wait as long again), and `before_claim` (nothing taken yet by this step of
        the tick) raises, so that the loop waits for the database as a failed claim makes it."""
        known, self._known = self._known, {}
        try:
            catch_up_recall(self.sessions.conn, known=known)
        except DatabaseUnavailableError as e:
            log.warning("event: recall catch-up failed error=%s", e)
            if before_claim:
                raise
            return
        except (DoctreeError, sqlite3.Error) as e:
            log.warning("event: recall catch-up failed error=%s", e)
        else:
            self._handed_since = None
        while self._written:
            owner = self._written.pop()
            try:
                sync_passages(self._documents(), owner)
            except DatabaseUnavailableError as e:
                log.warning("event: passage index catch-up failed owner=%s error=%s", owner, e)
            except Exception:
                log.exception("event: passage index catch-up failed owner=%s", owner)

    def _process(
        self, s: Session, result: TickResult, records: list[HistoryRecord] | None = None
    ) -> None:
        """Hand over a session whose lease this worker has just taken (its records read with
        the claim, if given); release it after (the compare-and-swap that ends a hand-over
        releases it in the same write)."""
        name = lease_name(s.id)
        self._keeper.hold(name)
        released = False
        try:
            released = self._process_leased(s, name, result, records)
        finally:
            self._keeper.hold(None)
            if not released:
                self._release(name)

    def _release(self, name: str) -> None:
        try:
            self.leases.release(name, self.holder)
        except sqlite3.Error as e:  # it expires by itself
            log.warning("event: lease release failed lease=%s error=%s", name, e)

    def _held(self, name: str, *, renew: bool = True) -> bool:
        """Whether this worker still holds `name` (extending it, with `renew`); False once
        lost."""
        if name in self._keeper.lost:
            return False
        try:
            if not renew:
                return self.leases.held_by(name, self.holder)
            return self.leases.holds(name, self.holder, self.lease_ttl)
        except sqlite3.Error as e:
            log.warning("event: lease check failed lease=%s error=%s", name, e)
            return False

    def _settle_orphans(self, session_id: str, result: TickResult) -> None:
        """Runs of this session left `running` by a worker that died (or lost its lease):
        record them failed and put back what they wrote, before the retry hands the same
        records over again. Only a lease holder runs a session, so none of them is live
        work of ours."""
        runs = Runs(self.sessions.conn)
        for run in runs.running(session_id):
            reason = (
                f"orphaned: the worker running it (process {run.pid} on {run.host}) stopped "
                "without finishing it; the session was taken over"
            )
            if not runs.settle_orphan(run.id, reason):
                continue
            result.orphans.append(run.id)
            log.warning("event: orphaned run failed run=%s session=%s", run.id, session_id)
            self._revert(run.id)

    def _revert(self, run_id: int) -> None:
        from doctree.memory.revert import revert_actor, revert_run

        try:
            revert_run(
                DocumentsRepository(self.sessions.conn),
                run_id,
                actor=revert_actor(run_id),
                lines=True,  # later runs' changes to the same pages stay; clashes are flagged
            )
        except Exception:
            log.exception("event: revert failed run=%s; its changes stay", run_id)

    def _abandon(self, outcome: object, why: str) -> None:
        """The hand-over was not recorded (the lease was lost while the handler ran, or the
        database refused the compare-and-swap): another worker may hand the same records
        over, so the run this hand-over made is failed and reverted."""
        run = getattr(outcome, "run", None)
        run_id = getattr(run, "id", None)
        if not isinstance(run_id, int):
            return
        try:
            Runs(self.sessions.conn).fail_lost(run_id, why)
        except sqlite3.Error as e:
            # It stays `running`; the next worker to take the session settles it as an
            # orphan (failed and reverted) before handing the records over again.
            log.warning("event: failing the run failed run=%s error=%s", run_id, e)
            return
        self._revert(run_id)

    def _settle(
        self, s: Session, name: str, last: int, mark: int, *, partial: bool = False
    ) -> HandOverOutcome | None:
        """The compare-and-swap that ends a hand-over, while the lease is still ours, and
        the lease's release in the same write (see `SessionsRepository.settle`); None when
        the database refused it (the lease is then released by `_process`)."""
        if name in self._keeper.lost:
            return "lost"
        self._keeper.hold(None)  # no renewal of a lease being released
        try:
            return self.sessions.settle(
                s.id, last, mark, holder=self.holder, ttl=self.lease_ttl, partial=partial,
                release=True, now=self.clock(), then=self._claim_ahead,
            )  # fmt: skip
        except sqlite3.Error as e:
            log.warning("event: hand-over not recorded session=%s error=%s", s.id, e)
            return None

    def _load(self, s: Session, name: str, result: TickResult) -> list[HistoryRecord] | None:
        """The session's records after `processed_until` (at most `max_records`), noted as
        handed over for the recall record (`_read`); None when the lease is no longer this
        worker's.

        One write transaction: the check for runs orphaned by a dead worker, the lease
        check, the read and the note (orphans, when there are any, are settled first,
        outside it: a revert is a write of its own)."""
        conn = self.sessions.conn
        orphans_checked = False
        while True:
            with write_transaction(conn):
                if orphans_checked or not Runs(conn).running(s.id):
                    if not self._held(name, renew=False):
                        return None
                    return self._read(s)
            self._settle_orphans(s.id, result)
            orphans_checked = True

    def _process_leased(
        self,
        s: Session,
        name: str,
        result: TickResult,
        records: list[HistoryRecord] | None = None,
    ) -> bool:
        """Hand over a leased session (its records already read, if given); returns whether
        the lease was released with the hand-over's end (else `_process` releases it)."""
        # `s` was read when its lease was taken, so the mark is the one under the lease.
        mark = s.invalidated_at
        if mark is None:  # (a claim picks only pending sessions)
            result.skipped.append(s.id)
            return False
        if s.exempt:
            self._settle_orphans(s.id, result)
            last = self.sessions.max_id(s.id)
            settled = self._settle(s, name, max(last or 0, s.processed_until or 0), mark)
            if settled == "lost":
                result.lost.append(s.id)
                return True
            result.exempt.append(s.id)
            log.info("event: skipped memory-agent session session=%s", s.id)
            return settled is not None
        try:
            loaded = records if records is not None else self._load(s, name, result)
            if loaded is None:  # lost before the hand-over: hand nothing over
                result.lost.append(s.id)
                return False
            records = loaded
            if not records:
                settled = self._settle(s, name, s.processed_until or 0, mark)
                if settled == "lost":
                    result.lost.append(s.id)
                else:
                    result.processed.append(s.id)
                return settled is not None
            messages = [Message(r.kind, r.time, r.content) for r in records]  # (once, for both)
            job = TranscriptJob(
                owner=s.agent.owner,
                session_id=s.id,
                transcript=format_transcript(messages, owner=s.agent.owner, session_id=s.id),
                first_history_id=records[0].id,
                last_history_id=records[-1].id,
                parsed=transcript_of(messages, owner=s.agent.owner, session_id=s.id),
            )
            outcome = self.handler.handle(job)
        except (DatabaseUnavailableError, DatabaseGoneError):
            # Not this session's fault: it stays pending, with no failure counted, and the
            # loop waits for the database to come back.
            raise
        except Exception as e:
            failures = s.failures + 1
            delay = backoff(failures, self.retry_base, self.retry_max)
            reason = mask_text(f"{type(e).__name__}: {e}")  # for the record and the log
            try:
                self.sessions.record_failure(
                    s.id, reason, retry_in=delay, now=self.clock(), holder=self.holder,
                    ttl=self.lease_ttl,
                )  # fmt: skip
            except sqlite3.Error as db_error:  # not held back: the next tick retries it
                log.warning("event: failure not recorded session=%s error=%s", s.id, db_error)
            result.failed.append(s.id)
            log.warning(
                "event: session failed session=%s failures=%d retry_in=%.1fs error=%s",
                s.id,
                failures,
                delay,
                reason,
            )
            return False
        # The compare-and-swap, in one transaction with the check that the lease is still
        # ours: a worker whose lease was taken over marks nothing. A first slice of a long
        # backlog only moves processed_until on; the rest stays pending.
        settled = self._settle(
            s, name, job.last_history_id, mark, partial=job.last_history_id < mark
        )
        if settled in ("lost", None):
            result.lost.append(s.id)
            if settled == "lost":
                why = "the worker lost its session lease mid-hand-over"
                log.warning("event: lease lost mid-hand-over session=%s; not marked", s.id)
            else:
                why = "the database did not record the hand-over; the session stays pending"
            self._abandon(outcome, why)
            return settled is not None
        (result.processed if settled == "processed" else result.raced).append(s.id)
        result.records += len(records)
        log.info(
            "event: handed over session=%s agent=%s records=%d first=%d last=%d",
            s.id,
            s.agent.owner,
            len(records),
            job.first_history_id,
            job.last_history_id,
        )
        # the pages the agent wrote are indexed with the recall record, at the catch-up
        self._written.add(s.agent.owner)
        if self.after_handle is not None:
            try:
                self.after_handle(job)
            except DatabaseUnavailableError as e:
                log.warning("event: after_handle failed session=%s error=%s", s.id, e)
            except Exception:
                log.exception("event: after_handle failed session=%s", s.id)
        return True

    def _documents(self) -> DocumentsRepository:
        """The store on the worker's connection, made once (for the passage index)."""
        if self._docs is None:
            self._docs = DocumentsRepository(
                self.sessions.conn, max_body_bytes=DEFAULT_MAX_BODY_BYTES
            )
        return self._docs

    # -- the loop ------------------------------------------------------------------------

    def run(
        self, *, once: bool = False, on_tick: Callable[[TickResult], object] | None = None
    ) -> None:
        """Tick every `interval` seconds in this thread until `stop()` (or once).

        While the database is unavailable (a PostgreSQL server restarting), each tick fails
        at once and the next is tried after a backoff (1, 2, 4, ... s, at most 30 s and the
        interval), one log line per attempt, until it is back; a session in hand then stays
        pending, with no failure counted. `once` raises instead of waiting."""
        outage = 0  # consecutive ticks that found the database unavailable
        started = 0.0
        while not self._stop.is_set():
            wait = self.interval
            try:
                result = self.tick()
            except DatabaseUnavailableError as e:
                if once:
                    raise
                if outage == 0:
                    started = time.monotonic()
                outage += 1
                wait = min(self.interval, backoff(outage, OUTAGE_RETRY_BASE, OUTAGE_RETRY_MAX))
                log.warning(
                    "event: database unavailable attempt=%d retry_in=%.1fs error=%s",
                    outage,
                    wait,
                    e,
                )
                result = None
            except sqlite3.Error as e:  # e.g. the database is busy beyond the timeout
                log.warning("event: tick failed error=%s", e)
                result = None
            else:
                if outage:
                    log.warning(
                        "event: database available again attempts=%d after=%.1fs",
                        outage,
                        time.monotonic() - started,
                    )
                    outage = 0
            if on_tick is not None and result is not None:
                on_tick(result)
            if once:
                break
            self._stop.wait(wait)

    def start(self) -> None:
        """Run the loop in a background thread (a daemon; call `stop()` before exit)."""
        if self._thread is not None and self._thread.is_alive():
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self.run, name="doctree-worker", daemon=True)
        self._thread.start()

    def request_stop(self) -> None:
        """Ask the loop to stop after the session in hand (safe from a signal handler)."""
        self._stops += 1
        self._stop.set()

    def stop(self, timeout: float | None = None) -> None:
        """Stop the loop after the session in hand; no loop tick starts after this returns.
        `tick()` called directly afterwards still works (it is not the loop)."""
        self._stops += 1
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)
        with self._busy:  # wait for a tick() running in another thread
            pass

    @property
    def stopping(self) -> bool:
        return self._stop.is_set()

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def close(self) -> None:
        self.stop()
        self._keeper.close()
        self.sessions.close()


# -- handlers ------------------------------------------------------------------------------


class JobsFileHandler:
    """An instant handler that appends each job as a JSON line to a file (tests, debugging).

    One `write` per line on a file opened for appending, so several processes may share it.
    """

    def __init__(self, path: str | os.PathLike[str], *, delay: float = 0.0):
        self.path = Path(path)
        self.delay = delay

    def handle(self, job: TranscriptJob) -> dict[str, Any]:
        from doctree.sessions.transcripts import parse_transcript

        if self.delay:
            time.sleep(self.delay)
        line = {
            "pid": os.getpid(),
            "owner": job.owner,
            "session_id": job.session_id,
            "first_history_id": job.first_history_id,
            "last_history_id": job.last_history_id,
            "messages": len(
                job.parsed.messages
                if job.parsed is not None
                else parse_transcript(job.transcript, source=job.session_id).messages
            ),
        }
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, (json.dumps(line) + "\n").encode())
        finally:
            os.close(fd)
        return line
