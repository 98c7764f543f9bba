"""Anchored dates: a day counted from another date or from an event whose date is known.

"three weeks before the 30 June deadline", "a week after it arrives", "two months after
the wedding", "the week after the operation", "the Friday before the 14th", "Monday plus a
fortnight", "two weeks before." (the date said last): an offset and an anchor. The anchor
is a date said where the anchor stands, or an event said earlier with its date, in this
sentence, an earlier message or an earlier session of the transcript (resolve's dates said
so far, each with its clause). The offset is counted by `dateutil.relativedelta`, so a month
after 31 January is the last day of February. An anchor that is not found, or that two
things said on different days could be, leaves the words as said: no day is guessed.

`resolve.resolve_relative` asks `expressions` where the anchored dates of a sentence are and
`Expression.resolve` what day each one is; the forms the chained dates of resolve.py read
already ("the Tuesday after cardiology") are read here first and fall back to them.
`counted_from` reads a line back (the anchor of each date it counted) and `moved_anchor`
tells whether a later statement moved that anchor, so that the line can be marked.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta

from dateutil.relativedelta import relativedelta

from doctree import stopwords
from doctree.agent.offline.language import WEEKDAY, WEEKDAYS

_COUNTS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "couple": 2,
    "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
    "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "sixty": 60,
    "ninety": 90,
}  # fmt: skip
#: "twenty-one days", "thirty five days": a ten and a unit spelled out
_TENS_AND_UNIT = r"(?:twenty|thirty|forty)[\s-](?:one|two|three|four|five|six|seven|eight|nine)"
#: the longest first: "fourteen" is no "four", "seventeen" no "seven"
_COUNT = (
    rf"(?:\d{{1,3}}|a\s+couple\s+of|{_TENS_AND_UNIT}|"
    + "|".join(sorted(_COUNTS, key=lambda w: (-len(w), w)))
    + ")"
)
_UNIT = r"(?:(?:working|business)\s+days?|days?|weeks?|fortnights?|months?)"
#: "of" counts only after "within": "within 10 working days of the claim"
_DIRECTION = r"(?:before|after|prior\s+to|ahead\s+of|from|of)"
#: The words a clause ends at: an anchor is said before them ("… the deadline so he can …").
_STOP = (
    r"(?:and|but|so|because|as|when|while|if|or|with|at|in|on|for|which|who|where|to|since|"
    r"though|although|until|till|unless|same|then)"
)
#: A verb that says the anchor's day, or a person saying a new clause: "… the launch is",
#: "… the gig we fly home".
_ALSO_STOP = (
    r"(?:is|are|was|were|will|would|has|have|had|can|could|should|must|shall|(?-i:may)|might|"
    r"we|i|you|they|he|she|it's|we'll|i'll|i'm|we're|they're|she's|he's|let's|please)"
)
_WORD = r"[\w'’-]+"
#: What an anchor is said as: up to five words, none of them one a clause ends at.
_ANCHOR = (
    rf"(?P<anchor>(?!{_STOP}\b){_WORD}"
    rf"(?:[ \t]+(?!(?:{_STOP}|{_ALSO_STOP})(?![\w'’-])){_WORD}){{0,4}})"
)
_EXPRESSION = re.compile(
    r"(?:\b"
    # "three weeks before the 30 June deadline", "a fortnight after it arrives"
    rf"(?P<within>within\s+)?(?P<count>{_COUNT})\s+(?P<unit>{_UNIT})\s+(?P<dir>{_DIRECTION})"
    rf"(?:\s+{_ANCHOR}|(?P<bare>(?=\s*(?:[.,;:!?)]|$))))"
    # "the Friday before the 14th", "the week after the operation", "the day after it lands"
    rf"|\bthe\s+(?:(?P<wd>{WEEKDAY})|(?P<week>week)|(?P<day>day|morning|afternoon|evening|night))"
    rf"\s+(?P<wdir>before|after)\s+{_ANCHOR.replace('anchor>', 'wanchor>')}"
    # "Monday plus a fortnight", "the 3rd + 10 days": counted from the date just before
    rf"|(?P<plus>(?:\bplus|\+)\s*(?P<pcount>{_COUNT})\s+(?P<punit>{_UNIT}))"
    r")",
    re.I,
)
#: The words that say a value is another one now: a later date of an anchor, said with one
#: of these, is where the anchor moved, not a second thing of the same name.
_MOVED = re.compile(
    r"\b(?:now|moved?|moves|moving|changed?|postponed|rescheduled|re-?booked|re-?arranged|"
    r"pushed|put\s+back|brought\s+forward|instead|delayed|shifted|bumped)\b",
    re.I,
)
_PRONOUNS = frozenset({"it", "that", "this", "then", "them", "they", "he", "she", "we", "i"})
_ISO = re.compile(r"\((?:week\s+of\s+)?(\d{4}-\d{2}-\d{2})\)")


def stem(word: str) -> str:
    """A word without its inflection, enough to tell "arrives" is "arrive" and "parties" is
    "party": the anchor and the clause that dated it need not use one form."""
    w = word.lower().replace("’", "'").removesuffix("'s").strip("'")
    if len(w) > 4 and w.endswith("ies"):
        return w[:-3] + "y"
    for suffix in ("ing", "ed", "es", "s", "e"):
        if len(w) - len(suffix) >= 3 and w.endswith(suffix):
            return w[: -len(suffix)]
    return w


def _content(words: list[str]) -> list[str]:
    return [
        stem(w)
        for w in words
        if w.lower() not in stopwords.ENGLISH and w.lower() not in _PRONOUNS and not w.isdigit()
    ]


@dataclass(frozen=True)
class Expression:
    """One anchored date as said: where it is (`start`, `end`: its words), the offset, and
    where its anchor's words are (`anchor_start`, `anchor_end`; the same for a bare one)."""

    start: int
    end: int
    count: int  # how many units; 0 for a weekday, a day part or "the week"
    unit: str  # "day", "workday", "week", "month", "weekday", "week-of"
    weekday: int  # 0-6 for "the Friday before"; -1 otherwise
    after: bool
    anchor_start: int
    anchor_end: int
    anchor: str  # the anchor's words as said ("" for a bare one or "plus")
    plus: bool = False  # "plus a fortnight": counted from the date said just before
    dated_only: bool = False  # "two weeks from …": only from a date, never an event

    def shifted(self, base: date) -> tuple[date, str | None]:
        """The day this offset counts to from `base`, and the label it is written with
        ("week of …" for "the week after")."""
        sign = 1 if self.after else -1
        if self.unit == "weekday":
            if self.after:
                return base + timedelta(days=((self.weekday - base.weekday()) % 7) or 7), None
            return base - timedelta(days=((base.weekday() - self.weekday) % 7) or 7), None
        if self.unit == "week-of":
            monday = base - timedelta(days=base.weekday()) + timedelta(weeks=sign)
            return monday, f"week of {monday.isoformat()}"
        if self.unit == "month":
            return base + relativedelta(months=sign * self.count), None
        if self.unit == "workday":  # Monday to Friday, a weekend not counted
            day, left = base, self.count
            while left > 0:
                day += timedelta(days=sign)
                left -= day.weekday() < 5
            return day, None
        days = self.count * (7 if self.unit == "week" else 1)
        return base + relativedelta(days=sign * days), None

    def resolve(
        self,
        said: list[tuple[str, date]],
        date_at: Callable[[int, int], date | None],
        named: Callable[[str, list[tuple[str, date]]], date | None],
        remembered: list[tuple[str, date]] = [],  # noqa: B006 (read, never changed)
    ) -> tuple[date, str | None] | None:
        """The day this expression means, None when its anchor is unknown, `AMBIGUOUS` (the
        words to be kept as said) when two things it could name have different days.
        `said`: the dates said before it, each with its clause, latest last; `date_at`: the
        date said at a span of the sentence (the anchor said as a date); `named`: resolve's
        own reading of a named anchor, asked when these rules find none; `remembered`: the
        upcoming dates of earlier sessions with their lines, for an event named (never for
        "it" or a bare offset) that this session has not dated."""
        if self.plus:  # "Monday plus a fortnight": the date said just before it
            base = date_at(self.anchor_start, self.anchor_end)
        elif not self.anchor:  # "two weeks before.": the date said last
            base = said[-1][1] if said else None
        else:
            base = date_at(self.anchor_start, self.anchor_end)
            if base is None and not self.dated_only:
                base = anchor_date(self.anchor, said)
                if base is None:
                    base = named(self.anchor, said)
                if base is None and _content(re.findall(r"[\w'’]+", self.anchor)):
                    base = anchor_date(self.anchor, remembered)
        if base is AMBIGUOUS:
            return AMBIGUOUS, None
        if base is None:
            return None
        return self.shifted(base)


