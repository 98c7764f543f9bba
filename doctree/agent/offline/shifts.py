"""A date moved by a count: "pushed back a week", "two more weeks", "shifted by 10 days",
"brought forward a fortnight".

A clause that moves something by a count of days or weeks says its new date from its old
one. When the statement gives the new date too ("they moved my op a week later, to Monday
14 November"), the line it replaces is the one whose date is the new date less the count,
whatever word it used for the thing; when it gives none ("the open day goes back a week"),
the line is the one that names the thing with one date still to come, and its new date is
that date plus the count. Numbers and dates are the handles, not the words of one language.
When no line or several fit, nothing moves.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

from doctree.agent.offline import supersession

_COUNT = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10,
}  # fmt: skip
_DAYS = {"day": 1, "week": 7, "fortnight": 14}
#: A count of days or weeks, "another week" and "two more weeks" among them.
_SHIFT = re.compile(
    r"(?P<head>\b(?:by|for|in|within|every|each|after|over|than|about|last|past|this|next|"
    r"first|of|per)\s+)?"
    r"(?:\b(?P<another>another)|\b(?P<n>a|an|one|two|three|four|five|six|seven|eight|nine|ten|"
    r"\d{1,2})(?P<more>\s+(?:more|extra|further))?)\s+(?P<unit>day|week|fortnight)s?\b"
    r"(?P<tail>\s+(?:later|earlier|sooner|back|forward|early|late|on|ago|before|after|old|"
    r"long|of|in|from)\b)?",
    re.I,
)
#: Words that move a date, said in the clause of the count.
_MOVED = re.compile(
    r"\b(?:mov(?:e|es|ed|ing)|push(?:es|ed|ing)?|shift(?:s|ed|ing)?|put(?:s|ting)?\s+back|"
    r"go(?:es|ing)?\s+back|went\s+back|gone\s+back|delay(?:s|ed|ing)?|postpon(?:e|es|ed|ing)|"
    r"extend(?:s|ed|ing)?|slip(?:s|ped|ping)?|bump(?:s|ed|ing)?|"
    r"br(?:ing|ings|inging|ought)\s+(?:\w+\s+){0,3}?forward|re-?schedul(?:e|es|ed|ing))\b",
    re.I,
)
_EARLIER = re.compile(r"\b(?:earlier|sooner|forward|early)\b", re.I)
_ISO = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
#: Words of a shift itself, not of the thing shifted.
_SHIFT_WORDS = frozenset(
    {"another", "more", "extra", "further", "later", "earlier", "sooner", "back", "forward",
     "early", "late", "put", "goes", "going", "gone", "went", "bump", "bumped", "bumps",
     "pushing", "moving", "shifting", "delaying", "extending", "slipping", "bringing",
     "brings", "push", "shift", "delay", "extend", "slip", "bring", "postpone", "everything"}
)  # fmt: skip


@dataclass(frozen=True)
class Shift:
    """A date moved by a count: the days (earlier when negative), the clause that says it,
    and where the clause begins in its text."""

    days: int
    clause: str
    start: int
    #: a word of moving says it ("pushed", "goes back"), not only "later"
    moved: bool = True
    said: str = ""  # the count as said ("by a fortnight", "back a week")


def shifts(text: str) -> list[Shift]:
    """The moves by a count `text` says ("pushed back a week": +7; "brought forward two
    days": -2); not a count of how long something lasts or when from now ("for a week", "in
    two weeks", "a week ago"), nor one asked about."""
    if "?" in text:
        return []
    out = []
    for m in _SHIFT.finditer(text):
        tail = (m.group("tail") or "").strip().lower()
        if m.group("head") and m.group("head").strip().lower() != "by":
            continue  # "for a week", "in two weeks", "every week": no move
        if tail in ("ago", "before", "after", "old", "long", "of", "in", "from"):
            continue  # "a week ago", "two weeks before the race": a date counted, no move
        starts = [0] + [c.end() for c in re.finditer(r"[.;:!]\s|,\s", text) if c.end() <= m.start()]
        ends = [c.start() for c in re.finditer(r"[.;:!](?:\s|$)|,\s", text) if c.start() >= m.end()]
        start, end = starts[-1], ends[0] if ends else len(text)
        clause = text[start:end]
        if not _MOVED.search(clause) and tail not in ("later", "earlier", "sooner"):
            continue  # "another week" asked for, "a week later each": no move said
        n = 1 if m.group("another") else _COUNT.get(m.group("n").lower(), 0)
        if not n and m.group("n").isdigit():
            n = int(m.group("n"))
        if not 0 < n <= 60:
            continue
        days = n * _DAYS[m.group("unit").lower()]
        if _EARLIER.search(clause) and not re.search(r"\blater\b|\bback\b", clause, re.I):
            days = -days
        out.append(Shift(days, clause, start, bool(_MOVED.search(clause)), m.group(0).strip()))
    return out


def _dates(text: str) -> list[date]:
    out = []
    for m in _ISO.finditer(text):
        try:
            out.append(date.fromisoformat(m.group(0)))
        except ValueError:
            continue
    return out


def shift_words(clause: str) -> frozenset[str]:
    """The words of `clause` that name the thing it moves: no count, no word of moving."""
    words = supersession.thing_words(_SHIFT.sub(" ", clause))
    return frozenset(w for w in words if w not in _SHIFT_WORDS and not _MOVED.fullmatch(w))


def shifted_lines(text: str, lines: list[str], said_on: date) -> list[tuple[int, date, date]]:
    """Which of `lines` (current lines of earlier sessions) `text` moves by a count, each
    with its old date and its new: (its index, old, new). A new date said with the count
    names the line by its old date (the new less the count), whatever word the line used for
    the thing; else the line names the thing the clause moves and has one date, still to
    come. A move that no line or several lines fit moves nothing."""
    out: dict[int, tuple[int, date, date]] = {}
    for shift in shifts(text):
        stop = re.search(r"[.;!](?:\s|$)", text[shift.start + len(shift.clause) :])
        end = shift.start + len(shift.clause) + (stop.start() if stop else len(text))
        span = text[shift.start : end]
        said = [d for d in _dates(span) if d >= said_on]
        if said and not supersession.names_old_value(span):
            new = said[0]
            old = new - timedelta(days=shift.days)
            fits = [i for i, ln in enumerate(lines) if old in _dates(ln) and new not in _dates(ln)]
            if len(fits) > 1:
                words = supersession.thing_words(text)
                fits = [i for i in fits if supersession.thing_words(lines[i]) & words]
            if len(fits) == 1:
                out.setdefault(fits[0], (fits[0], old, new))
            continue
        if _dates(shift.clause) or not shift.moved:
            # a date said that is not the one the count gives, or "a week later" said of
            # nothing moved: left as said
            continue
        words = shift_words(shift.clause)
        if not words:
            continue  # "everything moves back a week": which lines is unknown
        found = []
        for i, ln in enumerate(lines):
            days = _dates(ln)
            if len(set(days)) != 1 or days[0] < said_on:
                continue
            if supersession.thing_words(ln) & words:
                found.append((i, days[0]))
        if len(found) == 1:
            i, old = found[0]
            out.setdefault(i, (i, old, old + timedelta(days=shift.days)))
    return list(out.values())
