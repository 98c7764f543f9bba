"""The PostgreSQL backend: a server several hosts share (`--db postgresql://...`).

`connect(url)` returns a `PgConnection`: a psycopg 3 connection behind the `sqlite3`
interface the store is written against (`?` placeholders, rows read by index or name,
`lastrowid`, `total_changes`, `in_transaction`, errors as `sqlite3`'s classes), so the
domain logic is the same on both backends. What PostgreSQL says its own way is
`PostgresDialect`:

- a write transaction takes a transaction-level advisory lock, so writes are serialised
  as they are by SQLite's BEGIN IMMEDIATE, and every precondition is checked against the
  latest committed state (READ COMMITTED: each statement sees the latest commits);
- full-text search is a `tsvector` column with a GIN index per indexed table, filled from
  the same text the SQLite indexes see, ranked by `ts_rank_cd` with per-field weights;
- the migrations are `migrations/postgresql/NNN_name.sql`, recorded with their sha256 like
  SQLite's, applied under a session advisory lock so that two hosts never both apply one.

psycopg is an optional dependency: `pip install 'doctree[postgres]'`.
"""

from __future__ import annotations

import contextlib
import logging
import re
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from typing import Any

from doctree.errors import DatabaseUnavailableError, DoctreeError, SchemaError, UserError
from doctree.store import encoding
from doctree.store.backends import BackendConnection, busy_timeout_ms, describe, search_words
from doctree.store.migrations import (
    edited_migration_error,
    migration_sha256,
    migrations_dir,
    unknown_migrations_error,
)
from doctree.store.migrations import migrations as read_migrations
from doctree.store.model import PassageSearch

WRITE_LOCK = 0x646F6374  # 'doct': the advisory lock every write transaction holds
MIGRATION_LOCK = 0x646F6D67  # 'domg': held while migrations are applied
# English stemming as the SQLite indexes' porter tokenizer does, and no stopwords (FTS5
# keeps them, so "to be" finds Hamlet): made by migrations/postgresql/001_baseline.sql.
TSCONFIG = "doctree_english"
# Tables whose primary key `id` is generated: an INSERT into one returns it (lastrowid).
_GENERATED_ID = frozenset(
    {
        "documents",
        "document_versions",
        "document_references",
        "session_history",
        "runs",
        "passages",
        "recall_passages",
    }
)
_PASSAGES = {"passages": "passages", "recall": "recall_passages"}
# Field weights of the indexes: labels A-D, in the order ts_rank_cd takes them (D first).
_DOC_LABELS = {"path": "A", "title": "B", "body": "C"}
# As SQLite's documents_fts ranks (bm25 weights path 2, title 4, body 1), scaled to 1:
# the array is {D, C, B, A}, i.e. (unused, body, title, path).
_DOC_WEIGHTS = "'{0, 0.25, 1.0, 0.5}'"
_PASSAGE_LABELS = {"text": "A", "speaker": "B", "dates": "C", "surroundings": "D"}
# The tables searched through a GIN index, whose statistics the connection keeps up to date
# (`PgConnection.refresh_statistics`).
_SEARCHED_TABLES = ("documents", "passages", "recall_passages")
ANALYZE_AFTER_CHANGES = 1000  # rows a connection changes before it looks at the statistics
ANALYZE_MIN_ROWS = 1000  # below this, any plan of a search is quick
MAX_INDEXED_CHARS = 400_000  # a tsvector holds at most 1 MB; text beyond is not indexed


def _psycopg() -> Any:
    try:
        import psycopg
    except ImportError:
        raise UserError(
            "a postgresql:// database needs psycopg 3: pip install 'doctree[postgres]'"
        ) from None
    return psycopg


# -- errors ---------------------------------------------------------------------------------


class PgIntegrityError(sqlite3.IntegrityError, DoctreeError):
    """A constraint of the PostgreSQL schema refused a write."""

    sqlstate: str = ""  # the server's SQLSTATE


class PgOperationalError(sqlite3.OperationalError, DoctreeError):
    """The server could not do it now (connection, lock timeout, serialisation)."""

    sqlstate: str = ""  # the server's SQLSTATE


class PgDatabaseError(sqlite3.DatabaseError, DoctreeError):
    """Any other error the server reported."""

    sqlstate: str = ""  # the server's SQLSTATE


class PgConnectionLost(PgOperationalError, DatabaseUnavailableError):
    """The connection to the server was lost (a restart, a network failure) and could not
    be opened again within the connection's `reconnect_wait`. A transaction open on it was
    rolled back by the server: nothing of it is stored."""


log = logging.getLogger("doctree.store.postgres")
# How long a statement waits for a lost server to come back (reconnecting with backoff)
# before it fails with PgConnectionLost: a command rides out a quick restart, and a request
# of the inspector is answered soon (503 then). Longer outages are the caller's to wait out
# (the worker's loop retries with its own backoff).
RECONNECT_WAIT = 2.0
RECONNECT_FIRST_PAUSE = 0.05
RECONNECT_MAX_PAUSE = 2.0
# SQLSTATEs of a connection the server ended: class 08 (connection exception) and the
# shutdown family (57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now).
_GONE_STATES = frozenset({"57P01", "57P02", "57P03"})
# Statements that may be sent again on a new connection when the old one was lost outside
# a transaction: they open a transaction, only read, or set a session setting, so sending
# them twice changes nothing. Anything else (a write in autocommit) may have run once and
# is reported failed rather than run twice.
_RETRY_SAFE = re.compile(r"\s*(BEGIN|SELECT|SET|SHOW)\b", re.I)
_ROLLBACK = re.compile(r"\s*ROLLBACK\s*;?\s*$", re.I)
_COMMIT = re.compile(r"\s*COMMIT\s*;?\s*$", re.I)
_BEGIN = re.compile(r"\s*BEGIN\b", re.I)


# SQLSTATEs that mean "not now" or "not here", named as SQLite names the same conditions
# (`sqlite_errorname`), so that callers tell them apart the same way on both backends.
_BUSY = {
    "55P03": "SQLITE_BUSY",
    "57014": "SQLITE_BUSY",
    "40001": "SQLITE_BUSY",
    "40P01": "SQLITE_BUSY",
    "25006": "SQLITE_READONLY",
}


