"""Figures the conversation confirms: an amount or a time the user says without its usual
marker, read with the currency and the form the rest of the conversation gives it.

People dictate "boiler cover is twenty-two fifty a month" (22.50, no currency) or "he knocked
it down to two hundred even", and the assistant confirms "£22.50", "£200"; they say "quarter
to seven in the morning" (6:45) and the assistant writes "06:45". A figure the assistant
writes with a currency sign, said bare by the user in the same conversation, is that amount
("£22.50"); an amount said bare beside a word of money ("the deposit is 1,900") takes the
one currency the conversation uses; a time the assistant writes in the 24-hour form is
written as the assistant wrote it. Nothing is guessed where the conversation names two
currencies, or where a figure measures something ("3.2 metres", "200 km").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from doctree.agent.offline.prefilter import gate_patterns

#: An amount written with its currency: "£22.50", "€ 1,900", "$40", "22,50 €", "300 EUR".
_AMOUNT = re.compile(
    r"(?P<sign>[£$€])\s?(?P<num>\d[\d,]*(?:\.\d{1,2})?)\b"
    r"|\b(?P<num2>\d[\d.,]*\d|\d)\s?(?P<sign2>€|EUR|GBP|USD|euros?|pounds?|dollars?)\b",
    re.I,
)
_SIGN = {"eur": "€", "euro": "€", "euros": "€", "gbp": "£", "pound": "£", "pounds": "£"}
_SIGN |= {"usd": "$", "dollar": "$", "dollars": "$"}
#: A time in the 24-hour form the assistant writes: "06:45", "18:30".
_TIME24 = re.compile(r"\b(?P<h>[01]\d|2[0-3]):(?P<m>[0-5]\d)\b")
#: A time the user says, with what places it in the day: "6:45 in the morning", "6.45pm".
_TIME = re.compile(
    r"(?<![\d:.£$€])(?P<h>1[0-2]|0?\d|1\d|2[0-3])[:.](?P<m>[0-5]\d)(?![\d:])"
    r"(?P<when>\s*(?:am|a\.m\.|in\s+the\s+morning)|\s*(?:pm|p\.m\.|in\s+the\s+(?:afternoon|evening)"
    r"|at\s+night|tonight))?",
    re.I,
)
#: A bare amount: a number with no currency sign before it, nor a currency, a unit or a time
#: after it.
_BARE = re.compile(
    r"(?<![£$€\d.,:/#-])(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?|\d+(?:\.\d{1,2})?)(?![\d%°]|[.,:/]\d)"
    r"(?!\s?(?:€|EUR|GBP|USD|euros?|pounds?|dollars?|quid|p\b|pence|cents?"
    r"|[ckm]?m\b|kg|g\b|mg|ml|l\b|km|mph|ft|lbs?|kilos?|grams?|litres?|liters?|miles?|metres?"
    r"|meters?|feet|inch(?:es)?|minutes?|mins?|hours?|hrs?|days?|nights?|weeks?|months?"
    r"|years?|yrs?|people|guests|kids|times|points|pages|words|steps|calories|kcal|sq|square"
    r"|x\b|st\b|nd\b|rd\b|th\b|am\b|pm\b|%|°))",
    re.I,
)
#: Words that make a sentence one about money: paying, costing, charging, owing, a rate.
_MONEY_WORDS = re.compile(
    r"\b(?:cost|costs|costing|price|priced|pay|pays|paid|paying|payment|charge|charges|charged"
    r"|fee|fees|bill|bills|rent|deposit|quote|quoted|owe|owes|owed|salary|wage|budget|refund"
    r"|refunded|direct\s+debit|standing\s+order|invoice|invoiced|fine|subs|spent|spend|worth"
    r"|a\s+(?:month|week|year|night|day)|per\s+(?:month|week|year|night|day|hour)|an\s+hour"
    r"|monthly|weekly|annually|loyer|caution|prix|Miete|Kaution|Preis|alquiler|fianza|precio)\b",
    re.I,
)


@dataclass
class Figures:
    """What the conversation confirms: each amount the assistant writes with its currency
    (the figure, commas dropped, to its sign), the 24-hour times it writes, and the
    currencies anyone in it names."""

    amounts: dict[str, str] = field(default_factory=dict)
    times: set[str] = field(default_factory=set)
    currencies: set[str] = field(default_factory=set)


def _figure(num: str) -> str:
    """A figure as compared: "1,900" and "1900" are one; "22,50" is 22.50."""
    if re.fullmatch(r"\d+,\d{2}", num):
        num = num.replace(",", ".")
    return num.replace(",", "").removesuffix(".00")


def confirmed(assistant: list[str], everyone: list[str]) -> Figures:
    """The figures the assistant's sentences (`assistant`) confirm, and the currencies named
    in all that is said (`everyone`, the user's words with the assistant's)."""
    out = Figures()
    said = "\n".join(assistant)  # one search over all of it: a long session has thousands
    for m in _AMOUNT.finditer(said):
        sign = m["sign"] or _SIGN.get(m["sign2"].lower(), m["sign2"])
        out.amounts.setdefault(_figure(m["num"] or m["num2"]), sign)
    out.times.update(m.group(0) for m in _TIME24.finditer(said))
    said = "\n".join(everyone)
    out.currencies.update(
        m["sign"] or _SIGN.get(m["sign2"].lower(), m["sign2"]) for m in _AMOUNT.finditer(said)
    )
    if re.search(r"\bquid\b", said, re.I):
        out.currencies.add("£")
    return out


def with_figures(text: str, figures: Figures) -> str:
    """`text`, a sentence of the user's, with each bare amount the conversation confirms
    written with its currency, and each time the assistant wrote in the 24-hour form
    written as it did."""
    if not figures.amounts and not figures.times and len(figures.currencies) != 1:
        return text
    only = next(iter(figures.currencies)) if len(figures.currencies) == 1 else None

    def amount(m: re.Match[str]) -> str:
        num = m["num"]
        if re.fullmatch(r"(?:19|20)\d\d", num) or _in_time_or_date(text, m):
            return num
        sign = figures.amounts.get(_figure(num))
        clause = re.split(r"[,;:()—–.!?](?!\d)", text[max(0, m.start() - 40) : m.start()])[-1]
        near = clause.split()[-4:]  # "the agency fee 300", never "the invoice: the mileage was"
        if (
            sign is None
            and only is not None
            and re.search(r"\d{2}|\.", num)
            and (
                _MONEY_WORDS.search(" ".join(near))
                or _MONEY_WORDS.match(text[m.end() :].lstrip(" ,"))
            )
        ):
            sign = only  # "the deposit is 1,900": the one currency of the conversation
        if sign is None or len(sign) != 1:
            return num
        return f"{sign}{num}"

    text = _BARE.sub(amount, text)

    def time(m: re.Match[str]) -> str:
        h, minute, when = int(m["h"]), m["m"], (m["when"] or "").lower()
        hours = {h}
        if re.search(r"pm|p\.m\.|afternoon|evening|night", when) and h < 12:
            hours = {h + 12}
        elif not when and h < 12:
            hours = {h, h + 12}
        said = [f"{x:02d}:{minute}" for x in hours if f"{x:02d}:{minute}" in figures.times]
        if len(said) != 1 or said[0] == m.group(0)[: len(said[0])]:
            return m.group(0)
        return said[0] + (m["when"] or "")

    return _TIME.sub(time, text)


#: The words that may follow an amount: "22.50 a month", "200 even", "1,900 and the fee".
_AFTER_AMOUNT = {
    "a", "an", "per", "each", "even", "exactly", "for", "to", "and", "or", "the", "now", "then",
    "on", "in", "by", "with", "from", "off", "total", "altogether", "upfront", "up", "down",
    "back", "instead", "last", "this", "next", "but", "so", "because", "which", "plus", "all",
    "flat", "only", "max", "tops",
}  # fmt: skip


#: A word before a number that makes it a day, a label or an age, never an amount.
_BEFORE_LABEL = re.compile(
    r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t|tember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|mon(?:day)?|tue(?:s|sday)?"
    r"|wed(?:nesday)?|thu(?:rs|rsday)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?|no|nr|number"
    r"|flat|room|apt|apartment|unit|house|page|line|gate|platform|bus|route|table|seat|row"
    r"|level|floor|year|years|aged|age|version|v|step|chapter|episode|part|week|day|size"
    r"|grade|class|team|court|pitch|ward|bay|door|box|locker|desk|lane|junction|exit",
    re.I,
)


def _in_time_or_date(text: str, m: re.Match[str]) -> bool:
    """Whether the number `m` is no amount: part of a time, a date, a code or a phone number
    ("10:30", "3/12", "B12", "01632 960 215"), or a count of the thing named after it
    ("200 sheep")."""
    num, before, after = m["num"], text[: m.start()], text[m.end() :]
    if re.search(r"[A-Za-z:/]$|\d\s$", before) or re.match(r"[A-Za-z:/]|\s\d", after):
        return True
    if num.startswith("0") and not num.startswith("0."):
        return True
    label = re.search(r"([A-Za-z][\w ]{0,30}):\s*$", before)
    if (
        label
        and not _MONEY_WORDS.search(label.group(1))
        and not re.search(r"amount|total|price|cost", label.group(1), re.I)
    ):
        return True  # "terms days: 30": a field of another measure
    if (last := re.search(r"([A-Za-z]+)\.?\s+$", before)) and _BEFORE_LABEL.fullmatch(
        last.group(1)
    ):
        return True  # "July 31", "Flat 3", "platform 9", "aged 91"
    word = re.match(r"\s+([A-Za-z]+)", after)
    return word is not None and word.group(1).lower() not in _AFTER_AMOUNT


gate_patterns(globals())  # the cheap test in front of every pattern above (prefilter.py)
