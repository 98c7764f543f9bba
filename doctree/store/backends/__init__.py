"""The storage seam: what differs between the SQL backends, behind one narrow interface.

The domain logic of the store (paths, references, preconditions, versions, leases, the
worker's queue) is written once, in portable SQL with `?` placeholders, against a
connection with the `sqlite3` interface. A backend supplies that connection and a
`Dialect`: the few things SQL does not say the same way everywhere — how a write
transaction takes the store's write lock, the full-text indexes and their queries, and
housekeeping (secure deletion, vacuuming the file).

- `sqlite`: the embedded default, one file (`doctree.store.db.connect`).
- `postgres`: a PostgreSQL server, for several hosts sharing one store
  (`--db postgresql://...`; `pip install 'doctree[postgres]'`).

Errors of every backend are raised as `sqlite3`'s DB-API classes (`sqlite3.IntegrityError`,
`sqlite3.OperationalError`, `sqlite3.DatabaseError`, all under `sqlite3.Error`), the
portable hierarchy the domain code catches.
"""

from __future__ import annotations

import os
import re
import sqlite3
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Protocol

from doctree.errors import DatabaseUnavailableError
from doctree.store.targets import busy_timeout_ms as busy_timeout_ms  # (defined there, light)
from doctree.store.targets import is_database_url as is_database_url

if TYPE_CHECKING:
    from typing_extensions import TypeIs

    from doctree.store.model import PassageSearch

_WORD = re.compile(r"\w+", re.UNICODE)


def is_unavailable(error: BaseException) -> bool:
    """Whether `error` means "the database cannot serve this now, try again later": a
    server that cannot be reached, or a lock held by another connection past the busy
    timeout (SQLite's "database is locked", a server's lock timeout). Nothing of the failed
    call is stored in either case."""
    if isinstance(error, DatabaseUnavailableError):
        return True
    return isinstance(error, sqlite3.OperationalError) and (
        getattr(error, "sqlite_errorname", "") in ("SQLITE_BUSY", "SQLITE_LOCKED")
        or "database is locked" in str(error)
    )


def describe(target: str | os.PathLike[str]) -> str:
    """`target` as it may be shown to a user: a server URL without its password."""
    text = os.fspath(target)
    if re.match(r"[A-Za-z][A-Za-z0-9+.-]*://", text):  # any URL, a refused one too
        return re.sub(r"(://[^:/@]*):[^@/]*@", r"\1:***@", text)
    return text


def search_words(text: str | None) -> str:
    """Text as every backend's full-text index sees it: words of letters and digits,
    case and diacritics folded, joined by spaces."""
    if not text:
        return ""
    folded = unicodedata.normalize("NFKD", text.casefold())
    folded = "".join(c for c in folded if not unicodedata.combining(c))
    return " ".join(_WORD.findall(folded))