def _error(e: Exception) -> sqlite3.Error:
    psycopg = _psycopg()
    text = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
    state = getattr(e, "sqlstate", None) or ""
    if isinstance(e, psycopg.IntegrityError):
        out: PgIntegrityError | PgOperationalError | PgDatabaseError = PgIntegrityError(text)
    elif state in _BUSY or isinstance(e, psycopg.OperationalError):
        out = PgOperationalError(text)
    else:
        out = PgDatabaseError(text)
    out.sqlite_errorname = _BUSY.get(state, f"POSTGRES_{state or 'ERROR'}")
    out.sqlstate = state
    return out


# -- SQL translation ------------------------------------------------------------------------

_SQL_PARTS = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"])*\"|\?|%|[^'\"?%]+", re.S)


@lru_cache(maxsize=2048)
def translate(sql: str) -> tuple[str, bool]:
    """The SQL in psycopg's form (`?` -> `%s` outside quotes, `%` -> `%%`), and whether
    `RETURNING id` was added so that the cursor can say the new row's id."""
    out = []
    for m in _SQL_PARTS.finditer(sql):
        part = m.group(0)
        # psycopg reads `%` everywhere, quoted or not; `?` is a placeholder only outside quotes
        out.append("%s" if part == "?" else part.replace("%", "%%"))
    text = "".join(out)
    head = re.match(r"\s*INSERT\s+INTO\s+(\w+)", text, re.I)
    returning = bool(
        head
        and head.group(1).lower() in _GENERATED_ID
        and not re.search(r"\bRETURNING\b", text, re.I)
    )
    if returning:
        text = text.rstrip().rstrip(";") + " RETURNING id"
    return text, returning


class Row(tuple):
    """A result row read by position or by column name, as `sqlite3.Row` is."""

    __slots__ = ()
    _index: dict[str, int] = {}

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return tuple.__getitem__(self, self._index[key])
        return tuple.__getitem__(self, key)

    def keys(self) -> list[str]:
        return list(self._index)


_TUPLES_OK = 2  # libpq's PGRES_TUPLES_OK: a result with rows (psycopg.pq.ExecStatus)


def _has_rows(cursor: Any) -> bool:
    """Whether the statement's result has rows to fetch (a SELECT's or a RETURNING's)."""
    result = cursor.pgresult
    return result is not None and result.status == _TUPLES_OK


@lru_cache(maxsize=1024)
def _row_class(names: tuple[str, ...]) -> Any:
    """The row class of one list of column names, made once: a statement run again (most
    are) reuses it instead of building a class per statement."""
    return type("Row", (Row,), {"__slots__": (), "_index": {n: i for i, n in enumerate(names)}})


def _row_factory(cursor: Any) -> Any:
    # The names from the result itself: `cursor.description` builds a Column object per
    # column on every call, a tenth of a batch write's client time when measured.
    result = cursor.pgresult
    if not _has_rows(cursor):
        return tuple
    encoding = cursor.connection.info.encoding
    return _row_class(tuple(result.fname(i).decode(encoding) for i in range(result.nfields)))


class PgCursor:
    """The result of one statement, as `sqlite3.Cursor` gives it."""

    def __init__(self, cursor: Any, lastrowid: int | None, rows: list[Any] | None):
        self._cursor = cursor
        self.lastrowid = lastrowid
        self._rows = rows
        self.rowcount = cursor.rowcount if cursor is not None else -1

    def fetchone(self) -> Any:
        if self._rows is not None:
            return self._rows.pop(0) if self._rows else None
        if not _has_rows(self._cursor):
            return None
        return self._cursor.fetchone()

    def fetchall(self) -> list[Any]:
        if self._rows is not None:
            rows, self._rows = self._rows, []
            return rows
        if not _has_rows(self._cursor):
            return []
        return self._cursor.fetchall()

    def __iter__(self) -> Iterator[Any]:
        return iter(self.fetchall())


