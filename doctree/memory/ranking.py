"""Ranking: the weights (`Settings`), the search for candidate passages (by words, BM25; by
meaning, vectors; or both fused, see `doctree.memory.meaning`), and the score of each:
speakers named or addressed, dates, "when" questions, the weight of the document a passage
is in, recency; pseudo-relevance feedback when asked.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from doctree.memory.meaning import (
    SIMILARITY_FLOOR,
    check_mode,
    ensure_vectors,
    fuse,
    query_vector,
    rescored,
    semantic_text,
)
from doctree.memory.query import STOPWORDS, WORD, Query, addressed
from doctree.store.documents import DocumentsRepository
from doctree.store.passages import PassageHit, PassageIndex
from doctree.store.paths import name_of
from doctree.store.vectors import VectorIndex


@dataclass(frozen=True)
class Settings:
    """Weights of the ranking; the defaults were tuned on LoCoMo's development split."""

    text_weight: float = 1.0
    surroundings_weight: float = 0.3
    speaker_weight: float = 0.0
    dates_weight: float = 1.0
    speaker_boost: float = 1.0
    temporal_boost: float = 0.3
    entity_boost: float = 0.0
    document_weight: float = 0.3
    document_prior: str = "passages"  # or "store": the store's document search (slower)
    document_passages: int = 3
    recency_weight: float = 0.05
    length_exponent: float = 0.0
    candidates: int = 300
    feedback_terms: int = 0
    feedback_passages: int = 5
    feedback_weight: float = 0.3
    neighbours: int = 0
    headers: bool = True
    name_boost: float = 1.0  # rank_documents only: a document named for the query
    skip_bare: bool = True  # leave out passages that are only links, dates and labels
    # diminishing returns per document while the budget is filled (`packing.Spread`): after
    # a document gave `spread_after` passages, each next one's score is multiplied by
    # `spread_discount` per passage beyond; 0 turns it off
    spread_after: int = 0
    spread_discount: float = 0.5
    # a passage whose words the context already holds (`packing.Repeats`): at least this
    # share of its words in runs of five words the passages chosen before it have; 0: off.
    # Only a turn of a conversation (a passage with a speaker) is left out for it: a page
    # says one fact in several places on purpose (a person's page, the notes), and leaving
    # the second out cost the pages bench answers
    repeated: float = 0.5
    person_boost: float = 2.0  # see `addressed`: the user's turns, or the assistant's
    window_boost: float = 1.0  # a passage of the day(s) a time in the query points at
    # Retrieval by meaning (`doctree.memory.meaning`):
    # "lexical" (BM25), "semantic" (vectors) or "hybrid" (both); None: the configured
    # default (`DOCTREE_RETRIEVAL`, else `DEFAULT_MODE`)
    mode: str | None = None
    fusion: str = "scores"  # or "rrf": see `fuse`
    rrf_k: float = 60.0
    semantic_weight: float = 0.2
    semantic_candidates: int = 300
    semantic_floor: float = SIMILARITY_FLOOR  # the nearest passage below it: nothing is near
    semantic_query: str = "terms"  # embed the query's content terms, or the "text" as written
    thin_lexical: int = 0  # > 0: add the vectors' candidates only below this many BM25 hits
    # a question that counts or totals (`Query.gathers`): the cosine's weight instead of
    # `semantic_weight`, since its evidence is spread and often shares few of its words
    gather_weight: float = 1.0


DEFAULT_SETTINGS = Settings()


def search(
    index: PassageIndex,
    owner: str,
    under: str,
    q: Query,
    s: Settings,
    behind: frozenset[int] = frozenset(),
) -> list[PassageHit]:
    """Candidate passages, best first: BM25's (`lexical`), the vectors' (`semantic`, `score`
    the cosine) or both fused (`hybrid`); those of documents in `behind` left out."""
    mode = check_mode(s.mode, s.fusion)
    match = q.fts()
    hits: list[PassageHit] = []
    if mode != "semantic" and match:
        hits = index.search(
            owner,
            match,
            under=under,
            limit=s.candidates,
            weights=(s.text_weight, s.surroundings_weight, s.speaker_weight, s.dates_weight),
        )
    if mode != "lexical":
        near = nearest(index, owner, under, semantic_text(q, s), s, {h.id: h for h in hits})
        if mode == "semantic":
            hits = near
        else:
            hits = fuse(hits, near, replace(s, semantic_weight=s.gather_weight) if q.gathers else s)
    if behind:
        hits = [h for h in hits if h.document_id not in behind]
    return hits


def nearest(
    index: PassageIndex,
    owner: str,
    under: str,
    text: str,
    s: Settings,
    known: Mapping[int, PassageHit] | None = None,
) -> list[PassageHit]:
    """The passages under `under` nearest `text` in meaning, best first, `score` their
    cosine (at most `semantic_candidates`); none when even the nearest is below
    `semantic_floor` (the query is about nothing stored). `known`: passages already read
    (BM25's candidates under `under`), taken from there instead of read again."""
    ensure_vectors(index.conn, "passages", owner, in_write=index.repo.in_write_transaction)
    vectors = VectorIndex(index.conn, "passages")
    qv = query_vector(text, vectors)
    if qv is None:
        return []
    ids, sims = vectors.nearest(owner, qv, s.semantic_candidates)
    hits = _in_scope(index, owner, under, ids, sims, known or {})
    if len(hits) < len(ids):  # some lie outside `under`: look twice as far
        ids, sims = vectors.nearest(owner, qv, s.semantic_candidates * 2)
        hits = _in_scope(index, owner, under, ids, sims, known or {})
    if not hits or hits[0].score < s.semantic_floor:  # best first
        return []
    return hits[: s.semantic_candidates]


