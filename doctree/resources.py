"""Find the data directories (agents/, prompts/, migrations/) from a checkout or a wheel."""

from __future__ import annotations

from functools import cache
from pathlib import Path

_HERE = Path(__file__).resolve().parent


@cache
def resource_dir(name: str) -> Path:
    """Return the directory `name` (agents, prompts, migrations) that ships with doctree."""
    for candidate in (_HERE.parent / name, _HERE / "_data" / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"doctree data directory {name!r} not found next to {_HERE}")


def resource_path(relative: str) -> Path:
    """Return the path of a shipped file, e.g. 'prompts/memory/MEMORY_AGENT.md'."""
    head, _, rest = relative.partition("/")
    return resource_dir(head) / rest