class PgConnection(BackendConnection):
    """A psycopg 3 connection behind the `sqlite3.Connection` interface the store uses.

    Autocommit, with transactions opened by explicit BEGIN (as the SQLite connections are
    opened with `isolation_level=None`). `total_changes` counts rows changed through it;
    `round_trips` counts the calls that waited for the server (one per `execute`,
    `executemany` — its statements are sent as one pipeline — and `script`).

    A lost connection (the server restarted, the network failed) is opened again on the
    next call, retrying with backoff for up to `reconnect_wait` seconds, one log line per
    attempt. A statement that only opens a transaction, reads or sets a setting is then
    sent again; any other statement that was in flight fails with `PgConnectionLost`. So
    does every statement of a transaction that was open on the lost connection (the server
    rolled it back) until the caller's ROLLBACK, which ends it without a round trip.
    """

    def __init__(self, raw: Any, url: str, *, reconnect_wait: float = RECONNECT_WAIT):
        self._raw = raw
        self.url = url
        self.total_changes = 0
        self.round_trips = 0
        self.reconnects = 0
        self.reconnect_wait = reconnect_wait
        self.dialect = POSTGRES
        self._lock_timeout_ms: int | None = None
        self._txid: int | None = None  # of the write transaction `begin_locked` opened
        self._lost_transaction = False  # a transaction was open when the connection was lost
        # (table, owner) -> (whether the owner holds most of the table's rows, when read)
        self.owner_shares: dict[tuple[str, str], tuple[bool, float]] = {}
        self._changes_looked_at = 0  # total_changes when the planner's figures were last looked at

    @property
    def in_transaction(self) -> bool:
        if self._lost_transaction:
            return True  # until the caller's ROLLBACK ends it
        if self._raw.closed:
            return False
        psycopg = _psycopg()
        return self._raw.info.transaction_status != psycopg.pq.TransactionStatus.IDLE

    def _unusable(self) -> bool:
        """Whether the connection can take no statement: closed, broken, or left by a lost
        server inside a batch it cannot end ("cannot exit pipeline mode while busy")."""
        if self._raw.closed or getattr(self._raw, "broken", False):
            return True
        pq = _psycopg().pq
        pgconn = getattr(self._raw, "pgconn", None)
        return pgconn is not None and (
            pgconn.status == pq.ConnStatus.BAD or pgconn.pipeline_status != pq.PipelineStatus.OFF
        )

    def _gone(self, e: Exception) -> bool:
        """Whether `e` means the connection itself is lost (not a statement's error)."""
        state = getattr(e, "sqlstate", None) or ""
        return bool(self._unusable() or state.startswith("08") or state in _GONE_STATES)

    def _run(self, sql: str, call: Any) -> Any:
        """`call()` (one round trip) on a live connection: reconnect first if it was lost;
        if it is lost during the call, reconnect and call again when that is safe."""
        psycopg = _psycopg()
        if self._lost_transaction:
            # The server rolled the transaction back when the connection ended: a ROLLBACK
            # ends it here too, a COMMIT ends it as failed; anything else fails until then.
            if _ROLLBACK.match(sql) or _COMMIT.match(sql):
                self._lost_transaction = False
                if _ROLLBACK.match(sql):
                    return None
            raise self._lost("the transaction open on it was rolled back; nothing of it is stored")
        if self._unusable():
            self._reconnect()
        if _BEGIN.match(sql):
            self._txid = None  # `begin_locked` sets it for its own transactions
        idle = self._raw.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
        self.round_trips += 1
        try:
            return call()
        except psycopg.Error as e:
            if not self._gone(e):
                raise _error(e) from e
            first = _first_line(e)
        if not idle:
            if _ROLLBACK.match(sql):
                return None
            if _COMMIT.match(sql):
                self._resolve_commit(first)
                return None  # it was committed
            self._lost_transaction = True
            raise self._lost(
                f"the transaction open on it was rolled back; nothing of it is stored ({first})"
            )
        if not _RETRY_SAFE.match(sql):
            raise self._lost(f"the statement may not have run; nothing is half-stored ({first})")
        self._reconnect()
        self.round_trips += 1
        try:
            return call()
        except psycopg.Error as e:
            if self._gone(e):
                raise self._lost(_first_line(e)) from None
            raise _error(e) from e

    def begin_locked(self, lock: int) -> None:
        """BEGIN a transaction that holds the advisory lock `lock` (one round trip), and
        remember its transaction id: a COMMIT cut off by a lost connection is then resolved
        by asking the server whether that transaction committed (`txid_status`)."""
        sql = f"BEGIN; SELECT pg_advisory_xact_lock({int(lock)}), txid_current()"

        def call() -> Any:
            cursor = self._raw.execute(sql)
            txid = None
            while True:
                if cursor.description is not None:
                    txid = cursor.fetchone()[1]
                if not cursor.nextset():
                    return txid

        txid = self._run(sql, call)
        self._txid = int(txid) if txid is not None else None

    def _resolve_commit(self, first: str) -> None:
        """The connection was lost while a COMMIT was in flight: return if the transaction
        committed (whole), raise PgConnectionLost if it did not (nothing of it is stored)
        or if that cannot be known."""
        txid, self._txid = self._txid, None
        unknown = (
            "COMMIT was in flight when the connection was lost: the transaction was stored "
            "whole or not at all; read it back to see which"
        )
        if txid is None:
            raise self._lost(f"{unknown} ({first})")
        try:
            self._reconnect()
            row = self._raw.execute("SELECT txid_status(%s)", (txid,)).fetchone()
        except (PgConnectionLost, _psycopg().Error):
            raise self._lost(f"{unknown} (the server cannot be asked now)") from None
        status = row[0] if row else None
        if status == "committed":
            log.warning("event: COMMIT confirmed after a lost connection txid=%d", txid)
            return
        if status == "in progress":
            raise self._lost(f"{unknown} (the server is still committing it)")
        raise self._lost(
            "COMMIT did not complete: the transaction was rolled back; nothing of it is stored"
        )

    def _lost(self, why: str) -> PgConnectionLost:
        out = PgConnectionLost(f"connection to the server lost: {why}")
        out.sqlite_errorname = "POSTGRES_CONNECTION_LOST"
        out.sqlstate = "08006"
        return out

    def _reconnect(self) -> None:
        """Open the connection again, retrying with backoff for up to `reconnect_wait`
        seconds (one log line per attempt); PgConnectionLost if the server stays away."""
        psycopg = _psycopg()
        with_timeout = max(1, min(10, int(self.reconnect_wait) or 1))
        started = time.monotonic()
        deadline = started + self.reconnect_wait
        pause = RECONNECT_FIRST_PAUSE
        attempt = 0
        while True:
            attempt += 1
            try:
                raw = psycopg.connect(self.url, autocommit=True, connect_timeout=with_timeout)
            except psycopg.Error as e:
                waited = time.monotonic() - started
                if time.monotonic() + pause > deadline:
                    log.warning(
                        "event: database reconnect failed attempt=%d waited=%.2fs giving up "
                        "database=%s error=%s", attempt, waited, describe(self.url), _first_line(e),
                    )  # fmt: skip
                    raise self._lost(
                        f"the server could not be reached again in {waited:.1f}s "
                        f"({attempt} attempts; {_first_line(e)}); try again later"
                    ) from None
                log.warning(
                    "event: database reconnect failed attempt=%d waited=%.2fs retry_in=%.2fs "
                    "database=%s error=%s", attempt, waited, pause, describe(self.url),
                    _first_line(e),
                )  # fmt: skip
                time.sleep(pause)
                pause = min(pause * 2, RECONNECT_MAX_PAUSE)
                continue
            break
        with contextlib.suppress(Exception):  # the old one is gone anyway
            self._raw.close()
        self._raw = raw
        self.reconnects += 1
        if self._lock_timeout_ms is not None:
            raw.execute(f"SET lock_timeout = {int(self._lock_timeout_ms)}")
        log.warning(
            "event: database reconnected attempt=%d after=%.2fs database=%s",
            attempt,
            time.monotonic() - started,
            describe(self.url),
        )

    def execute(
        self, sql: str, params: Sequence[Any] | dict[str, Any] = (), *, prepare: bool | None = None
    ) -> PgCursor:
        """Run one statement. `prepare` as psycopg's: None prepares a statement once it has
        run a few times (the server may then reuse one plan for any parameters), False
        never (the server plans it for its parameters each time)."""
        text, returning = translate(sql)
        values = _params(params)

        def call() -> Any:
            cursor = self._raw.cursor(row_factory=_row_factory)
            cursor.execute(text, values, prepare=prepare)
            return cursor

        cursor = self._run(sql, call)
        if cursor is None:  # a ROLLBACK of a transaction the lost connection ended
            return PgCursor(None, None, [])
        if (
            cursor.rowcount > 0
            and cursor.statusmessage
            and not cursor.statusmessage.startswith("SELECT")
        ):
            self.total_changes += cursor.rowcount
        if self.total_changes - self._changes_looked_at >= ANALYZE_AFTER_CHANGES and _COMMIT.match(
            sql
        ):
            self.refresh_statistics()
        if returning:
            rows = cursor.fetchall()
            return PgCursor(cursor, rows[0][0] if rows else None, [])
        return PgCursor(cursor, None, None)

    def cursor(self) -> _Statements:
        """What `sqlite3.Connection.cursor()` gives the store: `execute` and a settable
        `row_factory` (the rows here are tuples either way)."""
        return _Statements(self)

    def executemany(self, sql: str, seq: Sequence[Sequence[Any]]) -> PgCursor:
        text, returning = translate(sql)
        if returning:
            text = text[: -len(" RETURNING id")]
        values = [_params(p) for p in seq]

        def call() -> Any:
            cursor = self._raw.cursor(row_factory=_row_factory)
            cursor.executemany(text, values)
            return cursor

        cursor = self._run(sql, call)
        if cursor is not None and cursor.rowcount > 0:
            self.total_changes += cursor.rowcount
        return PgCursor(cursor, None, [])

    def script(self, sql: str) -> None:
        """Run several statements at once (a migration); no parameters."""
        self._run(sql, lambda: self._raw.execute(sql))

    def refresh_statistics(self) -> list[str]:
        """ANALYZE each searched table whose row count the planner knows is less than half
        the rows it holds (or that was never analyzed), and return their names. One round
        trip when none is (the row counts are the kept `search_counts`).

        Without statistics the planner estimates a search's matches of the owner's live
        rows at one row, reads all the owner's rows through a B-tree and matches each
        against the query (linear in the rows: 23 ms against 1 ms at 10k documents),
        instead of reading the matches from the GIN index. Autovacuum gathers statistics
        only at its next round (up to a minute) and after 10% of a table changed, so a
        search right after a bulk write got either plan. Run after a COMMIT once the
        connection has changed ANALYZE_AFTER_CHANGES rows since it last looked: a table
        growing to N rows is analyzed about log2(N / ANALYZE_MIN_ROWS) times by this."""
        self._changes_looked_at = self.total_changes
        try:
            rows = self.execute(
                "SELECT c.relname, c.reltuples, (SELECT COALESCE(SUM(n), 0) FROM search_counts"
                " s WHERE s.source = c.relname) FROM pg_class c"
                " WHERE c.oid = ANY(?::regclass[])",
                [list(_SEARCHED_TABLES)],
            ).fetchall()
            stale = [
                name
                for name, planned, kept in rows
                if kept >= ANALYZE_MIN_ROWS and (planned < 0 or 2 * planned < kept)
            ]
            for name in stale:
                started = time.monotonic()
                self.execute(f"ANALYZE {name}")
                log.info(
                    "event: statistics gathered table=%s rows=%d took=%.3fs",
                    name,
                    next(kept for n, _, kept in rows if n == name),
                    time.monotonic() - started,
                )
        except sqlite3.Error as e:  # a role that may not, a standby: the plans stay as they are
            log.warning("event: statistics not gathered error=%s", _first_line(e))
            return []
        return stale

    def set_lock_timeout(self, ms: int) -> None:
        """SET lock_timeout, kept to be set again on a new connection after a loss."""
        self._lock_timeout_ms = int(ms)
        self.execute(f"SET lock_timeout = {int(ms)}")

    def commit(self) -> None:
        if self.in_transaction:
            self.execute("COMMIT")

    def rollback(self) -> None:
        if self.in_transaction:
            self.execute("ROLLBACK")

    def close(self) -> None:
        self._raw.close()

    def __enter__(self) -> PgConnection:
        return self

    def __exit__(self, exc_type: object, *exc: object) -> None:
        """As `with sqlite3_connection:` does: commit an open transaction, or roll it back
        on an exception; the connection stays open."""
        if exc_type is None:
            self.commit()
        else:
            self.rollback()


