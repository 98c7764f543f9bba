"""The data step of migration 010: bodies stored as plain text become encoded.

`convert` runs after the SQL of `010_compact_versions` (the migrations runner calls it on
every open until it is done). It works in batches, each its own transaction, in row id
order, first over `documents` then over `document_versions`. A row is converted once its
`body_data` is set; the plain bodies stay until the last batch, so every version is encoded
against the plain text of the version before it and no batch depends on another. An
interrupted conversion resumes on the next open; the last batch drops the plain `body`
columns, and the file is then vacuumed (its rows shrank in place, leaving pages mostly
empty), which needs free disk space about the size of the converted file.
"""

from __future__ import annotations

import sqlite3

from doctree.errors import SchemaError
from doctree.store import encoding

BATCH = 500
_TABLES = ("documents", "document_versions")


def pending(conn: sqlite3.Connection) -> bool:
    """True while `documents` or `document_versions` still has its plain `body` column."""
    return any(r[1] == "body" for t in _TABLES for r in conn.execute(f"PRAGMA table_info({t})"))


def convert(
    conn: sqlite3.Connection, *, batch: int | None = None, max_batches: int | None = None
) -> int:
    """Encode the plain bodies still stored; returns how many rows were encoded.

    `batch` rows per transaction (default `BATCH`); `max_batches` stops early (what an
    interruption leaves, for tests).
    """
    batch = batch or BATCH
    if not pending(conn):
        return 0
    if sqlite3.sqlite_version_info < (3, 35):
        raise SchemaError(
            f"SQLite {sqlite3.sqlite_version}: migration 010 needs SQLite 3.35 or later "
            "(ALTER TABLE ... DROP COLUMN); upgrade the SQLite library Python uses"
        )
    converted, batches = 0, 0
    last = {t: 0 for t in _TABLES}
    while max_batches is None or batches < max_batches:
        batches += 1
        conn.execute("BEGIN IMMEDIATE")
        try:
            if not pending(conn):  # another process finished it meanwhile
                conn.execute("COMMIT")
                return converted
            table, rows = _next_batch(conn, last, batch)
            if table is None:
                for t in _TABLES:
                    conn.execute(f"ALTER TABLE {t} DROP COLUMN body")
                stored = conn.execute("SELECT EXISTS (SELECT 1 FROM documents)").fetchone()[0]
                conn.execute("COMMIT")
                if stored:
                    # The rows shrank in place and their pages are mostly empty: repack.
                    conn.execute("VACUUM")
                return converted
            for r in rows:
                if r["body"] is not None and r["body_data"] is None:
                    if table == "documents":
                        value = encoding.encode_full(r["body"])
                    else:
                        value = encoding.encode(r["body"], r["base"], r["version"])
                    conn.execute(f"UPDATE {table} SET body_data = ? WHERE id = ?", (value, r["id"]))
                    converted += 1
            last[table] = rows[-1]["id"]
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    return converted


def _next_batch(
    conn: sqlite3.Connection, last: dict[str, int], batch: int
) -> tuple[str | None, list[sqlite3.Row]]:
    cur = conn.cursor()
    cur.row_factory = sqlite3.Row  # whatever the connection's own row factory
    rows = cur.execute(
        "SELECT id, body, body_data FROM documents WHERE id > ? ORDER BY id LIMIT ?",
        (last["documents"], batch),
    ).fetchall()
    if rows:
        return "documents", rows
    rows = cur.execute(
        "SELECT v.id, v.version, v.body, v.body_data, p.body AS base"
        " FROM document_versions v LEFT JOIN document_versions p"
        "  ON p.document_id = v.document_id AND p.version = v.version - 1"
        " WHERE v.id > ? ORDER BY v.id LIMIT ?",
        (last["document_versions"], batch),
    ).fetchall()
    return ("document_versions", rows) if rows else (None, [])
