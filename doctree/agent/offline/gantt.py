"""Gantt charts written in Mermaid's text form, read as the tasks they plan with their dates.

A chart pasted from a notes app or a README ("```mermaid" / "gantt" / "dateFormat
YYYY-MM-DD" / "section Sale" / "Exchange contracts :milestone, ex, 2037-04-03, 0d") gives
its dates only to someone who counts them: a task may start "after" another, and last a
number of days. `gantt_tasks` counts them as Mermaid does (a task after another starts when
that one ends; a task with no start follows the one before it) and says each task as a
statement with its days written out, so that they are resolved like any other:
"Move to Harrogate – Removal van is on Thursday 16 April 2037." A chart its reader cannot
count (an unknown date format, a task after one not given) keeps what it can.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta

#: Mermaid's date format tokens, as `strptime` writes them.
_FORMAT_TOKENS = (("YYYY", "%Y"), ("YY", "%y"), ("MM", "%m"), ("DD", "%d"))
_TASK = re.compile(r"^\s*(?P<name>[^:%][^:]*?)\s*:\s*(?P<meta>.+?)\s*$")
_TAGS = {"done", "active", "crit", "milestone"}
_DURATION = re.compile(r"^(?P<n>\d+(?:\.\d+)?)\s*(?P<unit>d|w|h|m|days?|weeks?)$", re.I)
_ID = re.compile(r"^[A-Za-z_][\w-]*$")


def _format(spec: str) -> str | None:
    """A Mermaid `dateFormat` as a `strptime` format; None for one with tokens it lacks."""
    out = spec.strip()
    for token, directive in _FORMAT_TOKENS:
        out = out.replace(token, directive)
    return None if re.search(r"[A-Za-z]", re.sub(r"%[Yymd]", "", out)) else out


def _days(duration: str) -> int | None:
    m = _DURATION.match(duration.strip())
    if m is None:
        return None
    n = float(m.group("n"))
    unit = m.group("unit").lower()
    if unit.startswith("w"):
        n *= 7
    elif unit in ("h", "m"):
        n = 0  # hours or minutes: within its first day
    return int(n)


def _spoken(day: date) -> str:
    return f"{day:%A} {day.day} {day:%B %Y}"


def gantt_tasks(lines: list[str]) -> list[str] | None:
    """The tasks of a Mermaid gantt chart (`lines`, its fence taken off) as one statement
    each, with their days; None when the lines are no such chart."""
    body = [ln for ln in lines if ln.strip() and not ln.strip().startswith("%%")]
    if not body or body[0].strip().lower() != "gantt":
        return None
    fmt = "%Y-%m-%d"
    title = section = ""
    ends: dict[str, date] = {}  # each task's id -> the day after it ends (Mermaid's end)
    last_end: date | None = None
    out: list[str] = []
    for line in body[1:]:
        text = line.strip()
        key, _, rest = text.partition(" ")
        low = key.lower()
        if low == "dateformat":
            fmt = _format(rest) or ""
            continue
        if low == "title":
            title = rest.strip()
            continue
        if low == "section":
            section = rest.strip()
            continue
        if low in ("axisformat", "excludes", "includes", "todaymarker", "tickinterval", "weekday"):
            continue
        m = _TASK.match(text)
        if m is None or not fmt:
            continue
        parts = [p.strip() for p in m.group("meta").split(",") if p.strip()]
        tags = [p for p in parts if p.lower() in _TAGS]
        rest_parts = [p for p in parts if p.lower() not in _TAGS]
        task_id = None
        if len(rest_parts) >= 3 and _ID.match(rest_parts[0]):
            task_id, rest_parts = rest_parts[0], rest_parts[1:]
        start: date | None = None
        duration: str | None = None
        if len(rest_parts) == 1:
            start, duration = last_end, rest_parts[0]
        elif len(rest_parts) >= 2:
            said, duration = rest_parts[0], rest_parts[1]
            if said.lower().startswith("after "):
                after = [ends[i] for i in said.split()[1:] if i in ends]
                start = max(after) if after else None
            else:
                try:
                    start = datetime.strptime(said, fmt).date()
                except ValueError:
                    start = None
        if start is None:
            continue
        days = _days(duration) if duration else None
        try:
            if days is None:
                end = datetime.strptime(duration or "", fmt).date()
            else:
                end = start + timedelta(days=days)
        except (ValueError, OverflowError):
            continue  # no day, or one past the calendar's end ("99999999d"): not counted
        if task_id:
            ends[task_id] = end
        last_end = end
        name = m.group("name").strip()
        last = end - timedelta(days=1) if end > date.min else end
        when = (
            f"from {_spoken(start)} to {_spoken(last)}" if last > start else f"on {_spoken(start)}"
        )
        lead = f"{title} – " if title else ""
        kind = f" ({section})" if section and section.lower() not in name.lower() else ""
        done = " (done)" if "done" in (t.lower() for t in tags) else ""
        out.append(f"{lead}{name}{kind} is {when}{done}.")
    return out or None
