"""A database in the format before migration 010 (bodies in plain text, the full-text index
holding its own copy), made from the schema of migrations 001-008 and the rows of a store."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from doctree.store import encoding
from doctree.store.db import apply_migrations, connect

LAST_BEFORE = 8  # the last migration before 010_compact_versions


def old_format_copy(conn: sqlite3.Connection, dest: Path) -> None:
    """Write at `dest` the database the store in `conn` would be before migration 010.

    Every row is copied as the store wrote it then: `documents.body` and
    `document_versions.body` in plain text (NULL once redacted), and `documents_fts` with
    its own copy of the live documents.
    """
    old = connect(dest, migrate=False)
    apply_migrations(old, upto=LAST_BEFORE)
    old.execute("PRAGMA foreign_keys = OFF")  # rows are copied in id order, parents later
    old.execute("BEGIN")
    for r in conn.execute("SELECT * FROM documents ORDER BY id"):
        row = dict(r)
        row["body"] = encoding.decode(row.pop("body_data"), None)
        _insert(old, "documents", row)
    text: str | None = None
    for r in conn.execute("SELECT * FROM document_versions ORDER BY document_id, version"):
        row = dict(r)
        data = row.pop("body_data")
        text = None if data is None else encoding.decode(data, text)
        row["body"] = text
        _insert(old, "document_versions", row)
    for r in conn.execute("SELECT * FROM document_references ORDER BY id"):
        _insert(old, "document_references", dict(r))
    old.execute(
        "INSERT INTO documents_fts (rowid, path, title, body)"
        " SELECT id, path, title, body FROM documents WHERE deleted_at IS NULL ORDER BY id"
    )
    old.execute("COMMIT")
    old.close()


def _insert(conn: sqlite3.Connection, table: str, row: dict) -> None:
    cols = ", ".join(row)
    marks = ", ".join("?" * len(row))
    conn.execute(f"INSERT INTO {table} ({cols}) VALUES ({marks})", list(row.values()))
