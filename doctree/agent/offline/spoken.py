"""Numbers, times and days said in words, read as their figures: "two hundred and forty
quid" is "£240", "ninety-one" 91, "three point two" 3.2, "twenty-two fifty a month" 22.50 a
month, "quarter to seven" 6:45, "half past ten" and "half ten" 10:30, "the twenty-first" and
"the third of next month" the 21st and the 3rd, so that dates resolve as said in figures.

Only what cannot be read another way is changed: a number of two words or more (hyphenated
tens, "hundred", "thousand", "point"), a number before a currency word, an ordinal day after
"on", "by", "until", "from" or before "of" and a month. A lone "one" or "two" ("no one", "one
of them", "two kids") stays a word.
"""

from __future__ import annotations

import re

from doctree.agent.offline import language as lang

_UNITS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19,
}  # fmt: skip
_TENS = {
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
    "eighty": 80, "ninety": 90,
}  # fmt: skip
_ORDINALS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13,
    "fourteenth": 14, "fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18,
    "nineteenth": 19, "twentieth": 20, "thirtieth": 30,
}  # fmt: skip
_UNIT = "|".join(sorted(_UNITS, key=len, reverse=True))
_TEN = "|".join(_TENS)
_ORD = "|".join(sorted(_ORDINALS, key=len, reverse=True))
#: Below a hundred: "ninety-one", "forty", "seven".
_SMALL = rf"(?:(?:{_TEN})(?:[- ](?:{_UNIT}))?|{_UNIT})"
#: A cardinal: "two hundred and forty", "three thousand five hundred", "ninety-one".
_CARDINAL = (
    rf"(?:{_SMALL}\s+thousand(?:,?\s+(?:and\s+)?{_SMALL}\s+hundred)?(?:,?\s+(?:and\s+)?{_SMALL})?"
    rf"|{_SMALL}\s+hundred(?:\s+(?:and\s+)?{_SMALL})?|{_SMALL})"
)
_CURRENCY = {
    "quid": "£",
    "pounds": "£",
    "pound": "£",
    "euros": "€",
    "euro": "€",
    "dollars": "$",
    "bucks": "$",
}
_PERIOD = r"(?:a|per|each)\s+(?:month|week|year|day|night|visit|head|session|hour|lesson)\b|each\b"

_DECIMAL = re.compile(
    rf"(?<!\bat\s)\b(?P<a>{_CARDINAL})\s+point\s+(?P<b>(?:{_UNIT})(?:\s+(?:{_UNIT}))*)\b", re.I
)
_PRICE = re.compile(
    rf"\b(?P<a>{_SMALL})\s+(?P<b>(?:{_TEN})(?:-(?:{_UNIT}))?|ten|eleven|twelve|thirteen|fourteen|"
    rf"fifteen|sixteen|seventeen|eighteen|nineteen)\s+(?P<after>{_PERIOD})",
    re.I,
)
_MONEY = re.compile(
    rf"\b(?P<a>{_CARDINAL})\s+(?P<cur>{'|'.join(_CURRENCY)})\b(?:\s+(?:even|exactly))?", re.I
)
_COMPOUND = re.compile(
    rf"\b(?P<a>(?:{_TEN})-(?:{_UNIT})|{_CARDINAL}\s+(?:hundred|thousand)\b(?:\s+(?:and\s+)?{_SMALL}\b)?"
    rf"|{_SMALL}\s+hundred(?:\s+(?:and\s+)?{_SMALL}\b)?)(?![\w-])",
    re.I,
)
_HOUR = "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
_QUARTER = re.compile(
    rf"\b(?:(?:a\s+)?quarter\s+(?P<rel>to|past)|half\s+past)\s+(?P<h>{_HOUR})\b|\bhalf\s+(?P<h2>{_HOUR})\b"
    r"(?!\s+(?:of|a|an|the|hours?|minutes?|days?|weeks?|months?|years?|kilos?|pounds?|pints?|"
    r"litres?|liters?|miles?|cups?|percent|per\s+cent)\b)",
    re.I,
)
#: Minutes to or past an hour, where the words around it make it a time: "at twenty to
#: eight", "ten past nine in the morning" (never "ten to one it rains").
_MINUTES = re.compile(
    rf"\b(?P<pre>at|by|from|until|till|around|about|before|after|gone)\s+"
    rf"(?P<m>five|ten|twenty|twenty[-\s]five|25)\s+(?:minutes\s+)?(?P<rel>to|past)\s+(?P<h>{_HOUR})\b"
    r"|\b(?P<m2>five|ten|twenty|twenty[-\s]five|25)\s+(?:minutes\s+)?(?P<rel2>to|past)\s+"
    rf"(?P<h2>{_HOUR})(?=\s+(?:tonight|this\s+(?:morning|evening|afternoon)|in\s+the\s+"
    r"(?:morning|evening|afternoon)|at\s+night|am|pm|a\.m\.|p\.m\.)\b)",
    re.I,
)
_DAY_ORDINAL = (
    rf"(?:(?:twenty|thirty)-(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth)|{_ORD})"
)
_MONTH = "|".join(lang.MONTHS)
#: A stretch of time right before "after"/"before": "two weeks", "a month", "10 days".
_SPAN_BEFORE = re.compile(
    r"\b(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|a\s+couple\s+of|a\s+few)"
    r"\s+(?:days?|weeks?|fortnights?|months?|years?)\s*$",
    re.I,
)
_ORDINAL_DAY = re.compile(
    rf"(?:\b(?P<pre>on|by|until|till|from|before|after|since)\s+the\s+(?P<a>{_DAY_ORDINAL})\b"
    # a day, not "on the second floor": nothing but a pause, a time or "of" after it
    r"(?=\s*(?:[,.;:!?)]|$|(?:at|of|and|or|instead|then|too|now|in\s+the\s+(?:morning|evening"
    r"|afternoon))\b))"
    rf"|\bthe\s+(?P<b>{_DAY_ORDINAL})(?=\s+of\s+(?:{_MONTH}|next\s+month|this\s+month)\b))",
    re.I,
)


