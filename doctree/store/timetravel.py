"""Time-travel search: the tree as it was at a time, or the text of every version ever made.

`search_at` searches the documents that were live at a time, each as its version of then.
`search_versions` searches every version under a path (deleted documents and documents that
compaction condensed away included), one hit per distinct body of a document, naming the
first version that had it and every version that shares it.

Both read bodies through the repository's public reads (`tree(at=...)` + `version`, and
`log`), so they work whatever the storage of old bodies is, and a redacted version, whose
body is gone, is never found. Ranking is the same as `DocumentsRepository.search`: the query
goes through `fts_query`, then FTS5 BM25 (title above path above body) in a scratch in-memory
index built for the one query; snippets are cut by `snippet_of`, as the store's own are.
Cost: reading every candidate body once per query, so proportional to the bytes under the
path (at that time, or in every version); narrow it with `under`. There is no persistent index to keep in step with redaction.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from doctree.errors import NotFoundError
from doctree.store.documents import DocumentsRepository, Version, parse_time
from doctree.store.paths import HOME, normalize_path, validate_owner
from doctree.store.search import fts_query, plain_search, snippet_of


@dataclass
class VersionHit:
    """A match in one version of a document: which document, which version, when, by whom."""

    document_id: int
    path: str  # the document's path at that version
    title: str
    version: int
    created_at: str
    actor: str
    operation: str
    snippet: str
    score: float
    versions: list[int] = field(default_factory=list)  # every version with this body
    current_path: str | None = None  # where the document is now
    deleted: bool = False  # the document is deleted now

    def to_dict(self) -> dict[str, Any]:
        return self.__dict__.copy()


def search_at(
    repo: DocumentsRepository,
    owner: str,
    query: str,
    at: str | datetime,
    *,
    under: str = HOME,
    limit: int = 10,
) -> list[VersionHit]:
    """Search the tree at or below `under` as it was at `at`, best (BM25) first."""
    owner, under = validate_owner(owner), normalize_path(under)
    at_ts = parse_time(at)
    if not fts_query(query):
        return []
    try:
        roots = repo.tree(owner, under, at=at_ts)
    except NotFoundError:
        return []  # nothing at that path then
    nodes = [n for r in roots for n in r.walk()]
    with repo.snapshot():
        versions = [repo.version(n.id, n.version) for n in nodes]
    hits = _rank(query, ([v] for v in versions if v.body is not None and not v.deleted), limit)
    return _located(repo, hits)


def search_versions(
    repo: DocumentsRepository,
    owner: str,
    query: str,
    *,
    under: str = HOME,
    until: str | datetime | None = None,
    limit: int = 10,
) -> list[VersionHit]:
    """Search the text of every version made at or below `under` (up to `until`), deleted
    and compacted documents included; one hit per distinct body of a document."""
    owner, under = validate_owner(owner), normalize_path(under)
    if not fts_query(query):
        return []
    until_ts = parse_time(until) if until is not None else None
    groups: dict[tuple[int, str], list[Version]] = {}
    for v in reversed(repo.log(owner, under, limit=None)):  # oldest first
        if v.body is None or (until_ts is not None and v.created_at > until_ts):
            continue
        groups.setdefault((v.document_id, v.content_sha256), []).append(v)
    return _located(repo, _rank(query, groups.values(), limit))


def _rank(query: str, groups: Iterable[list[Version]], limit: int) -> list[VersionHit]:
    """BM25-rank groups of versions sharing one body, by the first version of each group."""
    db = sqlite3.connect(":memory:")
    try:
        db.execute(
            "CREATE VIRTUAL TABLE t USING fts5(path, title, body,"
            " tokenize = 'porter unicode61 remove_diacritics 2')"
        )
        db.execute("INSERT INTO t (t, rank) VALUES ('rank', 'bm25(2.0, 4.0, 1.0)')")
        kept: list[list[Version]] = []
        rows = []
        for group in groups:
            first = group[0]
            kept.append(group)
            rows.append((len(kept), first.path, first.title, first.body))
        db.executemany("INSERT INTO t (rowid, path, title, body) VALUES (?, ?, ?, ?)", rows)
        found = db.execute(
            "SELECT rowid, rank FROM t WHERE t MATCH ? ORDER BY rank LIMIT ?",
            (fts_query(query), int(limit)),
        ).fetchall()
    finally:
        db.close()
    terms = plain_search(query)
    hits = []
    for rowid, score in found:
        group = kept[rowid - 1]
        v = group[0]
        hits.append(
            VersionHit(
                document_id=v.document_id,
                path=v.path,
                title=v.title,
                version=v.version,
                created_at=v.created_at,
                actor=v.actor,
                operation=v.operation,
                snippet=snippet_of(v.body, terms),
                score=-score,
                versions=[g.version for g in group],
            )
        )
    return hits


def _located(repo: DocumentsRepository, hits: list[VersionHit]) -> list[VersionHit]:
    """Fill in where each hit's document is now, and whether it is deleted."""
    for h in hits:
        doc = repo.read_by_id(h.document_id)
        h.current_path, h.deleted = doc.path, doc.deleted
    return hits
