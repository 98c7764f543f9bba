"""The one facade an agent engine imports: record history, signal lifecycle events, and run
the memory worker in-process (a thread) or as a process.

    from doctree import Engine

    engine = Engine("agent.db")
    s = engine.start_session("main")
    engine.append(s.id, "user", "Remember that Alice prefers green tea.")
    engine.sleep(s.id)            # the agent went idle: its session is now pending
    engine.start_worker()         # hands pending sessions to the memory agent every 30 s
    ...
    engine.close()

The four invalidation points are here: `append` (the 6th unprocessed record), `sleep`,
`reset` and `compact_context`. Sessions of a `memory-agent` descriptor are exempt at all four.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from doctree.arguments import checked_methods
from doctree.compose import Settings, build_handler, build_worker, open_repository, open_sessions
from doctree.errors import UserError
from doctree.sessions.sessions import AgentDescriptor, Session
from doctree.store.backends import is_database_url
from doctree.worker.worker import (
    DEFAULT_BATCH,
    DEFAULT_INTERVAL,
    MemoryAgentHandler,
    MemoryWorker,
    TickResult,
    TranscriptJob,
)

Agent = AgentDescriptor | str | dict[str, str] | tuple[str, str]


@checked_methods
class Engine:
    """Sessions and the memory worker for one database file.

    `handler` is the memory agent: a backend string (`auto`, `offline`, `anthropic`,
    `openai:MODEL`, `replay:CASSETTE`, `jobs:FILE`, ...; see `doctree.llm.backends`) or a
    handler object (in-process workers only); None takes $DOCTREE_BACKEND, else `auto`.
    `handler_options` are the model backend's settings (`base_url`, `context_window`,
    `model`, `max_retries`, `timeout`: fields of `doctree.compose.Settings`). The objects are
    built by `doctree.compose`, as every door's are. The worker runs on its own connections,
    so the engine's calls never share a transaction with it.
    """

    def __init__(
        self,
        db: str | os.PathLike[str],
        *,
        handler: str | MemoryAgentHandler | None = None,
        interval: float = DEFAULT_INTERVAL,
        batch: int = DEFAULT_BATCH,
        after_handle: Callable[[TranscriptJob], object] | None = None,
        compact: bool = True,
        handler_options: dict[str, Any] | None = None,
        **worker_options: Any,
    ):
        self.db_path = db if is_database_url(db) else Path(db)
        self.settings = Settings.from_env(
            db=str(self.db_path),
            backend=handler if isinstance(handler, str) else None,
            **dict(handler_options or {}),
        )
        # A handler object is used as is; a name is checked now, built on first use.
        self.settings.backend_choice(handlers=True)
        self.handler = handler if handler is not None and not isinstance(handler, str) else None
        self.sessions = open_sessions(self.settings)
        self.interval = interval
        self.batch = batch
        self.compact_after_runs = compact
        self.after_handle = after_handle
        self.worker_options = worker_options
        self._worker: MemoryWorker | None = None
        self._worker_repo: Any = None

    # -- sessions and history -------------------------------------------------------------

    def start_session(
        self, agent: Agent, session_id: str | None = None, *, created_at: str | None = None
    ) -> Session:
        """Start a session of an agent descriptor (`'main'`, `'memory-agent:main'`, ...)."""
        return self.sessions.create(agent, session_id, created_at=created_at)

    def session(self, session_id: str) -> Session:
        """The session with this id (NotFoundError if there is none)."""
        return self.sessions.require(session_id)

    def current_session(self, agent: Agent) -> Session | None:
        """The agent's newest session not ended by a reset or a context compaction."""
        return self.sessions.current(agent)

    def append(
        self,
        session_id: str,
        kind: str,
        content: str | dict[str, Any],
        *,
        time: str | None = None,
    ) -> int:
        """Append a history record (`user`, `assistant`, `system`: text; `tool_call`,
        `tool_result`: a dict). Returns its id; the 6th unprocessed record invalidates.
        A secret in it is stored as a typed marker (`[secret: github-token]`), never as is."""
        return self.sessions.append_history(session_id, kind, content, time=time)

    def failing(self) -> list[Session]:
        """Sessions whose last hand-over failed, with `failures`, `last_error`, `retry_at`."""
        return [i.session for i in self.sessions.list_sessions(state="failing", limit=None)]

    # -- lifecycle: the invalidation points --------------------------------------------------

    def sleep(self, session_id: str) -> bool:
        """The agent went idle: its session becomes pending. Returns whether it was marked."""
        return self.sessions.sleep(session_id)

    def reset(self, session_id: str, *, new_session_id: str | None = None) -> Session:
        """A session reset: the old session becomes pending; returns the new session."""
        return self.sessions.reset(session_id, new_session_id=new_session_id)

    def compact_context(self, session_id: str, *, new_session_id: str | None = None) -> Session:
        """A context compaction: the old session becomes pending; returns the new session."""
        return self.sessions.compact_context(session_id, new_session_id=new_session_id)

    def reset_agent(self, agent: Agent, *, new_session_id: str | None = None) -> Session:
        """Reset an agent: invalidate its current session if it has one, start a new one."""
        current = self.current_session(agent)
        if current is None:
            return self.start_session(agent, new_session_id)
        return self.reset(current.id, new_session_id=new_session_id)

    # -- the worker, in-process -------------------------------------------------------------

    def _make_worker(self) -> MemoryWorker:
        handler = self.handler
        if handler is None:
            # The handler writes documents from the worker thread, on its own connection.
            self._worker_repo = open_repository(self.settings)
            handler = build_handler(self._worker_repo, self.settings)
        return build_worker(
            self.settings,
            handler,
            compact=self.compact_after_runs,
            after_handle=self.after_handle,
            interval=self.interval,
            batch=self.batch,
            **self.worker_options,
        )

    @property
    def worker(self) -> MemoryWorker:
        """The in-process worker (created on first use, not started)."""
        if self._worker is None:
            self._worker = self._make_worker()
        return self._worker

    def start_worker(self) -> MemoryWorker:
        """Start the worker loop in a background thread of this process."""
        self.worker.start()
        return self.worker

    def stop_worker(self, timeout: float | None = None) -> None:
        """Stop the in-process worker after the session in hand."""
        if self._worker is not None:
            self._worker.stop(timeout)

    def run_worker_once(self) -> TickResult:
        """One tick now, in the calling thread."""
        return self.worker.tick()

    # -- the worker, as a process -----------------------------------------------------------

    def worker_command(
        self,
        *,
        handler: str | None = None,
        interval: float | None = None,
        batch: int | None = None,
        once: bool = False,
        extra_args: Sequence[str] = (),
    ) -> list[str]:
        """The command line that runs `doctree worker` on this database."""
        if handler is None:
            if self.handler is not None:
                raise UserError(
                    "a worker process needs its handler by name (e.g. 'offline', 'jobs:FILE'),"
                    f" not {type(self.handler).__name__}"
                )
            handler = self.settings.backend
        cmd = [
            sys.executable,
            "-m",
            "doctree",
            "--db",
            str(self.db_path),
            "worker",
            "--interval",
            str(interval if interval is not None else self.interval),
            "--batch",
            str(batch if batch is not None else self.batch),
            "--backend",
            handler,
        ]
        if once:
            cmd.append("--once")
        for option, value in (
            ("--base-url", self.settings.base_url),
            ("--context-window", self.settings.context_window),
        ):
            if value is not None:
                cmd += [option, str(value)]
        return cmd + list(extra_args)

    def spawn_worker(
        self,
        *,
        handler: str | None = None,
        interval: float | None = None,
        batch: int | None = None,
        extra_args: Sequence[str] = (),
        **popen: Any,
    ) -> subprocess.Popen:
        """Start `doctree worker` as a separate process; stop it with `.terminate()` (SIGTERM
        finishes the session in hand) and `.wait()`."""
        cmd = self.worker_command(
            handler=handler, interval=interval, batch=batch, extra_args=extra_args
        )
        return subprocess.Popen(cmd, **popen)

    # -- closing ----------------------------------------------------------------------------

    def close(self) -> None:
        """Stop the in-process worker and close every connection."""
        if self._worker is not None:
            self._worker.close()
            self._worker = None
        if self._worker_repo is not None:
            self._worker_repo.close()
            self._worker_repo = None
        self.sessions.close()

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
