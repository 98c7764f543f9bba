"""Supersession: a later value for the same thing replaces the old one.

A statement is read as claims, one per clause: a *thing* (the words that name what the
clause is about, without its value) and the *values* it gives, each of a type (a date, a
time of day, an amount of money, a percentage, a quantity in a unit, a recurring day, a
telephone number, which "a new number" or "his mobile has changed" says is another now). A
later statement that names the same thing and gives a value of the same type that differs
replaces the earlier line that gave it. The match of the thing tolerates other wordings
(word forms, a shortened word, "it" taken from the clause or the sentence before) and a
word of change ("moved", "now", "instead", "lowered") widens it a little; when more than
one line could be meant, none is replaced, clause by clause. A question, a value said to
hold "still" and a value told as history ("it was at 9 last week") replace nothing.

A range of times gives each end its own value ("9:00 to 17:30": "shut at 1pm" is its end);
a count's noun is its thing ("52 guests"); a value taken back as it is said ("£300, sorry,
£320") is the old one. Two types have no value: a status that ends a line (`ends`: a debt
paid, a task done, a plan called off or fallen through) and a role passed to someone else
(`takes_role`: "Arjun is the QA lead now").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from doctree import stopwords
from doctree.agent.offline import anchored
from doctree.agent.offline import language as lang
from doctree.agent.offline.memo import remembered_up_to
from doctree.agent.offline.resolve import absolute_dates

#: Words that say a value is now another one.
CHANGE = re.compile(
    r"\b(?:now|instead|no\s+longer|any\s*more|actually|from\s+now\s+on|rather\s+than|"
    r"mov(?:e|es|ed|ing)|push(?:es|ed|ing)?|postpon(?:e|es|ed|ing)|delay(?:s|ed)?|"
    r"brought|bring(?:s|ing)?\s+(?:\w+\s+){0,3}forward|lower(?:s|ed)?|rais(?:e|es|ed)|"
    r"reduc(?:e|es|ed)|knock(?:s|ed)?|dropp?(?:s|ed)?|cut|upped|increas(?:e|es|ed)|"
    r"chang(?:e|es|ed)|switch(?:es|ed)?|swapp?(?:s|ed)?|shift(?:s|ed)?|slip(?:s|ped)?|"
    r"re-?schedul(?:e|es|ed)|re-?book(?:s|ed)?|re-?arrang(?:e|es|ed)|extend(?:s|ed)?|"
    # a hearing or a fixture set down again, its old day given up ("relisted for", "vacated")
    r"re-?list(?:s|ed|ing)?|vacat(?:e|es|ed|ing)|"
    r"updat(?:e|es|ed)|revis(?:e|es|ed)|went\s+(?:up|down)|gone\s+(?:up|down)|"
    # a loan renewed, a deadline granted ("renewed it till the 4th", "given me until Monday")
    r"renew(?:s|ed|ing)?|giv(?:e|es|en)\s+(?:me|us|him|her|them|the\s+user)\s+(?:until|till|to)|"
    r"(?:up|down)\s+to)\b",
    re.I,
)
#: A value said to hold as before, or asked about: it confirms, it changes nothing.
_STILL = re.compile(r"\b(?:still|same|as\s+before|unchanged)\b", re.I)
#: A value said not to hold: "not on the 5th any more", "no longer £40": the old one, not a new.
_NEGATED = re.compile(r"\b(?:not|no\s+longer|never)\b|n't\b", re.I)
#: A value told as history: "it was at 9 last week", "used to be £40".
_HISTORY = re.compile(
    r"\b(?:was|were|had\s+been|used\s+to|last\s+(?:week|month|year|time)|ago|previously|"
    r"formerly|originally)\b",
    re.I,
)
#: Where a clause ends: a colon (not inside a time), a semicolon, a comma, a dash, "and", "but".
_CLAUSE_END = re.compile(
    r"(?<!\d):|:(?!\d)|;|(?<!\d),\s|,(?!\d)|\s(?:and|but|while|whereas|so)\s|\s[-–—]\s|\.[\"”]?\s"
)
_ISO = lang.ISO_DAY
#: The words between the two days of a span as the agent writes it: "2031-09-01 to 2031-09-05".
_DAYS_TO = re.compile(r"\s+to\s+\d{4}-\d{2}-\d{2}\b")
_DAYS_FROM = re.compile(r"\b\d{4}-\d{2}-\d{2}\s+to\s+$")
#: The day a thing was said or done, written before its date: "this morning (2030-03-07)".
_SAID_ON = re.compile(
    r"\b(?:today|this\s+(?:morning|afternoon|evening)|tonight|yesterday|earlier)\s*\($", re.I
)
_TIME = re.compile(
    r"(?<![\w.:£$€])(?P<h>\d{1,2})(?:[:.](?P<m>\d{2}))?\s*(?P<ap>am|pm)\b"
    r"|(?<![\w.:£$€-])(?P<h2>\d{1,2}):(?P<m2>\d{2})(?![\d:])"
    r"|\b(?P<word>noon|midday|midnight)\b",
    re.I,
)
#: A range of times: "9:00 to 17:30", "10:12-11:12", "from 9am until 5pm", "between 2 and
#: 4pm"; each end a time of its own, the first where it begins and the second where it ends.
_ONE_TIME = r"\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm)?"
_TIME_RANGE = re.compile(
    rf"(?<![\w.:£$€-])(?P<a>{_ONE_TIME})\s*(?:-|–|—|\bto\b|\buntil\b|\btill\b|\band\b)\s*"
    rf"(?P<b>{_ONE_TIME})(?![\w:.]\d)",
    re.I,
)
#: Words that take back a value as it is said: "46, no, 52 guests", "£30 — sorry, £35".
_SAID_AGAIN = re.compile(
    r"^\s*[,—–-]?\s*(?:(?:no|sorry|I\s+mean|or\s+rather|make\s+(?:that|it)|wait|"
    r"scratch\s+that|actually)\b[\s,!.—–-]*)+$",
    re.I,
)
#: A bare number taken back before a value said with its unit: "46, no, 52 guests".
_BARE_SAID_AGAIN = re.compile(
    r"(?<![\w.£$€])(?P<n>\d[\d,]*(?:\.\d+)?)\s*[,—–-]?\s*(?:(?:no|sorry|I\s+mean|or\s+rather|"
    r"make\s+(?:that|it)|wait|scratch\s+that|actually)\b[\s,!.—–-]*)+$",
    re.I,
)
#: The words that say which end of a range a time is: "shut at 1pm", "opens from 8".
_RANGE_END = re.compile(
    r"\b(?:clos(?:e|es|ed|ing)|shut(?:s|ting)?|finish(?:es|ed|ing)?|end(?:s|ed|ing)?|until|"
    r"till|last\s+(?:orders|entry|collection))(?:\s+(?:time|at|by|is|now))*\s*$",
    re.I,
)
_RANGE_START = re.compile(
    r"\b(?:open(?:s|ed|ing)?|start(?:s|ed|ing)?|begin(?:s|ning)?|from|doors)"
    r"(?:\s+(?:time|at|is|now|up))*\s*$",
    re.I,
)
#: Currencies' three-letter codes (ISO 4217) written before a sum; none that is also a word
#: or a name said in capitals ("ALL", "TOP", "CUP", "PHP").
CURRENCY_CODES = (
    "USD", "EUR", "GBP", "JPY", "CNY", "RMB", "AUD", "NZD", "CAD", "CHF", "SEK", "NOK", "DKK",
    "ISK", "PLN", "CZK", "HUF", "RON", "BGN", "TRY", "RUB", "UAH", "INR", "PKR", "LKR", "BDT",
    "NPR", "IDR", "MYR", "SGD", "HKD", "TWD", "KRW", "THB", "VND", "ZAR", "NGN", "GHS", "KES",
    "UGX", "TZS", "EGP", "MAD", "AED", "SAR", "QAR", "ILS", "MXN", "BRL", "ARS", "CLP", "COP",
    "PEN",
)  # fmt: skip
_AMOUNT = re.compile(
    r"(?P<cur>[£$€])\s?(?P<n>\d[\d,]*(?:\.\d+)?)(?P<k>k\b)?"
    r"|(?<![\w.])(?P<n2>\d[\d,]*(?:\.\d+)?)\s*(?P<word>pounds|quid|euros?|dollars|bucks)\b"
    # a sum in thousands with no currency, as many write it ("pledged 15K"), not a race
    # ("a 5k run"), a screen ("4K") or a count of steps
    r"|(?<![\w.£$€])(?P<n3>\d{1,4}(?:\.\d+)?)(?P<k3>[kK])\b"
    r"(?!\s*(?:runs?|races?|steps|tvs?|monitors?|screens?|resolution|video)\b)"
    # a currency's three-letter code before the sum, its thousands grouped by spaces as
    # much of the world writes them: "ISK 95 000", "CHF 1'250", "NOK 4 500,50"
    rf"|(?-i:\b(?:{'|'.join(CURRENCY_CODES)}))\s?"
    r"(?P<n4>\d{1,3}(?:[ \u00a0\u202f'’]\d{3})+(?![\d.,]\d)|\d[\d,]*(?:\.\d+)?)",
    re.I,
)
#: A telephone number: "07700 900381", "+44 20 7946 0958", "(555) 014-2267", "0161-496-0732";
#: 9 to 15 digits in groups (checked by `_phone_norm`), not a date or a time.
_PHONE = re.compile(
    r"(?<![\w+£$€.:/-])(?<!\d[\s.-])(?:\+\d{1,3}[\s.-]?)?(?:\(\d{2,5}\)\s?|\d{2,5}[\s.-]?)\d{3,4}[\s.-]?\d{3,4}"
    r"(?!\s?[\w.:/-]?\d|%)"
)
#: Words that say a telephone number is another now: "a new mobile", "his new number".
_NEW_NUMBER = re.compile(
    r"\bnew\s+(?:\w+\s+)?(?:number|mobile|phone|landline|cell)\b"
    r"|\b(?:number|mobile|phone)\s+(?:has\s+)?changed\b",
    re.I,
)
#: A value named as the new one of its kind: "the new discharge date is …", "new start time:
#: 9:30", "the new price is £12", "the new date of the hearing is …" (not "a new client meeting on Tuesday": a second thing, no
#: value of the first moved).
_NEW_VALUE = re.compile(
    r"\bnew\s+(?:[\w-]+\s+){0,2}?(?:date|day|time|deadline|price|cost|fee|rate|total|figure|"
    r"amount|address|venue|location)"
    # what it is the value of, said after it: "the new date of the hearing is", "new time of
    # arrival:"
    r"(?:\s+(?:of|for)\s+(?:the\s+|your\s+|my\s+)?[\w-]+(?:\s+[\w-]+)?)?"
    r"\s*(?:is\b|will\s+be\b|[:–—-])",
    re.I,
)
_PERCENT = re.compile(r"(?<![\w.])(?P<n>\d+(?:\.\d+)?)\s*(?:%|per\s*cent\b|percent\b)", re.I)
#: Units that name what a number measures; each its canonical name.
_UNITS = {
    "km": "km", "kms": "km", "kilometres": "km", "kilometers": "km", "mi": "mile",
    "miles": "mile", "mile": "mile", "kg": "kg", "kgs": "kg", "kilos": "kg", "g": "g",
    "mg": "mg", "mcg": "mcg", "ml": "ml", "l": "l", "litres": "l", "liters": "l", "lb": "lb",
    "lbs": "lb", "cm": "cm", "mm": "mm", "m": "m", "metres": "m", "meters": "m",
    "minutes": "minute", "minute": "minute", "mins": "minute", "min": "minute",
    "hours": "hour", "hour": "hour", "hrs": "hour", "hr": "hour", "h": "hour",
    "days": "day", "day": "day", "weeks": "week", "week": "week", "months": "month",
    "month": "month", "nights": "night", "night": "night", "years": "year", "year": "year",
    "sessions": "session", "tablets": "tablet", "pills": "pill", "units": "unit",
    "people": "person", "guests": "person", "seats": "seat", "rooms": "room",
}  # fmt: skip
#: Units that count things rather than measure: the count is of them ("46 guests" and "up to
#: 52 guests now" are one number of guests, whatever else the clause names).
_COUNTED = frozenset({"person", "seat", "room", "session", "tablet", "pill", "unit", "night"})
_QUANTITY = re.compile(
    r"(?<![\w.£$€:-])(?P<n>\d[\d,]*(?:\.\d+)?)\s?(?P<unit>"
    + "|".join(sorted(_UNITS, key=len, reverse=True))
    + r")\b(?!\s*(?:ago|old))",
    re.I,
)
#: A count of things no unit names: "6 bottles", "12 jars", "3 boxes"; its kind is the thing
#: counted ("quantity:bottle"), so "4 bottles of the port left, not 6" is another count of it.
_COUNT = re.compile(
    r"(?<![\w.£$€:/-])(?P<n>\d{1,4})\s+(?P<noun>[a-z][a-z-]{2,}s)\b(?!\s*(?:ago|old)\b)"
)
#: Plural words after a number that count no thing a later count replaces.
_NOT_COUNTED = frozenset({"times", "others", "ones", "things", "bits", "ways", "points", "goes"})
#: A bare number after a word of change: "knocked it down to 200".
_BARE_NUMBER = re.compile(
    r"\b(?:to|at|is|be|now)\s+(?P<n>\d[\d,]*(?:\.\d+)?)(?![\w.,:%]|\s*%)", re.I
)
#: A named venue after "at the" or "to the": "at the Crown", "moved to the Old Forge". A
#: value like a date: a later "the party's moved to the Swan" replaces it.
#: The kinds of room or building a venue is said by: "hall", "hut", "pub".
_PLACES = (
    r"(?:hall|hut|room|centre|center|church|chapel|pub|library|clubhouse|pavilion|studio|"
    r"barn|gym|theatre|theater|annexe|annex|lounge|bar|cafe|café|canteen|hotel|inn|marquee)"
)
_VENUE = re.compile(
    r"\b(?:at|to)\s+the\s+(?P<name>[A-Z][\w'’-]*(?:\s+(?:[A-Z][\w'’-]*|&))*"
    # "to the Methodist church hall": the kind of building said after its name is of it
    rf"(?:\s+(?:[a-z][\w'’-]*\s+)?{_PLACES}\b(?!['’]))?)"
    # someone's home, said by their name alone or with the word for it: "at Priya's now",
    # "moved to Tom's place in Leeds" (not "at Tom's request", "to Anna's surprise")
    r"|\b(?:at|to)\s+(?P<home>[A-Z][\w-]*['’]s)"
    r"(?=\s+(?:house|place|flat|home|garden|cottage|farm)\b|\s*(?:[.,;!)]|$)"
    r"|\s+(?:now|instead|in|on|at|this|next|then|from|for)\b)"
)
#: A venue said in lower case by the kind of room or building it is: "in the scout hut",
#: "at the village hall", "in the back room" (the words before the noun its name).
_PLACE_NOUN = re.compile(
    rf"\b(?:in|at)\s+the\s+(?P<name>(?:[a-z][\w'’-]*\s+){{0,2}}?{_PLACES})\b(?!['’])"
)
#: A venue that is someone's home: "Priya's".
_HOME = re.compile(r"['’]s$")
#: Where someone works: "works at Halcyon", "I work for Bramble Health now", "she's a nurse
#: at Kingsmill Hospital" (a job's word before "at"), "my new job at Fenwick".
_WORKS = r"(?:work(?:s|ing)?|employed)\s+(?:at|for)"
_IS_A = (
    r"(?:now\s+)?(?:an?|the)\s+(?:[\w-]+\s+){0,2}?"
    rf"{lang._ROLE_WORD}\s+(?:at|for|with)"
)
_JOB = r"(?:new\s+)?(?:job|post|position)\s+(?:is\s+)?(?:at|with)"
_WORKPLACE = re.compile(
    rf"\b(?:{_WORKS}|(?:is|am|are|['’]m|['’]s)\s+{_IS_A}|{_JOB})"
    r"\s+(?P<name>[A-Z][\w'’&-]*(?:\s+(?:[A-Z][\w'’-]*|&))*)"
)
#: The one who works there, at the end of the text before the employer: the word before
#: the verb ("Ewan works for", "I work at", "sister is a nurse at", "I'm a nurse at"), the
#: one whose job it is ("my new job at", "Ewan's job is at").
_WORKER = re.compile(
    rf"(\w+)(?:\W+(?:is\s+|are\s+|am\s+)?{_WORKS}"
    rf"|(?:\s+(?:is|am|are)|['’][ms])\s+{_IS_A}"
    rf"|(?:['’]s)?\s+{_JOB})\s+$",
    re.I,
)


#: Words for someone that say nothing of who.
_PRONOUNS = frozenset(("he", "she", "they", "his", "her", "their", "him", "them", "it", "its"))


def _worker(text: str, at: int) -> str | None:
    """Who works where the employer at `at` is named: the word before the verb ("Ewan",
    "sister"), the user for "I"."""
    return _who(_WORKER.search(text[:at]))


def _who(m: re.Match[str] | None) -> str | None:
    """The one a match's first group names, in lower case: the user for "I" or "me"."""
    if m is None:
        return None
    who = m.group(1).lower()
    return "user" if who in ("i", "me", "my") else who


