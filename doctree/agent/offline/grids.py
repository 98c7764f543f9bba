"""Grids: a timetable, a rota or a fixture list laid out in columns, read cell by cell.

People paste grids as plain text: a heading ("Week A"), then rows whose cells are set apart by
a tab or by two spaces or more ("Tue    PE (kit)", "Sat 19 Jan   v Hale United   (A)  11:15"),
sometimes under a row of column headers ("         Mon      Tue      Wed"). Read line by line,
such a grid runs one row into the next, and an empty cell ("-") reads as a range between two
days. Each row is read as a line of its own that names its row header, its section's heading
and, where the grid has one, its column header with each cell ("PE (kit) — Week A, Tuesdays",
"Maths — Mondays, 9:00"). A weekday said alone as a row or column header is a day that comes
back ("Tuesdays"), not the next Tuesday; a dated row ("Sat 19 Jan") is that day.
"""

from __future__ import annotations

import re

from doctree.agent.offline.blocks import is_code_line
from doctree.agent.offline.language import COMPACT_DATE, WEEKDAY_ABBREVIATIONS, WEEKDAYS
from doctree.agent.offline.prefilter import gate_patterns

#: What sets a grid's cells apart: a tab, or two spaces or more.
_GAP = re.compile(r"\t+|[ \u00a0]{2,}")
#: A cell that holds nothing: "-", "—", "…", "n/a".
_EMPTY = re.compile(r"[-–—_.·…]*|n/?a", re.I)
#: A heading of a grid's section: a few words on a line of their own, no sentence.
_HEADING = re.compile(r"[^\s.!?]\S*(?:[ \u00a0]\S+){0,5}?:?")
#: A weekday said alone, whole or shortened ("Tue", "Thurs.", "Monday").
_DAY = re.compile(
    "(?:" + "|".join([*WEEKDAYS, *sorted(WEEKDAY_ABBREVIATIONS, key=len, reverse=True)]) + r")\.?",
    re.I,
)
#: A cell that is a code, not a word or an amount: letters and digits mixed both ways, as a
#: recovery code, a serial or a token is ("4hq7-2mzp", "A7X9K2"); never read as a grid.
_CODE = re.compile(r"(?=\S*[A-Za-z]\d)(?=\S*\d[A-Za-z])\S{6,}")
#: A cell that is a command: an option flag or a path ("tail -n 50 /var/log/app.log").
_COMMAND = re.compile(r"(?:^|\s)(?:-{1,2}[A-Za-z][\w-]*|\S*/[\w.-]+/\S*)(?=\s|$)")
#: A line that says something: it ends as a sentence does.
_SENTENCE_END = re.compile(r"[.!?]\s*$")


def cells(line: str) -> list[str]:
    """The cells of a line of a grid, set apart by a tab or two spaces or more."""
    return [c.strip() for c in _GAP.split(line.strip()) if c.strip()]


def _every(day: str) -> str:
    """A weekday said alone as a header as the day that comes back ("Tue" is "Tuesdays");
    any other header as it is."""
    if not _DAY.fullmatch(day):
        return day
    word = day.rstrip(".").lower()
    index = WEEKDAY_ABBREVIATIONS.get(word, WEEKDAYS.index(word) if word in WEEKDAYS else None)
    return f"{WEEKDAYS[index].capitalize()}s" if index is not None else day


def is_code(cell: str) -> bool:
    """Whether a cell is a code (`_CODE`): a date run together ("23MAR31") is none."""
    return bool(_CODE.fullmatch(cell)) and not COMPACT_DATE.fullmatch(cell)


def is_command(cell: str) -> bool:
    """Whether a cell is a command or a path (`_COMMAND`)."""
    return bool(_COMMAND.search(cell))


def is_grid(lines: list[str]) -> bool:
    """Whether `lines` are a grid: three rows or more of two cells or more, with a short row
    header, and nothing else but headings and blank lines."""
    rows = 0
    for line in lines:
        if not line.strip():
            continue
        found = cells(line)
        if is_code_line(line) or any(is_code(c) or _COMMAND.search(c) for c in found):
            return False  # a shell history, a grid of recovery codes: no timetable
        if len(found) == 1:
            title = rows == 0 and len(found[0].split()) <= 12  # a title above it all
            if not (title or _HEADING.fullmatch(found[0])) or _SENTENCE_END.search(found[0]):
                return False
            continue
        if len(found[0].split()) > 4 or len(found[0]) > 30 or found[0].endswith(":"):
            return False  # a row header is a day, a time, a name: a few words ("Tel:" is a field)
        rows += 1
    return rows >= 3


