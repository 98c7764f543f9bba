"""Structured records: what a tool returned as XML, CSV or TSV, JSON or `key: value` lines,
read record by record into the lines a person would note.

A workshop's service log in XML, a spreadsheet's rows in CSV, a booking system's JSON: each
record becomes one line, its fields labelled by their names in words ("mileageKm" reads
"mileage: 4,212 km"; a `cost` element with `currency="GBP"` reads "cost: £148.50"), its
dates in ISO form, what names the whole result (the root's attributes, the sheet a tool
was asked for) said after it in brackets, so that the line still says where it came from
when it is read alone:

    Visit 2031-03-02: Brake pads replaced; Software updated to 2.1; cost: £148.50;
    technician: Ines (vehicle history: garage: Northway Motors).

The standard library's parsers do the reading (`defusedxml` in front of `xml.etree`, so a
tool's XML cannot expand entities or reach a file; `csv.Sniffer` for the delimiter and the
header row); text that is none of these gives no records. Which records are worth keeping
is the caller's choice (`used_by`: those whose values the assistant then reported).
"""

from __future__ import annotations

import csv
import json
import re
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from doctree.stopwords import ENGLISH


@dataclass
class Record:
    """One record of a structured result: the line it reads as, and the values it holds."""

    line: str
    values: list[str] = field(default_factory=list)


#: A unit a field's name ends with: `odometerKm`, `weight_kg`, `duration_min`.
_UNIT = re.compile(
    r"(?:(?<=[a-z])(?=[A-Z])|[_\s-])(?P<unit>km|kg|mi|miles|kwh|min|mins|ml|mm|cm|g|l|h|hours|pct|percent)$",
    re.I,
)
_CURRENCY_SIGN = {"gbp": "£", "usd": "$", "eur": "€"}
_CURRENCY_NAME = re.compile(r"(?:(?<=[a-z])(?=[A-Z])|[_\s-])(?P<code>gbp|usd|eur)$", re.I)
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
#: A field whose value says when the record happened: it goes first, after what it is.
_WHEN = {"date", "when", "day", "on", "at", "time", "datetime", "timestamp", "start", "starts"}
_KEY_LINE = re.compile(r"^\s*(?P<key>[A-Za-z][\w .'/()-]{0,40}?)\s*:\s+(?P<value>\S.*?)\s*$")