_RECURRING = re.compile(rf"\b({lang.WEEKDAY})s\b", re.I)
#: Words that name no thing: values, their units, and the words of a change.
_NOT_THING = (
    set(lang.WEEKDAYS)
    | {f"{d}s" for d in lang.WEEKDAYS}
    | set(lang.MONTHS)
    | set(_UNITS)
    | {d[:3] for d in lang.WEEKDAYS}
    | {m[:3] for m in lang.MONTHS}
    | {
        "now", "instead", "longer", "anymore", "actually", "moved", "move", "moves", "moving",
        "pushed", "push", "postponed", "delayed", "brought", "forward", "lowered", "raised",
        "reduced", "knocked", "dropped", "upped", "increased", "changed", "change", "changes",
        "switched", "swapped", "shifted", "slips", "slipped", "rescheduled", "rebooked",
        "rearranged", "extended", "updated", "update", "revised", "still", "same", "rather",
        "even", "new", "plan", "time", "date", "today", "tomorrow", "tonight",
        "week", "weeks", "morning", "evening", "afternoon", "night", "user", "from", "until",
        "quid", "pounds", "euros", "dollars", "bucks", "noon", "midday", "midnight", "good",
        "news", "bad", "rang", "said", "says", "told", "just", "also", "then", "there",
        "their", "they", "them", "it's", "that's", "we're", "going", "okay", "sorry", "thanks",
        "make", "mean", "wait", "scratch",
    }
)  # fmt: skip
#: An amount added to a value, not the value: "add 2.5 kg a week", "another £20", "by 5%".
_ADDED = re.compile(r"\b(?:add(?:s|ed|ing)?|another|extra|plus|more|by)\s+(?:an?\s+)?$", re.I)
#: A value named as the one replaced: "from 02:15", "rather than the 5,500", "not the 12th".
_OLD_NAMED = re.compile(
    r"\b(?:from|than|instead\s+of|not|n't|no\s+longer|off|away|cancell?ed)\b[^,.;]{0,20}$", re.I
)
#: A clause that tells of something done, not of what a thing is: "I ran 10 km today",
#: "she swam 40 lengths this morning".
#: After a value, in its clause: said to hold no more ("the 4 May date has been vacated", "the
#: fitting on the 9th was cancelled"), the value replaced.
_ENDED_AFTER = re.compile(
    r"[^,.;:]{0,40}?\b(?:has\s+been|have\s+been|was|were|is|are|got)\s+(?:now\s+)?"
    r"(?:vacated|cancell?ed|called\s+off|scrapped|withdrawn)\b",
    re.I,
)
_EVENT = re.compile(
    r"\b(?:(?i:i|we|he|she|they|you|the\s+user)|[A-Z][a-z]+)\s+(?:\w+ly\s+|just\s+|also\s+)?"
    r"(?:[a-z]+ed|ran|swam|rode|went|did|had|got|made|took|saw|met|spent|paid|bought|sold|"
    r"drove|flew|walked|lifted|won|lost|read|wrote|ate|drank|slept)\b"
    r"|\b(?:today|yesterday|tonight|last\s+night|this\s+(?:morning|afternoon|evening))\b"
)
#: Words that place a thing in a series without naming it: "the next one is the 25th".
_ORDER = frozenset({"next", "last", "first", "final", "following", "one", "ones"})
_OLD_BARE = re.compile(
    r"\b(?:from|than|instead\s+of|not)\s+(?:the\s+)?[£$€]?"
    r"(\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?![\d.,:]\d)|\d[\d,]*(?:\.\d+)?)(?![\d:])",
    re.I,
)
#: A date named as the one replaced, said in words before its written form: "from May 6,
#: 2031 (", "instead of Tuesday 3 June (".
_OLD_DATE_NAMED = re.compile(r"\b(?:from|than|instead\s+of|not)\s+[\w\s,]{1,25}\($", re.I)
#: The words before a value said as the one a change leaves behind: "from 6 May", "rather
#: than £40", "instead of the 12th" (not "from now on at 18:00", "from today").
_OLD_CUE = re.compile(
    r"\b(?:from(?!\s+(?:now|today|tomorrow|tonight|next|this|then|on)\b)|than|instead\s+of|"
    r"no\s+longer)\b",
    re.I,
)

#: The words before a "from" that says where something begins now, not the value it left:
#: "now from 13:00", "opens from 8", "arriving from 12:30".
_BEGINS_FROM = re.compile(
    r"\b(?:now|is|are|open(?:s|ing)?|start(?:s|ing)?|begin(?:s|ning)?|arriv(?:e|es|al|ing)|"
    r"doors|runs?|available)\s+$",
    re.I,
)


