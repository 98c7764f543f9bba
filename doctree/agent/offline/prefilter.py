"""A cheap test in front of each of the offline agent's patterns: most sentences cannot match
most patterns, and saying so costs one look-up instead of a regular-expression scan.

Each pattern's text is read (by the `re` module's own parser) for the literal strings one of
which every match must contain: `\\b(?:prefer|like)\\b` needs "prefer" or "like", `Dr\\.?\\s+X`
needs "Dr". A string that holds none of them cannot match, and the pattern is not run on it:
the answer is the one the pattern would have given (no match), so what the agent reads never
changes. Adjacent parts that match a few fixed strings are read together (`[1-3](?:st|nd)`
needs "1st", "1nd", … "3nd"; a `\\d` is a digit 0-9 there, so such a test holds for ASCII
text only), and a lookahead or lookbehind needs what it looks for. A pattern that needs one
of many literals (a long list of words) runs untested, unless it is long enough to cost
more than testing them.

`gate_patterns(namespace)` puts the test in front of the compiled patterns of a module's
namespace (and of tuples of them): the offline agent's package calls it on every module of
its stages once they are loaded (`gate_modules`). A pattern with no literal it must hold (say, `[A-Z]\\w+`) runs as before. Case-insensitive
literals are tested on the text in lower case, and only on ASCII text: elsewhere a letter's
case can match another letter (`ſ` is `s` to `re.I`), and the pattern runs.

The literals of all patterns are looked for at once: one Aho-Corasick automaton (`_Gate`)
scans a text and its lower case and gives the bits of the patterns it could match, kept for
the last few texts, so a pattern's test is a look-up and an `&`, however many literals it
needs and however many patterns try the text.
"""

from __future__ import annotations

import functools
import itertools
import operator
import re
import re._constants as sre  # type: ignore[import-not-found]  # the parser's node types
import re._parser as sre_parse  # type: ignore[import-not-found]  # what re.compile parses with
import sys
import threading
import weakref
from collections.abc import Callable, Iterator, MutableMapping
from typing import Any

from ahocorasick_rs import AhoCorasick

from doctree.agent.offline import memo
from doctree.patterncache import KeptAnswers

#: The patterns are read for their literals once one has run this many times (the reading
#: costs about as much as compiling: not worth it for a run of a few sentences). Each pattern
#: that ran by then is read with it (`_read_all`).
READ_AFTER = 32
#: A pattern needing one of more literals than this runs untested: so many short literals
#: match everywhere, and each match costs the scan of a text (`_Gate.scan`). A long
#: pattern costs more to run (its branches are tried at each position): one of
#: `len(pattern) // CHARS_PER_LITERAL` literals is tested when that is more.
MAX_LITERALS = 32
CHARS_PER_LITERAL = 8

_Alternatives = list[tuple[str, bool]]  # (literal, case-insensitive): one of them must occur

#: A pattern of this many branches or more (`a|b|c|…` at its top level) that a text could
#: match has each branch tested too: only the branches the text could match are run.
MIN_BRANCHES = 8
#: The patterns of the branches that could match kept per pattern (past it, all are
#: forgotten and compiled anew).
KEEP_VARIANTS = 64

#: A node matching one of at most this many characters is read as each of them: `[1-9]st`
#: needs "1st", "2st", … or "9st" (the test is then as telling as the literal "st" is not).
MAX_CHARS = 10
#: The most strings a run of such nodes is read as; past it, what comes before is cut to its
#: end ("(?:[12]\\d|3[01])(?:st|nd|rd|th)": the last digit and the suffix).
MAX_STRINGS = 64
#: A text longer than this is not scanned for every pattern's literals (`_Gate.scan`): a
#: pattern tried on it looks for its own with a substring search each (`_holds_literal`).
#: A long text (a whole conversation joined, a pasted document) holds most short literals,
#: so the scan reports a match every few characters, each one a step of Python; a
#: substring search stops at the first occurrence and runs in C.
LONG_TEXT = 1000


