"""Dates in text: full dates (`parse_date`), and the normalised date tokens of what a text
speaks of (`date_tokens`: `d20230507 m202305 y2023`), relative dates ("yesterday", "last
year") resolved against the date the text was written.
"""

from __future__ import annotations

import calendar
import re
from datetime import date, timedelta
from functools import lru_cache

_MONTHS = {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
_MONTHS.update({name.lower(): i for i, name in enumerate(calendar.month_abbr) if name})
_MONTHS["sept"] = 9
_MONTH_RE = "|".join(sorted(_MONTHS, key=len, reverse=True))
_WEEKDAYS = {name.lower(): i for i, name in enumerate(calendar.day_name)}
_NUMBERS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "couple of": 2,
    "a couple of": 2,
    "few": 3,
    "a few": 3,
    "several": 3,
}
_NUM_RE = r"\d{1,2}|" + "|".join(sorted(map(re.escape, _NUMBERS), key=len, reverse=True))

_ISO_DATE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_DAY_MONTH_YEAR = re.compile(
    rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+({_MONTH_RE})\.?,?\s+(\d{{4}})\b", re.I
)
_MONTH_DAY_YEAR = re.compile(
    rf"\b({_MONTH_RE})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b", re.I
)
_MONTH_YEAR = re.compile(rf"\b({_MONTH_RE})\.?,?\s+(\d{{4}})\b", re.I)
_DAY_MONTH = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH_RE})\b", re.I)
_MONTH_DAY = re.compile(rf"\b({_MONTH_RE})\s+(\d{{1,2}})(?:st|nd|rd|th)?\b(?!\s*\d)", re.I)
_LONE_MONTH = re.compile(
    r"\b(?:in|since|during|early|late|mid|last|next|this|of)\s+(january|february|march|april|"
    r"june|july|august|september|october|november|december)\b",
    re.I,
)
_YEAR = re.compile(r"\b(19[5-9]\d|20[0-4]\d)\b")
_RELATIVE = re.compile(
    rf"\b(?P<simple>yesterday|today|tonight|tomorrow|last night|this morning|this weekend"
    rf"|last weekend|next weekend|last week|this week|next week|last month|this month"
    rf"|next month|last year|this year|next year|recently|the other day)\b"
    rf"|\b(?P<n>{_NUM_RE})\s+(?P<unit>days?|weeks?|weekends?|months?|years?)\s+(?P<dir>ago|before|back|later|from now)\b"
    rf"|\b(?P<wdir>last|this|next|on|past)\s+(?P<weekday>monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b",
    re.I,
)


def parse_date(text: str) -> date | None:
    """The first full date in `text`: `2023-05-08`, `8 May, 2023`, `May 8, 2023`, or None."""
    if not text:
        return None
    found: list[tuple[int, date]] = []
    for m in _ISO_DATE.finditer(text):
        d = _safe_date(int(m[1]), int(m[2]), int(m[3]))
        if d:
            found.append((m.start(), d))
    for m in _DAY_MONTH_YEAR.finditer(text):
        d = _safe_date(int(m[3]), _month(m[2]), int(m[1]))
        if d:
            found.append((m.start(), d))
    for m in _MONTH_DAY_YEAR.finditer(text):
        d = _safe_date(int(m[3]), _month(m[1]), int(m[2]))
        if d:
            found.append((m.start(), d))
    return min(found)[1] if found else None


def _month(name: str) -> int:
    """The number of a month name the patterns matched, or 0. The patterns match without
    regard to case in Unicode's sense, so `ſept` (a long s) matches `sept`: casefold reads it
    the same way."""
    return _MONTHS.get(name.lower()) or _MONTHS.get(name.casefold(), 0)


def _safe_date(y: int, m: int, d: int) -> date | None:
    try:
        return date(y, m, d)
    except ValueError:
        return None


