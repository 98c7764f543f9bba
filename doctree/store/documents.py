"""The versioned document tree: `DocumentsRepository`, the one object callers use.

Every change appends an immutable row to `document_versions`; `documents` holds the current
state of each document, and `document_references` the references each version makes. The
repository is every part of the store at once (it inherits each part's methods), and each
part is a module of its own:

- `core`: the connection, its dialect (`backends`) and the transactions;
- `rows`: rows read into `Document`s and `Version`s (`model` holds the types);
- `writes`: write, edit, move, delete and restore, with preconditions and versions;
- `reads`: a document now, at a version or at a time, history, diff and the change log;
- `tree`, `backlinks` (stored references), `search`;
- `redaction`: erasing a version's content, and the rewriting a forget asks for.

The SQL each backend says its own way lives behind `doctree.store.backends.Dialect`.
"""

from __future__ import annotations

import os
import sqlite3
from contextlib import AbstractContextManager
from pathlib import Path
from typing import cast

from doctree.arguments import checked_methods
from doctree.errors import TransactionError as TransactionError
from doctree.errors import UserError
from doctree.store import db as dbmod
from doctree.store.backends import BackendConnection, is_database_url
from doctree.store.backlinks import References
from doctree.store.core import Core
from doctree.store.model import (
    ACTOR_KINDS,
    DEFAULT_MAX_BODY_BYTES,
    MAX_SQL_INT,
    MAX_TITLE_BYTES,
    OPERATIONS,
    Actor,
    Document,
    Provenance,
    Reference,
    SearchHit,
    TreeNode,
    Version,
    check_int,
    check_title,
    clean_title,
    env_body_limit,
    parse_time,
    sha256,
    title_for,
)
from doctree.store.reads import Reads, unified_diff
from doctree.store.redaction import Redaction
from doctree.store.search import Search, fts_query
from doctree.store.tree import Tree, gc_paused
from doctree.store.writes import Writes
from doctree.timeutil import now_iso as now  # the name the store has always used

__all__ = [  # what this module has always offered, wherever it lives now
    "ACTOR_KINDS",
    "DEFAULT_MAX_BODY_BYTES",
    "MAX_SQL_INT",
    "MAX_TITLE_BYTES",
    "OPERATIONS",
    "Actor",
    "Document",
    "DocumentsRepository",
    "Provenance",
    "Reference",
    "SearchHit",
    "TransactionError",
    "TreeNode",
    "Version",
    "check_int",
    "check_title",
    "clean_title",
    "fts_query",
    "gc_paused",
    "now",
    "parse_time",
    "sha256",
    "title_for",
    "unified_diff",
]


@checked_methods  # the public edge: every call's arguments are checked (doctree.arguments)
class DocumentsRepository(Redaction, Writes, Reads, Tree, References, Search):
    """The document tree of every owner in one database (a SQLite file or a server).

    Open it with a path or URL (created and migrated as needed) or an open connection. One
    write is one transaction; `transaction()` groups several writes into one. Its methods
    are those of its parts: `Reads`, `Writes`, `Redaction`, `Tree`, `References`, `Search`.
    """

    def __init__(
        self,
        db: str | os.PathLike[str] | sqlite3.Connection | BackendConnection,
        *,
        max_body_bytes: int | None = None,
    ):
        if max_body_bytes is None:
            max_body_bytes = env_body_limit()
        if max_body_bytes <= 0:
            raise UserError(f"max_body_bytes {max_body_bytes}: must be a positive number")
        conn: sqlite3.Connection
        if isinstance(db, str | os.PathLike):
            conn = dbmod.connect(db)
            self._owns_conn = True
        else:
            # A backend's own connection has the interface of sqlite3.Connection.
            conn = cast(sqlite3.Connection, db)
            self._owns_conn = False
            dbmod.register_functions(conn)  # the full-text index's view decodes with it
        self._core = Core(conn, max_body_bytes)
        self.conn = conn
        self.dialect = self._core.dialect

    @property
    def max_body_bytes(self) -> int:
        """The largest body a write accepts, in UTF-8 bytes."""
        return self._core.max_body_bytes

    @max_body_bytes.setter
    def max_body_bytes(self, value: int) -> None:
        self._core.max_body_bytes = value

    @property
    def path(self) -> Path | None:
        """The database file (None in memory, or on a server: see `location`)."""
        where = self.location
        return Path(where) if where and not is_database_url(where) else None

    @property
    def location(self) -> str | None:
        """Where the database is: its file, or the server's URL (with its password: show
        it through `doctree.store.backends.describe`)."""
        return self._core.location

    def close(self) -> None:
        if self._owns_conn:
            self.conn.close()

    def __enter__(self) -> DocumentsRepository:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- transactions ----------------------------------------------------------------------

    def transaction(self) -> AbstractContextManager[None]:
        """One write transaction; nested calls become savepoints, and the writes inside join
        it (see `Core.transaction`)."""
        return self._core.transaction()

    @property
    def in_write_transaction(self) -> bool:
        """True inside this repository's own `transaction()` (which holds the write lock)."""
        return self._core.in_write_transaction

    def snapshot(self) -> AbstractContextManager[None]:
        """A read transaction: every read inside sees the database as of its start (see
        `Core.snapshot`)."""
        return self._core.snapshot()