def _ascii(category: str) -> str:
    """The ASCII characters a category (`\\d`) matches, as `re` itself reads it."""
    return "".join(c for c in map(chr, range(128)) if re.fullmatch(category, c))


#: What `\\d` matches in ASCII text. Strings read from it are tested as the case-insensitive
#: ones are, only on ASCII text: elsewhere it matches more (an Arabic-Indic digit is a `\\d`)
#: and the pattern runs. (`\\s` is not read: ten kinds of space make ten literals of each.)
_CATEGORY = {sre.CATEGORY_DIGIT: _ascii(r"\d")}
_ZERO_WIDTH = (sre.AT, sre.ASSERT, sre.ASSERT_NOT)
_IGNORECASE = int(re.IGNORECASE)  # a plain int: `&` with the flag enum costs ~1 µs
_REPEATS = (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT)


def _best(candidates: list[_Alternatives]) -> _Alternatives | None:
    """The most telling of several requirements that all hold: longest shortest literal
    (up to 4 characters: longer ones are all rare), then fewest literals."""
    if not candidates:
        return None
    return max(candidates, key=lambda c: (min(min(len(s) for s, _ in c), 4), -len(c)))


def _one_char(op: Any, av: Any, flags: int) -> _Alternatives | None:
    """The characters a node that matches one character can match (in ASCII text, in lower
    case when case-insensitive), when there are at most `MAX_CHARS`."""
    ci = bool(flags & _IGNORECASE)
    if op is sre.LITERAL:
        items = [(op, av)]
    elif op is sre.IN:
        items = av
    else:
        return None
    out: _Alternatives = []
    for o, a in items:
        if o is sre.LITERAL:
            chars, folded = chr(a), ci
        elif o is sre.RANGE and a[1] - a[0] < MAX_CHARS:
            chars, folded = "".join(map(chr, range(a[0], a[1] + 1))), ci
        elif o is sre.CATEGORY and a in _CATEGORY:
            chars, folded = _CATEGORY[a], True  # ASCII only: tested as the folded ones are
        else:
            return None  # a negated set, `\\w`, a wide range: too many characters
        if folded and not chars.isascii():
            return None  # a non-ASCII letter's other cases are not all its lower()
        out += [(c.lower() if folded else c, folded) for c in chars]
    out = list(dict.fromkeys(out))
    return out if len(out) <= MAX_CHARS else None


def _product(left: _Alternatives, right: _Alternatives) -> _Alternatives:
    """Each string of `left` followed by each of `right` (in lower case when either part is
    case-insensitive: the whole is then tested on the text in lower case)."""
    out = [
        ((a + b).lower() if a_ci or b_ci else a + b, a_ci or b_ci)
        for a, a_ci in left
        for b, b_ci in right
    ]
    return list(dict.fromkeys(out))


def _joined(left: _Alternatives, right: _Alternatives) -> _Alternatives | None:
    """What two adjacent requirements need together: one of the strings of `left` followed
    by one of `right`. When that is more than `MAX_STRINGS`, the strings of `left` are cut
    to their last 4, 2 or 1 characters (the part that meets `right`: a part of a string a
    match holds is held too); `right` stays whole, so what is joined still ends where `right`
    ends. None when even one character of `left` is too many."""
    if len(left) * len(right) <= MAX_STRINGS:
        return _product(left, right)
    for k in (4, 2, 1):
        ends = list(dict.fromkeys((s[-k:], ci) for s, ci in left))
        if len(ends) * len(right) <= MAX_STRINGS:
            return _product(ends, right)
    return None


_TEXT = "text"  # a run of literal characters, read as one node (`_nodes`)


def _nodes(items: Any, flags: int) -> list[tuple[Any, Any]]:
    """The nodes of a sequence, each run of literal characters joined into one `_TEXT` node
    of (text, case-insensitive), in lower case when case-insensitive."""
    ci = bool(flags & _IGNORECASE)
    out: list[tuple[Any, Any]] = []
    run: list[str] = []
    for op, av in items:
        if op is sre.LITERAL and not (ci and not chr(av).isascii()):
            run.append(chr(av).lower() if ci else chr(av))
            continue
        if run:
            out.append((_TEXT, ("".join(run), ci)))
            run = []
        out.append((op, av))
    if run:
        out.append((_TEXT, ("".join(run), ci)))
    return out


