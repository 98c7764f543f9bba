"""The user's sentences of a conversation that a thing to forget refers to, found through every
way the conversation named it.

A user says "Went to see a two-bed at 14 Pell Street, £980 a month" and the assistant answers
"Noted the flat at 14 Pell Street (£980 a month)": a later "forget what I told you about the
flat" means the user's sentence, which never says "flat". So the sentences of a thing are:

- the user's sentences that say it (in any of its forms, `forms.said_forms`);
- the user's sentence an assistant's clause that says it restates: the one said before the
  clause that shares the most of its values (numbers, amounts, names), two at least;
- the sentences that go on from one of those in the same message: one written on the same
  list item's line (the rest of a note, never the rest of a paragraph), one that opens on
  "it", "this is", "that was" (the thing itself, never a person's pronoun), or one that
  shares a value with it.

`restating` gives the assistant's clauses that restate them, so that the conversation's record
loses them too: the whole sentence when every clause of it goes, else the clause with the
words that joined it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date

from doctree.agent.offline import language as lang
from doctree.agent.offline.clauses import cut
from doctree.agent.offline.forms import said_forms
from doctree.agent.offline.model import Turn
from doctree.stopwords import ENGLISH

#: A number as a value: "1,150", "£980", "14", "8am", "3.5".
_NUMBER = re.compile(r"\d[\d,.]*\d|\d")
#: A capitalised word, a name: "Pell", "Fenwick".
_NAME_WORD = re.compile(r"(?<![\w'’])[A-Z][\w'’-]+")
#: A sentence that opens on the thing said before it ("It needs a new boiler", "That was
#: £40"); "he", "she", "they" are people, who are more than the thing, and "that" alone
#: may open anything ("That reminds me, …").
_GOES_ON = re.compile(
    r"^\W*(?:(?:and|but|so|also|plus)[,\s]+)*(?:it|its|it['’]s|(?:this|that)(?:['’]s|\s+(?:is|"
    r"was|has|had|costs?|needs?|includes?|comes?|means)))\b",
    re.I,
)
#: Values shared between a restatement and the user's sentence it repeats.
_RESTATES = 2


@dataclass
class Referred:
    """What a conversation said of a thing: the user's sentences, and the assistant's
    sentences or clauses (with the words that joined them) restating them."""

    said: list[str] = field(default_factory=list)
    restating: list[str] = field(default_factory=list)
    #: each of them with the time of the message it was said in
    at: list[tuple[str, str]] = field(default_factory=list)


def values(text: str) -> set[str]:
    """The values a text holds: its numbers (digits only, "1,150" is "1150") and the names
    inside it (capitalised words past its first, not days, months or common words)."""
    out = {re.sub(r"\D", "", n) for n in _NUMBER.findall(text)}
    for m in _NAME_WORD.finditer(text):
        word = re.sub(r"['’]s$", "", m.group(0).lower())  # "Pauline's" names Pauline
        if m.start() == 0 or text[: m.start()].rstrip().endswith((".", "!", "?", ":")):
            continue  # a sentence's first word is capitalised whatever it is
        if word in ENGLISH or word in lang.WEEKDAYS or word in lang.MONTHS:
            continue
        out.add(word)
    return {v for v in out if v}


def referred(turns: list[Turn], says: ThingTest, written: dict[str, str] | None = None) -> Referred:
    """The user's sentences of `turns` that the thing `says` holds true of refers to, and
    the assistant's words that restate them (see the module's docstring). `written` holds
    each message's text by its time, when known: a sentence written on the same list
    item's line as one found ("Dad lent me £2,000. pay back £200 a month") goes on from it
    too."""
    found = Referred()
    before: list[str] = []  # the user's sentences so far, in order
    when: dict[str, str] = {}  # each user sentence -> the time of its message
    just: list[str] = []  # the sentences found in the user's message right before
    for turn in turns:
        if turn.kind == "user":
            when.update((raw, turn.time) for raw in turn.sentences if raw not in when)
        _read_turn(turn, says, found, before, just)
    # the sentences that go on from one found, in the same message
    for turn in turns:
        _gone_on(turn, found.said, written)
    found.at += [(when[x], x) for x in found.said if x in when]
    return found


def _read_turn(
    turn: Turn, says: ThingTest, found: Referred, before: list[str], just: list[str]
) -> None:
    """One turn of `referred`'s reading, in order: a user's sentences that say the thing, an
    assistant's that restate one (`before`: the user's sentences so far; `just`: those found
    in the user's message right before)."""
    if turn.kind == "user" and turn.speaker is None:
        just.clear()
        for raw in turn.sentences:
            if says(said_forms(raw)):
                found.said.append(raw)
                just.append(raw)
            before.append(raw)
        return
    if turn.kind != "assistant":
        return
    for sentence in turn.sentences:
        parts = cut(sentence)
        hits = [i for i, (_, text) in enumerate(parts) if says(said_forms(text))]
        if not hits and any(len(values(x) & values(sentence)) >= _RESTATES for x in just):
            # the reply's restatement of a sentence found, in its own words ("before
            # Pauline's visit on the 28th" of "her mum Pauline comes to stay on the
            # 28th"): its names and figures say it is that sentence's
            found.restating.append(sentence)
            found.at.append((turn.time, sentence))
            continue
        restated = False
        for i in hits:
            have = values(parts[i][1])
            best = max(before, key=lambda s: len(values(s) & have), default=None)
            if best is None or len(values(best) & have) < _RESTATES:
                continue
            restated = True
            if best not in found.said:
                found.said.append(best)
        if not restated:
            continue
        spans = [sentence] if len(hits) == len(parts) else [_span(parts, i) for i in hits]
        found.restating += spans
        found.at += [(turn.time, x) for x in spans]