def _first_line(e: Exception) -> str:
    return str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__


class _Statements:
    def __init__(self, conn: PgConnection):
        self._conn = conn
        self.row_factory: Any = None

    def execute(self, sql: str, params: Sequence[Any] = ()) -> PgCursor:
        return self._conn.execute(sql, params)

    def executemany(self, sql: str, seq: Sequence[Sequence[Any]]) -> PgCursor:
        return self._conn.executemany(sql, seq)


def _params(params: Sequence[Any] | dict[str, Any]) -> Sequence[Any]:
    if isinstance(params, dict):
        raise TypeError("PgConnection takes positional (?) parameters only")
    return tuple(params)


# -- full-text search -----------------------------------------------------------------------

_FTS_TOKEN = re.compile(r'"([^"]*)"(\*?)|(\()|(\))|\{([^}]*)\}\s*:|(\w+)\s*:(?!:)|(\w+)(\*?)')


def fts_to_tsquery(match: str, labels: dict[str, str] | None = None) -> str:
    """An FTS5 expression, as the store builds them (quoted phrases, `"word"*` prefixes,
    AND / OR / NOT, parentheses, `column :` and `{columns} :` filters), as a `to_tsquery`
    text. Words are folded as `search_words` folds indexed text; a column filter becomes a
    weight restriction (`word:C`)."""
    out: list[str] = []
    pending: str | None = None  # a weight restriction for the next operand
    group_restrict: list[str | None] = []
    need_op = False

    def operand(text: str) -> None:
        nonlocal need_op, pending
        if need_op:
            out.append("&")
        out.append(text)
        need_op = True
        pending = None

    for m in _FTS_TOKEN.finditer(match):
        phrase, star, lpar, rpar, cols, col, word, wstar = m.groups()
        if cols is not None or col is not None:
            names = (cols or col or "").split()
            letters = "".join(sorted({(labels or {}).get(n, "") for n in names}))
            pending = letters or None
            continue
        if lpar:
            if need_op:
                out.append("&")
            out.append("(")
            group_restrict.append(pending)
            pending = None
            need_op = False
            continue
        if rpar:
            out.append(")")
            if group_restrict:
                group_restrict.pop()
            need_op = True
            continue
        restrict = pending or next((g for g in reversed(group_restrict) if g), None)
        if word is not None:
            upper = word.upper()
            if upper in ("AND", "OR", "NOT") and not wstar:
                out.append({"AND": "&", "OR": "|", "NOT": "& !"}[upper])
                need_op = False
                continue
            parts = search_words(word).split()
            star = wstar
        else:
            parts = search_words(phrase).split()
        if not parts:
            operand("''")  # matches nothing, keeps the expression well formed
            continue
        terms = []
        for i, part in enumerate(parts):
            flags = ("*" if star and i == len(parts) - 1 else "") + (restrict or "")
            terms.append(f"'{part}'" + (":" + flags if flags else ""))
        operand(terms[0] if len(terms) == 1 else "(" + " <-> ".join(terms) + ")")
    return " ".join(out)


