"""The assistant's proposals, and the user's answer to them.

An assistant that plans with the user proposes in questions: "How about a weekend in Rye,
Friday 4 to Sunday 6 July?", "Shall we set a budget of £400?", "Would you like to add a
boat trip?". An offer of what the assistant itself would do ("Shall I write it up?", "Would
you like me to …?") is no plan of the user's, and not one of them. What it proposes is a fact only when the user's next message takes it up: an
acceptance ("yes perfect", "go for it", "👍") keeps it, as the statement the question
proposes ("A weekend in Rye, Friday 4 to Sunday 6 July."), with what the turn says beside
it; a counter-proposal ("make it £500", "let's say 12:30") keeps it with the user's value in
place of the one proposed; anything else (a refusal, another question) keeps nothing.
"""

from __future__ import annotations

import re

from doctree.agent.offline.model import Sentence
from doctree.agent.offline.resolve import values_by_kind

#: A question that proposes: what it proposes is `what`.
_PROPOSAL = re.compile(
    r"^\W*(?:(?:so|ok(?:ay)?|then|right|and)[,\s]+)?"
    r"(?:(?:how|what)\s+about|why\s+not|(?:shall|should)\s+we|"
    r"(?:would|do)\s+you\s+(?:like|want)\s+to)\s+(?P<what>[^?]{3,}?)\s*\?\s*$",
    re.I,
)
#: A counter-proposal: the user's value for the one proposed ("make it £500", "let's say 12:30").
_COUNTER = re.compile(
    r"^\W*(?:(?:hmm|ok(?:ay)?|yes|yeah|close|almost)[,!.\s]+)?"
    r"(?:make\s+(?:that|it)|let'?s\s+(?:say|do|make\s+it)|can\s+we\s+(?:say|do)|"
    r"(?:how|what)\s+about|rather)\s+(?P<new>[^.!?;,]+)",
    re.I,
)


def proposed(sentence: str) -> str | None:
    """The statement a question of the assistant's proposes ("How about the 10:15 ferry?" ->
    "The 10:15 ferry."); None when the sentence proposes nothing."""
    m = _PROPOSAL.match(sentence.strip())
    if m is None:
        return None
    what = m.group("what").strip()
    return what[:1].upper() + what[1:] + "."


def is_proposal(s: Sentence) -> bool:
    return "proposal" in s.kinds


def countered(reply: str, proposals: list[Sentence]) -> tuple[int, str, str] | None:
    """(index, the proposal's text with the user's value, what the reply says besides) for a
    counter-proposal: the one value `reply` gives replaces the value of its kind in the
    latest proposal holding one; None when the reply counters nothing or the value fits
    none, or several values of that proposal."""
    m = _COUNTER.match(reply)
    if m is None:
        return None
    given = values_by_kind(m.group("new"))
    if len(given) != 1:
        return None
    kind, start, end = given[0]
    new = m.group("new")[start:end]
    for i in range(len(proposals) - 1, -1, -1):
        text = proposals[i].text
        spans = [(s, t) for k, s, t in values_by_kind(text) if k == kind]
        if len(spans) == 1:
            s, t = spans[0]
            rest = reply[m.end() :].strip(" ,;—–-")
            return i, text[:s] + new + text[t:], rest
        if spans:
            return None
    return None
