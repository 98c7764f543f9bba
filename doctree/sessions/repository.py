"""Sessions, their history, and invalidation: which sessions the memory worker must collect.

A session belongs to an agent descriptor `{type, id}`. Its history records get increasing
ids. `invalidated_at` marks a session as pending (the id of the last record at the mark);
`processed_until` is the id of the last record handed to the memory agent. The four
invalidation points — more than 5 unprocessed records, sleep, reset, context compaction —
never mark sessions of a `memory-agent` descriptor. All session SQL lives in this module.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from doctree.errors import ConflictError, NotFoundError, UserError
from doctree.store import db as dbmod
from doctree.store.backends import dialect_of, is_connection, write_transaction
from doctree.store.leases import Leases
from doctree.store.paths import require_text, validate_owner
from doctree.store.secrets import redact_text, redact_value
from doctree.timeutil import now_iso

MEMORY_AGENT = "memory-agent"
#: A session is invalidated once more than this many records are unprocessed (the 6th).
UNPROCESSED_LIMIT = 5
KINDS = ("user", "assistant", "system", "tool_call", "tool_result")
TEXT_KINDS = ("user", "assistant", "system")
CONTEXT_COMPACTION = "context-compaction"
END_REASONS = ("reset", CONTEXT_COMPACTION)
STATES = ("open", "pending", "failing", "processed", "exempt")
MAX_SESSION_ID_LENGTH = 200

_TYPE = re.compile(r"[a-z][a-z0-9-]*")
_SESSION_ID = re.compile(r"[^\s\x00-\x1f\x7f]+")


#: Leases of sessions are named `session:<id>`.
LEASE_PREFIX = "session:"


def lease_name(session_id: str) -> str:
    """The lease a worker holds while it processes a session."""
    return LEASE_PREFIX + session_id


def validate_session_id(session_id: object) -> str:
    if (
        not isinstance(session_id, str)
        or not session_id
        or len(session_id) > MAX_SESSION_ID_LENGTH
        or not _SESSION_ID.fullmatch(session_id)
    ):
        raise UserError(
            f"session id {session_id!r}: must be 1 to {MAX_SESSION_ID_LENGTH} characters "
            "without whitespace or control characters"
        )
    return require_text(session_id, f"session id {session_id!r}")


def new_session_id() -> str:
    """A fresh session id: time-ordered and unique across processes."""
    return f"s-{datetime.now(UTC).strftime('%Y%m%d-%H%M%S')}-{secrets.token_hex(4)}"


@dataclass(frozen=True)
class AgentDescriptor:
    """Who a session belongs to: a type (`agent`, `memory-agent`, ...) and its owner, the
    agent id whose memory the session feeds."""

    type: str
    owner: str

    def __post_init__(self) -> None:
        if not isinstance(self.type, str) or not _TYPE.fullmatch(self.type):
            raise UserError(
                f"agent type {self.type!r}: use lowercase letters, digits and '-' "
                "(e.g. 'agent', 'memory-agent')"
            )
        validate_owner(self.owner)

    @classmethod
    def of(cls, value: AgentDescriptor | str | dict[str, str] | tuple[str, str]) -> AgentDescriptor:
        """Accept a descriptor, `{type, owner}`, `(type, owner)`,
        `'type:owner'` for known types, or a bare agent id (type `agent`)."""
        if isinstance(value, AgentDescriptor):
            return value
        if isinstance(value, dict):
            unknown = sorted(set(value) - {"type", "owner"})
            if unknown or "owner" not in value:
                raise UserError(
                    f"agent descriptor {value!r}: expected the keys type and owner"
                    + (f", not {', '.join(unknown)}" if unknown else "")
                )
            return cls(value.get("type", "agent"), value["owner"])
        if isinstance(value, tuple) and len(value) == 2:
            return cls(*value)
        if isinstance(value, str):
            for t in ("agent", MEMORY_AGENT):
                if value.startswith(t + ":") and len(value) > len(t) + 1:
                    return cls(t, value[len(t) + 1 :])
            return cls("agent", value)
        raise UserError(f"agent {value!r}: expected an agent id or {{type, owner}}")

    @property
    def exempt(self) -> bool:
        """Sessions of a memory agent are never invalidated (it would collect itself)."""
        return self.type == MEMORY_AGENT

    def __str__(self) -> str:
        return f"{self.type}:{self.owner}"


@dataclass(frozen=True)
class Session:
    """A session row. `retry_at` is unix seconds; the rest are ids and ISO times."""

    id: str
    agent: AgentDescriptor
    created_at: str
    ended_at: str | None
    ended_reason: str | None
    invalidated_at: int | None
    processed_until: int | None
    processed_at: str | None
    failures: int
    last_error: str | None
    retry_at: float | None

    @property
    def exempt(self) -> bool:
        return self.agent.exempt

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["agent"] = {"type": self.agent.type, "owner": self.agent.owner}
        return d


@dataclass(frozen=True)
class HistoryRecord:
    """One record of a session's history: content is a str for text kinds, a dict for tools."""

    id: int
    session_id: str
    kind: str
    content: str | dict[str, Any]
    time: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class SessionInfo:
    """A session with its history counts and its state, for listings."""

    session: Session
    records: int
    max_id: int | None
    unprocessed: int
    state: str

    def to_dict(self) -> dict[str, Any]:
        d = self.session.to_dict()
        d.update(records=self.records, max_id=self.max_id, unprocessed=self.unprocessed)
        d["state"] = self.state
        return d