def _vector(fields: Sequence[tuple[str, str]]) -> tuple[str, list[str]]:
    """SQL and parameters of a weighted tsvector over (label, text) fields."""
    sql = " || ".join(f"setweight(to_tsvector('{TSCONFIG}', ?), '{label}')" for label, _ in fields)
    return sql, [search_words(text)[:MAX_INDEXED_CHARS] for _, text in fields]


def _rank_weights(weights: dict[str, float]) -> str:
    """ts_rank_cd's weight array, {D, C, B, A}."""
    return "'{" + ", ".join(f"{float(weights.get(x, 0.0)):.4f}" for x in "DCBA") + "}'"


class PostgresDialect:
    name = "postgresql"
    row_locks = True
    contentless_passages = False  # the index is a tsvector column of the passage row
    packed_passage_text = True  # passages.text holds encoding.encode_full of the text (013)
    writes_in_with = True

    def index_hint(self, index: str) -> str:
        return ""  # the planner's choice

    def one_of(self, column: str, values: Sequence[Any]) -> tuple[str, list[Any]]:
        return f"{column} = ANY(?)", [list(values)]  # one text: prepared once, any count

    def begin_write(self, conn: PgConnection) -> None:
        try:  # one round trip
            conn.begin_locked(WRITE_LOCK)
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    def begin_read(self, conn: PgConnection) -> None:
        conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        conn.execute("SELECT 1").fetchone()  # the snapshot is taken at the first statement

    def location(self, conn: PgConnection) -> str | None:
        return conn.url

    def set_wait_timeout(self, conn: PgConnection, ms: int) -> None:
        conn.set_lock_timeout(ms)

    def prepare(self, conn: PgConnection) -> None:
        return None  # deleted rows are removed by VACUUM (see `vacuum_database`)

    def queue_passages(self, conn: PgConnection, doc_id: int, owner: str) -> None:
        return None  # the triggers on `documents` do it, in the statement that changes it

    def index_document(
        self, conn: PgConnection, doc_id: int, path: str, title: str, body: str
    ) -> None:
        column, sql, params = self.document_index_value(path, title, body)
        conn.execute(f"UPDATE documents SET {column} = {sql} WHERE id = ?", [*params, doc_id])

    def document_index_value(
        self, path: str, title: str, body: str | None
    ) -> tuple[str, str, list[Any]]:
        if body is None:
            return "search_vector", "NULL", []
        sql, params = _vector([(_DOC_LABELS["path"], path), ("B", title), ("C", body)])
        return "search_vector", sql, params

    def unindex_document(
        self, conn: PgConnection, doc_id: int, path: str, title: str, body: str | None
    ) -> None:
        conn.execute("UPDATE documents SET search_vector = NULL WHERE id = ?", (doc_id,))

    def optimize_documents_index(self, conn: PgConnection) -> None:
        return None  # a tsvector is replaced in place; VACUUM frees the old row versions

    def tidy_documents_index(self, conn: PgConnection, replaced: int) -> bool:
        return True  # nothing piles up: autovacuum reclaims the old row versions

    def search_documents(
        self,
        conn: PgConnection,
        match: str,
        owner: str,
        scope: str,
        scope_params: Sequence[Any],
        limit: int,
        bodies: bool = False,
    ) -> list[tuple[Any, ...]]:
        query = fts_to_tsquery(match, {**_DOC_LABELS})
        # Planned for its words when it reads a part of the table: a subtree, a small owner.
        narrow = bool(scope) or not _holds_most(conn, "documents", owner)
        # The hits' bodies by the same statement (one round trip), carried through the
        # ranking's sort rather than read again by id for the hits (a lookup of the primary
        # key per hit): the sort keeps the best `limit` rows and drops the others as they
        # come, and a body stored out of line is carried as its pointer, read for the hits.
        body = ", d.body_data" if bodies else ""
        sql, params = _ranked(
            "documents",
            "d",
            "d.id, d.path, d.title, d.version, d.updated_at" + body,
            query,
            _DOC_WEIGHTS,
            "deleted_at IS NULL",
            "d.owner = ? AND d.deleted_at IS NULL" + scope,
            [owner, *scope_params],
            limit,
            scoped=narrow,
        )
        rows = conn.execute(sql, params, prepare=False if narrow else None).fetchall()
        if not bodies:
            _saw_share(conn, "documents", owner, rows, 6)
            return [(*r[:6], None) for r in rows]
        _saw_share(conn, "documents", owner, rows, 7)
        decode = encoding.decode
        return [(*r[:5], r[6], decode(r[5], None)) for r in rows]

    def index_passage(
        self,
        conn: PgConnection,
        index: str,
        passage_id: int,
        owner: str,
        text: str,
        surroundings: str,
        speaker: str,
        dates: str,
    ) -> None:
        column, sql, params = self.passage_index_value(index, text, surroundings, speaker, dates)
        conn.execute(
            f"UPDATE {_PASSAGES[index]} SET {column} = {sql} WHERE id = ?", [*params, passage_id]
        )

    def index_passage_entries(
        self,
        conn: PgConnection,
        index: str,
        entries: Sequence[tuple[int, str, str, str, str, str]],
    ) -> None:
        for passage_id, owner, *fields in entries:
            self.index_passage(conn, index, passage_id, owner, *fields)

    def passage_index_value(
        self, index: str, text: str, surroundings: str, speaker: str, dates: str
    ) -> tuple[str, str, list[Any]]:
        fields = {"text": text, "surroundings": surroundings, "speaker": speaker, "dates": dates}
        sql, params = _vector([(_PASSAGE_LABELS[k], v) for k, v in fields.items()])
        return "search_vector", sql, params

    def unindex_passages(
        self, conn: PgConnection, index: str, ids_sql: str, params: Sequence[Any]
    ) -> None:
        return None  # the entry is a column of the row: it goes with the row deleted next

    def unindex_passage_entries(
        self, conn: PgConnection, index: str, entries: Sequence[tuple[int, str, str, str, str, str]]
    ) -> None:
        return None  # never called: see contentless_passages

    def optimize_passage_index(self, conn: PgConnection, index: str) -> None:
        return None

    def rewrite_passage_index(
        self,
        conn: PgConnection,
        index: str,
        owner: str,
        texts: dict[int, str],
        surroundings_map: Callable[[str], str],
        removed: Sequence[str],
    ) -> int:
        # The surroundings is kept only as the lexemes of a tsvector: its entry keeps every other
        # field, and the surroundings's part loses the lexemes of the erased texts.
        table = _PASSAGES[index]
        text_label, surroundings_label = _PASSAGE_LABELS["text"], _PASSAGE_LABELS["surroundings"]
        others = (
            "{"
            + ",".join(x.lower() for x in "ABCD" if x not in (text_label, surroundings_label))
            + "}"
        )
        lexemes: list[str] = []
        words = search_words(" ".join(removed))
        if words:
            lexemes = list(
                conn.execute(
                    f"SELECT tsvector_to_array(to_tsvector('{TSCONFIG}', ?))", (words,)
                ).fetchone()[0]
                or []
            )
        surroundings = (
            f"ts_delete(ts_filter(search_vector, '{{{surroundings_label.lower()}}}'), ?::text[])"
        )
        for passage_id, text in texts.items():
            conn.execute(
                f"UPDATE {table} SET search_vector ="
                f" setweight(to_tsvector('{TSCONFIG}', ?), '{text_label}')"
                f" || ts_filter(search_vector, '{others}') || {surroundings} WHERE id = ?",
                (search_words(text)[:MAX_INDEXED_CHARS], lexemes, passage_id),
            )
        if not lexemes:
            return 0
        query = " | ".join(f"'{x}':{surroundings_label}" for x in lexemes)
        return conn.execute(
            f"UPDATE {table} SET search_vector ="
            f" ts_filter(search_vector, '{{{text_label.lower()}}}') || ts_filter(search_vector,"
            f" '{others}') || {surroundings} WHERE owner = ? AND search_vector @@ ?::tsquery",
            (lexemes, owner, query),
        ).rowcount

    def search_passages(
        self, conn: PgConnection, index: str, columns: str, search: PassageSearch
    ) -> list[Any]:
        alias = columns.split(".", 1)[0].strip()
        table = _PASSAGES[index]
        named = dict(zip(("text", "surroundings", "speaker", "dates"), search.weights, strict=True))
        rank = _rank_weights({_PASSAGE_LABELS[k]: v for k, v in named.items()})
        query = fts_to_tsquery(search.match, _PASSAGE_LABELS)
        narrow = bool(search.scope) or not _holds_most(conn, table, search.owner)
        sql, params = _ranked(
            table,
            alias,
            columns,
            query,
            rank,
            "TRUE",
            f"{alias}.owner = ?" + search.scope,
            [search.owner, *search.scope_params],
            search.limit,
            scoped=narrow,
        )
        rows = conn.execute(sql, params, prepare=False if narrow else None).fetchall()
        width = len(rows[0]) - 2 if rows else 0  # the columns asked for, and the score
        _saw_share(conn, table, search.owner, rows, width)
        return [r[:width] for r in rows]

    def any_passage(self, conn: PgConnection, index: str, match: str, owner: str) -> bool:
        query = fts_to_tsquery(match, _PASSAGE_LABELS)
        row = conn.execute(
            f"SELECT 1 FROM {_PASSAGES[index]} p WHERE p.owner = ?"
            f" AND p.search_vector @@ to_tsquery('{TSCONFIG}', ?) LIMIT 1",
            [owner, query],
        ).fetchone()
        return row is not None


