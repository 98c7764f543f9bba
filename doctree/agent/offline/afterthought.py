"""An afterthought: a line added after a message's body that corrects it.

"P.S. it's five this year, not eight", "EDIT: he lands on the 19th, his flight moved",
"Edit: £358, I misread it": a mark ("P.S.", "PS", "P.P.S.", "EDIT:", "ETA:") then a value. The
mark says the line comes after what it corrects, so the value replaces one said before it
in the same message or the user's message before, by the same speaker:

- the old value named ("…, not eight"): the one sentence that holds it, the one place in it;
- else the one value the line gives, of a kind (an amount, a time, a day, a count, a
  percentage): the one sentence holding a value of that kind; when that sentence holds
  several, the one whose words around it share a word with the line ("lands" and "landing").

When no single sentence and value fit, nothing is replaced: the line is read as said, without
its mark, and both stay. What the line says after the value ("his flight moved") only tells
why, and is not kept.
"""

from __future__ import annotations

import re

from doctree.agent.offline.language import content_words
from doctree.agent.offline.model import Sentence
from doctree.agent.offline.resolve import values_by_kind

#: The mark of an afterthought: "P.S.", "PS:", "P.P.S.", "EDIT:", "Edit -", "ETA:" (a bare
#: "edit" or "eta" needs its colon or dash: "edit the file" is a request).
MARK = re.compile(
    r"^\W*(?:P\.\s?P\.\s?S\b\.?|P\.\s?S\b\.?|PP?S\b\.?|(?i:p\.?\s?p\.?\s?s|p\.?\s?s)\s*:"
    r"|(?i:edit(?:ed)?|eta)\s*(?::|\s[—–-]))\s*[:,—–-]?\s*"
)
#: "…, not eight", "not the 23rd": the old value a line names.
_NOT = re.compile(r"(?:^|[\s,])not\s+(?P<old>[^,;.!?]+)", re.I)
#: Where a clause of the line ends.
_CLAUSE = re.compile(r",\s|;|\s[—–-]\s|\.\s|\.$")
#: Words of a line that say nothing of what the value belongs to.
_EMPTY = {"this", "that", "time", "year", "week", "sorry", "actually", "instead", "just"}


def without_mark(text: str) -> str | None:
    """What an afterthought says after its mark ("P.S. it's four" -> "it's four"); None when
    `text` is no afterthought."""
    m = MARK.match(text)
    if m is None or not text[m.end() :].strip():
        return None
    rest = text[m.end() :].strip()
    return rest[:1].upper() + rest[1:]


def is_mark(text: str) -> bool:
    """Whether `text` is an afterthought's mark and nothing else ("P.S.")."""
    m = MARK.match(text)
    return m is not None and not text[m.end() :].strip()


def _stems(text: str) -> set[str]:
    return {w[:4] for w in content_words(text) if not w[0].isdigit() and w not in _EMPTY}


def _same(a: str, b: str) -> bool:
    return re.sub(r"[\s,]|\bthe\b", "", a.lower()) == re.sub(r"[\s,]|\bthe\b", "", b.lower())


def corrected(rest: str, window: list[Sentence], speaker: str) -> tuple[Sentence, str] | None:
    """(sentence, its text with the value replaced) for an afterthought's words after the
    mark (`rest`) that correct one value of a sentence of `window` said by `speaker`; None
    when the line gives no value, or no single sentence and value fit."""
    said = [e for e in window if e.speaker == speaker and e.raw]
    if (m := _NOT.search(rest)) is not None:
        olds = values_by_kind(m.group("old"))
        if not olds or olds[0][1] > 0:
            return None  # "not" before anything but a value: "not sure it's the 4th"
        kind, start, end = olds[0]
        old = m.group("old")[start:end]
        before = [v for v in values_by_kind(rest[: m.start()]) if v[0] == kind]
        if not before:
            return None
        new = rest[before[-1][1] : before[-1][2]]
        hits = [
            (e, s, t)
            for e in said
            for k, s, t in values_by_kind(e.raw)
            if k == kind and _same(e.raw[s:t], old)
        ]
        if len(hits) != 1 or _same(new, old):
            return None
        e, s, t = hits[0]
        return e, e.raw[:s] + new + e.raw[t:]
    head = _CLAUSE.split(rest, maxsplit=1)[0]
    given = values_by_kind(head)
    if len(given) != 1:
        return None
    kind, start, end = given[0]
    new = head[start:end]
    words = _stems(head[:start] + " " + head[end:])
    fits = [(e, [v for v in values_by_kind(e.raw) if v[0] == kind]) for e in said]
    fits = [(e, vs) for e, vs in fits if vs]
    if len(fits) != 1:
        return None
    e, spans = fits[0]
    if len(spans) > 1 or words:
        # the value whose clause shares a word with the line: "lands" for "landing on"
        spans = [(k, s, t) for k, s, t in spans if words & _stems(_around(e.raw, s, t))]
        if len(spans) != 1:
            return None
    _, s, t = spans[0]
    if _same(e.raw[s:t], new):
        return None
    return e, e.raw[:s] + new + e.raw[t:]


def _around(text: str, start: int, end: int) -> str:
    """The words of `text` that say what the value at start:end is: its clause, up to the
    value before it, and the words of its clause after it."""
    left = max(
        [0]
        + [m.end() for m in _CLAUSE.finditer(text[:start])]
        + [m.end() for m in re.finditer(r"\s(?:and|but|or)\s", text[:start])]
        + [t for _, _, t in values_by_kind(text[:start])]
    )
    right = _CLAUSE.search(text, end)
    return text[left:start] + " " + text[end : right.start() if right else len(text)]
