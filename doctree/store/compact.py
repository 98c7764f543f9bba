"""The data step of migration 010: version bodies stored as plain text become encoded.

`convert` runs after the SQL of `010_compact_versions` (the migrations runner calls it on
every open until it is done). It works in batches, each its own transaction, in row id
order: a version is converted once its plain `body` has an encoded `body_data`, and the plain
bodies stay until the last batch, so every version is encoded against the plain text of the
version before it and a batch never depends on another. An interrupted conversion resumes on
the next open; the last batch drops the plain `body` column, and the file is then vacuumed
if most of it has become free space.
"""

from __future__ import annotations

import sqlite3

from doctree.store import encoding

BATCH = 500


def pending(conn: sqlite3.Connection) -> bool:
    """True while `document_versions` still has its plain `body` column."""
    return any(r[1] == "body" for r in conn.execute("PRAGMA table_info(document_versions)"))


def convert(conn: sqlite3.Connection, *, batch: int = BATCH, max_batches: int | None = None) -> int:
    """Encode the plain bodies still in `document_versions`; returns how many were encoded.

    `max_batches` stops early (what an interruption leaves, for tests).
    """
    if not pending(conn):
        return 0
    converted, last_id, batches = 0, 0, 0
    while max_batches is None or batches < max_batches:
        batches += 1
        conn.execute("BEGIN IMMEDIATE")
        try:
            if not pending(conn):  # another process finished it meanwhile
                conn.execute("COMMIT")
                return converted
            rows = conn.execute(
                "SELECT v.id, v.version, v.body, v.body_data, p.body AS base"
                " FROM document_versions v LEFT JOIN document_versions p"
                "  ON p.document_id = v.document_id AND p.version = v.version - 1"
                " WHERE v.id > ? ORDER BY v.id LIMIT ?",
                (last_id, batch),
            ).fetchall()
            if not rows:
                conn.execute("ALTER TABLE document_versions DROP COLUMN body")
                conn.execute("COMMIT")
                _vacuum_if_mostly_free(conn)
                return converted
            for r in rows:
                if r["body"] is not None and r["body_data"] is None:
                    conn.execute(
                        "UPDATE document_versions SET body_data = ? WHERE id = ?",
                        (encoding.encode(r["body"], r["base"], r["version"]), r["id"]),
                    )
                    converted += 1
            last_id = rows[-1]["id"]
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    return converted


def _vacuum_if_mostly_free(conn: sqlite3.Connection) -> None:
    free = conn.execute("PRAGMA freelist_count").fetchone()[0]
    total = conn.execute("PRAGMA page_count").fetchone()[0]
    if total and free > total // 4:
        conn.execute("VACUUM")
