"""Org files: an outline whose headings are stars ("* Garden", "** TODO Order the gravel"),
each heading's lines below it saying what it is about by where they sit.

An Org file pasted from Emacs writes a heading's day in a planning line ("SCHEDULED:
<2031-04-02 Wed>", "DEADLINE: <…>", "CLOSED: [2031-03-28 Fri 17:05]"), its details in a
property drawer (":PROPERTIES:" / ":PHONE: 07700 900123" / ":END:") and its notes as list
items or timestamped lines ("<2031-05-10 Sat 14:00> village hall"). None of them names what
it belongs to: "SCHEDULED: <2031-04-02 Wed>" alone is nobody's day. Each heading is read as
one line that names its path and lists what is under it, as a nested list is read
(`outline.py`): "Garden › Order the gravel: scheduled 2031-04-02; phone: 07700 900123."
A state keyword (TODO, DONE …) says whether the heading is done, so "done" is said with its
CLOSED day; a heading's tags (":garden:") and priority ("[#A]") are dropped. The line is a
record of the list its top heading heads, keyed by the path below it (`outline.shape`): the
file pasted again is the same list, and a value changed in it replaces the line that held
the old one. A block with fewer than two star headings, with nothing only Org writes (a
"#+" keyword line, a nested or TODO heading, a planning line, a drawer, a timestamp: "* milk"
/ "* eggs" is a markdown list), or with prose under its headings, is no Org file here.
"""

from __future__ import annotations

import re

from doctree.agent.offline.outline import SEP
from doctree.agent.offline.prefilter import gate_patterns

#: A heading: its stars, then an optional state keyword and priority, its title and tags.
_HEADING = re.compile(
    r"^(?P<stars>\*{1,8})[ \t]+(?:(?P<state>TODO|DONE|NEXT|WAITING|WAIT|HOLD|SOMEDAY|"
    r"CANCELL?ED|CANX|STARTED|IN-PROGRESS)[ \t]+)?(?:\[#[A-Z0-9]\][ \t]+)?(?P<title>.*?)"
    r"(?:[ \t]+:[\w@#%:]+:)?[ \t]*$"
)
#: A file's keyword line: "#+TITLE: home", "#+STARTUP: overview".
_KEYWORD = re.compile(r"^#\+\w+:")
#: A planning line: "SCHEDULED: <…>", "DEADLINE: <…>", "CLOSED: […]", one or more.
_PLANNING = re.compile(r"(?P<word>SCHEDULED|DEADLINE|CLOSED):\s*(?P<stamp>[<\[][^>\]]*[>\]])")
_PLANNING_LINE = re.compile(rf"(?:\s*{_PLANNING.pattern})+\s*")
#: A timestamp, active or not: "<2031-04-02 Wed>", "[2031-03-28 Fri 17:05]",
#: "<2031-05-10 Sat 14:00-15:30>", "<2031-04-02 Wed +1w>".
_STAMP = re.compile(
    r"[<\[](?P<day>\d{4}-\d{2}-\d{2})(?:\s+[^\s\d<>\[\]]{2,9}\.?)?"
    r"(?:\s+(?P<time>\d{1,2}:\d{2}(?:-\d{1,2}:\d{2})?))?(?:\s+[.+-]{1,2}\d+[hdwmy])*[>\]]"
)
#: A property drawer's line: ":PHONE: 07700 900123"; its opening and closing lines.
_PROPERTY = re.compile(r"^:(?P<key>[\w-]+):[ \t]+(?P<value>\S.*)$")
_DRAWER = re.compile(r"^:(?:PROPERTIES|END|LOGBOOK):\s*$", re.I)
#: A list item under a heading: "- a note", "+ a note", "1. a note".
_ITEM = re.compile(r"^(?:[-+]|\d{1,2}[.)])[ \t]+(?P<text>\S.*)$")
#: What a planning word says of its day.
_SAID = {"SCHEDULED": "scheduled", "DEADLINE": "due by", "CLOSED": "done"}
#: The most words a line under a heading holds and still reads as a note of it, not prose.
_NOTE_WORDS = 14