def _in_scope(
    index: PassageIndex,
    owner: str,
    under: str,
    ids: list[int],
    sims: list[float],
    known: Mapping[int, PassageHit],
) -> list[PassageHit]:
    """The passages `ids` under `under`, in their order, `score` their cosine in `sims`:
    those in `known` copied from there, the others read (one query)."""
    cosine = dict(zip(ids, sims, strict=True))
    read = {
        h.id: h
        for h in index.by_ids(owner, [i for i in ids if i not in known], under=under, scores=cosine)
    }
    out = []
    for i in ids:
        h = known.get(i)
        if h is not None:
            out.append(rescored(h, cosine[i]))
        elif (h := read.get(i)) is not None:
            out.append(h)
    return out


def plain(word: str) -> str:
    """A word without a plural `s`, so that `projects` and `project` meet."""
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


_NAME_WORDS = re.compile(r"[-_.]+")


def named_for(path: str, terms: set[str]) -> bool:
    """Whether every word of the path's last segment is one of the query's terms."""
    name = _name_words(path)
    return bool(name) and all(w in terms for w in name)


@functools.lru_cache(maxsize=65_536)
def _name_words(path: str) -> tuple[str, ...]:
    """The words of the path's last segment, each `plain`: asked of every candidate
    document of every query, so remembered."""
    return tuple(plain(w) for w in _NAME_WORDS.split(name_of(path).lower()) if w)


def _feedback_terms(q: Query, hits: Sequence[PassageHit], n: int) -> list[str]:
    """Words that several of the best passages share and the query lacks."""
    have = set(q.terms)
    seen: dict[str, int] = {}
    for h in hits:
        for w in {w.lower() for w in WORD.findall(h.text)}:
            if len(w) > 2 and w.isalpha() and w not in STOPWORDS and w not in have:
                seen[w] = seen.get(w, 0) + 1
    shared = [w for w, k in seen.items() if k >= 2]
    shared.sort(key=lambda w: -seen[w])
    return shared[:n]


def with_feedback(
    index: PassageIndex, owner: str, under: str, q: Query, hits: list[PassageHit], s: Settings
) -> list[PassageHit]:
    """Pseudo-relevance feedback: search again with the words the best passages share, and
    add that score, scaled down, to the first."""
    extra = _feedback_terms(q, hits[: s.feedback_passages], s.feedback_terms)
    if not extra:
        return hits
    more = index.search(
        owner,
        " OR ".join(f'"{t}"' for t in extra),
        under=under,
        limit=s.candidates,
        weights=(s.text_weight, s.surroundings_weight, s.speaker_weight, s.dates_weight),
    )
    if not more:
        return hits
    scale = s.feedback_weight * hits[0].score / (more[0].score or 1.0)
    merged = {h.id: h for h in hits}
    for m in more:
        base = merged.get(m.id)
        merged[m.id] = replace(m, score=(base.score if base else 0.0) + scale * m.score)
    return sorted(merged.values(), key=lambda h: -h.score)


def rank(
    repo: DocumentsRepository,
    owner: str,
    under: str,
    q: Query,
    hits: list[PassageHit],
    s: Settings,
) -> list[tuple[float, PassageHit]]:
    top = hits[0].score or 1.0
    doc_prior: dict[int, float] = {}
    if s.document_weight and s.document_prior == "store":
        docs = repo.search(owner, " ".join(q.terms), under=under, limit=20)
        if docs:
            best = docs[0].score or 1.0
            doc_prior = {d.document_id: d.score / best for d in docs}
    elif s.document_weight:
        # A document where several passages match is about the question: the sum of its
        # best few passage scores, relative to the best document's.
        per_doc: dict[int, list[float]] = {}
        for h in hits:
            per_doc.setdefault(h.document_id, []).append(h.score)
        sums = {
            d: sum(sorted(xs, reverse=True)[: s.document_passages]) for d, xs in per_doc.items()
        }
        best = max(sums.values()) or 1.0
        doc_prior = {d: x / best for d, x in sums.items()}
    days = sorted({h.day for h in hits if h.day})
    day_rank = {d: (i + 1) / len(days) for i, d in enumerate(days)}
    names = set(q.names)
    whose = addressed(q.text) if s.person_boost else None
    entity_re = (
        re.compile(r"\b(?:" + "|".join(map(re.escape, q.entities)) + r")", re.I)
        if q.entities and s.entity_boost
        else None
    )
    out = []
    for h in hits:
        score = h.score / top
        if names and h.speaker in names:
            score *= 1 + s.speaker_boost
        elif whose and h.speaker == whose:
            score *= 1 + s.person_boost
        if entity_re is not None and entity_re.search(h.text):
            score *= 1 + s.entity_boost
        if q.temporal and h.timed:
            score *= 1 + s.temporal_boost
        if s.window_boost and q.in_window(h.day):
            score *= 1 + s.window_boost
        score += s.document_weight * doc_prior.get(h.document_id, 0.0)
        score += s.recency_weight * day_rank.get(h.day or "", 0.0)
        if s.length_exponent:
            score /= math.pow(max(h.words, 5), s.length_exponent)
        out.append((score, h))
    out.sort(key=lambda x: -x[0])
    return out
