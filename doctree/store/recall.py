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

SURROUNDING_WORDS = 40
"""Words of each neighbouring record in a passage's surroundings. The SQLite index keeps
no copy of what it indexed: an entry is taken out with its surroundings derived again from
the rows (`surroundings`), so changing this needs a migration that rebuilds the index."""

BEFORE = 1
"""`RecallRow.around`: the passage's surroundings hold the record before it."""
AFTER = 2
"""`RecallRow.around`: the passage's surroundings hold the record after it."""

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


def forget_clean() -> None:
    """Drop every text `masked` remembers: an erase calls it, so that no text it took out of
    the store stays in this process's memory either."""
    global _clean_chars
    _CLEAN.clear()
    _clean_chars = 0


class RecallRow(NamedTuple):
    """One passage to store: its place in the session, who said it and when, and what helps
    find it (`around`: which of the records next to it in the hand-over its surroundings
    hold, `BEFORE` | `AFTER`, see `surroundings`; `dates`: date tokens). (A named tuple:
    made for every record handed over, at a third of a frozen dataclass's cost.)"""

    record: str
    piece: int
    speaker: str
    time: str
    day: str | None
    text: str
    words: int
    around: int = 0
    dates: str = ""


def clip(text: str) -> str:
    """The first `SURROUNDING_WORDS` words of `text`, joined by single spaces."""
    return " ".join(text.split()[:SURROUNDING_WORDS])


def _runs(rows: Sequence[Sequence[Any]], at: int = 0) -> list[int]:
    """The index of the first row of each record in `rows` of one session in stored order,
    each row's record key at `at` and its piece after it: a record is a run of rows of one
    record key whose pieces rise (a piece 0 starts another)."""
    out = []
    record, piece = None, 0
    for i, r in enumerate(rows):
        if r[at] != record or r[at + 1] <= piece:
            out.append(i)
        record, piece = r[at], r[at + 1]
    return out


def surroundings(
    rows: Sequence[tuple[str, int, str, int]], starts: list[int] | None = None
) -> list[str]:
    """The surroundings of each passage of one session, from its rows (record, piece,
    text, around) in the order they were stored: the first `SURROUNDING_WORDS` words of the
    record before it and of the record after it, each where `around` says so (a record's
    words are its pieces' joined, see `_runs`; `starts` is what it gives, when known).

    What the SQLite index was made from, derived again when an entry is taken out of it
    (it keeps no copy): the same rows give the same surroundings."""
    if not rows:
        return []
    if starts is None:
        starts = _runs(rows)
    if len(starts) == len(rows):  # a row a record (the common case)
        clips = [clip(r[2]) for r in rows]
        runs: Sequence[int] = range(len(rows))
    else:
        ends = [*starts[1:], len(rows)]
        clips = [clip(" ".join(r[2] for r in rows[a:b])) for a, b in zip(starts, ends, strict=True)]
        runs = [k for k, (a, b) in enumerate(zip(starts, ends, strict=True)) for _ in range(a, b)]
    last = len(starts) - 1
    out = []
    for (_, _, _, around), k in zip(rows, runs, strict=True):
        before = clips[k - 1] if around & BEFORE and k > 0 else ""
        after = clips[k + 1] if around & AFTER and k < last else ""
        out.append(f"{before} {after}" if before and after else before or after)
    return out


