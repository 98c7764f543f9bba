"""An assistant's recap of what the user just said, read as the user's own statements when
the user lets it stand.

A user who writes in a dialect, in another language, in shorthand, or pastes a layout the
rules do not read, is often answered by a plain restatement: "So your mum's hip operation is
at the Golden Jubilee on Monday 11 August; Kirsty covers the first week." What the rules
could not read in the user's words they can read in it. A sentence of an assistant's turn is
a recap of the user's messages since the assistant's turn before when it

- states (it asks nothing, and its "I" or "we" never speaks: "I've noted it", "we could"),
- names at least one thing by its name, and every name and every figure it gives was said
  in those messages; only a date may be said another way ("the eleventh o'
  August" is "Monday 11 August"): a sum the assistant worked out, or a name it brought in,
  is its own finding, which `extract` keeps only when the user accepts it;
- names nothing the user took back in those messages ("Understood, nothing about Gerry"),
  and speaks of no keeping ("Bob's notes stay as they are"): that is about memory, not a
  fact;

It is kept only when the user's next message lets it stand: it does not turn it down
("no, …"), correct it, or ask for anything to be forgotten or taken back; a session that
ends on it lets it stand. A turn that sets out a list (numbered or bulleted lines, a line
ending on ":") is not a recap: its items are pointed at by their place ("delete the second
point"), which is read for what the list says, not for what is kept here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from functools import cache

from doctree import stopwords
from doctree.agent.offline import language as lang
from doctree.agent.offline.enumerations import enumerations, pointed
from doctree.agent.offline.model import Turn
from doctree.agent.offline.positions import position, withdraws
from doctree.agent.offline.resolve import correction_of
from doctree.agent.offline.spelled import folded, spelled_words

#: A reply that opens on setting right or setting aside what was just said: "Actually, it's
#: the 10.40", "Wait, …", "Ignore that, …", "Not quite: …".
_NOT_SO = re.compile(
    r"^\W*(?:actually|correction|sorry|wait|hang\s+on|hold\s+on|not\s+quite|not\s+exactly|"
    r"almost|close|wrong|i\s+meant|i\s+mean\b|ignore|disregard|scratch|scrap|forget|strike)\b",
    re.I,
)
#: The assistant speaking of itself or of the two of them: not a restatement.
_OWN_VOICE = re.compile(r"\b(?:I|I'm|I’m|I've|I’ve|I'll|I’ll|I'd|I’d|me|my|we|let's|let’s)\b")
_WE = re.compile(r"\bwe\b", re.I)
#: A sentence about what memory keeps ("Bob's notes stay as they are", "nothing about Gerry
#: is kept"): about the keeping, not a fact.
_KEEPING = re.compile(
    r"\b(?:notes?|pages?|memory|records?|recorded|remember(?:ed)?|keep|kept|forget|forgotten|"
    r"delete[ds]?|deleted|dropped|removed|written\s+down|write\s+down|on\s+file|saved?)\b",
    re.I,
)


def voiced(sentence: str) -> bool:
    """Whether an assistant's sentence speaks of itself or of what memory keeps ("I've left
    the password out", "nothing about Gerry is kept"): no fact of the user's."""
    return bool(_OWN_VOICE.search(sentence) or _KEEPING.search(sentence))


#: Advice, not a restatement: "you may want to consider …", "Maybe Ana could help".
_ADVICE = re.compile(
    r"^\W*(?:maybe|perhaps|consider|try|how\s+about|why\s+not)\b|\b(?:could|might|"
    r"may\s+want\s+to|consider(?:ing)?|recommend|suggest|it'?s\s+worth|would\s+be\s+worth)\b",
    re.I,
)
#: An acknowledgement before the recap ("Noted:", "C'est noté:", "Updated:"), or the
#: assistant saying it wrote down what follows ("I've noted that …", "I've added …").
_ACK = re.compile(
    r"^\W*(?:[\w'’-]+\W{0,2}){1,3}:\s+(?=\S)"
    r"|^\W*(?:(?:ok(?:ay)?|done|great|thanks|right)\W{1,2})?(?:I['’]ve|I\s+have)\s+(?:also\s+)?"
    r"(?:noted|added|updated|recorded|saved|written\s+down|put\s+down)\s+(?:that\s+)?(?=\S)"
)
#: A name: a word with a capital after the sentence's first word.
_NAME = re.compile(r"(?<![\w'’])([^\W\d_][\w'’-]*)", re.U)
#: A figure: a run of digits (a time "8:30" and "8h30" give the same runs).
_DIGITS = re.compile(r"\d+")
_FIGURE = re.compile(r"(?<![^\W\d_])\d+(?:[.,:h]\d+)*(?P<after>[^\W\d_]*)")
#: What may follow a figure in the same word: a unit or an ending ("11am", "2nd", "10km");
#: a digit that leads a longer word is a letter written as a digit ("3ala", "ma3a").
_UNITS = {
    "", "st", "nd", "rd", "th", "am", "pm", "k", "m", "g", "h", "s", "x", "p", "d", "w", "y",
    "km", "kg", "mm", "cm", "ml", "mg", "mb", "gb", "kb", "hr", "hrs", "min", "mins", "sec",
    "secs", "mph", "kph", "ft", "lb", "lbs", "oz", "yr", "yrs", "wk", "wks", "ish", "px", "pt",
}  # fmt: skip