#: Whether a text says any number word at all (most sentences do not).
_ANY = re.compile(rf"\b(?:{_UNIT}|{_TEN}|{_ORD}|quarter|half|hundred)\b", re.I)


def _value(words: str) -> int:
    """The value of a cardinal said in words ("two hundred and forty" -> 240)."""
    total = current = 0
    for w in re.split(r"[\s,-]+", words.lower()):
        if w in _UNITS:
            current += _UNITS[w]
        elif w in _TENS:
            current += _TENS[w]
        elif w == "hundred":
            current = max(current, 1) * 100
        elif w == "thousand":
            total += max(current, 1) * 1000
            current = 0
    return total + current


def _ordinal(words: str) -> int:
    w = words.lower()
    if "-" in w:
        tens, unit = w.split("-")
        return _TENS[tens] + _ORDINALS[unit]
    return _ORDINALS[w]


def _suffix(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def _digits(words: str) -> str:
    return "".join(str(_UNITS[w.lower()]) for w in words.split())


#: "Pounds" is a weight as often as money: money only where the sentence speaks of paying
#: and not of weighing ("it cost forty pounds", never "the baby weighed seven pounds").
_PAYING = re.compile(
    r"\b(?:costs?|paid|pay(?:s|ing)?|owe[sd]?|owing|price[sd]?|quoted?|charg(?:e[sd]?|ing)|"
    r"spen[dt]|fees?|rent|bills?|budget|saved?|worth|deposit|refund|wages?|salary|earn(?:s|ed)?|"
    r"tip|a\s+(?:month|week|year)|per\s+\w+|each)\b",
    re.I,
)
_WEIGHING = re.compile(
    r"\b(?:weigh\w*|heavier|lighter|lost|gain\w*|ounces?|oz|stones?|kilos?|kg|lbs?|scales?)\b"
    r"|\bpounds?\s+of\b",
    re.I,
)


def _money(m: re.Match[str], text: str) -> str:
    currency = m["cur"].lower()
    if currency.startswith("pound") and (not _PAYING.search(text) or _WEIGHING.search(text)):
        return m.group(0)
    return f"{_CURRENCY[currency]}{_value(m['a'])}"


def spoken_figures(text: str) -> str:
    """`text` with the numbers, times and days it says in words written in figures."""
    if not _ANY.search(text):
        return text
    text = _DECIMAL.sub(lambda m: f"{_value(m['a'])}.{_digits(m['b'])}", text)
    text = _PRICE.sub(lambda m: f"{_value(m['a'])}.{_value(m['b']):02d} {m['after']}", text)
    text = _MONEY.sub(lambda m: _money(m, text), text)
    text = _COMPOUND.sub(lambda m: str(_value(m["a"])), text)

    def time(m: re.Match[str]) -> str:
        if m["h2"]:  # "half ten": half past ten
            return f"{_value(m['h2'])}:30"
        h = _value(m["h"])
        if m["rel"] and m["rel"].lower() == "to":
            return f"{(h - 2) % 12 + 1}:45"
        return f"{h}:{'15' if m['rel'] else '30'}"

    text = _QUARTER.sub(time, text)

    def minutes(m: re.Match[str]) -> str:
        said_m = m["m"] or m["m2"]
        n = int(said_m) if said_m.isdigit() else _value(said_m.replace(" ", "-"))
        h = _value(m["h"] or m["h2"])
        if (m["rel"] or m["rel2"]).lower() == "to":
            said = f"{(h - 2) % 12 + 1}:{60 - n:02d}"
        else:
            said = f"{h}:{n:02d}"
        return f"{m['pre']} {said}" if m["pre"] else said

    text = _MINUTES.sub(minutes, text)

    def day(m: re.Match[str]) -> str:
        if (
            m["pre"]
            and m["pre"].lower() in ("after", "before")
            and _SPAN_BEFORE.search(text, 0, m.start())
        ):
            # "two weeks after the first" (jab): a count from the first of something said,
            # no first of a month
            return m.group(0)
        n = _ordinal(m["a"] or m["b"])
        said = f"the {n}{_suffix(n)}"
        return f"{m['pre']} {said}" if m["pre"] else said

    return _ORDINAL_DAY.sub(day, text)