class Dialect(Protocol):
    """What a backend says its own way. `conn` is the backend's connection."""

    name: str
    # Whether one statement's row locks serialise writes to a row while writes to other
    # rows go on at once (a server, with `SKIP LOCKED`), so the worker queue's bookkeeping
    # (claims, leases, the hand-over's compare-and-swap) needs no write lock.
    row_locks: bool
    contentless_passages: bool
    """Whether the index of document passages keeps only terms (SQLite's contentless FTS5):
    then an entry is taken out by `unindex_passage_entries`, told what it indexed."""
    packed_passage_text: bool
    """Whether a passage's text is stored as `encoding.encode_full` makes it (a BLOB,
    compressed when that is smaller) rather than as text; read with `encoding.text_of`."""
    writes_in_with: bool
    """Whether an `UPDATE` may be put in the `WITH` of another statement (PostgreSQL's
    data-modifying `WITH`), so that two writes to a server cost one round trip."""

    def index_hint(self, index: str) -> str:
        """SQL after a table name that makes the query use `index` ('' if not needed)."""

    def one_of(self, column: str, values: Sequence[Any]) -> tuple[str, list[Any]]:
        """A condition that `column` is one of `values`, and its parameters: one statement
        for any number of values."""

    def begin_write(self, conn: Any) -> None:
        """Open a transaction that holds the store's write lock until it ends."""

    def begin_read(self, conn: Any) -> None:
        """Open a read-only transaction that sees one snapshot of the store."""

    def location(self, conn: Any) -> str | None:
        """Where the database lives (a file path, or a server URL to connect to again:
        show it through `describe`), if known."""

    def set_wait_timeout(self, conn: Any, ms: int) -> None:
        """How long a statement waits for another connection's lock before it fails."""

    def prepare(self, conn: Any) -> None:
        """Per-connection settings a repository relies on (e.g. secure deletion)."""

    def queue_passages(self, conn: Any, doc_id: int, owner: str) -> None:
        """Put a document whose version, path, title or deletion changed in
        `passage_pending`, for the passage index to catch up with (where a trigger on
        `documents` does not do it already)."""

    # The current documents' full-text index.
    def index_document(self, conn: Any, doc_id: int, path: str, title: str, body: str) -> None:
        """Add a document's current path, title and body to the index."""

    def unindex_document(
        self, conn: Any, doc_id: int, path: str, title: str, body: str | None
    ) -> None:
        """Take a document's indexed values (as last indexed) out of the index."""

    def document_index_value(
        self, path: str, title: str, body: str | None
    ) -> tuple[str, str, list[Any]] | None:
        """Where the index is a column of `documents`: (column, SQL value with `?`
        parameters, parameters) that set a document's entry in the INSERT or UPDATE that
        writes its row (`body` None: no entry), saving a statement; None where the index
        is apart from the row (`index_document` and `unindex_document` keep it)."""

    def optimize_documents_index(self, conn: Any) -> None:
        """Rewrite the index so that no entry of removed text stays in storage."""

    def tidy_documents_index(self, conn: Any, replaced: int) -> bool:
        """Upkeep at the end of a write transaction, `replaced` entries having been taken out
        of the index since the last time this returned True (SQLite: merge FTS5 segments a
        step, so they do not pile up). False: not yet, ask again with more."""

    def search_documents(
        self,
        conn: Any,
        match: str,
        owner: str,
        scope: str,
        scope_params: Sequence[Any],
        limit: int,
        bodies: bool = False,
    ) -> list[tuple[Any, ...]]:
        """Rows (id, path, title, version, updated_at, score, body), best first, higher
        score better. `match` is an FTS5 expression (see `fts_to_tsquery`). `body` is the
        current body as the index holds it when `bodies` is asked, else None: snippets are
        the caller's (`doctree.store.search.snippet_of`), the same on every backend."""

    # The passage indexes: `passages` (passages of documents) and `recall` (of sessions).
    def index_passage(
        self,
        conn: Any,
        index: str,
        passage_id: int,
        owner: str,
        text: str,
        surroundings: str,
        speaker: str,
        dates: str,
    ) -> None:
        """Add one passage to the index `index` ('passages' or 'recall')."""

    def index_passage_entries(
        self, conn: Any, index: str, entries: Sequence[tuple[int, str, str, str, str, str]]
    ) -> None:
        """Add entries (id, owner, text, surroundings, speaker, dates) to the index `index`
        at once (`index_passage` of each)."""

    def passage_index_value(
        self, index: str, text: str, surroundings: str, speaker: str, dates: str
    ) -> tuple[str, str, list[Any]] | None:
        """As `document_index_value`, for a passage of the index `index`: set in the INSERT
        of its row where the index is a column of it; None where `index_passage` keeps it."""

    def unindex_passages(self, conn: Any, index: str, ids_sql: str, params: Sequence[Any]) -> None:
        """Take the passages whose ids `ids_sql` selects out of the index, before the caller
        deletes their rows."""

    def unindex_passage_entries(
        self, conn: Any, index: str, entries: Sequence[tuple[int, str, str, str, str, str]]
    ) -> None:
        """Take entries (id, owner, text, surroundings, speaker, dates) out of an index that
        keeps only terms, each told exactly what it was indexed with."""

    def optimize_passage_index(self, conn: Any, index: str) -> None:
        """Rewrite the index so that no entry of removed text stays in storage."""

    def rewrite_passage_index(
        self,
        conn: Any,
        index: str,
        owner: str,
        texts: dict[int, str],
        surroundings_map: Callable[[str], str],
        removed: Sequence[str],
    ) -> int:
        """Bring the index of `owner`'s passages in line after an erasure, where the index
        is a column of the row (PostgreSQL): the passages in `texts` (by id) are indexed with
        their new text, and every entry's surroundings has the erased text taken out — passed
        through `surroundings_map` where the index keeps the surroundings as text, or the
        words of `removed` (the texts that were erased) dropped from it where the index keeps
        only its words. Returns how many surroundings changed. (SQLite's passage indexes
        keep no text: their entries are made again from the rows, `RecallIndex.rewrite`.)"""

    def search_passages(
        self, conn: Any, index: str, columns: str, search: PassageSearch
    ) -> list[Any]:
        """Rows of `columns` (over the passage table aliased as in `columns`) plus a last
        column, the score (higher is better), best first. Weights are per field: text,
        surroundings, speaker, dates."""

    def any_passage(self, conn: Any, index: str, match: str, owner: str) -> bool:
        """Whether any passage of `owner` in the index matches `match`: found without
        scoring the matches (`search_passages` scores every one)."""


def dialect_of(conn: Any) -> Dialect:
    """The dialect of a connection: its own `dialect`, else SQLite's (a `sqlite3` one)."""
    found = getattr(conn, "dialect", None)
    if found is not None:
        return found
    from doctree.store.backends.sqlite import SQLITE

    return SQLITE


def begin_write(conn: Any) -> None:
    """Open a write transaction on `conn` (see `Dialect.begin_write`)."""
    dialect_of(conn).begin_write(conn)


@contextmanager
def write_transaction(conn: Any) -> Iterator[None]:
    """One write transaction on `conn`, committed at the end and rolled back on an
    exception; a savepoint inside the transaction `conn` already has, if it has one."""
    if conn.in_transaction:
        # One name for every such savepoint: nested ones are released and rolled back to
        # innermost first, the most recent of a name, on both backends. (A name of its own
        # each time made each a statement of its own for the connection's cache of
        # prepared statements, and a hundred of them pushed the others out of it.)
        conn.execute("SAVEPOINT doctree_tx")
        try:
            yield
        except BaseException:
            conn.execute("ROLLBACK TO doctree_tx")
            conn.execute("RELEASE doctree_tx")
            raise
        conn.execute("RELEASE doctree_tx")
        return
    begin_write(conn)
    try:
        yield
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


class BackendConnection:
    """The base of a backend's own connection class (the SQLite backend uses
    `sqlite3.Connection` itself): it has the `sqlite3.Connection` interface and a `dialect`."""

    dialect: Dialect


def is_connection(db: object) -> TypeIs[sqlite3.Connection | BackendConnection]:
    """Whether `db` is an open connection of a backend (rather than a path or URL)."""
    import sqlite3

    return isinstance(db, sqlite3.Connection | BackendConnection)
