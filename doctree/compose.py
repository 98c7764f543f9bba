"""The composition root: doctree's objects built from one `Settings`, in one place.

Every door asks here instead of wiring the layers itself: the CLI (`replay`, `worker`,
`serve`, `mcp`, `compact` and every command that opens the database), the web inspector's
app factory, the MCP server and the library's `Engine`.

    from doctree.compose import Settings, open_repository, replay_pipeline

    settings = Settings.from_env(db="agent.db", backend="offline")
    with open_repository(settings) as repo, replay_pipeline(settings, repo) as replayer:
        outcome = replayer.replay(text, source="transcript.md")

`Settings.from_env` reads the arguments given and, for the rest, the `DOCTREE_*` environment
(`ENVIRONMENT`). The backend string is read by `doctree.llm.backends.parse_backend`, whose one
`auto` rule every door shares: anthropic when ANTHROPIC_API_KEY is set, else offline.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from doctree.agent.runtime import MemoryAgentRuntime
from doctree.errors import UserError
from doctree.llm.backends import Backend, parse_backend
from doctree.memory.compaction import compaction_hook
from doctree.sessions.repository import SessionsRepository
from doctree.store.backends import is_database_url
from doctree.store.db import connect, default_db_path
from doctree.store.documents import DocumentsRepository
from doctree.worker.replay import Replayer
from doctree.worker.worker import JobsFileHandler, MemoryAgentHandler, MemoryWorker, TranscriptJob

#: The environment variable of each setting read from the environment.
ENVIRONMENT = {
    "db": "DOCTREE_DB",
    "owner": "DOCTREE_OWNER",
    "backend": "DOCTREE_BACKEND",
    "context_window": "DOCTREE_CONTEXT_WINDOW",
}


class Settings(BaseModel):
    """What the object graph is built from. Build it with `from_env` to fill what is not
    given from the environment; `Settings(...)` alone reads no environment."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    db: str | None = Field(
        None, description="A SQLite file or a postgresql:// URL; None: the default database."
    )
    owner: str = Field("main", description="The agent id whose home '~' paths refer to.")
    backend: str = Field(
        "auto", description="The memory agent's backend string (doctree.llm.backends)."
    )
    base_url: str | None = Field(None, description="The model API's base URL.")
    model: str | None = Field(None, description="The model an openai backend asks for.")
    context_window: int | None = Field(None, ge=1, description="The served model's, in tokens.")
    max_retries: int = Field(4, ge=0, description="Retries of a failed model request.")
    timeout: float | None = Field(None, gt=0, description="Seconds one model request may take.")

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **given: Any) -> Settings:
        """Settings from `given` (None values count as not given), the rest from the
        `DOCTREE_*` environment (`ENVIRONMENT`), the rest defaults. A bad value is a
        UserError naming the setting (or its variable) and the value."""
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        source: dict[str, str] = {}
        for name, variable in ENVIRONMENT.items():
            if env.get(variable):
                values[name], source[name] = env[variable], f"${variable}"
        for name, value in given.items():
            if value is not None:
                values[name], source[name] = value, name
        if "db" in values:
            values["db"] = str(values["db"])
        try:
            return cls(**values)
        except ValidationError as e:
            first = e.errors()[0]
            name = str(first["loc"][0]) if first["loc"] else "settings"
            where = source.get(name, name)
            raise UserError(
                f"setting {where} {values.get(name)!r}: {first['msg'].lower()}"
            ) from None

    def backend_choice(self, *, handlers: bool = False) -> Backend:
        """The backend string taken apart (`handlers`: worker-only forms allowed too)."""
        return parse_backend(self.backend, handlers=handlers)

    def database(self) -> str | Path:
        """The database to open: `db`, else the default one."""
        if self.db is None:
            return default_db_path()
        if is_database_url(self.db) or self.db == ":memory:":
            return self.db
        return Path(self.db)

    def model_options(self) -> dict[str, Any]:
        """The memory agent runtime's settings that were set (base URL, model, ...)."""
        options = {
            "base_url": self.base_url,
            "model": self.model,
            "context_window": self.context_window,
            "timeout": self.timeout,
        }
        return {"max_retries": self.max_retries} | {
            k: v for k, v in options.items() if v is not None
        }


# -- the store -------------------------------------------------------------------------------