def words(name: str) -> str:
    """A field's name as words: "nextService" -> "next service", "due_date" -> "due date"."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name.strip()).replace("_", " ")
    if " " not in spaced.strip():
        spaced = spaced.replace("-", " ")  # "due-date"; "check-up" in "next check-up" stays
    return " ".join(spaced.split()).lower()


def iso(value: str) -> str:
    """A date or a time stamp in ISO form ("2029-05-05", "2029-05-05 10:30"); a day said
    as 05/11/2029 is read day first, the way most of the world writes it, unless its first
    number cannot be a day's month (13/05/2029) or its second cannot be one (05/13/2029 is
    read month first). Anything else comes back as it is."""
    said = value.strip()
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", said):
        return said
    if re.fullmatch(
        r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?", said
    ):
        try:
            stamp = datetime.fromisoformat(said.replace("Z", "+00:00"))
        except ValueError:
            return value
        return f"{stamp:%Y-%m-%d %H:%M}"
    m = re.fullmatch(r"(\d{1,2})[/.](\d{1,2})[/.](\d{4})", said)
    if m:
        a, b, year = (int(x) for x in m.groups())
        day, month = (a, b) if b <= 12 else (b, a)
        try:
            return date(year, month, day).isoformat()
        except ValueError:
            return value
    return value


def _amount(value: str, currency: str) -> str:
    sign = _CURRENCY_SIGN.get(currency.lower())
    return f"{sign}{value}" if sign else f"{value} {currency.upper()}"


def _cell(name: str, value: str) -> tuple[str, str]:
    """A field as a labelled cell: its name in words, a unit or currency the name ends with
    moved to the value, a date made ISO."""
    value = iso(" ".join(value.split()))
    if (m := _CURRENCY_NAME.search(name)) and _NUMBER.fullmatch(value):
        return words(name[: m.start()]), _amount(value, m.group("code"))
    if (m := _UNIT.search(name)) and _NUMBER.fullmatch(value):
        # a quantity, written as people write one: "5,500 km"
        amount = f"{int(value):,}" if value.isdigit() else value
        return words(name[: m.start()]) or words(name), f"{amount} {m.group('unit').lower()}"
    return words(name), value


def _line(head: str, cells: list[tuple[str, str]], context: str) -> Record | None:
    when = [v for k, v in cells if k in _WHEN]
    rest = [(k, v) for k, v in cells if k not in _WHEN or len(when) > 2]
    head = " ".join(x for x in (head, *when[:2]) if x).strip()
    parts = [f"{k}: {v}" if k else v for k, v in rest if v]
    if not head and not parts:
        return None
    text = f"{head[:1].upper()}{head[1:]}: {'; '.join(parts)}" if parts else head
    text = text.rstrip(".;:")
    if context:
        text += f" ({context})"
    return Record(text + ".", [v for _, v in cells if v])


# -- XML ---------------------------------------------------------------------------------


def _xml(text: str, context: str) -> list[Record] | None:
    from xml.etree.ElementTree import Element, ParseError

    from defusedxml import DefusedXmlException
    from defusedxml.ElementTree import fromstring

    try:
        root = fromstring(text.strip().encode("utf-8"))
    except (ParseError, DefusedXmlException, ValueError):
        return None
    # a wrapper with one child that holds the records: <response><items>…</items></response>
    while len(root) == 1 and len(root[0]) and not root.attrib:
        root = root[0]

    def cells(el: Element) -> list[tuple[str, str]]:
        out = [_cell(k, v) for k, v in el.attrib.items() if v.strip()]
        for child in el:
            said = (child.text or "").strip()
            if len(child):
                continue  # nested deeper: not one cell
            if said and (currency := child.attrib.get("currency")) and _NUMBER.fullmatch(said):
                out.append((words(child.tag), _amount(said, currency)))
            elif said and len([c for c in el if c.tag == child.tag]) > 1:
                out.append(("", said))  # a list of items, each its own text
            elif said:
                out.append(_cell(child.tag, said))
            elif child.attrib:
                inner = ", ".join(
                    f"{k} {v}" for k, v in (_cell(a, b) for a, b in child.attrib.items())
                )
                out.append((words(child.tag), inner))
        return out

    about = [f"{k}: {v}" for k, v in (_cell(a, b) for a, b in root.attrib.items()) if v]
    where = words(root.tag) + (f": {'; '.join(about)}" if about else "")
    where = "; ".join(x for x in (where, context) if x)
    records = []
    for el in root:
        if (r := _line(words(el.tag), cells(el), where)) is not None:
            records.append(r)
    return records or None


# -- JSON --------------------------------------------------------------------------------


def _scalar(value: Any) -> str | None:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None or isinstance(value, dict | list):
        return None
    return str(value)


def _json(text: str, context: str) -> list[Record] | None:
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if isinstance(data, dict) and len(data) == 1 and isinstance(next(iter(data.values())), list):
        data = next(iter(data.values()))  # {"events": [...]}
    groups: list[tuple[str, dict]] = []
    if isinstance(data, list):
        groups = [("", x) for x in data if isinstance(x, dict) and x]
    elif isinstance(data, dict):
        scalars = {k: v for k, v in data.items() if _scalar(v) is not None}
        if scalars:
            groups.append(("", scalars))
        for key, value in data.items():
            if isinstance(value, dict):
                groups.append((words(key), value))
            elif isinstance(value, list):
                groups += [(words(key), x) for x in value if isinstance(x, dict) and x]
    records = []
    for head, record in groups:
        cells = [_cell(k, s) for k, v in record.items() if (s := _scalar(v)) is not None]
        if not head and cells and cells[0][0] not in _WHEN:
            head, cells = cells[0][1], cells[1:]
        if (r := _line(head, cells, context)) is not None:
            records.append(r)
    return records or None


# -- CSV, TSV ----------------------------------------------------------------------------


def _csv(text: str, context: str) -> list[Record] | None:
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    if len(lines) < 2:
        return None
    sample = "\n".join(lines[:20])
    try:
        dialect = csv.Sniffer().sniff(sample, delimiters=",\t;|")
        has_header = csv.Sniffer().has_header(sample)
    except csv.Error:
        return None
    rows = list(csv.reader(lines, dialect))
    header = [h.strip() for h in rows[0]]
    if (
        not has_header
        or len(header) < 2
        or not all(re.fullmatch(r"[A-Za-z][\w .#%/()-]{0,40}", h) for h in header)
        or any(len(r) != len(header) for r in rows[1:])
    ):
        return None
    records = []
    for row in rows[1:]:
        cells = [_cell(h, v) for h, v in zip(header, row, strict=True) if v.strip()]
        head = ""
        if cells and cells[0][0] not in _WHEN:
            head, cells = cells[0][1], cells[1:]
        if (r := _line(head, cells, context)) is not None:
            records.append(r)
    return records or None


# -- key: value lines ---------------------------------------------------------------------


def _key_values(text: str, context: str) -> list[Record] | None:
    records = []
    for block in re.split(r"\n\s*\n", text.strip()):
        found = [m for ln in block.splitlines() if (m := _KEY_LINE.match(ln))]
        if len(found) < 2 or len(found) < len([ln for ln in block.splitlines() if ln.strip()]):
            continue
        cells = [_cell(m["key"], m["value"]) for m in found]
        head = ""
        if cells[0][0] in ("name", "title", "item", "what", "event", "subject"):
            head, cells = cells[0][1], cells[1:]
        if (r := _line(head, cells, context)) is not None:
            records.append(r)
    return records or None


def read_records(text: str, context: str = "") -> list[Record]:
    """The records of a structured result (XML, JSON, CSV or TSV with a header row, blocks
    of `key: value` lines) as lines, each followed by `context` (what the result is, e.g.
    the sheet a tool was asked for); none for prose, a log or code."""
    said = text.strip()
    if not said:
        return []
    if said.startswith("<"):
        return _xml(said, context) or []
    if said[0] in "[{":
        return _json(said, context) or []
    return _csv(said, context) or _key_values(said, context) or []


def source_name(call_input: object) -> str:
    """What a tool call asked for by name ("Riverside Singers spring term" of a sheets tool):
    the first input value that reads as a title (words with a capital, no address, range
    or path)."""
    if not isinstance(call_input, dict):
        return ""
    for value in call_input.values():
        if (
            isinstance(value, str)
            and 2 <= len(value.split()) <= 8
            and re.search(r"[A-Z]", value)
            and not re.search(r"[@!/\\=:{}<>]|https?", value)
        ):
            return value.strip()
    return ""


def _tokens(text: str) -> set[str]:
    out = set()
    for token in re.findall(r"[\w'£$€.,-]+", text.lower()):
        token = token.strip(".,'-")
        if re.fullmatch(r"[£$€]?\d[\d,]*(?:\.\d+)?", token):
            number = token.strip("£$€").replace(",", "")  # "4,212" is 4212, "£148.50" 148.50
            if len(number) >= 3 or token[0] in "£$€":  # "2" or "15" alone names no record
                out.add(number)
        elif len(token) >= 4 and token not in ENGLISH:
            out.add(token)
    return out


#: The most records of one result kept: a reply that sums up a long listing names a few.
MAX_USED = 20


def used_by(records: list[Record], *texts: str) -> list[Record]:
    """The records whose values `texts` (what the assistant then said, what the user asked)
    name: a number of three digits or more, or a word of four letters or more that is no
    stopword; at most `MAX_USED`, in the result's order."""
    said = set().union(*(_tokens(t) for t in texts)) if texts else set()
    return [r for r in records if _tokens(" ".join(r.values)) & said][:MAX_USED]
