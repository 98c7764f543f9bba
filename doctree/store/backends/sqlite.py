"""The SQLite dialect: FTS5 indexes, BEGIN IMMEDIATE, secure deletion."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from doctree.errors import DatabaseGoneError

if TYPE_CHECKING:
    from doctree.store.model import PassageSearch

_FTS = {"passages": "passages_fts", "recall": "recall_fts"}

TIDY_EVERY = 32
"""The documents' full-text index is merged once TIDY_EVERY of its entries have been
replaced (by this connection), a leaf page for every two (`SqliteDialect.tidy_documents_index`;
measured with bench/store.py: a one-line edit of a 2 KB note replaces about a page of
terms)."""

FREE_SHARE = 32
"""Free pages are given back to the file system once they are more than 1/FREE_SHARE of
the file (and at least `FREE_MIN`): see `release_free_pages`."""
FREE_MIN = 8


def release_free_pages(conn: sqlite3.Connection) -> None:
    """Give the file's free pages back to the file system when they have grown past a
    share of it. A file made by this doctree has `auto_vacuum = INCREMENTAL`
    (`doctree.store.db.connect`), so `incremental_vacuum` moves pages from the end of the
    file into the free ones and truncates it; in an older file it does nothing. Free
    pages are reused by later writes anyway: this only keeps a file that shrank (merged
    index segments, deleted passages) from keeping its largest size."""
    free = conn.execute("PRAGMA freelist_count").fetchone()[0]
    if free >= FREE_MIN and free * FREE_SHARE > conn.execute("PRAGMA page_count").fetchone()[0]:
        # Each step of the statement frees one page, and the sqlite3 module steps a
        # statement without result columns once: one statement per page (about 6 us).
        for _ in range(free):
            conn.execute("PRAGMA incremental_vacuum(1)").close()


class SqliteConnection(sqlite3.Connection):
    """A `sqlite3.Connection` that knows which file it opened (`file_identity`: path,
    device, inode), so that a file deleted or replaced under a running process is noticed
    before anything more is written to (or read from) the orphaned copy."""

    file_identity: tuple[str, int, int] | None = None

    def remember_file(self, path: str) -> None:
        try:
            st = os.stat(path)
        except FileNotFoundError:  # removed right after it was opened
            raise DatabaseGoneError(
                f"database {path!r}: the file was deleted or moved while in use"
            ) from None
        self.file_identity = (os.path.abspath(path), st.st_dev, st.st_ino)


def check_file(conn: sqlite3.Connection) -> None:
    """DatabaseGoneError if the file `conn` opened is no longer at its path (deleted,
    moved, or replaced by another file): writes would be lost with the orphaned copy."""
    identity = getattr(conn, "file_identity", None)
    if identity is None:
        return
    path, dev, ino = identity
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise DatabaseGoneError(
            f"database {path!r}: the file was deleted or moved while in use; nothing more "
            "is written to it (put it back, or start again with the database where it is)"
        ) from None
    except OSError:
        return  # cannot tell (permissions): SQLite reports what it cannot do itself
    if (st.st_dev, st.st_ino) != (dev, ino):
        raise DatabaseGoneError(
            f"database {path!r}: the file was replaced by another while in use; nothing "
            "more is written to the old one (start again to use the new file)"
        )


class SqliteDialect:
    name = "sqlite"
    row_locks = False  # one writer at a time: the file's write lock
    contentless_passages = True  # passages_fts, recall_fts keep terms only (migrations 002, 016)
    packed_passage_text = True  # passages.text holds encoding.encode_full of the text
    writes_in_with = False  # in-process: a statement more costs no round trip

    def index_hint(self, index: str) -> str:
        return f" INDEXED BY {index}"

    def one_of(self, column: str, values: Sequence[Any]) -> tuple[str, list[Any]]:
        return f"{column} IN ({', '.join('?' * len(values))})", list(values)

    def begin_write(self, conn: sqlite3.Connection) -> None:
        check_file(conn)
        conn.execute("BEGIN IMMEDIATE")

    def begin_read(self, conn: sqlite3.Connection) -> None:
        check_file(conn)
        conn.execute("BEGIN DEFERRED")
        # A WAL read transaction takes its snapshot at its first read of the file.
        conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()

    def location(self, conn: sqlite3.Connection) -> str | None:
        row = conn.execute("PRAGMA database_list").fetchone()
        return row[2] if row and row[2] else None

    def set_wait_timeout(self, conn: sqlite3.Connection, ms: int) -> None:
        conn.execute(f"PRAGMA busy_timeout = {int(ms)}")

    def prepare(self, conn: sqlite3.Connection) -> None:
        # Deleted content is overwritten with zeros, so an erased body leaves no bytes
        # behind in free space of the file (redaction, forget).
        conn.execute("PRAGMA secure_delete = ON")

    def queue_passages(self, conn: sqlite3.Connection, doc_id: int, owner: str) -> None:
        # No trigger does it (migration 015): a trigger on `documents` would give each of its
        # writes a statement journal, and FTS5 a segment of its own per write of a batch.
        # A document stays in the queue with the owner it was created with.
        conn.execute(
            "INSERT INTO passage_pending (document_id, owner) VALUES (?, ?)"
            " ON CONFLICT (document_id) DO NOTHING",
            (doc_id, owner),
        )

    def index_document(
        self, conn: sqlite3.Connection, doc_id: int, path: str, title: str, body: str
    ) -> None:
        conn.execute(
            "INSERT INTO documents_fts (rowid, path, title, body) VALUES (?, ?, ?, ?)",
            (doc_id, path, title, body),
        )

    def document_index_value(
        self, path: str, title: str, body: str | None
    ) -> tuple[str, str, list[Any]] | None:
        return None  # FTS5 is a table of its own (external content)

    def passage_index_value(
        self, index: str, text: str, surroundings: str, speaker: str, dates: str
    ) -> tuple[str, str, list[Any]] | None:
        return None

    def unindex_document(
        self, conn: sqlite3.Connection, doc_id: int, path: str, title: str, body: str | None
    ) -> None:
        # External content: the index is told the old values to remove.
        conn.execute(
            "INSERT INTO documents_fts (documents_fts, rowid, path, title, body)"
            " VALUES ('delete', ?, ?, ?, ?)",
            (doc_id, path, title, body),
        )

    def optimize_documents_index(self, conn: sqlite3.Connection) -> None:
        # One merged segment: the terms of erased text are gone from the index.
        conn.execute("INSERT INTO documents_fts (documents_fts) VALUES ('optimize')")

    def tidy_documents_index(self, conn: sqlite3.Connection, replaced: int) -> bool:
        # FTS5 writes each transaction's changes as a new segment, and an entry replaced
        # or removed stays in the older segments, with a marker in the new one, until the
        # two are merged: without merging, an index of documents edited over and over
        # holds every old version's terms (twice the index of the current documents). A
        # negative 'merge' merges all segments together, so many leaf pages per call. A
        # call costs about a millisecond however little it is asked to do, so it is made
        # once TIDY_EVERY entries have been replaced, for half as many pages: the work
        # follows what was written, whatever the index's size. (A bound of 16 pages let a
        # transaction of many edits write more than each merge took in, and FTS5 keeps a
        # merge it stopped half-way with its input and its output both: 500 notes edited
        # 1,250 times in transactions of 100 left the index at 1.6 times its merged size,
        # 1.07 times since. A page for each entry gets 1.0 there, but single edits then
        # cost 10-15% more CPU, a merge of 32 pages every 32 edits instead of 16.)
        if replaced < TIDY_EVERY:
            return False
        conn.execute(
            "INSERT INTO documents_fts (documents_fts, rank) VALUES ('merge', ?)",
            (-(replaced // 2),),
        )
        release_free_pages(conn)
        return True

    def search_documents(
        self,
        conn: sqlite3.Connection,
        match: str,
        owner: str,
        scope: str,
        scope_params: Sequence[Any],
        limit: int,
        bodies: bool = False,
    ) -> list[tuple[Any, ...]]:
        rows = conn.execute(
            "SELECT d.id, d.path, d.title, d.version, d.updated_at, -rank AS score"
            " FROM documents_fts JOIN documents d ON d.id = documents_fts.rowid"
            " WHERE documents_fts MATCH ? AND d.owner = ?" + scope + " ORDER BY rank LIMIT ?",
            [match, owner, *scope_params, limit],
        ).fetchall()
        # The bodies of the hits only, by a statement of their own: in the ranking statement,
        # each matching row's body would be read and decoded before the LIMIT (a file has no
        # round trip to save).
        texts = _indexed_bodies(conn, [r[0] for r in rows]) if bodies and rows else {}
        return [(*r, texts.get(r[0])) for r in rows]

    def index_passage(
        self,
        conn: sqlite3.Connection,
        index: str,
        passage_id: int,
        owner: str,
        text: str,
        surroundings: str,
        speaker: str,
        dates: str,
    ) -> None:
        conn.execute(
            f"INSERT INTO {_FTS[index]} (rowid, owner, text, surroundings, speaker, dates)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (passage_id, owner, text, surroundings, speaker, dates),
        )

    def index_passage_entries(
        self,
        conn: sqlite3.Connection,
        index: str,
        entries: Sequence[tuple[int, str, str, str, str, str]],
    ) -> None:
        conn.executemany(
            f"INSERT INTO {_FTS[index]} (rowid, owner, text, surroundings, speaker, dates)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            entries,
        )

    def unindex_passages(
        self, conn: sqlite3.Connection, index: str, ids_sql: str, params: Sequence[Any]
    ) -> None:
        conn.execute(f"DELETE FROM {_FTS[index]} WHERE rowid IN ({ids_sql})", params)

    def unindex_passage_entries(
        self,
        conn: sqlite3.Connection,
        index: str,
        entries: Sequence[tuple[int, str, str, str, str, str]],
    ) -> None:
        # A contentless FTS5 table is told the values an entry was made from.
        table = _FTS[index]
        conn.executemany(
            f"INSERT INTO {table} ({table}, rowid, owner, text, surroundings, speaker, dates)"
            " VALUES ('delete', ?, ?, ?, ?, ?, ?)",
            entries,
        )

    def optimize_passage_index(self, conn: sqlite3.Connection, index: str) -> None:
        table = _FTS[index]
        conn.execute(f"INSERT INTO {table} ({table}) VALUES ('optimize')")

    def rewrite_passage_index(
        self,
        conn: sqlite3.Connection,
        index: str,
        owner: str,
        texts: dict[int, str],
        surroundings_map: Callable[[str], str],
        removed: Sequence[str],
    ) -> int:
        # Both passage indexes keep terms only (migrations 002 and 016): an erasure takes
        # their entries out with the values they were made from, which their rows give
        # (`doctree.store.passages.PassageIndex`, `doctree.store.recall.RecallIndex`).
        raise TypeError(f"the SQLite index {_FTS[index]!r} keeps no text to rewrite")

    def search_passages(
        self, conn: sqlite3.Connection, index: str, columns: str, search: PassageSearch
    ) -> list[Any]:
        table = _FTS[index]
        alias = columns.split(".", 1)[0].strip()
        passages = "passages" if index == "passages" else "recall_passages"
        w = ", ".join(f"{float(x):.4f}" for x in (0.0, *search.weights))
        # The owner is not part of the MATCH: a phrase matching every row of the owner costs
        # a read of its whole doclist, and adds nothing to BM25 (the owner column weighs 0).
        # Nor is it checked on the row of every match: a match's row is a lookup in a large
        # table, and the matches of a common word are thousands. The index gives its best
        # `reach` matches (ids and scores only, sorted by score then id), and the owner and
        # scope are checked on those rows alone; when fewer than `limit` pass and the index
        # has more, it is asked again for as many as the share that passed says are needed,
        # and at last for every match. The result is the best `limit` of the owner's matches
        # in scope, ties in id order, as one check of every match would give.
        match = f"{{text surroundings speaker dates}} : ({search.match})"
        limit = search.limit
        if limit <= 0:
            return []
        ranked = (
            f"SELECT rowid AS id, -bm25({table}, {w}) AS score FROM {table}"
            f" WHERE {table} MATCH ? ORDER BY score DESC, rowid LIMIT ?"
        )
        # A LEFT JOIN: a match of another owner or out of scope comes back as NULLs, so that
        # one statement says both what passed and whether the index had more.
        sql = (
            f"SELECT {columns}, m.score FROM ({ranked}) m"
            f" LEFT JOIN {passages} {alias} ON {alias}.id = m.id AND {alias}.owner = ?"
            + search.scope
            + " ORDER BY m.score DESC, m.id"
        )
        params = [search.owner, *search.scope_params]
        reach = limit
        while True:
            found = conn.execute(sql, [match, reach, *params]).fetchall()
            rows = [r for r in found if r[0] is not None]
            if len(rows) >= limit or len(found) < reach or reach < 0:
                return rows[:limit]
            # Ask for as many as the share of matches that passed says `limit` needs (with a
            # margin); after a second miss, for every match.
            reach = -1 if reach > limit else max(4 * reach, 2 * reach * limit // max(len(rows), 1))

    def any_passage(self, conn: sqlite3.Connection, index: str, match: str, owner: str) -> bool:
        table = _FTS[index]
        passages = "passages" if index == "passages" else "recall_passages"
        # CROSS JOIN: the index's matches first, then the owner of each until one is the
        # owner's (never a probe of the index for each of the owner's rows)
        found = conn.execute(
            f"SELECT 1 FROM {table} m CROSS JOIN {passages} p ON p.id = m.rowid"
            f" WHERE {table} MATCH ? AND p.owner = ? LIMIT 1",
            [f"{{text surroundings speaker dates}} : ({match})", owner],
        ).fetchone()
        return found is not None


def _indexed_bodies(conn: sqlite3.Connection, doc_ids: Sequence[int]) -> dict[int, str]:
    """The current bodies of these documents as the index reads them, by id (through the
    view `documents_text`)."""
    marks = ",".join("?" * len(doc_ids))
    rows = conn.execute(
        f"SELECT rowid, body FROM documents_fts WHERE rowid IN ({marks})", list(doc_ids)
    )
    return {r[0]: r[1] for r in rows}


SQLITE = SqliteDialect()
