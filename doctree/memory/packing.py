"""Packing: fill a word budget greedily with ranked passages, then render them as one text,
grouped by document in document order, each group headed by the document's path and date.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from doctree.memory.passages import words
from doctree.memory.ranking import Settings
from doctree.store.passages import PassageHit, PassageIndex


@dataclass
class Passage:
    """One passage in a context, traceable to its document and position."""

    document_id: int
    path: str
    seq: int
    text: str
    words: int
    score: float
    speaker: str | None = None
    day: str | None = None
    version: int | None = None

    def to_dict(self) -> dict[str, object]:
        return self.__dict__.copy()


_LINK = re.compile(r"\[\[[^\]\n]*\]\]|\]\([^)\n]*\)|https?://\S+")
_LABEL_WORD = re.compile(r"[^\W\d_]{2,}")


def bare(text: str) -> bool:
    """Whether a passage holds links and, besides them, nothing but dates and a label
    (`- week: [[...]]`, `- 2023-05-20: [[...|s13]]`): found by a query through a link's
    path, it answers nothing, and would spend the budget."""
    rest = _LINK.sub(" ", text)
    return rest != text and len(_LABEL_WORD.findall(rest)) < 2


def _header(h: PassageHit | Passage) -> str:
    return f"## {h.path} ({h.day})" if h.day else f"## {h.path}"


def fill(
    index: PassageIndex, ranked: list[tuple[float, PassageHit]], budget: int, s: Settings
) -> list[Passage]:
    """The best of `ranked` that fit `budget` words (with their documents' headers, and
    `s.neighbours` passages around each), taken greedily best first, in document order."""
    used = 0
    chosen: dict[int, Passage] = {}
    docs: set[int] = set()
    for score, h in ranked:
        if used >= budget:
            break
        if s.skip_bare and bare(h.text):
            continue
        group = [h]
        if s.neighbours:
            group = [
                x for x in index.around(h.document_id, h.seq, s.neighbours, 0) if x.id not in chosen
            ]
        cost = sum(x.words for x in group if x.id not in chosen)
        if s.headers and h.document_id not in docs:
            cost += words(_header(h))
        if cost == 0 or used + cost > budget:
            continue
        used += cost
        docs.add(h.document_id)
        for x in group:
            if x.id not in chosen:
                chosen[x.id] = Passage(
                    x.document_id, x.path, x.seq, x.text, x.words, score, x.speaker, x.day
                )
    return sorted(chosen.values(), key=lambda p: (p.day or "", p.path, p.seq))


def render(passages: list[Passage], *, headers: bool = True) -> str:
    """Passages as one text, each document's group headed by its path and date."""
    lines: list[str] = []
    current: int | None = None
    for p in passages:
        if headers and p.document_id != current:
            if lines:
                lines.append("")
            lines.append(_header(p))
            current = p.document_id
        lines.append(p.text)
    return "\n".join(lines)
