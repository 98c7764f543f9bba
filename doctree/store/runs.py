"""Runs of the memory agent: who, on what, with which backend, how it ended, what it cost.

A run is created before the first tool call so every version it writes can carry its id; it
accumulates turns, tool calls and token usage as it goes, and is finished once with a
status and a stop reason. A run whose changes were put back (`doctree.memory.revert`) keeps its
status and records when and by whom it was reverted; documents such a revert could not put
back (a later run changed the same lines) are recorded as the run's open reviews
(`run_reviews`) until put back or kept by a person. All SQL for runs lives in this module.

A run records the host and process id that run it. A run left `running` by a process that is
gone (killed mid-run) is orphaned: reading it shows it `failed` with stop reason `orphaned`
(this host's processes can be checked; another host's cannot), and the worker that takes its
session over records it so (`settle_orphan`) and reverts it before the retry.
"""

from __future__ import annotations

import os
import socket
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from doctree.errors import NotFoundError, UserError
from doctree.store.documents import now
from doctree.store.secrets import mask_text

STATUSES = ("running", "completed", "stopped", "failed")


@dataclass
class Usage:
    """Token counts of one response or of a whole run."""

    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.input_tokens + other.input_tokens,
            self.output_tokens + other.output_tokens,
            self.cache_read_tokens + other.cache_read_tokens,
            self.cache_write_tokens + other.cache_write_tokens,
        )

    @property
    def total(self) -> int:
        return (
            self.input_tokens
            + self.output_tokens
            + self.cache_read_tokens
            + self.cache_write_tokens
        )


@dataclass
class Run:
    id: int
    definition: str  # the agent definition the run used, e.g. 'memory-agent'
    owner: str  # whose ~/memory the run writes
    session_id: str | None
    memory_session_id: str | None
    first_history_id: int | None
    last_history_id: int | None
    backend: str
    model: str
    status: str
    stop_reason: str | None
    turns: int
    tool_calls: int
    tool_errors: int
    input_tokens: int
    output_tokens: int
    cache_read_tokens: int
    cache_write_tokens: int
    cost_usd: float
    error: str | None
    started_at: str
    ended_at: str | None
    reverted_at: str | None = None  # when `doctree revert --run` (or the runtime) put it back
    reverted_by: str | None = None
    host: str | None = None  # the process that runs it
    pid: int | None = None

    @property
    def usage(self) -> Usage:
        return Usage(
            self.input_tokens, self.output_tokens, self.cache_read_tokens, self.cache_write_tokens
        )

    def to_dict(self) -> dict[str, Any]:
        return self.__dict__.copy()


@dataclass
class Review:
    """A document a revert of a run could not put back: it needs a person to look at it."""

    document_id: int
    path: str
    reason: str
    flagged_at: str

    def to_dict(self) -> dict[str, Any]:
        return self.__dict__.copy()


