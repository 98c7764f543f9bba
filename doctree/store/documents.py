"""The versioned document tree: `DocumentsRepository`, the one object callers use.

Every change appends an immutable row to `document_versions`; `documents` holds the current
state of each document, and `document_references` the references each version makes. The
repository is a facade over the parts of the store, each a module of its own:

- `core`: the connection, its dialect (`backends`) and the transactions;
- `rows`: rows read into `Document`s and `Version`s (`model` holds the types);
- `writes`: write, edit, move, delete and restore, with preconditions and versions;
- `reads`: a document now, at a version or at a time, history, diff and the change log;
- `tree`, `backlinks` (stored references), `search`;
- `redaction`: erasing a version's content, and the rewriting a forget asks for.

The SQL each backend says its own way lives behind `doctree.store.backends.Dialect`.
"""

from __future__ import annotations

import functools
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from types import MethodType
from typing import Any, TypeVar, cast

from doctree.arguments import checked
from doctree.errors import TransactionError as TransactionError
from doctree.errors import UserError
from doctree.store import db as dbmod
from doctree.store.backends import BackendConnection, is_connection, is_database_url
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


F = TypeVar("F", bound=Callable[..., Any])


class _Part:
    """A method of the repository that one of its parts carries out, with its arguments
    checked against its annotations (`doctree.arguments.checked`): the public edge."""

    def __init__(self, attr: str, method: Callable[..., Any]):
        self.attr = attr
        self.name = method.__name__
        self.checked = checked(method)
        self.checked.__qualname__ = f"DocumentsRepository.{self.name}"
        functools.update_wrapper(self, method)  # its name, documentation and signature

    def __get__(self, repo: object, cls: type | None = None) -> Any:
        if repo is None:
            return self.__wrapped__
        return MethodType(self.checked, getattr(repo, self.attr))


def part(attr: str, method: F) -> F:
    """`method` of the part the repository keeps in `attr`, as a method of the repository:
    `repo.write(...)` is `repo._writes.write(...)`."""
    return cast(F, _Part(attr, method))


class DocumentsRepository:
    """The document tree of every owner in one database (a SQLite file or a server).

    Open it with a path or URL (created and migrated as needed) or an open connection. One
    write is one transaction; `transaction()` groups several writes into one.
    """

    @checked
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
        if is_connection(db):
            conn = db
            self._owns_conn = False
            dbmod.register_functions(db)  # the full-text index's view decodes with it
        else:
            conn = dbmod.connect(db)
            self._owns_conn = True
        self._core = Core(conn, max_body_bytes)
        self.conn = conn
        self.dialect = self._core.dialect
        self._reads = Reads(self._core)
        self._writes = Writes(self._core, self._reads)
        self._redaction = Redaction(self._core, self._reads, self._writes)
        self._tree = Tree(self._core)
        self._references = References(self._core)
        self._search = Search(self._core)

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

    transaction = part("_core", Core.transaction)

    @property
    def in_write_transaction(self) -> bool:
        """True inside this repository's own `transaction()` (which holds the write lock)."""
        return self._core.in_write_transaction

    snapshot = part("_core", Core.snapshot)

    # -- reads -----------------------------------------------------------------------------

    get = part("_reads", Reads.get)
    exists = part("_reads", Reads.exists)
    read = part("_reads", Reads.read)
    version = part("_reads", Reads.version)
    read_by_id = part("_reads", Reads.read_by_id)
    history = part("_reads", Reads.history)
    iter_versions = part("_reads", Reads.iter_versions)
    diff = part("_reads", Reads.diff)
    log = part("_reads", Reads.log)
    children = part("_reads", Reads.children)
    documents = part("_reads", Reads.documents)
    current_versions = part("_reads", Reads.current_versions)
    deleted_versions = part("_reads", Reads.deleted_versions)
    version_total = part("_reads", Reads.version_total)
    versions_per_run = part("_reads", Reads.versions_per_run)
    owners = part("_reads", Reads.owners)
    total_size = part("_reads", Reads.total_size)
    max_version_id = part("_reads", Reads.max_version_id)

    # -- the tree, references and search ---------------------------------------------------

    tree = part("_tree", Tree.tree)
    links = part("_references", References.links)
    backlinks = part("_references", References.backlinks)
    search = part("_search", Search.search)

    # -- writes ----------------------------------------------------------------------------

    write = part("_writes", Writes.write)
    edit = part("_writes", Writes.edit)
    move = part("_writes", Writes.move)
    delete = part("_writes", Writes.delete)
    restore = part("_writes", Writes.restore)

    # -- redaction and forget --------------------------------------------------------------

    # Storage primitives: `doctree.memory.erase` is the public way to erase, which reaches
    # the sessions' history and the recall record too.
    erase_version = part("_redaction", Redaction.erase_version)
    erase_version_by_id = part("_redaction", Redaction.erase_version_by_id)
    replace_text = part("_redaction", Redaction.replace_text)
    scrub_paths = part("_redaction", Redaction.scrub_paths)
    scrub_links = part("_redaction", Redaction.scrub_links)
    optimize_search_index = part("_redaction", Redaction.optimize_search_index)