def _gone_on(turn: Turn, said: list[str], written: dict[str, str] | None) -> None:
    """The sentences of a user's `turn` that go on from one in `said`, added to it."""
    if turn.kind != "user":
        return
    own = turn.rows | turn.items  # a table's row, a list's item: each a thing of its own
    text = (written or {}).get(turn.time, "")
    for prev, raw in zip(turn.sentences, turn.sentences[1:], strict=False):
        if prev not in said or raw in said or raw in turn.rows:
            continue
        item = prev in turn.items and raw in turn.items  # a list's item, or a note's
        if (item and _same_line(text, prev, raw)) or (
            raw not in own and raw not in turn.pasted and _goes_on(raw, prev)
        ):
            said.append(raw)


class ReferredSoFar:
    """`referred(turns, says).said` of a conversation read as it grows: asked again with
    more turns after those it read (a thing asked to be forgotten in message after
    message), it reads only the new ones, and goes through the sentences that go on from
    one found again only when the reading found a sentence it had not found before."""

    def __init__(self, says: ThingTest):
        self.says = says
        self._start()

    def _start(self) -> None:
        self.read: list[Turn] = []  # the turns read, in order
        self.found = Referred()
        self.before: list[str] = []
        self.just: list[str] = []
        self.gone_on_from: frozenset[str] = frozenset()  # what `said` was gone on from
        self.said: list[str] = []  # with the sentences going on from them
        self.gone: int = 0  # the turns gone through for those

    def __call__(self, turns: list[Turn]) -> frozenset[str]:
        n = len(self.read)
        if not (len(turns) >= n and all(turns[i] is self.read[i] for i in (0, n - 1) if n)):
            self._start()  # another conversation: read from its start
            n = 0
        for turn in turns[n:]:
            _read_turn(turn, self.says, self.found, self.before, self.just)
            self.read.append(turn)
        if frozenset(self.found.said) != self.gone_on_from:
            self.gone_on_from = frozenset(self.found.said)
            self.said, self.gone = list(self.found.said), 0
        for turn in self.read[self.gone :]:
            _gone_on(turn, self.said, None)
        self.gone = len(self.read)
        return frozenset(self.said)