def _said_as_old(head: str, kind: str) -> bool:
    """Whether the value that `head` (the text before it) leads to is said as the one a
    change leaves behind: a cue just before it ("from 02:15"), nothing between them that
    says where it went ("from 02:15 to 03:40": 03:40 is the new one) and no other value
    (but the words of a date written before its absolute form: "from May 6, 2031 (")."""
    cues = list(_OLD_CUE.finditer(head))
    if not cues:
        return False
    if _BEGINS_FROM.search(head[: cues[-1].start()]):
        return False  # "arrival is now from 13:00": where a range begins now, the new value
    between = head[cues[-1].end() :]
    if len(between) > 25 or re.search(
        r"\b(?:to|until|till|into|onto|for)\b|→|->|[;()]",
        between[:-1] if kind == "date" else between,
        re.I,
    ):
        return False
    if kind == "date" and between.endswith("("):
        return bool(_DATE_WORDS.search(between[:-1]))
    return not re.search(r"\d|[,.]", between)


_PRONOUN = re.compile(r"\b(?:it|its|it's|they|them|this|that|these|those|one)\b", re.I)
#: A value that is a number after the name of what it numbers: "Ward 9", "Gate 14", "week 11
#: of term", "ISO week 15" (the name capitalised, or "week"); each kind is its name.
_NUMBERED = re.compile(
    r"\b(?P<label>(?:ISO\s+)?[Ww]eek|[A-Z][a-z]{2,})\s+(?P<n>\d{1,3})\b"
    r"(?![:.,/%]\d|\s*(?:am|pm|st|nd|rd|th|%)\b|\s*[-–]\s*\d)"
)
#: Names a number after which is no value of theirs: days, months, units, words of change.
_NOT_NUMBERED = _NOT_THING | {"the", "and", "for", "from", "with", "about", "around", "over"}
#: A version: "v2.4", "0.5.0", "3.12.1" (a decimal number alone, "2.5", is none).
VERSION = re.compile(r"(?<![\w.])(?:v\d+(?:\.\d+)*|\d+\.\d+\.\d+)(?![\w.]\w)", re.I)


#: A thing named by digits and capitals: "the 10K", "an A380", "the M25" (not "£10K").
_CODED = re.compile(r"(?<![\w.£$€/:-])(?:\d+[A-Z]+|[A-Z]+\d+)(?![\w.-]\w|[\w/-])")


@dataclass(frozen=True)
class Value:
    """A value said in a text: its type, its canonical form, where it is, as it is written."""

    kind: str
    norm: str
    start: int
    end: int
    #: the end of a range it is ("from" or "to": "9:00 to 17:30", "shut at 1pm"), else ""
    role: str = ""


@dataclass(frozen=True)
class Claim:
    """One clause of a statement: what it is about and the values it gives."""

    thing: frozenset[str]
    values: tuple[Value, ...]
    #: the words of the clauses before it in its sentence ("the plumber came and quoted
    #: £240": the plumber is what "quoted £240" is of)
    context: frozenset[str]
    text: str
    start: int
    #: the clause says a value holds still, asks, or tells it as history: it changes nothing
    inert: bool = False
    #: it named nothing of its own: its thing is the one said before it
    borrowed: bool = False


def _number(text: str) -> str:
    n = re.sub(r"[,\s'’]", "", text)
    return n[:-3] if n.endswith(".00") else n


def _time_norm(m: re.Match[str] | None) -> str | None:
    """A time of day as HH:MM, or None when `m` is no time ("9" alone, "25:00")."""
    if m is None:
        return None
    if m.group("word"):
        return {"noon": "12:00", "midday": "12:00", "midnight": "00:00"}[m.group("word").lower()]
    if m.group("ap"):
        h = int(m.group("h")) % 12 + (12 if m.group("ap").lower() == "pm" else 0)
        return f"{h:02d}:{m.group('m') or '00'}"
    if m.group("h2") is None or int(m.group("h2")) > 23:
        return None
    return f"{int(m.group('h2')):02d}:{m.group('m2')}"


@remembered_up_to(8192, shared=True)
def values(text: str, *, bare: bool = False, said_on: date | None = None) -> tuple[Value, ...]:
    """The values `text` gives, each of its most specific type; `bare`: a number after "to",
    "at" or "is" with no unit counts as a number (said after a word of change); `said_on`:
    a day and month not yet written with its date ("to Tuesday 1 October (same place)")
    is read against that day."""
    out: list[Value] = []
    taken: list[tuple[int, int]] = []

    def add(kind: str, norm: str, span: tuple[int, int], role: str = "") -> None:
        if any(span[0] < e and s < span[1] for s, e in taken):
            return
        taken.append(span)
        out.append(Value(kind, norm, *span, role))

    for m in _PHONE.finditer(text):
        digits = re.sub(r"\D", "", m.group(0))
        if 9 <= len(digits) <= 15 and not _ISO.search(m.group(0)):
            add("phone", digits, m.span())
    for m in _ISO.finditer(text):
        if _SAID_ON.search(text[: m.start()]):
            continue  # "they rang this morning (…)": the day it was said, not a value
        # a span of days written "(2031-09-01 to 2031-09-05)": each end a day of its own
        role = (
            "from"
            if _DAYS_TO.match(text, m.end())
            else "to"
            if _DAYS_FROM.search(text[: m.start()])
            else ""
        )
        add("date", m.group(0), m.span(), role)
    if said_on is not None:
        for phrase, d in absolute_dates(text, said_on):
            at = text.find(phrase)
            if at >= 0 and not re.match(r"\s*\(\d{4}-", text[at + len(phrase) :]):
                add("date", d.isoformat(), (at, at + len(phrase)))
    for m in _PERCENT.finditer(text):
        add("percentage", _number(m.group("n")), m.span())
    for m in _AMOUNT.finditer(text):
        n = _number(m.group("n") or m.group("n2") or m.group("n3") or m.group("n4"))
        if m.group("k") or m.group("k3"):
            n = str(int(float(n) * 1000))
        add("amount", n, m.span())
    for m in _TIME_RANGE.finditer(text):
        first, second = m.group("a").strip(), m.group("b").strip()
        width = len(first)
        late = _TIME.fullmatch(second)
        b = _time_norm(late)
        if b is None or late is None:
            continue
        if first.isdigit() and late.group("ap"):
            first += late.group("ap")  # "between 2 and 4pm": the first end said as the second
        a = _time_norm(_TIME.fullmatch(first))
        if a is None:
            continue
        add("time", a, (m.start("a"), m.start("a") + width), "from")
        add("time", b, (m.start("b"), m.start("b") + len(second)), "to")
    for m in _TIME.finditer(text):
        norm = _time_norm(m)
        if norm is None:
            continue
        head = text[: m.start()]
        role = "to" if _RANGE_END.search(head) else "from" if _RANGE_START.search(head) else ""
        add("time", norm, m.span(), role)
    for m in _QUANTITY.finditer(text):
        add(f"quantity:{_UNITS[m.group('unit').lower()]}", _number(m.group("n")), m.span())
    for m in _COUNT.finditer(text):
        noun = m.group("noun")
        if noun not in _UNITS and noun not in _NOT_COUNTED and noun not in stopwords.ENGLISH:
            add(f"quantity:{_singular(noun)}", _number(m.group("n")), m.span())
    for m in _VENUE.finditer(text):
        group = "name" if m.group("name") else "home"
        first = re.sub(r"['’]s$", "", m.group(group).split()[0].lower())
        if first not in (*lang.WEEKDAYS, *lang.MONTHS):
            add("venue", m.group(group).lower(), m.span(group))
    for m in _PLACE_NOUN.finditer(text):
        add("venue", m.group("name").lower(), m.span("name"))
    for m in _WORKPLACE.finditer(text):
        add("workplace", m.group("name").lower(), m.span("name"))
    for m in _RECURRING.finditer(text):
        add("weekday", m.group(1).lower(), m.span())
    for m in _NUMBERED.finditer(text):
        label = m.group("label").lower()
        if label.split()[-1] != "week" and label in _NOT_NUMBERED:
            continue
        if text[: m.start()].count("(") > text[: m.start()].count(")"):
            continue  # "(week 1 started on …)": an aside, not the value
        add(f"numbered:{label.split()[-1]}", m.group("n"), m.span())
    if bare:
        for m in _BARE_NUMBER.finditer(text):
            add("number", _number(m.group("n")), m.span("n"))
    said = _date_ranges(text, sorted(out, key=lambda v: v.start))
    for i, v in enumerate(said):
        # a value taken back as it is said is the old one: "46, no, 52 guests"
        if v.kind in ("amount", "number") or v.kind.startswith("quantity:"):
            back = _BARE_SAID_AGAIN.search(text[: v.start])
            if back and not any(o.start <= back.start("n") < o.end for o in said):
                said.append(Value(v.kind, _number(back.group("n")), *back.span("n"), "was"))
        later = next((o for o in said[i + 1 :] if o.kind == v.kind), None)
        if later is not None and _SAID_AGAIN.match(text[v.end : later.start]):
            said[i] = Value(v.kind, v.norm, v.start, v.end, "was")
    return tuple(sorted(said, key=lambda v: v.start))


#: What lies between the two days of a range: "(2031-08-27) to Monday 30 August (".
_DAYS_BETWEEN = re.compile(r"\)?\s*(?:to|until|till|through|[-–—])\s+[^()]{0,30}\(?")
#: What says a day is the first of a range: "going from Thursday the 26th (".
_DAY_FROM = re.compile(r"\b(?:from|starting)\s+[^()]{0,30}\(?$", re.I)


def _date_ranges(text: str, said: list[Value]) -> list[Value]:
    """`said` with the days of a range given their ends ("Friday 27 August to Monday 30
    August": from and to; "from Thursday the 26th": from), as times of a range are, so that
    a new first day replaces the first, not the last."""
    out = list(said)
    dates = [i for i, v in enumerate(out) if v.kind == "date" and not v.role]
    for a, b in zip(dates, dates[1:], strict=False):
        if _DAYS_BETWEEN.fullmatch(text[out[a].end : out[b].start]):
            out[a] = Value("date", out[a].norm, out[a].start, out[a].end, "from")
            out[b] = Value("date", out[b].norm, out[b].start, out[b].end, "to")
    for i in dates:
        if not out[i].role and _DAY_FROM.search(text[max(0, out[i].start - 50) : out[i].start]):
            out[i] = Value("date", out[i].norm, out[i].start, out[i].end, "from")
    return out


def _singular(noun: str) -> str:
    """One of what a plural counts: "bottles" -> "bottle", "boxes" -> "box"."""
    return re.sub(r"(?:(?<=[sxz])|(?<=ch)|(?<=sh))es$|s$", "", noun)


