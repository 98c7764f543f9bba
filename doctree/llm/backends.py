"""The backend string: which memory agent runs, read by one function with one `auto` rule.

    auto                  anthropic when ANTHROPIC_API_KEY is set, else offline
    offline               the rule-based memory agent, no model
    anthropic             the Messages API (ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL)
    openai / openai:MODEL an OpenAI-compatible server (OPENAI_BASE_URL)
    replay:CASSETTE       a recording served to the real SDK over loopback HTTP
    record:CASSETTE       forward to the API and record a cassette
    jobs:FILE[:DELAY]     (worker handlers only) each job appended to FILE, no model
    python:MODULE:ATTR    (worker handlers only) a handler object, or a factory of one

Every door (the CLI's `replay` and `worker`, the library's `Engine`, compaction) reads a
backend string here, so `auto` means the same everywhere. `doctree.compose` builds the objects
a parsed `Backend` names.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping
from dataclasses import dataclass

from doctree.errors import UserError

#: The backends that run the memory agent (after `auto` is resolved).
MODEL_BACKENDS = ("offline", "anthropic", "openai", "replay")
#: The backends a worker takes besides the model backends.
HANDLER_BACKENDS = ("jobs", "python")
MODEL_FORMS = "auto, offline, anthropic, openai, openai:MODEL, replay:CASSETTE, record:CASSETTE"
HANDLER_FORMS = "jobs:FILE[:DELAY], python:MODULE:ATTR"
#: The environment variable whose key the `auto` rule looks for, and a paid backend bills.
API_KEY_VARIABLE = "ANTHROPIC_API_KEY"


def auto_backend(environ: Mapping[str, str] | None = None) -> str:
    """The one `auto` rule: `anthropic` when ANTHROPIC_API_KEY is set (and not empty), else
    `offline`."""
    env = os.environ if environ is None else environ
    return "anthropic" if env.get(API_KEY_VARIABLE) else "offline"


@dataclass(frozen=True)
class Backend:
    """A backend string taken apart: the backend it names (`auto` already resolved) and the
    model, cassette, jobs file or import target it carries."""

    name: str
    spec: str = ""
    auto: bool = False  # picked by the `auto` rule
    model: str | None = None  # openai:MODEL
    cassette: str | None = None  # replay:CASSETTE, record:CASSETTE
    record: bool = False
    path: str | None = None  # jobs:FILE
    delay: float = 0.0  # jobs:FILE:DELAY
    target: str | None = None  # python:MODULE:ATTR, as "MODULE:ATTR"

    @property
    def runs_the_memory_agent(self) -> bool:
        """Whether this backend is the memory agent runtime (not a worker-only handler)."""
        return self.name in MODEL_BACKENDS

    def note(self) -> str | None:
        """For `auto`, one line saying which backend it picked and why (a paid API is never
        used without saying so); None for a backend named on purpose."""
        if not self.auto:
            return None
        if self.name == "offline":
            return (
                "backend auto: picked 'offline' (no model API key is set; the rule-based memory "
                "agent, no API calls)"
            )
        return (
            f"backend auto: picked {self.name!r} because {API_KEY_VARIABLE} is set: runs call "
            "the paid API (--backend offline to avoid it)"
        )


def parse_backend(
    spec: str, *, handlers: bool = False, environ: Mapping[str, str] | None = None
) -> Backend:
    """The one reader of backend strings (the forms are in this module's docstring).

    `handlers=True` also takes the worker-only forms `jobs:` and `python:`. Anything else is a
    UserError naming the input and the forms allowed.
    """
    forms = f"{MODEL_FORMS}, {HANDLER_FORMS}" if handlers else MODEL_FORMS
    if not isinstance(spec, str):
        raise UserError(f"backend {spec!r}: must be a string, one of {forms}")
    name, sep, rest = spec.partition(":")
    if name == "auto" and not sep:
        return Backend(auto_backend(environ), spec=spec, auto=True)
    if name in ("offline", "anthropic", "openai", "replay") and not sep:
        return Backend(name, spec=spec)
    if name == "openai" and sep:
        if not rest:
            raise UserError(f"backend {spec!r}: name the model, e.g. openai:qwen2.5:7b")
        return Backend("openai", spec=spec, model=rest)
    if name in ("replay", "record") and sep:
        if not rest:
            raise UserError(f"backend {spec!r}: name the cassette, e.g. {name}:FILE")
        return Backend("replay", spec=spec, cassette=rest, record=name == "record")
    if handlers and name == "jobs" and sep:
        path, delay = rest, 0.0
        head, colon, tail = rest.rpartition(":")
        if colon:
            with contextlib.suppress(ValueError):  # else the colon is the file name's
                path, delay = head, float(tail)
        if not path or delay < 0:
            raise UserError(f"backend {spec!r}: expected jobs:FILE or jobs:FILE:DELAY (seconds)")
        return Backend("jobs", spec=spec, path=path, delay=delay)
    if handlers and name == "python" and sep:
        module, _, attr = rest.partition(":")
        if not module or not attr:
            raise UserError(f"backend {spec!r}: expected python:MODULE:ATTR")
        return Backend("python", spec=spec, target=rest)
    raise UserError(f"backend {spec!r}: must be one of {forms}")