class _Ambiguous(date):
    pass


#: What `anchor_date` answers when two things of the anchor's name have different days.
AMBIGUOUS = _Ambiguous(1, 1, 1)


def anchor_date(anchor: str, said: list[tuple[str, date]]) -> date | None:
    """The date of the event `anchor` names ("it arrives", "cardiology", "the wedding"),
    from the dates said before with their clauses: the latest clause that holds every
    content word of the anchor (in any form: "arrives" is "arrive"); a pronoun alone ("it",
    "that") is the date said last. None when no clause names it; `AMBIGUOUS` when clauses
    naming it give different days and the latest does not say it moved."""
    words = re.findall(r"[\w'’]+", anchor)
    if not words or not said:
        return None
    wanted = _content(words)
    if not wanted:
        return said[-1][1] if all(w.lower() in _PRONOUNS for w in words) else None
    hits = [
        (clause, d)
        for clause, d in said
        if set(wanted) <= {stem(w) for w in re.findall(r"[\w'’]+", clause)}
    ]
    if not hits:
        return None
    latest_clause, latest = hits[-1]
    if any(d != latest for _, d in hits) and not _MOVED.search(latest_clause):
        return AMBIGUOUS
    return latest


def may_hold(text: str) -> bool:
    """The cheap test: whether `text` has a word an anchored date needs."""
    low = text.lower()
    return any(
        w in low for w in ("before", "after", "prior", "ahead", "from", "plus", "+", "within")
    )


