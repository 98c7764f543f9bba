"""Sessions: who a session belongs to (`AgentDescriptor`), its row (`Session`), its state,
and the table of sessions (`Sessions`: create, look up, list, count, mark pending).

A session belongs to an agent descriptor `{type, owner}`. `invalidated_at` marks a session
as pending (the id of the last record at the mark); `processed_until` is the id of the last
record handed to the memory agent. Sessions of a `memory-agent` descriptor are never marked.
The rest of the session SQL is beside this module: records (`records.py`), the end of a
session (`lifecycle.py`), a worker's claims (`claims.py`) and hand-overs (`handover.py`);
`repository.py` composes them into `SessionsRepository`.
"""

from __future__ import annotations

import os
import re
import secrets
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import Any, Self

from doctree.errors import ConflictError, NotFoundError, UserError
from doctree.store import db as dbmod
from doctree.store.backends import dialect_of, is_connection, write_transaction
from doctree.store.paths import refuse_secret, require_text, validate_owner
from doctree.timeutil import now_iso

MEMORY_AGENT = "memory-agent"
STATES = ("open", "pending", "failing", "processed", "exempt")
MAX_SESSION_ID_LENGTH = 200

_TYPE = re.compile(r"[a-z][a-z0-9-]*")
_SESSION_ID = re.compile(r"[^\s\x00-\x1f\x7f]+")


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
    if session_id in _VALID_SESSION_IDS:
        return session_id
    require_text(session_id, f"session id {session_id!r}")
    refuse_secret(session_id, "session id")
    if len(_VALID_SESSION_IDS) >= 10_000:
        _VALID_SESSION_IDS.clear()
    _VALID_SESSION_IDS.add(session_id)
    return session_id


#: Session ids already checked: a session appends many records.
_VALID_SESSION_IDS: set[str] = set()


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
        refuse_secret(self.type, "agent type")
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


def state_of(s: Session, max_id: int | None) -> str:
    """open (collecting), pending, failing (pending after a failed attempt), processed, exempt."""
    if s.exempt:
        return "exempt"
    if s.invalidated_at is not None:
        return "failing" if s.failures else "pending"
    if max_id is not None and s.processed_until is not None and max_id <= s.processed_until:
        return "processed"
    return "open"


SESSION_COLUMNS = (
    "s.id, s.agent_type, s.owner, s.created_at, s.ended_at, s.ended_reason, "
    "s.invalidated_at, s.processed_until, s.processed_at, s.failures, s.last_error, s.retry_at"
)


def session_of_row(row: sqlite3.Row) -> Session:
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


class Sessions:
    """The sessions of a doctree database (a path or an open connection)."""

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

    def __enter__(self) -> Self:
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
            f"SELECT {SESSION_COLUMNS} FROM sessions s WHERE s.id = ?", (session_id,)
        ).fetchone()
        return session_of_row(row) if row else None

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
            f"SELECT {SESSION_COLUMNS} FROM sessions s WHERE s.agent_type = ? AND s.owner = ?"
            " AND s.ended_at IS NULL ORDER BY s.created_at DESC, s.rowid DESC LIMIT 1",
            (d.type, d.owner),
        ).fetchone()
        return session_of_row(row) if row else None

    def invalidate(self, session_id: str, history_id: int) -> bool:
        """Mark the session pending at `history_id`. Only raises the mark (sets it when it is
        NULL or smaller); exempt sessions are never marked. Returns whether it changed."""
        cur = self.conn.execute(
            "UPDATE sessions SET invalidated_at = ? WHERE id = ? AND agent_type != ?"
            " AND (invalidated_at IS NULL OR invalidated_at < ?)",
            (history_id, session_id, MEMORY_AGENT, history_id),
        )
        return cur.rowcount == 1

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
            f"SELECT {SESSION_COLUMNS},"
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
            s = session_of_row(r)
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

    def integrity_check(self) -> str:
        """SQLite's own consistency check of the database file: 'ok' when sound (a
        PostgreSQL server checks its own storage: 'ok')."""
        if dialect_of(self.conn).name != "sqlite":
            return "ok"
        return self.conn.execute("PRAGMA integrity_check").fetchone()[0]