def _span(parts: list[tuple[str, str]], i: int) -> str:
    """Clause `i` of a sentence with the words that join it to the others, so that the
    sentence reads on without it: ", and the flat at …" of a later clause (its stop stays
    with the sentence), "The flat at …, " of the first."""
    if i == 0:
        return parts[0][1] + parts[1][0]
    return parts[i][0] + (parts[i][1].rstrip(".!?") if i == len(parts) - 1 else parts[i][1])


def _same_line(text: str, prev: str, raw: str) -> bool:
    """Whether `raw` is written on the same line of the message `text` as `prev`, after it:
    the rest of one note or item, not a line of its own."""
    head, tail = prev[:24], raw[:24]
    for line in text.splitlines():
        at = line.find(head)
        if at >= 0 and line.find(tail, at + len(head)) >= 0:
            return True
    return False


def _goes_on(raw: str, prev: str) -> bool:
    """Whether `raw`, said right after `prev`, goes on about what `prev` said."""
    shared = {v for v in values(raw) & values(prev) if len(v) > 1}  # not a lone digit
    return bool(_GOES_ON.match(raw)) or bool(shared)


class ThingTest:
    """Whether a text says a thing: its content words (in any of their forms, at least half
    of them), as it concerns `persons` when given; its `head` too when given (a thing the
    conversation named whole: "the Italian restaurant" is not said by "Italian" alone)."""

    def __init__(
        self,
        words: set[str],
        persons: tuple[str, ...] = (),
        head: str | None = None,
        apart: str | None = None,
        pair: tuple[str, str] | None = None,
        rival: tuple[str, str] | None = None,
    ):
        self.words = words
        self.persons = persons
        self.head = head
        self.apart = apart
        self.pair = pair
        self.rival = rival
        self._read: dict[str, bool] = {}  # each text's answer, once (a text said again)

    def __call__(self, text: str) -> bool:
        if (known := self._read.get(text)) is None:
            known = self._read[text] = self._says(text)
        return known

    def _says(self, text: str) -> bool:
        if not self.words:
            return False
        if self.persons:
            return lang.concerns(text, self.words, self.persons)
        if self.head is not None and not lang.mentions(text, {self.head}):
            return False
        if self.apart is not None and (
            lang.only_compounded(text, self.apart) or lang.only_headed(text, self.apart)
        ):
            return False  # "the van depot", "the car park": another thing than the one said
        if self.pair is not None and not lang.says_with(text, *self.pair):
            return False  # "the car park" asked: "the park by the river" is another
        if self.rival is not None and lang.another_than(text, *self.rival):
            return False  # "the beer garden" asked: "our garden" is another
        return lang.mentions(text, self.words)


def restated_dates(
    turns: list[Turn], elsewhere: dict[str, list[date]] | None = None
) -> dict[str, list[date]]:
    """The dates the assistant's reply gives explicitly ("second viewing on Saturday 9
    March") for a user's sentence of the message just before it that it restates (they
    share two values or more: "14 Pell Street", "£980"): user sentence -> those dates. Into
    `elsewhere`, when given, go the days it gives another sentence of the message that
    shares two of its names and says the day's weekday alone ("come to the Boathouse,
    Friday at eight")."""
    from doctree.agent.offline.resolve import absolute_dates, message_date

    out: dict[str, list[date]] = {}
    for user, reply in zip(turns, turns[1:], strict=False):
        if user.kind != "user" or user.speaker is not None or reply.kind != "assistant":
            continue
        ref = message_date(reply.time)
        for sentence in reply.sentences:
            for _, clause in cut(sentence):
                said = absolute_dates(clause, ref)  # the year that puts it nearest
                if not said:
                    continue
                # the clause that gives the date, else its whole sentence ("Noted the flat on
                # Pell Street (£980), second viewing Saturday 9 March")
                best = _restated(user.sentences, clause) or _restated(user.sentences, sentence)
                if best is not None:
                    out.setdefault(best, []).extend(d for _, d in said)
                # another sentence of the message about the same thing, which names the day
                # by its weekday alone ("come to the Boathouse, Friday at eight" beside "the
                # lunch is Friday the 14th at the Boathouse"): that weekday is the one given
                have = {v for v in values(clause) if not v.isdigit()}  # names, not figures
                for raw in user.sentences:
                    if raw == best or len(values(raw) & have) < _RESTATES:
                        continue
                    for _, d in said:
                        if elsewhere is not None and re.search(
                            rf"\b{d.strftime('%A')}\b", raw, re.I
                        ):
                            elsewhere.setdefault(raw, []).append(d)
    return out


