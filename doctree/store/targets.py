"""What a database target is (a SQLite file or a server URL) and how long a connection waits
for a lock: the few definitions a one-shot read (`doctree read PATH`) needs before it opens
the file, kept free of the store's heavier imports (no `re`, no `typing` at run time)."""

from __future__ import annotations

import os

from doctree.errors import UserError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TypeGuard

URL_SCHEMES = ("postgresql://", "postgres://")
BUSY_TIMEOUT_MS = 30_000


def is_database_url(target: object) -> TypeGuard[str]:
    """Whether `target` names a database server (`postgresql://...`) rather than a file."""
    return isinstance(target, str) and target.startswith(URL_SCHEMES)


def busy_timeout_ms() -> int:
    """How long a connection waits for another one's lock: `$DOCTREE_BUSY_TIMEOUT_MS`, else
    30 s. A write still waiting then fails, stores nothing, and says so."""
    raw = os.environ.get("DOCTREE_BUSY_TIMEOUT_MS", "").strip()
    if not raw:
        return BUSY_TIMEOUT_MS
    try:
        value = int(raw.replace("_", ""))
    except ValueError:
        value = -1
    if not 0 <= value <= 3_600_000:
        raise UserError(
            f"DOCTREE_BUSY_TIMEOUT_MS {raw!r}: must be a whole number of milliseconds "
            "from 0 to 3600000, e.g. 30000"
        )
    return value


_SCHEME_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
_SCHEME_CHARS = _SCHEME_START | frozenset("0123456789+.-")


def scheme_of(text: str) -> str | None:
    """The `scheme` of a target starting `scheme:` (a letter, then at least one letter,
    digit, '+', '.' or '-': two characters at least, so a drive letter is never one), as
    written; None when it starts otherwise."""
    end = text.find(":")
    if end < 2 or text[0] not in _SCHEME_START:
        return None
    scheme = text[:end]
    return scheme if all(c in _SCHEME_CHARS for c in scheme) else None