def _stamp(m: re.Match) -> str:
    return f"{m['day']} {m['time']}" if m["time"] else m["day"]


def _stamps(text: str) -> str:
    """`text` with each timestamp written as its day and time: "2031-05-10 14:00"."""
    return _STAMP.sub(_stamp, text).strip()


def _title(text: str) -> str:
    """A heading's title as one step of a path: no colon or path mark inside it."""
    text = _stamps(text).replace(SEP.strip(), "-")
    return re.sub(r"\s*:\s+", " - ", text).strip()


def org_entries(lines: list[str]) -> list[str] | None:
    """The headings of an Org file (`lines`, a pasted block) read as lines, each with its
    path and what is under it: "Kitchen › Order the worktop: scheduled 2031-04-02; quote:
    £900."; None when the block is no Org file (fewer than two star headings, text before
    the first that is no keyword line, or a line under a heading too long for a note)."""
    rows = [ln.rstrip() for ln in lines]
    heads = [i for i, ln in enumerate(rows) if _HEADING.match(ln)]
    if len(heads) < 2:
        return None
    if any(ln.strip() and not _KEYWORD.match(ln.strip()) for ln in rows[: heads[0]]):
        return None
    if not any(
        _KEYWORD.match(ln)
        or _PLANNING.search(ln)
        or _DRAWER.match(ln.strip())
        or _STAMP.search(ln)
        or ((h := _HEADING.match(ln)) is not None and (h["state"] or len(h["stars"]) > 1))
        for ln in rows
    ):
        return None  # "* milk" / "* eggs": a list in markdown's bullets, not an Org file
    out: list[str] = []
    path: list[str] = []
    for n, at in enumerate(heads):
        m = _HEADING.match(rows[at])
        assert m is not None
        level = len(m["stars"])
        title = _title(m["title"])
        if not title:
            return None
        path = [*path[: level - 1], title]
        below = rows[at + 1 : heads[n + 1] if n + 1 < len(heads) else len(rows)]
        values: list[str] = []
        if m["state"] in ("DONE", "CANCELLED", "CANCELED", "CANX") and not any(
            "CLOSED:" in x for x in below
        ):
            values.append("done" if m["state"] == "DONE" else "cancelled")
        for raw in below:
            line = raw.strip()
            if not line or _DRAWER.match(line):
                continue
            if _PLANNING_LINE.fullmatch(line):
                for p in _PLANNING.finditer(line):
                    stamp = _STAMP.match(p["stamp"])
                    day = _stamp(stamp) if stamp else p["stamp"].strip("<>[]")
                    word = p["word"]
                    said = "cancelled" if word == "CLOSED" and m["state"] != "DONE" else _SAID[word]
                    values.append(f"{said} {day}")
                continue
            if (prop := _PROPERTY.match(line)) is not None:
                values.append(f"{prop['key'].lower()}: {_stamps(prop['value'])}")
                continue
            item = _ITEM.match(line)
            text = _stamps(item["text"] if item else line)
            if len(text.split()) > _NOTE_WORDS:
                return None  # prose under a heading: a document, not an outline of notes
            values.append(text.rstrip(";. "))
        after = _HEADING.match(rows[heads[n + 1]]) if n + 1 < len(heads) else None
        nested = after is not None and len(after["stars"]) > level  # a heading over others
        if values:
            where = SEP.join(path) if len(path) > 1 else path[0]
            out.append(f"{where}: {'; '.join(values)}.")
        elif not nested:
            state = " (to do)" if m["state"] == "TODO" else ""
            out.append(f"{SEP.join(path)}{state}." if len(path) > 1 else f"{title}{state}.")
    return out or None


gate_patterns(globals())  # the cheap test in front of every pattern above (prefilter.py)