@remembered_up_to(8192, shared=True)
def thing_words(text: str) -> frozenset[str]:
    """The words of `text` that name what it is about, each stemmed: no value, unit, filler
    or word of change."""
    text = _ISO.sub(" ", text)
    # a version names a thing, a release ("0.5.0 is now 3 April"), though it is no word
    words = {m.group(0).lower() for m in VERSION.finditer(text)}
    # so does a name of digits and capitals ("the 10K", "the A380", "M25"), no amount or unit
    words |= {m.group(0).lower() for m in _CODED.finditer(text)}
    for w in re.findall(r"(?<!\d)[A-Za-z][A-Za-z'’-]*", text):  # not the "K" of "10K"
        w = re.sub(r"['’]s$", "", w)
        low = w.lower()
        if len(low) < 3 and not w.isupper():
            continue
        if low in stopwords.ENGLISH or low in _NOT_THING or low in stopwords.FILLER:
            continue
        words.add(lang.stem(low))
    return frozenset(words)


@remembered_up_to(8192, shared=True)
def claims(text: str, *, before: str = "", said_on: date | None = None) -> tuple[Claim, ...]:
    """`text` cut into clauses that give values, each with its thing; a clause that names
    nothing of its own but "it" ("it's now the 19th") takes the thing of the clauses before
    it in the sentence, or else of `before` (the sentence said before it)."""
    changed = bool(CHANGE.search(text))
    asks = "?" in text
    out: list[Claim] = []
    starts = [0] + [m.end() for m in _CLAUSE_END.finditer(text)]
    ends = [m.start() for m in _CLAUSE_END.finditer(text)] + [len(text)]
    earlier: frozenset[str] = frozenset()
    taken_back = {v.start for v in values(text, bare=changed, said_on=said_on) if v.role == "was"}
    heading = _heading_thing(text, starts, ends)
    for start, end in zip(starts, ends, strict=True):
        clause = text[start:end]
        if start and (text[start - 2 : start] == ". " or text[start - 3 : start] in ('." ', ".” ")):
            earlier = frozenset()  # a new sentence: what came before is another's
        said = values(clause, bare=changed, said_on=said_on)
        if any(v.kind != "weekday" for v in said):
            # "on Saturdays they shut at 1pm": the day says when the time holds, the time
            # is the value
            said = tuple(v for v in said if v.kind != "weekday")
        thing = thing_words(anchored.without_anchors(clause))  # the day counted, not from what
        if heading and end <= heading[0]:
            thing = heading[1]  # "5 May and 12 May: the tiler": the values of what follows
        context = earlier
        said = tuple(v for v in said if not _ADDED.search(clause[: v.start]))
        # "£300, sorry, £320": the value taken back is none
        said = tuple(v for v in said if v.start + start not in taken_back)
        borrowed = bool(said) and not thing
        if borrowed and _PRONOUN.search(clause):
            thing = earlier | thing_words(before)  # "it": said in this sentence or the last
        elif borrowed:
            thing = earlier or thing_words(before)
        # "The 10K moved, it's 4 April now": a thing named in its own sentence is named
        borrowed = borrowed and not earlier
        earlier = earlier | thing_words(clause)
        if not said:
            continue
        # what a count counts is part of its thing
        thing = thing | {
            v.kind.split(":", 1)[1]
            for v in said
            if v.kind.startswith("quantity:") and v.kind.split(":", 1)[1] in _COUNTED
        }
        # "now 1:30pm (the registrar couldn't do 2)", "is 1:30pm because they can't do 2pm":
        # what is not, said in an aside or as the reason, is of the value left, not this one
        reason = _REASON.search(clause)
        main = clause[: reason.start()] if reason else clause
        # "is now 1:15 not 12:45", "it's 3:15 now not 2:30": what "not" sets after a value is
        # the old one; the value before it is said, not denied
        after = _not_after_value(main, said)
        if after is not None:
            said = tuple(v for v in said if v.start < after)
            main = main[:after]
        if reason and _NEGATED.search(clause[reason.start() :]):
            said = tuple(v for v in said if v.start < reason.start())
            if not said:
                continue
        inert = (
            asks
            or bool(_STILL.search(clause))
            or bool(_NEGATED.search(main))
            or (
                bool(_HISTORY.search(_WAS_ASIDE.sub("", clause)))
                and not CHANGE.search(clause)
                and not _WAS_ASIDE.search(clause)
            )
        )
        shifted = tuple(Value(v.kind, v.norm, v.start + start, v.end + start, v.role) for v in said)
        out.append(Claim(thing, shifted, context, clause, start, inert, borrowed))
    return tuple(out)


#: "not" with a value after it, just after another value: "1:15 not 12:45", "3:15 now not 2:30".
_NOT_NEXT = re.compile(r"^(?:\s+now)?\s+not\s+(?:on\s+|at\s+|the\s+)?[£$€]?\d", re.I)


#: The old value said right after the new one with "not": "38 litres, not 36", "at 4pm; not
#: 3", "£45 – not £40"; its number.
_NOT_NEXT_OLD = re.compile(
    r"\s*(?:[,;]|\s[-–—])?\s*not\s+(?:on\s+|at\s+|the\s+)?[£$€]?(?P<n>\d[\d,]*(?:\.\d+)?)(?![\d:])",
    re.I,
)


def _set_against(clause: str, said: tuple[Value, ...]) -> list[tuple[Value, Value]]:
    """The values of `clause` set as the old ones against the value just before them with
    "not" ("now 13:15 not 12:45"), each with that new value; only of the same kind."""
    out = []
    for v in said:
        m = _NOT_NEXT.match(clause[v.end :])
        if m is None:
            continue
        olds = [o for o in said if o.kind == v.kind and v.end < o.start < v.end + m.end()]
        out += [(v, o) for o in olds[:1]]
    return out


def _not_after_value(clause: str, said: tuple[Value, ...]) -> int | None:
    """Where the "not" of `_set_against` begins in `clause`, or None."""
    pairs = _set_against(clause, said)
    return pairs[0][0].end if pairs else None


def old_after_not(text: str, said_on: date | None = None) -> set[tuple[str, str]]:
    """The values `text` sets as the old ones after the new with "not" ("now 1:15 not 12:45"
    -> the 12:45)."""
    said = values(text, bare=True, said_on=said_on)
    return {(o.kind, o.norm) for _, o in _set_against(text, said)}


#: The old value set against the new after it: "is 30 August, not 20 August", "£45; not £40".
_NOT_THE_OLD = re.compile(r"[,;]\s*not\s+(?:on\s+|at\s+|the\s+)?[£$€]?\d", re.I)
#: The old value said in brackets after the new: "18:00 (was 16:00)", "(previously £40)": a
#: change, not a value told as history.
_WAS_ASIDE = re.compile(r"\((?:was|previously|formerly|originally|before)\b[^()]{1,40}\)", re.I)
#: Where an aside or the reason for a value begins: "(", "because", "as", "since".
_REASON = re.compile(r"\(|\b(?:because|cos|since|as)\b(?!\s+(?:of|well|before|usual)\b)", re.I)


def _heading_thing(text: str, starts: list[int], ends: list[int]) -> tuple[int, frozenset[str]]:
    """(where it ends, what follows it) when `text` opens on its values alone before a colon
    ("Monday 5 May and Monday 12 May: the tiler, both days"): a heading whose thing is the
    clause after the colon; else (0, nothing)."""
    for i, end in enumerate(ends[:-1]):
        clause = text[starts[i] : end]
        if thing_words(clause) or not values(clause):
            return 0, frozenset()
        if text[end : end + 1] == ":":
            return end, thing_words(text[starts[i + 1] : ends[i + 1]])
    return 0, frozenset()


def names_old_value(text: str) -> bool:
    """Whether `text` names a value as the one replaced ("from 6 May to 20 May", "rather
    than £40", "not the 12th")."""
    # a date is said in words before its written form: "from May 6, 2031 (2031-05-06)"
    return any(
        _OLD_NAMED.search(head := text[: v.start][-40:])
        or (v.kind == "date" and _OLD_DATE_NAMED.search(head))
        for v in values(text)
    )


def _same(a: frozenset[str], b: frozenset[str]) -> set[str]:
    """The words two things share, one shortened from the other counted too ("cron" of
    "crontab", "physio" of "physiotherapy")."""
    shared = set(a & b)
    for w in a - b:
        if len(w) >= 4 and any(o.startswith(w) or (len(o) >= 4 and w.startswith(o)) for o in b):
            shared.add(w)
    return shared


@remembered_up_to(8192, shared=True)
def names(text: str) -> frozenset[str]:
    """The names `text` says (capitalised words not opening a sentence or a clause):
    whose or which thing a value is of."""
    out = set()
    for m in re.finditer(r"[A-Z][\w’'-]+", text):
        head = text[: m.start()].rstrip()
        if not head or head[-1] in '.!?:;,("“-—–':
            # a word opening the text or a clause is a name only when it is one of those
            # said elsewhere in it
            continue
        word = re.sub(r"['’]s$", "", m.group(0))
        if word not in lang.NOT_NAMES and word.lower() not in _NOT_THING:
            out.add(word)
    opening = {
        re.sub(r"['’]s$", "", m.group(1))
        for m in re.finditer(r"(?:^|[.!?:;,(]\s*)([A-Z][\w’'-]+['’]s)\b", text)
    }
    return frozenset(out | {w for w in opening if w not in lang.NOT_NAMES})


def _fits(kind: str, other: str) -> bool:
    """Whether a value of type `kind` can replace one of type `other`: the same type, or a
    bare number said for an amount or a quantity."""
    return kind == other or (kind == "number" and other in ("amount", "percentage"))


@dataclass(frozen=True)
class Replacement:
    """What a later statement replaces in a line: the line, the value there and the new one."""

    line: str
    kind: str
    old: Value
    new: Value
    shared: int
    named_old: bool
    #: the clause that gives the new value says it changed
    cued: bool = False
    #: words of the line's thing the statement does not say ("garage" of "the garage rent")
    extra: int = 0
    #: where the clause of the new value begins: each clause of a statement replaces a line
    clause: int = 0
    #: the line's clause of the old value names the thing itself (not only a clause before it)
    own: bool = True
    #: found only by the old day named in the line's own words ("it's not Thursday week, it's
    #: …"): the statement says nothing of the thing, so the line keeps it with the new day
    alike: bool = False


@remembered_up_to(8192, shared=True)
def _cued(text: str) -> bool:
    """Whether `text` says a value changed: a word of change, a new number or value named as
    such, the old one in brackets or after "not"."""
    return bool(
        CHANGE.search(text)
        or _NEW_NUMBER.search(text)
        or _NEW_VALUE.search(text)
        or _WAS_ASIDE.search(text)
        or _NOT_THE_OLD.search(text)
        or _NOT_THEN_NEW.search(text)
    )


