"""The tiered memory layout and the weekly consolidation that keeps it small.

    ~/memory/active                current priorities and recent sessions, one dated line each
    ~/memory/patterns              recurring observations
    ~/memory/corrections           corrections of earlier facts, and the user's preferences
    ~/memory/projects/<name>       what is known about one project
    ~/memory/archive/<YYYY-Www>    one page per ISO week; the week's session pages below it

The memory agent writes a page per session under `archive/<YYYY-Www>/` and a dated line in
`active`. `consolidate(week)` rolls the week's session pages into the week page (their key
lines, grouped by session, deduplicated, each linking the page it came from), retires the
session pages (tombstones; history stays readable), records lines that recur in two or more
sessions of the week in `patterns`, and prunes the week's lines from `active`. Running it
again for the same week changes nothing, so it is safe from cron.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any

from doctree.compaction import ExtractiveCondenser, SourceDocument, _normal, extract_lines
from doctree.errors import UserError
from doctree.paths import slugify, validate_owner
from doctree.store import Actor, DocumentsRepository

MEMORY = "~/memory"
ACTIVE = f"{MEMORY}/active"
PATTERNS = f"{MEMORY}/patterns"
CORRECTIONS = f"{MEMORY}/corrections"
PROJECTS = f"{MEMORY}/projects"
ARCHIVE = f"{MEMORY}/archive"
TIERS = (ACTIVE, PATTERNS, CORRECTIONS, PROJECTS, ARCHIVE)
CONSOLIDATION_ACTOR = Actor("system", "consolidate")
SESSIONS_HEADING = "## Sessions"

_WEEK = re.compile(r"(\d{4})-W(\d{2})")
_DATE = re.compile(r"\b(\d{4}-\d{2}-\d{2})\b")

_DESCRIPTIONS = {
    ACTIVE: "# Active\n\nCurrent priorities and recent sessions, one dated line each.\n",
    PATTERNS: "# Patterns\n\nRecurring observations, gathered from the weekly archives.\n",
    CORRECTIONS: "# Corrections\n\nCorrections of earlier facts, and the user's preferences.\n",
    PROJECTS: "# Projects\n\nOne page per project below this one.\n",
    ARCHIVE: "# Archive\n\nOne page per ISO week (YYYY-Www), the week's sessions rolled in.\n",
}


def parse_week(week: str) -> tuple[date, date]:
    """Monday and Sunday of an ISO week written `YYYY-Www` (e.g. 2026-W47)."""
    m = _WEEK.fullmatch(week.strip()) if isinstance(week, str) else None
    if not m:
        raise UserError(f"week {week!r}: write an ISO week as YYYY-Www, e.g. 2026-W47")
    try:
        monday = date.fromisocalendar(int(m.group(1)), int(m.group(2)), 1)
    except ValueError:
        raise UserError(f"week {week!r}: year {m.group(1)} has no week {m.group(2)}") from None
    return monday, monday + timedelta(days=6)


def week_of(day: date | datetime) -> str:
    """The ISO week `YYYY-Www` a day falls in."""
    year, week, _ = day.isocalendar()
    return f"{year}-W{week:02d}"


def last_week(today: date | None = None) -> str:
    """The ISO week before the current one: what a Monday cron job consolidates."""
    today = today or datetime.now(UTC).date()
    return week_of(today - timedelta(days=7))


def archive_path(week: str) -> str:
    parse_week(week)
    return f"{ARCHIVE}/{week}"


def project_path(name: str) -> str:
    return f"{PROJECTS}/{slugify(name)}"


def ensure_layout(repo: DocumentsRepository, owner: str) -> list[str]:
    """Create the tier pages that do not exist yet (never touching existing ones)."""
    created = []
    for path, body in _DESCRIPTIONS.items():
        if not repo.exists(owner, path):
            repo.write(owner, path, body, actor=CONSOLIDATION_ACTOR)
            created.append(path)
    return created


@dataclass
class ConsolidationResult:
    owner: str
    week: str
    archive_path: str
    archive_version: int | None = None
    rolled: list[str] = field(default_factory=list)
    pruned_active_lines: int = 0
    patterns_added: int = 0

    @property
    def changed(self) -> bool:
        return bool(self.rolled or self.pruned_active_lines or self.patterns_added)

    def to_dict(self) -> dict[str, Any]:
        d = self.__dict__.copy()
        d["changed"] = self.changed
        return d


def _week_line(line: str, monday: date, sunday: date, rolled: set[str]) -> bool:
    """Does this line of `active` belong to the week: dated in it, or linking a rolled page."""
    if any(f"[[{p}]]" in line or f"]({p})" in line for p in rolled):
        return True
    m = _DATE.search(line[:40])
    if not m:
        return False
    try:
        day = date.fromisoformat(m.group(1))
    except ValueError:
        return False
    return monday <= day <= sunday


def _sessions_section(existing: str, rolled: list[SourceDocument]) -> str:
    lines = [ln for ln in existing.splitlines() if ln.startswith("- ")]
    for s in rolled:
        line = f"- [[{s.path}]] (version {s.version})"
        if line not in lines:
            lines.append(line)
    return f"{SESSIONS_HEADING}\n\n" + "\n".join(lines) + "\n"


def consolidate(
    repo: DocumentsRepository, owner: str, week: str, *, prune_active: bool = True
) -> ConsolidationResult:
    """Roll the session pages of `week` into its archive page; prune the week from `active`.

    One transaction. Idempotent: a second run for the same week finds nothing left to roll
    or prune and writes nothing; a session page added to the week later is folded into the
    existing archive page by the next run.
    """
    owner = validate_owner(owner)
    monday, sunday = parse_week(week)
    week_page = archive_path(week)
    result = ConsolidationResult(owner, week, week_page)
    with repo.transaction():
        current = repo.get(owner, week_page)
        sessions = [
            SourceDocument.of(d)
            for d in repo.documents(owner, week_page)
            if d.path != week_page and d.body.strip()
        ]
        if sessions:
            result.archive_version = _roll(repo, owner, week, week_page, current, sessions)
            result.rolled = [s.path for s in sessions]
            result.patterns_added = _record_patterns(repo, owner, week, sessions)
            for doc in sorted(repo.documents(owner, week_page), key=lambda d: -len(d.path)):
                if doc.path != week_page:
                    repo.delete(
                        owner, doc.path, expected_version=doc.version, actor=CONSOLIDATION_ACTOR
                    )
        elif current is not None:
            result.archive_version = current.version
        if prune_active:
            result.pruned_active_lines = _prune_active(
                repo, owner, monday, sunday, set(result.rolled)
            )
    return result


def _roll(
    repo: DocumentsRepository,
    owner: str,
    week: str,
    week_page: str,
    current: Any,
    sessions: list[SourceDocument],
) -> int:
    previous = None
    sessions_text = ""
    if current is not None and current.body.strip():
        head, _, sessions_text = current.body.partition("\n" + SESSIONS_HEADING + "\n")
        previous = SourceDocument(current.id, current.path, current.title, head, current.version)
    text = ExtractiveCondenser(title=f"Week {week}").condense(
        sessions, previous=previous, under=week_page
    )
    body = text.rstrip() + "\n\n" + _sessions_section(sessions_text, sessions)
    doc = repo.write(
        owner,
        week_page,
        body,
        title=f"Week {week}",
        links=sorted({s.path for s in sessions}),
        expected_version=current.version if current is not None else 0,
        actor=CONSOLIDATION_ACTOR,
    )
    return doc.version


def _record_patterns(
    repo: DocumentsRepository, owner: str, week: str, sessions: list[SourceDocument]
) -> int:
    """Lines that recur in two or more session pages of the week go to `patterns`."""
    seen_in: dict[str, set[str]] = {}
    text_of: dict[str, str] = {}
    for s in sessions:
        for _, line in extract_lines(s.body):
            key = _normal(line)
            if len(key.split()) < 3:
                continue
            seen_in.setdefault(key, set()).add(s.path)
            text_of.setdefault(key, line)
    recurring = [text_of[k] for k in sorted(seen_in) if len(seen_in[k]) >= 2]
    if not recurring:
        return 0
    current = repo.get(owner, PATTERNS)
    body = (
        current.body.rstrip()
        if current and current.body.strip()
        else _DESCRIPTIONS[PATTERNS].rstrip()
    )
    known = {_normal(ln) for ln in body.splitlines()}
    new = [f"{line} (week {week})" for line in recurring]
    new = [ln for ln in new if _normal(ln) not in known]
    if not new:
        return 0
    repo.write(
        owner,
        PATTERNS,
        body + "\n" + "\n".join(new) + "\n",
        expected_version=current.version if current else 0,
        actor=CONSOLIDATION_ACTOR,
    )
    return len(new)


def _prune_active(
    repo: DocumentsRepository, owner: str, monday: date, sunday: date, rolled: set[str]
) -> int:
    current = repo.get(owner, ACTIVE)
    if current is None:
        return 0
    lines = current.body.splitlines()
    kept = [
        ln
        for ln in lines
        if not (ln.lstrip().startswith(("-", "*")) and _week_line(ln, monday, sunday, rolled))
    ]
    pruned = len(lines) - len(kept)
    if pruned:
        repo.write(
            owner,
            ACTIVE,
            "\n".join(kept).rstrip() + "\n",
            expected_version=current.version,
            actor=CONSOLIDATION_ACTOR,
        )
    return pruned
