"""Records: a session's history. Each record gets an increasing id; appending one
invalidates its session once more than 5 records are unprocessed. Secrets in a record are
stored as markers, never as they were given.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from doctree.errors import UserError
from doctree.sessions.sessions import Sessions
from doctree.sessions.transcripts import KINDS, TEXT_KINDS, check_time
from doctree.store.paths import require_text
from doctree.store.secrets import asks_for_secret, mask_answer, mask_value, may_hold_secret
from doctree.timeutil import now_iso

#: A session is invalidated once more than this many records are unprocessed (the 6th).
UNPROCESSED_LIMIT = 5
#: Sessions whose records one statement of `Records.noted_history` reads (3 parameters each).
_RANGES_PER_READ = 300


@dataclass(frozen=True)
class HistoryRecord:
    """One record of a session's history: content is a str for text kinds, a dict for tools."""

    id: int
    session_id: str
    kind: str
    content: str | dict[str, Any]
    time: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


#: The columns `_record` reads, in its order.
_COLUMNS = "id, session_id, kind, content, time"


def _record(row: Sequence[Any]) -> HistoryRecord:
    """A record from a row of `_COLUMNS` (read by position: a row by name costs more)."""
    return HistoryRecord(row[0], row[1], row[2], json.loads(row[3]), row[4])


#: What a reader already holds of records, by id: the content as stored (JSON) and the
#: record decoded from it (`Records.read_history`, `Records.noted_history`).
Known = Mapping[int, tuple[str, HistoryRecord]]


def _masked_json(content: str | dict[str, Any]) -> str:
    """The JSON of `content` with every string in it masked (`mask_value`), keys included.
    Encoded first: JSON writes a word a secret needs as it is (it escapes only quotes,
    backslashes and control characters, which no such word holds), so an encoding that holds
    none (`may_hold_secret`) holds none in any of its strings and is the answer as it is:
    one test for a tool call's record, not one per string. A capital sigma is put in lower
    case by the letters around it (final or not), so a text with one is masked string by
    string."""
    encoded = json.dumps(content, ensure_ascii=False)
    if "\u03a3" not in encoded and not may_hold_secret(encoded):
        return encoded
    return json.dumps(mask_value(content), ensure_ascii=False)


#: A reply longer than this is read on its own: a value given in reply to a question is short.
_REPLY_CHARS = 400


def _encode_record(
    kind: str, content: str | dict[str, Any], time: str | None, asked: str | None = None
) -> tuple[str, str, str | None]:
    """(kind, content as stored, time) of a history record, checked; every secret in the
    content becomes its marker before anything is written, and a short text's value given
    in reply to `asked`, what the session's text before it asked for ("What's the door
    code?" then "4471"; `asks_for_secret`), too."""
    if kind not in KINDS:
        raise UserError(f"history kind {kind!r}: must be one of {', '.join(KINDS)}")
    if kind in TEXT_KINDS and not isinstance(content, str):
        raise UserError(f"a {kind!r} record needs text content, not {type(content).__name__}")
    if kind not in TEXT_KINDS and not isinstance(content, dict):
        raise UserError(f"a {kind!r} record needs a dict as content, not {type(content).__name__}")
    if time is not None:
        time = _check_time(time)
    if asked and isinstance(content, str) and len(content) <= _REPLY_CHARS:
        content = mask_answer(asked, content)[0]
    try:
        # every secret in the record becomes its marker before anything is written
        encoded = _masked_json(content)
    except (TypeError, ValueError, RecursionError) as e:
        raise UserError(f"a {kind!r} record's content is not JSON-serialisable: {e}") from None
    require_text(encoded, f"a {kind!r} record's content")
    return kind, encoded, time


def _asks(encoded: str) -> str | None:
    """What a text record, as stored (its JSON), asks for if a secret (`asks_for_secret`).
    Its JSON holds every word a secret needs as the text does (`_masked_json`), so the end
    of most records is ruled out before it is decoded."""
    if not may_hold_secret(encoded[-_ASK_CHARS:]):
        return None
    said = json.loads(encoded)
    return asks_for_secret(said) if isinstance(said, str) else None


#: How much of a record's end a question for a secret is looked for in.
_ASK_CHARS = 200