@dataclass(frozen=True)
class Claim:
    """A pending session a worker tried to take, and whether it got the session's lease
    (False: another worker took it at the same moment)."""

    session: Session
    leased: bool


#: What settling a hand-over did: `processed` (the mark cleared), `raced` (records arrived
#: meanwhile, or only a first slice was handed over: `processed_until` moved on and the
#: session stays pending), `lost` (the lease was no longer the worker's: nothing changed).
HandOverOutcome = Literal["processed", "raced", "lost"]


def state_of(s: Session, max_id: int | None) -> str:
    """open (collecting), pending, failing (pending after a failed attempt), processed, exempt."""
    if s.exempt:
        return "exempt"
    if s.invalidated_at is not None:
        return "failing" if s.failures else "pending"
    if max_id is not None and s.processed_until is not None and max_id <= s.processed_until:
        return "processed"
    return "open"


_SESSION_COLUMNS = (
    "s.id, s.agent_type, s.owner, s.created_at, s.ended_at, s.ended_reason, "
    "s.invalidated_at, s.processed_until, s.processed_at, s.failures, s.last_error, s.retry_at"
)


def _session(row: sqlite3.Row) -> Session:
    return Session(
        id=row["id"],
        agent=AgentDescriptor(row["agent_type"], row["owner"]),
        created_at=row["created_at"],
        ended_at=row["ended_at"],
        ended_reason=row["ended_reason"],
        invalidated_at=row["invalidated_at"],
        processed_until=row["processed_until"],
        processed_at=row["processed_at"],
        failures=row["failures"],
        last_error=row["last_error"],
        retry_at=row["retry_at"],
    )


def _record(row: sqlite3.Row) -> HistoryRecord:
    return HistoryRecord(
        id=row["id"],
        session_id=row["session_id"],
        kind=row["kind"],
        content=json.loads(row["content"]),
        time=row["time"],
    )


def _encode_record(
    kind: str, content: str | dict[str, Any], time: str | None
) -> tuple[str, str, str | None]:
    """(kind, content as stored, time) of a history record, checked; every secret in the
    content becomes its marker before anything is written."""
    if kind not in KINDS:
        raise UserError(f"history kind {kind!r}: must be one of {', '.join(KINDS)}")
    if kind in TEXT_KINDS and not isinstance(content, str):
        raise UserError(f"a {kind!r} record needs text content, not {type(content).__name__}")
    if kind not in TEXT_KINDS and not isinstance(content, dict):
        raise UserError(f"a {kind!r} record needs a dict as content, not {type(content).__name__}")
    if time is not None:
        time = _check_time(time)
    try:
        # every secret in the record becomes its marker before anything is written
        encoded = json.dumps(redact_value(content), ensure_ascii=False)
    except (TypeError, ValueError, RecursionError) as e:
        raise UserError(f"a {kind!r} record's content is not JSON-serialisable: {e}") from None
    require_text(encoded, f"a {kind!r} record's content")
    return kind, encoded, time


