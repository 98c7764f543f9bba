"""Retrieval: the passages of an owner's documents most relevant to a query, within a budget.

The parts, in the order a query meets them: documents are cut into passages and indexed
(`passages.py`, with the dates they speak of from `dates.py`); the query is read
(`query.py`); candidate passages are found and scored (`ranking.py`); the best are packed
into the word budget and rendered grouped by document (`packing.py`). This module holds
the two entry points: `retrieve` (a context of passages) and `rank_documents` (whole
documents, best first).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from doctree.errors import UserError
from doctree.memory.layout import MEMORY_ROOT
from doctree.memory.packing import Passage, fill, render
from doctree.memory.passages import refresh_passages, words
from doctree.memory.query import parse_query
from doctree.memory.ranking import (
    DEFAULT_SETTINGS,
    Settings,
    named_for,
    plain,
    rank,
    search,
    with_feedback,
)
from doctree.store.documents import DocumentsRepository
from doctree.store.passages import PassageIndex
from doctree.store.paths import normalize_path, validate_owner

DEFAULT_UNDER = MEMORY_ROOT


@dataclass
class Context:
    """What `retrieve` assembled: the text to hand a model and the passages it holds."""

    query: str
    budget_words: int
    text: str = ""
    passages: list[Passage] = field(default_factory=list)
    left_out: int = 0
    """Documents not searched: changed since they were indexed, and the index could not be
    updated (a read-only database); see `refresh_passages`."""

    @property
    def words(self) -> int:
        return words(self.text)

    def __str__(self) -> str:
        return self.text


def retrieve(
    repo: DocumentsRepository,
    owner: str,
    query: str,
    *,
    budget_words: int,
    under: str = DEFAULT_UNDER,
    settings: Settings = DEFAULT_SETTINGS,
) -> Context:
    """The passages of `owner`'s documents under `under` most relevant to `query`, as one
    context of at most `budget_words` words (headers included), grouped by document."""
    owner, under = validate_owner(owner), normalize_path(under)
    if not isinstance(budget_words, int) or budget_words < 0:
        raise UserError(f"budget_words {budget_words!r}: must be a whole number >= 0")
    behind = refresh_passages(repo, owner)
    index = PassageIndex(repo)
    q = parse_query(query, index.speakers(owner))
    ctx = Context(query=query, budget_words=budget_words, left_out=len(behind))
    match = q.fts()
    if not match or budget_words == 0:
        return ctx
    s = settings
    hits = search(index, owner, under, match, s, behind)
    if not hits:
        return ctx
    if s.feedback_terms:
        hits = with_feedback(index, owner, under, q, hits, s)
    ranked = rank(repo, owner, under, q, hits, s)
    ctx.passages = fill(index, ranked, budget_words, s)
    ctx.text = render(ctx.passages, headers=s.headers)
    versions: dict[int, int] = {}
    for p in ctx.passages:
        if p.document_id not in versions:
            versions[p.document_id] = repo.read_by_id(p.document_id).version
        p.version = versions[p.document_id]
    return ctx


@dataclass(frozen=True)
class RankedDocument:
    """A document and how relevant its best passages make it to a query."""

    document_id: int
    path: str
    score: float


def rank_documents(
    repo: DocumentsRepository,
    owner: str,
    query: str,
    *,
    under: str = DEFAULT_UNDER,
    limit: int = 50,
    settings: Settings = DEFAULT_SETTINGS,
    refresh: bool = True,
) -> list[RankedDocument]:
    """`owner`'s documents under `under` most relevant to `query`, best first: for callers
    that load whole documents (`load_memories(query=...)`) rather than passages.

    Each document is scored by the sum of its best passages as `retrieve` ranks them, so
    stopwords and question words never make a document relevant; a document named for
    the query (every word of its path's last segment is a query term, as `projects/apollo`
    for "when is the Apollo launch") counts `1 + name_boost` times, since in a tree of
    pages a page named for a subject is the page about it. With `refresh=False` the passage
    index is taken as it is (the caller brought it up to date, see `refresh_passages`);
    otherwise documents the index is behind on and cannot be updated for are left out.
    """
    owner, under = validate_owner(owner), normalize_path(under)
    behind = refresh_passages(repo, owner) if refresh else frozenset()
    index = PassageIndex(repo)
    q = parse_query(query, index.speakers(owner))
    match = q.fts()
    if not match:
        return []
    s = settings
    hits = search(index, owner, under, match, s, behind)
    if not hits:
        return []
    per_doc: dict[int, list[float]] = {}
    paths: dict[int, str] = {}
    for score, h in rank(repo, owner, under, q, hits, s):
        per_doc.setdefault(h.document_id, []).append(score)
        paths[h.document_id] = h.path
    terms = {plain(t) for t in q.terms}
    ranked = []
    for d, xs in per_doc.items():
        score = sum(xs[: s.document_passages])
        if s.name_boost and named_for(paths[d], terms):
            score *= 1 + s.name_boost
        ranked.append(RankedDocument(d, paths[d], score))
    ranked.sort(key=lambda r: (-r.score, r.path))
    return ranked[:limit]
