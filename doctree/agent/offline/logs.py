"""A dated log pasted newest first: read oldest first, each entry on its own day.

A status note kept for others, a diary or a changelog often puts its latest entry on top:
"UPDATE 2 (Wed 18 Feb):" above "UPDATE 1 (Mon 16 Feb):" above "ORIGINAL (Fri 13 Feb):". Read
top down, the first value seen would be the current one, and every later line would replace
it with an older one. An entry opens on a line whose label, before a colon or a dash, holds
a date (a day and a month, or an ISO date); when a message holds two entries or more and
their dates fall from each to the next, the entries are read in the order they were written,
oldest first, each on its own day ("this morning" under 16 Feb is the 16th), without a label
that only counts the entries ("UPDATE 2": the entry's date says when; a label that names
something, "[0.4.0] - 2032-02-14", is kept). A fenced block keeps its lines in order. What the
message says before its first entry stays first. Entries in any other order (oldest first
already, or mixed) are read as they stand.
"""

from __future__ import annotations

import re
from datetime import date

from doctree.agent.offline.language import WEEKDAY_OR_ABBREVIATION
from doctree.agent.offline.resolve import absolute_dates

#: An entry's opening line: a short label holding its date, then a colon or a dash, then
#: perhaps the entry's first words ("UPDATE 2 (Wed 18 Feb):", "2032-02-18 — moved to Ward 9").
_ENTRY = re.compile(
    r"^[ \t]*[#*_]*[ \t]*(?P<label>[^\n:—–]{3,48}?)[ \t]*[*_]*(?::|[ \t][—–-][ \t])"
)
#: A label that says only which entry it is ("UPDATE 2", "ORIGINAL", "Day 3"), once its date
#: is left out: the entry is read on its day, and the label goes.
_BARE_LABEL = re.compile(r"(?:[A-Za-z]+(?:\s+\d{1,3})?)?", re.I)
_FENCE = re.compile(r"^\s*(?:```|~~~)")
_ISO = re.compile(r"(?<![\d-])(\d{4})-(\d{2})-(\d{2})(?![\d-])")


def _day(label: str, ref: date) -> date | None:
    """The one date an entry's label gives; None when it gives none or several."""
    days = {
        date(int(m[1]), int(m[2]), int(m[3])) for m in _ISO.finditer(label) if 0 < int(m[2]) <= 12
    }
    if not days:
        days = {d for _, d in absolute_dates(label, ref)}
    return days.pop() if len(days) == 1 else None


def _without_dates(label: str, ref: date) -> str:
    for phrase, _ in absolute_dates(label, ref):
        label = label.replace(phrase, " ")
    return re.sub(
        rf"(?i:\b(?:{WEEKDAY_OR_ABBREVIATION})\b\.?)|[()\[\],]", " ", _ISO.sub(" ", label)
    ).strip()


def oldest_first(text: str, ref: date) -> tuple[str, list[tuple[str, date]]]:
    """`text` with the entries of a log written newest first put oldest first, and each
    entry's text with its date; `text` as it is, and no entries, when it holds no such log."""
    if "\n" not in text:
        return text, []  # one line is one entry at most: no log of two (most messages)
    lines = text.split("\n")
    starts: list[tuple[int, date]] = []
    for i, line in enumerate(lines):
        m = _ENTRY.match(line)
        if (
            m is not None
            and len(m.group("label").split()) <= 6
            and (day := _day(m.group("label"), ref)) is not None
        ):
            starts.append((i, day))
    if (
        len(starts) < 2
        or any(b[1] >= a[1] for a, b in zip(starts, starts[1:], strict=False))
        or any(_FENCE.match(line) for line in lines[starts[0][0] :])
    ):
        return text, []  # a fenced block is pasted as it is: its lines stay in their order
    ends = [i for i, _ in starts[1:]] + [len(lines)]
    entries = []
    for (i, day), end in zip(starts, ends, strict=True):
        m = _ENTRY.match(lines[i])
        assert m is not None
        first = lines[i][m.end() :].strip()
        if not _BARE_LABEL.fullmatch(_without_dates(m.group("label"), ref)):
            first = f"{m.group('label')}: {first}"  # "[0.4.0] - 2032-02-14": a name kept
        entries.append(("\n".join([first, *lines[i + 1 : end]]).strip("\n"), day))
    head = "\n".join(lines[: starts[0][0]]).rstrip("\n")
    ordered = list(reversed(entries))
    return "\n\n".join(
        [head, *(e for e, _ in ordered)] if head else [e for e, _ in ordered]
    ), ordered


def entry_dates(sentences: list[str], entries: list[tuple[str, date]]) -> dict[str, date]:
    """The day of each sentence read out of a log's entry: the entry whose text holds it."""
    out: dict[str, date] = {}
    flat = [(" ".join(e.split()), day) for e, day in entries]
    for s in sentences:
        said = " ".join(s.split())
        days = {day for e, day in flat if said in e}
        if len(days) == 1:
            out[s] = days.pop()
    return out
