"""The weekly consolidation that keeps the tiered memory layout (`doctree.memory.layout`)
small.

The memory agent writes a page per session under `archive/<YYYY-Www>/` and a dated line in
`active`. `consolidate(week)` rolls the week's session pages into the week page (their key
lines, grouped by session, deduplicated, each section linking the page it came from),
retires the session pages (tombstones; history stays readable), and moves the lines of
`active` dated in that week (passed dates, the week's decisions) to the week page. Running
it again for the same week changes nothing, so it is safe from cron.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any

from doctree.errors import UserError
from doctree.memory.layout import (
    ACTIVE,
    ARCHIVE,
    PROJECTS,
    TIER_PAGES,
)
from doctree.memory.lines import extract_lines, normal_key
from doctree.store.documents import Actor, DocumentsRepository, Provenance
from doctree.store.paths import slugify, validate_owner
from doctree.timeutil import iso_week as week_of

CONSOLIDATION_ACTOR = Actor("system", "consolidate")

_WEEK = re.compile(r"(\d{4})-W(\d{2})")
_META = re.compile(r"- (agent|session|week): ")
_LEADING_DATE = re.compile(r"\s*[-*+]\s+(\d{4}-\d{2}-\d{2})\b")

_DESCRIPTIONS = {path: f"# {title}\n\n{intro}\n" for path, (title, intro) in TIER_PAGES.items()}


def parse_week(week: str) -> tuple[date, date]:
    """Monday and Sunday of an ISO week written `YYYY-Www` (e.g. 2026-W47)."""
    m = _WEEK.fullmatch(week.strip()) if isinstance(week, str) else None
    if not m:
        raise UserError(f"week {week!r}: write an ISO week as YYYY-Www, e.g. 2026-W47")
    try:
        monday = date.fromisocalendar(int(m.group(1)), int(m.group(2)), 1)
    except ValueError:
        raise UserError(f"week {week!r}: year {m.group(1)} has no week {m.group(2)}") from None
    if monday > date.max - timedelta(days=7):  # its Sunday, and the day after it
        raise UserError(f"week {week!r}: after the last week dates can hold (9999-W51)")
    return monday, monday + timedelta(days=6)


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
            repo.write(owner, path, body, provenance=Provenance(CONSOLIDATION_ACTOR))
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

    @property
    def changed(self) -> bool:
        return bool(self.rolled or self.pruned_active_lines)

    def to_dict(self) -> dict[str, Any]:
        d = self.__dict__.copy()
        d["changed"] = self.changed
        return d


def _leading_date(line: str) -> date | None:
    m = _LEADING_DATE.match(line)
    if not m:
        return None
    try:
        return date.fromisoformat(m.group(1))
    except ValueError:
        return None


@dataclass
class _Page:
    """A page as its title, the lines before any section, and `## ` sections in order."""

    title: str
    intro: list[str] = field(default_factory=list)
    sections: dict[str, list[str]] = field(default_factory=dict)

    @classmethod
    def parse(cls, body: str, title: str) -> _Page:
        page = cls(title)
        current = page.intro
        for i, line in enumerate(body.splitlines()):
            if i == 0 and line.startswith("# "):
                page.title = line[2:].strip()
            elif line.startswith("## "):
                current = page.sections.setdefault(line[3:].strip(), [])
            else:
                current.append(line)
        for lines in [page.intro, *page.sections.values()]:
            while lines and not lines[-1].strip():
                lines.pop()
            while lines and not lines[0].strip():
                lines.pop(0)
        return page

    def render(self) -> str:
        out = [f"# {self.title}", ""]
        if self.intro:
            out += [*self.intro, ""]
        for name, lines in self.sections.items():
            if lines:
                out += [f"## {name}", "", *lines, ""]
        return "\n".join(out).rstrip() + "\n"


def consolidate(
    repo: DocumentsRepository, owner: str, week: str, *, prune_active: bool = True
) -> ConsolidationResult:
    """Roll the session pages of `week` into its archive page; move the week's lines out of
    `active` into it.

    Each session page becomes a section of the week page (its key lines, deduplicated against
    what the page already says, headed by a link to the session page) and is then retired:
    deleted, its history readable. Lines of `active` dated in the week (passed dates, the
    week's decisions) move to the week page's "Pruned from active" section. One transaction.
    Idempotent: a second run for the same week finds nothing to roll or prune and writes
    nothing; a session page added to the week later is folded in by the next run.
    """
    owner = validate_owner(owner)
    monday, sunday = parse_week(week)
    week_page = archive_path(week)
    result = ConsolidationResult(owner, week, week_page)
    with repo.transaction():
        current = repo.get(owner, week_page)
        page = _Page.parse(current.body if current else "", f"Week {week}")
        sessions = [d for d in repo.documents(owner, week_page) if d.path != week_page]
        seen = {normal_key(ln) for lines in page.sections.values() for ln in lines}
        links = list(current.links) if current else []
        for doc in sorted(sessions, key=lambda d: d.path):
            if not doc.body.strip():
                continue
            heading = f"{doc.title} ([[{doc.path}]])"
            lines = page.sections.setdefault(heading, [])
            for _, line in extract_lines(doc.body):
                if _META.match(line) or f"[[{week_page}]]" in line:
                    continue  # the section heading already names the session and the week
                key = normal_key(line)
                if key and key not in seen:
                    seen.add(key)
                    lines.append(line)
            listed = page.sections.setdefault("Sessions", [])
            if not any(doc.path in ln for ln in listed):
                listed.append(f"- [[{doc.path}]] (version {doc.version})")
            links.append(doc.path)
            result.rolled.append(doc.path)
        if prune_active:
            moved = _prune_active(repo, owner, monday, sunday)
            pruned = page.sections.setdefault("Pruned from active", [])
            pruned += [ln for ln in moved if ln not in pruned]
            result.pruned_active_lines = len(moved)
        if result.rolled or result.pruned_active_lines:
            doc = repo.write(
                owner,
                week_page,
                page.render(),
                title=page.title,
                links=sorted(set(links)),
                expected_version=current.version if current else 0,
                provenance=Provenance(CONSOLIDATION_ACTOR),
            )
            result.archive_version = doc.version
            for s in sorted(sessions, key=lambda d: -d.path.count("/")):
                repo.delete(
                    owner,
                    s.path,
                    expected_version=s.version,
                    provenance=Provenance(CONSOLIDATION_ACTOR),
                )
        elif current is not None:
            result.archive_version = current.version
    return result


def _prune_active(repo: DocumentsRepository, owner: str, monday: date, sunday: date) -> list[str]:
    """Remove the list lines of `active` dated in the week; returns them."""
    current = repo.get(owner, ACTIVE)
    if current is None:
        return []
    lines = current.body.splitlines()
    moved = [ln for ln in lines if (d := _leading_date(ln)) is not None and monday <= d <= sunday]
    if moved:
        kept = [ln for ln in lines if ln not in moved]
        repo.write(
            owner,
            ACTIVE,
            "\n".join(kept).rstrip() + "\n",
            expected_version=current.version,
            provenance=Provenance(CONSOLIDATION_ACTOR),
        )
    return moved