def expressions(text: str) -> list[Expression]:
    """The anchored dates `text` says, in order."""
    if not may_hold(text):
        return []
    out = []
    for m in _EXPRESSION.finditer(text):
        if m.group("plus"):
            unit = _unit(m.group("punit"))
            count = _count(m.group("pcount")) * (2 if unit == "fortnight" else 1)
            unit = "week" if unit == "fortnight" else unit
            out.append(
                Expression(
                    m.start(),
                    m.end(),
                    count,
                    unit,
                    -1,
                    True,
                    max(0, m.start() - 40),
                    m.start(),
                    "",
                    plus=True,
                )  # fmt: skip
            )
            continue
        if m.group("count"):
            unit = _unit(m.group("unit"))
            count = _count(m.group("count")) * (2 if unit == "fortnight" else 1)
            unit = "week" if unit == "fortnight" else unit
            direction = m.group("dir").lower()
            if direction == "from" and m.group("bare") is not None:
                continue  # "two weeks from." is no date
            if direction == "of" and (not m.group("within") or m.group("bare") is not None):
                continue  # "two weeks of rain": a length, no date
            after = not direction.startswith(("before", "prior", "ahead"))
            if m.group("bare") is not None:
                out.append(Expression(m.start(), m.end(), count, unit, -1, after, 0, 0, ""))
                continue
            a_start, a_end, anchor = m.start("anchor"), m.end("anchor"), m.group("anchor")
            weekday, after_word = -1, after
        else:
            a_start, a_end, anchor = m.start("wanchor"), m.end("wanchor"), m.group("wanchor")
            after_word = m.group("wdir").lower() == "after"
            if m.group("wd"):
                count, unit, weekday = 0, "weekday", WEEKDAYS.index(m.group("wd").lower())
            elif m.group("week"):
                count, unit, weekday = 0, "week-of", -1
            else:
                count, unit, weekday = 1, "day", -1
        if re.match(r"(?i)(?:today|tomorrow|tonight|now|next|last|this)\b", anchor):
            continue  # "two weeks from today", "the Friday after next": resolve's own forms
        dated_only = bool(m.group("count")) and m.group("dir").lower() == "from"
        out.append(
            Expression(
                m.start(),
                a_end,
                count,
                unit,
                weekday,
                after_word,
                a_start,
                a_end,
                anchor,
                dated_only=dated_only,
            )  # fmt: skip
        )
    return out


def _count(said: str) -> int:
    low = " ".join(said.lower().split())
    if low.isdigit():
        return int(low)
    if low.startswith("a couple"):
        return 2
    tens, _, unit = low.replace("-", " ").partition(" ")
    return _COUNTS[tens] + (_COUNTS[unit] if unit else 0)


def _unit(said: str) -> str:
    low = said.lower()
    return "workday" if low.startswith(("working", "business")) else low.rstrip("s")


def counted_from(line: str) -> list[tuple[str, str]]:
    """The anchored dates of a line written with their day ("the Tuesday after cardiology
    (2028-04-25)"), each as (its anchor's words, the day written), for those whose anchor is
    named (not a date, not a pronoun)."""
    out = []
    for e in expressions(line):
        if not e.anchor or not _content(re.findall(r"[\w'’]+", e.anchor)):
            continue
        if re.search(r"\d", e.anchor):
            continue  # counted from a date said with it: no event to move
        iso = _ISO.match(line, e.end + 1) if line[e.end : e.end + 1] == " " else None
        if iso is not None:
            out.append((e.anchor, iso.group(1)))
    return out


def without_anchors(text: str) -> str:
    """`text` without the events its anchored dates count from ("the hearing test is the
    Tuesday after cardiology": the hearing test is what the date is of, not cardiology)."""
    for e in reversed(expressions(text)):
        if e.anchor and not e.plus:
            text = text[: e.anchor_start] + " " + text[e.anchor_end :]
    return text


def may_move(text: str) -> bool:
    """The cheap test: whether `text` says a word of change."""
    return bool(_MOVED.search(text))


def moved_anchor(anchor: str, text: str, dates: list[tuple[str, date]]) -> date | None:
    """The day a later statement (`text`, with its `dates`) moves the event `anchor` names
    to: it says a word of change and names the anchor in the clause of one date ("cardiology
    has moved to Friday the 28th"). None when it does not move it."""
    if not _MOVED.search(text) or not dates:
        return None
    wanted = set(_content(re.findall(r"[\w'’]+", anchor)))
    if not wanted or not wanted <= {stem(w) for w in re.findall(r"[\w'’]+", text)}:
        return None
    days = {d for _, d in dates}
    return days.pop() if len(days) == 1 else None
