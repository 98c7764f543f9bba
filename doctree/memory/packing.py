"""Packing: fill a word budget greedily with ranked passages, then render them as one text,
grouped by document in document order, each group headed by the document's path and date.
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from doctree.errors import UserError
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


T = TypeVar("T")


class Spread(Generic[T]):
    """Ranked items in the order a budget should take them when each source (a document,
    a session) gives diminishing returns: after a source gave `after` items, the score of
    its next is multiplied by `discount` once for each item it gave beyond `after - 1`
    (0 puts them after every other source's; 1, or `after` 0, keeps the ranking as it is).
    The budget's filler says which items it took (`took`): one it skipped (too long, or
    left out) does not count against its source. Scores must be positive (higher better).

    Lazy: a discount only lowers a score, so an item is scored again only when it comes
    to the top with its source's count changed since it was last scored."""

    def __init__(
        self,
        ranked: Sequence[tuple[float, T]],
        source: Callable[[T], Hashable],
        after: int,
        discount: float,
    ) -> None:
        if isinstance(after, bool) or not isinstance(after, int) or after < 0:
            raise UserError(f"spread_after {after!r}: must be a whole number >= 0 (0: off)")
        if not isinstance(discount, int | float) or not 0 <= discount <= 1:
            raise UserError(f"spread_discount {discount!r}: must be a number from 0 to 1")
        self.ranked = ranked
        self.source = source
        self.after = after
        self.discount = discount
        self.given: dict[Hashable, int] = {}

    def took(self, item: T) -> None:
        key = self.source(item)
        self.given[key] = self.given.get(key, 0) + 1

    def _score(self, score: float, given: int) -> float:
        beyond = given - self.after + 1
        return score if beyond <= 0 else score * self.discount**beyond

    def __iter__(self) -> Iterator[tuple[float, T]]:
        if self.after <= 0 or self.discount >= 1:
            yield from self.ranked
            return
        heap = [(-score, i, 0) for i, (score, _) in enumerate(self.ranked)]
        heapq.heapify(heap)
        while heap:
            _, i, seen = heapq.heappop(heap)
            score, item = self.ranked[i]
            given = self.given.get(self.source(item), 0)
            if given != seen:
                heapq.heappush(heap, (-self._score(score, given), i, given))
                continue
            yield score, item


REPEAT_RUN = 5
#: The fewest words a passage has to be left out as a repeat: a short one that differs by
#: one word says something else ("Record 1: the word is porcupine" after "… marmalade").
REPEAT_MIN_WORDS = 8
_TOKEN = re.compile(r"[^\W_]+")
#: What a page line carries beside what it says, the same on every line of a session: its
#: citation (`([[~/memory/archive/…|s-…]])`), any link, and ISO dates. Left out of runs,
#: or two lines of one session would repeat each other through their citations alone.
_NOT_SAID = re.compile(r"\[\[[^\]]*\]\]|\b\d{4}-\d{2}-\d{2}\b")


class Repeats:
    """What a context already says, as runs of `REPEAT_RUN` words: a passage at least
    `share` of whose words lie in such runs repeats it, and need not spend the budget again
    (a turn said twice, a text quoted in a later message, a page written from a turn).
    `share` 0: nothing repeats."""

    def __init__(self, share: float, text: str = "") -> None:
        if not isinstance(share, int | float) or not 0 <= share <= 1:
            raise UserError(f"repeated {share!r}: must be a number from 0 to 1 (0: off)")
        self.share = share
        self.runs: set[tuple[str, ...]] = set()
        self._last_text: str | None = None
        self._last_runs: list[tuple[str, ...]] = []
        if share and text:
            self.add(text)

    def _runs(self, text: str) -> list[tuple[str, ...]]:
        if text is self._last_text:  # `repeats`, then `add`, of the same passage
            return self._last_runs
        t = _TOKEN.findall(_NOT_SAID.sub(" ", text).lower())
        self._last_text = text
        self._last_runs = list(zip(*(t[k:] for k in range(REPEAT_RUN)), strict=False))
        return self._last_runs

    def add(self, text: str) -> None:
        """`text` is in the context now."""
        if self.share:
            self.runs.update(self._runs(text))

    def repeats(self, text: str) -> bool:
        """Whether at least `share` of the words of `text` lie in runs of `REPEAT_RUN` words
        the context holds: the context says it already."""
        if not self.share or not self.runs:
            return False
        runs = self._runs(text)
        if len(runs) + REPEAT_RUN - 1 < REPEAT_MIN_WORDS:
            return False  # too short for a word or two to be all that differs
        held = [r in self.runs for r in runs]
        if not any(held):
            return False
        covered = end = 0  # words inside a held run, each counted once
        for i, h in enumerate(held):
            if h:
                covered += i + REPEAT_RUN - max(i, end)
                end = i + REPEAT_RUN
        return covered >= self.share * (len(held) + REPEAT_RUN - 1)


def _header(h: PassageHit | Passage) -> str:
    return f"## {h.path} ({h.day})" if h.day else f"## {h.path}"


def fill(
    index: PassageIndex, ranked: list[tuple[float, PassageHit]], budget: int, s: Settings
) -> list[Passage]:
    """The best of `ranked` that fit `budget` words (with their documents' headers, and
    `s.neighbours` passages around each), taken greedily best first, in document order.
    A document that gave `s.spread_after` passages gives the next ones at a discount
    (`s.spread_discount`, see `Spread`), so that one document does not spend the budget
    that other documents' evidence needs. A turn of a conversation (a passage with a
    speaker) whose words the passages chosen before it already hold (`s.repeated`, see
    `Repeats`) is left out, its room given to the next; a page's line is not (a page says
    one fact in more than one place on purpose)."""
    used = 0
    chosen: dict[int, Passage] = {}
    docs: set[int] = set()
    order = Spread(ranked, lambda h: h.document_id, s.spread_after, s.spread_discount)
    said = Repeats(s.repeated)
    for score, h in order:
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
        if h.speaker and said.repeats(h.text):
            continue  # a turn said again; a page's line is never left out for it
        used += cost
        docs.add(h.document_id)
        order.took(h)
        for x in group:
            if x.id not in chosen:
                said.add(x.text)
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
