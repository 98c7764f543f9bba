"""A request that names what it takes back by where it was said, not by what it says.

- **By position**: "forget the last two things I said", "scrap that last one", "delete the
  previous point", "ignore my last two messages", "scrap what I just told you". `position`
  reads how many of the user's statements (or messages) before the request it names; the
  statements are counted as said, a sentence that states something (not a question, not a
  line that only introduces what follows, not a word or two of filler) being one.
- **A withdrawal**: "ignore that, it was the wrong file", "scratch that, that's last year's
  sheet", "disregard the above", "not that one": what the user sent before is taken back as
  not meant (the pasted block and the line that introduced it, else the whole message), and
  what the user gives after it stands.

`named` picks the statements either names out of what the user said so far; it names none
when the request counts more statements than were said: a wrong line removed is worse than
none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from doctree.agent.offline.language import accepts, content_words
from doctree.agent.offline.model import Sentence

#: The verbs of letting go a request by position opens on.
_VERB = (
    r"(?:forget|scrap|scratch|delete|remove|erase|drop|strike|ignore|disregard|bin|ditch|"
    r"wipe|take\s+back|unsay|"
    r"don['’]?t\s+(?:keep|save|store|record|remember|note|write\s+down|hang\s+on\s*to)|"
    r"do\s+not\s+(?:keep|save|store|record|remember|note|write\s+down))"
)
#: Where a verb of letting go is a request, not a statement ("I'll drop the last one off"):
#: the sentence's or a clause's first word, or after a filler or a "can you".
_ASKS = (
    r"(?:^\W*|(?<=[,;:.!?—–-])\s*|\b(?:pls|please|just|and|so|ok|okay|now|yeah|actually|oh|"
    r"also|then|wait|sorry|oops|no|ah|hmm|can\s+you|could\s+you|would\s+you|you\s+can)\s+)"
)
_COUNTS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "a couple of": 2, "couple of": 2,
    "both": 2,
}  # fmt: skip
_COUNT = r"(?P<n>\d|one|two|three|four|five|(?:a\s+)?couple\s+of|few|several)"
#: What a statement is called: "things", "points", "bits", "ones".
_UNIT = r"(?P<unit>things?|points?|items?|bits?|lines?|statements?|sentences?|ones?|facts?|notes?)"
_MESSAGES = r"(?P<msg>messages?|texts?|posts?|msgs?)"
#: "the last two things I said", "that last one", "my previous message", "the last two".
_POSITION = re.compile(
    rf"{_ASKS}{_VERB}\s+(?:all\s+(?:of\s+)?)?(?:about\s+)?"
    r"(?:(?:the|that|those|these|my)\s+(?:very\s+)?(?P<where>last|previous|past|latest)"
    rf"(?:\s+{_COUNT})?(?:\s+(?:{_MESSAGES}|{_UNIT}))?"
    # "what I just said", "everything I just told you", "all (that) I just wrote"
    r"|(?P<just>(?:what|everything|all(?:\s+that)?)\s+i\s+(?:literally\s+)?just\s+"
    r"(?:said|told\s+you|wrote|sent|typed|"
    r"mentioned|shared)))"
    # "the last two weeks", "the last time we spoke": a stretch of time, not statements
    r"(?![\w'’-])(?!\s+(?:weeks?|days?|months?|years?|times?|night|session|chat|"
    r"conversation|call|meeting|visit|trip)\b)",
    re.I,
)
#: What may follow the statements a request counts: the end of its clause, who said them ("I
#: said", "I told you"), or a word of asking ("please", "too").
_ENDS = re.compile(
    r"\s*(?:$|[.,;:!?…)—–-]|(?:that\s+|which\s+)?(?:i|you|we)\b|i['’]\w+\b|please\b|pls\b|"
    r"too\b|as\s+well\b|then\b|for\s+me\b|again\b|thanks?\b|lol\b|x+\b|"
    r"(?:from|in|of)\s+(?:my|this|the|your)\s+(?:list|messages?|notes?|chat|memory)\b)",
    re.I,
)
#: A request that takes back what was sent before it as not meant: "ignore that", "disregard
#: the above", "scratch that" …
_LET_GO = re.compile(
    rf"{_ASKS}(?:ignore|disregard|scratch|scrap|forget|bin|ditch|skip)\s+(?:all\s+(?:of\s+)?)?"
    r"(?:that|this|it|the\s+above|what\s+i\s+(?:just\s+)?(?:sent|pasted|posted|attached))\b",
    re.I,
)
#: … because it was the wrong thing: "it was the wrong file", "that's last year's sheet",
#: "not mine", "an old copy", "wrong one".
_WRONG = re.compile(
    r"\b(?:the\s+)?wrong\s+(?!about\b|with\b)\w+|\bnot\s+(?:mine|ours|the\s+right\s+one|that\s+one)\b"
    r"|\b(?:an?\s+|the\s+)?(?:old|older|outdated|previous)\s+(?:one|version|copy|list|sheet|file|"
    r"draft|letter)\b|\blast\s+year['’]s\b|\bout\s+of\s+date\b|\bpasted\s+the\s+wrong\b",
    re.I,
)
#: A withdrawal said whole: "Disregard the above.", "Not that one.", "Wrong one, sorry."
_WITHDRAWS_ALONE = re.compile(
    r"^\W*(?:(?:oh|oops|sorry|no|wait|nope|ah)[,\s!]+)*(?:(?:ignore|disregard|scratch|scrap)\s+"
    r"(?:all\s+(?:of\s+)?)?the\s+above|not\s+that\s+one|wrong\s+(?:one|file|list|photo|link|"
    r"attachment|paste|doc|document))\b",
    re.I,
)


#: "nvm, …", "never mind, …" opening a sentence: what was sent before is not meant, unless
#: it asked something (then it is the question that is let go).
_NEVER_MIND = re.compile(
    r"^\W*(?:nvm|never\s?mind)(?:\s+(?:that|this|it|the\s+above))?(?=\s*(?:[,.;:!—–-]|$))", re.I
)


@dataclass(frozen=True)
class Position:
    """What a request by position names: the last `count` statements, or the last `count`
    messages (`messages`), said before it."""

    count: int
    messages: bool = False


@dataclass
class Said:
    """A sentence the user said in their own words, in order: the time of its message, the
    sentence as said, whether it states something, and what was read of it."""

    time: str
    raw: str
    states: bool
    read: list[Sentence] = field(default_factory=list)


def position(sentence: str) -> Position | None:
    """How many statements or messages a request by position names ("forget the last two
    things I said" -> 2 statements; "scrap what I just told you" -> 1 message; "ignore my
    last two messages" -> 2 messages); None when the sentence names none by position, and a
    count of 0 when it names some but not how many ("forget the last few")."""
    m = _POSITION.search(sentence)
    if m is None:
        return None
    if m["just"]:
        return Position(1, messages=True)
    if not _ENDS.match(sentence[m.end() :]):
        return None  # "delete the last two emails", "forget the last few things": not counted
    n = (m["n"] or "").lower()
    count = int(n) if n.isdigit() else _COUNTS.get(re.sub(r"\s+", " ", n), 0) if n else 1
    if not n and m["unit"] and m["unit"].lower().endswith("s") and m["unit"].lower() != "bits":
        count = 0  # "the last things I said": how many is not said
    return Position(count, messages=bool(m["msg"]))


def withdraws(sentence: str) -> bool:
    """Whether a sentence takes back what the user sent before it as not meant: "ignore
    that, it was the wrong file", "scratch that, that's last year's sheet", "disregard the
    above", "not that one"."""
    if _WITHDRAWS_ALONE.search(sentence) or _NEVER_MIND.search(sentence):
        return True
    m = _LET_GO.search(sentence)
    return m is not None and (
        "above" in m.group(0).lower() or _WRONG.search(sentence[m.end() :]) is not None
    )


def states(raw: str) -> bool:
    """Whether a user's sentence states something, and so counts as one of "the last two
    things I said": not a question, not a line that only introduces what follows ("Here's
    the list:"), not filler or thanks ("A few more.", "Ok so.", "Sounds good.")."""
    text = raw.strip()
    if not text or text.endswith(("?", ":")):
        return False  # a question, or a line introducing what follows
    words = content_words(text)
    # a figure, or a name past the first word ("Vets at 9.", "Dr Farrow."): a value said
    named = re.search(r"\d|(?<=\s)[A-Z][a-z]", text) is not None
    if accepts(text) and not named:
        return False  # "thanks", "yes, that's it": no statement
    return len(words) >= 2 or (bool(words) and named)


def named(said: list[Said], pos: Position, now: str) -> list[Said]:
    """The statements of `said` (the user's sentences so far, in order) a request by position
    made in the message of time `now` names: the last `pos.count` statements, or those of
    the last `pos.count` messages; "what I just said" is the statements of the request's own
    message before it, else of the message before. Empty when fewer were said than it
    counts, or it counts none."""
    stated = [s for s in said if s.states]
    if pos.count <= 0:
        return []
    if not pos.messages:
        return stated[-pos.count :] if len(stated) >= pos.count else []
    own = [s for s in stated if s.time == now]
    if own and pos.count == 1:
        return own
    times = list(dict.fromkeys(s.time for s in stated if s.time != now))
    if len(times) < pos.count:
        return []
    chosen = set(times[-pos.count :])
    return [s for s in stated if s.time in chosen]


def withdrawn(said: list[Said], now: str, sentence: str = "") -> list[Said]:
    """What a withdrawal made in the message of time `now` takes back: what the user sent
    before it in its own message, else the message before; of that, the pasted part when a
    line introduces it ("Here are the exercises:" and the lines after it), else all of it.
    Questions are never taken: they stated nothing. A "never mind" (`sentence`) after a
    message that asked something lets go of the question, and takes nothing back."""
    own = [s for s in said if s.time == now]
    if not own:
        before = [s for s in said if s.time != now]
        own = [s for s in before if before and s.time == before[-1].time]
    if _NEVER_MIND.search(sentence) and any("?" in s.raw for s in own):
        return []
    intro = next((i for i, s in enumerate(own) if s.raw.rstrip().endswith(":")), None)
    if intro is not None and intro + 1 < len(own):
        own = own[intro:]
    return [s for s in own if not s.raw.rstrip().endswith("?")]


#: A sentence after a request by position that says why, and nothing new: "Neither is mine
#: to share.", "Both were told to me in confidence.", "It's too early to say."
EXPLAINS = re.compile(
    r"^\W*(?:(?:and|but|so|because|as|since)[,\s]+)?(?:neither|both|none|either|they|those|"
    r"these|them|it|it['’]s|that|that['’]s|this|which)\b(?![^.!?]*\d)",
    re.I,
)


def besides(sentence: str) -> str | None:
    """What a withdrawal's sentence says besides taking back ("Ignore that, it was the wrong
    file, that's my brother's letter" -> "that's my brother's letter"): its clauses after
    the request that neither say what was wrong nor take back; None when none is left."""
    m = (
        _LET_GO.search(sentence)
        or _WITHDRAWS_ALONE.search(sentence)
        or _NEVER_MIND.search(sentence)
    )
    if m is None:
        return None
    return _after(sentence[m.end() :])


def said_instead(sentence: str) -> str | None:
    """What a request by position says holds instead ("scrap that last bit, we're the
    Owls now" -> "We're the Owls now."): its clauses after the request and its "I said",
    none of them saying why it was taken back ("they were private"); None when none is
    left."""
    m = _POSITION.search(sentence)
    if m is None:
        return None
    rest = re.sub(
        r"^\s*(?:(?:that|which)\s+)?(?:i|we)\s+(?:just\s+)?(?:said|told\s+you|wrote|sent|"
        r"typed|mentioned)\b",
        "",
        sentence[m.end() :],
        flags=re.I,
    )
    text = _after(rest)
    return None if text is None or EXPLAINS.match(text) else text


def _after(rest: str) -> str | None:
    """The clauses of `rest` that neither say what was wrong nor take back, as a sentence."""
    clauses = [c.strip() for c in re.split(r"\s*[,;—–]\s*|\s+-\s+", rest)]
    kept = [c for c in clauses if c and not _WRONG.search(c) and not _LET_GO.search(c)]
    text = ", ".join(kept).strip(" .")
    return text[:1].upper() + text[1:] + "." if len(text.split()) >= 3 else None
