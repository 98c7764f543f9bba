"""The core of a document repository: its connection, the connection's dialect, and its
transactions (one write = one transaction; `transaction()` groups writes; `snapshot()`
gives reads one view). Every part of the repository works through one `Core`; `Part` is
what the parts share.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

from doctree.errors import DoctreeError, TransactionError
from doctree.store.backends import Dialect, dialect_of


class Core:
    """The connection of a repository (its `dialect`), its write and read transactions,
    and the body limit its writes keep."""

    def __init__(self, conn: sqlite3.Connection, max_body_bytes: int):
        self.conn = conn
        self.dialect = dialect_of(conn)
        self.max_body_bytes = max_body_bytes
        self._depth = 0
        self._serial = 0
        self._open: list[int] = []  # serials of the open transaction levels, outermost first
        self._broken: set[int] = set()  # levels whose rollback would undo a half-done write
        self._reading = False  # inside snapshot()
        self._purge_index = False  # a redaction asks for the full-text index to be merged
        self._replaced = 0  # entries of the documents' full-text index this transaction replaced
        self._untidied = 0  # entries replaced by committed transactions since the last tidying
        self.dialect.prepare(conn)

    @property
    def location(self) -> str | None:
        """Where the database is: its file, or the server's URL."""
        return self.dialect.location(self.conn)

    def merge_index_at_commit(self) -> None:
        """Have the full-text index merged when the outermost transaction commits: text
        removed from it lingers in its segments until they are merged (redaction)."""
        self._purge_index = True

    def index_replaced(self) -> None:
        """Note that the open transaction took an entry out of the documents' full-text
        index (a document changed or deleted): once enough have been, the index's segments
        are merged a step in proportion as a transaction commits
        (`Dialect.tidy_documents_index`)."""
        self._replaced += 1

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One write transaction (BEGIN IMMEDIATE); nested calls become savepoints.

        Writes (write, edit, move, ...) inside it join it without a savepoint of their own:
        they check everything before they change anything, so a refused write leaves the
        transaction as it was. (A savepoint per write would also make FTS5 flush its
        pending index on every write, which is what makes batches slow.) Should a write
        fail midway, the whole transaction is rolled back at its end and TransactionError
        raised, unless a savepoint taken before that write was rolled back first.
        """
        self._serial += 1
        serial = self._serial
        # Outermost: BEGIN, unless the connection is already in a transaction of its
        # owner's (a shared connection): then a savepoint inside that one.
        begin = self._depth == 0 and not self.conn.in_transaction
        # Named by depth, not by serial: a fixed few names keep the connection's cache of
        # prepared statements from filling with one-off SAVEPOINT texts.
        name = f"doctree_sp{self._depth}"
        if begin:
            self.dialect.begin_write(self.conn)
        else:
            self.conn.execute(f"SAVEPOINT {name}")
        self._depth += 1
        self._open.append(serial)

        def undo() -> None:
            if begin:
                self.conn.execute("ROLLBACK")
            else:
                self.conn.execute(f"ROLLBACK TO {name}")
                self.conn.execute(f"RELEASE {name}")

        try:
            yield
        except BaseException:
            self._open.pop()
            self._depth -= 1
            if self._depth == 0:
                self._purge_index, self._replaced = False, 0
            undo()
            if serial in self._broken:  # the half-done write is undone
                self._broken = set()
            raise
        self._open.pop()
        self._depth -= 1
        if self._depth == 0 and self._broken:
            self._broken = set()
            self._purge_index, self._replaced = False, 0
            undo()
            raise TransactionError(
                "a write in this transaction failed after changing the database; "
                "the whole transaction was rolled back"
            )
        if self._depth == 0 and (self._purge_index or self._replaced):
            purge, replaced = self._purge_index, self._untidied + self._replaced
            self._purge_index, self._replaced = False, 0
            try:
                if purge:  # the terms of erased text are gone from the index
                    self.dialect.optimize_documents_index(self.conn)
                    replaced = 0
                elif self.dialect.tidy_documents_index(self.conn, replaced):
                    replaced = 0  # the replaced entries do not pile up in it
            except BaseException:
                undo()
                raise
            self._untidied = replaced
        self.conn.execute("COMMIT" if begin else f"RELEASE {name}")

    @property
    def in_write_transaction(self) -> bool:
        """True inside this repository's own `transaction()` (which holds the write lock)."""
        return self._depth > 0

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """A read transaction: every read inside sees the database as of its start.

        Under WAL a reader holds its snapshot while other connections write and commit, so
        several reads (an export of a subtree) never mix states from before and after a
        concurrent write. Read-only: a write inside raises. Inside a transaction that is
        already open, reads already share one view, and this does nothing.
        """
        if self._depth > 0 or self._reading or self.conn.in_transaction:
            yield
            return
        self.dialect.begin_read(self.conn)
        self._reading = True
        try:
            yield
        finally:
            self._reading = False
            # Nothing was written through this repository (see writing); COMMIT rather than
            # ROLLBACK so that nothing another user of a shared connection wrote is lost.
            self.conn.execute("COMMIT")

    @contextmanager
    def writing(self) -> Iterator[None]:
        """The transaction of one write: its own, or the caller's (see `transaction`)."""
        if self._reading:
            raise DoctreeError("cannot write inside a read snapshot; open a transaction instead")
        if self._depth == 0:
            with self.transaction():
                yield
            return
        before = self.conn.total_changes
        try:
            yield
        except BaseException:
            if self.conn.total_changes != before:
                self._broken = set(self._open)
            raise


class Part:
    """The base of each part of a repository (`Reads`, `Writes`, `Redaction`, `Tree`,
    `References`, `Search`): the core, connection and dialect that
    `doctree.store.documents.DocumentsRepository`, which is every part at once, sets."""

    _core: Core
    conn: sqlite3.Connection
    dialect: Dialect