#: The old value said first with "not", the new one after it: "it's not the 9th, it's the
#: 10th", "not Friday but Saturday", "not 4pm – it's 5pm".
_NOT_THEN_NEW = re.compile(
    r"\bnot\s+(?:on\s+|at\s+)?(?P<old>[^,;.!?–—]{1,40}?)\s*(?:[,;–—]|\s-\s)\s*"
    r"(?:(?:it|that|they|he|she)(?:['’]s|['’]re|\s+is|\s+are|['’]ll\s+be|\s+will\s+be)|but)\s+"
    # the new value read off what was written, in the next sentence: "it's not 95. It says
    # 59", "not the 8th. The letter reads the 18th"
    r"|\bnot\s+(?:on\s+|at\s+)?(?P<read>[^,;.!?–—]{1,40}?)\s*\.\s+"
    r"(?:it|that|they|the\s+\w+)\s+(?:says|reads|shows|states)\s+",
    re.I,
)


def _said_alike(text: str, text_at: int, line: str, line_at: int) -> bool:
    """Whether a day is said in the same words just before where it is written in both
    `text` and `line` ("Tuesday week (…)" in both, not "the Tuesday (…)"): the same day
    named the same way, which line a correction of it means."""

    def said(s: str, at: int) -> list[str]:
        return [w.lower() for w in re.findall(r"[\w'’-]+", s[:at].rstrip(" ("))[-2:]]

    a, b = said(text, text_at), said(line, line_at)
    return len(a) == 2 and a == b and not set(a) <= stopwords.SEARCH


def replacements(
    text: str, line: str, *, before: str = "", said_on: date | None = None
) -> list[Replacement]:
    """The values of `line` (an earlier statement, still current) that `text` (said later)
    gives another value of the same type for the same thing. A word of change lets one
    shared word of the thing do; without one, the thing must be named the same way (two
    words, or all of the shorter's words). A value of the line that `text` names with a word
    of change beside the new one ("moved the cron from 02:15 to 03:40", "Hamid's away on the
    25th, so it moves to the 2nd") is replaced when the line shares a word with `text`."""
    if "?" in text:
        return []
    changed = _cued(text)
    corrected = _NOT_THEN_NEW.search(text)
    said_values = values(text, said_on=said_on) if corrected else ()
    new_claims = [c for c in claims(text, before=before, said_on=said_on) if not c.inert]
    if not new_claims:
        return []
    old_claims = claims(line)
    # the values `text` names as the ones replaced ("from 02:15 to 03:40"), or says of a
    # thing that no longer holds ("away on the 25th")
    said_norms = {
        (v.kind, v.norm)
        for c in claims(text, before=before, said_on=said_on)
        for v in c.values
        if c.inert or _OLD_NAMED.search(text[: v.start][-40:]) or _ENDED_AFTER.match(text, v.end)
    }
    said_norms |= old_after_not(text, said_on)
    # "46, no, 52 guests": the value taken back as it was said
    said_norms |= {(v.kind, v.norm) for v in values(text, said_on=said_on) if v.role == "was"}
    # "rather than the 5,500": a number named as the one replaced, its unit left unsaid
    said_bare = {_number(m.group(1)) for m in _OLD_BARE.finditer(text)}
    line_norms = {(v.kind, v.norm) for v in values(line) if v.role != "was"}
    text_thing = thing_words(text) | thing_words(before)
    # a value said as the one replaced ("changed the due date from 6 May to 20 May") is never
    # the new one, whichever clause it stands in
    named_here = _named_here(text, said_on) if changed else frozenset()
    out = []
    for new in new_claims:
        for nv in new.values:
            if changed and (nv.kind, nv.norm) in named_here:
                continue
            if (nv.kind, nv.norm) in line_norms or any(
                nv.kind == "number" and k in ("amount", "percentage") and n == nv.norm
                for k, n in line_norms
            ):
                continue  # the line says it already
            for old in old_claims:
                olds = [v for v in old.values if _fits(nv.kind, v.kind)]
                if len(olds) > 1 and nv.role:
                    # "shut at 1pm" of "9:00 to 17:30": the end of the range it names
                    olds = [v for v in olds if v.role == nv.role]
                if len(olds) != 1:
                    continue  # none, or two values of the type: which one is unknown
                ov = olds[0]
                if nv.role and ov.role and nv.role != ov.role:
                    continue  # "opens at 8" is not "closes at 5"
                named_old = changed and (
                    (ov.kind, ov.norm) in said_norms
                    or (ov.kind not in ("date", "time", "weekday") and ov.norm in said_bare)
                )
                # the old day named after "not" in the words the line said it in ("it's not
                # Tuesday week, it's Wednesday week"): that line, whatever "it" is
                alike = (
                    named_old
                    and ov.kind == "date"
                    and bool(corrected)
                    and line[: ov.start].endswith("(")
                    and any(
                        v.kind == "date"
                        and v.norm == ov.norm
                        and _said_alike(text, v.start, line, ov.start)
                        for v in said_values
                    )
                )
                new_thing, old_thing = new.thing, old.thing
                theirs, ours = names(line), names(new.text)
                same_worker = False
                if nv.kind == "workplace":
                    a, b = _worker(text, nv.start), _worker(line, ov.start)
                    if a and b and a != b:
                        continue  # "Ewan works for …" is not where Tamsin works
                    # one employer at a time, however the job is said ("works at", "is a
                    # nurse at", "my new job at"): the same one working is the same thing
                    # (not a "she" or "his": which one is meant is the sentence's to say)
                    same_worker = a is not None and a == b and a not in _PRONOUNS
                if nv.kind in ("venue", "workplace"):
                    # a venue's name is the value, not the thing: "the party" of "the party is
                    # at the Crown" and "the party's moved to the Swan" (an employer's too)
                    new_words, old_words = text[nv.start : nv.end], line[ov.start : ov.end]
                    new_thing = new_thing - thing_words(new_words)
                    old_thing = old_thing - thing_words(old_words)
                    ours = ours - _words_of(new_words)
                    theirs = theirs - _words_of(old_words)
                # a recurring day is of the thing its own clause names ("closed Sundays")
                shared = _same(
                    new_thing, old_thing | (frozenset() if ov.kind == "weekday" else old.context)
                )
                if nv.role and ov.role == nv.role:
                    # an end of a range is of what the sentence names ("they shut at 1pm" of
                    # "KeyCraft is open 9:00 to 17:30")
                    shared |= _same(text_thing, old_thing | old.context)
                if theirs and ours and not theirs & ours and not ours <= _words_of(line):
                    # "Marco's shift" is not "Ines's shift"; "Gwen's steamer" is of the line
                    # "Gwen Castellano has the steamer", its name said first
                    continue
                several = (
                    sum(
                        1
                        for v in values(line)
                        if _fits(nv.kind, v.kind)
                        and v.role != "was"
                        and (not nv.role or v.role in ("", nv.role))
                    )
                    > 1
                )
                if several and not named_old and (new.borrowed or not _same(new_thing, old_thing)):
                    continue  # a list of such values: which one is meant needs its own name
                same_thing = (
                    same_worker
                    or alike
                    # the old value named beside the new: one word of the sentence will do
                    or (
                        named_old
                        and (_same(text_thing, thing_words(line)) or thing_words(line) <= _ORDER)
                    )
                    # a word of change: one word of the thing will do
                    or (changed and shared)
                    # none: the thing named the same way, one's words all the other's ("the
                    # roof repair" of "the roof repair for the shed", not of "… for the garage")
                    or (
                        not changed
                        and (
                            (shared and new_thing == old_thing)
                            or (
                                len(shared) >= 2
                                and (new_thing <= old_thing | old.context or old_thing <= new_thing)
                            )
                        )
                    )
                )
                if not changed and (_EVENT.search(new.text) or _EVENT.search(old.text)):
                    continue  # "ran 5 km today", later "ran 10 km today": two runs
                if not same_thing or (nv.kind == "number" and not changed):
                    continue
                counted = nv.kind.partition(":")[2]
                if counted and counted not in _UNITS.values():
                    # "6 bottles of red", "4 bottles of white now": a count no unit names is
                    # of the same thing only when a word besides what it counts is shared
                    counts = {lang.stem(w) for w in (counted, f"{counted}s", f"{counted}es")}
                    if not _same(text_thing, thing_words(line)) - counts:
                        continue
                cued = (
                    bool(CHANGE.search(new.text))
                    or bool(
                        corrected
                        and corrected.end() <= new.start + len(new.text)
                        and new.start >= corrected.start()
                    )
                    # "it's 38 litres, not 36": the line's own value named after "not" right
                    # behind the new one is a correction of it
                    or bool(
                        named_old
                        and (m := _NOT_NEXT_OLD.match(text, nv.end))
                        and _number(m.group("n")) == ov.norm
                    )
                )
                extra = len(old_thing - _same(old_thing, new_thing))
                own = bool(_same(new_thing, old_thing))
                out.append(
                    Replacement(
                        line,
                        ov.kind,
                        ov,
                        nv,
                        len(shared),
                        named_old,
                        cued,
                        extra,
                        new.start,
                        own,
                        alike and not shared,
                    )
                )
    return out


@remembered_up_to(8192, shared=True)
def _named_here(text: str, said_on: date | None) -> frozenset[tuple[str, str]]:
    """The values `text` says as the ones a change leaves behind (`_said_as_old`); one
    after a bare "from" only when a value of its kind follows, the one it went to ("from
    02:15 to 03:40"): "we're now going from Thursday the 26th" starts a stay there."""
    said = values(text, said_on=said_on)
    out = set()
    for v in said:
        head = text[: v.start][-40:]
        if not _said_as_old(head, v.kind):
            continue
        cue = list(_OLD_CUE.finditer(head))[-1].group().lower()
        if cue == "from" and not any(o.kind == v.kind and o.start > v.end for o in said):
            continue
        out.add((v.kind, v.norm))
    return frozenset(out)


@remembered_up_to(8192, shared=True)
def _words_of(line: str) -> frozenset[str]:
    """The words of `line`, a possessive's "'s" left off, and each part of a hyphenated name
    ("Laroque" of "Laroque-Bellevue", as a double-barrelled name is said short)."""
    words = re.findall(r"[\w’'-]+", re.sub(r"['’]s\b", "", line))
    parts = [p for w in words if "-" in w and w[:1].isupper() for p in w.split("-") if p]
    return frozenset(words + parts)


def chosen(found: dict[str, list[Replacement]]) -> list[Replacement]:
    """Of the lines a statement could replace, those it is meant for, clause by clause ("the
    piano moves to Wednesdays, and the window cleaning is up to £20": a line for each): per
    clause the only one, or the one whose old value it names, or the one sharing most words
    of the thing; every line that says the value it names as replaced with two words or more
    of the thing ("the next service at 5,000 km rather than the 5,500" of two lines giving
    the next service 5,500 km: one fact said twice); none when two remain (two
    appointments, two people's shifts said the same way)."""
    by_clause: dict[int, dict[str, list[Replacement]]] = {}
    for line, reps in found.items():
        for r in reps:
            by_clause.setdefault(r.clause, {}).setdefault(line, []).append(r)
    out: dict[str, Replacement] = {}
    for _, group in sorted(by_clause.items()):
        for r in _chosen_in_clause(group):
            out.setdefault(r.line, r)
    return list(out.values())