def _shift_months(d: date, months: int) -> date:
    y, m = divmod(d.year * 12 + d.month - 1 + months, 12)
    return date(y, m + 1, min(d.day, calendar.monthrange(y, m + 1)[1]))


def day_tokens(d: date) -> list[str]:
    """The date tokens of one day (`d20230508 m202305 y2023`), as passages are indexed."""
    return list(_day_tokens(d))


def _month_tokens(d: date) -> list[str]:
    return list(_day_tokens(d)[1:])


@lru_cache(maxsize=4096)
def _day_tokens(d: date) -> tuple[str, str, str]:
    # A pure function of the day, asked for again for every passage of a session.
    return f"d{d:%Y%m%d}", f"m{d:%Y%m}", f"y{d:%Y}"


# What each kind of date expression cannot do without, looked for once per text so that
# the expressions are tried only where they can match (most text holds none). In ASCII text
# `re.I` folds case as `str.lower` does, so substrings of the lower-cased text are enough;
# other text is searched with the same folding (`re.I`) as the expressions themselves.
# An ISO date needs a '-', a lone year '19' or '20', and every other absolute date a digit.
_DIGIT = re.compile(r"\d")
#: Every month name or abbreviation above begins with one of these.
_MONTH_STARTS = tuple(sorted({m[:3] for m in _MONTHS}))
_MONTH_START = re.compile("|".join(_MONTH_STARTS), re.I)
#: Every relative expression holds one of these ("yesterday", "last Friday", "tonight").
_RELATIVE_WORDS = ("day", "week", "month", "year", "night", "morning", "tomorrow", "recently")
_RELATIVE_WORD = re.compile("|".join(_RELATIVE_WORDS), re.I)


def _holds(text: str, low: str | None, words: tuple[str, ...], pattern: re.Pattern[str]) -> bool:
    """Whether `text` holds one of `words` (any case); `low` is it lower-cased when ASCII."""
    if low is None:
        return pattern.search(text) is not None
    # a loop: faster than any() or one pattern of them all (measured)
    for w in words:  # noqa: SIM110
        if w in low:
            return True
    return False


def date_tokens(text: str, anchor: date | None) -> list[str]:
    """Normalised date tokens for what `text` speaks of: `d20230507 m202305 y2023`.

    Absolute dates are taken as written (a day or month without a year takes the anchor's
    year); relative ones ("yesterday", "two weeks ago", "last Friday", "last year") are
    resolved against `anchor`, the date the text was written, and dropped without one.
    """
    low = text.lower() if text.isascii() else None
    digit = _DIGIT.search(text) is not None
    iso = digit and "-" in text
    year = digit and ("19" in text or "20" in text)
    month = (digit or anchor is not None) and _holds(text, low, _MONTH_STARTS, _MONTH_START)
    relative = anchor is not None and _holds(text, low, _RELATIVE_WORDS, _RELATIVE_WORD)
    if not (iso or year or month or relative):
        return []
    out: list[str] = []
    spans: list[tuple[int, int]] = []

    def take(m: re.Match[str], toks: list[str]) -> None:
        spans.append(m.span())
        out.extend(toks)

    def free(m: re.Match[str]) -> bool:
        return not any(a <= m.start() < b or a < m.end() <= b for a, b in spans)

    if iso:
        for m in _ISO_DATE.finditer(text):
            if d := _safe_date(int(m[1]), int(m[2]), int(m[3])):
                take(m, day_tokens(d))
    if digit and month:
        for m in _DAY_MONTH_YEAR.finditer(text):
            if free(m) and (d := _safe_date(int(m[3]), _month(m[2]), int(m[1]))):
                take(m, day_tokens(d))
        for m in _MONTH_DAY_YEAR.finditer(text):
            if free(m) and (d := _safe_date(int(m[3]), _month(m[1]), int(m[2]))):
                take(m, day_tokens(d))
        for m in _MONTH_YEAR.finditer(text):
            if free(m) and (mo := _safe_date(int(m[2]), _month(m[1]), 1)):
                take(m, _month_tokens(mo))
    if anchor is not None:
        if digit and month:
            for m in _DAY_MONTH.finditer(text):
                if free(m) and (d := _safe_date(anchor.year, _month(m[2]), int(m[1]))):
                    take(m, day_tokens(d))
            for m in _MONTH_DAY.finditer(text):
                if free(m) and (d := _safe_date(anchor.year, _month(m[1]), int(m[2]))):
                    take(m, day_tokens(d))
        if month:
            for m in _LONE_MONTH.finditer(text):
                if free(m) and (mo := _safe_date(anchor.year, _month(m[1]), 1)):
                    take(m, _month_tokens(mo))
        if relative:
            for m in _RELATIVE.finditer(text):
                if free(m):
                    out.extend(_relative_tokens(m, anchor))
    if year:
        for m in _YEAR.finditer(text):
            if free(m):
                out.append(f"y{m[1]}")
    return list(dict.fromkeys(out))


