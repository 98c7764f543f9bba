"""Regular expressions compiled once per install, as bytecode is, rather than once per process.

A module that compiles many patterns at import (the offline memory agent's rules: some 300,
~0.2 s of `re`'s parser and compiler in every process that loads them) is imported inside
`kept_patterns(anchor)`: each pattern compiled there is taken from a file beside `anchor`'s
bytecode when that file holds it (what `re`'s compiler made of it: its code and groups, given
to `_sre.compile` as `re` itself gives them, so the pattern is equal to a fresh one), and
when any was not there, the file is written anew with the patterns of this import. The file
follows `sys.pycache_prefix` and `sys.dont_write_bytecode` as `.pyc` files do, its name holds
the Python build and `_sre.MAGIC`, a pattern is found by its text and flags (a rule edited is
a pattern not there, compiled as usual), and a file that cannot be read or written is left
alone: patterns are then compiled as usual.
"""

from __future__ import annotations

import hashlib
import importlib.util
import marshal
import os
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

try:  # CPython's own modules behind `re`; elsewhere patterns are compiled as usual
    import _sre  # type: ignore[import-not-found]
    from re import _compiler, _parser  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - not CPython
    _sre = None

#: What a pattern is kept as: (flags, code, groups - 1, groupindex, indexgroup).
_Kept = tuple[int, list[int], int, dict[str, int], tuple[str | None, ...]]

_lock = threading.Lock()
_DEBUG = 128  # re.DEBUG: compiled as usual, so that its listing is printed


def cache_file(anchor: str) -> Path | None:
    """The file beside the bytecode of the module file `anchor` (None: no bytecode there)."""
    if _sre is None:
        return None
    try:
        pyc = importlib.util.cache_from_source(anchor)
    except (NotImplementedError, ValueError):
        return None
    tag = hashlib.sha256(f"{sys.version}|{_sre.MAGIC}|{_sre.CODESIZE}".encode()).hexdigest()
    return Path(pyc).with_name(f"{Path(anchor).stem}.patterns-{tag[:16]}.marshal")


def _read(path: Path) -> dict[tuple[str, int], _Kept]:
    try:
        entries = marshal.loads(path.read_bytes())
        return {(p, f): tuple(kept) for p, f, kept in entries}
    except (OSError, ValueError, EOFError, TypeError):
        return {}


def _write(path: Path, kept: dict[tuple[str, int], _Kept]) -> None:
    data = marshal.dumps([(p, f, list(k)) for (p, f), k in kept.items()])
    tmp = path.with_name(f"{path.name}.{os.getpid()}.{time.monotonic_ns()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(data)
        os.replace(tmp, path)  # whole or not at all, for a process reading it meanwhile
    except OSError:
        tmp.unlink(missing_ok=True)


@contextmanager
def kept_patterns(anchor: str) -> Iterator[None]:
    """Patterns compiled inside the block (by `re.compile` and the rest of `re`, from any
    thread) taken from the file beside `anchor`'s bytecode, and written to it when some
    were not there."""
    path = cache_file(anchor)
    if path is None:
        yield
        return
    known = _read(path)
    asked: dict[tuple[str, int], _Kept] = {}
    missed = False
    plain = _compiler.compile

    def compile(p: Any, flags: int = 0) -> Any:
        nonlocal missed
        if not isinstance(p, str) or flags & _DEBUG:
            return plain(p, flags)
        key = (p, int(flags))
        kept = known.get(key)
        if kept is None:
            parsed = _parser.parse(p, flags)
            code = _compiler._code(parsed, flags)
            groupindex = dict(parsed.state.groupdict)
            indexgroup = [None] * parsed.state.groups
            for name, i in groupindex.items():
                indexgroup[i] = name
            kept = (
                int(flags | parsed.state.flags),
                [int(c) for c in code],
                parsed.state.groups - 1,
                groupindex,
                tuple(indexgroup),
            )
            missed = True
        asked[key] = kept
        return _sre.compile(p, kept[0], kept[1], kept[2], kept[3], kept[4])

    with _lock:  # one block at a time swaps `re`'s compiler
        _compiler.compile = compile
        try:
            yield
        finally:
            _compiler.compile = plain
    if missed and asked and not sys.dont_write_bytecode:
        _write(path, asked)
