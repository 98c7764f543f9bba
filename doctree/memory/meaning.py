"""Retrieval by meaning: the query's vector, the passages nearest it, the vectors kept in
step with the passages, and the fusion of the two rankings (words and meaning).

Every passage of the pages and of the recall record may have a vector
(`doctree.store.vectors`). A database's passages get none until retrieval by meaning is
first asked of it (`ensure_vectors`, by a search in `semantic` or `hybrid` mode): from then
on, whenever its passages are indexed, their vectors are made in the same write
(`keep_vectors`), so a query is the only text embedded on the read path.
"""

from __future__ import annotations

import functools
import logging
import operator
import os
import sqlite3
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar

from doctree.errors import UserError
from doctree.llm.embedders import default_embedder, embedder_spec
from doctree.memory.query import Query
from doctree.store.backends import write_transaction
from doctree.store.vectors import Embedder, VectorIndex

if TYPE_CHECKING:
    import numpy as np

log = logging.getLogger("doctree.memory.meaning")

Mode = Literal["lexical", "semantic", "hybrid"]
MODES: tuple[Mode, ...] = ("lexical", "semantic", "hybrid")
FUSIONS = ("scores", "rrf", "add")

DEFAULT_MODE: Mode = "hybrid"
"""The retrieval mode when none is asked for and `DOCTREE_RETRIEVAL` names none: chosen by
measurement (docs/retrieval.md, "Hybrid, the default"): the memory pages' own questions,
every informed half, answer 1,173 of 1,282 in hybrid against 1,137 in lexical, none lost;
both benchmarks' agent and raw pipelines are level or above; its cost (1.9x the CPU of
`load_memories(query)`, 1.6x of `retrieve` at 10,000 documents, the vectors made at
hand-over) keeps the CPU per call under its targets; a read right after a write met its
30 ms alone (27 / 22 ms wall) and missed it under load (88 ms), see docs/performance.md. The offline memory agent's own searches stay
lexical (`OfflineMemoryAgent.search_mode`): they look for words. Lexical is one setting
away (`DOCTREE_RETRIEVAL=lexical`)."""
ENV_MODE = "DOCTREE_RETRIEVAL"

SIMILARITY_FLOOR = 0.2
"""The cosine the query's nearest passage must reach for any passage to be near it by
meaning (`semantic_floor`). With the default embedder, on LoCoMo's development split, 99.9%
of the questions have a passage at least this similar, and two thirds of queries about
things the conversation never touches (a volcano, a tax deadline, a router) have none: a
question about nothing stored is answered with nothing by meaning, not with the least
unrelated passages. A higher floor cuts more of those but also short questions that are
related: "when is the release?" is 0.235 similar to "the launch moved to December 8"
(docs/retrieval.md, "By meaning")."""


def check_mode(mode: str | None, fusion: str = "scores") -> str:
    """The retrieval mode to use: `mode`, or for None the configured default
    (`DOCTREE_RETRIEVAL`, else `DEFAULT_MODE`); a clear error for anything else, and for a
    `fusion` that is not one."""
    if fusion not in FUSIONS:
        raise UserError(f"fusion {fusion!r}: must be one of {', '.join(FUSIONS)}")
    if mode is None:
        configured = os.environ.get(ENV_MODE, "").strip().lower()
        if configured and configured not in MODES:
            raise UserError(f"{ENV_MODE} {configured!r}: must be one of {', '.join(MODES)}")
        return configured or DEFAULT_MODE
    if mode not in MODES:
        raise UserError(f"mode {mode!r}: must be one of {', '.join(MODES)}")
    return mode


class MeaningSettings(Protocol):
    """What of a ranking's settings retrieval by meaning reads (`Settings`,
    `RecallSettings`)."""

    @property
    def mode(self) -> str | None: ...
    @property
    def fusion(self) -> str: ...
    @property
    def rrf_k(self) -> float: ...
    @property
    def semantic_weight(self) -> float: ...
    @property
    def semantic_query(self) -> str: ...
    @property
    def thin_lexical(self) -> int: ...


def semantic_text(q: Query, s: MeaningSettings) -> str:
    """What of the query is embedded: its content terms (`semantic_query="terms"`: the
    words BM25 reads, stopwords and question words out), or the query as written."""
    return " ".join(q.terms) if s.semantic_query == "terms" and q.terms else q.text


# -- vectors kept in step ----------------------------------------------------------------


def vectors_behind(vectors: VectorIndex, owner: str, embedder: Embedder | None) -> bool:
    """Whether the owner's passages wait for vectors (new or rewritten text, or vectors of
    another model than `embedder`); False without an embedder."""
    if embedder is None:
        return False
    return not vectors.current(embedder) or vectors.pending(owner) > 0


def keep_vectors(conn: Any, kind: str, owner: str) -> int:
    """Inside the write that indexed passages: embed those waiting for a vector, if this
    database's passages have vectors at all (see `ensure_vectors`) or retrieval uses
    meaning by default (`DOCTREE_RETRIEVAL`, else `DEFAULT_MODE`), so that the first
    search by meaning does not embed a whole store on the read path. Returns how many."""
    vectors = VectorIndex(conn, kind)
    if embedder_spec() == "none":
        return 0
    if not vectors.active() and check_mode(None) == "lexical":
        return 0
    embedder = default_embedder()
    if embedder is None:
        return 0
    return vectors.catch_up(owner, embedder)