def _relative_tokens(m: re.Match[str], anchor: date) -> list[str]:
    if m["simple"]:
        s = m["simple"].lower()
        if s in ("yesterday", "last night"):
            return day_tokens(anchor - timedelta(days=1))
        if s in ("today", "tonight", "this morning", "recently", "the other day"):
            return day_tokens(anchor)
        if s == "tomorrow":
            return day_tokens(anchor + timedelta(days=1))
        if s in ("last week", "last weekend"):
            return day_tokens(anchor - timedelta(days=7))[1:]
        if s in ("this week", "this weekend"):
            return _month_tokens(anchor)
        if s in ("next week", "next weekend"):
            return _month_tokens(anchor + timedelta(days=7))
        if s == "last month":
            return _month_tokens(_shift_months(anchor, -1))
        if s == "this month":
            return _month_tokens(anchor)
        if s == "next month":
            return _month_tokens(_shift_months(anchor, 1))
        if s == "last year":
            return [f"y{anchor.year - 1}"]
        if s == "this year":
            return [f"y{anchor.year}"]
        if s == "next year":
            return [f"y{anchor.year + 1}"]
        return []
    if m["unit"]:
        raw = m["n"].lower()
        n = int(raw) if raw.isdigit() else _NUMBERS.get(raw, 1)
        sign = 1 if m["dir"].lower() in ("later", "from now") else -1
        unit = m["unit"].lower().rstrip("s")
        if unit == "day":
            return day_tokens(anchor + timedelta(days=sign * n))
        if unit in ("week", "weekend"):
            return _month_tokens(anchor + timedelta(days=sign * 7 * n))
        if unit == "month":
            return _month_tokens(_shift_months(anchor, sign * n))
        return [f"y{anchor.year + sign * n}"]
    wd = _WEEKDAYS[m["weekday"].casefold()]
    back = (anchor.weekday() - wd) % 7 or 7
    if m["wdir"].lower() == "next":
        return day_tokens(anchor + timedelta(days=(wd - anchor.weekday()) % 7 or 7))
    return day_tokens(anchor - timedelta(days=back))


_TIME_ANY = re.compile(
    "|".join(
        f"(?:{p.pattern})"
        for p in (_RELATIVE, _YEAR, _DAY_MONTH, _MONTH_DAY, _LONE_MONTH, _ISO_DATE)
    ),
    re.I,
)


def has_time_expression(text: str) -> bool:
    """Whether a passage says when something happened (a date, a year or a relative time)."""
    return _TIME_ANY.search(text) is not None


# -- the time a question asks about ------------------------------------------------------

