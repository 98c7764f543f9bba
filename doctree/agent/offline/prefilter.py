"""A cheap test in front of each of the offline agent's patterns: most sentences cannot match
most patterns, and saying so costs a few substring searches instead of a regular-expression
scan.

Each pattern's text is read (by the `re` module's own parser) for the literal strings one of
which every match must contain: `\\b(?:prefer|like)\\b` needs "prefer" or "like", `Dr\\.?\\s+X`
needs "Dr". A string that holds none of them cannot match, and the pattern is not run on it:
the answer is the one the pattern would have given (no match), so what the agent reads never
changes. A pattern that needs one of many literals (a long list of words) runs untested:
there the test would cost about as much as the pattern.

`gate_patterns(namespace)` puts the test in front of the compiled patterns of a module's
namespace (and of tuples of them): each module of rules calls it on its `globals()` at its
end. A pattern with no literal it must hold (say, `[A-Z]\\w+`) runs as before. Case-insensitive
literals are tested on the text in lower case, and only on ASCII text: elsewhere a letter's
case can match another letter (`ſ` is `s` to `re.I`), and the pattern runs.
"""

from __future__ import annotations

import re
import re._constants as sre  # type: ignore[import-not-found]  # the parser's node types
import re._parser as sre_parse  # type: ignore[import-not-found]  # what re.compile parses with
from collections.abc import Callable, Iterator, MutableMapping
from typing import Any

#: A pattern is read for its literals once it has run this many times (the reading costs
#: about as much as compiling it: not worth it for a pattern run on a few sentences).
READ_AFTER = 32
#: A pattern needing one of more literals than this runs untested: the test would cost
#: about as much as the pattern (a substring search is some 0.1 µs each).
MAX_LITERALS = 32

_Alternatives = list[tuple[str, bool]]  # (literal, case-insensitive): one of them must occur


def _best(candidates: list[_Alternatives]) -> _Alternatives | None:
    """The most telling of several requirements that all hold: longest shortest literal
    (up to 4 characters: longer ones are all rare), then fewest literals."""
    if not candidates:
        return None
    return max(candidates, key=lambda c: (min(min(len(s) for s, _ in c), 4), -len(c)))


def _sequence(items: Any, flags: int) -> _Alternatives | None:
    """What a sequence of nodes needs: each of its parts' needs holds; the most telling one,
    runs of adjacent literal characters read as one literal."""
    candidates: list[_Alternatives] = []
    run: list[str] = []
    run_ci = False

    def flush() -> None:
        if run:
            candidates.append([("".join(run), run_ci)])
            run.clear()

    for op, av in items:
        if op is sre.LITERAL:
            ci = bool(flags & re.IGNORECASE)
            ch = chr(av)
            if ci and not ch.isascii():
                flush()  # a non-ASCII letter's other cases are not all its lower()
                continue
            if run and run_ci != ci:
                flush()
            run.append(ch.lower() if ci else ch)
            run_ci = ci
            continue
        if op is sre.AT:
            continue  # \b, ^, $: no character, the literals around it are still adjacent
        if run and (led := _led(op, av, flags, run_ci)):
            # "me(?:et|t)", as the parser factors "meet|met": "meet" or "met"
            head = "".join(run)
            candidates.append([(head + lead, run_ci) for lead in led])
        flush()
        need = _node(op, av, flags)
        if need is not None:
            candidates.append(need)
    flush()
    return _best(candidates)


def _lead(items: Any, flags: int, ci: bool) -> str:
    """The literal characters a sequence of nodes starts with (of case-insensitivity `ci`)."""
    out = []
    for op, av in items:
        if op is sre.AT:
            continue
        if op is not sre.LITERAL or bool(flags & re.IGNORECASE) != ci:
            break
        ch = chr(av)
        if ci and not ch.isascii():
            break
        out.append(ch.lower() if ci else ch)
    return "".join(out)


def _led(op: Any, av: Any, flags: int, ci: bool) -> list[str] | None:
    """The literal start of each branch of an alternation (alone or in a group that changes
    no flag), when every branch starts with one."""
    if op is sre.SUBPATTERN and not av[1] and not av[2] and len(av[3].data) == 1:
        op, av = av[3].data[0]
    if op is not sre.BRANCH:
        return None
    leads = [_lead(branch.data, flags, ci) for branch in av[1]]
    return leads if all(leads) else None


def _node(op: Any, av: Any, flags: int) -> _Alternatives | None:
    """What one node of a parsed pattern needs, or None when nothing is known."""
    if op is sre.SUBPATTERN:
        _group, add, remove, sub = av
        return _sequence(sub.data, (flags | add) & ~remove)
    if op is sre.ATOMIC_GROUP:
        return _sequence(av.data, flags)
    if op is sre.BRANCH:
        out: _Alternatives = []
        for branch in av[1]:
            need = _sequence(branch.data, flags)
            if need is None:
                return None  # a branch with no literal: anything may match
            out += need
        return out
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
        low, _high, sub = av
        return _sequence(sub.data, flags) if low >= 1 else None
    if op is sre.IN and av and all(o is sre.LITERAL for o, _ in av):
        ci = bool(flags & re.IGNORECASE)
        chars = [chr(c) for _, c in av]
        if ci and not all(c.isascii() for c in chars):
            return None
        return [(c.lower() if ci else c, ci) for c in chars]
    return None  # a class, a lookaround, a reference: no literal it must hold


