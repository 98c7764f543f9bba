"""Resolve: what a sentence means given when and after what it was said.

Dates: relative dates ("next Thursday", "in two weeks", "the 14th") made absolute against
the time the message was sent. Coreference: "he", "her", "my brother" and a nickname meant
as someone named before, or left as said when unsure. Corrections: "X, not Y" sentences,
"make that three" and "Correction on the cake: ..." said of an earlier sentence.

Coreference keeps state (`Context`: who was named, of which gender) and so runs sentence
by sentence, in the order they were said; extract calls it for each sentence it reads.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable
from datetime import UTC, date, datetime, timedelta
from typing import Any

from dateutil.easter import easter

from doctree import stopwords
from doctree.agent.offline import anchored
from doctree.agent.offline import language as lang
from doctree.agent.offline.directory import Directory, person_slug
from doctree.agent.offline.figures import Figures
from doctree.agent.offline.language import (
    MONTHS,
    NOT_NAMES,
    WEEKDAY,
    WEEKDAY_OR_ABBREVIATION,
    WEEKDAYS,
    content_words,
    weekday_number,
)
from doctree.agent.offline.lexicon import common_word, given_gender
from doctree.agent.offline.memo import SIZE, kept_until_forget, remembered, remembered_up_to
from doctree.agent.offline.model import Sentence
from doctree.agent.offline.prefilter import gate_patterns
from doctree.agent.offline.referents import Referents, by_role

# -- dates ----------------------------------------------------------------------------------

_MONTH_ABBR = {m[:3]: i + 1 for i, m in enumerate(MONTHS)} | {
    m: i + 1 for i, m in enumerate(MONTHS)
}
_NUMBERS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10,
}  # fmt: skip
#: A month, full or short; a short one may end with its dot ("Apr."), a full one never does.
_MONTH_RE = (
    r"(?:(?:" + "|".join(MONTHS) + r")\b|(?:jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\b\.?)"
)
#: Lower case, as these languages write them, or capitalised as German nouns are ("März"),
#: so that "3 Mars bars" is no date.
_FOREIGN_MONTH_RE = (
    r"(?-i:"
    + "|".join(
        sorted(
            (set(lang.FOREIGN_MONTHS) | lang.CAPITALISED_MONTHS) - set(MONTHS),
            key=lambda w: (-len(w), w),  # the same text in every process
        )
    )
    + r")\b"
)
_FOREIGN_WEEKDAY_RE = r"(?:" + "|".join(sorted(lang.FOREIGN_WEEKDAYS, key=len, reverse=True)) + ")"
_FIRST_ORDINALS = (
    "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
)  # fmt: skip
_ORDINALS = {
    w: i + 1
    for i, w in enumerate(
        [*_FIRST_ORDINALS, "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth",
         "fifteenth", "sixteenth", "seventeenth", "eighteenth", "nineteenth", "twentieth"]
    )
} | {f"twenty-{w}": 21 + i for i, w in enumerate(_FIRST_ORDINALS)} | {
    "thirtieth": 30, "thirty-first": 31,
}  # fmt: skip
_ORDINAL_RE = "|".join(sorted(_ORDINALS, key=len, reverse=True))
#: "December 3", "3 December", "the 3rd of December", "the third of December".
#: A date said right after a weekday, which names that weekday's day: "Thursday
#: (2031-03-13)", "Thursday's 2031-03-13 call", "Thursday, 13 March", "Thursday (March 13)".
_DATED_AFTER = re.compile(
    r"(?:'s|’s)?,?[ \t]*\(?[ \t]*(?:\d{4}-\d\d-\d\d\b|\d{1,2}(?:st|nd|rd|th)?[ \t]+(?:of[ \t]+)?"
    + _MONTH_RE
    + r"|"
    + _MONTH_RE
    + r"[ \t]+\d{1,2}(?:st|nd|rd|th)?\b)",
    re.I,
)
#: A month's three letters as a compact date writes them, all capitals or capitalised.
_COMPACT_MONTHS = "|".join(f"{m[:3].upper()}|{m[:3].capitalize()}" for m in MONTHS)
_ABSOLUTE = re.compile(
    rf"\b(?P<m1>{_MONTH_RE})\s+(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?\b"
    rf"|\b(?P<d2>\d{{1,2}}|{_ORDINAL_RE})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<m2>{_MONTH_RE})"
    # "22 de abril", "3 mars", "3. März": a day and a month said in another language
    rf"|\b(?P<d3>\d{{1,2}})(?:\.|º|er)?\s+(?:de\s+|di\s+)?(?P<m3>{_FOREIGN_MONTH_RE}|{_MONTH_RE})"
    # a logbook's or a ticket's day, month and year run together: "23MAR31", "04-May-2031"
    rf"|\b(?P<d4>\d{{1,2}})(?P<s4>-?)(?P<m4>(?-i:{_COMPACT_MONTHS}))(?P=s4)(?P<y4>\d{{4}}|\d{{2}})\b",
    re.I,
)


#: What a chained date counts from: "that" (the date said last) or "the <thing>" said
#: earlier with a date ("the Monday after that", "a week before the real exam").
#: A word of a chained date's anchor: lower case, no function word ("race day and" is "race day").
_ANCHOR_WORD = (
    r"(?-i:(?!(?:"
    + "|".join(sorted((w for w in stopwords.ENGLISH if "'" not in w), key=lambda w: (-len(w), w)))
    + r"|today|tomorrow|tonight|now|next|last)\b)[a-z]{3,})"
)


def _anchor(tag: str) -> str:
    # "moving day", "the move", "that": a thing named before with its date
    return rf"(?P<anchor{tag}>that|then|(?:the\s+)?{_ANCHOR_WORD}(?:\s+{_ANCHOR_WORD}){{0,2}})\b"


#: Holidays on a fixed day (month, day) or counted from Easter Sunday (None, days after it):
#: the calendar's feasts and the days most countries that write English keep.
_HOLIDAYS: dict[str, tuple[int | None, int]] = {
    "christmas eve": (12, 24), "christmas day": (12, 25), "christmas": (12, 25),
    "boxing day": (12, 26), "new year's eve": (12, 31), "new year's day": (1, 1),
    "valentine's day": (2, 14), "halloween": (10, 31),
    "burns night": (1, 25), "st david's day": (3, 1), "st patrick's day": (3, 17),
    "st george's day": (4, 23), "independence day": (7, 4), "all saints' day": (11, 1),
    "bonfire night": (11, 5), "remembrance day": (11, 11), "veterans day": (11, 11),
    "st andrew's day": (11, 30),
    "shrove tuesday": (None, -47), "ash wednesday": (None, -46),
    "mothering sunday": (None, -21), "palm sunday": (None, -7), "maundy thursday": (None, -3),
    "good friday": (None, -2), "holy saturday": (None, -1), "easter": (None, 0),
    "easter monday": (None, 1), "ascension day": (None, 39), "pentecost": (None, 49),
    "whit monday": (None, 50), "trinity sunday": (None, 56), "corpus christi": (None, 60),
}  # fmt: skip
#: Holidays on a weekday of a month (month, weekday from Monday = 0, which one: 1 the first,
#: -1 the last).
_NTH_HOLIDAYS: dict[str, tuple[int, int, int]] = {
    "martin luther king day": (1, 0, 3), "presidents' day": (2, 0, 3),
    "early may bank holiday": (5, 0, 1), "spring bank holiday": (5, 0, -1),
    "memorial day": (5, 0, -1), "father's day": (6, 6, 3), "labor day": (9, 0, 1),
    "summer bank holiday": (8, 0, -1), "thanksgiving": (11, 3, 4),
}  # fmt: skip
#: A holiday's name in the ways people write it, each read as one of `_HOLIDAYS` or
#: `_NTH_HOLIDAYS` by `_holiday_name`. "Good Friday" only capitalised ("had a good friday" is
#: no holiday), and so are the names that are also ordinary words ("a palm sunday service" is
#: one; "independence day" of a country's own is another day).
_HOLIDAY_RE = (
    r"(?P<hol>(?:christmas|x-?mas)(?:\s+(?:eve|day))?|boxing\s+day"
    r"|new\s+years?['’]?s?\s+(?:eve|day)|(?-i:NYE)|valentine['’]?s(?:\s+day)?|hallowe['’]?en"
    r"|easter(?:\s+(?:sunday|monday|day))?|(?-i:Good\s+Friday|GOOD\s+FRIDAY)"
    r"|shrove\s+tuesday|pancake\s+day|ash\s+wednesday|mothering\s+sunday|palm\s+sunday"
    r"|maundy\s+thursday|holy\s+saturday|ascension(?:\s+day)?|pentecost(?:\s+sunday)?"
    r"|whit(?:\s*sunday|\s+monday)|trinity\s+sunday|corpus\s+christi"
    r"|burns\s+night|st\.?\s+(?:david|patrick|george|andrew)['’]?s\s+day|bonfire\s+night"
    r"|guy\s+fawkes(?:\s+night)?|(?-i:Independence\s+Day)|fourth\s+of\s+july|4th\s+of\s+july"
    r"|all\s+saints['’]?\s+day|remembrance\s+day|veterans['’]?\s+day"
    r"|(?:martin\s+luther\s+king(?:\s+jr\.?)?|mlk)\s+day|presidents['’]?\s+day"
    r"|(?:the\s+)?(?:early\s+may|spring|summer|august|late\s+may)\s+bank\s+holiday(?:\s+monday)?"
    r"|memorial\s+day|father['’]?s\s+day|labou?r\s+day|thanksgiving)"
)
#: What an ordinal counts when it is no day of a month: "her 7th birthday", "the 3rd floor",
#: "2nd flr", "1st class".
_ORDINAL_NOUNS = (
    r"b-?day|birthday|anniversary|floor|flr|fl|storey|story|grade|year|time|place|row|attempt|"
    r"round|edition|century|generation|draft|week|lap|class|gear|half|quarter|team|innings|leg|"
    # "the 3rd month, 12th day" of a calendar counted otherwise (a lunar date), "the 2nd day
    # of the trip": a count of months or days, no day of a month
    r"month|day|stage|step|level|chapter|episode"
)

_RELATIVE = re.compile(
    r"\b(?:"
    # "Christmas Eve", "the day after Boxing Day", "two days before Easter": a holiday
    r"(?P<holiday>(?:(?:(?P<hpart>the\s+(?:day|morning|afternoon|evening|night))"
    r"|(?P<hn>\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten)\s+(?P<hunit>days?|weeks?)"
    # "the first Thursday back after Easter": the first of that weekday after the holiday
    rf"|(?:the\s+)?(?:first\s+)?(?P<hwd>{WEEKDAY})(?:\s+back)?)"
    rf"\s+(?P<hdir>before|after)\s+)?{_HOLIDAY_RE})"
    r"|(?P<dat>(?:the\s+)?day\s+after\s+tomorrow)"
    # "the Wednesday of W15", "Friday in week 2039-W22": a day of a week numbered as ISO does
    rf"|(?P<isowk>(?:the\s+)?(?P<iwd>{WEEKDAY})\s+(?:of|in)\s+(?:(?:ISO\s+)?week\s+)?"
    r"(?:(?P<iy>\d{4})-?)?W(?P<iw>[0-4]?\d|5[0-3])\b"
    rf"|(?:the\s+)?(?P<iwd2>{WEEKDAY})\s+(?:of|in)\s+ISO\s+week\s+(?P<iw2>[0-4]?\d|5[0-3])\b)"
    rf"|(?P<nth>(?:the\s+)?(?P<ord>first|second|third|fourth|last|1st|2nd|3rd|4th)\s+"
    rf"(?P<nwd>{WEEKDAY})\s+(?:of|in)\s+(?:(?P<nwhich>the|this|next|every|each)\s+month|(?P<nmonth>{_MONTH_RE})))"
    # "Saturday week", "a week on Saturday", "Tuesday fortnight": a week or two after the coming one
    # ("a week Tuesday" too, not "once a week Tuesday" or "twice a week Friday")
    rf"|(?P<wdweek>(?:(?<!once\s)(?<!twice\s)(?<!times\s)a\s+(?P<wwu3>week|fortnight)\s+"
    rf"(?:on\s+)?|(?P<wwu>week|fortnight)\s+on\s+)(?P<wwd>{WEEKDAY})"
    rf"|(?P<wwd2>{WEEKDAY})\s+(?P<wwu2>week|fortnight)(?![\w-]))"
    r"|(?P<tomorrow>tomorrow)"
    r"|(?P<yesterday>yesterday|last\s+night)"
    r"|(?P<today>today|tonight|this\s+(?:morning|afternoon|evening))"
    r"|(?P<nextweek>next\s+week)\b(?!end)"
    r"|(?P<lastweek>last\s+week)\b(?!end)"
    r"|(?P<weekend>(?:this|next)\s+weekend)"
    r"|(?P<inn>(?:in|(?<=due\s)for)\s+(?P<n>\d+|a|an|one|two|three|four|five|six|seven|eight|"
    r"nine|ten)\s+(?P<unit>days?|weeks?|fortnights?|months?|years?))"
    # "by the end of the month", "end of next month": the month's last day
    r"|(?P<monthend>(?:the\s+)?end\s+of\s+(?P<mewhich>the|this|next)\s+month)"
    r"|(?P<fromnow>(?P<fn>\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten)\s+"
    r"(?P<funit>days?|weeks?|fortnights?|months?|years?)\s+(?:(?:from|after)\s+(?:today|now)"
    r"|(?P<fday>today|tomorrow)))"
    rf"|(?P<chainwd>(?:the\s+)?(?P<cday>{WEEKDAY})\s+(?P<cdir>after|before)\s+{_anchor('w')})"
    r"|(?P<chainn>(?P<cn>\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten)\s+"
    rf"(?P<cunit>days?|weeks?)\s+(?P<cndir>after|before)\s+{_anchor('n')})"
    # "the day before moving day", "the evening after the party": one day from it
    r"|(?P<chaind>the\s+(?:day|morning|afternoon|evening|night)\s+(?P<cddir>after|before)\s+"
    rf"{_anchor('d')})"
    rf"|(?P<afternext>(?P<day2>{WEEKDAY})\s+after\s+next|the\s+week\s+after\s+next)"
    # "the" also as creoles spell it after a weekday: "Thursday di 18th", "Friday de 3rd"
    rf"|(?P<dom>(?:(?:on\s+)?(?P<domwd>{WEEKDAY_OR_ABBREVIATION}),?\s+(?:d[ie]\s+)?)?(?:the\s+)?"
    # "her 21st", "Ana's 40th", "our 25th": a count of a person's years, no day of a month
    r"(?<!\bmy\s)(?<!\bour\s)(?<!\bher\s)(?<!\bhis\s)(?<!\byour\s)(?<!\btheir\s)(?<!['’]s\s)"
    r"(?P<n2>[1-9]|[12]\d|3[01])"
    r"(?:st|nd|rd|th)(?:\s+of\s+(?P<thismonth>this|next)\s+month"
    # the commercial style's month: "the 5th inst." (this), "ult." (last), "prox." (next)
    r"|\s+(?P<commercial>inst(?:ant)?|ult(?:imo)?|prox(?:imo)?)\b\.?)?"
    rf"(?!\s+(?:of\s+)?{_MONTH_RE})"
    # "her 7th birthday", "the 3rd floor": an ordinal of something else, no day of a month
    rf"(?![*_]{{0,2}}\s+(?:{_ORDINAL_NOUNS})\b)"
    # "the 25th wedding anniversary", "a 3rd birthday party": one word of what it is before
    r"(?!\s+[a-z]+\s+(?:b-?day|birthday|anniversary)\b))"
    # "Fri 3", "Thurs 14 at 2": a weekday and a bare day of the month, no time or count
    rf"|(?P<wdn>(?:on\s+)?(?P<wdnwd>{WEEKDAY_OR_ABBREVIATION}),?\s+(?P<n3>[1-9]|[12]\d|3[01])"
    # (not "Thursday 5-a-side", "Sat 3-day pass": a count joined to a word)
    r"(?![\d:.,/]\d|\s*(?:%|am\b|pm\b|a\.m|p\.m|h\b|x\b|-\s*\d)|-[^\W\d_])"
    rf"(?!\s+(?:of\s+)?(?:{_MONTH_RE}|{_FOREIGN_MONTH_RE}))(?=\s*(?:$|[,;.!?)]|at\b|@|-|–|—|\()))"
    # "by the wed before", "the day after": counted from the date said last, none named;
    # "the day after to fit it", "the night before at the hotel": from one said before it in
    # the sentence (a word no event's name starts with follows)
    rf"|(?P<chainbare>the\s+(?:(?P<bwd>{WEEKDAY})|(?P<bday>day|morning|afternoon|evening|night))"
    r"\s+(?P<bdir>before|after))(?=\s*(?:[.,;:!?)]|$|(?P<bgoes>to|at|with)\s+[^\W\d_]"
    # "packing is the day before as before": a word of as it was set, after
    r"|as\s+(?:before|usual|planned|agreed|arranged)\b))"
    # "el martes", "le 24", "il sabato": a weekday or a day of the month in another language
    rf"|(?<=\b(?:el|le|il)\s)(?P<fwd>(?-i:{_FOREIGN_WEEKDAY_RE}))(?!\s+\d)"
    rf"|(?<=\b(?:el|le|il)\s)(?P<fdom>[1-9]|[12]\d|3[01])(?![.:,/]\d|\s*%|\s+(?:de|di|del)\s)"
    rf"(?!\.?\s+(?:{_FOREIGN_MONTH_RE}|{_MONTH_RE}))"
    rf"|(?P<wd>(?:(?P<mod>this|next|last|coming|on)\s+)?(?P<day>{WEEKDAY}))"
    # "Friday 3:30", "Fri 10am" are that Friday; "Friday 22nd", "Friday 3 March" are a date
    rf"(?!,?\s+(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)?\b(?![:.]\d|\s*(?:am|pm)\b)"
    rf"|,?\s+{_MONTH_RE}\s+\d)"
    r")\b",
    re.I,
)
_DAY_NUM = r"(?:3[01]|[12]\d|0?[1-9])"
_ANY_MONTH = rf"(?:{_MONTH_RE}|{_FOREIGN_MONTH_RE})"
#: Two days of one stretch of time: "from the 14th to the 17th", "14-17 March", "March
#: 14-17", "du 14 au 17", "vom 14. bis 17.", "del 14 al 17", "dal 14 al 17".
_RANGE = re.compile(
    rf"\b(?:from\s+)?(?:the\s+)?(?P<a1>{_DAY_NUM})(?P<s1>st|nd|rd|th)?"
    # the last day with its weekday and its month ("Wednesday 4 to Saturday 7 March"): the
    # weekday of the first stands before it, outside the stretch
    rf"\s*(?:-|–|—|to|till|until|through|thru)\s*(?:{WEEKDAY_OR_ABBREVIATION},?\s+"
    rf"(?=(?:the\s+)?{_DAY_NUM}(?:st|nd|rd|th)?\s+(?:of\s+)?{_ANY_MONTH}\b))?"
    rf"(?:the\s+)?(?P<b1>{_DAY_NUM})(?P<t1>st|nd|rd|th)?"
    rf"(?:\s+(?:of\s+)?(?P<m1>{_ANY_MONTH}))?(?![\d:.]\d|\s*(?:%|am\b|pm\b))"
    rf"|\b(?P<m2>{_MONTH_RE})\s+(?P<a2>{_DAY_NUM})(?:st|nd|rd|th)?\s*(?:-|–|—|to|till|until|through)"
    rf"\s*(?P<b2>{_DAY_NUM})(?:st|nd|rd|th)?\b(?![:.]\d|\s*(?:am|pm)\b)"
    rf"|\b(?:du|del|dal|vom)\s+(?P<a3>{_DAY_NUM})(?:\.|er|º)?\s+(?:au|al|bis(?:\s+(?:zum|einschließlich))?)"
    rf"\s+(?P<b3>{_DAY_NUM})\b\.?(?:\s+(?:de\s+|di\s+)?(?P<m3>{_ANY_MONTH}))?(?![.:,]?\d|\s*%)"
    # "de 12 a 19 de abril", "desde el 3 hasta el 5 de mayo", "do dia 3 ao dia 5 de maio":
    # words that say a stretch in Spanish and Portuguese, only with the month after them
    rf"|\b(?:de|desde(?:\s+el)?|do(?:\s+dia)?)\s+(?P<a4>{_DAY_NUM})\s+(?:a|hasta(?:\s+el)?"
    rf"|ao(?:\s+dia)?|até(?:\s+(?:o\s+)?dia)?)\s+(?P<b4>{_DAY_NUM})\s+(?:de\s+)?"
    rf"(?P<m4>{_ANY_MONTH})(?![.:,]?\d)",
    re.I,
)
_ORDINAL_OF = re.compile(rf"\s+(?:{_ORDINAL_NOUNS})\b", re.I)
#: A day counted in a calendar of numbered months: "the 3rd month, 12th day".
_COUNTED_DAY = re.compile(
    r"\b(?:[1-9]|1[0-3])(?:st|nd|rd|th)[*_]{0,2}\s+month\b[^.!?]{0,12}?\b"
    r"(?:[1-9]|[12]\d|30)(?:st|nd|rd|th)[*_]{0,2}\s+day\b",
    re.I,
)
#: A weekday's noun said to come round each week: "the Saturday puzzle every week", "our
#: Thursday class, weekly".
_EVERY_WEEK = re.compile(
    r"(?:\s+(?!(?:and|but|or|then|so|until|till|because|after|before)\b)[a-z][\w'’-]*){1,3}?"
    r",?\s+(?:(?:every|each)\s+(?:single\s+)?week|weekly)\b",
    re.I,
)
_RECURRING_AFTER = re.compile(r"\s*(?:s\b|mornings|afternoons|evenings|nights)", re.I)


@remembered_up_to(SIZE, shared=True)
def message_date(time: str) -> date:
    """The UTC calendar date of an ISO 8601 message time."""
    dt = datetime.fromisoformat(time.replace("Z", "+00:00"))
    if dt.tzinfo is not None:
        dt = dt.astimezone(UTC)
    return dt.date()


#: The time said right after a weekday: "morning at 11", "at 6pm", "evening", "at 9.30".
_HOUR_AFTER_DAY = re.compile(
    r"\W*(?:(?P<part>morning|afternoon|lunchtime|evening|night)\b)?\W*(?:(?:at|@|from)\s+)?"
    r"(?:(?P<h>\d{1,2})(?:[:.](?P<min>\d\d))?\s*(?P<ampm>[ap]\.?m\b\.?)?)?",
    re.I,
)
_PART_HOUR = {"morning": 9.0, "afternoon": 14.0, "lunchtime": 12.5, "evening": 18.0, "night": 20.0}


def _hour_said(after: str) -> float | None:
    """The hour of the day said right after a weekday ("morning at 11" 11, "at 6" 18, "at
    6pm" 18, "evening" 18), None without one. A clock hour from 1 to 7 without "am" is the
    afternoon's, as appointments are; one after "evening" or "night" too."""
    m = _HOUR_AFTER_DAY.match(after)
    if m is None or not (m.group("h") or m.group("part")):
        return None
    part = (m.group("part") or "").lower()
    if not m.group("h"):
        return _PART_HOUR[part]
    h = int(m.group("h"))
    if h > 23:
        return None
    ampm = (m.group("ampm") or "").lower()[:1]
    if ampm == "p" and h < 12 or not ampm and h < 12 and (h < 8 or part in ("evening", "night")):
        h += 12
    return h + int(m.group("min") or 0) / 60


def _next_weekday(ref: date, wd: int, *, include_today: bool = False) -> date:
    delta = (wd - ref.weekday()) % 7
    if delta == 0 and not include_today:
        delta = 7
    return ref + timedelta(days=delta)


#: Where a clause ends: a colon (not one inside a time, "12:00"), a semicolon, a comma, "and".
_CLAUSE_END = re.compile(r"(?<!\d):|:(?!\d)|;|,\s|\s(?:and|but|while|whereas)\s|\s[-–—]\s")


def _clause_span(text: str, pos: int) -> tuple[int, int]:
    start = max((m.end() for m in _CLAUSE_END.finditer(text, 0, pos)), default=0)
    nxt = _CLAUSE_END.search(text, pos)
    return start, nxt.start() if nxt else len(text)


def clause_at(text: str, pos: int) -> str:
    """The clause of `text` around position `pos`: "Support replied: the courier comes on
    Friday" has "the courier comes on Friday" around "Friday"."""
    start, end = _clause_span(text, pos)
    return text[start:end]


#: A verb of telling before what was told: "she mentioned (that) …", "he told me …".
_REPORTED = re.compile(
    r"\b(?:mentioned|said|says|told\s+(?:me|us|him|her|them)|wrote|texted|messaged|e-?mailed|"
    r"explained|confirmed|announced|reckons|reckoned|let\s+(?:me|us)\s+know)\s+(?:that\s+)?",
    re.I,
)


#: The speaker's own earlier word for a value right before a day: "I said the 4th", "I told
#: you Friday", "I put down the 9th" (what was said, which the sentence goes on to correct).
_SAID_AS_VALUE = re.compile(
    r"\bI\s+(?:said|wrote|typed|put(?:\s+down)?|told\s+(?:you|u)|gave\s+(?:you|u))\s+"
    r"(?:the\s+)?$"
)


#: "since" or "ever since" right before a day: the day is gone ("failing since Monday").
_SINCE = re.compile(r"\b(?:ever\s+)?since\s+(?:(?:last|the)\s+)?$", re.I)
#: A day that is the subject of a clause after "since": "since Tuesday is full" is because.
_SINCE_BECAUSE = re.compile(
    r"['’]s\b|\s+(?:is|was|are|were|has|had|will|would|works|suits|isn['’]t|doesn['’]t|"
    r"won['’]t)\b",
    re.I,
)


#: Days in a unit of "in two weeks", "a fortnight from now", by its first letter.
_UNIT_DAYS = {"d": 1, "w": 7, "f": 14}


#: What an order, a booking or a job brings later, said without a verb in a clause of its
#: own: "delivery on the 19th", "fitting on Friday", "collection Tuesday".
_OUTCOME = re.compile(
    r"\b(?:deliver(?:y|ies)|arrival|collection|pick-?up|fitting|installation|install|"
    r"handover|completion|dispatch|despatch|start\s+date|go-?live)\b",
    re.I,
)


#: What says a list of weekdays sets out a week that repeats: "this term", "every week",
#: "our usual week", "the timetable".
_WEEKLY = re.compile(
    r"\b(?:this\s+term|every\s+week|each\s+week|weekly|(?:usual|normal|typical|regular)\s+"
    r"week|timetable|term[\s-]+time)\b",
    re.I,
)


def weekly_heading(text: str) -> bool:
    """Whether a line heads a week that repeats ("Our usual week: Mon - ballet 4:15",
    "Timetable this term"): said before a colon, or in a few words without a verb — not a
    sentence that says "weekly" in passing ("I do the weekly shop on Saturdays.")."""
    head, colon, _ = text.partition(":")
    if colon:
        return len(head.split()) <= 10 and _WEEKLY.search(head) is not None
    return len(text.split()) <= 6 and _WEEKLY.search(text) is not None and not lang.has_verb(text)


#: A line opening on a weekday, set apart from what follows: "Mon - swimming 4:30",
#: "Tuesday: football".
_WEEKDAY_LINE = re.compile(
    rf"\W*(?P<day>{WEEKDAY}|(?i:mon|tues?|weds?|thu(?:rs?)?|fri|sat|sun))\b(?P<date>\s*\(\d{{4}}-\d\d-\d\d\))?"
    r"\s*[-–—:]",
    re.I,
)


def weekly_line(text: str, rel: list[tuple[str, date]]) -> tuple[str, list[tuple[str, date]]]:
    """A line of a week that repeats ("Tuesday (2040-03-06) - Theo football 5pm") with its
    opening weekday undated: it names every such day, not the coming one."""
    m = _WEEKDAY_LINE.match(text)
    if m is None or not m.group("date"):
        return text, rel
    day = date.fromisoformat(m.group("date").strip(" ()"))
    kept = [(phrase, d) for phrase, d in rel if d != day]
    return text[: m.start("date")] + text[m.end("date") :], kept


def tense_at(text: str, pos: int) -> bool:
    """Whether the clause around `pos` tells of the past: the tense of the clause a date
    sits in, not of the whole sentence ("She called: the visit is on Friday"); a clause
    without a verb ("…on December 4, not December 3") takes the tense of the nearest one
    before it that has one, or the sentence's."""
    while True:
        start, end = _clause_span(text, pos)
        clause = text[start:end]
        told = _REPORTED.search(clause)
        if told and start + told.end() <= pos and lang.has_verb(clause[told.end() :]):
            # "she mentioned her husband is training for the marathon on 26 September": what
            # was told has a tense of its own, the telling's is not the date's
            clause = clause[told.end() :]
        if lang.marked_not_past(clause):
            return False  # "£52,000, starting on 6 September": what is to come
        if lang.has_verb(clause) or re.search(r"\b[a-z]{3,}[^s\W]s\b", clause):
            # a verb, or a word that reads as one ("the courier picks it up on Friday")
            return lang.past_tense(clause)
        if _OUTCOME.search(clause):
            return False  # "we ordered the sofa, delivery on the 19th": what the order brings
        if start == 0:
            return lang.past_tense(text)
        pos = max(start - 2, 0)
        while pos > 0 and _CLAUSE_END.match(text, pos):
            pos -= 1


#: A verb of calling off, moving or putting forward right before a weekday, its object:
#: "cancelled Friday", "has postponed Tuesday's", "moved Thursday" (moved to, from: their own
#: rules), "suggested Wednesday": a day still to come.
_CALLED_OFF_DAY = re.compile(
    r"\b(?:cancell?ed|postponed|called\s+off|rescheduled|scrapped|moved|pushed\s+back|"
    r"bumped|"
    # a day put forward for what is to come: "she suggested Wednesday at 3:30"
    r"suggested|proposed|offered|pencill?ed\s+in|arranged|scheduled)\s+(?:on\s+)?$",
    re.I,
)


#: An opening bracket right after a date ("Friday 25 September 2043 (", "the 14th ("): a
#: chained day said in it tells what that date is to another ("(the day before)"), no date.
_AFTER_A_DATE = re.compile(rf"(?:\d(?:st|nd|rd|th)?|\b(?:{_MONTH_RE}))\.?\s*\(\s*$", re.I)


def resolve_relative(
    text: str,
    ref: date,
    *,
    past: bool = False,
    by_clause: bool = False,
    anchors: list[tuple[str, date]] | None = None,
    given: list[tuple[int, date]] | None = None,
    remembered: list[tuple[str, date]] | None = None,
    hour: float | None = None,
) -> tuple[str, list[tuple[str, date]]]:
    """Annotate relative dates in `text` with the absolute date they mean, said on `ref`
    (at `hour`, when known: a bare weekday that is `ref`'s own is today when the time said
    with it is still to come, a week on when it has gone by, and left as said without one).

    `tomorrow` -> `tomorrow (2026-11-17)`. Rules: a bare or `this`/`on` weekday is the next
    such day after `ref`; `next <weekday>` is that day in the following (ISO, Monday-first)
    week; `last <weekday>` the latest one before `ref`; `<weekday> after next` a week after the
    coming one. In a sentence about the past (`past`), a bare or `on` weekday is the latest
    such day before `ref`, unless it follows "for", "to", "until" or "by"; `by_clause` reads
    the tense of the clause each date sits in instead (`tense_at`). Recurring forms (`Fridays`,
    `Friday afternoons`, `every Friday`) are left alone.

    Chained dates count from a date said before them: `anchors` holds the dates said earlier
    in the session, each with the clause it was said in, latest last, `given` the dates of
    `text` found by `absolute_dates`, by position (`session_dates` puts a sentence's in).
    "the Monday after that" is the first Monday after the date said last, "a week before the
    exam" a week before the latest date said of an exam, "the Monday" the first Monday after
    the date said last when that date is still to come ("fly out on Thursday 17 June and come
    back on the Monday"). A chain whose anchor is not found is left as said. An anchored
    date (`anchored.py`) that names an event not dated in the session counts from the one
    `remembered` holds (the upcoming dates of earlier sessions, each with its line).
    """
    found: list[tuple[str, date]] = []
    out: list[str] = []
    pos = 0
    tense = past
    session = anchors or []
    corrected = _corrected_day(text, [*session, *(remembered or [])])
    here: list[tuple[int, date]] = list(given or [])

    spans: dict[int, int] = {}  # where a date found here starts -> where it ends
    ranges = day_ranges(text, ref, past=past, by_clause=by_clause)

    def earlier(at: int) -> list[tuple[str, date]]:
        """The dates said before position `at`, each with its clause (without the date's own
        words: "the day before moving day" is no date of moving day), latest last."""
        out = []
        for p, d in sorted(here):
            if p >= at:
                continue
            start, end = _clause_span(text, p)
            clause = text[start:p] + " " + text[spans.get(p, p) : end]
            out.append((clause.lower(), d))
        return session + out

    # "pick up fri am the day before": the day before a date said earlier that falls on
    # that weekday, and the weekday is that same day
    pinned: dict[int, date] = {}
    matches = list(_RELATIVE.finditer(text))  # searched once (the costliest pattern), read twice
    for m in matches:
        if m.group("chainbare") and m.group("bday") and session and not m.group("bgoes"):
            step = timedelta(days=1 if m.group("bdir").lower() == "after" else -1)
            weekdays = [w for w in _RELATIVE.finditer(text, 0, m.start()) if w.group("wd")]
            for w in weekdays[-1:]:  # the weekday said just before it
                wd = weekday_number(w.group("day"))
                on = next((x for _, x in reversed(session) if (x + step).weekday() == wd), None)
                if on is not None:
                    pinned[w.start()] = pinned[m.start()] = on + step
    pending = anchored.expressions(text)  # "three weeks before the 30 June deadline"

    def date_at(start: int, end: int) -> date | None:
        """The date said in `text[start:end]` (an anchor said as a date), the latest one."""
        at = [d for p, d in sorted(here) if start <= p < end]
        if at:
            return at[-1]
        _, said = resolve_relative(text[start:end], ref, past=past)
        return (
            said[0][1] if said and text[start:end].lower().find(said[0][0].lower()) <= 4 else None
        )

    def take_anchored(limit: int) -> None:
        """The anchored dates that start before `limit`, each written with its day."""
        nonlocal pos
        while pending and pending[0].start < limit:
            e = pending.pop(0)
            if e.start < pos:
                continue
            got = e.resolve(earlier(e.start), date_at, _anchor_date, remembered or [])
            if got is None:
                continue
            day, label = got
            if day is anchored.AMBIGUOUS:  # two things it could count from: kept as said
                out.append(text[pos : e.end])
                pos = e.end
                continue
            found.append((text[e.start : e.end], day))
            here.append((e.start, day))
            spans[e.start] = e.end
            out.append(text[pos : e.end] + f" ({label or day.isoformat()})")
            pos = e.end

    for m in matches:
        take_anchored(m.end())
        while ranges and ranges[0][0] < m.end():  # a stretch of days said before or around it
            start, end, first, final = ranges.pop(0)
            if start < pos:
                continue
            found += [(text[start:end], first), (text[start:end], final)]
            here += [(start, first), (start, final)]
            spans[start] = end
            out.append(text[pos:end] + f" ({first.isoformat()} to {final.isoformat()})")
            pos = end
        if m.start() < pos:
            continue  # a day of a stretch read with it
        if m.start() in pinned:
            day = pinned[m.start()]
            found.append((m.group(0), day))
            out.append(text[pos : m.end()] + f" ({day.isoformat()})")
            pos = m.end()
            spans[m.start()] = m.end()
            here.append((m.start(), day))
            continue
        if m.group("wd") and re.search(r"\b(?:a|any|every|each)\s+$", text[: m.start()], re.I):
            continue  # "also a Saturday", "any Monday": what day a date is, or no one day
        if _SAID_AS_VALUE.search(text, 0, m.start()) and not lang.has_verb(
            clause_at(text, m.start())[len(clause_at(text[: m.start()], m.start() - 1)) :]
        ):
            continue  # "last time I said the 4th; it's the 5th": the day set aside, no date
        past = tense_at(text, m.start()) if by_clause else tense
        if _SINCE.search(text[: m.start()]) and not _SINCE_BECAUSE.match(text, m.end()):
            past = True  # "keeps failing since Monday": a day gone, whatever the tense
        phrase = m.group(0)
        d: date | None = None
        label = None
        if m.group("holiday"):
            d = _holiday_date(m, text, ref, past=past)
            if d is None:
                continue
        elif m.group("chainwd") or m.group("chainn") or m.group("chaind"):
            tag = "w" if m.group("chainwd") else "n" if m.group("chainn") else "d"
            base = _anchor_date(m.group(f"anchor{tag}"), earlier(m.start()))
            if base is None:
                continue
            if tag == "d":
                d = base + timedelta(days=1 if m.group("cddir").lower() == "after" else -1)
            elif tag == "w":
                wd = WEEKDAYS.index(m.group("cday").lower())
                if m.group("cdir").lower() == "after":
                    d = _next_weekday(base, wd)
                else:
                    d = base - timedelta(days=((base.weekday() - wd) % 7) or 7)
            else:
                n = m.group("cn").lower()
                days = (int(n) if n.isdigit() else _NUMBERS[n]) * (
                    7 if m.group("cunit").lower().startswith("week") else 1
                )
                d = base + timedelta(days=days if m.group("cndir").lower() == "after" else -days)
        elif m.group("chainbare"):
            if _AFTER_A_DATE.search(text[: m.start()]):
                # "packing on Friday 25 September (the day before), move on the 26th": said
                # in brackets after a date, it tells what that date is to another one
                continue
            if m.group("bgoes"):  # "Tuesday, and he's back the day after to fit it"
                said_before = [("", d) for p, d in sorted(here) if p < m.start()]
            else:
                said_before = earlier(m.start())
            if not said_before:
                continue
            base = said_before[-1][1]  # the date said last: in this sentence, or before it
            if m.group("bday"):
                d = base + timedelta(days=1 if m.group("bdir").lower() == "after" else -1)
            else:
                wd = WEEKDAYS.index(m.group("bwd").lower())
                if m.group("bdir").lower() == "after":
                    d = _next_weekday(base, wd)
                else:
                    d = base - timedelta(days=((base.weekday() - wd) % 7) or 7)
        elif m.group("wdweek"):
            named = m.group("wwd") or m.group("wwd2")
            if not named[0].isupper():
                continue
            unit = (m.group("wwu") or m.group("wwu2") or m.group("wwu3")).lower()
            d = _next_weekday(ref, WEEKDAYS.index(named.lower()))
            d += timedelta(days=14 if unit == "fortnight" else 7)
        elif m.group("nth"):
            d = _nth_weekday(ref, m)
            if d is None:
                continue
        elif m.group("fromnow"):
            n = m.group("fn").lower()
            count = int(n) if n.isdigit() else _NUMBERS[n]
            unit = m.group("funit").lower()
            if unit.startswith(("month", "year")):  # "three years from today"
                d = _months_later(ref, count * (12 if unit.startswith("year") else 1))
            else:
                d = ref + timedelta(days=count * _UNIT_DAYS[unit[0]])
            if (m.group("fday") or "").lower() == "tomorrow":
                d += timedelta(days=1)  # "a week tomorrow": a week from tomorrow
        elif m.group("dat"):
            d = ref + timedelta(days=2)
        elif m.group("isowk"):
            year = int(m.group("iy")) if m.group("iy") else ref.year
            week = int(m.group("iw") or m.group("iw2"))
            iso_day = weekday_number(m.group("iwd") or m.group("iwd2")) + 1
            try:
                d = date.fromisocalendar(year, week, iso_day)
                if not m.group("iy") and d < ref - timedelta(days=182):
                    d = date.fromisocalendar(year + 1, week, iso_day)
            except ValueError:
                continue
        elif m.group("tomorrow"):
            d = ref + timedelta(days=1)
        elif m.group("yesterday"):
            d = ref - timedelta(days=1)
        elif m.group("today"):
            d = ref
        elif m.group("nextweek"):
            d = ref - timedelta(days=ref.weekday()) + timedelta(days=7)
            label = f"week of {d.isoformat()}"
        elif m.group("lastweek"):
            d = ref - timedelta(days=ref.weekday()) - timedelta(days=7)
            label = f"week of {d.isoformat()}"
        elif m.group("weekend"):
            monday = ref - timedelta(days=ref.weekday())
            if phrase.lower().startswith("next"):
                monday += timedelta(days=7)
            d = monday + timedelta(days=5)
            label = f"weekend of {d.isoformat()}"
        elif m.group("inn"):
            n = m.group("n").lower()
            count = int(n) if n.isdigit() else _NUMBERS[n]
            unit = m.group("unit").lower()
            if unit.startswith(("month", "year")):
                d = _months_later(ref, count * (12 if unit.startswith("year") else 1))
            else:
                d = ref + timedelta(days=count * _UNIT_DAYS[unit[0]])
        elif m.group("monthend"):
            first = ref.replace(day=1)
            if m.group("mewhich").lower() == "next":
                first = (first + timedelta(days=32)).replace(day=1)
            elif past:  # "it broke at the end of the month": the month before
                first = (first - timedelta(days=1)).replace(day=1)
            d = (first + timedelta(days=32)).replace(day=1) - timedelta(days=1)
        elif m.group("afternext"):
            if m.group("day2"):
                d = _next_weekday(ref, WEEKDAYS.index(m.group("day2").lower())) + timedelta(days=7)
            else:
                d = ref - timedelta(days=ref.weekday()) + timedelta(days=14)
                label = f"week of {d.isoformat()}"
        elif m.group("fwd"):
            wd = lang.FOREIGN_WEEKDAYS[m.group("fwd").lower()]
            if past:
                d = ref - timedelta(days=((ref.weekday() - wd) % 7) or 7)
            else:
                d = _next_weekday(ref, wd)
        elif m.group("fdom"):
            d = _day_of_month(ref, int(m.group("fdom")), past=past)
        elif m.group("wdn"):
            d = _day_of_month(ref, int(m.group("n3")), past=past, weekday=m.group("wdnwd"))
        elif m.group("dom"):
            if re.search(rf"\b{_MONTH_RE}\s*$", text[: m.start()], re.I):
                continue  # "April 30th": a month-day date, found by `absolute_dates`
            if _COUNTED_DAY.search(text):
                # "the 2nd month 22nd day, not the 20th": beside a day counted in another
                # calendar, a bare ordinal is of that calendar too
                continue
            contrasted = [d for p, d in sorted(here) if p < m.start()]
            if corrected is not None and int(m.group("n2")) in corrected[1]:
                # "it's the 14th, not the 12th" of a thing dated the 12th of a month: that
                # month; the day set aside is the date the line replaces, not one it gives
                if int(m.group("n2")) == corrected[0].day:
                    continue
                try:
                    d = corrected[0].replace(day=int(m.group("n2")))
                except ValueError:
                    continue
            elif contrasted and re.search(
                r"\bnot\s+(?:on\s+)?(?:the\s+)?$", text[: m.start()], re.I
            ):
                # "renews on 12 October, not the 2nd": the day set against a date is of its month
                try:
                    d = contrasted[-1].replace(day=int(m.group("n2")))
                except ValueError:
                    continue
            else:
                # "the 14th", "Friday the 19th": the day of the month wins over a weekday;
                # "moved to the 16th" said in the past is where it went: the one to come
                d = _day_of_month(
                    ref,
                    int(m.group("n2")),
                    past=past and not _MOVED_TO.search(text[: m.start()]),
                    month=(
                        m.group("thismonth") or _COMMERCIAL.get(m.group("commercial") or "", "")
                    ).lower(),
                    weekday=m.group("domwd"),
                )
        elif m.group("wd"):
            before = text[: m.start()].lower()
            after = text[m.end() :]
            if _RECURRING_AFTER.match(after) or re.search(r"\b(?:every|each)\s+$", before):
                continue
            if _EVERY_WEEK.match(after):
                continue  # "she does the Saturday puzzle every week": a day that repeats
            if not _said_as_day(m, text):
                continue  # 'friday' inside code, "I sat down", "the sun": no date
            if _DATED_AFTER.match(text, m.end()):
                continue  # "Thursday (2031-03-13)", "Thursday 13 March": the date said is its day
            wd = weekday_number(m.group("day"))
            mod = (m.group("mod") or "").lower()
            if mod == "next":
                monday = ref - timedelta(days=ref.weekday()) + timedelta(days=7)
                d = monday + timedelta(days=wd)
            elif mod == "last":
                d = ref - timedelta(days=((ref.weekday() - wd) % 7) or 7)
            elif mod == "this":
                d = _next_weekday(ref, wd, include_today=True)
            elif mod == "coming":
                d = _next_weekday(ref, wd)  # "this coming Friday": never one gone by
            elif re.search(r"\bthe\s+$", before) and (
                same := [x for _, x in earlier(m.start())[-3:] if x > ref and x.weekday() == wd]
            ):
                # "consultations Tuesday 26 and Wednesday 27 March … booked the Tuesday": a
                # day of that weekday said just before is the one meant
                d = same[-1]
            elif re.search(r"\bthe\s+$", before) and (
                (last := earlier(m.start())) and last[-1][1] > ref
            ):
                # "… on Thursday 17 June, back on the Monday"; "the open day is on Saturday 3
                # May … still on the Saturday" is that Saturday itself
                d = _next_weekday(last[-1][1], wd, include_today=True)
            elif (
                past
                # "moved Tue → Thu": the day it went to is still to come
                and not re.search(r"(?:\b(?:for|to|until|till|by|before|from)|→|->)\s*$", before)
                # "the plumber has cancelled Friday": what is called off is still to come
                and not _CALLED_OFF_DAY.search(before)
            ):
                d = ref - timedelta(days=((ref.weekday() - wd) % 7) or 7)
            elif wd == ref.weekday() and hour is not None and not mod:
                # "the dentist is Monday at 11" said on a Monday: today when 11 is still to
                # come, a week on when it has gone by; without a time either may be meant
                at = _hour_said(text[m.end() : _clause_span(text, m.start())[1]])
                if at is None:
                    continue
                d = ref if at > hour else ref + timedelta(days=7)
            else:
                d = _next_weekday(ref, wd)
                here_before = [x for p, x in here if p < m.start()]
                # (a day of this sentence, else the day said last in the session: "We got
                # there on Saturday the 3rd. We stayed until Tuesday.")
                gone = [x for x in here_before or [x for _, x in session[-1:]] if x < ref]
                if (
                    past
                    and re.search(r"\b(?:until|till|til|through|thru)\s+$", before)
                    and gone
                    and _next_weekday(gone[-1], wd) < ref
                ):
                    # "I rang on Monday the 2nd and asked to keep it till Wednesday", said on
                    # the Friday after: the end of a stretch told of a day gone by counts
                    # from that day (the Wednesday after it), when that has gone by too
                    d = _next_weekday(gone[-1], wd)
                elif (
                    re.search(r"\b(?:until|till|til|through|thru)\s+$", before)
                    and here_before
                    and max(here_before) > d
                ):
                    # "can't make Friday (the 9th), I'm on nights till Sunday": the end of
                    # a stretch said after a later day of the sentence is on or after it
                    d = _next_weekday(max(here_before), wd, include_today=True)
        if d is None:
            continue
        end = m.end()
        if text[end : end + 2] in ("'s", "’s"):
            end += 2  # "today's run (2026-11-20)", not "today (2026-11-20)'s run"
        elif m.group("commercial") and text[end : end + 1] == "." and text[end + 1 :].strip():
            end += 1  # "the 3rd ult. (2031-03-03)", its abbreviation whole
        found.append((phrase, d))
        here.append((m.start(), d))
        spans[m.start()] = m.end()
        out.append(text[pos:end])
        out.append(f" ({label or d.isoformat()})")
        pos = end
    take_anchored(len(text) + 1)
    for start, end, first, final in ranges:
        if start >= pos:
            found += [(text[start:end], first), (text[start:end], final)]
            out.append(text[pos:end] + f" ({first.isoformat()} to {final.isoformat()})")
            pos = end
    out.append(text[pos:])
    return "".join(out), found


def day_ranges(
    text: str, ref: date, *, past: bool = False, by_clause: bool = False
) -> list[tuple[int, int, date, date]]:
    """The stretches of days `text` says, each as (start, end) of its words and its first
    and last day: "from the 14th to the 17th", "14-17 March", "du 14 au 17". The last day is
    read as a day of the month or a date is read alone (the next one, or the latest one in
    a sentence about the past); the first is the day before it in the same month, or in the
    month before ("from the 28th to the 3rd"). Two bare numbers are a stretch of days only
    with a month, an ordinal ending, or the words of another language that say one."""
    if not any(c.isdigit() for c in text):
        return []
    out = []
    for m in _RANGE.finditer(text):
        if m.group("a1") and not (m.group("m1") or m.group("s1") or m.group("t1")):
            continue  # "ages 14-17", "won 3-1": numbers
        if m.group("a1") and m.group("m1") is None and _ORDINAL_OF.match(text, m.end()):
            continue  # "3rd-5th grade"
        first_day = int(m.group("a1") or m.group("a2") or m.group("a3") or m.group("a4"))
        last_day = int(m.group("b1") or m.group("b2") or m.group("b3") or m.group("b4"))
        month = m.group("m1") or m.group("m2") or m.group("m3") or m.group("m4")
        said_past = tense_at(text, m.start()) if by_clause else past
        last: date | None
        if month:
            rest = text[m.end() :]
            year = re.match(r",?\s*(\d{4})\b", rest)
            said = f"{MONTHS[_month_number(month) - 1]} {last_day}{year.group(0) if year else ''}"
            dates = absolute_dates(said, ref, past=said_past) if _month_number(month) else []
            last = dates[0][1] if dates else None
            m_end = m.end() + year.end() if year and last is not None else m.end()
        else:
            last = _day_of_month(ref, last_day, past=said_past)
            m_end = m.end()
        if last is None:
            continue
        at = last if first_day <= last_day else (last.replace(day=1) - timedelta(days=1))
        try:
            first = at.replace(day=first_day)
        except ValueError:
            continue
        out.append((m.start(), m_end, first, last))
    return out


def _month_number(name: str) -> int:
    """1-12 of a month's name, English (whole or short) or another language's; 0 if none."""
    low = name.lower().rstrip(".")
    return _MONTH_ABBR.get(low) or lang.FOREIGN_MONTHS.get(low) or _MONTH_ABBR.get(low[:3]) or 0


def _said_as_day(m: re.Match, text: str) -> bool:
    """Whether the weekday of a `wd` match names a day: capitalised ('friday' inside code is
    none), or after "next", "last", "this", "on" or "by" ("see you next thursday"). A
    shortened one ("next thurs") is spelled out before (`language.weekdays_spelled`)."""
    word = m.group("day")
    led = re.search(
        r"\b(?:next|last|this|coming|on|by|until|till)\s+$", text[: m.start("day")], re.I
    )
    return word[0].isupper() or bool(led)


#: Other names of the holidays of `_HOLIDAYS` and `_NTH_HOLIDAYS`, as `_holiday_name` lowers them.
_HOLIDAY_ALIASES = {
    "pancake day": "shrove tuesday", "ascension": "ascension day",
    "pentecost sunday": "pentecost", "whit sunday": "pentecost", "whitsunday": "pentecost",
    "guy fawkes": "bonfire night", "guy fawkes night": "bonfire night",
    "fourth of july": "independence day", "4th of july": "independence day",
    "veteran's day": "veterans day", "veterans' day": "veterans day",
    "mlk day": "martin luther king day", "martin luther king jr day": "martin luther king day",
    "martin luther king jr. day": "martin luther king day",
    "president's day": "presidents' day", "presidents day": "presidents' day",
    "late may bank holiday": "spring bank holiday",
    "august bank holiday": "summer bank holiday", "fathers day": "father's day",
    "labour day": "labor day",
}  # fmt: skip


def _holiday_name(said: str) -> str:
    """The key in `_HOLIDAYS` of a holiday's name as written ("Xmas Eve", "NYE")."""
    low = re.sub(r"\s+", " ", said.lower()).replace("’", "'")
    low = re.sub(r"^x-?mas", "christmas", low).replace("hallowe'en", "halloween")
    if low == "nye":
        return "new year's eve"
    if low.startswith("new year"):
        return "new year's " + low.split()[-1]
    if low.startswith("valentine"):
        return "valentine's day"
    if low in ("easter sunday", "easter day"):
        return "easter"
    low = re.sub(r"^the ", "", low)
    low = re.sub(r"^st\.? ", "st ", low).replace("saints day", "saints' day")
    low = re.sub(r" monday$", "", low) if low.endswith("bank holiday monday") else low
    return _HOLIDAY_ALIASES.get(low, low)


def _holiday_on(name: str, year: int) -> date:
    if name in _NTH_HOLIDAYS:
        of, weekday, nth = _NTH_HOLIDAYS[name]
        if nth > 0:
            first = date(year, of, 1)
            return first + timedelta(days=(weekday - first.weekday()) % 7 + 7 * (nth - 1))
        last = date(year + of // 12, of % 12 + 1, 1) - timedelta(days=1)
        return last - timedelta(days=(last.weekday() - weekday) % 7)
    month, day = _HOLIDAYS[name]
    if month is None:
        return easter(year) + timedelta(days=day)
    return date(year, month, day)


#: A stretch of time counted from the holiday named after it: "the weekend after", "the
#: fortnight before", "the week of".
_STRETCH_FROM = re.compile(
    r"\b(?:weekend|week|fortnight|month|days|weeks|couple\s+of\s+days)\s+(?:after|before|of)\s+$",
    re.I,
)


def _holiday_date(m: re.Match, text: str, ref: date, *, past: bool) -> date | None:
    """The date a holiday's name means said on `ref`: the next one from `ref` on (the
    latest one up to `ref`, in a sentence about the past or after "last"), moved by "the
    day before/after" or "two days before". None where the name qualifies a thing ("the
    Christmas party") or is no one day ("every Christmas")."""
    before = text[: m.start()]
    after = text[m.end() :]
    if re.search(r"\b(?:a|any|every|each)\s+$", before, re.I):
        return None
    if not m.group("hdir") and _STRETCH_FROM.search(before):
        return None  # "the weekend after Easter", "the week before Diwali": no day of it
    if not lang.qualifies_nothing(after):
        return None  # "the Christmas party", not "Halloween starts at dusk"
    name = _holiday_name(m.group("hol"))
    shift = 0
    if m.group("hdir") and not m.group("hwd"):
        if m.group("hpart"):
            count = 1
        else:
            n = m.group("hn").lower()
            count = (int(n) if n.isdigit() else _NUMBERS[n]) * (
                7 if m.group("hunit").lower().startswith("week") else 1
            )
        shift = count if m.group("hdir").lower() == "after" else -count
    lead = re.search(r"\b(\w+)\s+$", before)
    word = lead.group(1).lower() if lead else ""
    if word in ("next", "this", "coming"):
        past = False
    elif word == "last":
        past = True
    elif past and word in ("for", "to", "until", "till", "by", "before", "from"):
        past = False
    days = [_holiday_on(name, y) + timedelta(days=shift) for y in range(ref.year - 1, ref.year + 2)]
    if m.group("hwd"):
        wd = weekday_number(m.group("hwd"))
        step = 1 if m.group("hdir").lower() == "after" else -1
        days = [d + timedelta(days=step * ((step * (wd - d.weekday()) - 1) % 7 + 1)) for d in days]
    if past:
        gone = [d for d in days if d <= ref]
        return gone[-1] if gone else None
    return next((d for d in days if d >= ref), None)


def session_dates(
    anchors: list[tuple[str, date]], text: str, dates: list[tuple[str, date]]
) -> None:
    """Add the dates of a sentence (`text`, its `dates` as (phrase, date)) to the dates said
    so far in the session, in the order they were said, each with the clause it sits in."""
    low = text.lower()
    for phrase, d in sorted(dates, key=lambda pd: low.find(pd[0].lower())):
        clause = clause_at(text, max(low.find(phrase.lower()), 0)).lower()
        # the clause without the date's own words: "a week before the exam" is no exam
        anchors.append((clause.replace(phrase.lower(), " "), d))


def _nth_weekday(ref: date, m: re.Match) -> date | None:
    """ "the last Thursday of the month" (the next one from `ref`: this month's, or next
    month's once it has passed), "the first Monday of next month", "the 2nd Tuesday in
    May" (the coming May)."""
    wd = WEEKDAYS.index(m.group("nwd").lower())
    order = m.group("ord").lower()
    nth = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4}
    nth |= {"4th": 4, "last": -1}

    def in_month(year: int, month: int) -> date | None:
        if nth[order] > 0:
            first = date(year, month, 1)
            d = first + timedelta(days=(wd - first.weekday()) % 7 + 7 * (nth[order] - 1))
            return d if d.month == month else None
        last = _months_later(date(year, month, 1), 1) - timedelta(days=1)
        return last - timedelta(days=(last.weekday() - wd) % 7)

    if m.group("nmonth"):
        name = m.group("nmonth").lower().rstrip(".")
        num = _MONTH_ABBR.get(name) or _MONTH_ABBR.get(name[:3])
        if num is None:
            return None
        d = in_month(ref.year, num)
        return in_month(ref.year + 1, num) if d is None or d < ref else d
    month = _months_later(date(ref.year, ref.month, 1), 1 if m.group("nwhich") == "next" else 0)
    d = in_month(month.year, month.month)
    if m.group("nwhich") in ("the", "every", "each") and (d is None or d < ref):
        # a recurring "of the month", "of every month": the next one to come
        month = _months_later(month, 1)
        d = in_month(month.year, month.month)
    return d


def _months_later(ref: date, months: int) -> date:
    """The same day `months` later (the month's last day when it has no such day)."""
    year, month = divmod(ref.month - 1 + months, 12)
    for day in (ref.day, 30, 29, 28):
        try:
            return date(ref.year + year, month + 1, min(day, ref.day))
        except ValueError:
            continue
    return date(ref.year + year, month + 1, 28)


def _anchor_date(anchor: str, said: list[tuple[str, date]]) -> date | None:
    """The date a chain counts from: "that" or "then" is the date said last; "the real
    exam" the latest date said in a clause naming the exam (its last word that names one)."""
    if not said:
        return None
    words = anchor.lower().split()
    if words[0] in ("that", "then"):
        return said[-1][1]
    if words[0] == "the":
        words = words[1:]
    phrase = " ".join(words)
    for clause, d in reversed(said):  # the whole name first: "moving day", not any "day"
        if len(words) > 1 and re.search(rf"\b{re.escape(phrase)}\b", clause):
            return d
    for word in reversed(words):
        said_as = _ANCHOR_SAID_AS.get(word, re.escape(word))
        for clause, d in reversed(said):
            if re.search(rf"\b(?:{said_as})\b", clause) and not re.search(
                rf"\b(?:{_COUNTED_FROM})\s+(?:[\w'’]+\s+){{0,2}}(?:{said_as})\b", clause
            ):
                return d
    return None


#: What puts the thing a clause names as the one its day counts from ("the Saturday after
#: his birthday" gives the party's day, not the birthday's).
_COUNTED_FROM = r"after|before|following|since|until|till|from"


#: How a clause may state the date of a thing named by a word that says what the date is
#: ("two weeks before the deadline" after "the round closes on 3 March").
_OPERATION = r"op|operation|surgery|procedure|replacement|transplant|removal|repair"
_ANCHOR_SAID_AS = {
    "deadline": r"deadline|closes|closing|close|due|submission",
    "closing": r"deadline|closes|closing|close",
    # "ten days after the op" of "her hip replacement is on the 19th"
    "op": _OPERATION,
    "operation": _OPERATION,
    "surgery": _OPERATION,
    # "ten days after his birthday" of "Yusuf turns 40 on the 15th"
    "birthday": r"birthday|turns\s+\d{1,3}|born",
}


#: How many months, this one first, a weekday said with a day of the month is looked for in.
_AGREE_MONTHS = 4


#: Two bare days of the month set against each other: "the 14th, not the 12th", "not the
#: 12th but the 14th", "the 14th rather than the 12th".
_DAY_FOR_DAY = re.compile(
    r"\b(?:the\s+)?(?P<new>\d{1,2})(?:st|nd|rd|th)\b[,;\s—–-]*(?:and\s+)?(?:not|rather\s+than|"
    r"instead\s+of)\s+(?:the\s+)?(?P<old>\d{1,2})(?:st|nd|rd|th)\b"
    r"|\bnot\s+(?:on\s+)?(?:the\s+)?(?P<old2>\d{1,2})(?:st|nd|rd|th)\b[,;\s—–-]*(?:but\s+)?"
    r"(?:it['’]s\s+|on\s+)?(?:the\s+)?(?P<new2>\d{1,2})(?:st|nd|rd|th)\b",
    re.I,
)


def _corrected_day(text: str, said: list[tuple[str, date]]) -> tuple[date, set[int]] | None:
    """The date a correction of a day of the month puts right ("I got Mum's birthday wrong,
    it's the 14th not the 12th"), with the two days said: the one date said before (in the
    session, or an upcoming one of an earlier session; `said` holds each with its clause)
    that falls on the day set aside and whose clause shares a word of substance with the
    correction. Its month is the month of both days. None when no such date, or two in
    different months, are found: the days are then read as any other."""
    m = _DAY_FOR_DAY.search(text)
    if m is None:
        return None
    old = int(m.group("old") or m.group("old2"))
    new = int(m.group("new") or m.group("new2"))
    words = {w for w in re.findall(r"[^\W\d_]{3,}", text.lower()) if w not in stopwords.ENGLISH}
    fits = {
        (d.year, d.month)
        for clause, d in said
        if d.day == old and words & {w for w in re.findall(r"[^\W\d_]{3,}", clause.lower())}
    }
    if len(fits) != 1:
        return None
    year, month = fits.pop()
    return date(year, month, old), {old, new}


def _day_of_month(
    ref: date, day: int, *, past: bool, month: str = "", weekday: str | None = None
) -> date | None:
    """The date a bare day of the month means said on `ref`: the next one to come (the
    latest one gone in a sentence about the past); "of this/next month" ("inst.", "prox.",
    "ult.": of last month) fixes the month.
    With a weekday ("Friday the 18th" said on Tuesday the 18th of May) it is the first
    month from this one on (back, in a sentence about the past, else the coming one of this
    month or the next) within `_AGREE_MONTHS` where that day falls on that weekday; when
    none does (a weekday misremembered, more likely
    than a date half a year away), the day of the month as read without it."""
    if weekday and not month:
        wd = weekday_number(weekday)
        at = ref.replace(day=1)
        for _ in range(_AGREE_MONTHS):  # this month and the next three (the last, of the past)
            try:
                d = at.replace(day=day)
            except ValueError:
                d = None
            if d is not None and d.weekday() == wd and (d <= ref if past else d >= ref):
                return d
            at = (at - timedelta(days=1) if past else at + timedelta(days=32)).replace(day=1)
        if past:
            # none gone, but the coming one agrees ("Thurs 14th 8-10 confirmed" on Monday the
            # 11th): a weekday and a day that agree say more than a verb in the past tense
            at = ref.replace(day=1)
            for _ in range(2):
                with contextlib.suppress(ValueError):
                    if (d := at.replace(day=day)) >= ref and d.weekday() == wd:
                        return d
                at = (at + timedelta(days=32)).replace(day=1)
    first = ref.replace(day=1)
    months = [first]
    if month == "next" or not month:
        months.append((first + timedelta(days=32)).replace(day=1))
    if past and not month:
        months.insert(0, (first - timedelta(days=1)).replace(day=1))
    if month == "next":
        months = months[1:]
    if month == "last":
        months = [(first - timedelta(days=1)).replace(day=1)]
    candidates = []
    for m in months:
        try:
            candidates.append(m.replace(day=day))
        except ValueError:
            continue
    if month:
        return candidates[0] if candidates else None
    if past:
        gone = [d for d in candidates if d <= ref]
        return gone[-1] if gone else None
    coming = [d for d in candidates if d >= ref]
    return coming[0] if coming else None


#: The month a day is of in the commercial style ("the 3rd ult.": of last month).
_COMMERCIAL = {
    **dict.fromkeys(("inst", "instant"), "this"),
    **dict.fromkeys(("ult", "ultimo"), "last"),
    **dict.fromkeys(("prox", "proximo"), "next"),
}


#: What a date said in the past tense follows when it is where something was moved, not when
#: something happened: "the go-live moved to June 28", "postponed until the 3rd of May".
#: What a date said after it is where something went ("moved to June 28", "rearranged it
#: for Sat 16 Feb").
_MOVED_TO = re.compile(
    rf"\b(?:to|until|till|for|by)\s+(?:the\s+)?(?:{WEEKDAY_OR_ABBREVIATION},?\s+(?:the\s+)?)?$",
    re.I,
)


#: A weekday said right before a month-day: "Friday 14 February", "Tue, 4 March".
_WEEKDAY_BEFORE = re.compile(rf"\b(?P<wd>{WEEKDAY_OR_ABBREVIATION}),?\s+(?:the\s+)?$", re.I)
#: Two days of one month said together: "Monday 10 and Tuesday 11 March", "the 3rd or 4th of May".
_DAY_AND = re.compile(
    rf"\b(?P<first>(?:(?P<wd>{WEEKDAY_OR_ABBREVIATION}),?\s+)?(?:the\s+)?(?P<d>\d{{1,2}})"
    rf"(?:st|nd|rd|th)?)\s+(?:and|&|or)\s+(?P<second>(?:{WEEKDAY_OR_ABBREVIATION},?\s+)?(?:the\s+)?"
    rf"\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH_RE})",
    re.I,
)
#: The year a month-day is said with by its place from the message's: "14 October next year".
_WHICH_YEAR = re.compile(r",?\s+(next|last|this)\s+year\b", re.I)


@remembered
def absolute_dates(
    text: str, ref: date, *, past: bool | None = None, by_clause: bool = False
) -> list[tuple[str, date]]:
    """Month-day dates (`December 3`, `3 December`) with their year: in a sentence about the
    past the latest such day up to `ref`, in one about what is coming the next from `ref`;
    when the tense is not known (`past` None), the year that puts them nearest `ref`;
    `by_clause` reads the tense of the clause each date sits in (`tense_at`)."""
    found: list[tuple[str, date]] = []
    fixed: list[date] = []  # dates whose year a weekday or a year said with them settled
    loose: list[int] = []  # the indexes in `found` of dates whose year was only guessed
    given = past
    stretches = (
        [(r.start(), r.end()) for r in _RANGE.finditer(text)]
        if "-" in text
        or "–" in text
        or any(
            w in text.lower()
            for w in ("to", "du ", "del ", "dal ", "vom ", "till", "thru", "de ", "desde ", "do ")
        )
        else []
    )
    for m in _ABSOLUTE.finditer(text):
        if any(a <= m.start() < b for a, b in stretches):
            continue  # a day of a stretch ("14-17 March"): `day_ranges` reads both ends
        past = tense_at(text, m.start()) if by_clause else given
        if past and by_clause and _verbless(clause_at(text, m.start())):
            # "I've signed up to coach the juniors, first session on 3 May": a clause with no
            # verb of its own only borrows a tense, so its day is the nearest one
            past = None
        if past and _MOVED_TO.search(text[: m.start()]):
            past = None  # "moved to June 28", "pushed back until May 3": where it went, nearest
        month = (m.group("m1") or m.group("m2") or m.group("m3") or m.group("m4")).lower()
        month = month.rstrip(".")
        raw_day = (m.group("d1") or m.group("d2") or m.group("d3") or m.group("d4")).lower()
        day = int(raw_day) if raw_day.isdigit() else _ORDINALS[raw_day]
        num = _MONTH_ABBR.get(month) or lang.FOREIGN_MONTHS.get(month) or _MONTH_ABBR.get(month[:3])
        if num is None:
            continue
        try:
            d = date(ref.year, num, day)
        except ValueError:
            continue
        if past is True and d > ref:
            d = date(ref.year - 1, num, day) if not (num == 2 and day == 29) else d
        elif past is False and d < ref - timedelta(days=7):
            # a week of slack: "the talk on March 3" said on March 5 is still this year's
            d = date(ref.year + 1, num, day) if not (num == 2 and day == 29) else d
        elif past is not None:
            pass
        elif d < ref - timedelta(days=183):
            d = date(ref.year + 1, num, day)
        elif d > ref + timedelta(days=183):
            d = date(ref.year - 1, num, day)
        guessed = True
        if (said_wd := _WEEKDAY_BEFORE.search(text[max(0, m.start() - 16) : m.start()])) and (
            m.group("m1") or m.group("m2") or m.group("m3")
        ):
            d = _on_weekday(d, _weekday_index(said_wd.group("wd")), ref)  # "Friday 14 February"
            guessed = False
        if which := _WHICH_YEAR.match(text, m.end()):
            # "14 October next year": the year said by its place from the message's year
            step = {"next": 1, "last": -1, "this": 0}[which.group(1).lower()]
            try:
                d = date(ref.year + step, num, day)
            except ValueError:
                continue
        elif (year := re.match(r",?\s*(\d{4})\b", text[m.end() :])) and 1900 < int(year[1]) < 2200:
            try:  # "24 March 2028": the year it is said with
                d = date(int(year[1]), num, day)
            except ValueError:
                continue
        elif said := m.group("y4"):  # "23MAR31": the century that puts it at most 20 years ahead
            full = int(said) if len(said) == 4 else 2000 + int(said)
            if len(said) == 2 and full > ref.year + 20:
                full -= 100
            try:
                d = date(full, num, day)
            except ValueError:
                continue
        else:
            if guessed:
                loose.append(len(found))
            elif abs((d - ref).days) <= 366:
                fixed.append(d)
        found.append((m.group(0), d))
    if fixed and loose:
        # "strip-out Monday 8 August, plastering the week of 22 August, units fitted the week of
        # 29 August": a schedule's days are of one stretch of time, so a day whose year was
        # only guessed (from a tense the participles mislead) takes the year that puts it
        # nearest the day a weekday settled
        for i in loose:
            phrase, d = found[i]
            near = min(
                (c for y in (-1, 0, 1) if (c := _same_day(d, fixed[0].year + y)) is not None),
                key=lambda c: abs((c - fixed[0]).days),
                default=d,
            )
            found[i] = (phrase, near)
    for m in _DAY_AND.finditer(text):
        # "Monday 10 and Tuesday 11 March": the first day is of the second's month
        second = next((d for phrase, d in found if m.group("second").endswith(phrase)), None)
        if second is None:
            continue
        try:
            first = date(second.year, second.month, int(m.group("d")))
        except ValueError:
            continue
        if m.group("wd"):
            first = _on_weekday(first, _weekday_index(m.group("wd")), ref)
        found.append((m.group("first"), first))
    return found


def _verbless(clause: str) -> bool:
    """Whether `clause` has no verb, nor a word that reads as one (`tense_at`'s test)."""
    return not lang.has_verb(clause) and not re.search(r"\b[a-z]{3,}[^s\W]s\b", clause)


def _same_day(d: date, year: int) -> date | None:
    """`d`'s day and month in `year`; None for 29 February in a year without it."""
    try:
        return d.replace(year=year)
    except ValueError:
        return None


def _weekday_index(said: str) -> int:
    word = said.lower().rstrip(".")
    return WEEKDAYS.index(word) if word in WEEKDAYS else lang.WEEKDAY_ABBREVIATIONS[word]


def _on_weekday(d: date, weekday: int, ref: date) -> date:
    """A month-day said with its weekday ("Friday 14 February") in the year next to `d`'s in
    which it falls on that weekday, within half a year of `ref` (the weekday tells the year
    better than a tense does: "school closed" is no past); `d` when none does (a weekday
    misremembered)."""
    if d.weekday() == weekday:
        return d
    fits = []
    for year in (d.year - 1, d.year + 1):
        try:
            other = date(year, d.month, d.day)
        except ValueError:
            continue
        if other.weekday() == weekday and abs((other - ref).days) <= 183:
            fits.append(other)
    return min(fits, key=lambda x: abs((x - ref).days)) if fits else d


# -- coreference --------------------------------------------------------------------------


class Context:
    """What the sentences so far named: who "he", "she" and "it" can be."""

    def __init__(self, directory: Directory):
        self.directory = directory
        self.gender: dict[str, str] = {}
        self.last: list[str] = []  # people named (page slugs), latest last
        self.form: dict[str, str] = {}  # slug -> the name as it was last written
        self.pet_last = False  # the latest thing named is an animal
        self.dates: list[tuple[str, date]] = []  # dates said so far, with their clause
        #: the organisations named so far by the last word of their name: "hospice" ->
        #: {"Larkfield Hospice"}, for "the hospice" said later (`extract._firm_by_kind`)
        self.firms: dict[str, set[str]] = {}
        self.remembered = directory.remembered_dates  # and those of earlier sessions
        # how the conversation writes numeric dates: "mdy", "dmy" or None (not shown)
        self.date_order: str | None = None
        # names said without anything that makes them a person ("tuesday was Malik"): slug
        # -> name; one becomes a person when a later "he" or "she" can only mean it
        self.candidates: dict[str, str] = {}
        self.candidate_said: dict[str, str] = {}  # slug -> when the candidate was named
        # the sentence read last: when it was said, and the people it named (slugs)
        self.just: tuple[str, list[str]] = ("", [])
        # the amounts and times the conversation confirms (`figures.confirmed`)
        self.figures = Figures()
        # a user's sentence -> the dates the assistant's reply restating it gives explicitly
        # (`referred.restated_dates`): a bare weekday of it means the one of those it names
        self.restated: dict[str, list[date]] = {}
        # another sentence of that message, naming what the reply dates by its weekday alone
        # (`referred.restated_dates`): a bare weekday of it that the reply dates further off
        # than a week is left undated
        self.restated_elsewhere: dict[str, list[date]] = {}
        # a user's sentence whose "she" or "he" names nobody -> the names the assistant's
        # reply restating it gives (`referred.restated_people`)
        self.restated_people: dict[str, list[str]] = {}
        # such a sentence -> the name the assistant asked about it and the user said yes to
        # ("Is that Amara?" / "yes"; `referred.confirmed_people`)
        self.confirmed_people: dict[str, list[str]] = {}
        # the people named by a role ("my wife Sal"), for a later "the wife" (`referents`)
        self.referents = Referents()
        # the time of a message that set out a week that repeats ("Kids' activities this
        # term:"): its lines opening on a weekday name no one day (`weekly_line`)
        self.weekly_at: str | None = None


def referent(
    context: Context, gender: str, *, exclude: set[str], said_at: str | None = None
) -> str | None:
    """Who "he" or "she" means, or None when unsure: the latest person known to be of that
    gender, unless someone whose gender is unknown was named after them; someone of unknown
    gender only when nobody else could be meant, or when they are the one person the
    sentence just before, in the same message (`said_at`), named and everyone else who fits
    is of a known gender (by this session or by memory's pages). A wrong person is worse
    than none."""
    recent = [
        k
        for k in reversed(context.last)
        if k not in exclude
        and (
            k not in context.candidates
            or k in context.directory.people
            or context.candidate_said.get(k) == said_at
        )  # a name no rule typed is someone only for its own message ("we use Linear")
    ]
    # (a gender this session does not say, memory's pages may: "he" is never the person a
    # page knows as "the user's wife")
    fits = [
        k
        for k in recent
        if (context.gender.get(k) or context.referents.gender_known(k, context.directory))
        in (gender, None)
    ]
    if not fits or fits[0].startswith("?"):
        return None  # (or the latest who fits is a name only guessed at: `_paired_opening`)
    if _two_just_named(context, fits, gender):
        # "Tom met my brother Lukas. He was late": the sentence just before named another
        # who may be "he" as well (of this gender or of none known): either, kept as said
        return None
    if context.gender.get(fits[0]) == gender or len(fits) == 1:
        if context.just != (said_at, [fits[0]]) and context.referents.rivals(
            fits[0], fits[1:], gender, context.gender, context.directory
        ):
            # "she" after two women named in the last sentences is either, unless the
            # sentence just before, in the same message, named her alone
            return None
        return fits[0]
    if (
        said_at is not None
        and context.just == (said_at, [fits[0]])
        and all(context.gender.get(k) for k in fits[1:])
    ):
        # the one person the sentence just before named, in the same message, when everyone
        # else who fits is of a known gender: "last night was Theo - wine bar." / "kept
        # checking his phone" is Theo's phone, not Malik's, named before
        return fits[0]
    return None


def _two_just_named(context: Context, fits: list[str], gender: str) -> bool:
    """Whether the sentence just before named the latest person who fits a "he" or "she"
    and also someone else who fits (of that gender, or of none known and no given name of
    the other gender only): nothing tells which of the two the pronoun means."""
    just = context.just[1]
    if fits[0] not in just:
        return False

    def said_as(k: str) -> str:  # "Grandad" and "the user's grandad" are one person
        return re.sub(r"^(?:the user's |\?the |\?)", "", context.form.get(k, k).lower())

    for k in fits[1:]:
        if k not in just or said_as(k) == said_as(fits[0]):
            continue
        if fits[0].startswith(f"{context.form.get(k, k)}'s "):
            continue  # "Priya's dad is selling his van. He …": the dad, whose kin Priya is
        if context.gender.get(k) == gender:
            return True
        first = context.form.get(k, k).split()[0]
        if given_gender(first) not in (None, gender) and not first.startswith("?"):
            continue
        return True
    return False


#: "Her landlord …" opening a sentence: "her" owns what follows, as "his" does; an object
#: ("take her for a walk") never opens one.
#: After a kin word: someone of theirs ("my daughter's teacher"), who is not them.
_OWNS_SOMEONE = re.compile(
    rf"['’]s\s+(?:[\w-]+\s+)?(?:{lang._ROLE_WORD}|friend|boss|partner|colleague)\b", re.I
)
_OWNS_AT_HEAD = re.compile(r"\W*(?:(?:and|but|so|also|oh|plus),?\s+)*her\s+[a-z]", re.I)


def _restated_referent(context: Context, raw: str, gender: str, exclude: set[str]) -> str | None:
    """Whom "she" or "he" of `raw` means when the rules cannot tell (two women named, say)
    but the assistant's reply restating the sentence names one person the conversation
    named before, of that gender or of none known: the reply read whom the user meant. Or
    the assistant asked ("Is that Amara?") and the user said yes: Amara, named in this
    conversation or on a page memory has."""
    said = context.restated_people.get(raw) or []
    fits = {
        slug
        for name in said
        if (slug := person_slug(name)) in context.last
        and slug not in exclude
        and context.gender.get(slug) in (gender, None)
    }
    # asked and said yes to: also someone memory knows from an earlier conversation
    fits |= {
        slug
        for name in context.confirmed_people.get(raw) or []
        if ((slug := person_slug(name)) in context.last or slug in context.directory.people)
        and slug not in exclude
        and context.gender.get(slug) in (gender, None)
    }
    return fits.pop() if len(fits) == 1 else None


#: A sentence opening on "he" or "she" (its subject).
_OPENING_PRONOUN = re.compile(r"\W*(?:he|she)(?:['’](?:s|d|ll|ve))?\b", re.I)


def resolve_pronouns(s: Sentence, raw: str, context: Context) -> None:
    """'Her birthday is March 14' after 'my sister Maya': the sentence is about Maya."""
    directory = context.directory
    if s.relation and (g := lang.kin_gender(s.relation[0])):
        context.gender[directory.person(s.relation[1])] = g
    for name, role in s.roles:  # "Anna's husband": a kin word of someone else's tells it too
        if (g := lang.kin_gender(role.rsplit(" ", 1)[-1])) and name in s.people:
            context.gender.setdefault(directory.person(name), g)
    # "the wife" after "the wife (Dana)": read as Dana by the rules below
    raw = by_role(s, raw, context.referents, directory, context.gender)
    gender = lang.pronoun_gender(raw)
    said = lang.PRONOUN.search(raw)
    upto = raw[: said.start()] if said else raw  # an animal named after the pronoun is no "he"
    if any(p in upto for p in s.others.get("pets", [])) or (
        lang.PET_NOUN.search(upto) and not s.people
    ):
        context.pet_last = True
    if (m := lang.PET_NAMED.search(raw)) and context.pet_last:
        name = m.group("name")
        directory.other("pets", name)
        s.others.setdefault("pets", []).append(name)
        if name in s.people:
            s.people.remove(name)
        return
    named = [n for n in s.people if n != s.speaker]
    key = {n: directory.person(n) for n in named}
    # kin words: "my sister Farah", "her son Theodore" tell a gender; "my brother" without a
    # name is someone too, whom a later "he" may mean
    unnamed: list[str] = []
    addressed_kin = False
    for m in lang.KIN.finditer(raw):
        g = lang.kin_gender(m.group("rel"))
        if m.group("name") and m.group("name") in key:
            if g:
                context.gender.setdefault(key[m.group("name")], g)
        elif (
            s.relation
            and s.relation[0] == m.group("rel").lower()
            and s.relation[1] in key
            and not m.group("name")
        ):  # "Kit (my nephew, 9)": the nephew is Kit
            if g:
                context.gender.setdefault(key[s.relation[1]], g)
        elif not m.group("name") and m.group("whose").lower() == "your":
            addressed_kin = True  # "your mum … she says": someone unnamed the pronoun may mean
        elif not m.group("name") and m.group("whose").lower() == "my":
            if key and _OWNS_SOMEONE.match(raw, m.end()):
                continue  # "my daughter's teacher, Ms Abara": the one named is the teacher
            who = f"the user's {m.group('rel').lower()}"
            unnamed.append(who)
            if g:
                context.gender[who] = g
    for m in lang.NAMES_KIN.finditer(raw):
        # "Priya's dad is selling his van": the dad is someone unnamed a later "he" means,
        # never Priya, whose gender the sentence does not tell
        if not m.group("name") and m.group("holder") in key:
            g = lang.kin_gender(m.group("rel"))
            who = f"{m.group('holder')}'s {m.group('rel').lower()}"
            if g and who not in unnamed:
                unnamed.append(who)
                context.gender[who] = g
    for m in _THE_KIN.finditer(raw):
        # "the dad of Mila's friend": someone unnamed a later "he" may mean as well as a man
        # named beside him; its key ("?the dad") reads no one into that pronoun
        g = lang.kin_gender(m.group("rel")) or _PERSON_NOUN_GENDER.get(m.group("rel").lower())
        if g and (who := f"?the {m.group('rel').lower()}") not in unnamed:
            unnamed.append(who)
            context.gender[who] = g
    for m in _KIN_AS_NAME.finditer(raw):
        # "Mum's hip is done": the user's mum, named by the kin word alone, is someone a
        # later "she" may mean as well as a woman named after her
        who = f"the user's {m.group('rel').lower()}"
        if who not in unnamed and (g := lang.kin_gender(m.group("rel"))):
            unnamed.append(who)
            context.gender[who] = g
    for m in lang.KIN_TITLE.finditer(raw):
        if m.group("name") in key and (g := lang.kin_gender(m.group("rel"))):
            context.gender.setdefault(key[m.group("name")], g)
    for name in key:
        # "Ms Abara", "Mr Osei": a title that tells it
        title = re.match(r"(Mrs|Ms|Miss|Sra|Srta|Mme|Mlle|Frau|Mr|Sr|Herr)\.?\s", name)
        title = title or re.search(
            rf"\b(Mrs|Ms|Miss|Sra|Srta|Mme|Mlle|Frau|Mr|Sr|Herr)\.?\s+{re.escape(name)}\b", raw
        )
        if title:
            male = title.group(1) in ("Mr", "Sr", "Herr")
            context.gender.setdefault(key[name], "m" if male else "f")
    for pattern in lang.NICKNAME:
        for m in pattern.finditer(raw):
            if (full := m.group("full")) in key and (g := lang.pronoun_gender(m.group(0))):
                context.gender.setdefault(key[full], g)
    lead_kin = re.match(r"\s*(?:his|her)\s+\w+\s+(?P<name>\S+)", raw, re.I)
    about_kin = bool(lead_kin and lang.KIN.match(raw.strip()) and len(set(key.values())) == 1)
    # "Her guitar teacher is Mr Varga": "her" is someone else, whose teacher Mr Varga is
    owned = lang.OWNED_ROLE.match(raw)
    if owned and not about_kin and owned.group("name") in key:
        about_kin = True
    if (
        gender
        and (not named or about_kin)
        and not context.pet_last
        and not unnamed
        and not addressed_kin
        and not _opens_on_someone(raw)
    ):
        ref = referent(context, gender, exclude=set(key.values()), said_at=s.time)
        if ref is None and not named:
            ref = _restated_referent(context, raw, gender, exclude=set(key.values()))
        if (
            ref in context.candidates
            and ref not in directory.people
            and said is not None
            and said.group("p").lower() in ("him", "her", "hers")
            and not _OWNS_AT_HEAD.match(raw)
        ):
            ref = None  # "take him for a walk" may be said of an animal: a name is someone
            # only when it is the subject ("he", "she") or owns something ("his")
        if ref is not None:
            context.gender.setdefault(ref, gender)
            form = context.form.get(ref, ref)
            if ref in context.candidates and ref not in directory.people:
                directory.person(context.candidates[ref])  # "he" can mean only this name
            if ref in directory.people or ref in directory.aliases.values():
                s.people.insert(0, form)
                if not about_kin:
                    s.subject = form
                else:  # "Her son Theodore ...": about Theodore, who is Farah's son
                    kin = lang.KIN.match(raw.strip()) or owned
                    holder = kin.group("name") if kin else None
                    if kin and holder and holder in key:
                        s.subject = holder
                        rel = re.sub(r"\s+", " ", kin.group("rel").lower())
                        s.roles.append((holder, f"{form}'s {rel}"))
            s.text = lang.resolve_pronoun(s.text, form[:1].upper() + form[1:])
    elif gender and len(named) == 1 and key[named[0]] not in context.gender and not unnamed:
        # (not when someone unnamed is said too: "Priya's dad … his van" is the dad's)
        context.gender[key[named[0]]] = gender
    if gender and _OPENING_PRONOUN.match(raw) and not context.pet_last and not unnamed:
        # whom the opening "he"/"she" is read as, by the rule above, even where the sentence
        # names someone else and so is not made about them: a request naming both ("the
        # bit about her dad and Steph") reaches "He's moving in with Steph"
        ref = referent(context, gender, exclude=set(key.values()), said_at=s.time)
        if ref is not None and (ref in directory.people or ref in directory.aliases.values()):
            s.pronoun_means = context.form.get(ref, ref)
    for n in named:
        context.form[key[n]] = n
    for n in _candidate_names(s, raw, directory):
        slug = person_slug(n)
        context.candidates[slug] = context.form[slug] = n
        context.candidate_said[slug] = s.time
        named.append(n)
        key[n] = slug
    unnamed += _paired_opening(raw, named)
    for k in [*(key[n] for n in named), *unnamed]:
        if k in context.last:
            context.last.remove(k)
        context.last.append(k)
    now = [key.get(n) or directory.person(n) for n in s.people if n not in (s.speaker, "the user")]
    context.just = (s.time, list(dict.fromkeys([*now, *(key[n] for n in named), *unnamed])))
    if named:
        context.pet_last = bool(s.others.get("pets")) or (
            (pet := lang.PET_NOUN.search(raw)) is not None and raw.find(named[-1]) < pet.start()
        )
    if s.subject is None and s.people:
        first = s.people[0]
        if (
            first != "the user"
            and re.search(rf"(?:^|[,;:]\s*|\b(?:and|but|so|that)\s+){re.escape(first)}\b", raw)
            or s.relation
            or s.roles
        ):
            s.subject = first


#: A sentence that names someone first, says who they are, and goes on with "he" or "she"
#: ("Ottilie Brandt, a woman from the choir, she runs the bakery"): the name and its
#: apposition, the pronoun after.
_NAMED_FIRST = re.compile(
    r"\s*(?P<name>[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+){0,2}),\s+(?:a|an|the|my|our|his|her|their)\s+"
    r"[^,;.!?]{1,40},\s+(?:he|she)\b"
)


def _opens_on_someone(raw: str) -> bool:
    """Whether `raw` names someone first and goes on about them as "he" or "she"
    (`_NAMED_FIRST`), the name no common word ("Honestly, the thing is, he …" names no one):
    the pronoun is that person, never one said before."""
    m = _NAMED_FIRST.match(raw)
    return m is not None and not any(common_word(w) for w in m.group("name").split())


#: A sentence's first word joined by "and" to a name after it: "Tom and Jake came round".
_PAIRED_OPENING = re.compile(r"\W*(?P<word>[A-Z][a-z]+)\s+(?:and|&)\s+(?P<other>[A-Z][\w'’-]*)")


#: A sentence's first word followed by a word in lower case ("Priya rang Arjun", "Kavya
#: aunty met Meena"): it may be whoever does what the sentence says.
_ACTING_OPENING = re.compile(r"\W*(?P<word>[A-Z][a-z]+)\s+[a-z]")


def _paired_opening(raw: str, named: list[str]) -> list[str]:
    """A sentence's first word that opens it joined by "and" to someone it names ("Tom and
    Jake came round"), or followed by a word in lower case when the sentence names someone
    else ("Priya rang Arjun"), and may itself be someone (no English word, day or month): a first
    word's capital tells nothing, so it is no one the pages name, but a later "he" or "she"
    may mean it as well as the other. Its key ("?tom") stands for it among those named
    (`referent` reads no one into a pronoun that may mean it)."""
    m = _PAIRED_OPENING.match(raw)
    if m and any(m.group("other") == n.split()[0] for n in named):
        word = m.group("word")
    elif (m := _ACTING_OPENING.match(raw)) and any(m.group("word") not in n for n in named):
        word = m.group("word")  # "Priya rang Arjun": the first word acts on someone named
    else:
        return []
    low = word.lower()
    if word in named or low in stopwords.ENGLISH or low in WEEKDAYS or low in MONTHS:
        return []
    if any(n.split()[0] == word for n in named) or word in NOT_NAMES or common_word(word):
        return []
    if any(
        word.endswith(e) and common_word(word.removesuffix(e) + y)
        for e, y in (("s", ""), ("es", ""), ("ies", "y"))
    ):
        return []  # "Flights are …", "Ferries leave …": a plural of a common word
    return [f"?{low}"]


#: Someone said by "the" and a word that tells a gender, no name after it: "the dad",
#: "the bloke" (a name after it, "the dad (Sam)", is who it is).
_PERSON_NOUN_GENDER = {"man": "m", "guy": "m", "bloke": "m", "woman": "f", "lady": "f"}
_THE_KIN = re.compile(
    r"\b[Tt]he\s+(?P<rel>dad|father|mum|mom|mother|brother|sister|husband|wife|son|daughter|"
    r"uncle|aunt|auntie|boyfriend|girlfriend|grandad|grandma|grandpa|man|guy|bloke|woman|lady)"
    r"\b(?!\s*\(?[A-Z])"
)


#: A parent or grandparent named by the kin word alone, capitalised as a name: "Mum",
#: "Grandad" (not "Mum Sarah", not "my mum", which `lang.KIN` reads).
_KIN_AS_NAME = re.compile(
    r"(?<![\w'’])(?<!my\s)(?<!our\s)(?P<rel>Mum|Mom|Mam|Mummy|Mother|Dad|Daddy|Father|Gran|"
    r"Granny|Grandma|Nan|Nana|Nanna|Grandad|Granddad|Grandpa)\b(?!\s+[A-Z])"
)


#: What a name said after it is a place, a thing or a firm, not someone: "the Whitworth",
#: "in Ancoats", "to Leeds"; or the other side of a contrast, of whatever kind its first
#: side is ("Berlin, not Munich").
_NOT_SOMEONE_BEFORE = re.compile(
    r"(?:\b(?:the|a|an|this|that|in|at|to|from|into|near|via|on|of|by|for|inside|outside|"
    r"around|through|not|or|nor|than|versus|vs)|[#@/])\s*$",
    re.I,
)


def _candidate_names(s: Sentence, raw: str, directory: Directory) -> list[str]:
    """Names said inside a sentence that no rule typed ("tuesday was Malik - climbing wall"):
    capitalised, not its first word, no English word, day or month, not after an article or
    a preposition, and nothing memory or this sentence knows as a person or as anything
    else. Each may be who a later "he" or "she" means."""
    out: list[str] = []
    typed: set[str] | None = None
    known: dict[str, str] | None = None
    for m in _NAME_INSIDE.finditer(raw):
        word = m.group()
        low = word.lower()
        if low in stopwords.ENGLISH or low in WEEKDAYS or low in MONTHS or word in NOT_NAMES:
            continue
        # what comes before the word is searched in place (`endpos`), as if the sentence
        # ended there: a slice would be a text of its own for the cheap test to scan, one
        # per capitalised word, where the sentence is scanned once for all of them
        if not raw[: m.start()].strip() or _SENTENCE_OPENS.search(raw, 0, m.start()):
            continue  # a sentence's first word is capitalised whatever it is
        if _NOT_SOMEONE_BEFORE.search(raw, 0, m.start()) or word in out:
            continue
        if typed is None or known is None:
            typed = {n for names in s.others.values() for n in names}
            typed |= set(s.people) | set(s.topics)
            known = directory.known_person_names()
        if word in typed or any(word in t for t in typed) or word in known:
            continue
        if directory.kind_of(word):
            continue
        if any(lang.names_day(phrase, word) for phrase, _ in s.dates):
            continue  # "keeping track of wor Christmas": a day read as a date, no one
        out.append(word)
    return out


_NAME_INSIDE = re.compile(rf"(?<![\w'’-]){lang.NAME_WORD}(?![\w-])")
_SENTENCE_OPENS = re.compile(r"[.!?:]\s*[\"'(]?$")


def link_known_names(sentences: list[Sentence], directory: Directory) -> None:
    """Register the people named by a rule, then find known names anywhere in the sentences."""
    for s in sentences:
        for name in s.people:
            directory.person(name)
    forms = directory.known_person_names()
    project_forms = {name.lower(): slug for slug, name in directory.projects.items()}
    for s in sentences:
        for form in sorted(forms, key=len, reverse=True):
            named = re.search(rf"(?<![\w-]){re.escape(form)}(?![\w-])", s.text)
            if any(form in names for names in s.others.values()) or directory.kind_of(form):
                continue
            if named and not any(form in p or p in form for p in s.people):
                s.people.append(form)
        for form, slug in project_forms.items():
            if slug not in s.projects and re.search(
                rf"(?<![\w-]){re.escape(form)}(?![\w-])", s.text, re.I
            ):
                s.projects.append(slug)


# -- corrections --------------------------------------------------------------------------

_CORRECTION_HEAD = re.compile(
    r"\b(?:actually|correction|to\s+correct|i\s+was\s+wrong|i\s+meant|my\s+mistake|sorry|"
    r"in\s+fact|change\s+of\s+plans?|scratch\s+that|update|turns\s+out|wait|"
    r"wrong(?=\s+(?:up\s+there|above|before|earlier)|\s*[,;:—–]))",
    re.I,
)
#: "not" before the value a sentence sets aside, in English and the languages mixed into it
#: ("12 osób, nie 10", "12 Leute, nicht 10", "le 25, pas le 20"); never "no", which in
#: English says the value after it holds ("Tuesday, no, Wednesday").
_NOT = r"(?:not|nicht|niet|non|nie|pas|et\s+non|y\s+no|e\s+non|en\s+niet)"
#: A value said to hold now, just before the old one it sets aside: "… 16 now, not 15".
_NOW_END = re.compile(r"(?<![£$€\d.,])\d[\d.,]*(?:\s+[^\W\d_]+)?\s+now\s*$", re.I)
_MONEY_OR_SHARE = re.compile(r"[£$€%]")
_NOT_CLAUSE = re.compile(rf",?\s+{_NOT}\s+(?P<old>(?:[^,.;:!?()—–]|[,.:](?=\d))+)")


def contrasted_earlier(s: Sentence, sentences: list[Sentence]) -> list[Sentence]:
    """The one earlier sentence of the session that "X, not Y" corrects when Y is a plain
    word ("Desmond's problem is gluten, not dairy" after a row "Uncle Desmond: dairy"): said
    by the same speaker, about the same person, holding Y as a word. When no sentence or
    several fit, none: "we use Postgres, not MySQL" only contrasts."""
    m = _NOT_CLAUSE.search(s.raw or s.text)
    if m is None or not s.people:
        return []
    old = m.group("old").strip()
    if not re.fullmatch(r"[a-z][a-z'’-]*(?:\s+[a-z][a-z'’-]*){0,2}", old):
        return []
    said = re.compile(rf"(?<![\w-]){re.escape(old)}(?![\w-])", re.I)
    fits = [
        e
        for e in sentences
        if e.speaker == s.speaker
        and set(e.people) & set(s.people)
        and said.search(e.raw or e.text)
        and not _NOT_CLAUSE.search(e.raw or e.text)
    ]
    return fits if len(fits) == 1 else []


#: A value as said: "48,200", "£612", "the 2nd", "3 mm".
VALUE_SAID = re.compile(
    r"(?<![\w.,:])[£$€]?\d+(?:[,.:]\d+)*(?:st|nd|rd|th|am|pm)?(?![\w:]|[.,]\d)", re.I
)


#: "7:30 instead of 8am": the value replaced named after the one that holds.
_INSTEAD_OF = re.compile(
    r",?\s+(?:instead\s+of|rather\s+than)\s+(?P<old>(?:[^,.;:!?()—–]|[,.](?=\d))+)"
)


#: A code of capitals and figures, each at least two: "AFE2937", "KT4471", "B12X"; or of
#: five or more with one figure among at least two capitals: "QX7TRB".
_CODE = re.compile(
    r"(?=(?:[^A-Z]*[A-Z]){2})(?=(?:\D*\d){2})[A-Z0-9]{4,12}"
    r"|(?=(?:[^A-Z]*[A-Z]){2})(?=\D*\d)[A-Z0-9]{5,12}"
)
#: A code of two or three capitals, a space and figures: "LH 902", "EZY 4471" (at the start
#: of the words set aside; at the end of those before them).
_SPACED_CODE = re.compile(r"[A-Z]{2,3}\s\d{2,5}(?![\w])")
_SPACED_CODE_END = re.compile(r"(?<![\w])[A-Z]{2,3}\s\d{2,5}$")


def _shape(code: str) -> str:
    """A code's letters and figures as "A" and "9": "KT4471" -> "AA9999"."""
    return re.sub(r"\d", "9", re.sub(r"[A-Z]", "A", code))


def values_contrasted(text: str) -> tuple[str, str] | None:
    """(new, old) when `text` corrects a value by naming the one it replaces: "the mileage
    was 46,200, not 48,200" -> ("46,200", "48,200"); "back on the 3rd, not the 2nd" ->
    ("3rd", "2nd"); "comes at 7:30 instead of 8am" -> ("7:30", "8am"). Both sides must be
    values of the same form (an ordinal for an ordinal, an amount for an amount); None
    otherwise."""
    m = _NOT_CLAUSE.search(text) or _INSTEAD_OF.search(text)
    if m is None:
        return None
    old_said = re.sub(r"^(?:the|a|an)\s+", "", m.group("old").strip(), flags=re.I)
    code = _CODE.fullmatch(old_said.split(" ")[0].rstrip(".,")) or _SPACED_CODE.match(old_said)
    if code is not None:
        # "the ring is KT4471, not KT4417": a code of letters and figures for one of the
        # same shape said just before it; "LH 902, not LH 920" written with a space
        ahead = text[: m.start()].rstrip().rstrip(".,")
        said = _CODE.fullmatch(ahead.split(" ")[-1]) or _SPACED_CODE_END.search(ahead)
        if said is None or _shape(said.group(0)) != _shape(code.group(0)):
            return None
        return (said.group(0), code.group(0)) if said.group(0) != code.group(0) else None
    if (named := _named_day_contrasted(text[: m.start()], old_said)) is not None:
        return named
    old = VALUE_SAID.fullmatch(old_said.split(" ")[0].rstrip(".,"))
    before = list(VALUE_SAID.finditer(text[: m.start()]))
    if old is None or not before:
        return None
    new = before[-1].group(0).rstrip(".,")
    old_value = old.group(0)

    def form(v: str) -> tuple[bool, bool, bool]:
        return (
            v[:1] in "£$€",
            bool(re.search(r"(?:st|nd|rd|th)$", v, re.I)),
            bool(re.search(r":|am$|pm$", v, re.I)),
        )

    if new == old_value or form(new) != form(old_value):
        return None
    if not any(form(old_value)) and len(re.sub(r"\D", "", old_value)) < 3:
        # "4, not 3": a small bare number could be any count or day said before; "2 eggs
        # not 3" names what it counts, and only a sentence counting that is corrected
        unit = _COUNTED.match(text, before[-1].end())
        if unit is None or unit.group("unit").lower() in stopwords.ENGLISH:
            return None
        return f"{new} {unit.group('unit')}", f"{old_value} {unit.group('unit')}"
    return new, old_value


def _named_day_contrasted(head: str, old_said: str) -> tuple[str, str] | None:
    """(new, old) for a month or a weekday set against another of its kind, both named in
    full: "ends in July, not June" -> ("July", "June"); "on Thursday, not Friday"."""
    old = old_said.split(" ")[0].rstrip(".,")
    said = re.search(r"([A-Za-z]+)\W*$", head)
    if said is None or said.group(1) == old:
        return None
    for kind in (MONTHS, WEEKDAYS):
        if old.lower() in kind and said.group(1).lower() in kind and old[:1].isupper():
            return said.group(1), old
    return None


#: What a number counts, said right after it: "2 eggs", "3 tins".
_COUNTED = re.compile(rf"\s*(?P<unit>[^\W\d_]{{3,}})(?![\w])(?=\s*,?\s+{_NOT}\s)")


def holds_value(text: str, value: str) -> bool:
    """Whether `text` says `value` as a value of its own ("48,200" in "48,200 miles", not
    in "148,200"; "beef" as a word, not in "beefy")."""
    return value_span(text, value) is not None


def value_span(text: str, value: str) -> tuple[int, int] | None:
    """Where `text` says `value` as a value of its own (`holds_value`), the first time; for
    a count with what it counts ("3 eggs"), the span of the number."""
    if (counted := re.fullmatch(r"(\d+) ([A-Za-z]+)", value)) is not None:
        m = re.search(
            rf"(?<![\w.,]){counted.group(1)}\s*{re.escape(counted.group(2))}\b", text, re.I
        )
        return (m.start(), m.start() + len(counted.group(1))) if m else None
    if not re.search(r"\d", value) or _CODE.fullmatch(value):
        m = re.search(rf"(?<![\w-]){re.escape(value)}(?![\w-])", text, re.I)
        return m.span() if m else None
    for m in VALUE_SAID.finditer(text):
        if m.group(0).rstrip(".,") == value:
            return m.start(), m.start() + len(value)
    return None


#: "swap him from the beef to the risotto", "switch the booking from Friday to Sunday": a
#: value changed, the old one named after "from", the new one after "to".
_SWAPPED = re.compile(
    r"\b(?:swap|switch|chang|mov|put|bump|upgrad|downgrad)(?:e|es|ed|ing|s|ped|ping)?\b"
    r"(?P<who>[^,.;:!?]{0,30}?)\bfrom\s+(?:the\s+|a\s+|an\s+)?(?P<old>[\w'’-]+(?:\s+[\w'’-]+)?)"
    r"\s+to\s+(?:the\s+|a\s+|an\s+)?(?P<new>[\w'’-]+(?:\s+[\w'’-]+)?)"
    r"(?=\s*(?:[,.;:!?]|$)|\s+(?:until|till|while|for\s+now|for\s+a\s+while|because|since)\b)",
    re.I,
)


def values_swapped(text: str) -> tuple[str, str] | None:
    """(new, old) when `text` moves something from one value to another by name: "swap him
    from the beef to the risotto" -> ("risotto", "beef")."""
    m = _SWAPPED.search(text)
    if m is None or m.group("old").lower() == m.group("new").lower():
        return None
    return m.group("new"), m.group("old")


def swapped_of(text: str) -> str:
    """Whom or what `text` moves from one value to another, as said between the verb and
    "from" ("Nadia's moved me from goal attack to goal shooter" -> "me"), or ""."""
    m = _SWAPPED.search(text)
    return "" if m is None else m.group("who").strip()


def swapped_earlier(s: Sentence, sentences: list[Sentence]) -> list[Sentence]:
    """The one earlier sentence of the session that `s` moves someone away from ("Lin is
    moving from Friday to Saturday mornings" after a rota's "Fridays, volunteers: Bethan,
    Lin"): it names everyone `s` names and says the old value (a weekday also as its plural,
    the day it recurs on) and not the new one. None when no sentence or several fit."""
    pair = values_swapped(s.raw or s.text)
    names = [p for p in s.people if p != "the user"]
    if pair is None or not names:
        return []
    new, old = pair
    olds = [old, f"{old}s"] if old.lower() in WEEKDAYS else [old]
    fits = [
        e
        for e in sentences
        if e.raw
        and all(re.search(rf"\b{re.escape(n)}\b", e.raw) for n in names)
        and any(holds_value(e.raw, o) for o in olds)
        and not holds_value(e.raw, new)
    ]
    return fits if len(fits) == 1 else []


def contrasted_value_earlier(
    s_raw: str, speaker: str | None, sentences: list[Sentence], *, found: bool = False
) -> tuple[int, str] | None:
    """(index, corrected text) of the one earlier sentence of the session, by the same
    speaker, that said the value "X, not Y" names as wrong, with Y replaced by X: "we fly
    back on the 3rd, not the 2nd" after "we fly out on the 22nd and back on the 2nd of
    January" makes that sentence "... back on the 3rd of January". With `found`, the one
    finding of the assistant's that holds it instead ("The dentist is 4.45, not 4.15" after
    the assistant read "dentist 4.15" off a photographed calendar), its text corrected. None
    when no sentence or several said it."""
    pair = values_contrasted(s_raw)
    if pair is None:
        return None
    new, old = pair
    who = speaker or "the user"

    def said(e: Sentence) -> str:
        return e.text if found else e.raw

    fits = [
        i
        for i, e in enumerate(sentences)
        if (e.speaker == "the assistant" and "finding" in e.kinds if found else e.speaker == who)
        and said(e)
        and holds_value(said(e), old)
        and not _NOT_CLAUSE.search(said(e))
    ]
    if len(fits) != 1:
        return None
    i = fits[0]
    raw = said(sentences[i])
    span = value_span(raw, old)
    assert span is not None  # holds_value found it
    return i, raw[: span[0]] + new.split(" ")[0] + raw[span[1] :]


def fix_last_value(
    sentences: list[Sentence], new: str, *, speaker: str | None
) -> tuple[int, str] | None:
    """(index, corrected text) of the latest sentence by the same speaker that holds a
    value of the sort of `new`, with that value replaced."""
    who = speaker or "the user"
    for i in range(len(sentences) - 1, max(-1, len(sentences) - 4), -1):
        s = sentences[i]
        if s.speaker != who or not s.raw:
            continue
        day = _ABSOLUTE.search(new)
        if day and (said := list(_ABSOLUTE.finditer(s.raw))):
            # "the 21 of March" for "the 12 of March": the day said last is the one meant
            last = said[-1]
            return i, s.raw[: last.start()] + day.group(0) + s.raw[last.end() :]
        if fixed := lang.replace_last_value(s.raw, new.strip()):
            return i, fixed[0]
    return None


#: The kinds of value a bare correction can give, most specific first: a percentage, an
#: amount, a time, a day (a weekday, a day of the month, a date), a count.
_MONTH = "(?:" + "|".join(m[:3] + r"[a-z]*\.?" for m in MONTHS) + ")"
VALUE_KINDS = (
    ("percentage", re.compile(r"(?<![\w.])\d+(?:\.\d+)?\s*(?:%|per\s*cent\b|percent\b)", re.I)),
    (
        "amount",
        re.compile(
            r"[£$€]\s?\d[\d,]*(?:\.\d+)?(?:k\b|m\b)?"
            r"|(?<![\w.])\d[\d,]*(?:\.\d+)?\s*(?:pounds|quid|euros?|dollars|bucks|p)\b",
            re.I,
        ),
    ),
    (
        "time",
        re.compile(
            r"(?<![\w.:])\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm)\b|(?<![\w.:])\d{1,2}:\d{2}(?![\d:])"
            r"|\b(?:noon|midday|midnight)\b|\bhalf\s+(?:past\s+)?(?:one|two|three|four|five|six|"
            r"seven|eight|nine|ten|eleven|twelve|\d{1,2})\b",
            re.I,
        ),
    ),
    # "6.40", "7.15": a time as British usage dots it, or any figure with two decimals; a bare
    # correction of it names another of the same form
    ("dotted", re.compile(r"(?<![\w.,:£$€])\d{1,2}\.\d{2}(?![\w,:%]|\.\d|\s*%)")),
    (
        "day",
        re.compile(
            rf"\b{WEEKDAY}s?\b|(?<![\w.])\d{{1,2}}(?:st|nd|rd|th)?(?:\s+of)?\s+{_MONTH}(?!\w)"
            rf"|\b{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?\b|(?<![\w.])\d{{1,2}}(?:st|nd|rd|th)\b",
            re.I,
        ),
    ),
    (
        "count",
        re.compile(
            r"(?<![\w.,:£$€])\d+(?![\w.,:%]|\s*%)|\b(?:one|two|three|four|five|six|seven|eight|nine|"
            r"ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty)\b",
            re.I,
        ),
    ),
)


#: A time of day: "4pm", "13:30", "noon", "half past two".
_TIME = dict(VALUE_KINDS)["time"]
#: What makes a time a time of day and nothing else: "am", "pm", "noon", "midday", "midnight".
_CLOCK_WORD = re.compile(r"am|pm|noon|midday|midnight", re.I)


def is_time(value: str) -> bool:
    """Whether `value` is a time of day ("noon", "1:30pm", "16:00")."""
    return bool(_TIME.fullmatch(value.strip()))


def values_by_kind(text: str) -> list[tuple[str, int, int]]:
    """The values `text` says, each as (kind, start, end), in the order said; a span is of
    its most specific kind only ("4pm" is a time, not a count of 4)."""
    taken: list[tuple[int, int]] = []
    out = []
    for kind, pattern in VALUE_KINDS:
        for m in pattern.finditer(text):
            if any(m.start() < e and s < m.end() for s, e in taken):
                continue
            taken.append(m.span())
            out.append((kind, m.start(), m.end()))
    return sorted(out, key=lambda v: v[1])


#: What opens a correction that gives only the value: "sorry", "scratch that", "no wait",
#: "you're right", "I mean", "make that".
_BARE_CUE = (
    r"(?:sorry|oops|no|nope|wait|actually|correction|scratch\s+that|my\s+mistake|my\s+bad|"
    r"i\s+meant?|hang\s+on|hold\s+on|you'?re\s+right|rather|er+m?|um+|ah|oh|ugh|typo|"
    r"make\s+(?:that|it)|change\s+(?:that|it)\s+to)"
)
#: A correction that says only the new value, perhaps the old one too: "sorry, 4:30",
#: "scratch that, the 12th", "it's 6% not 5%", "no wait, Friday then".
BARE_CORRECTION = re.compile(
    rf"^\W*(?:(?P<cue>{_BARE_CUE})[,:!.;—–-]*\s+)*"
    r"(?:(?:it'?s|it\s+is|it\s+was|it'll\s+be|that'?s|that\s+should\s+be|should\s+be|"
    r"should\s+have\s+said)\s+)?(?:(?:the|at|on|by|for|about)\s+)?"
    r"(?P<new>[^,;.!?]*?\d[^,;!?]*?|[A-Za-z]+)"
    r"(?:\s*,?\s+not\s+(?:the\s+|at\s+|on\s+)?(?P<old>[^,;!?]+?))?"
    r"(?:\s*,?\s+(?:then|instead|sorry|actually|my\s+bad|not\s+that))?[\s.!?…)]*$",
    re.I,
)

#: The same said the other way round, the value set aside first: "not Tuesday, Wednesday",
#: "sorry, not the 4th - the 5th".
_NOT_THEN = re.compile(
    rf"^\W*(?:(?P<cue>{_BARE_CUE})[\s,:!.;—–-]*\s)*not\s+(?:the\s+|at\s+|on\s+)?"
    r"(?P<old>[^,;!?—–-]+?)\s*(?:[,;—–-]+|\s\bbut\b)\s*(?:(?:it'?s|it\s+is)\s+)?"
    r"(?:(?:the|at|on|by)\s+)?(?P<new>[^,;.!?]*?\d[^,;!?]*?|[A-Za-z]+)"
    r"(?:\s*,?\s+(?:then|instead|sorry|actually|my\s+bad))?[\s.!?…)]*$",
    re.I,
)
#: What a bare correction's match needs for either of its groups `bare_correction` asks for:
#: the text opens on a cue ("cue") or says "not" between spaces ("old"). A text with neither
#: is not searched: on a long sentence the pattern tries every split of it.
_CUE_OR_NOT = re.compile(rf"^\W*{_BARE_CUE}[,:!.;—–-]*\s|\snot\s|^\W*not\s", re.I)


def bare_correction(text: str) -> tuple[str, str, str | None] | None:
    """(kind, new value, old value or None) when `text` corrects a value without naming
    what it is the value of: "sorry, 4:30" -> ("time", "4:30", None); "it's 6% not 5%" ->
    ("percentage", "6%", "5%"). A correction word must open it, or the old value be named;
    the new value must be one value of a kind, and the old one of the same kind."""
    if not _CUE_OR_NOT.search(text.strip()):
        return None  # neither a cue nor "not": the pattern's answer would be refused below
    m = BARE_CORRECTION.match(text.strip()) or _NOT_THEN.match(text.strip())
    if m is None or not (m.group("cue") or m.group("old")):
        return None
    new = values_by_kind(m.group("new"))
    if len(new) != 1 or (new[0][2] - new[0][1]) < len(m.group("new").strip()) - 4:
        return None  # one value, and little else: "4:30", "the 12th", "Friday then"
    kind, start, end = new[0]
    if kind == "count" and not m.group("old"):
        return None  # "sorry, 2" could be any number said before
    old = None
    if m.group("old"):
        olds = values_by_kind(m.group("old"))
        if len(olds) != 1 or olds[0][0] != kind:
            return None
        old = m.group("old")[olds[0][1] : olds[0][2]]
    return kind, m.group("new")[start:end], old


def bare_corrected(
    text: str, window: Iterable[Sentence], speaker: str | None
) -> tuple[Sentence, str] | None:
    """(sentence, corrected text) for a correction that gives only a value ("sorry,
    4:30"): of the sentences of this message and the one before (`window`), by the same
    speaker, the one that holds a value of that kind (the old value, when named). None
    when it is not a bare correction, or when no single sentence is the clear target:
    then both stay as said."""
    who = speaker or "the user"
    # a pasted conversation's line opens on its speaker's name: "Simon Pratt: Sorry, 6%."
    said = bare_correction(re.sub(rf"^{re.escape(who)}:\s*", "", text))
    if said is None:
        return None
    kind, new, old = said
    fits = []
    for e in window:
        if e.speaker != who or not e.raw:
            continue
        spans = [
            (s, t) for k, s, t in values_by_kind(e.raw)
            if k == kind and (old is None or _same_value(e.raw[s:t], old))
        ]  # fmt: skip
        if spans:
            fits.append((e, spans[-1]))
    if len(fits) != 1:
        return None
    e, (start, end) = fits[0]
    if _same_value(e.raw[start:end], new):
        return None
    return e, e.raw[:start] + new + e.raw[end:]


def _same_value(a: str, b: str) -> bool:
    return re.sub(r"[\s,]|\bthe\b", "", a.lower()) == re.sub(r"[\s,]|\bthe\b", "", b.lower())


#: "Hang on, the Trainline one is wrong, …": the thing a correction says is wrong.
_SAID_WRONG = re.compile(
    r"\W*(?:(?:hang\s+on|wait|sorry|oops|actually)[,\s]+)?(?:the|my|our)\s+([^:,.]{1,40}?)\s+"
    r"(?:is|was)\s+wrong\b",
    re.I,
)


def corrected_earlier(s: Sentence, sentences: list[Sentence]) -> list[Sentence]:
    """The earlier sentences of the session that `s` ("Correction on the cake: it's
    vanilla") corrects: by the same speaker, sharing the subject it names, or two words."""
    m = re.match(r"\W*(?:correction|i\s+was\s+wrong)\s+(?:on|about|to)\s+([^:,]+)", s.raw, re.I)
    m = m or _SAID_WRONG.match(s.raw)
    named = content_words(m.group(1)) - {"one", "ones"} if m else set()
    # "the 11% is wrong": what is wrong is a value, and the line that said it is meant
    value = m.group(1).strip() if m else ""
    if not re.fullmatch(r"[£$€]?\d[\d,.:]*(?:%|st|nd|rd|th|am|pm)?", value):
        value = ""
    words = content_words(s.raw) - {"correction", "actually", "update", "plan", "plans", "wrong"}
    out = []
    for old in reversed(sentences):
        if old.speaker != s.speaker or not old.raw:
            continue
        have = content_words(old.raw)
        if value:
            if re.search(rf"(?<![\w.,:£$€]){re.escape(value)}(?![\w:]|[.,]\d)", old.raw):
                out.append(old)
                break
            continue
        if (named and named <= have) or (not named and len(words & have) >= 2):
            out.append(old)
            break  # the latest one it can mean
    if out or named or value or not lang.CORRECTS_EARLIER.match(s.raw):
        return out
    if lang.OWNS_SLIP.match(s.raw):
        # "Actually no, I left the spare key with Ivo": a slip owned up to puts right the
        # speaker's sentence just before, when the two share a word
        prev = next((o for o in reversed(sentences) if o.speaker == s.speaker and o.raw), None)
        if prev is not None and words & content_words(prev.raw):
            return [prev]
    # "Scratch that, Priya rang: she wants it on Friday the 9th instead": a correction that
    # gives one day and shares too few words means the latest earlier line of the same
    # speaker that gave one other day, when the two share a word (else none: unsure)
    days = {d for _, d in s.dates} | {date.fromisoformat(d) for d in _ISO.findall(s.text)}
    if len(days) != 1:
        return out
    for old in reversed(sentences):
        given = {d for _, d in old.dates} | {date.fromisoformat(d) for d in _ISO.findall(old.text)}
        if old.speaker != s.speaker or not old.raw or not given:
            continue
        if len(given) == 1 and not days & given and words & content_words(old.raw):
            out.append(old)
        break
    return out


#: Where a statement's subject ends and what it says of it begins: "the interview is ...".
_SUBJECT_END = re.compile(
    r"\b(?:is|are|was|were|will\s+be|falls|moved|starts|begins|ends|happens|takes\s+place)\b"
    r"|'s\b|’s\b",
    re.I,
)
_PRONOUN_SUBJECT = re.compile(r"\W*(?:it|this|that|they)(?:'s|’s)?\s", re.I)
#: Where a statement's clauses meet: a comma, semicolon, colon or dash.
_CLAUSE_CUT = re.compile(r"[,;:—–]|\s-\s")
_VALUE_WORDS = {*MONTHS, *WEEKDAYS, "today", "tomorrow", "tonight", "next", "this"}


@lang.remembered
def _words(text: str) -> set[str]:
    """Content words, dates, numbers and names of days left out."""
    return {w for w in content_words(text) if w not in _VALUE_WORDS and not w[0].isdigit()}


@lang.remembered
def _subject(text: str) -> tuple[set[str], str, str] | None:
    """What a statement is about: the words before the verb of its clause that has one
    ("The vet visit for Rex is on May 2" -> vet, visit, rex), whether they refer back to
    a thing named before: a definite or possessive phrase ("the visit", "our flight") or one
    bare noun ("interview is the 21 of March"): "definite", "bare" or "", and what the verb
    says of it ("be" for is, falls, moved; "start" for starts; "end" for ends): a start and
    an end of one thing are two values, not one said again."""
    text = re.sub(r"\b(?i:the\s+user)(?:'s|’s)\s", "my ", text)  # a page's "the user's X"
    # each clause searched in place (`pos`, `endpos`), not cut out as a text of its own for
    # the cheap test to scan: what a clause starts after is no word character, so a `\b`
    # at its start is one as at a text's start
    start = 0
    for cut in [*_CLAUSE_CUT.finditer(text), None]:
        end = len(text) if cut is None else cut.start()
        m = _SUBJECT_END.search(text, start, end)
        clause_start, start = start, (0 if cut is None else cut.end())
        if not m:
            continue
        part = text[clause_start : m.start()]
        words = _words(part)
        if not words:
            continue
        definite = re.match(
            r"\W*(?:(?:so|and|ok|oh|now)\s+)?(?:the|my|our|this|that)\s", part, re.I
        )
        bare = len(re.findall(r"\w+", part)) == 1
        verb = m.group(0).lower()
        attribute = "start" if verb in ("starts", "begins") else "end" if verb == "ends" else "be"
        return words, "definite" if definite else "bare" if bare else "", attribute
    return None


#: `_value` of each sentence asked, by the sentence, with the fields it was worked out of:
#: `restates_earlier` asks it of every earlier sentence for each new one, and a sentence
#: whose fields are the same objects (its dates equal) is answered without a key to hash.
_VALUES: dict[int, tuple[Any, ...]] = kept_until_forget({})


def _value(s: Sentence) -> tuple[str, frozenset[str]] | None:
    """What a statement gives its subject: the dates it names, else the numbers it says."""
    got = _VALUES.get(id(s))
    if (
        got is not None
        and got[0] is s
        and got[1] is s.raw
        and got[2] is s.text
        and got[3] is s.time
        and got[4] == s.dates
    ):
        return got[5]
    value = _value_of(s.raw, s.text, s.time, frozenset(d for _, d in s.dates))
    if len(_VALUES) >= SIZE:
        _VALUES.clear()
    _VALUES[id(s)] = (s, s.raw, s.text, s.time, list(s.dates), value)
    return value


@remembered_up_to(SIZE, shared=True)
def _value_of(
    raw: str, text: str, time: str, dates: frozenset[date]
) -> tuple[str, frozenset[str]] | None:
    """`_value` of a sentence's fields: remembered, as `restates_earlier` asks it of every
    earlier sentence for each new one."""
    days = set(dates) | {d for _, d in absolute_dates(raw, message_date(time))}
    if days:
        return "date", frozenset(d.isoformat() for d in days)
    numbers = re.findall(r"\d[\d.:,]*\d|\d", raw or text)
    return ("number", frozenset(numbers)) if numbers else None


#: A line that gives a thing's day under the thing's name: "Next visit: Mon 3 May", "Visit
#: rebooked: Tue 11 May at 9:00". The label is the words before the colon.
_LABEL = re.compile(r"^\W{0,2}(?P<label>[^\W\d_][\w'’-]*(?:\s+[^\W\d_][\w'’-]*){0,3})\s*:\s+\S")
#: Words of a label that are no part of the thing it names: whose it is, which one of a
#: series ("next", "new"), and the state a booking's message says it is in.
_LABEL_ASIDE = frozenset(
    {"your", "my", "our", "the", "a", "an", "his", "her", "their", "next", "new", "upcoming",
     "latest", "revised", "updated", "amended", "booked", "confirmed", "rebooked", "changed",
     "moved", "rescheduled", "rearranged", "reminder", "now"}
)  # fmt: skip
#: Labels that name no thing of their own: a mail's or a form's fields of any message.
_LABEL_FIELDS = frozenset(
    {"date", "time", "day", "when", "from", "to", "subject", "sent", "re", "ref", "reference",
     "note", "notes", "status", "total", "cc", "where", "venue", "location", "address"}
)  # fmt: skip


@lang.remembered
def label_subject(text: str) -> frozenset[str] | None:
    """The thing a labelled line gives a value of, the words of its label with whose and
    which one and the state of a booking left out ("Your next visit:" and "Visit rebooked:"
    are both of "visit"); None when the line has no label, or one that names no thing of
    its own ("Date:", "From:")."""
    m = _LABEL.match(text)
    if m is None:
        return None
    words = [w.lower() for w in m.group("label").split()]
    thing = frozenset(w for w in words if w not in _LABEL_ASIDE)
    if not thing or thing <= _LABEL_FIELDS or thing & set(_VALUE_WORDS):
        return None
    return thing


def _label_restates(s: Sentence, old: Sentence) -> bool:
    """Whether `s`, a labelled line of a later message than `old`, gives another day for the
    thing `old`'s label names, both labels naming it in the same words once whose, which one
    and the state are left out ("Next visit: 3 May", a later message's "Visit rebooked: 11
    May"). Lines of one message are side by side (a list, a pasted block), never one later."""
    if old.time >= s.time:
        return False
    thing = label_subject(s.raw or s.text)
    if thing is None or label_subject(old.raw or old.text) != thing:
        return False
    days = {d.isoformat() for _, d in s.dates} | set(_ISO.findall(s.text))
    old_days = {d.isoformat() for _, d in old.dates} | set(_ISO.findall(old.text))
    return bool(days and old_days) and not days & old_days


def restates_earlier(
    s: Sentence, sentences: list[Sentence], *, any_speaker: bool = False
) -> list[Sentence]:
    """The earlier sentence that `s` restates with another value, no correction word said
    ("the interview is on the 21st" after "my interview with Acme is on the 19th"): by the
    same speaker, about the same subject (its words before the verb; when the later one
    refers back, the earlier may name it with up to six more words, or with a pronoun after
    naming it in the sentence before; or all the same words), giving a value
    of the same kind that differs. When that is unsure (two candidates, another subject),
    none: both stay. With `any_speaker` (the messages of one mail chain, a later reply
    answering an earlier one), an earlier sentence by anyone counts."""
    if s.correction or "?" in s.raw:
        return []
    said = _subject(s.raw or s.text)
    value = _value(s)
    subject, back, attribute = said if said is not None else (set(), "", "")
    words = _words(s.raw or s.text)
    if value is None or not (subject or words):
        return []
    found = []
    before: Sentence | None = None  # the sentence said before `old` by the same speaker
    for old in sentences:
        prev, before = before, (old if old.speaker == s.speaker or any_speaker else before)
        if (
            (old.speaker != s.speaker and not any_speaker)
            or not old.raw
            or old.correction
            or "?" in old.raw
        ):
            continue
        if _label_restates(s, old):
            found.append(old)  # "Next visit: 3 May", later "Visit rebooked: 11 May"
            continue
        old_value = _value(old)
        if old_value is None or old_value[0] != value[0] or old_value == value:
            continue
        have = _words(old.raw)
        if _PRONOUN_SUBJECT.match(old.raw) and prev is not None:
            have |= _words(prev.raw)  # "I have an interview at Acme. It is on the 19th."
        earlier = _subject(old.raw)
        if earlier is not None and attribute and earlier[2] != attribute:
            continue  # "the repair starts on the 12th" and "ends on the 30th": two values
        if (earlier is not None and subject and earlier[0] == subject) or (words and have == words):
            found.append(old)  # the same subject, or the same words with another value

        elif back and subject and subject <= have and len(have - subject) <= 6:
            said_before = f"{prev.raw if prev else ''} {old.raw}"
            if back == "definite" or all(
                re.search(rf"\b{re.escape(w)}\b", said_before) for w in subject
            ):
                found.append(old)  # the thing named before with more words (a bare noun
                # refers back only to a common noun, not to a name: "Bob is ...")
    return found if len(found) == 1 else []


_ISO = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")


@remembered_up_to(SIZE, shared=True)
def _line_value(said: str, said_on: date) -> tuple[str, frozenset[str]] | None:
    """What a page line gives its subject: the dates it names (written with their absolute
    date, or read against the day it was said), else the numbers it says."""
    days = {m.group(0) for m in _ISO.finditer(said)}
    days |= {d.isoformat() for _, d in absolute_dates(_ISO.sub("", said), said_on)}
    if days:
        return "date", frozenset(days)
    numbers = re.findall(r"\d[\d.:,]*\d|\d", _ISO.sub("", said))
    return ("number", frozenset(numbers)) if numbers else None


def restates_line(s: Sentence, said: str, said_on: date) -> bool:
    """Whether `s` says again, with another value, what a line of an earlier session said
    (`said`: the line's statement, said on `said_on`): "The roof repair is on the 21st now"
    after "The roof repair is scheduled for March 12". Stricter than within a session,
    since days apart the same words more often mean another thing: a statement of what
    something is (a subject and its verb: "I ran 5 km today" and, days later, "I ran 10 km
    today" are two runs), the same verb of the same subject of two words or more (one word
    only when the rest is mostly the same words too), and a value of the same sort that
    differs. The caller acts only when exactly one line of a page fits."""
    text = s.statement or s.text
    if s.correction or "?" in text or "?" in said:
        return False
    said = anchored.without_anchors(said)  # a day counted from a thing is not the thing's day
    now, before = _line_subject(text), _line_subject(said)
    if now is None or before is None or now[2] != before[2]:
        return False
    words, have = _line_words(text), _line_words(said)
    subject = now[0]
    if subject == before[0]:
        shared = len(words & have) / max(1, len(words | have))
        if len(subject) < 2 and shared < 0.5:
            return False
    elif (
        not (now[1] == "definite" and len(subject) >= 2 and subject <= have)
        or len(have - subject) > 6
    ):
        return False
    new, old = _value(s), _line_value(said, said_on)
    return not (new is None or old is None or new[0] != old[0] or new[1] & old[1])


def same_subject(text: str, said: str) -> bool:
    """Whether the statement `text` is about the very thing the line `said` is about: both
    open on the same phrase of two words or more after "the" ("the team dinner was at
    Kohl" and "The team dinner is on Thursday"); one word ("the car") is too loose."""
    now, before = _subject_phrase(text), _subject_phrase(said)
    return now is not None and now == before and len(now.split()) >= 2


def _subject_phrase(text: str) -> str | None:
    """The words a statement opens on before its verb, after "the": "team dinner"."""
    lead = re.match(r"\W*the\s+", text, re.I)
    if lead is None:
        return None
    words = text[lead.end() :].split()
    for n in range(1, min(5, len(words))):
        if not re.fullmatch(r"[A-Za-z][\w-]*", words[n - 1]):
            return None
        if _SUBJECT_END.match(" ".join(words[n:])):
            return " ".join(words[:n]).lower()
    return None


#: Words before the verb that open on someone and what they did ("Melanie just took
#: Melanie['s kids]", "we booked [the hotel's …]"): an event, not the subject of a value.
_ACTOR_FIRST = re.compile(
    rf"\W*(?P<who>{lang.NAME_WORD}|(?i:i|we|he|she|they|you))\s+"
    r"(?:(?i:just|also|finally|then)\s+)?[a-z]+(?:\s|$)"
)


@remembered_up_to(SIZE, shared=True)
def _line_subject(text: str) -> tuple[frozenset[str], str, str] | None:
    """`_subject` of a statement compared across sessions, kept (a page's lines are compared
    with every new fact written to it); None when the words before the verb hold a verb of
    their own: "Melanie took Melanie's kids to a park" tells of an event, it gives no value
    of a thing ("Melanie took Melanie", someone and what they did, is no subject)."""
    text = re.sub(r"\b(?i:the\s+user)(?:'s|’s)\s", "my ", text)
    for clause in re.split(r"[,;:—–]|\s-\s", text):
        m = _SUBJECT_END.search(clause)
        if m is None or not _words(clause[: m.start()]):
            continue
        actor = _ACTOR_FIRST.match(clause[: m.start()])
        if actor and (
            actor.group("who").lower() in ("i", "we", "he", "she", "they", "you")
            or actor.group("who") not in NOT_NAMES
        ):
            return None
        found = _subject(clause)
        return None if found is None else (frozenset(found[0]), found[1], found[2])
    return None


@remembered_up_to(SIZE, shared=True)
def _line_words(text: str) -> frozenset[str]:
    return frozenset(_words(text))


def value_kind(value: str) -> str:
    if _ABSOLUTE.fullmatch(value.strip()):
        return "date"
    if re.fullmatch(WEEKDAY, value.strip(), re.I):
        return "weekday"
    if re.fullmatch(r"[£$€]?[\d.,:]+\s*\w*", value.strip()):
        return "number"
    if value[:1].isupper():
        return "name"
    return "text"


def _values(text: str, kind: str) -> list[tuple[int, str]]:
    """Values of one kind in `text`, with their positions: dates, numbers or capitalised names."""
    if kind == "date":
        return [(m.start(), m.group(0)) for m in _ABSOLUTE.finditer(text)]
    if kind == "number":
        return [(m.start(), m.group(0)) for m in re.finditer(r"[£$€]?\d[\d.,:]*", text)]
    if kind == "weekday":
        return [(m.start(), m.group(0)) for m in re.finditer(WEEKDAY, text, re.I)]
    if kind == "time":
        return [(m.start(), m.group(0)) for m in _TIME.finditer(text)]
    pattern = r"[A-Z][\w'-]*(?:\s+(?:&|and|of|de|van|von)\s+[A-Z][\w'-]*|\s+[A-Z][\w'-]*)*"
    out = []
    for m in re.finditer(pattern, text):
        words = m.group(0).split()
        if words[0] in NOT_NAMES and len(words) == 1:
            continue
        out.append((m.start(), m.group(0)))
    return out


def _day_of_contrasted_date(head: str, old: str) -> str:
    """`old` as a date when it is a bare day set against a date ("renews on 12 October, not
    the 2nd" -> "2 October"), else as said."""
    day = re.fullmatch(r"(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)?", old, re.I)
    dates = list(_ABSOLUTE.finditer(head))
    if day is None or not dates:
        return old
    said = dates[-1].group(0)
    number = re.search(r"\d{1,2}", said)
    if number is None:
        return old
    return said[: number.start()] + day.group(1) + said[number.end() :]


def correction_of(raw: str) -> tuple[str, str, str] | None:
    """(statement, old, new) for 'X, not Y' sentences where Y is a name, date or number."""
    m = _NOT_CLAUSE.search(raw)
    if not m:
        return None
    rest = _day_of_contrasted_date(raw[: m.start()], m.group("old").strip())
    kind = value_kind(rest)
    if (
        kind in ("text", "number")
        and (time := _TIME.match(rest))
        and time.end() == len(rest.split()[0])
        and _CLOCK_WORD.search(time.group(0))
    ):
        # "3pm now, not noon": a time of day set against another ("21:52" alone may be
        # a time run, not a time of day)
        kind = "time"
    if kind == "text":
        return None
    olds = [v for pos, v in _values(rest, kind) if pos == 0]
    if not olds:
        return None
    old = olds[0].strip()
    head = raw[: m.start()]
    markers = list(_CORRECTION_HEAD.finditer(head))
    marker = markers[-1] if markers else None
    if marker is None:  # what follows a label ("Update: …"), not a time's colon ("1:30")
        head = head[max((c.end() for c in re.finditer(r"(?<!\d):|:(?!\d)", head)), default=0) :]
    if marker is not None:  # "his flat is actually in X" -> "his flat is in X"
        head = head[: marker.start()].rstrip(" ,") + " " + head[marker.end() :].lstrip(" ,:")
    statement = head.strip(" ,:;—–-")
    for _ in range(2):  # "And also, ..." -> "..."
        statement = re.sub(r"^(?:and|also|but|so|oh|no|well)\b[ ,]*", "", statement, flags=re.I)
    if not statement:
        return None
    candidates = [v for _, v in _values(statement, kind) if v != old]
    if not candidates:
        return None
    if (
        marker is None
        and kind not in ("date", "time")
        and not (kind == "number" and _NOW_END.search(head) and not _MONEY_OR_SHARE.search(rest))
    ):
        # "we use Postgres, not MySQL" contrasts; a date or time corrects unasked, and so
        # does a bare number said to hold now ("I'm a 16 collar now, not 15"; an amount or
        # a quantity said so is a later value, `supersession`)
        return None
    new = candidates[-1].strip()
    if new.split()[0] in ("Actually", "Correction") and len(new.split()) > 1:
        new = " ".join(new.split()[1:])
    return statement[:1].upper() + statement[1:], old, new


# -- a value changed, said in a later session ---------------------------------------------

#: Words that say a value is now another one: "down to 29.5 kg", "halved the dose to 8 mg",
#: "we fly on the 18th instead", "it's three nights now", "from July the rent is 1,520".
_CHANGE_CUE = re.compile(
    r"\b(?:instead|now|no\s+longer|anymore|any\s+more|(?:down|up|back)\s+to"
    r"|(?:halved|doubled|cut|raised|lowered|increased|reduced|dropped|chang(?:ed|es)|"
    r"mov(?:ed|es)|switch(?:ed|es)|bumped|extended|postponed|delayed|pushed(?:\s+back)?|shifted|"
    r"swapped|revised|amended|"
    r"brought\s+forward|rescheduled|put\s+back|"
    rf"upped|put\s+up|brought\s+down)\b[^.;]{{0,40}}?\bto\b|from\s+(?:{_MONTH_RE}|next\s+\w+)"
    # "rebooked it for 19 March", "a new appointment has been made for 5 July"
    r"|(?:re-?booked|re-?arranged|re-?scheduled|new\s+(?:appointment|date|slot|booking)\s+"
    r"(?:has\s+been\s+|was\s+|is\s+)?(?:made|booked|set|arranged))\b[^.;]{0,40}?\b(?:for|to|on)\b)"
    # the same in the languages mixed into English chat: "le garage a décalé mon RDV au 14",
    # "der Termin ist verschoben", "training is vanaf nu dinsdag", "spostato a giovedì"
    r"|\b(?:décal[ée]e?s?|déplac[ée]e?s?|report[ée]e?s?|avanc[ée]e?s?|repouss[ée]e?s?|"
    r"chang[ée]e?s?|passe\s+(?:à|au)|désormais|plutôt|verschoben|verlegt|vorverlegt|geändert|"
    r"stattdessen|ab\s+jetzt|jetzt|cambiad[oa]s?|movid[oa]s?|aplazad[oa]s?|adelantad[oa]s?|"
    r"pasa\s+al?|ahora|en\s+vez|verplaatst|verzet|veranderd|vanaf\s+nu|voortaan|nu|"
    r"niet\s+meer|spostat[oa]|rinviat[oa]|anticipat[oa]|cambiat[oa]|invece|adesso)\b",
    re.I,
)
_QUANTITY = re.compile(
    r"(?<![\w.:])(?P<cur>[£$€])?\s?(?P<num>\d[\d,]*(?:\.\d+)?|(?i:"
    + "|".join(n for n in _NUMBERS if len(n) > 2)
    + r"))(?:\s?(?P<unit>[a-z]+))?\b(?![:\d])"
)
#: Units short enough to name what is measured by themselves ("kg", "mg", "ml", "km").
_MEASURE = re.compile(r"[a-z]{1,3}", re.I)


def change_cue(text: str) -> bool:
    """Whether `text` says something now has another value ("down to", "instead", "now")
    and holds a value to compare: a quantity with its unit or an absolute date."""
    return bool(_CHANGE_CUE.search(text)) and bool(
        _ISO.search(text) or _quantities(text) or _weekdays(text)
    )


def _iso_days(text: str) -> set[str]:
    """The absolute dates `text` is written with."""
    return set(_ISO.findall(text))


def _weekdays(text: str) -> set[str]:
    """The days of the week `text` names, a recurring one too ("Thursdays" -> thursday), in
    English or in a language mixed into it ("dinsdag", "jeudi" -> tuesday, thursday)."""
    days = {m.group(1).lower() for m in re.finditer(rf"\b({WEEKDAY})s?\b", text, re.I)}
    for m in _ANY_WEEKDAY.finditer(text):
        days.add(WEEKDAYS[lang.WEEKDAYS_ANY_LANGUAGE[m.group(1).lower()]])
    return days


_ANY_WEEKDAY = re.compile(
    r"\b(" + "|".join(sorted(lang.WEEKDAYS_ANY_LANGUAGE, key=len, reverse=True)) + r")s?\b", re.I
)


def _quantities(text: str) -> set[tuple[str, str]]:
    """(unit, value) of each quantity in `text`: "31 kg" -> ("kg", "31"), "£1,500" ->
    ("£", "1500"), "four nights" -> ("nights", "4"); a date's digits are no quantity."""
    out = set()
    for m in _QUANTITY.finditer(_ISO.sub(" ", text)):
        num = m.group("num").lower().replace(",", "")
        value = str(_NUMBERS[num]) if num in _NUMBERS else num
        unit = m.group("cur") or (m.group("unit") or "").lower()
        if (
            not unit
            or unit in stopwords.ENGLISH
            or unit in WEEKDAYS
            or unit in _MONTH_ABBR
            or unit in ("st", "nd", "rd", "th", "am", "pm")
        ):
            continue  # a bare number, "3 of them", "4 June": no quantity of anything
        out.add((unit, value))
    for m in _VERSION.finditer(text):  # "firmware 1.1.4", "Python 3.12.1": named before it
        if (unit := m.group("unit").lower()) not in stopwords.ENGLISH:
            out.add((unit, m.group("value")))
    return out


#: A version named by what it is of, said before it: "on firmware 1.2.1", "node v20.11.0".
_VERSION = re.compile(r"\b(?P<unit>[A-Za-z][\w-]+)\s+v?(?P<value>\d+(?:\.\d+){2,3})\b")


def _topic_words(text: str) -> set[str]:
    """The words of `text` that say what it is about (no value, date or filler)."""
    return {
        w.lower()
        for w in re.findall(r"[A-Za-z][A-Za-z'’-]{2,}", _ISO.sub(" ", text))
        if w.lower() not in stopwords.ENGLISH
        and w.lower() not in WEEKDAYS
        and w.lower() not in _MONTH_ABBR
        and w.lower() not in lang.WEEKDAYS_ANY_LANGUAGE
        and w.lower() not in lang.FOREIGN_MONTHS
        and w.lower() not in _NUMBERS
        and not re.fullmatch(r"\d*(?:st|nd|rd|th)", w.lower())
    }


def changes_value(s: Sentence, said: str) -> bool:
    """Whether `s`, said in a later session with a word of change ("down to", "instead",
    "now"), gives another value to what the line `said` states: a quantity of the same unit
    with another value (for a unit of a measure, "kg" or "£", the unit alone tells the
    attribute; for another noun, "nights", the lines must also share a word), or, in the
    clause that says the change, another date for the same verb or thing as a clause of the
    line ("we fly on the 18th instead" after "we fly out on 17 June"). The caller acts only
    when exactly one current line of memory fits; an event told twice ("ran 5 km", "ran
    10 km") has no word of change and stays two facts."""
    return bool(changed_by(s, said))


def changed_by(s: Sentence, said: str) -> set[str]:
    """The ways `s` gives another value to what the line `said` states (`changes_value`):
    "" for the sentence as a whole, or the clause of `s` that names the thing the line is
    about and gives it the new value ("front squat's up to 75 kg" of "front squat 4x6 @ 70
    kg", where "incline press to 45 kg" is another clause, of another line). When a sentence changes
    several things, each clause replaces the one line it names."""
    text = s.statement or s.text
    asks = "?" in _QUOTED_SPAN.sub("", text)  # a question of its own, not one it quotes
    if s.correction or asks or "?" in said or not _CHANGE_CUE.search(s.raw or text):
        return set()
    said = anchored.without_anchors(said)  # a day counted from a thing is not the thing's day
    out = set()
    new, old = _quantities(text), _quantities(said)
    shared = _topic_words(text) & _topic_words(said)
    for unit, value in new:
        values = {v for u, v in old if u == unit}
        if values and value not in values and (shared or _MEASURE.fullmatch(unit) or unit in "£$€"):
            out.add("")
            for clause in _clauses_with(text, unit, value):
                named = _topic_words(clause) - _topic_words(unit) - _CHANGE_WORDS
                if _holds_value_of(said, named, unit, value):
                    out.add(clause)
    for m in _CHANGE_CUE.finditer(text):
        clause = clause_at(text, m.start())
        words = _topic_words(clause)
        # a date, or a day of the week ("training moves to Thursdays" after "is Tuesdays")
        for found in (_iso_days, _weekdays):
            days = found(clause)
            if not days:
                continue
            for part in _CLAUSE_END.split(said):
                if (had := found(part)) and _other_days(had, days):
                    if words & _topic_words(part):
                        return out | {"", clause}
                    if same_things(words - _CHANGE_WORDS, _topic_words(part)):
                        # "physio" said again for "physiotherapy": that clause's thing alone
                        out.add(clause)
            had = found(said)
            named = words - _CHANGE_WORDS
            if re.search(r"\b(?:it|them)\b", clause, re.I):
                named |= _topic_words(text)  # "… the boiler service and rebooked it for the 19th"
            if len(had) == 1 and not had & days and same_things(named, _topic_words(said)):
                # "le garage a décalé mon RDV au 14" of "j'ai un RDV au garage …, le jeudi
                # 9": the line's one date, its thing named in another clause of it
                out.add(clause)
        # "so it's Thursdays at 18:30 from now on": a recurring day said of "it", nothing
        # else named in the clause, replaces the one recurring day of a line that names
        # someone the sentence names too ("Henrike …, we do lessons on Tuesdays")
        start = max((x.end() for x in re.finditer(r"[.!?]\s+", text[: m.start()])), default=0)
        own = clause_at(text[start:], m.start() - start)
        rest = _topic_words(own) - _topic_words(m.group()) - {d + "s" for d in WEEKDAYS}
        if not rest and (days := _recurring_days(own)):
            names = capitalised_names(text) & capitalised_names(said)
            had = _recurring_days(said)
            if names and len(had) == 1 and not had & days:
                out.add("")
    return out


def _other_days(had: set[str], days: set[str]) -> bool:
    """Whether `days` are other days than `had`: none in common, or another set of two or
    more ("Tuesdays and Wednesdays now" after "Tuesdays and Thursdays")."""
    return not had & days or (len(days) >= 2 and days != had)


#: Words of a change that say nothing of what changed: "Front squat's up to 75 kg now".
_CHANGE_WORDS = {
    "now", "moved", "moving", "moves", "changed", "raised", "lowered", "increased", "reduced",
    "dropped", "bumped", "upped", "switched", "instead", "got", "gone", "went", "down", "back",
    "petit", "changement", "même", "heure", "update", "change", "time", "plan", "rebooked",
    "re-booked", "rearranged", "re-arranged", "rescheduled", "cancelled", "canceled", "new",
    "pushed", "shifted", "swapped", "revised", "amended",
}  # fmt: skip


def _holds_value_of(said: str, named: set[str], unit: str, value: str) -> bool:
    """Whether a clause of the line `said` gives the thing `named` another quantity in
    `unit` than `value`, the thing said before it ("Front squat 4x6 @ 70 kg"), not after
    it ("add 5 kg a week to the front squat": an amount added to it, not its value)."""
    for part in _CLAUSE_END.split(said):
        for m in _QUANTITY.finditer(_ISO.sub(" ", part)):
            if (unit, value) in _quantities(m.group(0)) or not any(
                u == unit for u, _ in _quantities(m.group(0))
            ):
                continue
            if same_things(named, _topic_words(part[: m.start()])):
                return True
    return False


def _clauses_with(text: str, unit: str, value: str) -> list[str]:
    """The clauses of `text` that give the quantity `value` in `unit`."""
    return [part for part in _CLAUSE_END.split(text) if (unit, value) in _quantities(part)]


def same_things(words: set[str], other: set[str]) -> bool:
    """Whether two sets of topic words name a thing in common: the same word in any of its
    forms ("lunges", "lunge"), or one shortened from the other ("physio" for
    "physiotherapy", "admin" for "administration": four letters or more that begin the longer)."""
    stems = {lang.stem(_bare(w)) for w in other}
    for w in words:
        w = _bare(w)
        if lang.stem(w) in stems:
            return True
        if len(w) >= 4 and any(len(o) > len(w) and _bare(o).startswith(w) for o in other):
            return True
    return False


def _bare(word: str) -> str:
    """A word without its possessive: "bike's" -> "bike"."""
    return re.sub(r"['’]s$", "", word)


#: A span of `text` in quotation marks: someone else's words.
_QUOTED_SPAN = re.compile(r'"[^"]*"|“[^”]*”')


def _recurring_days(text: str) -> set[str]:
    """The days of the week `text` says something happens on every week ("on Tuesdays")."""
    return {m.group(1).lower() for m in re.finditer(rf"\b({WEEKDAY})s\b", text, re.I)}


def counted_dates(text: str) -> dict[str, str]:
    """The dates of `text` counted from a thing named ("two weeks before the deadline
    (2028-03-10)"): the chain as said, lower case, -> the absolute date written after it."""
    out = {}
    for m in _RELATIVE.finditer(text):
        if m.group("chainwd") or m.group("chainn") or m.group("chaind"):
            iso = re.match(r"\s*\((\d{4}-\d{2}-\d{2})\)", text[m.end() :])
            if iso is not None:
                out[" ".join(m.group(0).lower().split())] = iso.group(1)
    return out


def recounts(text: str, said: str) -> bool:
    """Whether `text` counts a date from the same thing as the line `said` does, in the same
    words, and gets another day ("two weeks before the deadline" once the deadline moved):
    the thing it counted from has changed, so the later count holds."""
    now, before = counted_dates(text), counted_dates(said)
    return any(phrase in before and before[phrase] != iso for phrase, iso in now.items())


#: A clause that takes back what was said before: "Nana can't have Biscuit after all", "Ana
#: is no longer coming", "the trip to Oslo is off", "the party got cancelled".
_REVERSAL = re.compile(
    r"\b(?:(?:can't|cannot|can\s+not|won't|isn't|aren't|not)\b[^,;.]*\bafter\s+all\b"
    r"|no\s+longer\b|(?:is|are|'s|'re)\s+(?:off|cancell?ed|called\s+off)\b"
    r"|(?:got|been|was|were)\s+(?:cancell?ed|called\s+off|postponed)\b|fell\s+through\b"
    # "we're not doing pilates any more", "I don't take the 20 mg anymore"
    r"|(?:not|\w+n't)\s+[^,;.]*\b(?:any\s*more|these\s+days)\b"
    # "I'm not allergic to penicillin", "Ida isn't at the day centre now": a state said not
    # to hold (not a doubt, an ability or a degree: "I'm not sure", "isn't able", "not very")
    r"|(?<!\bif\s)(?<!\bunless\s)(?:\b(?:am|is|are|was|were)\s+not|'[msr]e?\s+not"
    r"|\b(?:isn't|aren't|wasn't|weren't))\s+(?!(?:sure|certain|aware|able|allowed|just|only"
    r"|too|that|so|very|really|quite|yet|always|exactly|necessarily|much|bad|keen|happy|fussed"
    r"|bothered|convinced|saying|asking|going\s+to\s+(?:say|ask|lie|pretend))\b)"
    # "cancel the car insurance reminder, I've done it": a calling off asked for, opening its
    # sentence or clause
    r"|(?:^|(?<=[.!;:])\s+|(?<=,)\s*|\band\s+)(?:please\s+)?(?:cancel|call\s+off|scrap)"
    r"\s+(?:the|my|our|that)\b"
    # "we've cancelled the garden party", "I called off the trip", "she scrapped the …"
    r"|(?:i|we|i've|we've|have|has|he|she|they)\s+(?:cancell?ed|called\s+off|scrapped)\s+(?:the|my|our|his|her|their)\b"
    # "the book club has folded", "the night class has been discontinued", "the choir has
    # stopped running": the thing is over ("the boiler has stopped" is a fault, not an end)
    r"|(?:has|have|'s|'ve|had)\s+(?:(?:now|just)\s+)?(?:folded|closed\s+down|shut\s+down"
    r"|(?:stopped|ceased)\s+(?:running|meeting|operating)|been\s+(?:scrapped|dropped|discontinued"
    r"|axed|closed))\b"
    # "I've stopped going to yoga", "Maya quit doing ballet", "we gave up the allotment": a habit
    r"|\b(?:stopped|quit|gave\s+up|given\s+up)\s+(?:going\s+to|doing|attending|taking|playing"
    r"|the|my|our|his|her|their)\b"
    # "Marek is out as treasurer", "Ana stepped down as chair": a role taken off
    r"|(?:is|are|'s|'re)\s+out\s+as\b|(?:stepped|steps|stepping)\s+down\s+as\b"
    # "no lunges for 4 weeks", "no more coffee until the scan": the thing stopped for a time
    r"|\bno\s+(?:more\s+)?(?P<thing>[a-z][\w-]+(?:\s+[a-z][\w-]+)?)\s+(?:for\s+(?:the\s+next\s+)?"
    r"(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|a\s+few|a\s+couple\s+of)\s+"
    r"(?:days?|weeks?|months?)|until|till)\b)",
    re.I,
)
#: The words of a calling off that say nothing of what is called off.
_CALL_OFF_WORDS = {
    "off", "cancelled", "canceled", "called", "longer", "anymore", "happening", "going",
    "scrapped", "fell", "through", "days", "plan", "change", "take", "taking", "have",
    "having", "doing", "get", "getting", "after", "stepped", "steps", "stepping", "week", "weeks",
    "month", "months", "year", "today", "yesterday", "folded", "stopped", "ceased", "running",
    "meeting", "operating", "closed", "shut", "dropped", "discontinued", "axed", "quit", "gave",
    "given", "attending", "playing", "postponed", "now", "cancel", "call", "scrap", "reminder",
    "reminders",
}  # fmt: skip
_NEGATED = re.compile(
    r"\b(?:not|no|never|can't|cannot|won't|isn't|aren't|don't|doesn't)\b|n't\b", re.I
)


#: A debt paid: "Sam paid me back", "Kit sent me her £15", "he repaid the £40", "we're
#: square", "Lena m'a remboursé", "Juan me devolvió los 20 €", "Jonas hat mir die 30 €
#: zurückgezahlt".
_SETTLED = re.compile(
    r"\b(?:paid|repaid|sent|transferred|gave|handed)\s+(?:me|us|you)\b"
    r"|\b(?:paid|repaid|settled|squared)\s+(?:\w+\s+)?(?:back|up|off)\b|\brepaid\b"
    r"|\b(?:is|are|'s|'re|now)\s+(?:square|quits)\b"
    r"|\bm'a\s+rembours|\brembours[ée]\b|\bme\s+(?:devolvi[óo]|pag[óo])\b|zurückgezahlt\b",
    re.I,
)
#: A line that states a debt: "Sam owes me £30", "I lent Noor £40", "Juan me debe 20 €".
_OWED = re.compile(
    r"\b(?:owes?|owed|owing|lent|borrowed|debt|IOU)\b|\bme\s+doit\b|\bme\s+debe\b"
    r"|\bschuldet\b",
    re.I,
)


def settles(text: str, said: str) -> bool:
    """Whether `text` says the debt the line `said` states is paid: a clause that says so
    ("Sam paid me the £30") names someone or an amount, and a clause of the line that states
    a debt ("Sam owes me £30 for the tickets") names them all without a negation."""
    for m in _SETTLED.finditer(text):
        clause = clause_at(text, m.start())
        names, amounts = capitalised_names(clause), _quantities(clause)
        if not names and not amounts:
            continue
        for part in _CLAUSE_END.split(said):
            if not _OWED.search(part) or _NEGATED.search(part):
                continue
            if names <= capitalised_names(part) and amounts <= _quantities(part):
                return True
    return False


def reversal_cue(text: str) -> bool:
    """Whether `text` says something said before no longer holds (`_REVERSAL`, `_SETTLED`)."""
    return bool(_REVERSAL.search(text) or _SETTLED.search(text))


def capitalised_names(text: str) -> set[str]:
    """The capitalised words of `text` that can name someone or something."""
    return {w for w in re.findall(r"\b[A-Z][\w'’-]+", text) if w not in NOT_NAMES}


def reverses(s: Sentence, said: str) -> bool:
    """Whether `s` takes back what the line `said` stated: a clause of `s` that says so
    ("can't … after all", "no longer", "is off") names two things or more ("Nana can't have
    Biscuit after all"), and a clause of the line names them all without a negation ("Nana
    is having Biscuit for the weekend"). The caller acts only when exactly one line fits."""
    text = s.raw or s.statement or s.text
    if s.correction or "?" in text:
        return False
    for m in _REVERSAL.finditer(text):
        names = capitalised_names(clause_at(text, m.start()))
        if len(names) < 2:
            continue
        for part in _subject_parts(said):
            if names <= capitalised_names(part) and not _NEGATED.search(part):
                return True
    return calls_off(text, said) or settles(text, said)


#: A clause that opens on its verb, its subject the clause's before: "and goes to …".
_NO_SUBJECT = re.compile(
    r"^\s*(?:(?:also|still|now|then)\s+)?(?!(?:i|we|he|she|they|it|you|there|this|that|the|"
    r"a|an|my|our|his|her|their|its)\b)[a-z]+(?:s|ed)\b"
)


def _subject_parts(said: str) -> list[str]:
    """The clauses of the line `said`, each clause that opens on its verb ("… Leo is three
    and goes to Brookfield Nursery") with the subject of the clause before it."""
    out: list[str] = []
    for part in _CLAUSE_END.split(said):
        if out and _NO_SUBJECT.match(part):
            subject = re.match(r"^(.*?)\b(?:is|are|was|were|has|have|had|goes|go|went)\b", out[-1])
            part = f"{subject.group(1) if subject else ''}{part}"
        out.append(part)
    return out


def calls_off(text: str, said: str) -> bool:
    """Whether `text` calls off the thing the line `said` states ("the 40 mg is off", "the
    garden party is cancelled", "we're not doing pilates any more"): a clause that says so
    names a thing (its words, or a quantity such as "40 mg"), and a clause of the line
    names all of it without a negation. "X is off" of a thing without a quantity calls off
    only a line with a date ("the heating is off" says nothing of when it comes on). The
    caller acts only when exactly one line fits."""
    for m in _REVERSAL.finditer(text):
        if m.group("thing"):  # "no lunges for 4 weeks": that thing, in any of its forms
            thing = _topic_words(m.group("thing"))
            if thing and any(
                all(same_things({w}, _topic_words(part)) for w in thing)
                and not _NEGATED.search(part)
                for part in _CLAUSE_END.split(said)
            ):
                return True
            continue
        clause = clause_at(text, m.start())
        amounts = _quantities(clause)
        days = _iso_days(clause)  # "the report isn't due on the 9th (2029-05-09) any more"
        words = (
            _unpossessed(_topic_words(clause)) - _CALL_OFF_WORDS - {n.lower() for n in NOT_NAMES}
        )
        if not words and not amounts:
            continue
        state = re.match(r"(?:is|are|'s|'re)\s+off\b", m.group(0), re.I)
        if state and not amounts and not _ISO.search(said):
            continue
        for part in _CLAUSE_END.split(said):
            if _NEGATED.search(part):
                continue
            if amounts and not amounts <= _quantities(part):
                continue
            if days and not days <= _iso_days(part):
                continue  # the day it names is not this line's
            if words and not words <= _unpossessed(_topic_words(part)):
                continue
            return True
    return False


def _unpossessed(words: set[str]) -> set[str]:
    """Words with a trailing "'s" taken off: "Tomasz's not vegan" is of Tomasz."""
    return {w[:-2] if w.endswith(("'s", "’s")) else w for w in words}


def calls_something_off(text: str) -> bool:
    """Whether `text` calls off a thing it names ("The garden party is cancelled."): worth
    a line, short as it is, for what it retires."""
    for m in _REVERSAL.finditer(text):
        clause = clause_at(text, m.start())
        thing = re.search(r"\b(?:the|my|our|his|her|their)\s+\w{3,}", clause, re.I)
        if _quantities(clause) or (thing and _topic_words(clause) - _CALL_OFF_WORDS):
            return True
    return False


def called_off_earlier(s: Sentence, sentences: list[Sentence]) -> list[Sentence]:
    """The one earlier sentence of the session, by the same speaker, that `s` calls off
    (`calls_off`); none when no sentence or several fit."""
    text = s.raw or s.text
    if s.correction or "?" in text or not _REVERSAL.search(text):
        return []
    fits = [
        e
        for e in sentences
        if e is not s and e.speaker == s.speaker and e.raw and calls_off(text, e.raw)
    ]
    return fits if len(fits) == 1 else []


#: A state a record can be in, said of it later: "Moorcroft paid the £850", "the order shipped".
_STATUS_SAID = re.compile(
    r"\b(?:has\s+|have\s+|is\s+|was\s+|got\s+|been\s+)*(?P<status>paid|shipped|delivered|"
    r"cancell?ed|closed|resolved|refunded|returned|approved|rejected|completed|done)\b",
    re.I,
)
#: The status field of a pasted record: "status: overdue".
_STATUS_FIELD = re.compile(r"\bstatus:\s*(?P<value>[\w -]+?)(?=[.;]|$)", re.I)


def status_changed(text: str, said: str) -> tuple[str, str] | None:
    """(new, old) when `text` says that a record `said` holds ("INV-032, client: Moorcroft;
    …; status: overdue.") is now in another state ("Moorcroft paid the £850"): a name of
    the clause that says the state is in the record, whose status field says another."""
    field = _STATUS_FIELD.search(said)
    if field is None:
        return None
    for m in _STATUS_SAID.finditer(text):
        names = capitalised_names(clause_at(text, m.start()))
        status = m.group("status").lower()
        old = field.group("value").strip()
        if names and all(n in said for n in names) and old.lower() != status:
            return status, old
    return None


gate_patterns(globals())  # the cheap test in front of every pattern above (prefilter.py)