MAX_WEIGHTED_TERMS = 32  # beyond this many OR'd terms, rank by cover density alone


RANK_NORMALIZATION = 1  # ts_rank's: divide by 1 + the log of the passage's length


def _ranked(
    table: str,
    alias: str,
    columns: str,
    query: str,
    weights: str,
    live: str,
    where: str,
    where_params: Sequence[Any],
    limit: int,
    scoped: bool = False,
) -> tuple[str, list[Any]]:
    """The one statement of a search and its parameters: `columns`, the score (higher is
    better), and the owner's live rows and everyone's (`owner_rows`, `all_rows`, see
    `_holds_most`) of the rows of `table` (as `alias`) that match the tsquery text `query`
    and `where` (a condition on `alias`'s columns: the owner's, live, in scope), best first,
    at most `limit`. `live` is the condition, on the table's own columns, that a row counts
    among the owner's rows (for the idf weights); `where_params[0]` is the owner.

    Its text depends on the number of terms only, never on their words: the words are
    parameters, made tsqueries once, in a subquery of their own (`s`) that also reads their
    idf weights. So the connection prepares it (psycopg does after five runs) and the
    server plans it once per connection instead of at every search (planning was more than
    half a selective search's time on the server); the plan reads the matches from the GIN
    index, whatever the words. A `scoped` search (`where` keeps a small part of the table:
    a subtree, an owner with few of its rows) matches the query written out instead, to be
    run unprepared (`prepare=False`): the server plans it for its words, and for a word most
    rows hold it reads the part's rows rather than all of the word's matches (36 ms against
    1 ms for a subtree at 100k documents).

    The score is BM25's idea on tsvectors: each OR'd term's rank in the row (saturating in
    its count, over the row's length), weighted by how rare the term is among the owner's
    rows. ts_rank alone knows no rarity, and common words would win. A query that is not
    an OR of terms is ranked by cover density (ts_rank_cd)."""
    owner = where_params[0]
    terms = _top_level_or(query)
    if len(terms) > MAX_WEIGHTED_TERMS:
        terms = []
    k = len(terms)
    sql = _ranked_sql(table, alias, columns, weights, live, where, k, scoped)
    params = [query, *terms, owner, table, table]
    if k:
        params = [*[owner, table, owner, owner] * k, *params]  # `_idf_sql`'s first
    return sql, [*params, *([query] if scoped else []), *where_params, limit]


