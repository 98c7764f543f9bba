"""Time as doctree writes it: stored timestamps and ISO weeks."""

from __future__ import annotations

from datetime import UTC, date, datetime


def now_iso() -> str:
    """The current time as stored: ISO 8601, UTC, microseconds, `Z` (sorts as text)."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def today() -> date:
    """The current day, UTC: the day a question is asked unless the caller says otherwise."""
    return datetime.now(UTC).date()


def iso_week(day: date | datetime) -> str:
    """`2026-W47`: the ISO week a day falls in (the archive's unit)."""
    year, week, _ = day.isocalendar()
    return f"{year}-W{week:02d}"
