"""The live document at a path, read with the store's lightest imports.

The query a one-shot read makes (`doctree read PATH`, on a connection from
`doctree.store.db.open_reader`) and the one the repository's reads make (`doctree.store.rows`
takes it from here): one definition of "the live row", however the database was opened.
"""

from __future__ import annotations

import os

from doctree.store import encoding

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3


def live_row(conn: sqlite3.Connection, owner: str, path: str) -> sqlite3.Row | None:
    """The row of the live document at `path`, if there is one."""
    return conn.execute(
        "SELECT * FROM documents WHERE owner = ? AND path = ? AND deleted_at IS NULL",
        (owner, path),
    ).fetchone()


def body_of(row: sqlite3.Row) -> str:
    """The current body of a `documents` row (stored as `encoding.encode_full` makes it)."""
    return encoding.decode(row["body_data"], None)


def current_body(conn: sqlite3.Connection, owner: str, path: str) -> str | None:
    """The body of the live document at `path` (a normalized path), or None if there is none."""
    row = live_row(conn, owner, path)
    return None if row is None else body_of(row)


def read_current(target: str | os.PathLike[str], owner: str, path: str) -> str | None:
    """The body of the live document at `path` (normalized here: PathError if it breaks a
    rule) in the database `target`, read the quick way: on a SQLite file whose schema is
    current, opened by `doctree.store.db.open_reader`, without building a repository. None
    when the quick way does not apply or finds no document; the full opening then reads it,
    migrates the file or says what is wrong."""
    from doctree.store.db import open_reader
    from doctree.store.paths import normalize_path

    path = normalize_path(path)
    conn = open_reader(target)
    if conn is None:
        return None
    try:
        return current_body(conn, owner, path)
    finally:
        conn.close()
