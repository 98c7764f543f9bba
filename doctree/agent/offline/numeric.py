"""Numeric dates: "04/02/2030", "14/03", "Tuesday 04/09", read in the order the text shows.

Whether "04/02/2030" is the 2nd of April or the 4th of February depends on who writes it.
The order is taken from the text itself (`date_order`): a date whose first number is over 12
is day-first, one whose second is, month-first; "mm/dd" or "dd/mm" said outright; failing
those, a North American telephone number or a US state before a ZIP code is month-first, a
+44 or +353 number day-first. A weekday said with the date picks the reading that falls on
it, whatever else the text shows. Without any of these an ambiguous date is left as said: a
wrong date is worse than none. A date without its year needs a weekday, a label or "on",
"by", "due" before it, or a time after it ("Tuesday 04/09", "Dentist: 06/04", "06/04 at
8:00"): "1/2 cup" and "scored 10/12" are no dates.

Dots join a day and a month only with a year ("15.03.2031", "3.4.2031", "15.03.31"): written
so, a date is day-first wherever it is written (unless its second number is over 12,
"03.15.2031"), and it shows the conversation's slashed dates are too. A year of two
figures needs the day and the month in two figures too ("15.03.31", not "3.4.31"), and nothing
after "version", "release" or "build" is a date, so "3.5", "2.4.1" and "version 10.12.14" stay
versions; "3-1" stays a score.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from doctree.agent.offline import language as lang
from doctree.agent.offline.resolve import tense_at

_STATES = (
    "Alabama|Alaska|Arizona|Arkansas|California|Colorado|Connecticut|Delaware|Florida|Georgia|"
    "Hawaii|Idaho|Illinois|Indiana|Iowa|Kansas|Kentucky|Louisiana|Maine|Maryland|Massachusetts|"
    "Michigan|Minnesota|Mississippi|Missouri|Montana|Nebraska|Nevada|New Hampshire|New Jersey|"
    "New Mexico|New York|North Carolina|North Dakota|Ohio|Oklahoma|Oregon|Pennsylvania|"
    "Rhode Island|South Carolina|South Dakota|Tennessee|Texas|Utah|Vermont|Virginia|Washington|"
    "West Virginia|Wisconsin|Wyoming"
)
#: A sign the text is written month-first: "mm/dd", a (614) 555-0147 or 614-555-0147 number,
#: a state and its ZIP code ("Columbus, OH 43215"), a US state named after a town ("Austin,
#: Texas").
_MONTH_FIRST = re.compile(
    r"\bmm/dd\b|(?<![\d+])\(\d{3}\)\s?\d{3}-\d{4}\b|(?<![\d+-])\b\d{3}-\d{3}-\d{4}\b"
    r"|\b[A-Z]{2}\s\d{5}(?:-\d{4})?\b|\b\+1[\s-]\d{3}\b"
    rf"|\b[A-Z][a-z]+,\s(?:{_STATES})\b"
)
#: A sign the text is written day-first: "dd/mm", a British or Irish international number.
_DAY_FIRST = re.compile(r"\bdd/mm\b|\+44\s?\d|\+353\s?\d")
#: "04/02/2030", "4/2/30", "06/04": a day and a month joined by a slash, a year or not.
_NUMERIC = re.compile(
    r"(?<![\w/.,:$£€-])(?P<a>\d{1,2})/(?P<b>\d{1,2})(?:/(?P<y>\d{4}|\d{2}))?(?![\w/%]|[.,:]\d)"
)
#: "15.03.2031", "3.4.2031", "15.03.31": a day, a month and a year joined by dots.
_DOTTED = re.compile(
    r"(?<![\w/.,:$£€-])(?P<a>\d{1,2})\.(?P<b>\d{1,2})\.(?P<y>\d{4}|\d{2})(?![\w/%]|[.,:]\d)"
)
#: What before dotted numbers makes them a version, not a date.
_VERSION_BEFORE = re.compile(r"\b(?:version|ver|release|build|firmware|patch|update)\.?\s*$", re.I)
#: What before a yearless date makes it one: a weekday, or a word that introduces a day.
_BEFORE = re.compile(
    rf"(?:\b{lang.WEEKDAY_OR_ABBREVIATION}\.?,?|\b(?:on|by|until|till|from|due|before|after|"
    r"dated|date|thru|through)\b|\w:)\s*$",
    re.I,
)
#: What after a yearless date makes it one: a time of day ("06/04 at 8:00", "06/04 @ 9am").
_AFTER = re.compile(r"\s*,?\s*(?:at|@)\s*\d{1,2}(?::\d{2}|\s?[ap]\.?m\b)", re.I)

#: Where a date went ("moved to Tuesday", "pushed back until"): what is to come, whatever
#: the tense of the verb.
_MOVED_TO = re.compile(
    rf"\b(?:to|until|till|for)\s+(?:the\s+)?(?:{lang.WEEKDAY_OR_ABBREVIATION}\.?,?\s*)?$", re.I
)


def date_order(text: str) -> str | None:
    """ "mdy" when `text` shows its numeric dates are written month-first, "dmy" when
    day-first, None when it does not show."""
    mdy = dmy = 0
    for m in _NUMERIC.finditer(text):
        a, b = int(m.group("a")), int(m.group("b"))
        if a > 12 >= b >= 1:
            dmy += 1
        elif b > 12 >= a >= 1 and b <= 31:
            mdy += 1
    dotted = [m for m in _DOTTED.finditer(text) if _dotted_date(m, text)]
    mdy += sum(int(m.group("b")) > 12 for m in dotted)
    if mdy != dmy:
        return "mdy" if mdy > dmy else "dmy"
    if any(int(m.group("b")) <= 12 for m in dotted):
        return "dmy"
    if _MONTH_FIRST.search(text) and not _DAY_FIRST.search(text):
        return "mdy"
    if _DAY_FIRST.search(text) and not _MONTH_FIRST.search(text):
        return "dmy"
    return None


def _dotted_date(m: re.Match[str], text: str) -> bool:
    """Whether dotted numbers `m` of `text` are a date: a real day and month, a year of four
    figures or a day and month of two, and no "version" before them."""
    a, b, y = m.group("a"), m.group("b"), m.group("y")
    if not (1 <= int(a) <= 31 and 1 <= int(b) <= 31 and min(int(a), int(b)) <= 12):
        return False
    if len(y) == 2 and (len(a) != 2 or len(b) != 2):
        return False
    return not _VERSION_BEFORE.search(text[: m.start()])


def _weekday_before(text: str, at: int) -> int | None:
    """The weekday said right before position `at` ("Tuesday 04/09"), as 0 (Monday) to 6."""
    m = re.search(rf"\b({lang.WEEKDAY_OR_ABBREVIATION})\.?,?\s*$", text[:at], re.I)
    if m is None:
        return None
    try:
        return lang.weekday_number(m.group(1))
    except (KeyError, ValueError):
        return None


def _dated(day: int, month: int, year: int | None, ref: date, past: bool) -> date | None:
    """The date of `day` and `month`, in `year` or else the year `past` and `ref` give: the
    latest such day up to `ref` in a sentence about the past, else the next from `ref` (a
    week of slack: "the 03/02 meeting" said on 5 March is still this year's)."""
    try:
        if year is not None:
            return date(year, month, day)
        d = date(ref.year, month, day)
        if past and d > ref:
            d = date(ref.year - 1, month, day)
        elif not past and d < ref - timedelta(days=7):
            d = date(ref.year + 1, month, day)
        return d
    except ValueError:
        return None


def _readings(text: str) -> bool:
    """Whether the yearless numbers with a slash of `text` are readings of one scale: two or
    more, each no more than the one after its slash, all after the same one, a scale's
    ("out: 4/4, in: 3/4", "round one: 7/10, round two: 9/10"). Said after a label's colon
    they are left undated: "1/5, 3/5" may as well be two days of May, and a day not given
    is better than a wrong one."""
    pairs = [
        (int(m.group("a")), int(m.group("b")))
        for m in _NUMERIC.finditer(text)
        if m.group("y") is None
    ]
    scales = {b for _, b in pairs}
    return (
        len(pairs) >= 2 and len(scales) == 1 and scales <= _SCALES and all(a <= b for a, b in pairs)
    )


#: What readings are out of: halves, thirds, quarters, fifths, eighths, tenths.
_SCALES = {2, 3, 4, 5, 8, 10}


def numeric_dates(text: str, ref: date, order: str | None) -> list[tuple[str, date]]:
    """The numeric dates of `text` (said on `ref`) with the date each means, read in `order`
    ("mdy", "dmy" or None: `date_order`'s answer for the whole conversation). A weekday said
    with a date settles its reading; a date that fits both orders is left out when neither
    the order nor a weekday says which."""
    found: list[tuple[str, date]] = []
    for m in _DOTTED.finditer(text):
        if not _dotted_date(m, text):
            continue
        a, b, y = int(m.group("a")), int(m.group("b")), m.group("y")
        in_year = int(y) + (2000 if len(y) == 2 else 0)
        # day-first; month-first only when the first number cannot be a month's day count
        # the second can ("03.15.2031")
        d = _dated(a, b, in_year, ref, False) or _dated(b, a, in_year, ref, False)
        if d is not None and 1900 < in_year < 2200:
            found.append((m.group(0), d))
    readings_of = _readings(text)
    for m in _NUMERIC.finditer(text):
        a, b, y = int(m.group("a")), int(m.group("b")), m.group("y")
        year = None if y is None else int(y) + (2000 if len(y) == 2 else 0)
        if year is None and not (_BEFORE.search(text[: m.start()]) or _AFTER.match(text, m.end())):
            continue  # "1/2 cup", "scored 10/12", "the ratio is 16/9": no date
        if year is None and (
            m.group(0) == "24/7" or readings_of and text[: m.start()].rstrip().endswith(":")
        ):
            continue  # "tank out: 4/4, tank in: 3/4", "open: 24/7": readings, no dates
        if year is not None and not 1900 < year < 2200:
            continue
        past = tense_at(text, m.start()) and not _MOVED_TO.search(text[: m.start()])
        readings = {
            kind: d
            for kind, (day, month) in (("mdy", (b, a)), ("dmy", (a, b)))
            if (d := _dated(day, month, year, ref, past)) is not None
        }
        if not readings:
            continue
        wd = _weekday_before(text, m.start())
        fits = {k: d for k, d in readings.items() if wd is None or d.weekday() == wd}
        if len(fits) == 1:
            found.append((m.group(0), next(iter(fits.values()))))
        elif len(fits) == 2 and order in fits:
            found.append((m.group(0), fits[order]))
        elif len(fits) == 2 and fits["mdy"] == fits["dmy"]:
            found.append((m.group(0), fits["mdy"]))  # "05/05"
    return found