def grid_lines(lines: list[str]) -> list[str] | None:
    """Each row of a grid as a line that names its headers ("PE (kit) — Week A, Tuesdays."),
    each cell of a grid with column headers as its own ("Maths — Mondays, 9:00."); an empty
    row gives none. None when `lines` are no grid (`is_grid`)."""
    if not is_grid(lines):
        return None
    out: list[str] = []
    section = ""
    header: list[str] = []
    for i, line in enumerate(lines):
        if not line.strip():
            header = []
            continue
        found = cells(line)
        if len(found) == 1:
            section, header = _heading(found[0]), []
            if len(section.split()) > 4:
                out.append(section + ".")  # a title, kept as a line of its own
                section = ""
            continue
        if not header and _is_header(found, lines[i + 1 :]):
            header = found
            continue
        label, values = found[0], found[1:]
        if header and len(values) == len(header):
            for column, value in zip(header, values, strict=True):
                if not _EMPTY.fullmatch(value):
                    where = ", ".join(x for x in (section, _every(column), _every(label)) if x)
                    out.append(f"{value.rstrip('.')} — {where}.")
            continue
        kept = [v for v in values if not _EMPTY.fullmatch(v)]
        if kept and re.search(r"\d", label):  # a dated row: "Sat 19 Jan: v Hale United, (A)"
            said = f"{label}: {', '.join(kept).rstrip('.')}"
            out.append(f"{said} ({section})." if section else f"{said}.")
        elif kept:
            where = ", ".join(x for x in (section, _every(label)) if x)
            out.append(f"{', '.join(kept).rstrip('.')} — {where}.")
    return out


def _heading(text: str) -> str:
    """A section's heading as a name: "WEEK A:" is "Week A"."""
    text = text.rstrip(":").strip()
    if text.isupper():
        text = " ".join(w.capitalize() if len(w) > 2 and w.isalpha() else w for w in text.split())
    return text


def _is_header(row: list[str], below: list[str]) -> bool:
    """Whether `row` names the columns of the rows below it: every cell a weekday, or the
    next row has one cell more (its row header) and `row` has no digit."""
    if all(_DAY.fullmatch(c) for c in row) and len(row) >= 2:
        return True
    following = next((cells(x) for x in below if x.strip()), [])
    return len(following) == len(row) + 1 and not any(re.search(r"\d", c) for c in row)


def read_grids(text: str) -> str:
    """`text` with each run of plain lines that is a grid (`is_grid`), with the heading
    lines above it, written as the list of its rows (`grid_lines`): the user's own lines,
    each a statement of its own. Fenced and quoted text is left as it is (a fenced grid is
    read as a pasted table, by `segment.pasted_rows`)."""
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    fenced = False
    while i < len(lines):
        line = lines[i]
        if line.strip()[:3] in ("```", "~~~"):
            fenced = not fenced
        if fenced or not _GAP.search(line.strip()) or line.lstrip().startswith((">", "|")):
            out.append(line)
            i += 1
            continue
        end = i
        while end < len(lines) and _grid_line(lines[end]):
            end += 1
        start = i
        while out and start > 0 and _heading_line(out[-1]) and out[-1].strip():
            out.pop()  # the headings above the grid are its own
            start -= 1
        if (read := grid_lines(lines[start:end])) is not None:
            out.extend(f"- {x}" for x in read)
            i = end
            continue
        out.extend(lines[start : i + 1])
        i += 1
    return "\n".join(out)


def _grid_line(line: str) -> bool:
    """Whether `line` can belong to a grid: a row of cells, a heading or a blank line
    followed by more of the grid is left to `is_grid` to judge."""
    if not line.strip() or line.lstrip().startswith((">", "|", "```", "~~~")):
        return False
    return len(cells(line)) >= 2 or _heading_line(line)


def _heading_line(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and len(cells(stripped)) == 1 and bool(_HEADING.fullmatch(stripped))


gate_patterns(globals())  # the cheap test in front of every pattern above (prefilter.py)
