"""Queries read for more than their words: stopwords and question words drop out, word pairs
count as phrases, names of speakers and other proper names are recognised, dates in the
query become date tokens, a "when" question and one that counts ("how many") are
noticed, and a time the question speaks of ("two weeks ago", "in the last two months")
becomes the period it asks about, read against the day it is asked (`parse_query`); whose
turns a question asks about (`addressed`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from doctree import stopwords
from doctree.errors import UserError
from doctree.memory.dates import date_tokens, time_windows

WORD = re.compile(r"[\w]+(?:'[\w]+)?", re.UNICODE)

STOPWORDS = stopwords.QUERY

_TEMPORAL_QUERY = re.compile(
    r"^\s*when\b|\bhow long\b|\bwhat (?:year|month|day|date|time)\b|\bwhich (?:year|month|day)\b"
    r"|\bhow many (?:years|months|weeks|days)\b|\bsince when\b",
    re.I,
)
# A question that counts or totals gathers its answer from several places (sessions, pages),
# each near the question in meaning more than in words ("how many siblings": "my two
# sisters", "my brother"); one that asks for a length of time is a "when" question instead.
_GATHER_QUERY = re.compile(
    r"\bhow many\b(?!\s+(?:years|months|weeks|days|hours|minutes)\b)|\bhow much\b"
    r"|\btotal\b|\bin all\b|\baltogether\b|\bcombined\b",
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
    window: tuple[date, date] | None = None
    """The days a time in the question points at ("two weeks ago"), first and last."""
    gathers: bool = False
    """The question counts or totals ("how many", "how much", "in total"): its evidence
    is spread over several places, found by meaning as much as by words."""

    def in_window(self, day: str | None) -> bool:
        """Whether a passage of this day (ISO) falls in the question's period."""
        return (
            self.window is not None
            and day is not None
            and self.window[0].isoformat() <= day[:10] <= self.window[1].isoformat()
        )

    def fts(self) -> str:
        """The FTS5 expression: any term, phrase or date token may match; BM25 ranks."""
        parts = [f'"{t}"' for t in self.terms]
        parts += [f'"{p}"' for p in self.phrases]
        parts += [f'dates : "{d}"' for d in self.dates]
        return " OR ".join(parts)


def parse_query(text: str, speakers: Sequence[str] = (), now: date | None = None) -> Query:
    """Read a natural-language query: drop stopwords, keep word pairs as phrases, recognise
    speaker names and dates, and notice whether it asks when. With `now` (the day it is
    asked), a time it speaks of ("a week ago", "over the past month") becomes its
    `window`: the days it points at, which ranking favours."""
    if not isinstance(text, str):
        raise UserError(f"query {text!r}: must be text")
    windows = time_windows(text, now) if now is not None else []
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
    gathers = bool(_GATHER_QUERY.search(text))
    if gathers and any(t not in stopwords.COUNTING for t in terms):
        # "the total number of siblings" is about siblings: the counting words match
        # every passage with a number or a total in it, and pull the query's vector too
        terms = [t for t in terms if t not in stopwords.COUNTING]
        phrases = [p for p in phrases if not set(p.split()) & stopwords.COUNTING]
    return Query(
        text=text,
        terms=list(dict.fromkeys(terms)),
        phrases=list(dict.fromkeys(phrases)),
        names=list(dict.fromkeys(names)),
        entities=list(dict.fromkeys(entities)),
        dates=date_tokens(text, None),
        temporal=bool(_TEMPORAL_QUERY.search(text)),
        window=(min(w[1] for w in windows), max(w[2] for w in windows)) if windows else None,
        gathers=gathers,
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