class Records(Sessions):
    """The history records of sessions."""

    def append_history(
        self,
        session_id: str,
        kind: str,
        content: str | dict[str, Any],
        *,
        time: str | None = None,
    ) -> int:
        """Append a record and return its id. Invalidates the session at this record once
        more than 5 records are unprocessed (exempt sessions never). Secrets in the content
        are stored as markers (`[secret: aws-access-key]`), never as they were given."""
        with self._tx():
            kind, encoded, time = _encode_record(
                kind, content, time, self._asked(session_id, kind, content)
            )
            s = self.require(session_id)
            cur = self.conn.execute(
                "INSERT INTO session_history (session_id, kind, content, time) VALUES (?, ?, ?, ?)",
                (session_id, kind, encoded, time or now_iso()),
            )
            assert cur.lastrowid is not None  # an INSERT into a table with a rowid
            new_id = int(cur.lastrowid)
            if not s.exempt and self._more_than(session_id, s.processed_until, UNPROCESSED_LIMIT):
                self.invalidate(session_id, new_id)
        return new_id

    def _asked(self, session_id: str, kind: str, content: str | dict[str, Any]) -> str | None:
        """What the session's last text record asks for, if a secret (`asks_for_secret`),
        which a short text appended after it may give (`_encode_record`); None when it asks
        for none or the new record is no short text."""
        if kind not in TEXT_KINDS or not isinstance(content, str) or len(content) > _REPLY_CHARS:
            return None
        row = self.conn.execute(
            "SELECT content FROM session_history WHERE session_id = ? AND kind IN"
            " ('user', 'assistant', 'system') ORDER BY id DESC LIMIT 1",
            (session_id,),
        ).fetchone()
        if row is None:
            return None
        return _asks(row[0])

    def append_many(
        self, session_id: str, records: Iterable[tuple[str, str | dict[str, Any], str | None]]
    ) -> list[int]:
        """Append (kind, content, time) records in one transaction; returns their ids. The
        same checks, secret markers and invalidation as `append_history` record by record
        (the mark only rises, so it ends at the last record once more than 5 are
        unprocessed), with one session lookup and one count for the whole batch."""
        records = list(records)
        ids: list[int] = []
        if not records:
            return ids
        with self._tx():
            rows = []
            asked: str | None = None
            known = False  # whether `asked` is of a text of this batch (else read it once)
            for kind, content, time in records:
                if not known:
                    asked = self._asked(session_id, kind, content)
                rows.append(_encode_record(kind, content, time, asked))
                if kind in TEXT_KINDS:
                    asked, known = _asks(rows[-1][1]), True
            s = self.require(session_id)
            for kind, encoded, time in rows:
                cur = self.conn.execute(
                    "INSERT INTO session_history (session_id, kind, content, time)"
                    " VALUES (?, ?, ?, ?)",
                    (session_id, kind, encoded, time or now_iso()),
                )
                assert cur.lastrowid is not None
                ids.append(int(cur.lastrowid))
            if not s.exempt and self._more_than(session_id, s.processed_until, UNPROCESSED_LIMIT):
                self.invalidate(session_id, ids[-1])
        return ids

    def _more_than(self, session_id: str, after_id: int | None, n: int) -> bool:
        row = self.conn.execute(
            "SELECT COUNT(*) FROM (SELECT 1 FROM session_history WHERE session_id = ? AND id > ?"
            " LIMIT ?) AS recent",
            (session_id, after_id or 0, n + 1),
        ).fetchone()
        return row[0] > n

    def history(
        self,
        session_id: str,
        *,
        after_id: int | None = None,
        until_id: int | None = None,
        limit: int | None = None,
    ) -> list[HistoryRecord]:
        """Records of a session in order, those with after_id < id <= until_id."""
        return [_record(r) for r in self._history_rows(session_id, after_id, until_id, limit)]

    def read_history(
        self,
        session_id: str,
        *,
        after_id: int | None = None,
        until_id: int | None = None,
        limit: int | None = None,
    ) -> tuple[list[HistoryRecord], dict[int, tuple[str, HistoryRecord]]]:
        """`history`, and each record by id with its content as stored: what a later
        `noted_history` may reuse rather than decode again."""
        records: list[HistoryRecord] = []
        known: dict[int, tuple[str, HistoryRecord]] = {}
        for row in self._history_rows(session_id, after_id, until_id, limit):
            r = _record(row)
            records.append(r)
            known[r.id] = (row[3], r)
        return records, known

    def _history_rows(
        self, session_id: str, after_id: int | None, until_id: int | None, limit: int | None
    ) -> list[Any]:
        sql = f"SELECT {_COLUMNS} FROM session_history WHERE session_id = ? AND id > ?"
        params: list[Any] = [session_id, after_id or 0]
        if until_id is not None:
            sql += " AND id <= ?"
            params.append(until_id)
        sql += " ORDER BY id"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)
        return self.conn.execute(sql, params).fetchall()

    def noted_history(
        self, ranges: Sequence[tuple[str, int, int]], known: Known | None = None
    ) -> dict[str, list[HistoryRecord]]:
        """The records of many sessions at once, (session id, after_id, until_id) each:
        those with after_id < id <= until_id, in order, by session id, in one statement
        per few hundred sessions. A record in `known` whose content is stored as it was
        when read is taken from there rather than decoded again; one whose content changed
        since (an erasure) is decoded as it is now."""
        out: dict[str, list[HistoryRecord]] = {sid: [] for sid, _, _ in ranges}
        known = known or {}
        for start in range(0, len(ranges), _RANGES_PER_READ):
            part = ranges[start : start + _RANGES_PER_READ]
            values = ", ".join(["(?, ?, ?)"] * len(part))
            rows = self.conn.execute(
                f"WITH n (sid, after_id, until_id) AS (VALUES {values})"
                f" SELECT {', '.join('h.' + c for c in _COLUMNS.split(', '))}"
                " FROM n JOIN session_history h ON h.session_id = n.sid"
                " AND h.id > n.after_id AND h.id <= n.until_id ORDER BY h.id",
                [x for r in part for x in r],
            ).fetchall()
            for row in rows:
                had = known.get(row[0])
                out[row[1]].append(had[1] if had is not None and had[0] == row[3] else _record(row))
        return out

    def count_since(self, session_id: str, after_id: int | None) -> int:
        """How many records of the session have an id above `after_id` (None: all)."""
        row = self.conn.execute(
            "SELECT COUNT(*) FROM session_history WHERE session_id = ? AND id > ?",
            (session_id, after_id or 0),
        ).fetchone()
        return int(row[0])

    def max_id(self, session_id: str) -> int | None:
        """The id of the session's last record, or None when it has none."""
        row = self.conn.execute(
            "SELECT MAX(id) FROM session_history WHERE session_id = ?", (session_id,)
        ).fetchone()
        return row[0]

    def scrub(self, owner: str, text_map: Callable[[str], str], *, dry_run: bool = False) -> int:
        """Rewrite in place every text of the history of `owner`'s sessions (its own and
        its memory agent's conversations) that `text_map` changes, and their last errors
        (`doctree.memory.erase`). Returns how many history records changed (on a dry run:
        would change, and nothing is written)."""
        changed = 0
        if dry_run:
            for r in self.conn.execute(
                "SELECT h.content FROM session_history h JOIN sessions s"
                " ON s.id = h.session_id WHERE s.owner = ?",
                (owner,),
            ).fetchall():
                content = json.loads(r["content"])
                changed += _map_strings(content, text_map) != content
            return changed
        with self._tx():
            rows = self.conn.execute(
                "SELECT h.id, h.content FROM session_history h JOIN sessions s"
                " ON s.id = h.session_id WHERE s.owner = ?",
                (owner,),
            ).fetchall()
            changed = self._rewrite_history(rows, text_map)
            for r in self.conn.execute(
                "SELECT id, last_error FROM sessions WHERE owner = ? AND last_error IS NOT NULL",
                (owner,),
            ).fetchall():
                if (error := text_map(r["last_error"])) != r["last_error"]:
                    # (only the error read: a worker may clear it meanwhile, under the
                    # session's row lock alone on PostgreSQL)
                    self.conn.execute(
                        "UPDATE sessions SET last_error = ? WHERE id = ? AND last_error = ?",
                        (error, r["id"], r["last_error"]),
                    )
        return changed

    def scrub_sessions(
        self,
        session_ids: list[str],
        maps: Callable[[Iterable[tuple[str, str]]], Iterator[Callable[[str], str]]],
    ) -> int:
        """Rewrite in place every text of the history of `session_ids` that its record's
        map changes (what a user asked, within a session, not to be kept): `maps` gives one
        for each record (kind, time), in order. Returns how many history records changed."""
        changed = 0
        with self._tx():
            for session_id in session_ids:
                rows = self.conn.execute(
                    "SELECT id, kind, time, content FROM session_history WHERE session_id = ?"
                    " ORDER BY id",
                    (session_id,),
                ).fetchall()
                each = maps((r["kind"], r["time"]) for r in rows)
                changed += self._rewrite_history(rows, each)
        return changed

    def _rewrite_history(
        self, rows: list[Any], text_map: Callable[[str], str] | Iterator[Callable[[str], str]]
    ) -> int:
        """Write back each history row (id, content) whose content `text_map` changes (or
        the map of the row, when given one for each in order); returns how many changed.
        In the caller's transaction."""
        changed = 0
        for r in rows:
            row_map = text_map if callable(text_map) else next(text_map)
            content = json.loads(r["content"])
            new = _map_strings(content, row_map)
            if new != content:
                self.conn.execute(
                    "UPDATE session_history SET content = ? WHERE id = ?",
                    (json.dumps(new, ensure_ascii=False), r["id"]),
                )
                changed += 1
        return changed


def _map_strings(value: Any, text_map: Callable[[str], str]) -> Any:
    """`value` (decoded JSON) with `text_map` applied to every string in it, keys too."""
    if isinstance(value, str):
        return text_map(value)
    if isinstance(value, list):
        return [_map_strings(v, text_map) for v in value]
    if isinstance(value, dict):
        return {text_map(k): _map_strings(v, text_map) for k, v in value.items()}
    return value


def _check_time(value: str) -> str:
    if not isinstance(value, str):
        raise UserError(f"time {value!r}: use ISO 8601, e.g. 2026-11-20T09:00:00Z")
    try:
        return check_time(value)
    except UserError:
        raise UserError(f"time {value!r}: use ISO 8601, e.g. 2026-11-20T09:00:00Z") from None