class Runs:
    """The `runs` table over an open connection (the store's, so writes share its file)."""

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn

    def start(
        self,
        *,
        owner: str,
        backend: str,
        model: str,
        definition: str = "memory-agent",
        session_id: str | None = None,
        memory_session_id: str | None = None,
        first_history_id: int | None = None,
        last_history_id: int | None = None,
    ) -> int:
        """Create a run in state `running`; returns its id."""
        cur = self.conn.execute(
            "INSERT INTO runs (definition, owner, session_id, memory_session_id,"
            " first_history_id, last_history_id, backend, model, status, started_at, host, pid)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'running', ?, ?, ?)",
            (
                definition,
                owner,
                session_id,
                memory_session_id,
                first_history_id,
                last_history_id,
                backend,
                model,
                now(),
                socket.gethostname(),
                os.getpid(),
            ),
        )
        return int(cur.lastrowid)

    def set_memory_session(self, run_id: int, memory_session_id: str) -> None:
        self.conn.execute(
            "UPDATE runs SET memory_session_id = ? WHERE id = ?", (memory_session_id, run_id)
        )

    def record_turn(self, run_id: int, usage: Usage, cost_usd: float) -> None:
        """Add one model round trip with its usage and cost."""
        self.conn.execute(
            "UPDATE runs SET turns = turns + 1, input_tokens = input_tokens + ?,"
            " output_tokens = output_tokens + ?, cache_read_tokens = cache_read_tokens + ?,"
            " cache_write_tokens = cache_write_tokens + ?, cost_usd = cost_usd + ? WHERE id = ?",
            (
                usage.input_tokens,
                usage.output_tokens,
                usage.cache_read_tokens,
                usage.cache_write_tokens,
                cost_usd,
                run_id,
            ),
        )

    def record_tool_calls(self, run_id: int, calls: int, errors: int) -> None:
        self.conn.execute(
            "UPDATE runs SET tool_calls = tool_calls + ?, tool_errors = tool_errors + ?"
            " WHERE id = ?",
            (calls, errors, run_id),
        )

    def finish(
        self, run_id: int, status: str, stop_reason: str | None, error: str | None = None
    ) -> Run:
        """End a run with its status (completed, stopped, failed) and why it stopped. A run
        no longer running (settled as orphaned by the worker that took its session over) keeps
        the outcome it was given."""
        if status not in STATUSES or status == "running":
            raise UserError(f"run status {status!r}: must be completed, stopped or failed")
        self.conn.execute(
            "UPDATE runs SET status = ?, stop_reason = ?, error = ?, ended_at = ?"
            " WHERE id = ? AND status = 'running'",
            (status, stop_reason, mask_text(error) if error else error, now(), run_id),
        )
        return self.get(run_id)

    def fail_lost(self, run_id: int, error: str) -> Run:
        """Record that a run's worker lost its session lease mid-hand-over: whatever it ended
        with, the run is failed (`lease_lost`), unless it was already settled as failed."""
        self.conn.execute(
            "UPDATE runs SET status = 'failed', stop_reason = 'lease_lost', error = ?,"
            " ended_at = COALESCE(ended_at, ?) WHERE id = ? AND status != 'failed'",
            (mask_text(error), now(), run_id),
        )
        return self.get(run_id)

    def running(self, session_id: str) -> list[Run]:
        """Runs of `session_id` still recorded as `running`, oldest first."""
        rows = self.conn.execute(
            "SELECT * FROM runs WHERE session_id = ? AND status = 'running' ORDER BY id",
            (session_id,),
        ).fetchall()
        return [Run(**{k: r[k] for k in r.keys()}) for r in rows]  # noqa: SIM118

    def settle_orphan(self, run_id: int, reason: str) -> bool:
        """Record a run whose process is gone as failed (`orphaned`). Returns whether it was
        still running (a run that finished meanwhile is left as it ended)."""
        cur = self.conn.execute(
            "UPDATE runs SET status = 'failed', stop_reason = 'orphaned', error = ?,"
            " ended_at = ? WHERE id = ? AND status = 'running'",
            (mask_text(reason), now(), run_id),
        )
        return cur.rowcount == 1

    def mark_reverted(self, run_id: int, actor: str) -> Run:
        """Record that the run's changes were reverted; the first revert's time is kept."""
        self.conn.execute(
            "UPDATE runs SET reverted_at = ?, reverted_by = ? WHERE id = ? AND reverted_at IS NULL",
            (now(), actor, run_id),
        )
        return self.get(run_id)

    def flag_reviews(self, run_id: int, items: list[tuple[int, str]]) -> int:
        """Record documents a revert of the run could not put back, each with why, for a
        person to review (one open review per document). Returns how many were new."""
        flagged = 0
        for document_id, reason in items:
            open_ = self.conn.execute(
                "SELECT id FROM run_reviews WHERE run_id = ? AND document_id = ?"
                " AND resolved_at IS NULL",
                (run_id, document_id),
            ).fetchone()
            if open_ is not None:
                self.conn.execute(
                    "UPDATE run_reviews SET reason = ? WHERE id = ?", (reason, open_[0])
                )
                continue
            self.conn.execute(
                "INSERT INTO run_reviews (run_id, document_id, reason, flagged_at)"
                " VALUES (?, ?, ?, ?)",
                (run_id, document_id, reason, now()),
            )
            flagged += 1
        return flagged

    def resolve_reviews(self, run_id: int, document_ids: list[int], actor: str) -> int:
        """Close the run's open reviews of these documents (put back since, or kept by a
        person's decision). Returns how many were closed."""
        closed = 0
        for document_id in dict.fromkeys(document_ids):
            cur = self.conn.execute(
                "UPDATE run_reviews SET resolved_at = ?, resolved_by = ?"
                " WHERE run_id = ? AND document_id = ? AND resolved_at IS NULL",
                (now(), actor, run_id, document_id),
            )
            closed += cur.rowcount
        return closed

    def reviews(self, run_ids: list[int]) -> dict[int, list[Review]]:
        """The open reviews of these runs, by run id, each with the document's path now."""
        out: dict[int, list[Review]] = {}
        if not run_ids:
            return out
        marks = ", ".join("?" for _ in run_ids)
        rows = self.conn.execute(
            "SELECT r.run_id, r.document_id, d.path, r.reason, r.flagged_at"
            " FROM run_reviews r JOIN documents d ON d.id = r.document_id"
            f" WHERE r.resolved_at IS NULL AND r.run_id IN ({marks})"
            " ORDER BY r.run_id, r.id",
            [int(i) for i in run_ids],
        ).fetchall()
        for r in rows:
            out.setdefault(r[0], []).append(Review(r[1], r[2], r[3], r[4]))
        return out

    def scrub(self, owner: str, text_map: Callable[[str], str], *, dry_run: bool = False) -> int:
        """Rewrite in place the errors of `owner`'s runs, and the reasons of their reviews,
        that `text_map` changes (`doctree.memory.erase`). Returns how many runs' errors
        changed (on a dry run: would)."""
        changed = 0
        for r in self.conn.execute(
            "SELECT id, error FROM runs WHERE owner = ? AND error IS NOT NULL",
            (owner,),
        ).fetchall():
            if (error := text_map(r[1])) != r[1]:
                if not dry_run:
                    self.conn.execute("UPDATE runs SET error = ? WHERE id = ?", (error, r[0]))
                changed += 1
        for r in self.conn.execute(
            "SELECT v.id, v.reason FROM run_reviews v JOIN runs r ON r.id = v.run_id"
            " WHERE r.owner = ?",
            (owner,),
        ).fetchall():
            if (reason := text_map(r[1])) != r[1] and not dry_run:
                self.conn.execute("UPDATE run_reviews SET reason = ? WHERE id = ?", (reason, r[0]))
        return changed

    def get(self, run_id: int) -> Run:
        row = self.conn.execute("SELECT * FROM runs WHERE id = ?", (run_id,)).fetchone()
        if row is None:
            raise NotFoundError(f"run {run_id}: no such run")
        return _run(row)

    def list(
        self,
        *,
        owner: str | None = None,
        session_id: str | None = None,
        status: str | None = None,
        limit: int | None = 50,
    ) -> list[Run]:
        """Runs, newest first, optionally of one owner, session or status (a run
        whose process is gone counts as failed, never as running)."""
        where, params = [], []
        for column, value in (("owner", owner), ("session_id", session_id)):
            if value is not None:
                where.append(f"{column} = ?")
                params.append(value)
        if status is not None:
            where.append("status IN (?, 'running')" if status == "failed" else "status = ?")
            params.append(status)
        sql = "SELECT * FROM runs"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY id DESC"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(int(limit))
        runs = [_run(r) for r in self.conn.execute(sql, params)]
        return runs if status is None else [r for r in runs if r.status == status]


def _run(row: sqlite3.Row) -> Run:
    run = Run(**{k: row[k] for k in row.keys()})  # noqa: SIM118 (Row iterates values)
    if run.status == "running" and process_gone(run.host, run.pid):
        run.status, run.stop_reason = "failed", "orphaned"
        run.error = run.error or (
            f"orphaned: process {run.pid} on {run.host} ended without finishing the run"
        )
    return run


def process_gone(host: str | None, pid: int | None) -> bool:
    """Whether the process `pid` on `host` has ended; False when it cannot be known (another
    host, or no process recorded)."""
    if host is None or pid is None or host != socket.gethostname():
        return False
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except (PermissionError, OverflowError):
        return False
    return _is_zombie(pid)


def _is_zombie(pid: int) -> bool:
    """A killed child not yet reaped by its parent is gone too (Linux: state Z)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except (OSError, IndexError):
        return False