def connect_database(
    settings: Settings, *, create: bool = True, create_folder: bool = False
) -> Any:
    """A connection to the settings' database, its schema brought up to date. `create=False`
    refuses a SQLite file that does not exist; `create_folder` also makes its folder."""
    return connect(settings.database(), create=create, create_folder=create_folder)


def open_repository(settings_or_connection: Settings | Any) -> DocumentsRepository:
    """The document repository: on a connection of its own to the settings' database (closed
    with it), or on an open connection (its owner closes it)."""
    if isinstance(settings_or_connection, Settings):
        return DocumentsRepository(settings_or_connection.database())
    return DocumentsRepository(settings_or_connection)


def open_sessions(
    settings_or_repo: Settings | DocumentsRepository,
) -> SessionsRepository:
    """The sessions repository: on a repository's connection (sharing its transactions), or
    on a connection of its own to the settings' database."""
    if isinstance(settings_or_repo, DocumentsRepository):
        return SessionsRepository(settings_or_repo.conn)
    return SessionsRepository(settings_or_repo.database())


# -- the memory agent and the worker ---------------------------------------------------------


def build_runtime(
    repo: DocumentsRepository, settings: Settings, *, check: bool = False, **extra: Any
) -> MemoryAgentRuntime:
    """The memory agent runtime of the settings' backend on `repo`. `extra` are runtime
    options not in the settings (a definition, cassette, upstream, ...). With `check`, a
    backend that cannot run (no API key, no cassette, too small a context window) fails here,
    before any session is touched."""
    choice = settings.backend_choice()
    runtime = MemoryAgentRuntime(repo, backend=choice, **(settings.model_options() | extra))
    if check and runtime.backend != "offline":
        try:
            runtime.client()
        except BaseException:
            runtime.close()
            raise
    return runtime


def build_handler(
    repo: DocumentsRepository, settings: Settings, *, check: bool = False, **extra: Any
) -> MemoryAgentHandler:
    """The worker's handler named by the settings' backend: the memory agent runtime, or a
    worker-only handler (`jobs:FILE[:DELAY]`, `python:MODULE:ATTR`)."""
    choice = settings.backend_choice(handlers=True)
    if choice.name == "jobs":
        return JobsFileHandler(choice.path or "", delay=choice.delay)
    if choice.name == "python":
        module_name, _, attr = (choice.target or "").partition(":")
        try:
            obj = getattr(importlib.import_module(module_name), attr)
        except (ImportError, AttributeError) as e:
            raise UserError(f"backend {choice.spec!r}: cannot be imported ({e})") from None
        return obj if hasattr(obj, "handle") else obj(repo)
    return build_runtime(repo, settings, check=check, **extra)


def compaction_backend(choice: Backend | str) -> str:
    """The compaction backend that goes with a memory-agent backend: the same for offline
    and anthropic (and what `auto` picked), offline for openai (memory kept on a local model
    is not sent to another API), otherwise `auto` (the one rule)."""
    if isinstance(choice, str):
        choice = parse_backend(choice, handlers=True)
    if choice.name in ("offline", "anthropic"):
        return choice.name
    if choice.name == "openai":
        return "offline"
    return "auto"


def build_compaction_hook(settings: Settings) -> Callable[[TranscriptJob], None]:
    """The worker's `after_handle` hook: compacts an owner's memory past its threshold, on a
    connection of its own to the settings' database."""
    backend = compaction_backend(settings.backend_choice(handlers=True))
    return compaction_hook(settings.database(), backend=backend)


def build_worker(
    settings: Settings,
    handler: MemoryAgentHandler,
    *,
    compact: bool = True,
    after_handle: Callable[[TranscriptJob], object] | None = None,
    **worker_options: Any,
) -> MemoryWorker:
    """The memory worker on the settings' database (its own connections), handing sessions to
    `handler`; with `compact` (and no `after_handle` given), compacting after each run."""
    if after_handle is None and compact:
        after_handle = build_compaction_hook(settings)
    return MemoryWorker(
        settings.database(), handler=handler, after_handle=after_handle, **worker_options
    )


def replay_pipeline(settings: Settings, repo: DocumentsRepository, **extra: Any) -> Replayer:
    """Transcripts through the live path into `repo` (what `doctree replay` does): a
    `Replayer` whose worker hands each session to the memory agent runtime of the settings'
    backend (checked: one that cannot run fails here). Closing it closes the runtime."""
    runtime = build_runtime(repo, settings, check=True, **extra)
    try:
        return Replayer(repo, runtime)
    except BaseException:
        runtime.close()
        raise
