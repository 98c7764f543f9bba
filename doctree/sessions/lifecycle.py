"""The end of a session: sleep, reset and context compaction, the invalidation points that
mark a session pending at its last record (the fourth, more than 5 unprocessed records, is
in `records.py`).
"""

from __future__ import annotations

from doctree.errors import UserError
from doctree.sessions.records import Records
from doctree.sessions.sessions import Session
from doctree.timeutil import now_iso

CONTEXT_COMPACTION = "context-compaction"
END_REASONS = ("reset", CONTEXT_COMPACTION)


class Lifecycle(Records):
    """Sleep, end, reset and context compaction of sessions."""

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
