"""The recall index: the verbatim record of what was handed to the memory agent, searchable.

Every transcript record the memory agent receives is kept here word for word, a passage per
record (long records cut at sentence ends), with the session it belongs to, its speaker and
its time — whatever the agent chose to write; word for word except secrets, which are
stored as their markers (`doctree.store.secrets`). `doctree.memory.recall` decides how records
become passages and how passages are ranked and shown; this module only stores, searches and
erases them. All SQL for recall lives here.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from doctree.store.backends import Dialect, dialect_of, write_transaction
from doctree.store.model import PassageSearch
from doctree.store.secrets import mask_text

#: Texts `mask_text` returned as they were (holding no secret; at most `_CLEAN_MAX_CHARS`
#: characters of them, all forgotten when full): a record's text is masked before it is cut
#: into passages (`doctree.memory.recall`) and each passage again here, and a short record's
#: passage is the very text masked a moment before, however many records a session hands
#: over at once (a count of texts, 256, was fewer than one run of a long transcript).
_CLEAN: dict[str, None] = {}
_CLEAN_MAX_CHARS = 4_000_000
_clean_chars = 0


def masked(text: str) -> str:
    """`mask_text(text)`, remembered for the last texts found to hold no secret."""
    if text in _CLEAN:
        return text
    out = mask_text(text)
    if out is text:
        known_clean(text)
    return out


def known_clean(text: str) -> None:
    """Remember `text` as one that `mask_text` returns as it is (for `masked`): a caller
    that knows it (`doctree.store.secrets.may_hold_secret`) spares `masked` the work."""
    global _clean_chars
    if _clean_chars + len(text) > _CLEAN_MAX_CHARS:
        _CLEAN.clear()
        _clean_chars = 0
    _CLEAN[text] = None
    _clean_chars += len(text)


class RecallRow(NamedTuple):
    """One passage to store: its place in the session, who said it and when, and what helps
    find it (`surroundings`: the records around it; `dates`: date tokens). (A named tuple:
    made for every record handed over, at a third of a frozen dataclass's cost.)"""

    record: str
    piece: int
    speaker: str
    time: str
    day: str | None
    text: str
    words: int
    surroundings: str = ""
    dates: str = ""


@dataclass(frozen=True)
class RecallHit:
    """A stored passage; `score` is BM25 turned positive (higher is better), 0 when listed."""

    id: int
    session_id: str
    record: str
    piece: int
    speaker: str
    time: str
    day: str | None
    text: str
    words: int
    score: float = 0.0


@dataclass(frozen=True)
class HandedOver:
    """Records of a session handed to the memory agent and not yet in the recall record:
    those with after_id < id <= until_id in `session_history`."""

    session_id: str
    owner: str
    after_id: int
    until_id: int


_ONE_ROW = "(?, ?, ?, ?, ?, ?, ?, ?, ?{})"
_INSERT = (
    "INSERT INTO recall_passages (owner, session_id, record, piece,"
    " speaker, time, day, text, words{}) VALUES "
    + _ONE_ROW
    + " ON CONFLICT (owner, session_id, record, piece) DO NOTHING"
)
#: The index a table of its own (SQLite): one row, and `_ROWS_PER_INSERT` rows.
_INSERT_ROW = _INSERT.format("", "")
_ROWS_PER_INSERT = 50
_INSERT_ROWS = _INSERT_ROW.replace(
    _ONE_ROW.format(""), ", ".join([_ONE_ROW.format("")] * _ROWS_PER_INSERT)
)
_COLUMNS = "r.id, r.session_id, r.record, r.piece, r.speaker, r.time, r.day, r.text, r.words"


def _hit(row: Sequence, score: float = 0.0) -> RecallHit:
    id_, session_id, record, piece, speaker, time, day, text, words = row[:9]
    return RecallHit(id_, session_id, record, piece, speaker, time, day, text, words, score)


class RecallIndex:
    """Recall passages of every owner in one SQLite database (see migrations/001_baseline.sql)."""

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn

    def add(self, owner: str, session_id: str, rows: Sequence[RecallRow]) -> int:
        """Store these passages of one session; a passage already stored (the same record
        and piece, handed over again) is left as it is. Returns how many were new. Joins the
        caller's transaction when one is open."""
        return self.add_sessions([(owner, session_id, rows)])

    def add_sessions(self, batch: Sequence[tuple[str, str, Sequence[RecallRow]]]) -> int:
        """`add` for many sessions at once, (owner, session id, passages) each: a few
        statements for the whole batch rather than two per passage."""
        dialect = dialect_of(self.conn)
        values: list[tuple[Any, ...]] = []
        fields: list[tuple[str, str, str, str]] = []
        for owner, session_id, rows in batch:
            for r in rows:
                # no passage stores a secret, whoever built it (`doctree.store.secrets`)
                text = masked(r.text)
                values.append(
                    (owner, session_id, r.record, r.piece, r.speaker, r.time, r.day, text, r.words)
                )
                fields.append((text, masked(r.surroundings), r.speaker, r.dates))
        if not values:
            return 0
        inline = [dialect.passage_index_value("recall", *f) for f in fields]
        if inline[0] is not None:
            # The index is a column of the row: every passage in one batch of INSERTs.
            column, value, _ = inline[0]
            cur = self.conn.executemany(
                _INSERT.format(f", {column}", f", {value}"),
                [(*v, *ix[2]) for v, ix in zip(values, inline, strict=True) if ix is not None],
            )
            return max(cur.rowcount, 0)
        # The index is a table of its own, keyed by the passage's id: the rows by one
        # prepared statement, then their entries at once (in one transaction, so that the
        # new rows' ids are the ones just given, see `_new_ids`).
        if self.conn.in_transaction:
            return self._add_indexed(dialect, values, fields)
        with write_transaction(self.conn):
            return self._add_indexed(dialect, values, fields)

    def _add_indexed(
        self,
        dialect: Dialect,
        values: list[tuple[Any, ...]],
        fields: list[tuple[str, str, str, str]],
    ) -> int:
        new = 0
        full = len(values) - len(values) % _ROWS_PER_INSERT
        for start in range(0, full, _ROWS_PER_INSERT):
            chunk = values[start : start + _ROWS_PER_INSERT]
            new += self.conn.execute(_INSERT_ROWS, [x for v in chunk for x in v]).rowcount
        if full < len(values):
            new += self.conn.executemany(_INSERT_ROW, values[full:]).rowcount
        if not new:
            return 0
        ids = self._new_ids(values, new)
        entries = [
            (id_, v[0], *f)
            for v, f, id_ in zip(values, fields, ids, strict=True)
            if id_ is not None
        ]
        dialect.index_passage_entries(self.conn, "recall", entries)
        return new

    def _new_ids(self, values: list[tuple[Any, ...]], new: int) -> list[int | None]:
        """The ids of the rows of `values` just inserted (`new` of them, in this write
        transaction), None for those that were stored already. The ids `AUTOINCREMENT`
        gives are larger than any before, and the last is `last_insert_rowid()`: when every
        row was new they are the `new` ids up to it, in order; else the `new` largest ids
        up to it, matched by key (a conflict may leave a gap)."""
        last = self.conn.execute("SELECT last_insert_rowid()").fetchone()[0]
        if new == len(values):
            return list(range(last - new + 1, last + 1))
        keyed = {
            tuple(key): id_
            for id_, *key in self.conn.execute(
                "SELECT id, owner, session_id, record, piece FROM recall_passages"
                " WHERE id <= ? ORDER BY id DESC LIMIT ?",
                (last, new),
            )
        }
        # (a passage given twice is indexed once)
        return [keyed.pop(v[:4], None) for v in values]

    # -- records handed over, not yet stored (the catch-up's work list) ------------------

    def note_handed_over(self, owner: str, session_id: str, after_id: int, until_id: int) -> None:
        """Note that the records of `session_id` with after_id < id <= until_id were handed
        to the memory agent, for a catch-up to store (`doctree.memory.recall.catch_up_recall`).
        A note not yet caught up is widened to cover both."""
        self.conn.execute(
            "INSERT INTO recall_pending (session_id, owner, after_id, until_id)"
            " VALUES (?, ?, ?, ?) ON CONFLICT (session_id) DO UPDATE SET"
            " after_id = CASE WHEN excluded.after_id < recall_pending.after_id"
            "  THEN excluded.after_id ELSE recall_pending.after_id END,"
            " until_id = CASE WHEN excluded.until_id > recall_pending.until_id"
            "  THEN excluded.until_id ELSE recall_pending.until_id END",
            (session_id, owner, after_id, until_id),
        )

    def any_pending(self, owner: str | None = None) -> bool:
        """Whether records handed over (of `owner`, or of anyone) wait for a catch-up."""
        if owner is None:
            row = self.conn.execute("SELECT 1 FROM recall_pending LIMIT 1").fetchone()
        else:
            row = self.conn.execute(
                "SELECT 1 FROM recall_pending WHERE owner = ? LIMIT 1", (owner,)
            ).fetchone()
        return row is not None

    def pending(self, owner: str | None = None, limit: int = 1000) -> list[HandedOver]:
        """The notes of records waiting for a catch-up (of `owner`, or of anyone)."""
        sql = "SELECT session_id, owner, after_id, until_id FROM recall_pending"
        params: list[Any] = []
        if owner is not None:
            sql += " WHERE owner = ?"
            params.append(owner)
        rows = self.conn.execute(sql + " ORDER BY session_id LIMIT ?", [*params, limit])
        return [HandedOver(*r) for r in rows.fetchall()]

    def caught_up(self, notes: Sequence[HandedOver]) -> None:
        """Drop these notes, their records stored; a note widened since stays."""
        self.conn.executemany(
            "DELETE FROM recall_pending WHERE session_id = ? AND after_id = ? AND until_id = ?",
            [(n.session_id, n.after_id, n.until_id) for n in notes],
        )

    def search(
        self,
        owner: str,
        match: str,
        *,
        limit: int = 300,
        weights: tuple[float, float, float, float] = (1.0, 0.3, 0.0, 1.0),
    ) -> list[RecallHit]:
        """Passages matching an FTS5 expression, best first, BM25 weighted per column
        (text, surroundings, speaker, dates)."""
        if not match:
            return []
        rows = dialect_of(self.conn).search_passages(
            self.conn, "recall", _COLUMNS, PassageSearch(match, owner, int(limit), weights)
        )
        return [_hit(r, r[9]) for r in rows]

    def matches(self, owner: str, match: str) -> bool:
        """Whether any of the owner's passages matches an FTS5 expression (no scoring: one
        match found is enough)."""
        return bool(match) and dialect_of(self.conn).any_passage(self.conn, "recall", match, owner)

    def by_ids(self, owner: str, ids: Sequence[int]) -> list[RecallHit]:
        """The owner's passages with these ids, in the order of `ids` (score 0)."""
        found: dict[int, RecallHit] = {}
        for start in range(0, len(ids), 500):
            part = [int(i) for i in ids[start : start + 500]]
            marks = ", ".join("?" * len(part))
            rows = self.conn.execute(
                f"SELECT {_COLUMNS} FROM recall_passages r WHERE r.owner = ? AND r.id IN ({marks})",
                [owner, *part],
            )
            for r in rows:
                found[r[0]] = _hit(r)
        return [found[int(i)] for i in ids if int(i) in found]

    def passages(self, owner: str, session_id: str | None = None) -> Iterator[RecallHit]:
        """The owner's passages (of one session, if given), in the order they were stored.
        For erasure and inspection, never for answering a query."""
        sql = f"SELECT {_COLUMNS} FROM recall_passages r WHERE r.owner = ?"
        params: list[object] = [owner]
        if session_id is not None:
            sql += " AND r.session_id = ?"
            params.append(session_id)
        for row in self.conn.execute(sql + " ORDER BY r.id", params):
            yield _hit(row)

    def count(self, owner: str, *, limit: int | None = None) -> int:
        """How many passages the owner has (at most `limit`, counted no further)."""
        if limit is not None:
            return self.conn.execute(
                "SELECT COUNT(*) FROM (SELECT 1 FROM recall_passages WHERE owner = ? LIMIT ?) t",
                (owner, int(limit)),
            ).fetchone()[0]
        return self.conn.execute(
            "SELECT COUNT(*) FROM recall_passages WHERE owner = ?", (owner,)
        ).fetchone()[0]

    def rewrite(
        self,
        owner: str,
        texts: dict[int, tuple[str, int]],
        surroundings_map: Callable[[str], str],
        removed: Sequence[str],
    ) -> int:
        """Erase text from `owner`'s passages in place: the passages in `texts` (id: new
        text, its words) get their new text, and every index entry its surroundings without the
        erased text (see `Dialect.rewrite_passage_index`). Returns how many surroundings
        changed. Joins the caller's transaction when one is open."""
        for i, (text, words) in texts.items():
            self.conn.execute(
                "UPDATE recall_passages SET text = ?, words = ? WHERE id = ?", (text, words, i)
            )
        dialect = dialect_of(self.conn)
        changed = dialect.rewrite_passage_index(
            self.conn,
            "recall",
            owner,
            {i: t for i, (t, _) in texts.items()},
            surroundings_map,
            removed,
        )
        dialect.optimize_passage_index(self.conn, "recall")
        return changed

    def erase(self, ids: Sequence[int]) -> int:
        """Delete these passages from the record and its index; returns how many."""
        n = 0
        for i in ids:
            dialect_of(self.conn).unindex_passages(self.conn, "recall", "?", (int(i),))
            n += self.conn.execute("DELETE FROM recall_passages WHERE id = ?", (int(i),)).rowcount
        return n
