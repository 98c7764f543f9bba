"""Claims: which pending sessions a memory worker may take, and the lease `session:<id>`
it takes each with.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any

from doctree.sessions.sessions import SESSION_COLUMNS, Session, Sessions, session_of_row
from doctree.store.backends import dialect_of
from doctree.store.leases import Leases

#: Leases of sessions are named `session:<id>`.
LEASE_PREFIX = "session:"


def lease_name(session_id: str) -> str:
    """The lease a worker holds while it processes a session."""
    return LEASE_PREFIX + session_id


@dataclass(frozen=True)
class Claim:
    """A pending session a worker tried to take, and whether it got the session's lease
    (False: another worker took it at the same moment)."""

    session: Session
    leased: bool
    #: Whether runs of the session are recorded `running` (left so by a worker that died,
    #: since only a lease holder runs a session), as the claim found them; None when the
    #: claim did not look (on a server with row locks).
    running: bool | None = None


class Claims(Sessions):
    """A worker's view of the pending sessions: find them, claim them."""

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
        return [session_of_row(r) for r in self._pending(limit, holder, t, exclude)]

    def _pending(
        self,
        limit: int,
        holder: str | None,
        now: float,
        exclude: Iterable[str],
        *,
        running: bool = False,
    ) -> list[Any]:
        """The rows of `find_invalidated`; with `running`, each ends with whether runs of
        the session are recorded `running` (in the same statement)."""
        sql, params = _pending_sql(holder, now, exclude)
        also = (
            ", EXISTS (SELECT 1 FROM runs r WHERE r.session_id = s.id"
            " AND r.status = 'running') AS running"
            if running
            else ""
        )
        return self.conn.execute(
            f"SELECT {SESSION_COLUMNS}{also} FROM sessions s"
            + dialect_of(self.conn).index_hint("idx_sessions_invalidated_at")
            + sql
            + " ORDER BY s.invalidated_at LIMIT ?",
            (*params, limit),
        ).fetchall()

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
        under the file's write lock, and tells of each session whether runs of it are
        recorded `running` (`Claim.running`). A `Claim` whose lease was taken meanwhile by
        another worker has `leased` False."""
        t = time.time() if now is None else now
        exclude = list(exclude)
        if not dialect_of(self.conn).row_locks:
            # (in the caller's write transaction as it is, when one is open: a find and
            # upserts need no savepoint of their own)
            with nullcontext() if self.conn.in_transaction else self._tx():
                rows = self._pending(limit, holder, t, exclude, running=True)
                leases = Leases(self.conn, clock=lambda: t)
                return [
                    Claim(s, leases.take(lease_name(s.id), holder, ttl), bool(r["running"]))
                    for r in rows
                    for s in [session_of_row(r)]
                ]
        sql, params = _pending_sql(holder, t, exclude)
        rows = self.conn.execute(
            f"WITH c AS (SELECT {SESSION_COLUMNS} FROM sessions s"
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
        return [Claim(session_of_row(r), bool(r["leased"])) for r in rows]


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