def _figures(text: str) -> set[str]:
    """The figures of a text, each as its digits and marks ("15:20", "185" of "£185"),
    leaving out digits inside a word ("ma3a") or leading one ("3ala")."""
    return {
        m.group()[: len(m.group()) - len(m["after"])]
        for m in _FIGURE.finditer(text)
        if m["after"].lower() in _UNITS
    }


_MONTH = lang.MONTH_OR_ABBREVIATION
#: A date said with its month: what a recap may say another way than the user did.
_DATE = re.compile(
    rf"\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{_MONTH})\b(?:,?\s+\d{{4}})?"
    rf"|\b(?:{_MONTH})\s+\d{{1,2}}(?:st|nd|rd|th)?\b(?:,?\s+\d{{4}})?"
    r"|\b\d{4}-\d{2}-\d{2}\b",
    re.I,
)
#: A message that sets out a list: a line that introduces it, numbered or bulleted lines.
_LISTS = re.compile(r":[ \t]*$|^[ \t]*(?:\d+[.)]|[-*•])\s", re.M)
_CALENDAR = {*lang.WEEKDAYS, *lang.MONTHS}
_YOURS = {"you", "your", "yours", "yourself"}


@dataclass(frozen=True)
class Heard:
    """What the user's messages since the assistant's last turn say, read once for the
    recaps of that turn and for what the session has heard so far (`heard_of`)."""

    #: the words and codes they spell out ("S-A-M-I-R" -> "SAMIR"), in the order said
    spelled: list[str]
    #: the messages and what they spell, joined, in lower case
    text: str
    #: the words of `text`
    words: frozenset[str]
    #: its runs of digits
    digits: frozenset[str]


#: A link with a query string or escapes: "https://x.example/book?time=11%3A40&reg=AB1+2CD".
_LINK = re.compile(r"https?://[^\s<>\"')\]]*[?%+][^\s<>\"')\]]*")


def links_read(message: str) -> str:
    """`message` with what each link of it says in its address written after it, decoded
    ("?time=11%3A40&reg=SN19%20KXP": "time 11:40 reg SN19 KXP"), as a recap reads it out."""
    links = _LINK.findall(message)
    if not links:
        return message
    from urllib.parse import unquote_plus

    said = [re.sub(r"[?&=/]+", " ", unquote_plus(link.split("://", 1)[1])) for link in links]
    return message + "\n" + "\n".join(said)


def heard_of(heard: list[str]) -> Heard:
    """The user's messages `heard` read for their words, digits and spellings."""
    heard = [links_read(h) for h in heard]
    # what the user spelled out ("S-A-M-I-R", "Kilo Tango seven seven four Delta") is said
    # as the words and codes it spells, without accents, as the recap may put them together
    spelled = [w for h in heard for w in spelled_words(h)]
    said = " ".join([*heard, *spelled]).lower()
    return Heard(spelled, said, frozenset(words_of(said)), frozenset(_DIGITS.findall(said)))