@lru_cache(maxsize=256)
def _ranked_sql(
    table: str, alias: str, columns: str, weights: str, live: str, where: str, k: int, scoped: bool
) -> str:
    """The text of `_ranked`'s statement for `k` OR'd terms (0: ranked by cover density), made
    once per shape: it is the same for any words, and building it took a tenth of a selective
    search's time in the client."""
    words = _words_sql(k)
    if k:
        source, _ = _idf_sql(table, "", k, live, words)
        score = " + ".join(
            f"s.w{i} * ts_rank({weights}, {alias}.search_vector, s.q{i}, {RANK_NORMALIZATION})"
            for i in range(k)
        )
    else:
        source = words
        score = f"ts_rank_cd({weights}, {alias}.search_vector, s.q, {RANK_NORMALIZATION})"
    match = f"to_tsquery('{TSCONFIG}', ?)" if scoped else "s.q"
    return (
        f"SELECT {columns}, {score} AS score, s.n AS owner_rows, s.n_all AS all_rows"
        f" FROM ({source}) AS s, {table} {alias}"
        f" WHERE {alias}.search_vector @@ {match} AND {where} ORDER BY score DESC, {alias}.id"
        " LIMIT ?"
    )


OWNER_SHARE_TTL = 60.0  # seconds a connection trusts what it saw of an owner's share


def _holds_most(conn: PgConnection, table: str, owner: str) -> bool:
    """Whether the owner's rows were at least half of `table`'s live rows when a search of
    the connection last saw them (less than OWNER_SHARE_TTL ago; `_saw_share`). False when
    not known: the search is then planned for its words and owner, and tells.

    The plan a prepared search reuses reads its words' matches of every owner from the GIN
    index and keeps the owner's: right for an owner who holds most rows, and for a rare
    word; for an owner with few rows in a table another owner fills, a common word's
    matches are mostly the other owner's (55 ms against 2 ms for 50 notes beside 100k).
    Such an owner's searches are planned for their words and owner."""
    known = conn.owner_shares.get((table, owner))
    return known is not None and known[0] and time.monotonic() - known[1] < OWNER_SHARE_TTL


def _saw_share(conn: PgConnection, table: str, owner: str, rows: Sequence[Any], at: int) -> None:
    """Note the owner's share of `table` the search's `rows` carry (the owner's rows and
    everyone's at columns `at` and `at + 1`), for the connection's next searches."""
    if rows:
        mine, everyone = rows[0][at], rows[0][at + 1]
        conn.owner_shares[(table, owner)] = (2 * mine >= everyone, time.monotonic())


def _words_sql(k: int) -> str:
    """A one-row query of the tsqueries of a query's text (q) and of its `k` terms' texts
    (q0 ...), and of the owner's live rows (n) and everyone's (n_all) of a table (the kept
    counts); its parameters: the text, the terms' texts, the owner, the table twice."""
    return (
        f"SELECT to_tsquery('{TSCONFIG}', ?) AS q"
        + "".join(f", to_tsquery('{TSCONFIG}', ?) AS q{i}" for i in range(k))
        + ", (SELECT COALESCE(SUM(n), 0) FROM search_counts WHERE owner = ? AND source = ?)"
        "::float8 AS n, (SELECT COALESCE(SUM(n), 0) FROM search_counts WHERE source = ?)"
        "::float8 AS n_all OFFSET 0"
    )