def _tidy_around(rows: Sequence[RecallRow]) -> tuple[list[int], list[int]]:
    """The `around` of each row of one session's hand-over as it is stored: no record
    before the first, none after the last (a later hand-over's records are never its
    surroundings, so storing them changes no entry of the index); and where its records
    start (`_runs`)."""
    flags = [r.around for r in rows]
    starts = _runs(rows)
    if starts:
        for i in range(0, starts[1] if len(starts) > 1 else len(rows)):
            flags[i] &= ~BEFORE
        for i in range(starts[-1], len(rows)):
            flags[i] &= ~AFTER
    return flags, starts


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
_ROWS_PER_INSERT = 50
#: SQLite's: the row keeps what its index entry is made from besides its text (migration 016).
_INSERT_KEPT = _INSERT.format(", dates, around", ", ?, ?")
_INSERT_KEPT_ROWS = _INSERT_KEPT.replace(
    _ONE_ROW.format(", ?, ?"), ", ".join([_ONE_ROW.format(", ?, ?")] * _ROWS_PER_INSERT)
)
#: A stored row as the index entry is derived from it (`_entries`).
_KEPT = "id, owner, record, piece, text, speaker, dates, around"
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
        spans: list[tuple[int, int, list[int]]] = []  # each session's rows in `values`
        for owner, session_id, rows in batch:
            start = len(values)
            flags, starts = _tidy_around(rows)
            for r, around in zip(rows, flags, strict=True):
                # no passage stores a secret, whoever built it (`doctree.store.secrets`)
                values.append(
                    (owner, session_id, r.record, r.piece, r.speaker, r.time, r.day,
                     masked(r.text), r.words, r.dates, around)
                )  # fmt: skip
            if len(values) > start:
                spans.append((start, len(values), starts))
        if not values:
            return 0
        if not dialect.contentless_passages:
            return self._add_inline(dialect, values, spans)
        # The index is a table of its own, keyed by the passage's id: the rows by one
        # prepared statement, then their entries at once (in one transaction, so that the
        # new rows' ids are the ones just given, see `_new_ids`).
        if self.conn.in_transaction:
            return self._add_indexed(dialect, values, spans)
        with write_transaction(self.conn):
            return self._add_indexed(dialect, values, spans)

    def _add_inline(
        self,
        dialect: Dialect,
        values: list[tuple[Any, ...]],
        spans: list[tuple[int, int, list[int]]],
    ) -> int:
        """The index is a column of the row (PostgreSQL): every passage in one batch of
        INSERTs, its surroundings masked as a whole."""
        params: list[tuple[Any, ...]] = []
        insert = ""
        for a, b, starts in spans:
            rows = values[a:b]
            around = surroundings([(v[2], v[3], v[7], v[10]) for v in rows], starts)
            for v, text in zip(rows, around, strict=True):
                ix = dialect.passage_index_value("recall", v[7], masked(text), v[4], v[9])
                assert ix is not None  # (`contentless_passages` is False)
                insert = _INSERT.format(f", {ix[0]}", f", {ix[1]}")
                params.append((*v[:9], *ix[2]))
        cur = self.conn.executemany(insert, params)
        return max(cur.rowcount, 0)

    def _add_indexed(
        self,
        dialect: Dialect,
        values: list[tuple[Any, ...]],
        spans: list[tuple[int, int, list[int]]],
    ) -> int:
        new = 0
        full = len(values) - len(values) % _ROWS_PER_INSERT
        for start in range(0, full, _ROWS_PER_INSERT):
            chunk = values[start : start + _ROWS_PER_INSERT]
            new += self.conn.execute(_INSERT_KEPT_ROWS, [x for v in chunk for x in v]).rowcount
        if full < len(values):
            new += self.conn.executemany(_INSERT_KEPT, values[full:]).rowcount
        if not new:
            return 0
        ids = self._new_ids(values, new)
        entries: list[tuple[int, str, str, str, str, str]] = []
        settle: list[tuple[str, str, set[int]]] = []
        for a, b, starts in spans:
            span_ids = ids[a:b]
            every = [i for i in span_ids if i is not None]
            if values[a][3] == 0 and len(every) == b - a:
                # Every row new, after every row stored before (a higher id) and starting a
                # record of its own (a piece 0): the entries are made from these rows alone.
                rows = values[a:b]
                around = surroundings([(v[2], v[3], v[7], v[10]) for v in rows], starts)
                entries.extend(
                    (i, v[0], v[7], text, v[4], v[9])
                    for i, v, text in zip(every, rows, around, strict=True)
                )
            elif every:
                # some stored before (a retry): the session's entries made again from its rows
                settle.append((values[a][0], values[a][1], set(every)))
        dialect.index_passage_entries(self.conn, "recall", entries)
        for owner, session_id, ids_new in settle:
            rows = self._rows(owner, session_id)
            before = _entries([r for r in rows if r[0] not in ids_new])
            self._apply(before, _entries(self._close_last(rows)))
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
        erased text: on SQLite made again from the rewritten rows (`surroundings`), elsewhere
        as `Dialect.rewrite_passage_index` says. Returns how many surroundings changed. Joins
        the caller's transaction when one is open. The texts `masked` remembers are dropped
        (`forget_clean`): the erased text stays in no copy, in memory either."""
        forget_clean()
        dialect = dialect_of(self.conn)
        if dialect.contentless_passages:
            changed = self._reindexed(owner, list(texts), lambda: self._set_texts(texts))
        else:
            self._set_texts(texts)
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

    def _set_texts(self, texts: dict[int, tuple[str, int]]) -> None:
        self.conn.executemany(
            "UPDATE recall_passages SET text = ?, words = ? WHERE id = ?",
            [(text, words, i) for i, (text, words) in texts.items()],
        )

    def erase(self, ids: Sequence[int]) -> int:
        """Delete these passages from the record and its index; returns how many. On
        SQLite the records next to a record erased whole no longer hold it in their
        surroundings, and every entry of its session is made again from the rows left."""
        ids = [int(i) for i in ids]
        dialect = dialect_of(self.conn)
        if not dialect.contentless_passages:
            n = 0
            for i in ids:
                dialect.unindex_passages(self.conn, "recall", "?", (i,))
                n += self.conn.execute("DELETE FROM recall_passages WHERE id = ?", (i,)).rowcount
            return n
        gone = set(ids)
        n = 0

        def delete() -> None:
            nonlocal n
            for owner, session_id in self._sessions_of(ids):
                rows = self._rows(owner, session_id)
                starts = _runs(rows, 2)
                ends = [*starts[1:], len(rows)]
                whole = [
                    all(r[0] in gone for r in rows[a:b]) for a, b in zip(starts, ends, strict=True)
                ]
                flags = {r[0]: r[7] for r in rows}
                for k, (a, b) in enumerate(zip(starts, ends, strict=True)):
                    if not whole[k]:
                        continue
                    if k > 0 and not whole[k - 1]:
                        for r in rows[starts[k - 1] : a]:
                            flags[r[0]] &= ~AFTER
                    if k + 1 < len(starts) and not whole[k + 1]:
                        for r in rows[b : ends[k + 1]]:
                            flags[r[0]] &= ~BEFORE
                self.conn.executemany(
                    "UPDATE recall_passages SET around = ? WHERE id = ?",
                    [(f, r[0]) for r in rows if (f := flags[r[0]]) != r[7] and r[0] not in gone],
                )
            for i in ids:
                n += self.conn.execute("DELETE FROM recall_passages WHERE id = ?", (i,)).rowcount

        self._reindexed(None, ids, delete)
        return n

    # -- the SQLite index, made from the rows (it keeps no copy of them) ------------------

    def entries(self, owner: str | None = None) -> list[tuple[int, str, str, str, str, str]]:
        """What the index entry of each passage (of `owner`, or of everyone) was made from,
        (id, owner, text, surroundings, speaker, dates), in id order: what an entry is taken
        out of the SQLite index with. For inspection and tests."""
        sql = "SELECT DISTINCT owner, session_id FROM recall_passages"
        params: list[Any] = []
        if owner is not None:
            sql += " WHERE owner = ?"
            params.append(owner)
        out: dict[int, tuple[int, str, str, str, str, str]] = {}
        for o, session_id in self._plain(sql, params):
            out.update(_entries(self._rows(o, session_id)))
        return [out[i] for i in sorted(out)]

    def _rows(self, owner: str, session_id: str) -> list[tuple[Any, ...]]:
        """The stored rows of one session (`_KEPT`), in the order they were stored."""
        return self._plain(
            f"SELECT {_KEPT} FROM recall_passages WHERE owner = ? AND session_id = ? ORDER BY id",
            (owner, session_id),
        )

    def _plain(self, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        """The rows of a query as plain tuples, whatever the connection's row factory."""
        cur = self.conn.cursor()
        cur.row_factory = None
        return cur.execute(sql, params).fetchall()

    def _sessions_of(self, ids: Sequence[int]) -> list[tuple[str, str]]:
        """The (owner, session id) of these passages."""
        found: set[tuple[str, str]] = set()
        for start in range(0, len(ids), 500):
            part = [int(i) for i in ids[start : start + 500]]
            marks = ", ".join("?" * len(part))
            found.update(
                self._plain(
                    f"SELECT DISTINCT owner, session_id FROM recall_passages WHERE id IN ({marks})",
                    part,
                )
            )
        return sorted(found)

    def _close_last(self, rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
        """`rows` of one session with no record after its last one (`_tidy_around`),
        stored so: a later hand-over's records then change no entry."""
        if not rows:
            return rows
        last = _runs(rows, 2)[-1]
        open_ = [r[0] for r in rows[last:] if r[7] & AFTER]
        if not open_:
            return rows
        self.conn.executemany(
            "UPDATE recall_passages SET around = around & ? WHERE id = ?",
            [(~AFTER, i) for i in open_],
        )
        return [*rows[:last], *(r[:7] + (r[7] & ~AFTER,) for r in rows[last:])]

    def _reindexed(self, owner: str | None, ids: Sequence[int], change: Callable[[], None]) -> int:
        """Run `change` (a rewrite or deletion of the rows `ids`) with the index kept in
        line: every entry of their sessions made from the rows before it and after it, the
        entries that differ taken out with what they were made from and made again.
        Returns how many entries left have other surroundings."""
        sessions = self._sessions_of(ids)
        if owner is not None:
            sessions = [s for s in sessions if s[0] == owner]
        before: dict[int, tuple[int, str, str, str, str, str]] = {}
        for o, session_id in sessions:
            before.update(_entries(self._rows(o, session_id)))
        change()
        after: dict[int, tuple[int, str, str, str, str, str]] = {}
        for o, session_id in sessions:
            after.update(_entries(self._close_last(self._rows(o, session_id))))
        return self._apply(before, after)

    def _apply(
        self,
        before: dict[int, tuple[int, str, str, str, str, str]],
        after: dict[int, tuple[int, str, str, str, str, str]],
    ) -> int:
        """Bring the index from the entries `before` to `after` (by id): those that changed
        or went taken out, those that changed or came made. Returns how many entries kept
        have other surroundings."""
        dialect = dialect_of(self.conn)
        dialect.unindex_passage_entries(
            self.conn, "recall", [e for i, e in before.items() if after.get(i) != e]
        )
        dialect.index_passage_entries(
            self.conn, "recall", [e for i, e in after.items() if before.get(i) != e]
        )
        return sum(1 for i, e in after.items() if i in before and before[i][3] != e[3])


def _entries(rows: Sequence[tuple[Any, ...]]) -> dict[int, tuple[int, str, str, str, str, str]]:
    """The index entries (id, owner, text, surroundings, speaker, dates) of one session's
    stored rows (`_KEPT`, in stored order), by id."""
    around = surroundings([(r[2], r[3], r[4], r[7]) for r in rows])
    return {r[0]: (r[0], r[1], r[4], s, r[5], r[6]) for r, s in zip(rows, around, strict=True)}