class SessionsRepository:
    """Sessions and session history in a doctree database (a path or an open connection)."""

    def __init__(self, db: str | os.PathLike[str] | sqlite3.Connection):
        if is_connection(db):
            self.conn = db
            self._owns_conn = False
        else:
            self.conn = dbmod.connect(db)
            self._owns_conn = True

    def close(self) -> None:
        if self._owns_conn:
            self.conn.close()

    def __enter__(self) -> SessionsRepository:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One write transaction around several calls (a savepoint inside another one)."""
        with self._tx():
            yield

    def _tx(self) -> AbstractContextManager[None]:
        """A write transaction; a savepoint when the connection is already in one."""
        return write_transaction(self.conn)

    # -- sessions ------------------------------------------------------------------------

    def create(
        self,
        agent: AgentDescriptor | str | dict[str, str] | tuple[str, str],
        session_id: str | None = None,
        *,
        created_at: str | None = None,
    ) -> Session:
        """Start a session for an agent descriptor. An existing id is a conflict."""
        descriptor = AgentDescriptor.of(agent)
        sid = validate_session_id(session_id) if session_id is not None else new_session_id()
        with self._tx():
            if self.get(sid) is not None:
                raise ConflictError(f"session {sid!r}: already exists")
            self.conn.execute(
                "INSERT INTO sessions (id, agent_type, owner, created_at) VALUES (?, ?, ?, ?)",
                (sid, descriptor.type, descriptor.owner, created_at or now_iso()),
            )
        return self.require(sid)

    def create_many(
        self,
        agent: AgentDescriptor | str | dict[str, str] | tuple[str, str],
        session_ids: Iterable[str],
        *,
        created_at: str | None = None,
    ) -> int:
        """Create many sessions of one descriptor in one transaction (imports, benchmarks).
        Returns how many were created; an existing id is a conflict and creates nothing."""
        descriptor = AgentDescriptor.of(agent)
        t = created_at or now_iso()
        rows = (
            (validate_session_id(sid), descriptor.type, descriptor.owner, t) for sid in session_ids
        )
        with self._tx():
            try:
                cur = self.conn.executemany(
                    "INSERT INTO sessions (id, agent_type, owner, created_at) VALUES (?, ?, ?, ?)",
                    rows,
                )
            except sqlite3.IntegrityError as e:
                raise ConflictError(f"sessions: an id already exists ({e})") from None
        return cur.rowcount

    def ensure(
        self,
        agent: AgentDescriptor | str | dict[str, str] | tuple[str, str],
        session_id: str,
        *,
        created_at: str | None = None,
    ) -> Session:
        """The session with this id, created if missing; it must belong to `agent`."""
        descriptor = AgentDescriptor.of(agent)
        s = self.get(session_id)
        if s is None:
            try:
                return self.create(descriptor, session_id, created_at=created_at)
            except ConflictError:
                s = self.require(session_id)  # created by another process meanwhile
        if s.agent != descriptor:
            raise ConflictError(
                f"session {session_id!r}: belongs to {s.agent}, not to {descriptor}"
            )
        return s

    def get(self, session_id: str) -> Session | None:
        if isinstance(session_id, str):
            require_text(session_id, f"session id {session_id!r}")
            if "\x00" in session_id:  # no session can have it (see validate_session_id)
                return None
        row = self.conn.execute(
            f"SELECT {_SESSION_COLUMNS} FROM sessions s WHERE s.id = ?", (session_id,)
        ).fetchone()
        return _session(row) if row else None

    def require(self, session_id: str) -> Session:
        s = self.get(session_id)
        if s is None:
            raise NotFoundError(f"session {session_id!r}: no such session")
        return s

    def current(
        self, agent: AgentDescriptor | str | dict[str, str] | tuple[str, str]
    ) -> Session | None:
        """The agent's newest session that no reset or context compaction has ended."""
        d = AgentDescriptor.of(agent)
        row = self.conn.execute(
            f"SELECT {_SESSION_COLUMNS} FROM sessions s WHERE s.agent_type = ? AND s.owner = ?"
            " AND s.ended_at IS NULL ORDER BY s.created_at DESC, s.rowid DESC LIMIT 1",
            (d.type, d.owner),
        ).fetchone()
        return _session(row) if row else None

    # -- history -------------------------------------------------------------------------

    def append_history(
        self,
        session_id: str,
        kind: str,
        content: str | dict[str, Any],
        *,
        time: str | None = None,
    ) -> int:
        """Append a record and return its id. Invalidates the session at this record once
        more than 5 records are unprocessed (exempt sessions never). Secrets in the content
        are stored as markers (`[secret: aws-access-key]`), never as they were given."""
        kind, encoded, time = _encode_record(kind, content, time)
        with self._tx():
            s = self.require(session_id)
            cur = self.conn.execute(
                "INSERT INTO session_history (session_id, kind, content, time) VALUES (?, ?, ?, ?)",
                (session_id, kind, encoded, time or now_iso()),
            )
            assert cur.lastrowid is not None  # an INSERT's
            new_id = cur.lastrowid
            if not s.exempt and self._more_than(session_id, s.processed_until, UNPROCESSED_LIMIT):
                self.invalidate(session_id, new_id)
        return new_id

    def append_many(
        self, session_id: str, records: Iterable[tuple[str, str | dict[str, Any], str | None]]
    ) -> list[int]:
        """Append (kind, content, time) records in one transaction; returns their ids. The
        same checks, secret markers and invalidation as `append_history` record by record
        (the mark only rises, so it ends at the last record once more than 5 are
        unprocessed), with one session lookup and one count for the whole batch."""
        rows = [_encode_record(kind, content, time) for kind, content, time in records]
        ids: list[int] = []
        if not rows:
            return ids
        with self._tx():
            s = self.require(session_id)
            for kind, encoded, time in rows:
                cur = self.conn.execute(
                    "INSERT INTO session_history (session_id, kind, content, time)"
                    " VALUES (?, ?, ?, ?)",
                    (session_id, kind, encoded, time or now_iso()),
                )
                assert cur.lastrowid is not None  # an INSERT's
                ids.append(cur.lastrowid)
            if not s.exempt and self._more_than(session_id, s.processed_until, UNPROCESSED_LIMIT):
                self.invalidate(session_id, ids[-1])
        return ids

    def _more_than(self, session_id: str, after_id: int | None, n: int) -> bool:
        row = self.conn.execute(
            "SELECT COUNT(*) FROM (SELECT 1 FROM session_history WHERE session_id = ? AND id > ?"
            " LIMIT ?) AS recent",
            (session_id, after_id or 0, n + 1),
        ).fetchone()
        return row[0] > n

    def history(
        self,
        session_id: str,
        *,
        after_id: int | None = None,
        until_id: int | None = None,
        limit: int | None = None,
    ) -> list[HistoryRecord]:
        """Records of a session in order, those with after_id < id <= until_id."""
        sql = "SELECT * FROM session_history WHERE session_id = ? AND id > ?"
        params: list[Any] = [session_id, after_id or 0]
        if until_id is not None:
            sql += " AND id <= ?"
            params.append(until_id)
        sql += " ORDER BY id"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)
        return [_record(r) for r in self.conn.execute(sql, params)]

    def count_since(self, session_id: str, after_id: int | None) -> int:
        """How many records of the session have an id above `after_id` (None: all)."""
        row = self.conn.execute(
            "SELECT COUNT(*) FROM session_history WHERE session_id = ? AND id > ?",
            (session_id, after_id or 0),
        ).fetchone()
        return int(row[0])

    def max_id(self, session_id: str) -> int | None:
        """The id of the session's last record, or None when it has none."""
        row = self.conn.execute(
            "SELECT MAX(id) FROM session_history WHERE session_id = ?", (session_id,)
        ).fetchone()
        return row[0]

    # -- invalidation and processing -----------------------------------------------------

    def invalidate(self, session_id: str, history_id: int) -> bool:
        """Mark the session pending at `history_id`. Only raises the mark (sets it when it is
        NULL or smaller); exempt sessions are never marked. Returns whether it changed."""
        cur = self.conn.execute(
            "UPDATE sessions SET invalidated_at = ? WHERE id = ? AND agent_type != ?"
            " AND (invalidated_at IS NULL OR invalidated_at < ?)",
            (history_id, session_id, MEMORY_AGENT, history_id),
        )
        return cur.rowcount == 1

    def invalidate_unprocessed(self, session_id: str) -> bool:
        """Invalidate at the session's last record, if any record is unprocessed (the sleep,
        reset and context compaction points). Returns whether the mark changed."""
        with self._tx():
            s = self.require(session_id)
            if s.exempt:
                return False
            last = self.max_id(session_id)
            if last is None or (s.processed_until is not None and last <= s.processed_until):
                return False
            return self.invalidate(session_id, last)

    def find_invalidated(
        self,
        limit: int = 10,
        *,
        holder: str | None = None,
        now: float | None = None,
        exclude: Iterable[str] = (),
    ) -> list[Session]:
        """Pending sessions, oldest mark first. Skips sessions waiting for a retry, those
        leased by a holder other than `holder` (by anyone, when `holder` is None) and the
        ids in `exclude`."""
        t = time.time() if now is None else now
        sql, params = _pending_sql(holder, t, exclude)
        rows = self.conn.execute(
            f"SELECT {_SESSION_COLUMNS} FROM sessions s"
            + dialect_of(self.conn).index_hint("idx_sessions_invalidated_at")
            + sql
            + " ORDER BY s.invalidated_at LIMIT ?",
            (*params, limit),
        ).fetchall()
        return [_session(r) for r in rows]

    def claim(
        self,
        holder: str,
        ttl: float,
        *,
        limit: int = 1,
        now: float | None = None,
        exclude: Iterable[str] = (),
    ) -> list[Claim]:
        """Take the oldest pending sessions (as `find_invalidated` picks them) with their
        leases `session:<id>` for `ttl` seconds, in one short transaction.

        On a server with row locks (PostgreSQL) it is one statement: the candidates are
        selected `FOR NO KEY UPDATE SKIP LOCKED`, so a session another worker is claiming
        at that moment is passed over rather than waited for, and their leases are taken
        by a conditional upsert that decides, under the lease's row lock, which of two
        claimers gets one; the store's write lock is not taken. On SQLite the same runs
        under the file's write lock. A `Claim` whose lease was taken meanwhile by another
        worker has `leased` False."""
        t = time.time() if now is None else now
        exclude = list(exclude)
        if not dialect_of(self.conn).row_locks:
            with self._tx():
                found = self.find_invalidated(limit, holder=holder, now=t, exclude=exclude)
                leases = Leases(self.conn, clock=lambda: t)
                return [Claim(s, leases.take(lease_name(s.id), holder, ttl)) for s in found]
        sql, params = _pending_sql(holder, t, exclude)
        rows = self.conn.execute(
            f"WITH c AS (SELECT {_SESSION_COLUMNS} FROM sessions s"
            + sql
            + " ORDER BY s.invalidated_at LIMIT ? FOR NO KEY UPDATE OF s SKIP LOCKED),"
            " t AS (INSERT INTO leases (name, holder, acquired_at, expires_at)"
            f"  SELECT '{LEASE_PREFIX}' || c.id, ?, ?, ? FROM c"
            "  ON CONFLICT (name) DO UPDATE SET holder = excluded.holder,"
            "  acquired_at = excluded.acquired_at, expires_at = excluded.expires_at"
            "  WHERE leases.holder = excluded.holder OR leases.expires_at <= excluded.acquired_at"
            "  RETURNING name)"
            " SELECT c.*, t.name IS NOT NULL AS leased"
            f" FROM c LEFT JOIN t ON t.name = '{LEASE_PREFIX}' || c.id ORDER BY c.invalidated_at",
            (*params, limit, holder, t, t + ttl),
        ).fetchall()
        return [Claim(_session(r), bool(r["leased"])) for r in rows]

    def mark_processed(
        self, session_id: str, processed_until: int, expected_invalidated_at: int
    ) -> bool:
        """Compare-and-swap: clear the mark and set `processed_until`, only if the mark is
        still `expected_invalidated_at`. Returns whether it applied."""
        cur = self.conn.execute(
            "UPDATE sessions SET invalidated_at = NULL, processed_until = ?, processed_at = ?,"
            " failures = 0, last_error = NULL, retry_at = NULL"
            " WHERE id = ? AND invalidated_at = ?",
            (processed_until, now_iso(), session_id, expected_invalidated_at),
        )
        return cur.rowcount == 1

    def advance(self, session_id: str, processed_until: int) -> bool:
        """Move `processed_until` forward (never back), keeping the mark: records up to it
        were handed over, later ones are still pending."""
        cur = self.conn.execute(
            "UPDATE sessions SET processed_until = ?, processed_at = ?,"
            " failures = 0, last_error = NULL, retry_at = NULL"
            " WHERE id = ? AND (processed_until IS NULL OR processed_until < ?)",
            (processed_until, now_iso(), session_id, processed_until),
        )
        return cur.rowcount == 1

    def complete(self, session_id: str, processed_until: int, expected_invalidated_at: int) -> bool:
        """After a hand-over: CAS-mark processed; if records arrived meanwhile (the CAS fails),
        still advance `processed_until` so the next tick hands over only the new records.
        Returns whether the mark was cleared. (On PostgreSQL one statement under the
        session's row lock, without the store's write lock.)"""
        if dialect_of(self.conn).row_locks and not self.conn.in_transaction:
            return self._settle_row(session_id, processed_until, expected_invalidated_at) == (
                "processed"
            )
        with self._tx():
            if self.mark_processed(session_id, processed_until, expected_invalidated_at):
                return True
            self.advance(session_id, processed_until)
            return False

    def settle(
        self,
        session_id: str,
        processed_until: int,
        expected_invalidated_at: int,
        *,
        holder: str,
        ttl: float,
        partial: bool = False,
        now: float | None = None,
    ) -> HandOverOutcome:
        """The end of a hand-over by the worker holding the session's lease: `complete`
        (or, with `partial`, only `advance`: a first slice of a long backlog), done only
        while `holder` still holds the lease `session:<id>` — extended by `ttl` from `now`
        — and in one transaction with that check, so a worker whose lease was taken over
        changes nothing (`lost`).

        On PostgreSQL it is one statement under the session's and the lease's row locks
        (taken in that order, as `claim` takes them), without the store's write lock: a
        takeover of the lease and this compare-and-swap exclude each other, and records
        appended meanwhile raise the mark either before (the CAS fails: `raced`) or after
        it (a new mark). On SQLite it runs under the file's write lock."""
        t = time.time() if now is None else now
        if dialect_of(self.conn).row_locks:
            return self._settle_row(
                session_id,
                processed_until,
                expected_invalidated_at,
                lease=(lease_name(session_id), holder, t + ttl),
                partial=partial,
            )
        with self._tx():
            if not Leases(self.conn, clock=lambda: t).holds(lease_name(session_id), holder, ttl):
                return "lost"
            if partial:
                self.advance(session_id, processed_until)
                return "raced"
            return (
                "processed"
                if self.complete(session_id, processed_until, expected_invalidated_at)
                else "raced"
            )

    def _settle_row(
        self,
        session_id: str,
        processed_until: int,
        expected_invalidated_at: int,
        *,
        lease: tuple[str, str, float] | None = None,
        partial: bool = False,
    ) -> HandOverOutcome:
        """`complete` (or `advance`, with `partial`) as one conditional UPDATE of the
        session's row, decided under its row lock; with `lease` (name, holder, new expiry),
        only while the lease is the holder's, extending it."""
        head, params = _locked_session_sql(session_id, lease)
        # `o` is the session's row as locked (the latest commit): clear the mark if it is
        # still the expected one, else move processed_until forward (never back).
        done = "(o.clear OR o.behind)"
        row = self.conn.execute(
            head + " UPDATE sessions s SET"
            " invalidated_at = CASE WHEN o.clear THEN NULL ELSE s.invalidated_at END,"
            f" processed_until = CASE WHEN {done} THEN ? ELSE s.processed_until END,"
            f" processed_at = CASE WHEN {done} THEN ? ELSE s.processed_at END,"
            f" failures = CASE WHEN {done} THEN 0 ELSE s.failures END,"
            f" last_error = CASE WHEN {done} THEN NULL ELSE s.last_error END,"
            f" retry_at = CASE WHEN {done} THEN NULL ELSE s.retry_at END"
            " FROM (SELECT id, (? AND invalidated_at = ?) AS clear,"
            "  (processed_until IS NULL OR processed_until < ?) AS behind FROM l) o"
            " WHERE s.id = o.id"
            + (" AND EXISTS (SELECT 1 FROM held)" if lease else "")
            + " RETURNING o.clear",
            (
                *params,
                processed_until,
                now_iso(),
                not partial,
                expected_invalidated_at,
                processed_until,
            ),
        ).fetchone()
        if row is None:
            return "lost"
        return "processed" if row[0] else "raced"

    def record_failure(
        self,
        session_id: str,
        error: str,
        *,
        retry_in: float,
        now: float | None = None,
        holder: str | None = None,
        ttl: float | None = None,
    ) -> Session:
        """Count a failed attempt, keep its reason, and hold the session back `retry_in` s
        from `now` (unix seconds; the current time when None). With `holder` (a worker),
        only while it holds the session's lease (extended by `ttl`): a worker whose lease
        was taken over records nothing."""
        t = time.time() if now is None else now
        update = (
            "UPDATE sessions SET failures = failures + 1, last_error = ?, retry_at = ? WHERE id = ?"
        )
        values = (redact_text(error[:4000]), t + retry_in, session_id)
        if holder is None:
            self.conn.execute(update, values)
        elif dialect_of(self.conn).row_locks:
            lease = (lease_name(session_id), holder, t + (ttl or 0.0))
            head, params = _locked_session_sql(session_id, lease)
            self.conn.execute(
                head + " " + update + " AND EXISTS (SELECT 1 FROM held)", (*params, *values)
            )
        else:
            with self._tx():
                if Leases(self.conn, clock=lambda: t).holds(
                    lease_name(session_id), holder, ttl or 0.0
                ):
                    self.conn.execute(update, values)
        return self.require(session_id)

    # -- lifecycle -----------------------------------------------------------------------

    def sleep(self, session_id: str) -> bool:
        """The agent went idle: invalidate its session at the last record."""
        return self.invalidate_unprocessed(session_id)

    def end(self, session_id: str, reason: str) -> bool:
        """End a session (`reset` or `context-compaction`) and invalidate it at its last
        record. Returns whether it was invalidated."""
        if reason not in END_REASONS:
            raise UserError(f"end reason {reason!r}: must be one of {', '.join(END_REASONS)}")
        with self._tx():
            s = self.require(session_id)
            if s.ended_at is None:
                self.conn.execute(
                    "UPDATE sessions SET ended_at = ?, ended_reason = ? WHERE id = ?",
                    (now_iso(), reason, session_id),
                )
            return self.invalidate_unprocessed(session_id)

    def replace(
        self, session_id: str, reason: str, *, new_session_id: str | None = None
    ) -> Session:
        """End a session (reset or context compaction), invalidating it, and start its successor for
        the same agent descriptor, in one transaction."""
        with self._tx():
            old = self.require(session_id)
            self.end(session_id, reason)
            return self.create(old.agent, new_session_id)

    def reset(self, session_id: str, *, new_session_id: str | None = None) -> Session:
        """A session reset: invalidate the old session, return the new one."""
        return self.replace(session_id, "reset", new_session_id=new_session_id)

    def compact_context(self, session_id: str, *, new_session_id: str | None = None) -> Session:
        """A context compaction: invalidate the old session, return the new one."""
        return self.replace(session_id, CONTEXT_COMPACTION, new_session_id=new_session_id)

    # -- listing -------------------------------------------------------------------------

    def list_sessions(
        self,
        *,
        agent: AgentDescriptor | str | None = None,
        state: str | None = None,
        limit: int | None = 100,
        include_exempt: bool = True,
    ) -> list[SessionInfo]:
        """Sessions newest first, with counts and state; filter by agent and state.
        `include_exempt=False` leaves out the memory agents' own (exempt) sessions."""
        if state is not None and state not in STATES:
            raise UserError(f"state {state!r}: must be one of {', '.join(STATES)}")
        where, params = [], []
        if not include_exempt:
            where.append("s.agent_type != ?")
            params.append(MEMORY_AGENT)
        if agent is not None:
            d = AgentDescriptor.of(agent)
            where.append("s.agent_type = ? AND s.owner = ?")
            params += [d.type, d.owner]
        if state == "pending":
            where.append("s.invalidated_at IS NOT NULL AND s.failures = 0")
        elif state == "failing":
            where.append("s.invalidated_at IS NOT NULL AND s.failures > 0")
        elif state == "exempt":
            where.append("s.agent_type = ?")
            params.append(MEMORY_AGENT)
        elif state in ("open", "processed"):
            where.append("s.invalidated_at IS NULL AND s.agent_type != ?")
            params.append(MEMORY_AGENT)
        sql = (
            f"SELECT {_SESSION_COLUMNS},"
            " (SELECT COUNT(*) FROM session_history h WHERE h.session_id = s.id) AS records,"
            " (SELECT MAX(id) FROM session_history h WHERE h.session_id = s.id) AS max_id,"
            " (SELECT COUNT(*) FROM session_history h WHERE h.session_id = s.id"
            "   AND h.id > COALESCE(s.processed_until, 0)) AS unprocessed"
            " FROM sessions s"
        )
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY s.created_at DESC, s.rowid DESC"
        out = []
        for r in self.conn.execute(sql, params):
            s = _session(r)
            info = SessionInfo(
                s, r["records"], r["max_id"], r["unprocessed"], state_of(s, r["max_id"])
            )
            if state is None or info.state == state:
                out.append(info)
                if limit is not None and len(out) >= limit:
                    break
        return out

    def counts(self) -> dict[str, int]:
        """How many sessions are pending, failing and in total (cheap: uses the index)."""
        pending = "sessions" + dialect_of(self.conn).index_hint("idx_sessions_invalidated_at")
        row = self.conn.execute(
            "SELECT"
            f" (SELECT COUNT(*) FROM {pending} WHERE invalidated_at IS NOT NULL AND failures = 0),"
            f" (SELECT COUNT(*) FROM {pending} WHERE invalidated_at IS NOT NULL AND failures > 0),"
            " (SELECT COUNT(*) FROM sessions)"
        ).fetchone()
        return {"pending": row[0], "failing": row[1], "total": row[2]}

    def scrub(self, owner: str, text_map: Callable[[str], str], *, dry_run: bool = False) -> int:
        """Rewrite in place every text of the history of `owner`'s sessions (its own and
        its memory agent's conversations) that `text_map` changes, and their last errors
        (`doctree.memory.erase`). Returns how many history records changed (on a dry run:
        would change, and nothing is written)."""
        changed = 0
        if dry_run:
            for r in self.conn.execute(
                "SELECT h.content FROM session_history h JOIN sessions s"
                " ON s.id = h.session_id WHERE s.owner = ?",
                (owner,),
            ).fetchall():
                content = json.loads(r["content"])
                changed += _map_strings(content, text_map) != content
            return changed
        with self._tx():
            rows = self.conn.execute(
                "SELECT h.id, h.content FROM session_history h JOIN sessions s"
                " ON s.id = h.session_id WHERE s.owner = ?",
                (owner,),
            ).fetchall()
            for r in rows:
                content = json.loads(r["content"])
                new = _map_strings(content, text_map)
                if new != content:
                    self.conn.execute(
                        "UPDATE session_history SET content = ? WHERE id = ?",
                        (json.dumps(new, ensure_ascii=False), r["id"]),
                    )
                    changed += 1
            for r in self.conn.execute(
                "SELECT id, last_error FROM sessions WHERE owner = ? AND last_error IS NOT NULL",
                (owner,),
            ).fetchall():
                if (error := text_map(r["last_error"])) != r["last_error"]:
                    # (only the error read: a worker may clear it meanwhile, under the
                    # session's row lock alone on PostgreSQL)
                    self.conn.execute(
                        "UPDATE sessions SET last_error = ? WHERE id = ? AND last_error = ?",
                        (error, r["id"], r["last_error"]),
                    )
        return changed

    def integrity_check(self) -> str:
        """SQLite's own consistency check of the database file: 'ok' when sound (a
        PostgreSQL server checks its own storage: 'ok')."""
        if dialect_of(self.conn).name != "sqlite":
            return "ok"
        return self.conn.execute("PRAGMA integrity_check").fetchone()[0]