#: A pronoun a user's sentence may leave to be read: "she", "he", "her", "his", "him".
_PERSON_PRONOUN = re.compile(r"\b(?:she|he|her|his|him|hers)\b", re.I)


def restated_people(turns: list[Turn]) -> dict[str, list[str]]:
    """The names the assistant's reply gives in a sentence restating a user's sentence of the
    message just before it that says "she" or "he" without a name ("she's allergic to kiwi"
    answered "I'll note that Bea is allergic to kiwi"): user sentence -> those names. The
    reply restates the sentence when it says two of its content words or more, the names
    aside."""
    out: dict[str, list[str]] = {}
    for user, reply in zip(turns, turns[1:], strict=False):
        if user.kind != "user" or user.speaker is not None or reply.kind != "assistant":
            continue
        for said in user.sentences:
            if not _PERSON_PRONOUN.search(said):
                continue  # no pronoun to read (one that names someone is read without it)
            words = {w for w in lang.content_words(said) if not w[:1].isupper()}
            for sentence in reply.sentences:
                if sentence.rstrip().endswith("?"):
                    continue
                names = [n for n in _NAME_WORD.findall(sentence) if n.lower() not in words]
                told = lang.content_words(sentence)
                if names and len(words & told) >= _RESTATES:
                    out.setdefault(said, []).extend(n for n in names if n not in out.get(said, []))
    return out


#: The assistant asking whom a pronoun means: "Is that Amara?", "Do you mean Amara?",
#: "You mean Amara?", "Amara?".
_WHO_ASKED = re.compile(
    r"^\W*(?i:(?:is|was)\s+(?:that|this|she|he)|(?:do|did)\s+you\s+mean|you\s+mean|"
    r"(?:are|were)\s+you\s+talking\s+about|just\s+to\s+check,?\s+(?:that['’]s|is\s+that))?\s*"
    r"(?P<name>[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)?)\s*\?\s*$"
)
#: A reply that says yes: "yes", "yep", "yeah, her", "that's right", "correct".
_YES = re.compile(r"^\W*(?:yes|yep|yeah|yup|correct|that['’]s\s+right|right|exactly)\b", re.I)


def confirmed_people(turns: list[Turn]) -> dict[str, list[str]]:
    """Whom a user's "she" or "he" means when the assistant asked ("Is that Amara?") and the
    user said yes: user sentence -> [the name asked]."""
    out: dict[str, list[str]] = {}
    for user, reply, answer in zip(turns, turns[1:], turns[2:], strict=False):
        if (
            user.kind != "user"
            or user.speaker is not None
            or reply.kind != "assistant"
            or answer.kind != "user"
            or not reply.sentences
            or not answer.sentences
        ):
            continue
        asked = _WHO_ASKED.match(reply.sentences[-1])
        if asked is None or not _YES.match(answer.sentences[0]):
            continue
        for said in user.sentences:
            if _PERSON_PRONOUN.search(said):
                out[said] = [asked["name"]]
    return out


def _restated(said: list[str], text: str) -> str | None:
    """The one sentence of `said` that `text` restates: the one sharing the most of its
    values, two at least; None when none does, or two share as many."""
    have = values(text)
    shared = sorted(((len(values(s) & have), s) for s in said), reverse=True)
    if not shared or shared[0][0] < _RESTATES:
        return None
    if len(shared) > 1 and shared[1][0] == shared[0][0]:
        return None
    return shared[0][1]
