"""What a user tells as a dream or a made-up story: not facts about anyone.

"Had the weirdest dream. My manager fired me on a boat …" and "I've been making up a
bedtime story for my son: there's a dragon called Ferris who …" go on with sentences that,
read one by one, state things of real people (a manager who fired the user) or make people
of characters (a page for the dragon). `outside_fiction` leaves out the sentences a dream or a
made-up story is told in: those after the one that opens it, in the same message, until one
that closes it ("I woke up", "anyway", "in real life", "for the record", or a request
about memory, "forget …", which is always read) or after four. The
sentence that opens it stays: it says what it is ("had a dream", "a bedtime story for my son
Oscar, he's 5"), and so does the one that closes it, which is real again. A wish ("I dream
of a house by the sea") opens nothing.
"""

from __future__ import annotations

import re

from doctree.agent.offline.prefilter import gate_patterns

#: A dream told: "had the weirdest dream", "I dreamt that", "in my dream", "a nightmare where".
_DREAM = re.compile(
    r"\b(?:(?:had|have|having|was)\s+(?:a|an|the|this|that|such\s+a)\s+(?:[\w-]+\s+){0,2}"
    r"(?:dream|nightmare)s?\b(?!\s+(?:of|to)\b)|dream(?:t|ed)\s+(?:that|about|last\s+night)\b"
    r"|\bin\s+(?:my|the|last\s+night's|this|that)\s+(?:[\w-]+\s+)?(?:dream|nightmare)\b"
    r"|\b(?:dream|nightmare)\s+(?:where|in\s+which|that\s+i)\b)",
    re.I,
)
#: A story made up: "making up a bedtime story", "a story I'm writing for my niece".
_STORY = re.compile(
    r"\b(?:(?:making|made|make|makes|writing|wrote|write|telling|told|tell)\s+(?:up\s+)?"
    r"(?:a|an|the|this|my|our|her|his)\s+(?:[\w-]+\s+){0,2}(?:story|stories|tale|fairy\s+tale)"
    r"|(?:bedtime|made-up|made\s+up)\s+(?:story|stories|tale)"
    r"|(?:story|tale)\s+(?:i'm|i\s+am|i've\s+been|we're)\s+(?:making\s+up|writing|telling))\b",
    re.I,
)
#: What closes it: back to what is so.
_CLOSE = re.compile(
    r"\b(?:woke\s+up|wake\s+up|real\s+life|in\s+reality|for\s+real|for\s+the\s+record|anyway"
    r"|back\s+to\s+(?:reality|real|the\s+real)|seriously\s+though|on\s+a\s+serious\s+note"
    r"|(?:the\s+)?real\s+(?:one|him|her|thing)|actually\s+happened)\b",
    re.I,
)
#: A request about memory, which is never part of a story: it closes one and is read.
_REQUEST = re.compile(
    r"\b(?:forget|remember|don'?t\s+(?:save|keep|write|store|note)|do\s+not\s+(?:save|keep)"
    r"|note\s+(?:that|down)|(?:save|keep)\s+(?:that|this)|off\s+the\s+record)\b",
    re.I,
)
#: How many sentences a dream or a story runs to at most, when nothing closes it.
_LONGEST = 4


def outside_fiction(sentences: list[str]) -> list[str]:
    """The sentences of one message, in order, without those a dream or a made-up story is
    told in (the module docstring)."""
    if not any(_DREAM.search(s) or _STORY.search(s) for s in sentences):
        return sentences
    out: list[str] = []
    told = -1  # sentences told in the dream or story so far; -1: none open
    for s in sentences:
        if told >= 0:
            if _CLOSE.search(s) or _REQUEST.search(s) or told >= _LONGEST:
                told = -1
            else:
                told += 1
                continue
        out.append(s)
        if _DREAM.search(s) or _STORY.search(s):
            told = 0
    return out


gate_patterns(globals())  # the cheap test in front of every pattern above (prefilter.py)