def recapped(
    turn: Turn,
    heard: list[str],
    taken: list[str],
    named: frozenset[str] | set[str] = frozenset(),
    *,
    checks: bool = False,
    figures: set[str] | frozenset[str] = frozenset(),
    read: Heard | None = None,
    held: Callable[[str], bool] = lambda word: False,
) -> list[str]:
    """The sentences of the assistant's `turn` that restate the user's sentences `heard`
    since its turn before, without naming anything in `taken` (what the user took back in
    them, with the requests), each without the acknowledgement before it. A name may also
    have been said before them (`named`: the words of what the user said earlier in the
    session and of the names memory knows, `words_of`); a figure must be in `heard` or in
    what the user said earlier in the session (`figures`), and a name that is no word of
    them may be one a current line of memory holds (`held`: a booking code an earlier
    session kept). `read` is `heard_of(heard)`, when the caller has it.

    With `checks`, the sentences that ask the user to confirm a restatement instead ("Let me
    check I've read that right: Ines has swimming on Tuesdays at 6pm?", "So the party's at 2pm,
    right?"), as
    statements: kept only when the user says yes."""
    if not heard:
        return []
    said = heard  # (`heard_of` reads the links of these itself)
    heard = [links_read(h) for h in heard]  # what a link says in its address, decoded
    listed = _listed(turn.message)
    if listed and checks:
        return []
    let_go = asked_off([x for h in heard for x in _sentences(h)])
    if let_go is None:
        return []  # a request that names nothing ("forget that"): the recap may answer it
    if read is None:
        read = heard_of(said)
    spelled = read.spelled
    # the days and times a pasted file writes as figures, as a recap says them (`_in_words`)
    dated = " ".join(_in_words(h) for h in heard).lower()
    said_digits = {d.lstrip("0") for d in [*read.digits, *_DIGITS.findall(dated)]}  # "08" of "8"
    said_words = set(read.words) | words_of(dated)

    @cache
    def figures_before() -> frozenset[str]:
        # (the session's figures so far, read only when a sentence's figure is not the
        # message's: a long session's are not gone through for every reply)
        return frozenset(f.lstrip("0") for f in figures)

    if spelled:  # the words spelled out, as the recap may put them together: no accents
        said_words |= words_of(folded(f"{read.text} {dated}"))
    earlier_words = said_words | named
    taken_names = {n.lower() for t in taken for n in _names(t)}
    raw_heard = " ".join(heard)
    # (each read of the message below is made once, when a sentence first asks for it)

    @cache
    def glyphs() -> bool:
        # messages mostly of emoji and signs ("🚙🔧 ❌ Thu ➡️ Tue"): the recap's words read them
        return all(unread(h) for h in heard)

    @cache
    def times_read() -> bool:
        # in a language the rules do not read, a time is said in words ("el sa3a tamanya"):
        # the recap's "8pm" is a reading, not a figure the assistant brought in
        return (
            glyphs() or not_english(raw_heard) or half_foreign(heard) or mixed_language(raw_heard)
        )

    @cache
    def other_script() -> bool:
        # written in another script (日本語, Ελληνικά, русский): the recap's names are its
        # transliterations ("Hakone"), not names the assistant brought in
        return _other_script(raw_heard)

    @cache
    def verbless() -> bool:
        # no verb the rules know: shorthand, a layout, another language
        return not any(lang.has_verb(h) for h in heard) and len(raw_heard.split()) >= 5

    if listed and not (any(h.count("\n") >= 2 for h in heard) or times_read()):
        # a list set out in answer to words the rules read (a question, a story): advice or
        # the assistant's own findings, not a reading of what was pasted
        return []
    out = []
    # a list set out: its items that state, each with its label ("Raffle: Dev Mistry …")
    candidates = None
    if listed:
        items = list_items(turn.message)
        inside = " ".join(items)
        # and the sentences outside the list that say what it does not ("Your supervisor
        # is Kasia Wróbel, ext 4410."; not "Still owed: Ana £18", its items summed up)
        listed_figures = set(_DIGITS.findall(inside))
        candidates = [x for x in items if _states(x, raw_heard)] + [
            x
            for x in turn.sentences
            if x not in inside
            and not x.rstrip().endswith(":")
            and not set(_DIGITS.findall(x)) & listed_figures
        ]

    def restating(raw: str) -> str | None:
        """`raw` as a restatement of what the user said, or None when it is none."""
        text = raw.strip() if listed else _ACK.sub("", raw.strip(), count=1)
        if checks:
            if (asked := checked_back(raw.strip())) is None:
                return None
            text = asked
        if (
            text.endswith(("?", "!"))
            or len(text.split()) < 4
            or _OWN_VOICE.search(text)
            or _WE.search(text)
            or _KEEPING.search(text)
            or _ADVICE.search(text)
        ):
            return None
        names = _names(text)
        if (
            not names
            and not (listed and _quotes_its_label(text, raw_heard))
            and not _dates_said_day(text, raw_heard, said_words)
        ):
            return None  # figures alone: advice may reuse the user's ("the same weight, 100g")
        if any(n.lower() in taken_names for n in names):
            return None  # it names what the user took back
        if names_any_of(text, let_go):
            return None  # it names what the user asked to be let go of
        if not (glyphs() or times_read() or other_script() or verbless()) and not _mostly_said(
            folded(text) if spelled else text, earlier_words | said_words
        ):
            return None  # its own words: what the assistant knows or found, not a restatement
        found = _DIGITS.findall(_DATE.sub(" ", _TIME.sub(" ", text) if times_read() else text))
        if (
            glyphs()
            or other_script()
            or all(
                _said(n, "", earlier_words)
                or (times_read() and _mutated(n, said_words))
                or (bool(spelled) and _said(folded(n), "", said_words))
                or held(n)
                for n in names
            )
        ) and all(f.lstrip("0") in said_digits or f.lstrip("0") in figures_before() for f in found):
            return text
        return None

    for raw in candidates if candidates is not None else turn.sentences:
        if (text := restating(raw)) is not None:
            out.append(text)
        elif listed and len(parts := _sentences(raw)) > 1:
            # an item of several sentences, one of which says what the assistant brought in
            # ("Roofer: Dara Quinn, Quinn Roofing. Quote to be reissued at £1,230."): each of
            # the others that restates what the user said is kept as its own
            out += [t for p in parts if _states(p, raw_heard) and (t := restating(p)) is not None]
    return out


