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
import re
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
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
    _write_bytes(path, marshal.dumps([(p, f, list(k)) for (p, f), k in kept.items()]))


def _write_bytes(path: Path, data: bytes) -> None:
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
    known: dict[tuple[str, int], _Kept] | None = None  # read at the first pattern compiled
    asked: dict[tuple[str, int], _Kept] = {}
    missed = False
    plain = _compiler.compile

    def compile(p: Any, flags: int = 0) -> Any:
        nonlocal known, missed
        if not isinstance(p, str) or flags & _DEBUG:
            return plain(p, flags)
        if known is None:
            known = _read(path)
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


class KeptAnswers:
    """What a function of a pattern alone (its text and flags) answered, kept in a file
    beside the bytecode of `anchor`, the module defining the function: the file's name holds
    a hash of that module's source and of the Python build, so an edit of the function is a
    file of its own. An answer must be something `marshal` writes (str, tuples, None ...)."""

    _MISSING = object()

    def __init__(self, anchor: str, name: str):
        self.anchor = anchor
        self.name = name
        self._path: Path | None = None
        self._known: dict[tuple[str, int], Any] | None = None
        self._fresh: dict[tuple[str, int], Any] = {}

    def _load(self) -> dict[tuple[str, int], Any]:
        if self._known is None:
            self._known = {}
            try:
                source = Path(self.anchor).read_bytes()
                pyc = Path(importlib.util.cache_from_source(self.anchor))
            except (OSError, NotImplementedError, ValueError):
                return self._known
            digest = hashlib.sha256(f"{sys.version}|".encode() + source).hexdigest()
            self._path = pyc.with_name(
                f"{Path(self.anchor).stem}.{self.name}-{digest[:16]}.marshal"
            )
            try:
                entries = marshal.loads(self._path.read_bytes())
                self._known = {(p, f): answer for p, f, answer in entries}
            except (OSError, ValueError, EOFError, TypeError):
                pass
        return self._known

    def answer(self, pattern: re.Pattern[str], compute: Callable[[re.Pattern[str]], Any]) -> Any:
        """`compute(pattern)`, or what it answered for the same pattern before."""
        key = (pattern.pattern, int(pattern.flags))
        found = self._load().get(key, self._MISSING)
        if found is self._MISSING:
            found = self._fresh.get(key, self._MISSING)
        if found is self._MISSING:
            found = compute(pattern)
            self._fresh[key] = found
        return found

    def save(self, patterns: Iterable[re.Pattern[str]]) -> None:
        """Write the answers for `patterns` (the others are let go) when any was new."""
        if not self._fresh or self._path is None or sys.dont_write_bytecode:
            return
        known = self._load()
        known.update(self._fresh)
        self._fresh = {}
        keys = {(p.pattern, int(p.flags)) for p in patterns}
        entries = [(p, f, a) for (p, f), a in known.items() if (p, f) in keys]
        _write_bytes(self._path, marshal.dumps(entries))
