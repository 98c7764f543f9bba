"""Retrieval: the passages of an owner's documents most relevant to a query, within a budget.

The parts, in the order a query meets them: documents are cut into passages and indexed
(`passages.py`, with the dates they speak of from `dates.py`); the query is read
(`query.py`); candidate passages are found and scored (`ranking.py`); the best are packed
into the word budget and rendered grouped by document (`packing.py`). This module holds
the two entry points: `retrieve` (a context of passages) and `rank_documents` (whole
documents, best first).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import date

from doctree.errors import UserError
from doctree.memory.layout import MEMORY_ROOT
from doctree.memory.meaning import check_mode
from doctree.memory.packing import Passage, fill, render
from doctree.memory.passages import clip_words, refresh_passages, words
from doctree.memory.query import parse_query
from doctree.memory.ranking import (
    DEFAULT_SETTINGS,
    Settings,
    named_for,
    nearest,
    plain,
    rank,
    search,
    with_feedback,
)
from doctree.store.documents import DocumentsRepository
from doctree.store.model import SearchHit
from doctree.store.passages import PassageHit, PassageIndex
from doctree.store.paths import HOME, normalize_path, validate_owner
from doctree.store.search import SearchQuery, parse_search
from doctree.timeutil import today

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
    now: date | None = None,
) -> Context:
    """The passages of `owner`'s documents under `under` most relevant to `query`, as one
    context of at most `budget_words` words (headers included), grouped by document.
    `now` is the day the question is asked (default today, UTC): a time it speaks of
    ("two weeks ago") is read against it."""
    owner, under = validate_owner(owner), normalize_path(under)
    if not isinstance(budget_words, int) or budget_words < 0:
        raise UserError(f"budget_words {budget_words!r}: must be a whole number >= 0")
    behind = refresh_passages(repo, owner)
    index = PassageIndex(repo)
    q = parse_query(query, index.speakers(owner), now=now or today())
    ctx = Context(query=query, budget_words=budget_words, left_out=len(behind))
    s = settings
    mode = check_mode(s.mode, s.fusion)
    if (not q.fts() and mode == "lexical") or budget_words == 0:
        return ctx
    hits = search(index, owner, under, q, s, behind)
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
    now: date | None = None,
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
    `now`: the day the question is asked, as for `retrieve`.
    """
    owner, under = validate_owner(owner), normalize_path(under)
    behind = refresh_passages(repo, owner) if refresh else frozenset()
    index = PassageIndex(repo)
    q = parse_query(query, index.speakers(owner), now=now or today())
    s = settings
    mode = check_mode(s.mode, s.fusion)
    if not q.fts() and mode == "lexical":
        return []
    hits = search(index, owner, under, q, s, behind)
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


# -- document search -----------------------------------------------------------------------


def search_documents(
    repo: DocumentsRepository,
    owner: str,
    query: str,
    *,
    mode: str | None = None,
    under: str = HOME,
    limit: int = 10,
) -> list[SearchHit]:
    """Documents for a search, best first, as `doctree search`, MCP and the agents' tools
    show them. `lexical` is the store's full-text search (BM25, with its syntax: `word*`,
    `"a phrase"`, `-word`); `semantic` ranks documents by their passage nearest the query
    in meaning (its text is the snippet); `hybrid` fuses both rankings by reciprocal rank
    (equal weights, k = 60), leaving out documents the query excludes (`-word`). `mode` None: the configured default
    (`DOCTREE_RETRIEVAL`, else `DEFAULT_MODE`, hybrid)."""
    mode = check_mode(mode)
    owner, under = validate_owner(owner), normalize_path(under)
    if mode == "lexical":
        return repo.search(owner, query, under=under, limit=limit)
    lexical = repo.search(owner, query, under=under, limit=max(limit, 50))
    behind = refresh_passages(repo, owner)
    index = PassageIndex(repo)
    s = Settings(mode="semantic")
    near: dict[int, PassageHit] = {}
    for h in nearest(index, owner, under, query, s):
        if h.document_id not in behind:
            near.setdefault(h.document_id, h)
    parsed = parse_search(query)
    if parsed.excluded and near:  # a document the query excludes (`-word`) stays out
        excluded = _excluded_documents(repo, owner, parsed, under, set(near))
        near = {d: h for d, h in near.items() if d not in excluded}
    if mode == "semantic":
        ranked = [(h.score, d) for d, h in near.items()]
    else:
        fused: dict[int, float] = {}
        for rank_, hit in enumerate(lexical, 1):
            fused[hit.document_id] = 1 / (s.rrf_k + rank_)
        for rank_, d in enumerate(near, 1):
            fused[d] = fused.get(d, 0.0) + 1 / (s.rrf_k + rank_)
        ranked = [(score, d) for d, score in fused.items()]
    ranked.sort(key=lambda x: -x[0])
    by_doc = {h.document_id: h for h in lexical}
    out: list[SearchHit] = []
    for score, d in ranked[:limit]:
        if d in by_doc:
            out.append(replace(by_doc[d], score=score))
            continue
        doc = repo.read_by_id(d)
        out.append(
            SearchHit(
                document_id=d,
                path=doc.path,
                title=doc.title,
                snippet=clip_words(near[d].text, 30),
                score=score,
                version=doc.version,
                updated_at=doc.updated_at,
            )
        )
    return out


def _excluded_documents(
    repo: DocumentsRepository,
    owner: str,
    parsed: SearchQuery,
    under: str,
    candidates: set[int],
) -> set[int]:
    """Which of these documents hold a word or phrase the search excludes."""
    out: set[int] = set()
    for e in parsed.excluded:
        for hit in repo.search(owner, e, under=under, limit=10_000, snippets=False):
            if hit.document_id in candidates:
                out.add(hit.document_id)
    return out