def _chosen_in_clause(found: dict[str, list[Replacement]]) -> list[Replacement]:
    """`chosen` for the replacements of one clause. A line two of whose values of one type
    could be meant is no candidate, and none is chosen unless another line is meant more
    surely (its old value named, or more words of the thing shared)."""
    best: dict[str, Replacement] = {}
    unsure: list[Replacement] = []
    for line, reps in found.items():
        if not reps:
            continue
        # of two values of one line, the one in the clause that names the thing itself, not
        # one in a clause after it ("signed up for the 10K on 28 March, so the plan starts
        # on 12 January")
        top = max(reps, key=lambda r: (r.named_old, r.cued, r.own, r.shared))
        rank = (top.named_old, top.cued, top.own, top.shared)
        tied = {(r.old, r.new.norm) for r in reps if (r.named_old, r.cued, r.own, r.shared) == rank}
        if len({(old.kind, old.role) for old, _ in tied}) < len(tied):
            # two values of one type could be meant; values of types apart ("on Friday 27
            # June at 8pm" of a line's day and time) are each the new value of its own
            unsure.append(top)
            continue
        best[line] = top
    chosen_here = _chosen_of(best)
    if chosen_here and any(
        u.named_old or (not chosen_here[0].named_old and u.shared >= chosen_here[0].shared)
        for u in unsure
    ):
        return []
    return chosen_here


def _chosen_of(best: dict[str, Replacement]) -> list[Replacement]:
    """`_chosen_in_clause` of the lines each with one replacement."""
    if len(best) < 2:
        return list(best.values())
    named = [r for r in best.values() if r.named_old]
    if len(named) == 1:
        return named
    if named:
        olds = {(r.kind, r.old.norm, r.new.norm) for r in named}
        return named if len(olds) == 1 and all(r.shared >= 2 for r in named) else []
    most = max(r.shared for r in best.values())
    leaders = [r for r in best.values() if r.shared == most]
    # of those, the one whose thing the statement says all of ("my rent", not "the garage
    # rent"); when each says more ("eye test", "bank"), which is meant is unknown
    whole = [r for r in leaders if r.extra == 0]
    leaders = whole if len(leaders) > 1 and whole else leaders
    if len(leaders) > 1 and not said_twice(leaders):
        return []
    # the line meant, and every other that says the same fact again (a mail and the
    # assistant's reading of it)
    return leaders + [r for r in best.values() if r not in leaders and said_twice([leaders[0], r])]


def _old_thing(rep: Replacement) -> frozenset[str]:
    """The thing of the clause of `rep.line` that holds the value replaced, with the words of
    the clauses before it in its sentence."""
    for c in claims(rep.line):
        if rep.old in c.values:
            return c.thing | c.context
    return frozenset()


def said_twice(reps: list[Replacement]) -> bool:
    """Whether the lines of `reps` are one fact said twice (a mail and the assistant's
    reading of it, a note and the message that restated it): each replaces the same old
    value by the same new one, the lines give two values or more alike, that one among them
    ("Saturday 10 May, from 12:30, for 24 guests" in both), and the sentences holding it
    name the thing with two words alike up to it. Two appointments that merely share a time are not."""
    if len(reps) < 2 or len({(r.kind, r.old.norm, r.new.norm) for r in reps}) != 1:
        return False
    alike = set.intersection(
        *({(v.kind, v.norm) for v in values(r.line) if v.role != "was"} for r in reps)
    )
    if len(alike) < 2:
        return False
    things = [_old_thing(r) for r in reps]
    return all(len(_same(things[0], t)) >= 2 for t in things[1:])


def choose(found: dict[str, list[Replacement]]) -> Replacement | None:
    """The one line a statement replaces (`chosen`), or None when none or several are."""
    reps = chosen(found)
    return reps[0] if len(reps) == 1 else None


#: The words of a date said before its absolute form, read back from the "(": weekdays and
#: months whole or shortened as a booking writes them ("Fri 22 Aug 2031 (2031-08-22)").
_DATE_WORDS = re.compile(
    r"(?:(?:\b(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?\.?"
    r"|\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b\.?"
    # a day counted from a weekday: "Tuesday week", "Friday fortnight", "next Monday"
    r"|\bweek|\bfortnight|\bnext"
    r"|\bthe|\bof|\bon|\d{1,2}(?:st|nd|rd|th)?|\d{4}|[,\s])+)$",
    re.I,
)


#: A clause that says a value was so at a time gone: "he was 16.4kg last time", "it used
#: to be £20", "previously 3 nights".
_WAS_THEN = re.compile(
    r"\b(?:was|were|used\s+to\s+be|had\s+been|last\s+time|previously|formerly)\b", re.I
)


def _clause_around(line: str, start: int, end: int) -> str:
    """The clause of `line` that holds its span `start`..`end`: to the comma, semicolon or
    sentence's end on either side."""
    left = max(line.rfind(c, 0, start) for c in (",", ";", ". ", ": "))
    right = [i for i in (line.find(c, end) for c in (",", ";", ". ")) if i >= 0]
    return line[left + 1 : min(right) if right else len(line)]


def edit(line: str, rep: Replacement, new_text: str) -> str | None:
    """`line` with the value `rep` replaces edited in place (the rest of what it says
    kept), or None when the value cannot be edited alone: when its clause says it was so at
    a time gone ("he was 16.4kg last time"), and when the new statement gives
    another value the line does not hold ("moving the class to Thursdays at 18:00" of "every
    Monday at 17:15": the time alone edited would say "every Monday at 18:00", a fact nobody
    said)."""
    if rep.kind == "workplace":
        return None  # what the line says beside an employer (a role, a team) was of that job
    low = line.lower()
    if _WAS_THEN.search(_clause_around(line, rep.old.start, rep.old.end)):
        return None  # "he was 16.4kg last time": true then, never to be made the new value
    if any(CHANGE.search(part) and names_old_value(part) for part in _SENTENCE_END.split(line)):
        # "Ana changed the date from 3 May to 17 May": an account of a change, true as told;
        # another value edited into it would tell a change nobody made (one sentence tells
        # it: "from midnight" and a "now" of two sentences of one line are no change)
        return None
    for v in values(new_text):
        if (v.start, v.end) == (rep.new.start, rep.new.end) or v.kind == rep.kind:
            continue
        if v.role == "was":
            continue
        if new_text[v.start : v.end].lower() in low:
            continue
        if v.kind == "weekday" or v.norm.lower() not in low:
            # "on Saturdays they shut at 1pm" of "open Monday to Saturday, 9:00 to 17:30":
            # the day narrows the value to itself, which the line does not
            return None
    old = line[rep.old.start : rep.old.end]
    if rep.kind == "venue" and (
        _HOME.search(old)
        or _HOME.search(new_text[rep.new.start : rep.new.end])
        or re.match(r"\s+in\s+[A-Z]", line[rep.old.end :])
    ):
        # "at the Crown in Leeds" is not made "at the Tom's in Leeds": the place said with
        # the old venue is of it, and a home is said without "the"; the line goes whole
        return None
    if rep.kind == "date":
        d = date.fromisoformat(rep.new.norm)
        head = line[: rep.old.start]
        if head.endswith("("):
            phrase = _DATE_WORDS.search(head[:-1])
            cut = rep.old.start - 1
            if phrase is None or not re.search(r"\d|[A-Za-z]{3}", phrase.group(0)):
                return None  # the day said in words this edit cannot read: the line goes whole
            if phrase is not None:
                lead = re.match(r"(?:\s|,|\b(?:on|of)\b)*", phrase.group(0), re.I)
                cut = phrase.start() + (lead.end() if lead else 0)
                if cut and line[cut - 1] not in " ,(":
                    return None  # the phrase begins inside a word or a number
                if cut >= rep.old.start - 2:
                    cut = rep.old.start - 1  # no day said before it: the date alone
            tail = line[rep.old.end :]
            if not tail.startswith(")"):
                return None
            said = f"{d.strftime('%A')} {d.day} {d.strftime('%B')} ({rep.new.norm})"
            return line[:cut] + said + tail[1:]
        return line[: rep.old.start] + rep.new.norm + line[rep.old.end :]
    new = new_text[rep.new.start : rep.new.end]
    if rep.new.kind == "number" and rep.kind == "amount":
        cur = re.match(r"[£$€]", old)
        new = (cur.group(0) if cur else "") + new
    if rep.kind == "time" and re.search(r"\d:\d\d$", old) and rep.new.norm:
        new = rep.new.norm  # the line's own way of writing times
    return line[: rep.old.start] + new + line[rep.old.end :]


#: Where a sentence of a line ends.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
#: The most values a line may hold and still have one edited: a whole plan read out, one
#: value edited, would leave the rest stale.
EDITED_MOST = 5


def edited_in_session(
    text: str, line: str, *, before: str, said_on: date | None = None
) -> tuple[str, Replacement] | None:
    """`line`, said earlier in the session, with the value `text` replaces edited in place,
    when the line says more than that value ("Fees are £1,450 a month, starting 7 April" of
    "the start is 14 April"): what else it said stays current with the new value. None when
    the line says nothing else, holds a whole plan, or cannot be edited alone (`edit`)."""
    reps = [r for r in replacements(text, line, before=before, said_on=said_on) if r.cued]
    rep = choose({line: reps}) if reps else None
    said = values(line)
    if rep is None or len(said) > EDITED_MOST:
        return None
    if rep.kind == "date" and said_on is not None and rep.old.norm < said_on.isoformat():
        return None  # a day gone by is when something happened, never to be made another
    if not rep.alike and not any((v.start, v.end) != (rep.old.start, rep.old.end) for v in said):
        return None  # the line said only the value: the new statement says it all
    edited = edit(line, rep, text)
    if edited is None or edited == line or not says_all_figures(edited, text):
        return None
    return edited, rep


_FIGURE = re.compile(r"\d+(?:[.,:]\d+)*")


def says_all_figures(edited: str, text: str) -> bool:
    """Whether every figure `text` gives is in `edited`: a statement that changes two
    values ("now £8,090 and the job 11 working days") of a line edited for one of them
    would leave the other stale ("10 working days")."""
    have = set(_FIGURE.findall(edited))
    return all(f in have for f in _FIGURE.findall(_ISO.sub(" ", text)))


