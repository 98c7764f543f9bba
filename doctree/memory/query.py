"""Queries read for more than their words: stopwords and question words drop out, word pairs
count as phrases, names of speakers and other proper names are recognised, dates in the
query become date tokens, and a "when" question is noticed (`parse_query`); whose turns a
question asks about (`addressed`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from doctree import stopwords
from doctree.errors import UserError
from doctree.memory.dates import date_tokens

WORD = re.compile(r"[\w]+(?:'[\w]+)?", re.UNICODE)

STOPWORDS = stopwords.QUERY

_TEMPORAL_QUERY = re.compile(
    r"^\s*when\b|\bhow long\b|\bwhat (?:year|month|day|date|time)\b|\bwhich (?:year|month|day)\b"
    r"|\bhow many (?:years|months|weeks|days)\b|\bsince when\b",
    re.I,
)


@dataclass
class Query:
    """A query read for its parts: content terms, phrases, names, dates, temporal intent."""

    text: str
    terms: list[str]
    phrases: list[str]
    names: list[str]
    entities: list[str]
    dates: list[str]
    temporal: bool

    def fts(self) -> str:
        """The FTS5 expression: any term, phrase or date token may match; BM25 ranks."""
        parts = [f'"{t}"' for t in self.terms]
        parts += [f'"{p}"' for p in self.phrases]
        parts += [f'dates : "{d}"' for d in self.dates]
        return " OR ".join(parts)


def parse_query(text: str, speakers: Sequence[str] = ()) -> Query:
    """Read a natural-language query: drop stopwords, keep word pairs as phrases, recognise
    speaker names and dates, and notice whether it asks when."""
    if not isinstance(text, str):
        raise UserError(f"query {text!r}: must be text")
    known = {s.lower(): s for s in speakers}
    for s in speakers:
        for part in s.split():
            known.setdefault(part.lower(), s)
    raw = WORD.findall(text)
    terms: list[str] = []
    names: list[str] = []
    entities: list[str] = []
    phrases: list[str] = []
    prev: str | None = None
    for i, w in enumerate(raw):
        base = w.lower()
        if base.endswith("'s"):
            base = base[:-2]
        if base in STOPWORDS or len(base) < 2:
            prev = None
            continue
        if base in known:
            names.append(known[base])
        elif w[0].isupper() and i > 0:  # a proper name that is not a speaker: an entity
            entities.append(base)
        terms.append(base)
        if prev is not None:
            phrases.append(f"{prev} {base}")
        prev = base
    return Query(
        text=text,
        terms=list(dict.fromkeys(terms)),
        phrases=list(dict.fromkeys(phrases)),
        names=list(dict.fromkeys(names)),
        entities=list(dict.fromkeys(entities)),
        dates=date_tokens(text, None),
        temporal=bool(_TEMPORAL_QUERY.search(text)),
    )


_FIRST_PERSON = re.compile(r"\b(?:i|me|my|mine|myself|i'm|i've|i'd)\b", re.I)
_SAID = (
    r"(?:said|told|mentioned|recommended|suggested|gave|provided|listed|shared|explained|"
    r"described|wrote|showed|proposed|named|offered|advised|answered|replied)"
)
_SAY = (
    r"(?:say|tell|mention|recommend|suggest|give|provide|list|share|explain|describe|write|"
    r"show|propose|name|offer|advise|answer|reply)"
)
_ASKS_WHAT_WAS_SAID = re.compile(
    rf"\byou\s+(?:\w+\s+){{0,2}}?{_SAID}\b|\bdid\s+you\s+(?:\w+\s+)?{_SAY}\b|\bremind\s+me\b",
    re.I,
)


def addressed(query: str) -> str | None:
    """Whose words a query asks about in a chat with an assistant: the assistant's when it
    asks what was said to the user ("what did you suggest", "you mentioned", "remind me"),
    the user's when it otherwise speaks of "I" or "my" (a request, "can you recommend…
    for my trip", asks about the user), else None. Turns are told apart by their speaker
    (`user`, `assistant`)."""
    if _ASKS_WHAT_WAS_SAID.search(query):
        return "assistant"
    if _FIRST_PERSON.search(query):
        return "user"
    return None