def _strings(op: Any, av: Any, flags: int) -> _Alternatives | None:
    """The strings a node can match, when it matches one of a few fixed strings (a literal, a
    small set of characters, an alternation or group of them); "" for a node of no width."""
    if op is _TEXT:
        return [av]
    if op in _ZERO_WIDTH:
        return [("", False)]  # \\b, ^, a lookaround: the characters around it are adjacent
    if op is sre.LITERAL or op is sre.IN:
        return _one_char(op, av, flags)
    if op is sre.SUBPATTERN:
        _group, add, remove, sub = av
        return _fixed(sub.data, (flags | add) & ~remove)
    if op is sre.ATOMIC_GROUP:
        return _fixed(av.data, flags)
    if op is sre.BRANCH:
        out: _Alternatives = []
        for branch in av[1]:
            some = _fixed(branch.data, flags)
            if some is None:
                return None
            out += some
        out = list(dict.fromkeys(out))
        return out if len(out) <= MAX_STRINGS else None
    return None


def _fixed(items: Any, flags: int) -> _Alternatives | None:
    """The strings a sequence of nodes can match, when each node matches a few fixed ones."""
    out: _Alternatives = [("", False)]
    for op, av in _nodes(items, flags):
        some = _strings(op, av, flags)
        if some is None:
            return None
        if some != [("", False)]:
            if len(out) * len(some) > MAX_STRINGS:
                return None
            out = _product(out, some)
    return out


def _prefix(items: Any, flags: int) -> _Alternatives | None:
    """The strings a sequence of nodes starts with: its leading nodes of fixed strings."""
    out: _Alternatives | None = None
    for op, av in _nodes(items, flags):
        some = _strings(op, av, flags)
        if some is None:
            break
        if some == [("", False)]:
            continue
        if out is not None and len(out) * len(some) > MAX_STRINGS:
            break  # what it starts with, read so far (cut, it would not be where it starts)
        out = some if out is None else _product(out, some)
    return out if out and all(s for s, _ in out) else None


def _led(op: Any, av: Any, flags: int) -> _Alternatives | None:
    """The fixed start of each branch of an alternation (alone or in a group), when every
    branch has one: "me(?:et|t)\\w*" after "me" is "meet" or "met"."""
    if op is sre.SUBPATTERN:
        _group, add, remove, sub = av
        flags = (flags | add) & ~remove
        if len(sub.data) != 1:
            return _prefix(sub.data, flags)
        op, av = sub.data[0]
    if op is not sre.BRANCH:
        return None
    out: _Alternatives = []
    for branch in av[1]:
        lead = _prefix(branch.data, flags)
        if lead is None:
            return None
        out += lead
    return out


