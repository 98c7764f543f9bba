"""Find the data directories (agents/, prompts/, migrations/) from a checkout or a wheel."""

from __future__ import annotations

import os

TYPE_CHECKING = False  # (typing is not imported at run time: `doctree read` would pay for it)
if TYPE_CHECKING:
    from pathlib import Path

_HERE = os.path.dirname(os.path.realpath(__file__))


_FOUND: dict[str, str] = {}


def resource_folder(name: str) -> str:
    """The directory `name` (agents, prompts, migrations) that ships with doctree, as a
    string: found with `os.path` alone, so a command that only lists it (`doctree read`
    comparing migration names) imports no pathlib (nor functools, for a cache)."""
    if name in _FOUND:
        return _FOUND[name]
    for candidate in (
        os.path.join(os.path.dirname(_HERE), name),
        os.path.join(_HERE, "_data", name),
    ):
        if os.path.isdir(candidate):
            _FOUND[name] = candidate
            return candidate
    raise FileNotFoundError(f"doctree data directory {name!r} not found next to {_HERE}")


def resource_dir(name: str) -> Path:
    """Return the directory `name` (agents, prompts, migrations) that ships with doctree."""
    from pathlib import Path

    return Path(resource_folder(name))


def resource_path(relative: str) -> Path:
    """Return the path of a shipped file, e.g. 'prompts/memory/MEMORY_AGENT.md'."""
    head, _, rest = relative.partition("/")
    return resource_dir(head) / rest