_WINDOW = re.compile(
    # a span ending now: "in the last two months", "over the past month", "past few weeks"
    rf"\b(?:(?:in|over|during|within|for)\s+)?(?:the\s+)?(?P<span>past|last)\s+(?:(?P<n>{_NUM_RE})\s+)?(?P<unit>days?|weeks?|weekends?|months?|years?)\b"
    # a point back in time: "two weeks ago", "a month ago"
    rf"|\b(?P<n2>{_NUM_RE})\s+(?P<unit2>days?|weeks?|weekends?|months?|years?)\s+ago\b"
    # a named day or period: "yesterday", "last Friday", "this month", "last weekend"
    rf"|\b(?P<simple>yesterday|today|last night|this morning|this week|this weekend|this month"
    rf"|this year)\b"
    rf"|\b(?:on\s+)?(?P<wdir>last|this|past)\s+(?P<weekday>monday|tuesday|wednesday|thursday"
    rf"|friday|saturday|sunday)\b",
    re.I,
)


def _ago(anchor: date, n: int, unit: str) -> date:
    unit = unit.lower().rstrip("s")
    if unit == "day":
        return anchor - timedelta(days=n)
    if unit in ("week", "weekend"):
        return anchor - timedelta(days=7 * n)
    if unit == "month":
        return _shift_months(anchor, -n)
    return _shift_months(anchor, -12 * n)


def _slack(anchor: date, back: date) -> timedelta:
    """How far from a point back in time ("two weeks ago") a day may lie and still be
    meant: a fifth of the distance (people round), at least a day."""
    return timedelta(days=max(1, (anchor - back).days // 5))


def time_windows(text: str, now: date) -> list[tuple[tuple[int, int], date, date]]:
    """The periods a question asks about, read against `now` (the day it is asked): each
    the span of its words in `text` and its first and last day. "two weeks ago" is that
    day give or take a fifth of the distance; "in the last two months" the two months up
    to `now`; "last month" the calendar month before and this one so far (either may be
    meant); "last weekend" its Saturday and Sunday; "last Friday" that day; "this month"
    the month so far. Questions that ask for a time ("how many weeks ago did I…") name
    none."""
    out = []
    for m in _WINDOW.finditer(text):
        if m["span"]:
            unit = m["unit"].lower()
            if m["n"] is None and unit == "weekend":  # the Saturday and Sunday before
                saturday = now - timedelta(days=(now.weekday() - 5) % 7 or 7)
                out.append((m.span(), saturday, saturday + timedelta(days=1)))
                continue
            if m["n"] is None and unit.endswith("s"):  # "the past weeks": a few
                n = 3
            else:
                raw = (m["n"] or "1").lower()
                n = int(raw) if raw.isdigit() else _NUMBERS.get(raw, 1)
            start = _ago(now, n, unit)
            if m["n"] is None and m["span"].lower() == "last" and unit in ("month", "year"):
                # "last month": the calendar month before, or the month up to now
                start = start.replace(day=1) if unit == "month" else date(start.year, 1, 1)
            out.append((m.span(), start, now))
        elif m["unit2"]:
            raw = m["n2"].lower()
            n = int(raw) if raw.isdigit() else _NUMBERS.get(raw, 1)
            back = _ago(now, n, m["unit2"])
            slack = _slack(now, back)
            out.append((m.span(), back - slack, min(now, back + slack)))
        elif m["simple"]:
            s = m["simple"].lower()
            if s in ("yesterday", "last night"):
                day = now - timedelta(days=1)
                out.append((m.span(), day, day))
            elif s in ("today", "this morning"):
                out.append((m.span(), now, now))
            elif s in ("this week", "this weekend"):
                out.append((m.span(), now - timedelta(days=now.weekday()), now))
            elif s == "this month":
                out.append((m.span(), now.replace(day=1), now))
            else:  # this year
                out.append((m.span(), date(now.year, 1, 1), now))
        else:
            wd = _WEEKDAYS[m["weekday"].casefold()]
            if m["wdir"].lower() == "this":
                day = now - timedelta(days=(now.weekday() - wd) % 7)
            else:
                day = now - timedelta(days=(now.weekday() - wd) % 7 or 7)
            out.append((m.span(), day, day))
    return out