_CLOCK = re.compile(r"\b0(\d)[:.h](\d{2})\b")


def _in_words(text: str) -> str:
    """The days and times `text` writes as figures ("2031-06-10", "09:00"), as a recap
    says them: their weekday, month and day ("Tuesday June 10"), the hour without its
    leading zero ("9:00")."""
    out = []
    for m in lang.ISO_DAY.finditer(text):
        try:
            day = date(int(m[1]), int(m[2]), int(m[3]))
        except ValueError:
            continue
        out.append(f"{lang.WEEKDAYS[day.weekday()]} {lang.MONTHS[day.month - 1]} {day.day}")
    out += [f"{m[1]}:{m[2]}" for m in _CLOCK.finditer(text)]
    # a number said in words ("at eight", "thirty-one years"), as a recap writes it: "8", "31"
    for m in _NUMBER_SAID.finditer(text):
        tens, unit = m["tens"], m["unit"] or m["unit2"]
        n = (_TENS.index(tens.lower()) + 2) * 10 if tens else 0
        out.append(str(n + (_UNITS_SAID.index(unit.lower()) + 1 if unit else 0)))
    return " ".join(out)


_UNITS_SAID = [
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
#: A number from one to ninety-nine said in words.
_NUMBER_SAID = re.compile(
    rf"\b(?:(?P<tens>{'|'.join(_TENS)})(?:[-\s](?P<unit>{'|'.join(_UNITS_SAID[:9])}))?"
    rf"|(?P<unit2>{'|'.join(_UNITS_SAID)}))\b",
    re.I,
)


def _dates_said_day(text: str, heard: str, words: set[str]) -> bool:
    """Whether a recap sentence that names nobody says again what the user just said with
    the day they named by its weekday dated ("Rebooked for Tuesday" -> "the fitter is now
    coming on Tuesday 28 September"): a weekday of theirs, and half its other words theirs
    too (not earlier ones: advice reuses those)."""
    said = {w.lower() for w in re.findall(r"[A-Za-z]+", heard)}
    days = {w.lower() for w in re.findall(r"[A-Za-z]+", text)} & set(lang.WEEKDAYS)
    return bool(days & said) and _mostly_said(text, words)


def _mostly_said(text: str, words: set[str]) -> bool:
    """Whether half or more of a sentence's words of substance were the user's: a
    restatement says again what was said ("Ines swims at Northgate on Tuesdays"), what the
    assistant knows says its own ("some cafés there do a pumpkin latte in autumn")."""
    # a day the recap dates a thing by, and "you" and "your" for the user's "I" and "my", are
    # a reading too
    own = {w for w in lang.content_words(text) if w not in _CALENDAR and w not in _YOURS}
    stems = {w[:5] for w in words if len(w) >= 5}

    def theirs(w: str) -> bool:  # the word, or one of its family ("swims" of "swimming")
        return _said(w, "", words) or (len(w) >= 5 and w[:5] in stems)

    return not own or 2 * sum(theirs(w) for w in own) >= len(own)


#: An assistant asking whether it read the user right, before the restatement: "Let me
#: check I've read that right:", "Just to confirm,", "So, to be sure:".
_CHECK_OPENER = re.compile(
    r"^\W*(?:so\W+)?(?:(?:let\s+me|can\s+i|just\s+to|to|i\s+want\s+to|i'd\s+like\s+to)\s+"
    r"(?:check|confirm|make\s+sure|be\s+sure|be\s+clear|double[-\s]check)\b[^:,—–]{0,40}"
    r"|(?:have|did)\s+i\s+(?:got|get|read|understood|understand)\s+(?:this|that|it|everything|"
    r"you)(?:\s+right|\s+correctly)?)\s*[:,—–]\s*(?=\S)",
    re.I,
)
#: A question tag after a restatement: ", right?", ", is that right?", " — correct?".
_CHECK_TAG = re.compile(
    r"\s*[,—–-]\s*(?:right|correct|yes|yeah|is\s+that\s+(?:right|correct)|"
    r"have\s+i\s+got\s+(?:that|it|this)\s+right|did\s+i\s+get\s+(?:that|it|this)\s+right)\s*\?$",
    re.I,
)


def checked_back(sentence: str) -> str | None:
    """An assistant's question that restates what the user said to have it confirmed, as a
    statement ("Let me check I've read that right: the party's at 2pm?" -> "the party's at
    2pm."), or None when the question asks something else."""
    if not sentence.endswith("?"):
        return None
    m = _CHECK_OPENER.match(sentence)
    tag = _CHECK_TAG.search(sentence)
    if m is None and tag is None:
        return None
    body = sentence[m.end() if m else 0 : tag.start() if tag else len(sentence) - 1].strip()
    return f"{body}." if len(body.split()) >= 4 else None


_ITEM = re.compile(r"^[ \t]*(?:\d+[.)]|[-*•])[ \t]+(?P<item>\S.*)$", re.M)
#: A label before an item's statement: "Summer fair:", "Round 3 (Saturday 11 February):".
_LABEL = re.compile(r"^[^:]{1,60}:\s+(?=\S)")
#: A label set apart by a dash: "`0 6 * * *` – the ferns are watered at 06:00", "**Dentist** – booked".
_DASH_LABEL = re.compile(r"^(?:`[^`\n]{1,60}`|\*\*[^*\n]{1,60}\*\*)[^\n–—-]{0,40}\s[–—-]\s+(?=\S)")


def list_items(message: str) -> list[str]:
    """The items of a list set out in a message (numbered or bulleted lines)."""
    return [m.group("item").strip() for m in _ITEM.finditer(message)]


_DETERMINERS = {"the", "her", "his", "their", "our", "its", "this", "that", "these", "those"}


def _states(item: str, heard: str) -> bool:
    """Whether a list's item states something of what the user said rather than telling
    them to do something: it opens on a label ("Face painting: Noor booked …"), on "you" or
    "your", on a name the user wrote with its capital ("Thandi's rating was 1530"), or on a
    determiner before a verb ("The dentist has moved"); "Call Dev on Monday" opens on none of
    them."""
    if (label := _LABEL.match(item)) and len(label.group().split()) <= 8:
        return True
    if _DASH_LABEL.match(item):
        return True
    first = re.match(r"\W*([\w'’-]+)", item)
    if first is None:
        return False
    word = re.sub(r"['’]s$", "", first.group(1))
    if word.lower() in {"you", "your", "you're", "you’re", "you've", "you’ve"}:
        return True
    if word.lower() in _DETERMINERS and lang.has_verb(item):
        return True  # "The dentist has moved to the 4th": a statement, not an order
    if lang.PAST_VERB.fullmatch(word):
        return True  # "Met Bridie at a dance in 1973": what was done, its doer left unsaid
    return (
        word[:1].isupper()
        and re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", heard) is not None
    )


def _listed(message: str) -> bool:
    """Whether a message sets out a list: numbered or bulleted lines, or a line ending on ":"
    that introduces more than a block of code."""
    for m in _LISTS.finditer(message):
        if m.group().lstrip(" \t").startswith(":"):
            after = message[m.end() :].lstrip("\n")
            if after.startswith(("```", "~~~", "    ", "\t")):
                continue  # "Change the loop like this:" and the code to write
        return True
    return False


def words_of(text: str) -> set[str]:
    """The words of a text, in lower case, as a recap's names are looked up in them."""
    return set(re.findall(r"[\w'’-]+", text.lower()))


def _sentences(text: str) -> list[str]:
    return [x for x in re.split(r"(?<=[.!?])\s+|\n+", text) if x.strip()]


#: A clause that opens on a word pointing back at the one before: "his", "she", "it".
_LEANS = re.compile(
    r"(?:he|she|it|they|him|her|his|hers|its|their|them|this|that|these|those|there|then)\b",
    re.I,
)


def clauses(recap: list[str]) -> list[str]:
    """A recap's sentences cut at ";" into clauses of four words or more, each ending on
    its mark, and at ", and" where both sides are clauses of their own ("Pepper has her
    jabs at the vets on Friday, and the Volvo's service is on Monday"): one fact each."""
    out = []
    for raw in recap:
        for part in raw.split(";"):
            pieces = re.split(r",\s+and\s+(?=\S)", part.strip())
            if (
                len(pieces) > 1
                and not all(len(p.split()) >= 4 and lang.has_verb(p) and _names(p) for p in pieces)
                or any(_LEANS.match(p) for p in pieces[1:])
            ):
                # a list's last item, or a clause that leans on the one before ("and the
                # show itself is on Friday"): one fact
                pieces = [part.strip()]
            for c in pieces:
                if len(c.split()) >= 4:
                    out.append(c if c[-1] in ".!" else f"{c}.")
    return out


def restated(clause: str, texts: list[str], days: Callable[[str], list[str]]) -> list[int]:
    """The indexes of the `texts` (sentences the user said) that `clause` says again: those
    that give a figure of it outside a date or a day it names (`days`: the ISO days a text
    names), or every name it gives and half its words of substance."""
    values = _values(clause, days)
    names = _names(clause)
    out = []
    for i, text in enumerate(texts):
        low = text.lower()
        words = set(re.findall(r"[\w'’-]+", low))
        if (values & _values(text, days)) or (
            names and all(_said(n, low, words) for n in names) and _shares_half(clause, text)
        ):
            out.append(i)
    return out


def _shares_half(clause: str, text: str) -> bool:
    """Whether half or more of a clause's words of substance are in `text` (stems alike):
    "Bruno's eye drops twice a day" does not say again "Bruno is our old spaniel"."""
    words = {lang.stem(w) for w in lang.content_words(clause)}
    return 2 * len(words & {lang.stem(w) for w in lang.content_words(text)}) >= len(words)


def says_more(clause: str, texts: list[str], days: Callable[[str], list[str]]) -> bool:
    """Whether a recap's `clause` holds every figure and day of the `texts` it says again
    and a name none of them gives, or two words of substance none of them gives: "Ilse Varga
    (mobile +44 7700 900456)" of a pasted "TEL;TYPE=cell:+44 7700 900456", a better line
    than the one the rules kept."""
    values = _values(clause, days)
    if not all(_values(t, days) <= values for t in texts):
        return False
    said = " ".join(texts).lower()
    words = set(re.findall(r"[\w'’-]+", said))
    if any(not _said(n, said, words) for n in _names(clause)):
        return True
    # or what the fields only list, said in words: "rows on Sundays and her mobile is …" of
    # "FN:Ilse Varga" and "TEL;TYPE=cell:…"
    return len({w for w in lang.content_words(clause) if not _said(w, said, words)}) >= 2


#: A time of day: "1pm", "10.30am", "4 p.m.", "14:45".
_TIME = re.compile(
    r"\b\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.|o['’]\s?clock)(?!\w)"
    r"|\b\d{1,2}[:h]\d{2}\b",
    re.I,
)


def _other_script(text: str) -> bool:
    """Whether a third or more of a text's letters are of a script other than Latin."""
    letters = [c for c in text if c.isalpha()]
    other = sum(1 for c in letters if ord(c) > 0x24F and not 0x1E00 <= ord(c) <= 0x1EFF)
    return len(letters) >= 6 and other * 3 >= len(letters)


def not_english(text: str, *, share: int = 10) -> bool:
    """Whether a text of six words or more is in another language (or a dialect far from
    English): fewer than one word in ten (in `share`) is one of English's common little
    words."""
    words = re.findall(r"[^\W\d_]+(?:['’][^\W\d_]+)?", text.lower())
    return len(words) >= 6 and sum(w in stopwords.ENGLISH for w in words) * share < len(words)


def mixed_language(text: str) -> bool:
    """Whether a text of twelve lower-case words or more switches between English and a
    language the rules do not read within its sentences ("Mama yangu anakuja from Nyeri
    Jumamosi hii"): half its lower-case words or more are no English word (names, which
    are capitalised, aside)."""
    from doctree.agent.offline.ocr import known

    words = re.findall(r"(?<![\w'’-])[a-z][a-z]+(?![\w'’-])", text)
    return len(words) >= 12 and 2 * sum(not known(w) for w in words) >= len(words)


def half_foreign(heard: list[str]) -> bool:
    """Whether half or more of the sentences of six words or more in `heard` are in another
    language (`not_english`): a message that switches between two ("Sorry, I mix the two.
    Mae'r trên yn hwyr heddiw, …"), whose recap in English is a reading."""
    long = [x for h in heard for x in _sentences(h) if len(x.split()) >= 6]
    # (a sentence in another language may hold a few words that are English's little words
    # too, "i" or "am": fewer than one in five)
    return bool(long) and 2 * sum(not_english(x, share=5) for x in long) >= len(long)


def unread(text: str) -> bool:
    """Whether a text is mostly not words: emoji, symbols, codes and figures standing for
    what a sentence would say ("🐱 Pepper 💉 Fri 4pm @ Larchwood"), so that a recap in
    words says it better."""
    tokens = text.split()
    words = [t for t in tokens if re.fullmatch(r"\W*[^\W\d_]{2,}(?:['’-][^\W\d_]+)*\W*", t)]
    return len(tokens) >= 3 and len(words) * 2 < len(tokens)


def dates_unread(clause: str, texts: list[str], days: Callable[[str], list[str]]) -> bool:
    """Whether a recap's `clause` gives a day where none of the `texts` it says again has one
    the rules read ("due 2 Mehefin", a month in another language, as "due on 2 June"),
    holding every figure they hold (a figure of theirs may be the day's own)."""
    new = set(days(clause))
    if not new or any(days(t) or re.search(r"\d{4}-\d{2}-\d{2}", t) for t in texts):
        return False
    values = _values(clause, days) | {str(int(d[8:10])) for d in new}
    return all(_values(t, days) <= values for t in texts)


def _values(text: str, days: Callable[[str], list[str]]) -> set[str]:
    """A text's figures outside its dates ("15:20", "£185" as "185") and the days it
    names."""
    return (
        _figures(_DATE.sub(" ", text))
        | set(days(text))
        | set(re.findall(r"\d{4}-\d{2}-\d{2}", text))
    )


def standing(reply: list[str], recap: list[str], message: str = "") -> list[str]:
    """The sentences of a recap that the user's next message, its sentences `reply`, lets
    stand: none when it turns something down, corrects something or takes something back,
    or points at an item of a list the recap's `message` set out ("drop the second point");
    when it asks for something named to be let go of ("the Lisbon bit has to go, forget it"),
    all but those that name it."""
    if not reply:
        return recap
    lists = enumerations(message) if _listed(message) else []
    if lists and any(pointed(r, lists, asked=False) is not None for r in reply):
        return []
    let_go = asked_off(reply)
    # a request naming what goes is read below (the rest stands); any other taking back is
    # a taking back of the recap
    named = {r for r in reply if let_go and lang.forget_request(r) is not None}
    if let_go:
        # "Actually, take the bit about Gus out. Forget Gus altogether.": a sentence that
        # names what the request lets go of, and changes no value, is part of that request
        named |= {
            r
            for r in reply
            if names_any_of(r, let_go)
            and correction_of(r) is None
            and not lang.MAKE_THAT.match(r)
            and lang.said_again(r) is None
        }
    if (
        reply[0] not in named
        and (
            lang.rejects(reply[0])
            or lang.CORRECTS_EARLIER.match(reply[0])
            or _NOT_SO.match(reply[0])
        )
    ) or any(
        lang.aside_ahead(r, first=i == 0) is not None
        or correction_of(r) is not None
        or lang.MAKE_THAT.match(r)
        or lang.said_again(r) is not None
        or (withdraws(r) and r not in named)
        or position(r) is not None
        for i, r in enumerate(reply)
    ):
        return _untouched(recap, reply, message)
    if let_go is None:
        return []
    return [r for r in recap if not names_any_of(r, let_go)]


def lets_stand(reply: list[str]) -> bool:
    """Whether the user's `reply` (its sentences) lets what the assistant just said stand:
    it does not turn it down ("no, …"), set it right ("Actually, …", "make that 12"), take
    anything back or ask for anything to be forgotten."""
    if not reply:
        return True
    return not (
        lang.rejects(reply[0])
        or lang.CORRECTS_EARLIER.match(reply[0])
        or _NOT_SO.match(reply[0])
        or any(
            lang.forget_request(r) is not None
            or correction_of(r) is not None
            or lang.MAKE_THAT.match(r)
            or withdraws(r)
            for r in reply
        )
    )


def _quotes_its_label(item: str, heard: str) -> bool:
    """Whether a list's item is labelled by a piece of what the user pasted, quoted whole
    ("`0 7,19 * * *` – the eye drops reminder at 07:00 and 19:00"), or by the words that
    open a line of it ("Renewal: Friday 3 May" of a pasted line "🔁 Renewal ..... 12 days"):
    it reads that line."""
    m = _DASH_LABEL.match(item)
    code = re.match(r"`([^`]+)`", item) if m else None
    if code is not None:
        return len(code.group(1)) >= 3 and code.group(1) in heard
    label = _COLON_LABEL.match(item)
    if label is None:
        return False
    said = re.escape(label.group("label")).replace("\\ ", r"\s+")
    return re.search(rf"^[^\w\n]*{said}\b", heard, re.I | re.M) is not None


#: A list item's label before a colon, after any emoji or markup: "🎓 Graduation: …".
_COLON_LABEL = re.compile(r"^[^\w\n]*(?P<label>[^\W\d_][\w'’ -]{2,40}?)\s*:\s+(?=\S)")


def _untouched(recap: list[str], reply: list[str], message: str) -> list[str]:
    """The items of a recap set out as a list of three or more that a reply turning
    something down or correcting it does not touch: those that share no name or word of
    substance with the reply ("The recycling one is wrong, it's Thursdays" leaves the ferns
    and the backup standing). None when the recap is no such list, or the reply touches half of
    its items or more (which it means is then unclear)."""
    if not _listed(message) or len(recap) < 3:
        return []
    words = lang.content_words(" ".join(reply)) - _CALENDAR
    touched = [r for r in recap if words & lang.content_words(r)]
    if not touched or 2 * len(touched) >= len(recap):
        return []
    return [r for r in recap if r not in touched]


def asked_off(sentences: list[str]) -> list[set[str]] | None:
    """The words of each thing the `sentences` ask to be let go of by naming it ("forget
    about the Lisbon move", "the Lisbon bit has to go, forget it"); None when one asks for
    something it does not name ("forget that") and no sentence before it says what it
    means."""
    out = []
    for i, x in enumerate(sentences):
        if (request := lang.forget_request(x)) is None:
            continue
        what = request[1] or lang.said_of(x)
        if not what or lang.PRONOUN_TARGET.fullmatch(what) or not lang.content_words(what):
            m = lang.FORGET_THAT.search(x)
            head = x[: m.start()] if m else ""
            if any(lang.has_verb(y) for y in [*sentences[:i], head] if len(y.split()) >= 3):
                continue  # "He left again … don't save that": what was said before it
            return None
        out.append(lang.content_words(what))
    return out


def names_any_of(text: str, things: list[set[str]]) -> bool:
    """Whether `text` holds every word of any of the `things`."""
    words = set(re.findall(r"[\w'’-]+", text.lower()))
    return any(thing <= words for thing in things)


def _names(text: str) -> list[str]:
    """The names `text` gives: its capitalised words after the first (and a common word
    opening a later sentence), weekdays and months aside, each without a possessive "'s"."""
    every = list(_NAME.finditer(text))
    found = every[1:]
    if every and re.match(r"[A-Z][a-z]+['’]s\s+[a-z]", text[every[0].start(1) :]):
        found = every  # "Elin's birthday is …": a possessive opening it is a name's
    out = []
    for m in found:
        w = m.group(1)
        if not w[0].isupper():
            continue
        if m.start(1) and (text[m.start(1) - 1].isdigit() or text[m.start(1) - 1] == "-"):
            continue  # "XM" of a reference "7QK-2W9D-XM": part of a code, said whole
        if w.lower() in stopwords.ENGLISH and re.search(r"[.!?:]\W*$", text[: m.start(1)]):
            continue  # "Her" opening the item's next sentence
        w = re.sub(r"['’]s$", "", w)
        low = w.lower().rstrip(".")
        if low in _CALENDAR or (low.endswith("s") and low[:-1] in _CALENDAR):
            continue  # "Fridays" as "Friday"
        out.append(w)
    return out


def _said(name: str, said: str, words: set[str]) -> bool:
    """Whether the user said `name`: as a word of theirs, inflected ("Gdańska" for
    "Gdańsk", a name of four letters or more), or, for a name of several parts joined by
    hyphens, as its parts."""
    low = name.lower()
    return (
        low in words
        or (len(low) >= 4 and any(w.startswith(low) for w in words))
        # a plural of the user's word: "RSVPs" of "RSVP" (or of "\rsvpdate")
        or (len(low) >= 5 and low.endswith("s") and any(w.startswith(low[:-1]) for w in words))
        or all(p in words for p in low.split("-") if p)
    )


def _mutated(name: str, words: set[str]) -> bool:
    """Whether a word of the user's is `name` with its first letter changed, as languages
    that mutate a word's start do ("ym Mhlas" of "Plas", "o Gaerdydd" of "Caerdydd"): the
    rest of the name, of three letters or more, ends a word one or two letters longer."""
    rest = name.lower()[1:]
    return len(rest) >= 3 and any(
        w.endswith(rest) and 1 <= len(w) - len(rest) <= 2 and w[0] != name[0].lower() for w in words
    )


_YOU_FORMS = (
    (r"you(?:'re|’re)|you\s+are", "I'm"),
    (r"you\s+were", "I was"),
    (r"you(?:'ve|’ve)", "I've"),
    (r"you(?:'ll|’ll)", "I'll"),
    (r"you(?:'d|’d)", "I'd"),
    (r"yourself", "myself"),
    (r"yours", "mine"),
    (r"your", "my"),
)
#: Where "you" is the subject: at the start, after a joining word or a clause's mark.
_SUBJECT_BEFORE = re.compile(
    r"(?:^|[,;:—–(]|\b(?:and|but|so|then|that|when|if|because|while|until|or))\s*$", re.I
)


def as_users(text: str) -> str:
    """A recap's sentence in the user's own voice, as if the user had said it: "your mum's
    operation is on Monday; you go the week after" -> "my mum's operation is on Monday; I go
    the week after", so that it is read as the user's statements are."""
    for pattern, mine in _YOU_FORMS:

        def swap(m: re.Match[str], mine: str = mine) -> str:
            return mine if mine[0] == "I" or m.group()[0].islower() else mine.capitalize()

        text = re.sub(rf"\b{pattern}\b", swap, text, flags=re.I)
    out, at = [], 0
    for m in re.finditer(r"\byou\b", text, re.I):
        out.append(text[at : m.start()])
        out.append("I" if _SUBJECT_BEFORE.search(text[: m.start()]) else "me")
        at = m.end()
    return "".join(out) + text[at:]
