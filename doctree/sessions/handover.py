"""Hand-overs: the end of a worker's hand-over of a session's records to the memory agent
(processed, raced or lost), and a failed attempt's back-off.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Literal

from doctree.sessions.claims import lease_name
from doctree.sessions.sessions import Session, Sessions
from doctree.store.backends import dialect_of
from doctree.store.leases import Leases
from doctree.store.secrets import mask_text
from doctree.timeutil import now_iso

#: What settling a hand-over did: `processed` (the mark cleared), `raced` (records arrived
#: meanwhile, or only a first slice was handed over: `processed_until` moved on and the
#: session stays pending), `lost` (the lease was no longer the worker's: nothing changed).
HandOverOutcome = Literal["processed", "raced", "lost"]


class HandOver(Sessions):
    """Settling hand-overs and failed attempts of sessions."""

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
        release: bool = False,
        now: float | None = None,
        then: Callable[[], object] | None = None,
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
        it (a new mark). On SQLite it runs under the file's write lock.

        With `release`, the lease is given up in the same statement (or transaction)
        instead of extended: the hand-over's end and the lease's release are one write.

        `then` runs once the hand-over is recorded (not when `lost`): on SQLite inside the
        same write transaction, so what it writes is committed with it (the worker takes
        its next session there: one write fewer per session); it must not raise."""
        t = time.time() if now is None else now
        outcome: HandOverOutcome
        if dialect_of(self.conn).row_locks:
            outcome = self._settle_row(
                session_id,
                processed_until,
                expected_invalidated_at,
                lease=(lease_name(session_id), holder, t + ttl),
                partial=partial,
                release=release,
            )
            if then is not None and outcome != "lost":
                then()
            return outcome
        with self._tx():
            name = lease_name(session_id)
            if release:
                held = (
                    self.conn.execute(
                        "DELETE FROM leases WHERE name = ? AND holder = ?", (name, holder)
                    ).rowcount
                    == 1
                )
            else:
                held = Leases(self.conn, clock=lambda: t).holds(name, holder, ttl)
            if not held:
                return "lost"
            # (`complete`'s two statements, inline: a savepoint of their own would be a
            # statement more on each side of them)
            outcome = "processed"
            if partial or not self.mark_processed(
                session_id, processed_until, expected_invalidated_at
            ):
                self.advance(session_id, processed_until)
                outcome = "raced"
            if then is not None:
                then()
            return outcome

    def _settle_row(
        self,
        session_id: str,
        processed_until: int,
        expected_invalidated_at: int,
        *,
        lease: tuple[str, str, float] | None = None,
        partial: bool = False,
        release: bool = False,
    ) -> HandOverOutcome:
        """`complete` (or `advance`, with `partial`) as one conditional UPDATE of the
        session's row, decided under its row lock; with `lease` (name, holder, new expiry),
        only while the lease is the holder's, extending it (with `release`: deleting it)."""
        head, params = _locked_session_sql(session_id, lease, release=release)
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
        values = (mask_text(error[:4000]), t + retry_in, session_id)
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


def _locked_session_sql(
    session_id: str, lease: tuple[str, str, float] | None, *, release: bool = False
) -> tuple[str, list[Any]]:
    """The head (`WITH ...`) of a PostgreSQL statement on one session under row locks:
    `l` is the session's row, locked (`FOR NO KEY UPDATE`: appending history to it is not
    blocked); with `lease` (name, holder, new expiry), `held` has a row only while the
    lease is the holder's, which it extends (with `release`: deletes). The session's row is
    locked before the lease's (the lease statement's condition reads `l`), the order
    `claim` takes them in, so that the two never wait for each other in a cycle."""
    sql = "WITH l AS (SELECT * FROM sessions WHERE id = ? FOR NO KEY UPDATE)"
    params: list[Any] = [session_id]
    if lease is not None and release:
        sql += (
            ", held AS (DELETE FROM leases WHERE name = ? AND holder = ?"
            " AND EXISTS (SELECT 1 FROM l) RETURNING 1)"
        )
        name, holder, _ = lease
        params += [name, holder]
    elif lease is not None:
        sql += (
            ", held AS (UPDATE leases SET expires_at = ? WHERE name = ? AND holder = ?"
            " AND EXISTS (SELECT 1 FROM l) RETURNING 1)"
        )
        name, holder, expires_at = lease
        params += [expires_at, name, holder]
    return sql, params
