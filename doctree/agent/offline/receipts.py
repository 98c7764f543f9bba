"""Receipts: a till slip typed or pasted as text, read as one statement of what was bought.

A receipt says its shop once, on its first line, and then only items and amounts: "BOSWELL
WM-8 WASHING MACHINE     429.00" is a purchase from the shop at the top, on the date the
slip prints, under the terms at its foot ("RETURNS WITHIN 30 DAYS"). Read line by line, each
item is a fragment about nothing. `read_receipt` reads a block as one receipt when two lines
or more end on an amount set apart from their words and one of them is a total: "Receipt
from Hatch Tools (Unit 6, Riverside Park), 2031-09-13 15:01: PX-18 Combi Drill + 2 Batt
£139.00; Drill Bits 25PC £12.50; total £151.50; 5 year warranty - register online within 28
days (by 2031-10-11)." The till's own lines (store, till, operator), the tax, the subtotal
and how it was paid (a card's masked number, cash, change) are left out; a line under an item
without an amount (a guarantee) is said with the item; a period the foot gives ("within 28
days") is counted from the slip's date.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from doctree.agent.offline.prefilter import gate_patterns

#: A line that ends on an amount: "FILTER CARTRIDGE X2    18.98", "RTN WM-8 -429.00".
_AMOUNT_LINE = re.compile(
    r"^(?P<what>\S.*?)\s+(?P<cur>[£$€]|GBP\s*|EUR\s*|USD\s*)?(?P<amount>-?\d{1,6}[.,]\d{2})\s*$"
)
#: The label of a total: "TOTAL", "TOTAL GBP", "BALANCE TO PAY", "AMOUNT DUE".
_TOTAL = re.compile(
    r"^(?:grand\s+)?total\b|^balance\b|^amount\s+(?:due|paid)\b|^to\s+pay\b|^total\s+due\b", re.I
)
#: Lines of an amount that are no purchase: the subtotal, the tax, how it was paid.
_NOT_ITEM = re.compile(
    r"^(?:sub\s*-?\s*total|vat|tax|gst|tva|mwst|visa|mastercard|master\s*card|amex|maestro|"
    r"debit|credit|card|contactless|cash|change|tendered|paid|auth|tip|rounding|savings?|"
    r"you\s+saved|points)\b",
    re.I,
)
#: A till's own line, or how the slip was paid: "Store 0412  Till 03  Op: SHAZ", "PAID CARD",
#: "VISA ************4417", "AUTH CODE 123456", "THANK YOU".
_TILL = re.compile(
    r"\b(?:till|op|operator|cashier|served\s+by|store|terminal|pos|trans(?:action)?|receipt\s+no|"
    r"auth)\b\s*[:#]?\s*\w*\d|^\s*(?:paid|visa|mastercard|amex|card|cash|change|contactless|"
    r"thank\s+you|thanks)\b|\*{4,}|x{4,}\d",
    re.I,
)
#: A line that only rules the slip: "-----", "=====", "*****".
_RULE = re.compile(r"^[\s\-=*_~.#]+$")
#: The slip's date (and time): "13/09/2031 14:22", "13/09/31  15:01", "2031-09-13".
_SLIP_DATE = re.compile(
    r"\b(?:(?P<a>\d{1,2})[/.-](?P<b>\d{1,2})[/.-](?P<y>\d{4}|\d{2})|(?P<iso>\d{4}-\d{2}-\d{2}))"
    r"(?:\s+(?P<time>\d{1,2}:\d{2}))?\b"
)
#: A period the slip's foot gives from its date: "within 28 days", "within 30 days".
_WITHIN = re.compile(r"\bwithin\s+(?P<n>\d{1,3})\s+(?P<unit>days?|weeks?)\b", re.I)
#: The currency a slip states: a sign or a code, anywhere on it.
_CURRENCY = re.compile(r"[£$€]|\b(?:GBP|USD|EUR)\b", re.I)
_SIGN = {"£": "£", "gbp": "£", "$": "$", "usd": "$", "€": "€", "eur": "€"}
#: A word of a code: letters and digits mixed, or a short run of capitals ("WM-8", "X2", "TV").
_CODE_WORD = re.compile(r"\S*\d\S*|[A-Z]{1,2}")


def _slip_date(line: str) -> tuple[date | None, str] | None:
    """The date a slip prints, as a date when its order is plain (a day over 12 comes first;
    an ISO date), and as written (the time after it)."""
    m = _SLIP_DATE.search(line)
    if m is None:
        return None
    when = None
    if m.group("iso"):
        try:
            when = date.fromisoformat(m.group("iso"))
        except ValueError:
            when = None
    else:
        a, b, y = int(m.group("a")), int(m.group("b")), int(m.group("y"))
        year = y if y > 99 else 2000 + y
        day, month = (a, b) if a > 12 else (b, a) if b > 12 else (0, 0)
        try:
            when = date(year, month, day) if day else None
        except ValueError:
            when = None
    said = when.isoformat() if when else m.group(0).split()[0]
    return when, f"{said} {m.group('time')}" if m.group("time") else said


def _name(text: str) -> str:
    """An item or a shop as a name is written: each word capitalised, a code as it is."""
    words = []
    for w in text.split():
        words.append(w if _CODE_WORD.fullmatch(w) or not w.isupper() else w.capitalize())
    return " ".join(words)


def _note(text: str) -> str:
    """A line of the slip said as words are: lower case, a code as it is."""
    if not text.isupper():
        return text
    return " ".join(w if re.search(r"\d", w) else w.lower() for w in text.split())


def read_receipt(lines: list[str]) -> str | None:
    """A block of `lines` read as one receipt, in one statement (see the module); None when
    the block is no receipt: fewer than two lines ending on an amount, or no total."""
    body = [ln.rstrip() for ln in lines if ln.strip() and not _RULE.match(ln)]
    priced = [(i, m) for i, ln in enumerate(body) if (m := _AMOUNT_LINE.match(ln.strip()))]
    if len(priced) < 2 or not any(_TOTAL.match(m.group("what")) for _, m in priced):
        return None
    first = priced[0][0]
    shop = ""
    when: date | None = None
    said_when = ""
    above: list[str] = []
    for ln in body[:first]:
        if (slip := _slip_date(ln)) is not None and not said_when:
            when, said_when = slip
            continue
        if not shop and not _TILL.search(ln):
            cells = [c for c in re.split(r"\s{2,}|\t+", ln.strip()) if c]
            shop = _name(cells[0]) + (f" ({', '.join(cells[1:])})" if len(cells) > 1 else "")
            continue
        if not _TILL.search(ln):
            above.append(_note(ln.strip()))
    if not shop:
        return None
    currency = _CURRENCY.search("\n".join(body))
    sign = _SIGN[currency.group(0).lower()] if currency else ""
    items: list[str] = []
    total = ""
    foot: list[str] = []
    last = priced[-1][0]
    prices = dict(priced)
    for i in range(first, len(body)):
        ln = body[i].strip()
        if (m := prices.get(i)) is not None:
            what, amount = m.group("what").strip(), sign + m.group("amount").replace("-", "")
            amount = f"-{amount}" if m.group("amount").startswith("-") else amount
            if _TOTAL.match(what):
                total = total or f"{_note(_CURRENCY.sub('', what).strip())} {amount}"
            elif not _NOT_ITEM.match(what):
                what = re.sub(r"^(?:RTN|RETURN|REFUND)\s+", "returned ", what, flags=re.I)
                items.append(f"{_name(what)} {amount}")
            continue
        if _TILL.search(ln) or (i < last and _slip_date(ln)):
            continue
        if i < last and items and body[i][:1].isspace():
            items[-1] += f" ({_note(ln)})"  # "  2 YR MANUFACTURER GUARANTEE", under its item
        elif i < last:
            above.append(_note(ln))
        else:
            foot.append(_within(_note(ln), when))
    if not items:
        return None
    parts = [*above, *items, *([total] if total else []), *foot]
    head = f"Receipt from {shop}" + (f", {said_when}" if said_when else "")
    return f"{head}: {'; '.join(parts)}."


def _within(text: str, when: date | None) -> str:
    """A period the slip's foot gives from its date, with the day it ends: "register online
    within 28 days (by 2031-10-11)"."""
    m = _WITHIN.search(text)
    if m is None or when is None:
        return text
    days = int(m.group("n")) * (7 if m.group("unit").lower().startswith("week") else 1)
    by = when + timedelta(days=days)
    return f"{text[: m.end()]} (by {by.isoformat()}){text[m.end() :]}"


def read_receipts(text: str) -> str:
    """`text` with each run of plain lines (between blank lines, outside any fence or quote)
    that is a receipt (`read_receipt`) written as the one list item it is read as."""
    out: list[str] = []
    block: list[str] = []
    fenced = False

    def flush() -> None:
        read = read_receipt(block) if len(block) >= 3 else None
        out.extend([f"- {read}"] if read is not None else block)
        block.clear()

    for line in text.split("\n"):
        if line.strip()[:3] in ("```", "~~~"):
            flush()
            fenced = not fenced
            out.append(line)
        elif fenced or not line.strip() or line.lstrip().startswith((">", "|")):
            flush()
            out.append(line)
        else:
            block.append(line)
    flush()
    return "\n".join(out)


gate_patterns(globals())  # the cheap test in front of every pattern above (prefilter.py)
