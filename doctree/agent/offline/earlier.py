"""A request to forget what was said in an earlier conversation, named by when it was had
("scrap what I told you last Monday about the boat", "ignore everything from our chat on the
3rd about the car", "forget what I said yesterday", "oublie ce que je t'ai dit hier sur la
voiture").

`named_conversation` finds the words that name the conversation and resolves them against
the day the request was made: to the days it means ("yesterday", "last Monday", "on the 3rd",
"earlier today", "last week"), to the conversation before this one ("last time", "our last
chat"), or to nothing sure ("the other day", "a while ago"). It hands back the request
without those words, which the forget rules read as any other ("scrap what I told you about
the boat"). The writer then finds the sessions of those days and removes only their lines
about the thing; when it cannot tell which session was meant, or that session said nothing
of the thing, it removes nothing and says so: a wrong erase is worse than none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

from doctree.agent.offline import language as lang


@dataclass(frozen=True)
class Earlier:
    """The conversation a request names: the days it means, or the one before this one
    (`last`); neither when it cannot be told (`days` empty and `last` False)."""

    phrase: str  # the words that name it, as said ("last Monday")
    days: tuple[date, ...] = ()
    last: bool = False

    @property
    def resolved(self) -> bool:
        return bool(self.days) or self.last


_EN_DAYS = {d: i for i, d in enumerate(lang.WEEKDAYS)}
#: Weekday names in every language read, by index (Monday 0).
_DAYS = _EN_DAYS | lang.WEEKDAYS_ANY_LANGUAGE | {"segunda": 0, "terça": 1, "quarta": 2}
_DAY = "(?:" + "|".join(sorted(_DAYS, key=len, reverse=True)) + ")(?:-feira)?"
_MONTH = "(?:" + "|".join(lang.MONTHS) + "|" + "|".join(lang.FOREIGN_MONTHS) + ")"
_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "a": 1, "couple": 2}

#: When an earlier conversation was had, each form with how it is resolved ("kind").
_WHEN = {
    "before_yesterday": r"the\s+day\s+before\s+yesterday|avant-hier|vorgestern|anteayer|"
    r"antes\s+de\s+ayer|eergisteren|l['’]altro\s+ieri|anteontem|przedwczoraj",
    "yesterday": r"yesterday|last\s+night|hier(?:\s+soir)?|gestern(?:\s+abend)?|ayer|"
    r"anoche|gisteren|gisteravond|ieri(?:\s+sera)?|ontem|wczoraj",
    "today": r"earlier\s+today|earlier\s+on|this\s+(?:morning|afternoon)|today|ce\s+matin|"
    r"tout\s+à\s+l['’]heure|heute\s+(?:morgen|früh)|vorhin|esta\s+mañana|hace\s+un\s+rato|"
    r"vanochtend|vanmorgen|stamattina|stamani|esta\s+manhã|hoje\s+de\s+manhã|dziś\s+rano",
    "last": r"last\s+time|the\s+last\s+time(?:\s+we\s+(?:spoke|talked|chatted))?|"
    r"la\s+dernière\s+fois|letztes\s+mal|das\s+letzte\s+mal|la\s+última\s+vez|"
    r"(?:de\s+)?vorige\s+keer|l['’]ultima\s+volta|da\s+última\s+vez|ostatnio",
    "last_week": r"last\s+week|la\s+semaine\s+dernière|letzte\s+woche|la\s+semana\s+pasada|"
    r"vorige\s+week|la\s+settimana\s+scorsa|na\s+semana\s+passada|w\s+zeszłym\s+tygodniu",
    "days_ago": r"(?P<n>\d|one|two|three|four|five|six|a|a\s+couple\s+of)\s+days?\s+ago",
    "weekday": rf"(?:last|on|this\s+past|past|afgelopen|letzten|am|le|el|na|no)?\s*"
    rf"(?P<wd>{_DAY})(?:\s+(?:dernier|pasado|scorso|scorsa|passada|passado))?",
    "day_of_month": r"(?:on\s+)?the\s+(?P<dom>[0-3]?\d)(?:st|nd|rd|th)",
    "date": rf"(?:on\s+)?(?:(?P<d1>[0-3]?\d)(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<m1>{_MONTH})|"
    rf"(?P<m2>{_MONTH})\s+(?P<d2>[0-3]?\d)(?:st|nd|rd|th)?)",
    "unsure": r"the\s+other\s+(?:day|week|night|time)|a\s+while\s+(?:ago|back)|some\s+time\s+ago|"
    r"ages\s+ago|recently|a\s+few\s+(?:days|weeks)\s+ago|l['’]autre\s+jour|"
    r"neulich|el\s+otro\s+día|laatst|l['’]altro\s+giorno|no\s+outro\s+dia|kiedyś",
}
_TIME = "(?:" + "|".join(f"(?P<{k}>{v})" for k, v in _WHEN.items()) + r")(?![\w'’])"
#: What was said, before when it was said: "what I told you", "everything I said", "ce que je
#: t'ai dit", "was ich dir", "lo que te dije", "wat ik je", "quello che ti ho detto".
_SAID = (
    r"(?:(?:what|everything|anything|all|the\s+(?:stuff|things?|bits?))\s+(?:that\s+)?"
    r"i(?:'d|\s+had)?\s+(?:told\s+you|said(?:\s+to\s+you)?|mentioned|shared|wrote|"
    r"sent(?:\s+you)?|let\s+you\s+know)"
    r"|(?:tout\s+)?ce\s+que\s+(?:je\s+(?:t['’]|vous\s+)\s*ai|j['’]ai)\s+(?:dit|raconté|écrit)"
    r"|(?:alles\s*,?\s*)?was\s+ich\s+(?:dir|ihnen|euch)?"
    r"|(?:todo\s+)?lo\s+que\s+(?:te|le)\s+(?:dije|conté|comenté|escribí)"
    r"|(?:alles\s+)?wat\s+ik\s+(?:je|jou|u)?"
    r"|(?:tutto\s+)?(?:quello|ciò)\s+che\s+ti\s+ho\s+(?:detto|raccontato|scritto)"
    r"|(?:tudo\s+)?(?:o|aquilo)\s+que\s+(?:eu\s+)?(?:te|lhe)\s+(?:disse|contei|falei|escrevi)"
    r"|(?:wszystko\s*,?\s*)?co\s+(?:ci\s+)?(?:mówiłam|mówiłem|pisałam|pisałem|powiedziałam|"
    r"powiedziałem))"
)
#: A conversation, named as one: "our chat", "the conversation", "notre conversation".
_CONVERSATION = (
    r"(?:(?:our|the|my|that)\s+(?:chat|conversation|talk|session|call|catch-up|messages?)|"
    r"(?:notre|la)\s+(?:conversation|discussion)|unser(?:em)?\s+(?:gespräch|chat)|"
    r"nuestra\s+(?:conversación|charla)|ons\s+gesprek|la\s+nostra\s+(?:conversazione|chiacchierata)|"
    r"a\s+nossa\s+conversa)"
)
#: The ways a request names the conversation (`cut` is what names it): when, after what was
#: said ("what I told you last Monday"); a conversation and when ("from our chat on the 3rd");
#: when's conversation ("yesterday's chat"); the last one ("our last chat", "last time we
#: spoke"); and when, at the end of "what I said about X" ("… about the car yesterday": only
#: the forms that cannot mean when the thing happens).
_NAMED = tuple(
    re.compile(pattern, re.I)
    for pattern in (
        rf"(?<!\w)(?P<cut>(?:from\s+|in\s+|during\s+)?{_CONVERSATION}\s+(?:from\s+|on\s+|of\s+)?"
        rf"{_TIME})",
        rf"{_SAID}\s+(?P<cut>{_TIME})",
        rf"(?P<cut>(?:from\s+|in\s+)?(?P<ownday>yesterday|{_DAY})['’]s\s+"
        r"(?:chat|conversation|talk|session|call))",
        r"(?P<cut>(?:from\s+|in\s+)?(?:our|the|my)\s+(?P<lastchat>last|previous)\s+"
        r"(?:chat|conversation|talk|session|call))",
        r"(?P<cut>(?:the\s+)?(?P<lastchat>last)\s+time\s+we\s+(?:spoke|talked|chatted))",
        rf"{_SAID}\s+about\s+[^.,;!?]+?\s+(?P<cut>(?P<trail>yesterday|last\s+time|earlier\s+today|"
        rf"last\s+{_DAY}|the\s+other\s+day))(?=\s*[.,;!?]|\s*$)",
    )
)
#: Verbs that let go of what was said only when a conversation is named ("ignore everything
#: from our chat on the 3rd"); read as "forget".
_LOOSE_VERB = re.compile(r"\b(?:ignore|disregard|discard|bin|toss)\b", re.I)
_STUFF_SAID = re.compile(
    r"\b(?P<stuff>the\s+(?:stuff|things?|bits?))\s+(?:that\s+)?i\s+(?:told\s+you|said|mentioned)"
    r"\s+(?=about\b)",
    re.I,
)
#: A request to let go of everything said then ("forget everything from yesterday's chat").
_ALL = re.compile(
    r"\b(?:forget|scrap|scratch|delete|erase|remove|drop|wipe|clear|scrub|lose|ditch|ignore|"
    r"disregard)\s+(?:all\s+(?:of\s+)?(?:it|that)|everything|all|it\s+all|that\s+lot)\b"
    r"(?!\s+(?:about|on|regarding|of|abt)\b)",
    re.I,
)


def named_conversation(sentence: str, said_on: date) -> tuple[Earlier, str] | None:
    """The earlier conversation a request names, resolved against `said_on`, and the
    request without its words ("Scrap what I told you last Monday about the boat" ->
    (last Monday, "Scrap what I told you about the boat")); None when no conversation is
    named by when it was had."""
    for pattern in _NAMED:
        if (m := pattern.search(sentence)) is None:
            continue
        earlier = _resolve(m, said_on)
        cut = m.start("cut"), m.end("cut")
        rest = (sentence[: cut[0]].rstrip() + " " + sentence[cut[1] :].lstrip()).strip()
        rest = _LOOSE_VERB.sub("forget", rest, count=1)
        # "the stuff I told you about X" is what the forget rules read as "the stuff about X"
        rest = _STUFF_SAID.sub(r"\g<stuff> ", rest)
        return earlier, re.sub(r"\s+([.,;!?])", r"\1", rest)
    return None


def asks_all(request: str) -> bool:
    """Whether a request, its conversation's words taken out, lets go of everything said
    then ("forget everything", "scrap all of it")."""
    return _ALL.search(request) is not None


def _resolve(m: re.Match[str], said_on: date) -> Earlier:
    phrase = m.group("cut").strip()
    g = m.groupdict()
    if g.get("lastchat"):
        return Earlier(phrase, last=True)
    if g.get("ownday"):
        word = g["ownday"].lower()
        if word == "yesterday":
            return Earlier(phrase, (said_on - timedelta(days=1),))
        return Earlier(phrase, (_latest(said_on, _DAYS[_bare_day(word)]),))
    if g.get("trail"):
        t = g["trail"].lower()
        if t == "yesterday":
            return Earlier(phrase, (said_on - timedelta(days=1),))
        if t == "last time":
            return Earlier(phrase, last=True)
        if t == "earlier today":
            return Earlier(phrase, (said_on,))
        if t.startswith("last "):
            return Earlier(phrase, (_latest(said_on, _DAYS[_bare_day(t.split()[1])]),))
        return Earlier(phrase)
    if g.get("before_yesterday"):
        return Earlier(phrase, (said_on - timedelta(days=2),))
    if g.get("yesterday"):
        return Earlier(phrase, (said_on - timedelta(days=1),))
    if g.get("today"):
        return Earlier(phrase, (said_on,))
    if g.get("last"):
        return Earlier(phrase, last=True)
    if g.get("last_week"):
        monday = said_on - timedelta(days=said_on.weekday() + 7)
        return Earlier(phrase, tuple(monday + timedelta(days=i) for i in range(7)))
    if g.get("days_ago"):
        n = g["n"].lower().split()[-1]
        count = int(n) if n.isdigit() else _NUMBERS.get(n, 0)
        return Earlier(phrase, (said_on - timedelta(days=count),) if count else ())
    if g.get("wd"):
        return Earlier(phrase, (_latest(said_on, _DAYS[_bare_day(g["wd"])]),))
    if g.get("dom"):
        day = int(g["dom"])
        month = said_on.replace(day=1)
        for _ in range(3):  # this month when the day has come, else the one before
            try:
                when = month.replace(day=day)
            except ValueError:
                when = None
            if when is not None and when <= said_on:
                return Earlier(phrase, (when,))
            month = (month - timedelta(days=1)).replace(day=1)
        return Earlier(phrase)
    if g.get("date"):
        day = int(g["d1"] or g["d2"])
        name = (g["m1"] or g["m2"]).lower()
        num = lang.MONTHS.index(name) + 1 if name in lang.MONTHS else lang.FOREIGN_MONTHS[name]
        for year in (said_on.year, said_on.year - 1):
            try:
                when = date(year, num, day)
            except ValueError:
                return Earlier(phrase)
            if when <= said_on:
                return Earlier(phrase, (when,))
    return Earlier(phrase)  # "the other day", "a while ago": which one is not known


def _bare_day(word: str) -> str:
    return word.lower().removesuffix("-feira")


def _latest(said_on: date, weekday: int) -> date:
    """The latest day of `weekday` before `said_on`."""
    return said_on - timedelta(days=(said_on.weekday() - weekday - 1) % 7 + 1)
