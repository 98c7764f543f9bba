"""References as stored (`document_references`): recorded for each version a write makes,
pinned to their target when it moves away or is deleted, and read back with their state
(`links`, `backlinks`). Parsing references out of a body is `doctree.store.references`.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

from doctree.store.core import Part
from doctree.store.model import Reference
from doctree.store.paths import HOME, normalize_path, parent_of, validate_owner
from doctree.store.references import body_links, declared_links
from doctree.store.rows import require


def insert_references(
    conn: sqlite3.Connection,
    owner: str,
    doc_id: int,
    version: int,
    path: str,
    body: str,
    links: list[str],
) -> None:
    refs: list[tuple[str, str]] = []
    parent = parent_of(path)
    if parent and parent != HOME:
        refs.append(("parent", parent))
    for target in dict.fromkeys([*links, *declared_links(body)]):
        refs.append(("link", target))
    for target in body_links(body):
        refs.append(("body", target))
    # A new reference is stored unpinned (target_id NULL): it means the document at its
    # path until that document moves away or is deleted (see `resolve_references_to`).
    # A reference the previous version made too keeps its pin: a link keeps following
    # its target for as long as the source keeps the link.
    if not refs:
        return
    if version == 1:
        conn.executemany(
            "INSERT INTO document_references (source_id, version, kind, owner, target_path,"
            " target_id) VALUES (?, 1, ?, ?, ?, NULL)",
            [(doc_id, kind, owner, target) for kind, target in refs],
        )
        return
    conn.executemany(
        "INSERT INTO document_references (source_id, version, kind, owner, target_path,"
        " target_id) VALUES (?, ?, ?, ?, ?, (SELECT p.target_id FROM document_references p"
        " WHERE p.source_id = ? AND p.version = ? AND p.kind = ? AND p.target_path = ?"
        " AND p.target_id IS NOT NULL LIMIT 1))",
        [
            (doc_id, version, kind, owner, target, doc_id, version - 1, kind, target)
            for kind, target in refs
        ],
    )


def resolve_references_to(conn: sqlite3.Connection, owner: str, path: str, doc_id: int) -> None:
    """Pin the references waiting on `path` (dangling, or pinned to a document deleted
    there) to the document now at `path`, before it moves away or is deleted there."""
    conn.execute(
        "UPDATE document_references SET target_id = ? WHERE owner = ? AND target_path = ?"
        " AND (target_id IS NULL OR target_id IN"
        "  (SELECT id FROM documents WHERE owner = ? AND path = ? AND deleted_at IS NOT NULL))",
        (doc_id, owner, path, owner, path),
    )


def references(conn: sqlite3.Connection, where: str, params: Sequence[Any]) -> list[Reference]:
    """References with their state. A reference points at the document it is pinned to
    while that one is live; else at the live document at its path (it waited for it, or
    its pinned target was deleted there); else it is deleted (pinned) or dangling."""
    rows = conn.execute(
        "SELECT r.kind, r.source_id, s.path AS source_path, r.target_path, r.target_id,"
        " t.path AS t_path, t.deleted_at AS t_deleted, l.id AS l_id"
        " FROM document_references r JOIN documents s ON s.id = r.source_id"
        " LEFT JOIN documents t ON t.id = r.target_id"
        " LEFT JOIN documents l ON l.owner = r.owner AND l.path = r.target_path"
        "  AND l.deleted_at IS NULL"
        "  AND (r.target_id IS NULL OR (t.deleted_at IS NOT NULL AND t.path = r.target_path))"
        f" WHERE {where} ORDER BY s.path, r.kind, r.target_path",
        params,
    )
    out = []
    for r in rows:
        if r["target_id"] is not None and r["t_deleted"] is None:
            state, target_path, target_id = "resolved", r["t_path"], r["target_id"]
        elif r["l_id"] is not None:
            state, target_path, target_id = "resolved", r["target_path"], r["l_id"]
        elif r["target_id"] is not None:
            state, target_path, target_id = "deleted", r["target_path"], r["target_id"]
        else:
            state, target_path, target_id = "dangling", r["target_path"], None
        out.append(
            Reference(r["kind"], r["source_id"], r["source_path"], target_path, target_id, state)
        )
    return out


class References(Part):
    """The references a repository's documents make and receive."""

    def links(self, owner: str, path: str) -> list[Reference]:
        """References the current version of `path` makes (parent, link, body)."""
        row = require(self.conn, validate_owner(owner), normalize_path(path))
        return references(
            self.conn, "r.source_id = ? AND r.version = ?", (row["id"], row["version"])
        )

    def backlinks(self, owner: str, path: str, *, include_parent: bool = False) -> list[Reference]:
        """Current documents whose current version references `path`."""
        owner, path = validate_owner(owner), normalize_path(path)
        row = require(self.conn, owner, path)
        kinds = "" if include_parent else " AND r.kind != 'parent'"
        # Pinned to this document, or waiting on its path (see `resolve_references_to`).
        return references(
            self.conn,
            "r.id IN (SELECT id FROM document_references WHERE target_id = ?"
            " UNION ALL SELECT id FROM document_references WHERE owner = ? AND target_path = ?"
            "  AND (target_id IS NULL OR target_id IN (SELECT id FROM documents"
            "   WHERE owner = ? AND path = ? AND deleted_at IS NOT NULL)))"
            " AND s.version = r.version AND s.deleted_at IS NULL" + kinds,
            (row["id"], owner, path, owner, path),
        )