def _shortest(found: set[str]) -> tuple[str, ...]:
    """`found` without the literals that hold another one (a text holding "meeting" holds
    "meet": testing "meet" is enough)."""
    return tuple(sorted(s for s in found if not any(t != s and t in s for t in found)))


def literals(pattern: re.Pattern[str]) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """The literals one of which every match of `pattern` holds:
    (case-sensitive ones, case-insensitive ones in lower case); None when none are known."""
    try:
        parsed = sre_parse.parse(pattern.pattern, pattern.flags)
        need = _sequence(parsed.data, parsed.state.flags)
    except Exception:  # a parser of another Python version: no test, the pattern runs
        return None
    if need is None:
        return None
    exact = _shortest({s for s, ci in need if not ci})
    folded = _shortest({s for s, ci in need if ci})
    if len(exact) + len(folded) > MAX_LITERALS:
        return None
    return exact, folded


class GatedPattern:
    """A compiled pattern behind the cheap test: the same methods and answers as
    `re.Pattern`, without running the pattern on a text that cannot match."""

    __slots__ = ("compiled", "_exact", "_folded", "_runs")

    def __init__(self, compiled: re.Pattern[str]):
        self.compiled = compiled
        self._exact: tuple[str, ...] = ()
        self._folded: tuple[str, ...] = ()
        self._runs = 0  # -1: read, with literals; -2: read, without

    def could_match(self, text: str) -> bool:
        """False only when `text` holds none of the literals every match needs."""
        if self._runs < 0:
            if self._runs == -2:
                return True
        elif self._runs < READ_AFTER:
            self._runs += 1
            return True
        else:
            found = literals(self.compiled)
            if found is None:
                self._runs = -2
                return True
            self._exact, self._folded = found
            self._runs = -1
        for literal in self._exact:
            if literal in text:
                return True
        if self._folded:
            if not text.isascii():
                return True
            low = text.lower()
            for literal in self._folded:
                if literal in low:
                    return True
        return False

    def search(self, string: str, *args: Any, **kwargs: Any) -> re.Match[str] | None:
        return self.compiled.search(string, *args, **kwargs) if self.could_match(string) else None

    def match(self, string: str, *args: Any, **kwargs: Any) -> re.Match[str] | None:
        return self.compiled.match(string, *args, **kwargs) if self.could_match(string) else None

    def fullmatch(self, string: str, *args: Any, **kwargs: Any) -> re.Match[str] | None:
        return (
            self.compiled.fullmatch(string, *args, **kwargs) if self.could_match(string) else None
        )

    def finditer(self, string: str, *args: Any, **kwargs: Any) -> Iterator[re.Match[str]]:
        return (
            self.compiled.finditer(string, *args, **kwargs)
            if self.could_match(string)
            else iter(())
        )

    def findall(self, string: str, *args: Any, **kwargs: Any) -> list[Any]:
        return self.compiled.findall(string, *args, **kwargs) if self.could_match(string) else []

    def sub(self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0) -> str:
        return self.compiled.sub(repl, string, count) if self.could_match(string) else string

    def subn(
        self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0
    ) -> tuple[str, int]:
        return self.compiled.subn(repl, string, count) if self.could_match(string) else (string, 0)

    def split(self, string: str, maxsplit: int = 0) -> list[str | Any]:
        return self.compiled.split(string, maxsplit) if self.could_match(string) else [string]

    @property
    def pattern(self) -> str:
        return self.compiled.pattern

    @property
    def flags(self) -> int:
        return self.compiled.flags

    @property
    def groups(self) -> int:
        return self.compiled.groups

    @property
    def groupindex(self) -> Any:
        return self.compiled.groupindex

    def __getattr__(self, name: str) -> Any:
        if name == "compiled":  # not set yet (a copy being made)
            raise AttributeError(name)
        return getattr(self.compiled, name)  # `scanner` and the rest, untested

    def __repr__(self) -> str:
        return f"GatedPattern({self.compiled!r})"


def gate_patterns(namespace: MutableMapping[str, Any]) -> None:
    """Every compiled pattern of `namespace` (a module's globals), alone or in a tuple,
    replaced by a `GatedPattern` of it."""
    for name, value in list(namespace.items()):
        if isinstance(value, re.Pattern):
            namespace[name] = GatedPattern(value)
        elif (
            isinstance(value, tuple)
            and value
            and all(isinstance(v, re.Pattern | GatedPattern) for v in value)
        ):
            namespace[name] = tuple(
                GatedPattern(v) if isinstance(v, re.Pattern) else v for v in value
            )