def _pending_sql(holder: str | None, now: float, exclude: Iterable[str]) -> tuple[str, list[Any]]:
    """The WHERE clause (over `sessions s`) of the pending sessions a worker may take."""
    exclude = list(exclude)
    sql = (
        " WHERE s.invalidated_at IS NOT NULL"
        " AND (s.retry_at IS NULL OR s.retry_at <= ?)"
        f" AND NOT EXISTS (SELECT 1 FROM leases l WHERE l.name = '{LEASE_PREFIX}' || s.id"
        "   AND l.expires_at > ? AND (CAST(? AS TEXT) IS NULL OR l.holder != ?))"
    )
    if exclude:
        sql += f" AND s.id NOT IN ({', '.join('?' * len(exclude))})"
    return sql, [now, now, holder, holder, *exclude]


def _locked_session_sql(
    session_id: str, lease: tuple[str, str, float] | None
) -> tuple[str, list[Any]]:
    """The head (`WITH ...`) of a PostgreSQL statement on one session under row locks:
    `l` is the session's row, locked (`FOR NO KEY UPDATE`: appending history to it is not
    blocked); with `lease` (name, holder, new expiry), `held` has a row only while the
    lease is the holder's, which it extends. The session's row is locked before the lease's
    (the lease UPDATE's condition reads `l`), the order `claim` takes them in, so that the
    two never wait for each other in a cycle."""
    sql = "WITH l AS (SELECT * FROM sessions WHERE id = ? FOR NO KEY UPDATE)"
    params: list[Any] = [session_id]
    if lease is not None:
        sql += (
            ", held AS (UPDATE leases SET expires_at = ? WHERE name = ? AND holder = ?"
            " AND EXISTS (SELECT 1 FROM l) RETURNING 1)"
        )
        name, holder, expires_at = lease
        params += [expires_at, name, holder]
    return sql, params


def _map_strings(value: Any, text_map: Callable[[str], str]) -> Any:
    """`value` (decoded JSON) with `text_map` applied to every string in it, keys too."""
    if isinstance(value, str):
        return text_map(value)
    if isinstance(value, list):
        return [_map_strings(v, text_map) for v in value]
    if isinstance(value, dict):
        return {text_map(k): _map_strings(v, text_map) for k, v in value.items()}
    return value


def _check_time(value: str) -> str:
    if not isinstance(value, str):
        raise UserError(f"time {value!r}: use ISO 8601, e.g. 2026-11-20T09:00:00Z")
    from doctree.sessions.transcripts import check_time

    try:
        return check_time(value)
    except UserError:
        raise UserError(f"time {value!r}: use ISO 8601, e.g. 2026-11-20T09:00:00Z") from None