def replaced_earlier(text: str, earlier: list[str], *, said_on: date | None = None) -> int | None:
    """Which of the `earlier` statements of the session `text` gives a later value for the
    same thing: its index, or None when none or two could be meant. Within one session a
    word of change must say so in the clause of the new value: two values said side by side
    without one ("I fly out on Tuesday", "then Saturday I fly on") are two facts."""
    if not earlier or not (
        CHANGE.search(text) or _NOT_THEN_NEW.search(text) or _NOT_THE_OLD.search(text)
    ):
        return None
    before = earlier[-1]
    found: dict[str, list[Replacement]] = {}
    index: dict[str, int] = {}
    for i, said in enumerate(earlier):
        # the sentence just before is what "it" means ("the MOT was booked for the 12th. …
        # so it's now the 19th instead"), of itself too
        reps = [r for r in replacements(text, said, before=before, said_on=said_on) if r.cued]
        if reps:
            found.setdefault(said, []).extend(reps)
            index[said] = i
    rep = choose(found)  # within a session: one statement at most
    return None if rep is None else index[rep.line]


#: A state that ends what a line said of a thing, named by the kind of line it ends: a debt
#: or a payment to make paid ("paid me back", "settled", "we're square"), a task done ("(done)",
#: "×", "ticked off"), an event or a plan called off ("is off", "cancelled", "fell through",
#: "can't drive us after all").
_ENDED = re.compile(
    # a job left ("I left Halcyon", "Jo quit Arden Homes", "no longer works at …")
    r"(?P<left>\b(?:left|quits?|resigned\s+from|no\s+longer\s+(?:work(?:s|ing)?|employed)\s+"
    r"(?:at|for)|finished\s+(?:work\s+)?at)\s+(?=[A-Z]))"
    r"|(?P<paid>\b(?:paid|repaid|settled|squared)\s+(?:\w+\s+){0,2}?(?:back|up|off)\b"
    r"|\b(?:repaid|settled|paid)\b|\b(?:is|are|'s|'re|now)\s+(?:square|quits)\b)"
    r"|(?P<done>\(\s*(?:done|completed)\s*\)|(?:^|\s)[×✓✔](?=\s)"
    r"|\b(?:done|completed|finished|ticked\s+off)\b)"
    r"|(?P<off>\b(?:is|are|'s|'re|been|got|now)\s+(?:off(?!\s+(?:to|on|for|out|home|sick|work)\b)"
    r"|cancell?ed|called\s+off|scrapped)\b"
    r"|\bcancell?ed\b|\bcalled\s+off\b|\bf[ae]ll(?:s|en)?\s+through\b"
    r"|\b(?:can(?:'t|’t|not)|isn't|aren't|won't)\b[^.;:]*?\bafter\s+all\b)",
    re.I,
)
#: A line a payment ends: a debt, a bill, something to pay.
_OWING = re.compile(
    r"\b(?:owes?|owed|owing|lent|borrowed|IOU|invoice|bill|pay|due|deposit|fee)\b", re.I
)
#: A line a "done" ends: something to do.
_TO_DO = re.compile(
    r"^\W*(?:to\s*-?\s*do\b|\[\s\]|•)|\b(?:need(?:s)?\s+to|ha(?:ve|s)\s+to|must|remember\s+to|"
    r"should)\b|^(?:[\w ]{1,20}:\s*)?(?:pay|ring|call|book|send|buy|e-?mail|fix|renew|return|"
    r"post|order|chase|collect|submit|sign|file|write|pick\s+up|finish)\b",
    re.I,
)
#: A line a "called off" ends: something planned, said with its day or as to come.
_PLANNED = re.compile(
    r"\b(?:will|'ll|’ll|going\s+to|gonna|booked|planned|plan(?:s|ning)?|is\s+on|are\s+on|"
    r"offered|promised|agreed|arranged|coming|happening)\b",
    re.I,
)
#: The words of a state ended, not of the thing it is of.
_ENDED_WORDS = frozenset(
    {"paid", "repaid", "settled", "squared", "back", "done", "completed", "finished", "ticked",
     "off", "cancelled", "canceled", "called", "fell", "fallen", "falls", "through", "after",
     "all", "square", "quits", "btw", "can't", "cannot", "isn't", "aren't", "won't"}
)  # fmt: skip
_IF = re.compile(r"\b(?:if|unless|whether|in\s+case)\b", re.I)


def _named(text: str) -> set[str]:
    """The capitalised words of `text` that can name someone or something, lower-cased,
    a clause's first word too ("Dev can't drive us after all")."""
    out = set()
    for w in re.findall(r"\b[A-Z][\w'’-]+", text):
        w = re.sub(r"['’]s$", "", w)
        if w not in lang.NOT_NAMES and w.lower() not in _NOT_THING | _ENDED_WORDS:
            out.add(w.lower())
    return out


def _ended_clauses(text: str) -> list[tuple[str, str, str]]:
    """(the clause, the words saying the state, its kind) for each state `text` says ended,
    but not one asked about, said under a condition, or said not to hold."""
    if "?" in text:
        return []
    out = []
    for m in _ENDED.finditer(text):
        starts = [0] + [e.end() for e in _CLAUSE_END.finditer(text) if e.end() <= m.start()]
        ends_at = [e.start() for e in _CLAUSE_END.finditer(text) if e.start() >= m.end()]
        clause = text[starts[-1] : ends_at[0] if ends_at else len(text)]
        rest = clause.replace(m.group(0), " ")
        if _NEGATED.search(rest) or _STILL.search(rest) or _IF.search(clause):
            continue  # "hasn't paid yet", "still not done", "if it's cancelled"
        out.append((clause, m.group(0), m.lastgroup or ""))
    return out


def says_ended(text: str) -> bool:
    """Whether `text` says of someone or something named that a state ended ("Priyanka paid
    me back btw"): worth a line, short as it is, for the line it ends."""
    return any(_named(c) or values(c) for c, _, _ in _ended_clauses(text))


def may_end(text: str) -> bool:
    """Whether `text` can end a line (`ends`) or pass a role (`takes_role`) at all: the cheap
    test before memory is searched for the line."""
    return (
        bool(_ended_clauses(text))
        or (bool(_HANDED.search(text)) and bool(roles(text)))
        or (bool(_PASSED.search(text)) and _TASK.search(text) is not None)
    )


def ends(text: str, line: str) -> bool:
    """Whether `text` (said later) ends what the current `line` states, a status changed: a
    debt paid ("Sam paid me back" of "Sam owes me £30"), a task done ("Pay the plumber's
    invoice £90 (done)" of "Pay the plumber's invoice £90"), an event or a plan called off
    ("Saturday's match is off" of the match's line with its day, "Jo can't take us after
    all" of "Jo says she'll take us"). The clause saying so names what it ends: every name
    it says is in the line, and two words of the thing, or a name and one, or the day of
    an event the sentence names a word of. A question, a condition, a state said not to hold
    ("hasn't paid yet") or still to come, and a line that says the state already end
    nothing; the caller acts only when exactly one line fits."""
    if _ENDED.search(line):
        return False
    line_thing = thing_words(line)
    line_words = {re.sub(r"['’]s$", "", w.lower()) for w in re.findall(r"[\w'’-]+", line)}
    ended = {lang.stem(w) for w in _ENDED_WORDS} | _ENDED_WORDS
    line_values = {(v.kind, v.norm) for v in values(line)}
    for clause, _, kind in _ended_clauses(text):
        if kind == "left":
            if _left_job(clause, line):
                return True
            continue
        if kind == "paid" and not _OWING.search(line):
            continue
        if kind == "done" and not (_TO_DO.search(line) or _OWING.search(line)):
            continue
        if kind == "off" and not (_PLANNED.search(line) or line_values):
            continue
        names = _named(clause)
        if not names <= line_words:
            continue  # "Kit paid me back" is not of Sam's debt
        thing = thing_words(clause) - ended - {lang.stem(n) for n in names} - names
        shared = _same(thing, line_thing)
        said = {(v.kind, v.norm) for v in values(clause) if v.kind != "weekday"}
        if len(shared) >= 2 or (names and shared):
            return True
        # the day of the event: a word of the sentence must name it too ("St Luke's hall
        # flooded, so Thursday's rehearsal is off" of the sheet's row for that day)
        if any(k in ("date", "time") for k, _ in said & line_values) and _same(
            thing_words(text) - ended, line_thing
        ):
            return True
        if kind == "paid" and (names or said) and said <= line_values and _OWING.search(line):
            return True  # "Sam paid me back" of "Sam owes me £30"
    return False


_LEAVER = re.compile(
    r"(\w+)\W+(?:have\s+|has\s+|had\s+|just\s+|finally\s+)*(?:left|quits?|resigned|"
    r"no\s+longer|finished)\b",
    re.I,
)


def _left_job(clause: str, line: str) -> bool:
    """Whether `clause` ("I left Halcyon in January") says the one who works where `line`
    says ("The user works at Halcyon as a data analyst") left that job: the employer named
    in the clause, and the same one leaving."""
    places = [v for v in values(line) if v.kind == "workplace"]
    if len(places) != 1 or (at := clause.lower().find(places[0].norm)) < 0:
        return False
    if re.match(r"['’]s\b", clause[at + len(places[0].norm) :]):
        return False  # "I left Halcyon's party early": something of the firm's, not the job
    leaver = _who(_LEAVER.search(clause))
    return leaver is not None and leaver == _worker(line, places[0].start)