def _top_level_or(query: str) -> list[str]:
    """The operands of a tsquery text that is an OR of them at its top level; [] if not."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(query):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif depth == 0 and ch in "&!":
            return []
        elif depth == 0 and ch == "|":
            out.append(query[start:i].strip())
            start = i + 1
    out.append(query[start:].strip())
    return [t for t in out if t and t != "''"]


def _idf_sql(table: str, owner: str, k: int, live: str, words: str) -> tuple[str, list[Any]]:
    """A one-row query of what the query `words` (`_words_sql`) reads (q, the whole query;
    q0 ... its `k` terms; n and n_all) and of BM25's inverse document frequency of each term
    among the owner's rows (those that `live`, a condition on the table's own columns,
    keeps) as w0 ..., and its parameters before those of `words`. It reads no row of
    `table` for a plain word: N and each word's document frequency are the sums the tables
    `search_counts` and `search_terms` keep (in the PostgreSQL baseline migration), so its
    cost does not grow with the owner's rows. A word that two rows at most hold has no row
    in `search_terms` (migration 014), nor has a term that is not one lexeme (a prefix, a
    phrase, a field restriction): each is counted exactly through the GIN index, at the
    cost of its own matches."""
    count = (
        f"(SELECT COUNT(*) FROM {table} WHERE owner = ? AND {live} AND search_vector @@ r.q{{i}})"
    )
    each = (
        "(CASE WHEN numnode(r.q{i}) = 1 AND strpos(querytree(r.q{i}), ':') = 0 THEN"
        " COALESCE((SELECT SUM(df) FROM search_terms"
        "  WHERE owner = ? AND source = ? AND term = btrim(querytree(r.q{i}), '''')), "
        + count
        + ") ELSE "
        + count
        + " END)::float8 AS f{i}"
    )
    names = ["q", *(f"q{i}" for i in range(k)), "n", "n_all"]
    counted = (
        "SELECT "
        + ", ".join(f"r.{n}" for n in names)
        + ", "
        + ", ".join(each.format(i=i) for i in range(k))
        + f" FROM ({words}) AS r OFFSET 0"
    )
    weights = ", ".join(f"ln(1 + (t.n - t.f{i} + 0.5) / (t.f{i} + 0.5)) AS w{i}" for i in range(k))
    # OFFSET 0 keeps each level a subquery of its own, computed once: pulled up, each
    # weight would carry copies of the counting subqueries (planned again for each), and
    # each row's score would compute the weights again.
    sql = (
        "SELECT "
        + ", ".join(f"t.{n}" for n in names)
        + f", {weights} FROM ({counted}) AS t OFFSET 0"
    )
    return sql, [owner, table, owner, owner] * k


def _idf(conn: PgConnection, table: str, owner: str, terms: list[str], live: str) -> list[float]:
    """The idf weights of `terms` among the owner's rows, as the ranking statement reads
    them (`_idf_sql`), on their own."""
    sql, params = _idf_sql(table, owner, len(terms), live, _words_sql(len(terms)))
    weights = ", ".join(f"s.w{i}" for i in range(len(terms)))
    row = conn.execute(
        f"SELECT {weights} FROM ({sql}) AS s",
        [*params, " | ".join(terms), *terms, owner, table, table],
    ).fetchone()
    return list(row)


POSTGRES = PostgresDialect()


# -- connecting and migrating ---------------------------------------------------------------


def connect(url: str, *, migrate: bool = True) -> PgConnection:
    """Open a connection to the PostgreSQL database at `url` and bring its schema up to
    date (creating doctree's tables in an empty database)."""
    psycopg = _psycopg()
    try:
        raw = psycopg.connect(url, autocommit=True, connect_timeout=10)
    except psycopg.ProgrammingError as e:  # the URL itself is malformed: a usage mistake
        raise UserError(f"database {describe(url)!r}: not a valid URL ({_first_line(e)})") from None
    except psycopg.Error as e:
        raise DatabaseUnavailableError(
            f"database {describe(url)!r}: cannot connect ({_first_line(e)})"
        ) from None
    conn = PgConnection(raw, url)
    # A write waits for another's lock at most this long, then fails and stores nothing.
    POSTGRES.set_wait_timeout(conn, busy_timeout_ms())
    if migrate:
        try:
            apply_migrations(conn)
        except SchemaError as e:
            conn.close()
            raise SchemaError(f"database {describe(url)!r}: {e}") from None
        except BaseException:
            conn.close()
            raise
    return conn


def migrations() -> list[tuple[int, str, str]]:
    """(number, name, sql) of every PostgreSQL migration, in order."""
    return read_migrations(migrations_dir("postgresql"))


def apply_migrations(
    conn: PgConnection, *, available: list[tuple[int, str, str]] | None = None
) -> list[str]:
    """Apply every migration not yet recorded, each in its own transaction, under a lock
    that keeps a second host from applying the same one. Returns the names applied."""
    known = migrations() if available is None else available
    conn.execute(f"SELECT pg_advisory_lock({MIGRATION_LOCK})").fetchall()
    try:
        tables = {
            r[0]
            for r in conn.execute(
                "SELECT table_name FROM information_schema.tables"
                " WHERE table_schema = current_schema()"
            )
        }
        if tables and "doctree_migrations" not in tables:
            shown = ", ".join(sorted(tables)[:5]) + (", ..." if len(tables) > 5 else "")
            raise UserError(
                f"database {describe(conn.url)!r}: is not a doctree database (its schema "
                f"holds other tables: {shown}); give an empty database or schema"
            )
        if "doctree_migrations" not in tables:  # (an up-to-date store is opened without a
            # write, so a read-only database or a standby can still be read)
            conn.execute(
                "CREATE TABLE IF NOT EXISTS doctree_migrations (number INTEGER PRIMARY KEY,"
                " name TEXT NOT NULL, applied_at TEXT NOT NULL, sha256 TEXT NOT NULL)"
            )
        recorded = {r[0]: r[1] for r in conn.execute("SELECT name, sha256 FROM doctree_migrations")}
        names = {name for _, name, _ in known}
        unknown = sorted(set(recorded) - names)
        if unknown:
            raise unknown_migrations_error(unknown)
        applied = []
        for number, name, sql in known:
            digest = migration_sha256(sql)
            if name in recorded:
                if recorded[name] != digest:
                    raise edited_migration_error(name, recorded[name], digest)
                continue
            conn.execute("BEGIN")
            try:
                conn.script(sql)
                conn.execute(
                    "INSERT INTO doctree_migrations (number, name, applied_at, sha256)"
                    " VALUES (?, ?, ?, ?)",
                    (number, name, _now(), digest),
                )
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            applied.append(name)
        return applied
    finally:
        conn.execute(f"SELECT pg_advisory_unlock({MIGRATION_LOCK})").fetchall()


def _now() -> str:
    from doctree.timeutil import now_iso

    return now_iso()


# Every table that holds text a user may erase (`doctree.memory.erase`).
TEXT_TABLES = (
    "documents",
    "document_versions",
    "document_references",
    "passages",
    "passage_sources",  # the title a document had when its passages were cut
    "recall_passages",
    "passage_vectors",  # a vector says what its passage's text meant
    "recall_vectors",
    "search_terms",
    "sessions",
    "session_history",
    "runs",
)


def vacuum_database(conn: PgConnection) -> tuple[bool, str | None]:
    """Rewrite the tables that hold text and their indexes (VACUUM FULL), so that rows
    deleted or rewritten before leave no copy in the table or index files (plain VACUUM
    only marks their space free: the bytes stay in the page until overwritten). Each table
    is locked while it is rewritten. (True, None) when done; (False, why) when the server
    skipped a table (a role that does not own it may not vacuum it: the server only warns)."""
    skipped: list[str] = []

    def notice(diag: Any) -> None:
        if (diag.severity_nonlocalized or diag.severity) == "WARNING":
            skipped.append(diag.message_primary or "")

    conn._raw.add_notice_handler(notice)
    try:
        for table in TEXT_TABLES:
            conn.execute(f"VACUUM FULL {table}")
    except sqlite3.Error as e:
        return False, f"the database was not vacuumed ({e}); run forget again later"
    finally:
        conn._raw.remove_notice_handler(notice)
    if skipped:
        return False, (
            f"the server skipped VACUUM ({skipped[0]}); old row versions may keep a copy "
            "until the tables' owner runs VACUUM FULL"
        )
    return True, None
