"""Pure functions of a text, each answer remembered within one run of the offline agent.

Several rules ask the same question of one message or sentence (its sentences, its clauses,
its dates, the nicks it names): `remembered` answers it once. A remembered function keeps
the answers for its last 4,096 arguments, and every answer is dropped when a run ends
(`forget`, called by `OfflineMemoryAgent`), so no text read, which may be one a user asks to
forget, stays in memory past the run that read it. The arguments are the whole key: a
function that depends on a date takes the date as an argument.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

_F = TypeVar("_F", bound=Callable[..., Any])

#: Each remembered function's `cache_clear`.
_CLEARS: list[Callable[[], None]] = []
#: Each remembered function's `cache_info`.
_INFOS: list[Callable[[], Any]] = []

#: How many arguments a remembered function keeps the answer for, at most, unless it says.
SIZE = 4096


def remembered(read: _F) -> _F:
    """`read` (a pure function of its arguments, all hashable) remembered for its last
    `SIZE` arguments until `forget`. Each answer is a fresh copy of the lists and sets in
    it, as callers may change theirs."""
    return remembered_up_to(SIZE)(read)


def remembered_up_to(size: int, *, shared: bool = False) -> Callable[[_F], _F]:
    """`remembered`, for the last `size` arguments; `shared`: the answers are immutable (a
    string, a number, a frozenset, a tuple of them) and each caller is given the same one."""

    def remember(read: _F) -> _F:
        cached = functools.lru_cache(maxsize=size)(read)
        _CLEARS.append(cached.cache_clear)
        _INFOS.append(cached.cache_info)
        if shared:
            return cached  # type: ignore[return-value]

        @functools.wraps(read)
        def again(*args: Any, **kwargs: Any) -> Any:
            return _copy(cached(*args, **kwargs))

        return again  # type: ignore[return-value]

    return remember


def kept_until_forget(table: dict[Any, Any]) -> dict[Any, Any]:
    """`table` (answers a caller keeps by its own key) emptied by `forget` as the remembered
    functions are."""
    _CLEARS.append(table.clear)
    return table


def _copy(out: Any) -> Any:
    if isinstance(out, set):
        return set(out)
    if isinstance(out, list):
        return list(out)
    if isinstance(out, tuple):
        return tuple(set(x) if isinstance(x, set) else x for x in out)
    return out


def held() -> int:
    """How many answers every remembered function holds now."""
    return sum(info().currsize for info in _INFOS)


def forget() -> None:
    """Every remembered answer dropped: called when a run ends."""
    for clear in _CLEARS:
        clear()