def _sequence(items: Any, flags: int) -> _Alternatives | None:
    """What a sequence of nodes needs: each of its parts' needs holds; the most telling one,
    adjacent nodes of fixed strings read as one ("Dr" "\\.?" breaks it: "Dr")."""
    candidates: list[_Alternatives] = []
    run: _Alternatives | None = None

    def flush() -> None:
        nonlocal run
        if run and all(text for text, _ in run):  # "" among them: anything holds it
            candidates.append(run)
        run = None

    for op, av in _nodes(items, flags):
        if op is sre.ASSERT and (need := _sequence(av[1].data, flags)) is not None:
            candidates.append(need)  # what a lookahead or lookbehind needs, the text holds
        some = _strings(op, av, flags)
        if some is not None:
            if some == [("", False)]:
                continue
            joined = some if run is None else _joined(run, some)
            if joined is None:
                flush()
                joined = some
            run = joined
            continue
        each = _fixed(av[2].data, flags) if op in _REPEATS and av[0] >= 1 else None
        if each and all(text for text, _ in each):
            # "\\d+st": what follows meets the last repetition, what comes before the first
            if run and (joined := _joined(run, each)):
                candidates.append(joined)
            flush()
            if (need := _node(op, av, flags)) is not None:
                candidates.append(need)
            run = each
            continue
        if run and (led := _led(op, av, flags)) and (joined := _joined(run, led)):
            candidates.append(joined)  # "me(?:et|t)", as the parser factors "meet|met"
        flush()
        need = _node(op, av, flags)
        if need is not None:
            candidates.append(need)
    flush()
    return _best(candidates)


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
    if op in _REPEATS:
        low, _high, sub = av
        return _sequence(sub.data, flags) if low >= 1 else None
    return None  # a class, a negative lookaround, a reference: no literal it must hold


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
    if len(exact) + len(folded) > max(MAX_LITERALS, len(pattern.pattern) // CHARS_PER_LITERAL):
        return None
    return exact, folded


def branches(pattern: re.Pattern[str], least: int = 2) -> list[str] | None:
    """The branches of `pattern`'s top-level alternation as written (`a|b(c|d)|e` is "a",
    "b(c|d)", "e"), when there are `least` or more and each one is a pattern of its own: the
    pattern has no reference to a group (a branch may refer to another's), no verbose mode
    (a comment may hold a "|") and no global flags (they open the first branch only). None
    otherwise."""
    text, flags = pattern.pattern, pattern.flags
    if flags & re.VERBOSE or re.match(r"\(\?[aiLmsux]+\)", text) or "(?P=" in text:
        return None
    out, depth, start, i = [], 0, 0, 0
    while i < len(text):
        c = text[i]
        if c == "\\":
            if text[i + 1 : i + 2] in _REFERENCE:
                return None  # `\\1`, or `\\g<1>`
            i += 2
            continue
        if c == "[":  # a set: "]" first, or escaped, is one of its characters
            i += 2 if text[i + 1 : i + 2] == "^" else 1
            i += 1 if text[i : i + 1] == "]" else 0
            while i < len(text) and text[i] != "]":
                i += 2 if text[i] == "\\" else 1
        elif c == "(":
            if text[i + 1 : i + 3] == "?(":
                return None  # `(?(1)…)`: a branch on whether a group matched
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "|" and depth == 0:
            out.append(text[start:i])
            start = i + 1
        i += 1
    out.append(text[start:])
    if len(out) < max(least, 2):
        return None
    try:
        each = [re.compile(b, flags) for b in out]
    except re.error:
        return None  # not cut where the pattern branches
    if sum(b.groups for b in each) != pattern.groups:
        return None
    return out


#: What follows a backslash that refers to a group (`\\1`; `\\g` is `re.sub`'s only).
_REFERENCE = frozenset("123456789g")


class _Gate:
    """One Aho-Corasick automaton over the literals of every pattern read, for the text as
    it is and for its lower case: one scan of a text says which patterns it could match
    (a bit each), where a test per pattern would search each of its literals again. The
    answers of the last `KEEP` texts are kept, as `memo` keeps a remembered function's: the
    stages of a run read one text again far apart (segmenting reads a message's sentences,
    extracting reads them again a thousand texts later), and every answer is dropped when
    a run ends (`forget_texts`)."""

    __slots__ = (
        "_exact", "_exact_bits", "_folded", "_folded_bits", "_always", "_any_folded", "answers",
    )  # fmt: skip

    #: Texts whose answers are kept (past it, the oldest answer is dropped for each new one).
    KEEP = memo.SIZE

    def __init__(self, patterns: list[GatedPattern]):
        exact: dict[str, int] = {}
        folded: dict[str, int] = {}
        self._always = 0  # patterns with no literal they need: always run
        self._any_folded = 0  # patterns with case-insensitive literals: run on other text
        for p in patterns:
            if p._found is None:
                self._always |= p._bit
                continue
            for literal in p._found[0]:
                exact[literal] = exact.get(literal, 0) | p._bit
            for literal in p._found[1]:
                folded[literal] = folded.get(literal, 0) | p._bit
            if p._found[1]:
                self._any_folded |= p._bit
        self._exact = AhoCorasick(list(exact)) if exact else None
        self._exact_bits = list(exact.values())
        self._folded = AhoCorasick(list(folded)) if folded else None
        self._folded_bits = list(folded.values())
        self.answers: dict[str, int] = {}

    def scan(self, text: str) -> int:
        """The bits of the patterns `text` could match (holds a literal of, or has none)."""
        try:
            bits = self._scan(text)
        except UnicodeEncodeError:  # a lone surrogate: no UTF-8 for the automaton to read
            bits = -1  # every bit: every pattern runs
        answers = self.answers
        if len(answers) >= self.KEEP:
            del answers[next(iter(answers))]  # the oldest (a dict keeps the order of insertion)
        answers[text] = bits
        return bits

    def _scan(self, text: str) -> int:
        bits = self._always
        if self._exact is not None:
            each = self._exact_bits
            for i, _, _ in self._exact.find_matches_as_indexes(text, overlapping=True):
                bits |= each[i]
        if self._folded is not None:
            if text.isascii():
                each = self._folded_bits
                for i, _, _ in self._folded.find_matches_as_indexes(text.lower(), overlapping=True):
                    bits |= each[i]
            else:  # a non-ASCII letter's other cases are not all its lower(): they all run
                bits |= self._any_folded
        return bits


#: Every gated pattern made, by its bit (weakly: a pattern no module holds is let go).
_patterns: weakref.WeakValueDictionary[int, GatedPattern] = weakref.WeakValueDictionary()
_count = itertools.count()
_gate: _Gate | None = None  # over the patterns read; replaced whole when more are read
#: The last long text tested and its lower case, as one tuple (so no thread pairs one text
#: with another's lower case): the patterns tried on a long text in turn share it.
_last_lower: tuple[str, str] = ("", "")
_building = threading.Lock()
#: Each pattern's literals, as read in an earlier process (beside this module's bytecode).
_kept = KeptAnswers(__file__, "literals")


def _read_all() -> None:
    """Read the literals of every gated pattern that has run and is not read yet, and build
    the gate anew over all the patterns read: when a pattern has run `READ_AFTER` times, the
    others that ran meanwhile are read with it (so the gate is built a few times a process,
    not once per pattern; a pattern that never runs is never read)."""
    global _gate
    with _building:
        live = list(_patterns.values())
        fresh = [p for p in live if p._runs > 0]
        if not fresh:
            return
        for p in fresh:
            p._found = _kept.answer(p.compiled, literals)
        _kept.save(p.compiled for p in live if p._runs != 0)
        _gate = _Gate([p for p in live if p._runs != 0])
        for p in fresh:  # only once the gate that holds them is there to test them
            p._runs = -1 if p._found is not None else -2


#: The bits of a group of patterns (`none_can_match`), by the group's id, once all are read.
_group_bits: dict[int, tuple[tuple[object, ...], int]] = {}


def none_can_match(group: tuple[object, ...], text: str) -> bool:
    """True only when no pattern of `group` can match `text`: every one is gated and read,
    with literals, and the gate's answer for `text` holds none of their bits (each pattern
    would find nothing without running). False whenever that is not known: each is tried."""
    gate = _gate
    if gate is None:
        return False
    known = _group_bits.get(id(group))
    if known is None or known[0] is not group:
        if not all(isinstance(p, GatedPattern) and p._runs == -1 for p in group):
            return False
        bits = 0
        for p in group:
            bits |= p._bit  # type: ignore[attr-defined]
        known = _group_bits[id(group)] = (group, bits)
    answer = gate.answers.get(text)
    if answer is None:
        if len(text) > LONG_TEXT:
            return False
        answer = gate.scan(text)
    return not answer & known[1]


class GatedPattern:
    """A compiled pattern behind the cheap test: the same methods and answers as
    `re.Pattern`, without running the pattern on a text that cannot match."""

    __slots__ = (
        "compiled", "_bit", "_found", "_runs", "_branches", "_variants", "_branch_bits",
        "_by_bits", "__weakref__",
    )  # fmt: skip

    def __init__(self, compiled: re.Pattern[str]):
        self.compiled = compiled
        index = next(_count)
        self._bit = 1 << index
        self._found: tuple[tuple[str, ...], tuple[str, ...]] | None = None  # its literals
        self._runs = 0  # -1: read, with literals; -2: read, without
        #: Each branch of a pattern of many, behind its own test; () for other patterns
        self._branches: tuple[GatedPattern, ...] | None = None  # (None: not read yet)
        #: The patterns of the branches a text could match, by their bits (`_to_run`)
        self._variants: dict[int, re.Pattern[str]] = {}
        #: The bits of the branches, once every branch is read (0 until then): a text's
        #: bits from the gate, cut to them, say which branches it could match at once
        self._branch_bits = 0
        #: What to run (`_to_run`) by a text's bits cut to `_branch_bits`
        self._by_bits: dict[int, re.Pattern[str] | None] = {}
        _patterns[index] = self

    def could_match(self, text: str) -> bool:
        """False only when `text` holds none of the literals every match needs."""
        if self._runs != -1:
            if self._runs == -2:
                return True
            if self._runs < READ_AFTER:
                self._runs += 1
                return True
            _read_all()
            if self._runs >= 0:  # not among the patterns made here (a copy): it runs untested
                self._runs = -2
            if self._runs != -1:
                return True
        gate = _gate
        assert gate is not None  # built before any pattern is marked read
        bits = gate.answers.get(text)
        if bits is None:
            if len(text) > LONG_TEXT:
                return self._holds_literal(text)
            bits = gate.scan(text)
        return bits & self._bit != 0

    def _holds_literal(self, text: str) -> bool:
        """`could_match` for a long text: whether it holds one of this pattern's literals,
        each looked for alone (the answer the gate's scan gives, without the scan)."""
        found = self._found
        assert found is not None  # read, with literals (`_runs` is -1)
        exact, folded = found
        if any(literal in text for literal in exact):
            return True
        if not folded:
            return False
        if not text.isascii():
            return True  # a non-ASCII letter's other cases are not all its lower(): it runs
        global _last_lower
        last = _last_lower
        if last[0] is not text:
            last = _last_lower = (text, text.lower())
        lower = last[1]
        return any(literal in lower for literal in folded)

    def _to_run(self, text: str) -> re.Pattern[str] | None:
        """What to run on `text`: None when it cannot match, else the pattern; for a pattern
        of many branches (`MIN_BRANCHES`), read, only the branches `text` could match,
        as one pattern (a branch that holds a group, kept, never tried, so that each group
        keeps its number): what a branch the text cannot match would find is nothing."""
        if self._runs == -1:  # read, with literals: the gate's answer, when it has one
            gate = _gate
            assert gate is not None  # built before any pattern is marked read
            bits = gate.answers.get(text)
            if bits is None:
                if not self.could_match(text):
                    return None
                bits = gate.answers.get(text)  # (None for a long text: not scanned)
            elif not bits & self._bit:
                return None
        else:
            if not self.could_match(text):
                return None
            bits = None
        if self._branches == () or self._runs >= 0:  # no branches, or not read yet
            return self.compiled
        if self._branches is None:
            self._branches = _branched(self.compiled)
            if not self._branches:
                return self.compiled
        if bits is not None and self._branch_bits:
            # every branch read: the branches this text could match are in its bits
            key = bits & self._branch_bits
            if key in self._by_bits:
                return self._by_bits[key]
            run = self._run_of(text)
            if len(self._by_bits) >= KEEP_VARIANTS:
                self._by_bits.clear()
            self._by_bits[key] = run
            return run
        run = self._run_of(text)
        if all(b._runs < 0 for b in self._branches):
            self._branch_bits = functools.reduce(operator.or_, (b._bit for b in self._branches))
        return run

    def _run_of(self, text: str) -> re.Pattern[str] | None:
        """What to run on `text` of a pattern of branches: the branches it could match."""
        assert self._branches  # (read, and many)
        live = 0
        for i, branch in enumerate(self._branches):
            if branch.could_match(text):
                live |= 1 << i
        if live == (1 << len(self._branches)) - 1:
            return self.compiled
        if live == 0:
            return None
        variant = self._variants.get(live)
        if variant is None:
            if len(self._variants) >= KEEP_VARIANTS:
                self._variants.clear()
            variant = self._variants[live] = _variant(self.compiled, self._branches, live)
        return variant

    def search(self, string: str, *args: Any, **kwargs: Any) -> re.Match[str] | None:
        run = self._to_run(string)
        return None if run is None else run.search(string, *args, **kwargs)

    def match(self, string: str, *args: Any, **kwargs: Any) -> re.Match[str] | None:
        run = self._to_run(string)
        return None if run is None else run.match(string, *args, **kwargs)

    def fullmatch(self, string: str, *args: Any, **kwargs: Any) -> re.Match[str] | None:
        run = self._to_run(string)
        return None if run is None else run.fullmatch(string, *args, **kwargs)

    def finditer(self, string: str, *args: Any, **kwargs: Any) -> Iterator[re.Match[str]]:
        run = self._to_run(string)
        return iter(()) if run is None else run.finditer(string, *args, **kwargs)

    def findall(self, string: str, *args: Any, **kwargs: Any) -> list[Any]:
        run = self._to_run(string)
        return [] if run is None else run.findall(string, *args, **kwargs)

    def sub(self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0) -> str:
        run = self._to_run(string)
        return string if run is None else run.sub(repl, string, count)

    def subn(
        self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0
    ) -> tuple[str, int]:
        run = self._to_run(string)
        return (string, 0) if run is None else run.subn(repl, string, count)

    def split(self, string: str, maxsplit: int = 0) -> list[str | Any]:
        run = self._to_run(string)
        return [string] if run is None else run.split(string, maxsplit)

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


def _branched(compiled: re.Pattern[str]) -> tuple[GatedPattern, ...]:
    """Each branch of `compiled` behind a test of its own, when it has `MIN_BRANCHES`
    (`branches`); () otherwise."""
    found = branches(compiled, MIN_BRANCHES)
    if found is None:
        return ()
    return tuple(GatedPattern(re.compile(b, compiled.flags)) for b in found)


def _variant(
    compiled: re.Pattern[str], each: tuple[GatedPattern, ...], live: int
) -> re.Pattern[str]:
    """`compiled` with only the branches of the bits of `live`: a branch that is not is left
    out, or, when it holds a group, kept behind `(?!)` (never tried; the group keeps its
    number and name)."""
    kept = [
        b.compiled.pattern if live >> i & 1 else f"(?!)(?:{b.compiled.pattern})"
        for i, b in enumerate(each)
        if live >> i & 1 or b.compiled.groups
    ]
    return re.compile("|".join(kept), compiled.flags)


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


def texts_held() -> int:
    """How many texts the gate keeps the answers of now, the last long one's lower case
    counted."""
    gate = _gate
    return (0 if gate is None else len(gate.answers)) + (1 if _last_lower[0] else 0)


def forget_texts() -> None:
    """The answers kept for the last texts dropped, and the texts with them: called when a
    run ends, as `memo.forget` is."""
    global _last_lower
    gate = _gate
    if gate is not None:
        gate.answers = {}
    _last_lower = ("", "")


def gate_modules(package: str) -> None:
    """`gate_patterns` on every module of `package` imported so far: the package calls it
    once its stages are loaded, so a module's patterns are tested whether or not the module
    asks for it."""
    for name, module in list(sys.modules.items()):
        if name.startswith(package + ".") and module is not None:
            gate_patterns(vars(module))
