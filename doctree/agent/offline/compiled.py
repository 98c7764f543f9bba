"""The offline agent's compiled patterns, kept between processes beside its bytecode.

Compiling the agent's patterns (some hundred, many of them embedding the large character
classes of a name) costs more than the rest of its import: the `re` module parses each one
and turns it into the program its matcher runs, in Python, on every start. `kept_patterns`
keeps those programs in one file beside the package's bytecode (its `__pycache__` folder, or
under PYTHONPYCACHEPREFIX), made for one Python build, and builds each pattern from its kept
program: the very pattern `re.compile` makes (equal to it: same text, flags and program),
without parsing it.

A program is kept only after it was checked to build a pattern equal to what `re.compile`
makes of the same text. The file is written where Python writes bytecode (not under
PYTHONDONTWRITEBYTECODE or into a folder it cannot write); a file that is missing, damaged
or from another build is ignored and each pattern compiled as usual.
"""

from __future__ import annotations

import _sre  # type: ignore[import-not-found]  # what re.compile builds its patterns with
import marshal
import os
import re
import re._compiler as sre_compile  # type: ignore[import-not-found]
import re._parser as sre_parse  # type: ignore[import-not-found]
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Any

#: The build a kept program is valid for: the interpreter, and the matcher's own version.
_BUILD = (sys.version, _sre.MAGIC, _sre.CODESIZE)

_Program = tuple[int, list[int], int, dict[str, int], tuple[str | None, ...]]


def kept_file(anchor: str) -> str | None:
    """Where the programs of the package whose `__init__.py` is `anchor` are kept: beside
    its bytecode; None where Python keeps no bytecode for it."""
    import importlib.util

    try:
        pyc = importlib.util.cache_from_source(anchor)
    except (NotImplementedError, ValueError):  # no cache tag, or an odd path
        return None
    return os.path.join(os.path.dirname(pyc), f"patterns.{sys.implementation.cache_tag}.bin")


def _read(path: str) -> dict[tuple[str | bytes, int], _Program]:
    try:
        with open(path, "rb") as f:
            build, programs = marshal.loads(f.read())  # (load(f) reads it in small pieces)
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    return programs if build == _BUILD and isinstance(programs, dict) else {}


def _write(path: str, programs: dict[tuple[str | bytes, int], _Program]) -> None:
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(tmp, "wb") as f:
            marshal.dump((_BUILD, programs), f)
        os.replace(tmp, path)
    except (OSError, ValueError):  # a read-only install: the patterns are compiled each start
        with suppress(OSError):
            os.remove(tmp)


def _program(pattern: str | bytes, flags: int) -> _Program:
    """What `re.compile(pattern, flags)` hands the matcher (as `re._compiler.compile`)."""
    parsed = sre_parse.parse(pattern, flags)
    code = [int(c) for c in sre_compile._code(parsed, flags)]  # (its opcodes subclass int)
    groupindex = dict(parsed.state.groupdict)
    indexgroup: list[str | None] = [None] * parsed.state.groups
    for name, i in groupindex.items():
        indexgroup[i] = name
    groups = parsed.state.groups - 1
    return int(flags | parsed.state.flags), code, int(groups), groupindex, tuple(indexgroup)


@contextmanager
def kept_patterns(anchor: str) -> Iterator[None]:
    """Inside the block (the package's imports), `re.compile` of a pattern builds it
    from its kept program, and keeps the program of any other; at the end the file holds
    the programs of the patterns compiled in the block (see the module's docstring).

    The block replaces `re`'s compile function for its length: a pattern another thread
    compiles meanwhile is built the same way, and is the same pattern."""
    path = kept_file(anchor)
    kept = _read(path) if path else {}
    keep = path is not None and not sys.dont_write_bytecode  # (else a miss costs no more)
    used: dict[tuple[str | bytes, int], _Program] = {}
    original = re._compile  # type: ignore[attr-defined]

    def compile_kept(pattern: Any, flags: Any) -> Any:
        if isinstance(flags, re.RegexFlag):
            flags = flags.value
        if type(pattern) not in (str, bytes) or flags & re.DEBUG:
            return original(pattern, flags)
        key = (pattern, flags)
        program = kept.get(key)
        if program is not None:
            used[key] = program
            return _sre.compile(pattern, *program)
        compiled = original(pattern, flags)
        if not keep:
            return compiled
        try:
            program = _program(pattern, flags)
            if _sre.compile(pattern, *program) == compiled:
                used[key] = program
        except Exception:  # another Python's compiler: this pattern is not kept
            pass
        return compiled

    re._compile = compile_kept  # type: ignore[attr-defined]
    try:
        yield
    finally:
        re._compile = original  # type: ignore[attr-defined]
    if keep and used != kept:
        _write(path, used)  # type: ignore[arg-type]  # (keep: path is not None)
