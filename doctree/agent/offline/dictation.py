"""Dictation: punctuation said as words ("comma", "full stop", "new line") read as the marks
it names, before anything else reads the text.

Speech-to-text with its punctuation mode off writes "the meeting is on Tuesday full stop new
line subs are £28 comma due by Sunday". Read as it stands, that is one sentence with no name
or date boundary in it. `punctuate` puts the marks back, but only in a message that is plainly
dictation: three spoken marks or more, of two kinds or more, each standing as a word of its
own where a mark would go. A mark spoken of as a thing is none: after an article or a word
that counts it ("a comma-separated list", "the full stop at the end", "no comma"), before a
hyphen or a noun it qualifies ("comma-separated", "colon cancer"), or in a message with too
few of them to be dictation.
"""

from __future__ import annotations

import re

from doctree.agent.offline.prefilter import gate_patterns

#: Each spoken mark and what it is written as.
_MARKS = {
    "full stop": ".",
    "period": ".",
    "comma": ",",
    "colon": ":",
    "semicolon": ";",
    "semi colon": ";",
    "question mark": "?",
    "exclamation mark": "!",
    "exclamation point": "!",
    "new line": "\n",
    "newline": "\n",
    "new paragraph": "\n\n",
    "open bracket": "(",
    "close bracket": ")",
    "open brackets": "(",
    "close brackets": ")",
    "open paren": "(",
    "close paren": ")",
    "open parenthesis": "(",
    "close parenthesis": ")",
    "open quote": "“",
    "close quote": "”",
    "end quote": "”",
    "unquote": "”",
    "dash": " —",
}
#: The marks that are read only beside others ("period" and "dash" are words too: "a trial
#: period", "a dash of milk"): they never make a message dictation on their own.
_WEAK = frozenset({"period", "dash", "colon", "open quote", "close quote", "end quote", "unquote"})
_SPOKEN = re.compile(
    r"(?<![\w-])(?P<mark>"
    + "|".join(re.escape(m).replace(r"\ ", r"\s+") for m in sorted(_MARKS, key=len, reverse=True))
    + r")(?![\w-])",
    re.I,
)
#: A word before a mark that speaks of it as a thing: "a comma", "the full stop", "no colon".
_THING_BEFORE = re.compile(
    r"(?:\b(?:a|an|the|this|that|these|those|each|every|no|one|any|another|extra|missing|"
    r"stray|single|double|of|his|her|my|your|their|our))\s*$",
    re.I,
)
#: The same, once a message is known to be dictation: a demonstrative or a possessive then
#: ends what was said before the mark ("don't keep that full stop", "Des's open bracket").
_THING_BEFORE_IN_DICTATION = re.compile(
    r"\b(?:a|an|the|each|every|no|one|any|another|extra|missing|stray|single|double)\s*$", re.I
)
#: A word after a mark that it qualifies or that speaks of it: "comma-separated", "colon
#: cancer", "full stops are", "comma after", "period of".
_THING_AFTER = re.compile(
    r"^\s*(?:-|(?:separated|delimited|splice|cancer|surgery|of|is|was|are|were|goes|went|"
    r"key|button|sign|symbol|character|after|before|between|instead|rule|rules)\b)",
    re.I,
)
#: How many spoken marks, of how many kinds, make a message dictation.
MIN_MARKS, MIN_KINDS = 3, 2


def _marks(text: str, *, dictation: bool = False) -> list[re.Match[str]]:
    """The spoken marks of `text` that stand where a mark would go (`dictation`: in a
    message known to be dictation, where fewer words before a mark speak of it)."""
    before = _THING_BEFORE_IN_DICTATION if dictation else _THING_BEFORE
    out = []
    for m in _SPOKEN.finditer(text):
        if before.search(text[max(0, m.start() - 20) : m.start()]):
            continue
        if _THING_AFTER.match(text[m.end() : m.end() + 20]):
            continue
        out.append(m)
    return out


def _kind(m: re.Match[str]) -> str:
    return " ".join(m.group("mark").lower().split())


def is_dictation(text: str) -> bool:
    """Whether `text` is dictation with its punctuation said as words: `MIN_MARKS` spoken
    marks or more standing where marks go, of `MIN_KINDS` kinds or more, and at least one of
    them a mark no other word is ("comma", "full stop", "new line")."""
    found = _marks(text)
    kinds = {_kind(m) for m in found}
    return len(found) >= MIN_MARKS and len(kinds) >= MIN_KINDS and bool(kinds - _WEAK)


#: A telegram's "STOP", in capitals where a full stop would go ("ALL WELL STOP ETA 4 DAYS
#: STOP"), and how many make a message a telegram: one alone may be a shout ("STOP doing it").
_TELEGRAM_STOP = re.compile(r"[ \t]*(?<![\w-])STOP(?![\w'’-])[ \t]*")
TELEGRAM_STOPS = 2


def _between_capitals(text: str, m: re.Match[str]) -> bool:
    """Whether the words either side of a "STOP" are written in capitals, as a telegram's
    are ("ALL WELL STOP ETA"), not a shout in a sentence ("STOP it", "I said STOP")."""
    before = text[max(0, m.start() - 30) : m.start()].split()
    after = text[m.end() : m.end() + 30].split()
    return not any(re.search(r"[a-z]", w[0]) for w in (before[-1:], after[:1]) if w)


def telegram(text: str) -> str:
    """`text` with a telegram's "STOP"s written as the full stops they are, when it has
    `TELEGRAM_STOPS` of them or more; any other text as it is."""
    if text.count("STOP") < TELEGRAM_STOPS:
        return text  # the cheap test
    stops = [m for m in _TELEGRAM_STOP.finditer(text) if _between_capitals(text, m)]
    if len(stops) < TELEGRAM_STOPS:
        return text
    starts = [0, *(m.end() for m in stops)]
    said = "".join(f"{text[a : m.start()]}. " for a, m in zip(starts, stops, strict=False))
    said += text[stops[-1].end() :]
    said = re.sub(r"(?:^|(?<=[\n.!?]))[ \t]*\.[ \t]*", "", said)  # no stop opening a line
    said = re.sub(r"([.!?:;,])\. ", r"\1 ", said)  # "ALL WELL. STOP" once
    return said.strip()


def punctuate(text: str) -> str:
    """`text` with its spoken punctuation written as the marks it names, when it is plainly
    dictation (`is_dictation`), and a telegram's "STOP"s as full stops (`telegram`); any
    other text as it is. A sentence's first word, after a full stop, a question or
    exclamation mark or a new line, gets its capital."""
    text = telegram(text)
    if not is_dictation(text):
        return text
    out: list[str] = []
    at = 0
    for m in _marks(text, dictation=True):
        mark, before = _MARKS[_kind(m)], text[at : m.start()]
        if mark in ("(", "“"):  # an opening mark keeps the space before it, none after
            out.append(before + mark)
            at = len(text) - len(text[m.end() :].lstrip(" \t"))
        else:
            out.append(before.rstrip(" \t") + mark)
            at = m.end()
    out.append(text[at:])
    said = "".join(out)
    said = re.sub(r"[ \t]*\n[ \t]*", "\n", said)  # no space around a new line
    said = re.sub(r"([.,;:!?])(?=[^\s\d.,;:!?)”\"'])", r"\1 ", said)  # "mine, so", not "mine,so"
    said = re.sub(r"(^|[.!?]\s+|\n)([a-z])", lambda c: c.group(1) + c.group(2).upper(), said)
    return said.strip()


gate_patterns(globals())  # the cheap test in front of every pattern above (prefilter.py)
