"""Older names that still work: a keyword or a key renamed to the glossary's word
(docs/concepts.md, "Renamed") is still accepted under its older name, and giving both is
an error that names them."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from doctree.errors import UserError

F = TypeVar("F", bound=Callable[..., Any])


def _both(old: str, new: str, where: str) -> UserError:
    return UserError(f"{where}: {old!r} is the older name of {new!r}; give one of them, not both")


def renamed_keywords(**renames: str) -> Callable[[F], F]:
    """Let a function take each keyword under its older name too: `old="new"` pairs, e.g.
    `@renamed_keywords(source_agent="owner")`. Giving a keyword under both names raises
    `UserError`."""

    def decorate(func: F) -> F:
        parameters = inspect.signature(func).parameters
        # How many positional arguments it takes to reach each new name (None: keyword only).
        position = {
            new: i
            for i, (name, p) in enumerate(parameters.items())
            for new in renames.values()
            if name == new and p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
        }

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            for old, new in renames.items():
                if old in kwargs:
                    at = position.get(new)
                    if new in kwargs or (at is not None and len(args) > at):
                        raise _both(old, new, f"{func.__qualname__}()")
                    kwargs[new] = kwargs.pop(old)
            return func(*args, **kwargs)

        return wrapper  # type: ignore[return-value]

    return decorate


def renamed_key(values: Mapping[str, Any], new: str, old: str, *, what: str) -> Any:
    """The value of `values[new]`, else of its older name `values[old]` (None if neither);
    both given raises `UserError` naming `what`."""
    if new in values and old in values:
        raise _both(old, new, what)
    return values.get(new, values.get(old))
