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

import dataclasses
import importlib
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from doctree.arguments import MAX_NUMBER
from doctree.errors import UserError
from doctree.store.db import connect, default_db_path
from doctree.store.documents import DocumentsRepository
from doctree.store.paths import validate_owner

if TYPE_CHECKING:  # the heavy floors are imported by the builders that need them
    from doctree.agent.runtime import MemoryAgentRuntime
    from doctree.llm.backends import Backend
    from doctree.sessions.repository import SessionsRepository
    from doctree.worker.replay import Replayer
    from doctree.worker.worker import MemoryAgentHandler, MemoryWorker, TranscriptJob

#: The environment variable of each setting read from the environment.
ENVIRONMENT = {
    "db": "DOCTREE_DB",
    "owner": "DOCTREE_OWNER",
    "backend": "DOCTREE_BACKEND",
    "context_window": "DOCTREE_CONTEXT_WINDOW",
}


def _whole(minimum: int) -> Callable[[Any], int]:
    def check(value: Any) -> int:
        number = int(value) if isinstance(value, str) and value.strip().isdigit() else value
        if (
            isinstance(number, bool)
            or not isinstance(number, int)
            or not minimum <= number <= MAX_NUMBER
        ):
            raise ValueError(f"must be a whole number, at least {minimum}, at most {MAX_NUMBER}")
        return number

    return check


def _seconds(value: Any) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        number = float("nan")
    if isinstance(value, bool) or not number > 0 or number == float("inf"):
        raise ValueError("must be a positive number of seconds")
    return number


def _text(value: Any) -> str:
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if not isinstance(value, str) or not value.strip():
        raise ValueError("must be a non-empty string")
    return value


def _owner(value: Any) -> str:
    validate_owner(_text(value))
    return value


#: How each setting's value is checked (and a string from the environment converted).
_CHECKS: dict[str, Callable[[Any], Any]] = {
    "db": _text,
    "owner": _owner,
    "backend": _text,
    "base_url": _text,
    "model": _text,
    "context_window": _whole(1),
    "max_retries": _whole(0),
    "timeout": _seconds,
}


def _checked(name: str, value: Any, where: str) -> Any:
    if value is None and name not in ("owner", "backend", "max_retries"):
        return None
    try:
        return _CHECKS[name](value)
    except (ValueError, UserError) as e:
        raise UserError(f"setting {where} {value!r}: {e}") from None


@dataclass(frozen=True)
class Settings:
    """What the object graph is built from. Build it with `from_env` to fill what is not
    given from the environment; `Settings(...)` alone reads no environment. Every value is
    checked when the settings are made (a UserError naming the setting and the rule).

    A frozen dataclass checked by hand rather than a pydantic model: every command that opens
    the database builds one, and `doctree read` stays free of pydantic's import
    (tests/test_cli_startup.py)."""

    db: str | None = None  # a SQLite file or a postgresql:// URL; None: the default database
    owner: str = "main"  # the agent id whose home '~' paths refer to
    backend: str = "auto"  # the memory agent's backend string (doctree.llm.backends)
    base_url: str | None = None  # the model API's base URL
    model: str | None = None  # the model an openai backend asks for
    context_window: int | None = None  # the served model's, in tokens
    max_retries: int = 4  # retries of a failed model request
    timeout: float | None = None  # seconds one model request may take

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            object.__setattr__(self, f.name, _checked(f.name, getattr(self, f.name), f.name))

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **given: Any) -> Settings:
        """Settings from `given` (None values count as not given), the rest from the
        `DOCTREE_*` environment (`ENVIRONMENT`), the rest defaults. A bad value is a
        UserError naming the setting (or its variable) and the rule."""
        env = os.environ if environ is None else environ
        names = [f.name for f in dataclasses.fields(cls)]
        values: dict[str, Any] = {}
        for name, variable in ENVIRONMENT.items():
            if env.get(variable):
                values[name] = _checked(name, env[variable], f"${variable}")
        for name, value in given.items():
            if name not in names:
                raise UserError(f"setting {name} {value!r}: not a setting ({', '.join(names)})")
            if value is not None:
                values[name] = _checked(name, value, name)
        return cls(**values)

    def backend_choice(self, *, handlers: bool = False) -> Backend:
        """The backend string taken apart (`handlers`: worker-only forms allowed too)."""
        from doctree.llm.backends import parse_backend

        return parse_backend(self.backend, handlers=handlers)

    def database(self) -> str | Path:
        """The database to open: `db` as given (a path is not normalised: `./notes:v2.db`
        stays a file, not a URL scheme), else the default one."""
        return default_db_path() if self.db is None else self.db

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
    from doctree.sessions.repository import SessionsRepository

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
    from doctree.agent.runtime import MemoryAgentRuntime

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
    from doctree.worker.worker import JobsFileHandler

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
        from doctree.llm.backends import parse_backend

        choice = parse_backend(choice, handlers=True)
    if choice.name in ("offline", "anthropic"):
        return choice.name
    if choice.name == "openai":
        return "offline"
    return "auto"


def build_compaction_hook(settings: Settings) -> Callable[[TranscriptJob], None]:
    """The worker's `after_handle` hook: compacts an owner's memory past its threshold, on a
    connection of its own to the settings' database."""
    from doctree.memory.compaction import compaction_hook

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
    from doctree.worker.worker import MemoryWorker

    if after_handle is None and compact:
        after_handle = build_compaction_hook(settings)
    return MemoryWorker(
        settings.database(), handler=handler, after_handle=after_handle, **worker_options
    )


def replay_pipeline(settings: Settings, repo: DocumentsRepository, **extra: Any) -> Replayer:
    """Transcripts through the live path into `repo` (what `doctree replay` does): a
    `Replayer` whose worker hands each session to the memory agent runtime of the settings'
    backend (checked: one that cannot run fails here). Closing it closes the runtime."""
    from doctree.worker.replay import Replayer

    runtime = build_runtime(repo, settings, check=True, **extra)
    try:
        return Replayer(repo, runtime)
    except BaseException:
        runtime.close()
        raise
