"""The passage index: passages of current documents, searchable with FTS5.

Retrieval cuts documents into passages (`doctree.memory.retrieval` decides how); this module only
stores them and searches them. The index is derived data: every change of a document puts it in `passage_pending` (the store's
writes on SQLite, `Dialect.queue_passages`; triggers on PostgreSQL), and it is cut again when the index next catches up — at hand-over, after the
memory agent's run, or by the next retrieval, which then does only the work of the changes
since. All SQL for passages lives here.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from doctree.errors import NotFoundError
from doctree.store import encoding
from doctree.store.backends import dialect_of
from doctree.store.documents import DEFAULT_MAX_BODY_BYTES, DocumentsRepository
from doctree.store.model import PassageSearch
from doctree.store.paths import HOME

SURROUNDING_WORDS = 60
"""Words of each neighbour in a passage's surroundings. The SQLite index keeps no copy of
what it indexed: an entry is taken out with the surroundings derived again, so changing
this needs a migration that rebuilds the index."""


def clip_words(text: str, n: int) -> str:
    """The first `n` words of `text`, joined by single spaces."""
    return " ".join(text.split()[:n])


def surroundings_of(title: str, heading: str, before: str, after: str) -> str:
    """What a passage is indexed with besides its text: its document's title, the headings
    above it, and the first `SURROUNDING_WORDS` words of the passages before and after it."""
    return " ".join(
        x
        for x in (
            title,
            heading,
            clip_words(before, SURROUNDING_WORDS),
            clip_words(after, SURROUNDING_WORDS),
        )
        if x
    )


@dataclass(frozen=True)
class PassageRow:
    """One passage to index: what is shown (`text`) and what helps find it (its
    surroundings are derived from its neighbours in the document, `surroundings_of`)."""

    seq: int
    text: str
    words: int
    speaker: str | None = None
    day: str | None = None
    dates: str = ""
    heading: str = ""
    timed: bool = False


def surroundings(title: str, rows: Sequence[tuple[str, str]]) -> list[str]:
    """The surroundings of each passage of one document titled `title`, from its passages'
    (text, heading) in order."""
    n = len(rows)
    return [
        surroundings_of(
            title, rows[i][1], rows[i - 1][0] if i > 0 else "", rows[i + 1][0] if i + 1 < n else ""
        )
        for i in range(n)
    ]


@dataclass(frozen=True)
class PassageHit:
    """A passage found by a search; `score` is BM25 turned positive (higher is better).

    `stored` is the text as the row holds it (packed on SQLite, see
    `Dialect.packed_passage_text`); `text` unpacks it when first read, so that ranking
    many candidates pays only for the texts it shows."""

    id: int
    document_id: int
    path: str
    seq: int
    speaker: str | None
    day: str | None
    heading: str
    stored: str | bytes
    words: int
    score: float
    timed: bool = False

    @cached_property
    def text(self) -> str:
        return encoding.text_of(self.stored)


@dataclass(frozen=True)
class StaleDocument:
    document_id: int
    version: int


def _scope(under: str) -> tuple[str, list[str]]:
    if under == HOME:
        return "", []
    return " AND (c.path = ? OR (c.path >= ? AND c.path < ?))", [under, under + "/", under + "0"]


class PassageIndex:
    """Passages of every owner's documents in one database (see migrations/001_baseline.sql).

    Give it the store (or, as before, the store's connection: it is wrapped in one).
    """

    def __init__(self, repo: DocumentsRepository | sqlite3.Connection):
        if not isinstance(repo, DocumentsRepository):  # a connection
            repo = DocumentsRepository(repo, max_body_bytes=DEFAULT_MAX_BODY_BYTES)
        self.repo = repo
        self.conn = repo.conn

    def stale(self, owner: str) -> tuple[list[StaleDocument], list[int]]:
        """Documents to (re)cut into passages, and ids of deleted documents to `drop`.

        Read from `passage_pending`, which every change of a document fills (see
        `Dialect.queue_passages`) and the index empties as it catches up: the cost is that of the changes
        since, never a read of every document. A live document is stale when it was never
        cut into passages or has a newer version since; a deleted one is to be dropped until
        `passage_sources` records it at its current (tombstone) version, with no passages.
        """
        cur = self.conn.cursor()
        cur.row_factory = None
        rows = cur.execute(
            "SELECT d.id, d.version, d.deleted_at IS NOT NULL, s.version FROM passage_pending p"
            " JOIN documents d ON d.id = p.document_id"
            " LEFT JOIN passage_sources s ON s.document_id = p.document_id"
            " WHERE p.owner = ? ORDER BY d.id",
            (owner,),
        ).fetchall()
        fresh = [StaleDocument(i, v) for i, v, deleted, seen in rows if not deleted]
        gone = [i for i, v, deleted, seen in rows if deleted]
        return fresh, gone

    def pending(self, owner: str) -> int:
        """How many of the owner's documents the index has not caught up with."""
        return self.conn.execute(
            "SELECT COUNT(*) FROM passage_pending WHERE owner = ?", (owner,)
        ).fetchone()[0]

    def _caught_up(self, document_id: int, version: int) -> None:
        """The index holds this version: the document is no longer pending, unless it has
        changed since that version was read."""
        self.conn.execute(
            "DELETE FROM passage_pending WHERE document_id = ?"
            " AND (SELECT version FROM documents WHERE id = ?) = ?",
            (document_id, document_id, version),
        )

    def drop(self, document_ids: Iterable[int]) -> None:
        """Forget the passages of these documents. A deleted one stays recorded in
        `passage_sources` at its current version, with no passages, so it is not stale again."""
        for doc_id in document_ids:
            self._forget(doc_id)
            try:
                doc = self.repo.read_by_id(doc_id)
            except NotFoundError:
                continue
            if doc.deleted:
                self.conn.execute(
                    "INSERT INTO passage_sources (document_id, owner, version, title)"
                    " VALUES (?, ?, ?, ?)",
                    (doc.id, doc.owner, doc.version, doc.title),
                )
                self._caught_up(doc.id, doc.version)

    def optimize(self) -> None:
        """Merge the passage index into one segment, dropping every entry of a deleted
        passage, so that no copy of its text stays in the file (forget)."""
        dialect_of(self.conn).optimize_passage_index(self.conn, "passages")

    def _forget(self, doc_id: int) -> None:
        dialect = dialect_of(self.conn)
        if dialect.contentless_passages:
            # The index holds no copy: it is told what each entry indexed, as it was made.
            title = self.conn.execute(
                "SELECT title FROM passage_sources WHERE document_id = ?", (doc_id,)
            ).fetchone()
            rows = self.conn.execute(
                "SELECT id, owner, text, heading, speaker, dates FROM passages"
                " WHERE document_id = ? ORDER BY seq",
                (doc_id,),
            ).fetchall()
            if rows:
                texts = [encoding.text_of(r[2]) for r in rows]
                around = surroundings(
                    title[0] if title else "", [(t, r[3]) for t, r in zip(texts, rows, strict=True)]
                )
                dialect.unindex_passage_entries(
                    self.conn,
                    "passages",
                    [
                        (r[0], r[1], t, s, r[4] or "", r[5])
                        for r, t, s in zip(rows, texts, around, strict=True)
                    ],
                )
        else:
            dialect.unindex_passages(
                self.conn, "passages", "SELECT id FROM passages WHERE document_id = ?", (doc_id,)
            )
        self.conn.execute("DELETE FROM passages WHERE document_id = ?", (doc_id,))
        self.conn.execute("DELETE FROM passage_sources WHERE document_id = ?", (doc_id,))

    def replace(
        self,
        document_id: int,
        owner: str,
        version: int,
        path: str,
        rows: Sequence[PassageRow],
        title: str = "",
    ) -> None:
        """Store the passages cut from one version of a document (titled `title`),
        replacing older ones."""
        self._forget(document_id)
        self.conn.execute(
            "INSERT INTO passage_sources (document_id, owner, version, title) VALUES (?, ?, ?, ?)",
            (document_id, owner, version, title),
        )
        self._caught_up(document_id, version)
        dialect = dialect_of(self.conn)
        insert = (
            "INSERT INTO passages (document_id, owner, path, seq, speaker, day, heading, text,"
            " words, timed, dates{}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?{})"
        )
        pack = encoding.encode_full if dialect.packed_passage_text else str
        values = [
            (document_id, owner, path, r.seq, r.speaker, r.day, r.heading, pack(r.text), r.words,
             int(r.timed), r.dates)
            for r in rows
        ]  # fmt: skip
        around = surroundings(title, [(r.text, r.heading) for r in rows])
        fields = [(r.text, s, r.speaker or "", r.dates) for r, s in zip(rows, around, strict=True)]
        inline = [dialect.passage_index_value("passages", *f) for f in fields]
        if inline and inline[0] is not None:
            # The index is a column of the row: every passage in one batch of INSERTs.
            column, value, _ = inline[0]
            self.conn.executemany(
                insert.format(f", {column}", f", {value}"),
                [(*v, *ix[2]) for v, ix in zip(values, inline, strict=True) if ix is not None],
            )
            return
        for v, f in zip(values, fields, strict=True):
            cur = self.conn.execute(insert.format("", ""), v)
            assert cur.lastrowid is not None  # an INSERT's
            dialect.index_passage(self.conn, "passages", cur.lastrowid, owner, *f)

    def search(
        self,
        owner: str,
        match: str,
        *,
        under: str = HOME,
        limit: int = 200,
        weights: tuple[float, float, float, float] = (1.0, 0.3, 0.5, 1.0),
    ) -> list[PassageHit]:
        """Passages matching an FTS5 expression, best first, BM25 weighted per column
        (text, surroundings, speaker, dates)."""
        if not match:
            return []
        scope, params = _scope(under)
        rows = dialect_of(self.conn).search_passages(
            self.conn,
            "passages",
            "c.id, c.document_id, c.path, c.seq, c.speaker, c.day, c.heading, c.text, c.words,"
            " c.timed",
            PassageSearch(match, owner, int(limit), weights, scope, params),
        )
        return [_hit(r, r[10]) for r in rows]

    def by_ids(
        self,
        owner: str,
        ids: Sequence[int],
        *,
        under: str = HOME,
        scores: Mapping[int, float] | None = None,
    ) -> list[PassageHit]:
        """The owner's passages with these ids under `under`, in the order of `ids`, each
        `score` its own in `scores` (else 0); ids of other owners, of gone passages or out
        of scope are left out."""
        scope, params = _scope(under)
        found: dict[int, PassageHit] = {}
        for start in range(0, len(ids), 500):
            part = [int(i) for i in ids[start : start + 500]]
            marks = ", ".join("?" * len(part))
            rows = self.conn.execute(
                "SELECT c.id, c.document_id, c.path, c.seq, c.speaker, c.day, c.heading, c.text,"
                f" c.words, c.timed FROM passages c WHERE c.owner = ? AND c.id IN ({marks})"
                + scope,
                [owner, *part, *params],
            )
            for r in rows:
                found[r[0]] = _hit(r, scores.get(r[0], 0.0) if scores else 0.0)
        return [found[int(i)] for i in ids if int(i) in found]

    def around(self, document_id: int, seq: int, before: int, after: int) -> list[PassageHit]:
        """The passages of one document from `seq - before` to `seq + after`, in order."""
        rows = self.conn.execute(
            "SELECT c.id, c.document_id, c.path, c.seq, c.speaker, c.day, c.heading, c.text,"
            " c.words, c.timed, 0.0 FROM passages c WHERE c.document_id = ? AND c.seq BETWEEN ? AND ?"
            " ORDER BY c.seq",
            (document_id, seq - before, seq + after),
        )
        return [_hit(r, 0.0) for r in rows]

    def speakers(self, owner: str) -> list[str]:
        """Every speaker named in the owner's passages."""
        return [
            r[0]
            for r in self.conn.execute(
                "SELECT DISTINCT speaker FROM passages WHERE owner = ? AND speaker IS NOT NULL",
                (owner,),
            )
        ]


_HIT_FIELDS = ("id", "document_id", "path", "seq", "speaker", "day", "heading", "stored", "words")


def _hit(r: Sequence, score: float) -> PassageHit:
    """A hit of a row (id, document_id, path, seq, speaker, day, heading, text, words,
    timed): its fields set directly, as the frozen dataclass's `__init__` would set them
    one `object.__setattr__` at a time, at a third of the cost (a search by meaning makes
    hundreds)."""
    hit = object.__new__(PassageHit)
    fields = hit.__dict__
    fields.update(zip(_HIT_FIELDS, r, strict=False))  # a search row has its score after
    fields["score"] = score
    fields["timed"] = bool(r[9])
    return hit
