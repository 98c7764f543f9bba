"""Arguments checked at the library's public edges against the annotations of the function.

`checked(fn)` is `fn` whose arguments are checked before it runs: a str where an int is
annotated, a float where a whole number is, 2**70 (past what a database integer holds),
None where a path is needed or bytes where text is are refused with an `ArgumentError`
naming the function, the argument and the rule, in place of a TypeError, an OverflowError or
a wrong answer from deeper down. The rules a value's content must keep (path rules, ranges of
versions) stay with the code that owns them; this checks kinds only, for a few microseconds a
call (measured in docs/concepts.md, "Arguments of the wrong kind").

Annotations understood: str, int, float, bool, None, unions of them (`int | None`), classes
(`Actor`, `datetime`, `os.PathLike`), `list[...]`/`dict[...]` (checked as list/dict), and
`Literal` and callables. Anything else (`Any`, type variables, protocols) is not checked.
"""

from __future__ import annotations

import functools
import inspect
import os
import typing
from collections.abc import Callable
from types import NoneType, UnionType
from typing import Any, TypeVar

from doctree.errors import ArgumentError

MIN_INT, MAX_INT = -(2**63), 2**63 - 1
"""The integers a database column holds (SQLite and PostgreSQL BIGINT alike)."""

MAX_NUMBER = 2**31 - 1
"""The largest count a caller may give (versions, limits, line numbers, a context window,
retries): far above any real value, far below `MAX_INT`, so a number never overflows on its
way to the store."""

F = TypeVar("F", bound=Callable[..., Any])
_CALLABLE: object = Callable  # the class a `Callable[...]` annotation's origin is
C = TypeVar("C", bound=type)
Check = Callable[[object], bool]


def checked(fn: F) -> F:
    """`fn` with its arguments checked against its annotations at every call (ArgumentError
    naming the argument and the rule); the checks are built at the first call."""
    plan: list[Any] = []

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not plan:
            plan.append(_plan(fn))
        positional, by_name = plan[0]
        for value, (name, check, rule) in zip(args, positional, strict=False):
            if check is not None and not check(value):
                raise ArgumentError(wrapper.__qualname__, name, value, rule)
        if kwargs:
            for name, value in kwargs.items():
                entry = by_name.get(name)
                if entry is not None and not entry[0](value):
                    raise ArgumentError(wrapper.__qualname__, name, value, entry[1])
        return fn(*args, **kwargs)

    return typing.cast(F, wrapper)


def checked_methods(cls: C) -> C:
    """`cls` with `checked` applied to `__init__` and to every public method it defines or
    inherits, each named as a method of `cls` in its errors."""
    done: set[str] = set()
    for klass in cls.__mro__[:-1]:  # all but `object`
        for name, value in vars(klass).items():
            if name in done or not (name == "__init__" or not name.startswith("_")):
                continue
            done.add(name)
            if inspect.isfunction(value):
                method = checked(value)
                method.__qualname__ = f"{cls.__qualname__}.{name}"
                setattr(cls, name, method)
    return cls


def _hints(fn: Callable[..., Any]) -> dict[str, Any]:
    """The function's annotations, evaluated one by one (one that cannot be is left out)."""
    raw = getattr(fn, "__annotations__", {})
    namespace = getattr(inspect.unwrap(fn), "__globals__", {})
    hints: dict[str, Any] = {}
    for name, annotation in raw.items():
        if isinstance(annotation, str):
            try:
                annotation = eval(annotation, namespace)  # noqa: S307 (the module's own text)
            except Exception:
                continue
        hints[name] = annotation
    return hints


def _plan(
    fn: Callable[..., Any],
) -> tuple[list[tuple[str, Check | None, str]], dict[str, tuple[Check, str]]]:
    hints = _hints(fn)
    positional: list[tuple[str, Check | None, str]] = []
    by_name: dict[str, tuple[Check, str]] = {}
    for p in inspect.signature(fn).parameters.values():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        built = _build(hints[p.name]) if p.name in hints else None
        check, rule = built if built is not None else (None, "")
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            positional.append((p.name, check, rule))
        if check is not None and p.kind != p.POSITIONAL_ONLY:
            by_name[p.name] = (check, rule)
    return positional, by_name


def _whole(v: object) -> bool:
    return (type(v) is int or (isinstance(v, int) and not isinstance(v, bool))) and (
        MIN_INT <= v <= MAX_INT
    )


def _number(v: object) -> bool:
    return (isinstance(v, float) and v == v) or _whole(v)


_SIMPLE: dict[Any, tuple[Check, str]] = {
    str: (lambda v: isinstance(v, str), "text (str)"),
    int: (_whole, "a whole number (int) of at most 64 bits"),
    float: (_number, "a number (int or float, not NaN)"),
    bool: (lambda v: v is True or v is False, "True or False"),
    NoneType: (lambda v: v is None, "None"),
    None: (lambda v: v is None, "None"),
    bytes: (lambda v: isinstance(v, bytes), "bytes"),
}


def _build(annotation: Any) -> tuple[Check, str] | None:
    """A check and its rule for `annotation`; None when it is not one this module checks."""
    if annotation in _SIMPLE:
        return _SIMPLE[annotation]
    origin = typing.get_origin(annotation)
    if origin in (UnionType, typing.Union):
        parts = [_build(a) for a in typing.get_args(annotation)]
        if any(p is None for p in parts):
            return None
        rule = " or ".join(p[1] for p in parts if p is not None)
        checks = [p[0] for p in parts if p is not None and p[1] != "None"]
        optional = len(checks) < len(parts)
        if len(checks) == 1:
            one = checks[0]
            return ((lambda v: v is None or one(v)) if optional else one), rule
        many = tuple(checks)

        def check(v: object) -> bool:
            return (v is None and optional) or any(c(v) for c in many)

        return check, rule
    if origin is typing.Literal:
        allowed = typing.get_args(annotation)
        return (lambda v: v in allowed), "one of " + ", ".join(map(repr, allowed))
    if origin is not None:
        annotation = origin
    if annotation is os.PathLike:
        return (lambda v: isinstance(v, os.PathLike)), "a path (os.PathLike)"
    if not isinstance(annotation, type) or annotation in (object, Any):
        return None
    try:
        isinstance(None, annotation)  # a Protocol that is not runtime-checkable cannot be
    except TypeError:
        return None
    kind = annotation
    name = "callable" if kind is _CALLABLE else kind.__name__
    article = "an" if name[0].lower() in "aeiou" else "a"
    return (lambda v: isinstance(v, kind)), f"{article} {name}"