#: A word for a role: the language's, and those of clubs, committees and teams.
_ROLE_WORD = (
    rf"(?:{lang._ROLE_WORD}|treasurer|secretary|chair(?:person|man|woman)?|vice-captain|"
    r"captain|president|editor|organi[sz]er|rep|representative|steward|warden|caretaker|"
    r"convenor|coordinator|"
    # one who works for someone in a home, a ward or a case: "her key worker", "his support
    # worker", "our youth worker"
    r"worker)"
)
#: Whose the role is when a name or a kin word owns it: "Mum's key worker", "Ana's tutor".
_OWNER = r"(?P<owner>[A-Za-z][\w-]*)['’]s\s+"
#: A role said the one way of a team ("the QA lead", "our treasurer", "QA lead" after a
#: label), not one of several ("a designer").
_ROLE_PHRASE = (
    rf"(?:(?:the|our|my|their|his|her|new|acting|interim)\s+|(?!(?i:the\s+user)){_OWNER})*"
    rf"(?P<role>(?:[\w-]+\s+){{0,2}}?{_ROLE_WORD})s?\b"
)
#: How a page writes what the assistant found and the user accepted, before the line itself.
_FOUND = r"Found\s+by\s+the\s+assistant\s+and\s+accepted\s+by\s+the\s+user:"
#: Someone in a role: "Bence is the QA lead now", "Tom takes over as site manager", "the
#: treasurer is now Lidia Novak", "Nagy Eszter: QA lead".
_ROLES = (
    re.compile(
        rf"(?P<name>{lang.NAME})\s+(?:is\s+(?:now\s+)?acting\s+as|acts\s+as|is|'s|becomes|will\s+be|"
        rf"takes\s+over\s+as|"
        rf"has\s+taken\s+over\s+as|took\s+over\s+as|steps\s+in\s+as|is\s+stepping\s+in\s+as|"
        rf"replaces\s+\w+\s+as|is\s+replacing\s+\w+\s+as|joins\s+as|"
        rf"(?:has\s+)?(?:taken|takes|took|is\s+taking)\s+over\s+from\s+{lang.NAME}\s+as)"
        rf"\s+(?:now\s+)?"
        rf"(?!an?\s){_ROLE_PHRASE}"
    ),
    re.compile(
        rf"(?:\b(?P<whose>(?i:the\s+user['’]s|the|our|my|their|his|her))\s+|\b(?!(?i:user)){_OWNER})"
        rf"(?i:new\s+)?"
        rf"(?P<role>(?:[\w-]+\s+){{0,2}}?(?i:{_ROLE_WORD}))\s+(?:is|'s)\s+(?:now\s+)?"
        rf"(?P<name>{lang.NAME})"
    ),
    re.compile(rf"^(?:[-*]\s+)?(?:{_FOUND}\s+)?(?P<name>{lang.NAME}):\s+{_ROLE_PHRASE}"),
    # the new one named after the role: "we have a new landlord now, Mrs Okafor", "my new
    # GP: Dr Sato"
    re.compile(
        rf"\b(?P<whose>(?i:the\s+user['’]s|a|the|our|my|their|his|her))\s+(?i:new)\s+"
        rf"(?P<role>(?:[\w-]+\s+){{0,2}}?(?i:{_ROLE_WORD}))(?:\s+now)?\s*[,:–—-]\s*"
        rf"(?P<name>{lang.NAME})"
    ),
)
#: The one a role is of, as the user says it and as a page writes it.
_WHOSE = {"my": "user", "the user's": "user", "his": "his", "her": "her"}
#: Words that say a role passed to someone: "takes over", "replaces", "new".
_HANDED = re.compile(
    r"\b(?:takes?\s+over|taking\s+over|took\s+over|taken\s+over|replac(?:e|es|ed|ing)|"
    r"steps?\s+in|stepping\s+in|new|now|instead|from\s+now\s+on)\b",
    re.I,
)


def roles(text: str) -> list[tuple[frozenset[str], frozenset[str], int]]:
    """(the role's words, the words of who holds it, where it is said) for each role `text`
    gives someone the one way ("Bence is the QA lead"); not one asked about, said not to
    hold or told as history ("Eszter was the QA lead")."""
    out = []
    for pattern in _ROLES:
        for m in pattern.finditer(text):
            clause = m.group(0)
            if "?" in text or _NEGATED.search(clause) or _HISTORY.search(clause):
                continue
            role = frozenset(lang.stem(w.lower()) for w in re.findall(r"[\w-]+", m.group("role")))
            # whose role it is: "my manager" is not "her manager" (a team's, "the" or "our
            # treasurer", is one role)
            whose = (m.groupdict().get("whose") or "").lower().replace("’", "'")
            if whose in _WHOSE:
                role |= {f"whose:{_WHOSE[whose]}"}
            elif owner := m.groupdict().get("owner"):
                role |= {f"whose:{owner.lower()}"}  # "Mum's key worker": Mum's, not mine
            who = frozenset(w.lower() for w in re.findall(r"[\w'’-]+", m.group("name")))
            out.append((role, who, m.start()))
    return out


def takes_role(text: str, line: str) -> bool:
    """Whether `text` (said later) gives the role the current `line` gives someone to
    another person, saying it passed ("Kovács Bence is the QA lead now" of "Nagy Eszter: QA
    lead, from the Budapest office"): the same role's words, another holder, a word of
    change. A role both are said to hold in `text`, or a holder of the line that `text` also
    names in it, replaces nothing; the caller acts only when exactly one line fits, or when
    every line that fits names the same one as its holder (`passed_from`)."""
    return bool(passed_from(text, line))


def passed_from(text: str, line: str) -> frozenset[str]:
    """The words of the one the current `line` says holds the role that `text` (said later)
    says passed to another (`takes_role`); empty when it says of no such role."""
    if "?" in text or not _HANDED.search(text):
        return frozenset()
    said = roles(text)
    for role, who, _ in said:
        for old_role, old_who, _ in roles(line):
            if old_role != role or old_who & who:
                continue
            if any(r == role and w & old_who for r, w, _ in said):
                continue  # "Ana and Ben are the leads now": Ana's line holds still
            return old_who
    return frozenset()


#: Someone doing a task: "Barry next door is feeding the cat", "Lena is walking Bo".
_TASK = re.compile(
    rf"(?P<name>{lang.NAME})(?:\s+(?!is\b|are\b|will\b)(?:[a-z][\w'’-]*|\d+)){{0,3}}?\s+"
    r"(?:is|are|will\s+be|'s)\s+(?P<task>[a-z]+ing\s+(?:(?:the|my|our|his|her|their)\s+)?"
    r"[\w'’-]+)"
)
#: Words that say a task passed to someone: "now", "instead", "from now on", "taking over".
_PASSED = re.compile(r"\b(?:now|instead|from\s+now\s+on|taking\s+over|took\s+over)\b", re.I)
#: Words that say another joins in: "too", "as well", "also".
_JOINS = re.compile(r"\b(?:too|also|as\s+well|both|and\s+me)\b", re.I)


def task_words(text: str) -> set[str]:
    """The words of the tasks `text` says someone does ("feeding", "mittens"): what to
    search memory with for the line that gave a task to someone else."""
    return {w.lower() for m in _TASK.finditer(text) for w in re.findall(r"[\w'’-]+", m["task"])}


def passes_task(text: str, line: str) -> bool:
    """Whether `text` (said later) gives a task the current `line` gives someone to another
    person, saying it passed ("Pauline is feeding Mittens now" of "Barry next door is
    feeding Mittens while I'm away"): the same task, another doer, a word of change, no word
    of joining in ("Ana is feeding him too"); the caller acts only when exactly one line
    fits."""
    if "?" in text or not _PASSED.search(text) or _JOINS.search(text):
        return False
    new = {(m["task"].lower(), m["name"]) for m in _TASK.finditer(text)}
    for m in _TASK.finditer(line):
        task, who = m["task"].lower(), m["name"]
        if any(t == task and w != who for t, w in new) and (task, who) not in new:
            return True
    return False


#: A thing said to be lacking, before what is had "instead": "the pharmacy had no
#: co-codamol", "they'd run out of oat milk", "couldn't get the blue tiles", "the 8:15 ferry
#: was full".
_LACKED = re.compile(
    r"\b(?:(?:ha[ds]|have|there\s+(?:was|were|is|are))\s+no|no\s+more|"
    r"(?:ran|run|were|was|are|is|'d\s+run|had\s+run)\s+out\s+of|"
    r"(?:did|do|does|could|can)(?:n't|n’t|\s+not)\s+(?:have|get|find|stock|supply|do|get\s+hold\s+of)"
    r"(?:\s+any)?)\s+(?:the\s+|any\s+|more\s+)?(?P<old>[\w’'-]+(?:\s+[\w’'-]+){0,2}?)"
    r"(?=\s*(?:[,;.:!—–]|\s-\s|$)|\s+(?:so|and|but|left|in\s+stock|today|any\s*more|now)\b)"
    r"|\b(?:the|their|my|our|his|her)\s+(?P<old2>[\w’'-]+(?:\s+[\w’'-]+){0,2}?)\s+(?:was|were|is|are)"
    r"\s+(?:sold\s+out|out\s+of\s+stock|unavailable|discontinued|not\s+available|fully\s+booked|full)\b",
    re.I,
)
_INSTEAD_ALONE = re.compile(r"\binstead\b(?!\s+of\b)", re.I)


def lacked_instead(text: str) -> str | None:
    """The thing `text` says was lacking when it says another was had instead ("the
    pharmacy had no co-codamol so they gave me dihydrocodeine instead" -> "co-codamol"), or
    None. Only a thing said before "instead", in the same sentence."""
    if "?" in text:
        return None
    at = _INSTEAD_ALONE.search(text)
    if at is None:
        return None
    for m in _LACKED.finditer(text[: at.start()]):
        old = (m.group("old") or m.group("old2") or "").strip()
        if thing_words(old) and not _NEGATED.search(old):
            return old
    return None


def names_thing(line: str, thing: str) -> bool:
    """Whether `line` names `thing` as a word of its own ("co-codamol" in "Co-codamol 30/500
    ii QDS", not in "co-codamols")."""
    return re.search(rf"(?<![\w-]){re.escape(thing)}(?![\w-])", line, re.I) is not None


def lacked_line(text: str, lines: list[str]) -> int | None:
    """Which of `lines` (earlier statements, still current) held the thing `text` says was
    lacking and replaced instead (`lacked_instead`): the one line that names it and not the
    thing had now; of several, the one line that names it first, as what it is about. None
    when none or several could be meant."""
    old = lacked_instead(text)
    if old is None:
        return None
    at = _INSTEAD_ALONE.search(text)
    assert at is not None
    # what is had now: the words of the clause that says "instead", the lacking one left out
    clause = re.split(r"[,;.:]|\b(?:so|and|but)\b", text[: at.start()])[-1]
    now = thing_words(clause) - thing_words(old)
    fits = [
        i
        for i, line in enumerate(lines)
        if names_thing(line, old) and not (now and now <= thing_words(line))
    ]
    if len(fits) > 1:
        first = [
            i
            for i in fits
            if names_thing(" ".join(re.sub(r"^[^:]{0,20}:\s*", "", lines[i]).split()[:3]), old)
        ]
        fits = first
    return fits[0] if len(fits) == 1 else None


#: The next of a series and what it is: "next INR check", "the next service".
_NEXT = re.compile(r"\bnext\s+(?P<what>[\w-]+(?:\s+[\w-]+)?)", re.I)


def next_again(text: str, line: str, said_on: date) -> bool:
    """Whether `text` (said on `said_on`) gives the next of the series the current `line`
    gave the next of ("next check Monday 22 March" of "Next INR check Monday 8 March"),
    once the day the line gave has come: the same word after "next", the line's one date
    on or before `said_on`, a date of `text` after it."""
    if "?" in text:
        return False
    ours = {lang.stem(w.lower()) for m in _NEXT.finditer(text) for w in m.group("what").split()}
    theirs = {lang.stem(w.lower()) for m in _NEXT.finditer(line) for w in m.group("what").split()}
    shared = (ours & theirs) - {lang.stem(w) for w in stopwords.ENGLISH} - {"week", "month", "year"}
    if not shared:
        return False
    old = {d for d in _ISO.findall(line)}
    if len(old) != 1:
        return False
    day = date.fromisoformat("-".join(next(iter(old))))
    new = [date.fromisoformat("-".join(d)) for d in _ISO.findall(text)]
    return day <= said_on and any(d > said_on for d in new)