def ensure_vectors(conn: Any, kind: str, owner: str, *, in_write: bool = False) -> bool:
    """Before a search by meaning: give the owner's passages their vectors (the first time,
    every passage; later, those whose text changed since, or all of them for another
    model) if the database may be written now — a short write of its own, or part of the
    caller's write transaction (`in_write`: the transaction open on `conn` is one). Returns whether the vectors are current; if not (a read
    transaction, a read-only database, a lock held past the busy timeout), the search goes
    on by words and by the vectors there are."""
    embedder = default_embedder()
    vectors = VectorIndex(conn, kind)
    if not vectors_behind(vectors, owner, embedder):
        return embedder is not None
    assert embedder is not None
    if conn.in_transaction and not in_write:
        return False
    try:
        with write_transaction(conn):
            vectors.catch_up(owner, embedder)
    except sqlite3.OperationalError as e:
        log.warning("vectors of %r (%s) not updated: %s", owner, kind, e)
        return False
    return True


# -- the query's neighbours ----------------------------------------------------------------


@functools.lru_cache(maxsize=256)
def _query_vector(name: str, text: str) -> np.ndarray:
    embedder = default_embedder()
    assert embedder is not None and embedder.name == name
    return embedder.embed([text])[0]


def query_vector(text: str, vectors: VectorIndex) -> np.ndarray | None:
    """The query's vector from the embedder that made the stored vectors, or None when
    there is none (no embedder, or the stored vectors come from another model)."""
    if embedder_spec() == "none" or not text.strip():
        return None
    embedder = default_embedder()
    if embedder is None or not vectors.current(embedder):
        return None
    return _query_vector(embedder.name, text)


# -- fusion --------------------------------------------------------------------------------


class Scored(Protocol):
    @property
    def id(self) -> int: ...
    @property
    def score(self) -> float: ...


_H = TypeVar("_H", bound=Scored)  # PassageHit, RecallHit


def rescored(hit: _H, score: float) -> _H:
    """A copy of `hit` (a dataclass) with another `score`, its other fields (and any cached
    one, such as a passage's unpacked text) as they are: what `dataclasses.replace` makes,
    at a tenth of its cost, which at 300 to 600 candidates per search by meaning was a
    fifth of the search's CPU."""
    new = object.__new__(type(hit))
    new.__dict__.update(hit.__dict__)
    new.__dict__["score"] = score
    return new


def fuse(lexical: Sequence[_H], semantic: Sequence[_H], s: MeaningSettings) -> list[_H]:
    """One ranking of two: BM25's and the vectors', best first, `score` the fused score.

    `scores`: BM25 over the best BM25 score plus `semantic_weight` times the cosine over
    the best cosine. `add`: BM25's ranking as it is, with the passages only the vectors
    found added at `semantic_weight` times their cosine over the best cosine. `rrf` (reciprocal rank fusion): each list gives `weight / (k + rank)`,
    so that what both rank high comes first and neither list's scale matters. With
    `thin_lexical` > 0, the vectors' candidates are added only when BM25 found fewer than
    that many passages (meaning fills in where words are thin) and otherwise the ranking
    is BM25's alone.
    """
    if not semantic:
        return list(lexical)
    if not lexical:
        return list(semantic)
    if s.thin_lexical and len(lexical) >= s.thin_lexical:
        return list(lexical)
    fused: dict[int, float] = {}
    by_id: dict[int, _H] = {}
    if s.fusion == "scores":
        top_l = lexical[0].score or 1.0
        top_s = semantic[0].score or 1.0
        weight = s.semantic_weight
        for h in lexical:
            i = h.id
            if i not in by_id:
                by_id[i] = h
            fused[i] = fused.get(i, 0.0) + max(h.score, 0.0) / top_l
        for h in semantic:
            i = h.id
            if i not in by_id:
                by_id[i] = h
            fused[i] = fused.get(i, 0.0) + weight * max(h.score, 0.0) / top_s
    elif s.fusion == "add":
        top_l = lexical[0].score or 1.0
        top_s = semantic[0].score or 1.0
        for h in lexical:
            by_id[h.id] = h
            fused[h.id] = max(h.score, 0.0) / top_l
        for h in semantic:
            if h.id not in fused:
                by_id[h.id] = h
                fused[h.id] = s.semantic_weight * max(h.score, 0.0) / top_s
    else:
        for hits, weight in ((lexical, 1.0), (semantic, s.semantic_weight)):
            for rank, h in enumerate(hits, 1):
                by_id.setdefault(h.id, h)
                fused[h.id] = fused.get(h.id, 0.0) + weight / (s.rrf_k + rank)
    # Best first; equal scores keep the order they were met in (a stable sort).
    order = sorted(fused.items(), key=operator.itemgetter(1), reverse=True)
    return [rescored(by_id[i], x) for i, x in order]
