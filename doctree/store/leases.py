"""Leases in the database: a named claim that one process holds until release or expiry.

Two processes sharing a database never hold the same lease at once; a crashed holder's
lease expires and is taken over.
"""

from __future__ import annotations

import os
import socket
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from itertools import count

from doctree.store.backends import dialect_of, write_transaction

_seq = count(1)


def new_holder(kind: str = "process") -> str:
    """A holder id unique across processes and machines."""
    return f"{kind}:{socket.gethostname()}:{os.getpid()}:{next(_seq)}"


class Leases:
    """Acquire, renew and release leases stored in the `leases` table. `clock` gives the
    time in unix seconds (tests pass their own to expire a lease without waiting)."""

    def __init__(self, conn: sqlite3.Connection, *, clock: Callable[[], float] = time.time):
        self.conn = conn
        self.clock = clock

    def acquire(self, name: str, holder: str, ttl: float) -> bool:
        """Take the lease if it is free, expired, or already ours. Returns whether we hold it."""
        if dialect_of(self.conn).row_locks:
            return self.take(name, holder, ttl)
        with write_transaction(self.conn):
            return self.take(name, holder, ttl)

    def take(self, name: str, holder: str, ttl: float) -> bool:
        """`acquire` as one statement, also inside a transaction of the caller's: a
        conditional upsert that takes the lease only if it is free, expired or ours.

        On a server with row locks (PostgreSQL) the upsert locks the lease's row (the
        conflicting row, or the new key) and checks its condition against the latest
        committed version of that row, so of two hosts claiming one lease at once exactly
        one gets it; claims of other leases never wait for it, nor for the store's write
        lock. On SQLite, `acquire` runs it under the file's write lock."""
        t = self.clock()
        row = self.conn.execute(
            "INSERT INTO leases (name, holder, acquired_at, expires_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT(name) DO UPDATE SET holder = excluded.holder,"
            " acquired_at = excluded.acquired_at, expires_at = excluded.expires_at"
            " WHERE leases.holder = excluded.holder OR leases.expires_at <= excluded.acquired_at"
            " RETURNING holder",
            (name, holder, t, t + ttl),
        ).fetchone()
        return row is not None

    def renew(self, name: str, holder: str, ttl: float) -> bool:
        """Extend a lease we hold. False if it was lost (expired and taken over)."""
        cur = self.conn.execute(
            "UPDATE leases SET expires_at = ? WHERE name = ? AND holder = ?",
            (self.clock() + ttl, name, holder),
        )
        return cur.rowcount == 1

    def holds(self, name: str, holder: str, ttl: float) -> bool:
        """Whether `holder` still holds the lease, extending it by `ttl` if so. Call it inside
        the transaction of the work the lease protects (a compare-and-swap): a lease that
        another holder took over — even one that then released it — is not held, so the
        work is not done twice. A lease that expired with nobody taking it is still ours."""
        return self.renew(name, holder, ttl)

    def held_by(self, name: str, holder: str) -> bool:
        """Whether `holder` still holds the lease (a read; nobody else has taken it over)."""
        row = self.conn.execute(
            "SELECT 1 FROM leases WHERE name = ? AND holder = ?", (name, holder)
        ).fetchone()
        return row is not None

    def release(self, name: str, holder: str) -> None:
        """Give the lease up (a no-op if someone else holds it now)."""
        self.conn.execute("DELETE FROM leases WHERE name = ? AND holder = ?", (name, holder))

    def holder(self, name: str) -> str | None:
        """Who holds the lease now, or None if it is free or expired."""
        row = self.conn.execute(
            "SELECT holder FROM leases WHERE name = ? AND expires_at > ?", (name, self.clock())
        ).fetchone()
        return row[0] if row else None

    @contextmanager
    def held(self, name: str, ttl: float, holder: str | None = None) -> Iterator[bool]:
        """`with leases.held(name, ttl) as ok:` — ok is False if another holder has it.
        The lease is always released on exit, also on failure."""
        holder = holder or new_holder()
        ok = self.acquire(name, holder, ttl)
        try:
            yield ok
        finally:
            if ok:
                self.release(name, holder)
