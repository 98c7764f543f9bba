"""The assistant's enumerations as referents: what a user points at in a list it was given.

When an assistant's message lists items (numbered "1." / "1)", lettered "A:" / "(b)",
bulleted, or inline "A or B?" / "either A or B"), the user's next messages may name them by
where they stand or what sets them apart rather than by what they say:

- by position, to take items out: "delete the second point", "scrap number 3", "the last
  one, take that out as well", "the first two are fine, drop the rest";
- by position, with a new value: "in 4 it's Friday the 30th, not Thursday", "point 2 should
  say £850" (`edit`);
- by description or order, as a choice: "the latter", "the former", "the cheaper one", "the
  one nearer work", "option B"; and later "the other one", a switch from that choice.

`enumerations` reads the lists of a message, `pointed` what a user's sentence names of them.
A referent that is unsure (no list, an ordinal beyond the list, two lists the sentence does
not tell apart, two items a description fits) names nothing: a wrong item taken out is worse
than none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from doctree.agent.offline import language as lang
from doctree.agent.offline.answers import options_in
from doctree.agent.offline.language import content_words
from doctree.agent.offline.prefilter import gate_patterns


@dataclass(frozen=True)
class Enumeration:
    """One list of an assistant's message: the heading above it, if any, and its items as
    written (markers and emphasis taken off), with the marks that number them ("2", "b")."""

    items: tuple[str, ...]
    label: str | None = None
    marks: tuple[str, ...] = ()
    inline: bool = False


@dataclass
class Pointed:
    """What a user's sentence names of an enumeration: the items (0-based), and what it does
    with them: "drop" (take them out), "edit" (a new value: `value`, the old one `old` when
    said), "choose" (the one item chosen) or "switch" (the other of two, chosen before)."""

    action: str
    enumeration: Enumeration | None
    items: list[int] = field(default_factory=list)
    value: str = ""
    old: str = ""
    label: str = ""  # the words the sentence names the list by ("Swimming, the latter")


_ITEM = re.compile(
    r"^\s*(?:[-*+•]\s+)?(?:(?P<num>\d{1,2})[.)]|\(?(?P<let>[A-Ha-h])[.):]|[-*+•])\s+(?P<item>\S.*)$"
)
_ORDINAL = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5,
    "6th": 6, "7th": 7, "8th": 8, "9th": 9, "10th": 10,
}  # fmt: skip
_NUMBER = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10,
}  # fmt: skip
_UNIT = r"(?:one|ones|point|points|item|items|bullet|bullets|line|lines|option|options|choice|thing|entry)"
#: "the second point", "the last one", "the first two", "number 3", "point 2", "option B", "#4".
_BY_PLACE = re.compile(
    r"\b(?:the\s+|that\s+)?(?P<ord>first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|"
    r"tenth|[1-9](?:st|nd|rd|th)|last|final)(?:\s+(?P<count>two|three|four|2|3|4))?"
    rf"(?:\s+{_UNIT})?\b(?=\s*(?:$|[,.;:!?)—–]|(?:is|are|was|were|should|needs?|please|too|as|"
    r"for|on|from|in|of|out|off|and|but|then|can|has|isn['’]t|aren['’]t|wasn['’]t)\b))"
    r"|(?:\b(?:number|no\.|point|item|bullet|option|choice|line)\s*#?|#)\s*(?P<num>\d{1,2}\b|(?-i:[A-H])\b)",
    re.I,
)
#: Several items named by their numbers: "points 2 and 4", "items 1, 3 and 5".
_SEVERAL = re.compile(
    r"\b(?:points|items|numbers|bullets|lines|options|nos\.)\s+(?P<list>\d{1,2}(?:\s*(?:,|and|&)\s*\d{1,2})+)\b",
    re.I,
)
#: The verbs of taking an item out: "delete", "scrap", "take that out", "leave it off".
_DROP = re.compile(
    r"\b(?:delete|remove|scrap|scratch|strike|drop|bin|ditch|erase|forget|cut|lose|get\s+rid\s+of|"
    r"take\s+(?:\w+\s+){0,3}(?:out|off)|leave\s+(?:\w+\s+){0,3}(?:out|off)|cross\s+(?:\w+\s+){0,3}off|"
    r"don['’]?t\s+(?:keep|need|want|save|note|record))\b",
    re.I,
)
#: "the rest", "the others", "everything else": the items a sentence did not name.
_REST = re.compile(r"\b(?:the\s+rest|the\s+others|all\s+the\s+others|everything\s+else)\b", re.I)
#: "the first two are fine": the items named are kept.
_KEPT = re.compile(r"\b(?:are|is)\s+(?:fine|ok|okay|good|right|correct|staying)\b|\bkeep\b", re.I)
#: A new value for an item: "in 4 it's Friday the 30th", "point 2 should say £850",
#: "number 3 should be 10am", "change 5 to Tuesday".
_EDIT = re.compile(
    r"^\W*(?:(?:and|also|oh|oh,|plus|but|then)\s+)?(?:in|for|on)\s+(?:number\s+|point\s+|item\s+|#)?"
    r"(?P<a>\d{1,2})\b,?\s+(?:it['’]s|it\s+is|it\s+should\s+(?:say|be|read)|make\s+it|that['’]s|"
    r"that\s+should\s+be)\s+(?P<v1>(?:[^,;.]|(?<=\d)[,.](?=\d))+)"
    r"|^\W*(?:(?:and|also|oh|plus|but|then)\s+)?(?:number|point|item|#)\s*(?P<b>\d{1,2})\s+"
    r"(?:should\s+(?:say|be|read)|is\s+actually|is\s+wrong,?\s+it['’]s)\s+(?P<v2>(?:[^,;.]|(?<=\d)[,.](?=\d))+)"
    r"|^\W*(?:(?:and|also|oh|plus|but|then)\s+)?change\s+(?:number\s+|point\s+|item\s+|#)?"
    r"(?P<c>\d{1,2})\s+to\s+(?P<v3>(?:[^,;.]|(?<=\d)[,.](?=\d))+)",
    re.I,
)
_NOT_OLD = re.compile(r"^\s*,?\s*not\s+(?P<old>(?:[^,;.]|(?<=\d)[,.](?=\d))+)", re.I)
_COMPARATIVE = re.compile(
    r"\bthe\s+(?:(?P<cheap>cheaper|cheapest|less\s+expensive|least\s+expensive)|"
    r"(?P<dear>dearer|dearest|pricier|priciest|more\s+expensive|most\s+expensive)|"
    r"(?P<early>earlier|earliest)|(?P<late>later|latest))(?:\s+(?:one|option|choice))?\b"
    r"|\bthe\s+one\s+(?P<stem>\w+?)(?:er|est)\s+(?:to\s+)?(?P<what>\w+(?:\s+\w+)?)",
    re.I,
)
#: What says a place is near: "near your work", "next to the station", "five minutes from".
_NEAR = r"\b(?:near|close\s+to|next\s+to|by\s+the|round\s+the\s+corner|minutes?\s+from|walk\s+from)"
_FORMER = re.compile(
    r"\bthe\s+(?P<which>former|latter)(?:\s+(?:one|option|choice))?(?=\s*(?:$|[,.;:!?)—–]|please\b))",
    re.I,
)
_OTHER = re.compile(r"\bthe\s+other\s+(?:one|option|choice)\b", re.I)
#: A word of changing one's mind: "go with", "change of plan", "switch", "instead".
_SWITCH = re.compile(
    r"\b(?:go(?:ing)?\s+(?:with|for)|change\s+of\s+plan|chang(?:e|ed|ing)|switch(?:ed|ing)?|"
    r"swap(?:ped|ping)?|instead|actually|make\s+it|rather)\b",
    re.I,
)
_MONEY = re.compile(r"[£$€]\s?(\d[\d,]*(?:\.\d+)?)")
_TIME = re.compile(r"\b(\d{1,2})(?::(\d{2}))?\s*(am|pm)\b|\b(\d{1,2}):(\d{2})\b", re.I)
_WEEKDAY = lang.WEEKDAY
_MONTH = lang.MONTH_OR_ABBREVIATION


def enumerations(text: str) -> list[Enumeration]:
    """The lists of an assistant's message, in order: lines of items (numbered, lettered or
    bulleted), each run of them one list, the short line above it (a heading: "Nursery")
    its label; else the options of a question "A or B?" or "either A or B". [] when none."""
    found: list[Enumeration] = []
    items: list[str] = []
    marks: list[str] = []
    label: str | None = None
    last_line = ""

    def close() -> None:
        if len(items) >= 2:
            found.append(Enumeration(tuple(items), label, tuple(marks)))
        items.clear()
        marks.clear()

    for line in text.split("\n"):
        m = _ITEM.match(line)
        if m is None:
            if line.strip():
                close()
                last_line = line.strip()
            continue
        if not items:
            label = _heading(last_line)
        item = re.sub(r"[*_`]", "", m["item"]).strip()
        items.append(item)
        marks.append((m["num"] or m["let"] or "").lower())
    close()
    if found:
        return found
    for sentence in re.split(r"(?<=[.!?])\s+", text.strip()):
        either = re.search(r"\beither\s+(.+?)\s+or\s+(.+?)[.?!]?$", sentence, re.I)
        if either:
            found.append(Enumeration((either[1].strip(" ,"), either[2].strip(" ,")), inline=True))
        elif sentence.endswith("?") and (options := options_in(sentence)):
            found.append(Enumeration(tuple(options), inline=True))
    return found[-1:]


def _heading(line: str) -> str | None:
    """A line above a list that names it ("Nursery", "**Swimming**", "Dentist:"), not a
    sentence introducing it ("Here's what I have:")."""
    text = re.sub(r"[*_#`]", "", line).strip().rstrip(":").strip()
    if not text or len(text.split()) > 3 or re.search(r"[.!?,;]|\b(?:I|I['’]\w+|you|here)\b", text):
        return None
    return text


def _index(word: str, enum: Enumeration) -> int | None:
    """The 0-based item a place word names ("second", "last", "4", "B"), None beyond it."""
    w = word.lower()
    n = len(enum.items)
    if w in ("last", "final"):
        return n - 1
    if w in enum.marks:
        return enum.marks.index(w)
    at = _ORDINAL.get(w) or (int(w) if w.isdigit() else None)
    if at is None and len(w) == 1 and w.isalpha():
        at = ord(w) - ord("a") + 1
    return at - 1 if at is not None and 1 <= at <= n else None


def _which_list(sentence: str, lists: list[Enumeration]) -> tuple[Enumeration | None, str]:
    """The list a sentence points into: the one whose label it names ("Swimming, the
    latter"), else the one list there is; None when it cannot tell."""
    head = re.split(r"[,:—–]", sentence, maxsplit=1)[0]
    named = [
        e for e in lists if e.label and re.search(rf"\b{re.escape(e.label)}\b", sentence, re.I)
    ]
    if len(named) == 1:
        return named[0], named[0].label or ""
    if len(lists) == 1:
        words = head.strip(" .").split()
        said = head.strip(" .") if 0 < len(words) <= 3 and not _BY_PLACE.search(head) else ""
        return lists[0], said if not re.search(r"\b(?:the|it|that|in|and)\b", said, re.I) else ""
    return None, ""


def pointed(sentence: str, lists: list[Enumeration], *, asked: bool) -> Pointed | None:
    """What `sentence`, said by the user after an assistant's message listing `lists`,
    names of them, or None when it names nothing for sure. `asked`: the message asked the
    user to choose (it ends on a question or offers "A or B"), so that a pick is a choice."""
    if _OTHER.search(sentence):
        return Pointed("switch", None) if _SWITCH.search(sentence) else None
    if not lists:
        return None
    if m := _EDIT.match(sentence):
        enum, _ = _which_list(sentence, lists)
        at = _index(m["a"] or m["b"] or m["c"], enum) if enum else None
        if enum is None or at is None:
            return None
        value = (m["v1"] or m["v2"] or m["v3"]).strip()
        old = _NOT_OLD.match(sentence[m.end() :])
        value = re.sub(r",?\s+not\s+.*$", "", value, flags=re.I).strip()
        return Pointed("edit", enum, [at], value, old["old"].strip() if old else "")
    drop = _DROP.search(sentence)
    places = list(_BY_PLACE.finditer(sentence))
    several = _SEVERAL.search(sentence)
    if drop and several:
        enum, label = _which_list(sentence, lists)
        numbers = re.findall(r"\d{1,2}", several["list"])
        several_at = [_index(n, enum) for n in numbers] if enum else []
        if enum is None or any(i is None for i in several_at):
            return None  # beyond the list: unsure
        chosen = sorted({i for i in several_at if i is not None})
        return Pointed("drop", enum, chosen, label=label)
    if drop and places:
        enum, label = _which_list(sentence, lists)
        if enum is None:
            return None
        named: list[int] = []
        for p in places:
            first = _index(p["ord"] or p["num"], enum)
            if first is None:
                return None  # beyond the list: unsure
            count = p["count"]
            n = int(count) if count and count.isdigit() else _NUMBER.get((count or "").lower(), 1)
            if p["ord"] and p["ord"].lower() in ("last", "final") and n > 1:
                first = len(enum.items) - n
            span = list(range(first, first + n))
            if span[-1] >= len(enum.items) or first < 0:
                return None
            named += span
        if _REST.search(sentence) and _KEPT.search(sentence[: drop.start()]):
            named = [i for i in range(len(enum.items)) if i not in named]  # "drop the rest"
        return Pointed("drop", enum, sorted(set(named)), label=label) if named else None
    if not asked or len(sentence.split()) > 12:
        return None  # a choice is a short reply to the question that listed the options
    enum, label = _which_list(sentence, lists)
    if enum is None:
        return None
    at = _chosen(sentence, enum)
    return Pointed("choose", enum, [at], label=label) if at is not None else None


def _chosen(sentence: str, enum: Enumeration) -> int | None:
    """The one item a sentence chooses by its order or what sets it apart."""
    n = len(enum.items)
    if m := _FORMER.search(sentence):
        return 0 if m["which"].lower() == "former" else n - 1
    if m := _COMPARATIVE.search(sentence):
        if m["cheap"] or m["dear"]:
            return _extreme([_amount(i) for i in enum.items], low=bool(m["cheap"]))
        if m["early"] or m["late"]:
            return _extreme([_minutes(i) for i in enum.items], low=bool(m["early"]))
        stem, what = m["stem"].lower(), content_words(m["what"])
        # "the one nearer work": the item that says it is near ("next to your work")
        said = _NEAR if stem in ("near", "clos", "close") else rf"\b{re.escape(stem)}"
        fits = [
            i
            for i, item in enumerate(enum.items)
            if re.search(said, item, re.I) and what <= content_words(item)
        ]
        return fits[0] if len(fits) == 1 else None
    place = [p for p in _BY_PLACE.finditer(sentence) if not p["count"]]
    if len(place) == 1:
        return _index(place[0]["ord"] or place[0]["num"], enum)
    return None


def _extreme(values: list[float | None], *, low: bool) -> int | None:
    """The one item of the lowest (or highest) value; None when an item has none or two tie."""
    if any(v is None for v in values):
        return None
    real = [v for v in values if v is not None]
    best = min(real) if low else max(real)
    return real.index(best) if real.count(best) == 1 else None


def _amount(text: str) -> float | None:
    found = _MONEY.findall(text)
    return float(found[0].replace(",", "")) if len(found) == 1 else None


def _minutes(text: str) -> float | None:
    m = _TIME.search(text)
    if m is None:
        return None
    if m[4]:
        return int(m[4]) * 60 + int(m[5])
    hour = int(m[1]) % 12 + (12 if m[3].lower() == "pm" else 0)
    return hour * 60 + int(m[2] or 0)


def as_users(item: str) -> str:
    """An item the assistant wrote to the user, in the user's words ("near your work" ->
    "near my work")."""
    swaps = {"your": "my", "you're": "I'm", "you": "me", "yours": "mine", "you’re": "I’m"}
    return re.sub(
        r"\b(?:your|you['’]re|yours|you)\b",
        lambda m: swaps.get(m.group(0).lower(), m.group(0)),
        item,
        flags=re.I,
    )


def choice(label: str, enum: Enumeration, at: int) -> str:
    """The statement a choice makes, in the user's words and the chosen item's own ("Swimming:
    I chose Saturdays 9am, Leisure Centre, instead of Wednesdays 4:30pm, school pool."): the
    other item is said when there are two, so that "the other one" can switch to it later."""
    item = as_users(enum.items[at]).rstrip(" .")
    head = f"{label[:1].upper()}{label[1:]}: I chose" if label else "I chose"
    if len(enum.items) == 2:
        other = as_users(enum.items[1 - at]).rstrip(" .")
        return f"{head} {item}, instead of {other}."
    return f"{head} {item}."


#: A line a choice of two wrote: "Swimming: the user chose A, instead of B."
_CHOICE_LINE = re.compile(
    r"^(?P<label>[^:]{1,40}): (?P<who>the user|I) chose (?P<chosen>.+?), instead of (?P<other>.+?)\.?$"
)


def switched(line: str, sentence: str) -> str | None:
    """The line a switch ("go with the other one" on swimming) makes of the line that recorded
    a choice of two, when the sentence names that choice's label; None otherwise."""
    m = _CHOICE_LINE.match(line.strip())
    if m is None or not re.search(rf"\b{re.escape(m['label'])}\b", sentence, re.I):
        return None
    return f"{m['label']}: {m['who']} chose {m['other']}, instead of {m['chosen']}."


def restates(item: str, said: str) -> float:
    """How much of a user's sentence an item restates: the share of its content words (names,
    figures, words) the item holds; 0 when they share fewer than two."""
    theirs = _words(said)
    if not theirs:
        return 0.0
    shared = theirs & _words(item)
    return len(shared) / len(theirs) if len(shared) >= 2 else 0.0


def says_besides(said: str, named: list[str], others: list[str]) -> bool:
    """Whether a user's sentence the `named` items restate also says what another item does:
    two words or more of one of the `others` that the named items do not hold ("… and my
    friend Caoimhe is driving the van" beside the move an item named restates)."""
    theirs = _words(said) - {w for item in named for w in _words(item)}
    return any(len(theirs & _words(o)) >= 2 for o in others)


def _words(text: str) -> set[str]:
    words = {w for w in content_words(text) if w not in ("i'm", "i’m", "my", "your")}
    return words | {f.replace(",", "") for f in re.findall(r"[£$€]?\d[\d,.:]*\w*", text)}


def edited(said: str, value: str, old: str) -> str | None:
    """`said` (the user's sentence an item restates) with its value replaced by `value` ("Friday
    the 30th" for "Thursday the 29th"): the one span of the same shape as the new value (a day,
    a date, an amount, a time), the one holding `old` when it is said; None when no span or
    more than one fits."""
    shape = _shape(value)
    if shape is None:
        return None
    spans = [m for m in re.finditer(shape, said, re.I)]
    if old:
        spans = [m for m in spans if old.lower() in m.group(0).lower()]
    if len(spans) != 1:
        return None
    m = spans[0]
    return said[: m.start()] + value + said[m.end() :]


def _shape(value: str) -> str | None:
    """A pattern for the values of the same kind as `value`."""
    v = value.strip()
    day = rf"{_WEEKDAY}(?:\s+(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)?(?:\s+(?:of\s+)?{_MONTH})?)?"
    date_ = rf"\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH}|{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?"
    if re.fullmatch(day, v, re.I):
        return rf"\b(?:{day})\b"
    if re.fullmatch(rf"(?:the\s+)?(?:{date_})", v, re.I):
        return rf"\b(?:the\s+)?(?:{date_})\b"
    if re.fullmatch(r"[£$€]\s?\d[\d,]*(?:\.\d+)?", v):
        return r"[£$€]\s?\d[\d,]*(?:\.\d+)?"
    if re.fullmatch(r"\d{1,2}(?::\d{2})?\s*(?:am|pm)|\d{1,2}:\d{2}", v, re.I):
        return r"\b(?:\d{1,2}(?::\d{2})?\s*(?:am|pm)|\d{1,2}:\d{2})\b"
    return None


#: What sets a list line's fields apart: leader dots ("Mum ... scarf ... £60"), a dash, a bar.
_FIELDS = re.compile(r"\s(?:\.{2,}|…|[—–|])\s")
#: "Priya's present", "Tom's gift": a person's entry named by what it holds for them.
_WHOSE = re.compile(r"\b(?P<who>[A-Z][\w’'-]+)['’]s?\s+(?P<what>[a-z][\w-]*)")


def entries(lines: list[str]) -> dict[int, set[str]]:
    """The lines of a list a user wrote, one person or thing a line ("Mum (Helen) ... cashmere
    scarf ... £60"), each by its index in `lines` with the names its first field holds: runs
    of two lines or more set apart into fields the same way."""
    keyed: dict[int, set[str]] = {}
    run: list[int] = []
    for i, line in enumerate([*lines, ""]):
        if _FIELDS.search(line):
            run.append(i)
            continue
        if len(run) >= 2:
            for j in run:
                head = _FIELDS.split(lines[j], maxsplit=1)[0]
                keyed[j] = set(re.findall(r"\b[A-Z][\w’'-]+", head))
        run = []
    return keyed


def entry_keys(line: str) -> set[str]:
    """The names that key a line of a list like those `entries` reads ("Oliver, my nephew, 9
    ... Lego Technic crane ... £40": Oliver), when the line is set apart into three fields or
    more; else none."""
    fields = _FIELDS.split(line)
    return set(re.findall(r"\b[A-Z][\w’'-]+", fields[0])) if len(fields) >= 3 else set()


def whose_entry(sentence: str) -> list[str]:
    """The persons whose entry of a list a sentence names ("anything about Priya's present",
    "Tom's gift"): the names said with a possessive."""
    return [m["who"] for m in _WHOSE.finditer(sentence)]


gate_patterns(globals())  # the cheap test in front of every pattern above (prefilter.py)
