"""The tree of an owner's documents, now or as it was at a time, as nested `TreeNode`s:
read in one query over a covering index, and built in one pass over the rows.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime

from doctree.errors import NotFoundError
from doctree.store.core import Part
from doctree.store.model import TreeNode, parse_time
from doctree.store.paths import HOME, normalize_path, parent_of, subtree_bounds, validate_owner


class Tree(Part):
    """The tree of a repository's documents."""

    def tree(
        self,
        owner: str,
        path: str = HOME,
        *,
        depth: int | None = None,
        at: str | datetime | None = None,
    ) -> list[TreeNode]:
        """The tree at or below `path` as nested nodes (now, or as it was at a time).

        For the home the result is the list of top-level nodes; otherwise a one-node list.
        """
        owner, path = validate_owner(owner), normalize_path(path)
        lo, hi = subtree_bounds(path)
        cur = self.conn.cursor()
        cur.row_factory = None  # plain tuples: (id, path, title, version, size, updated_at)
        with gc_paused():  # tens of thousands of rows and nodes: see gc_paused
            if at is None:
                # Two ranges of the covering index idx_documents_tree (an OR of them
                # would make SQLite read the table).
                columns = "id, path, title, version, size, updated_at"
                rows = cur.execute(
                    f"SELECT {columns} FROM documents WHERE owner = ? AND deleted_at IS NULL"
                    f" AND path = ? UNION ALL SELECT {columns} FROM documents"
                    " WHERE owner = ? AND deleted_at IS NULL AND path >= ? AND path < ?",
                    (owner, path, owner, lo, hi),
                ).fetchall()
            else:
                rows = cur.execute(
                    "SELECT v.document_id AS id, v.path, v.title, v.version, v.size,"
                    " v.created_at AS updated_at FROM document_versions v"
                    " JOIN (SELECT document_id, MAX(version) AS mv FROM document_versions"
                    "       WHERE owner = ? AND created_at <= ? GROUP BY document_id) m"
                    "   ON m.document_id = v.document_id AND m.mv = v.version"
                    " WHERE v.deleted = 0 AND (v.path = ? OR (v.path >= ? AND v.path < ?))",
                    (owner, parse_time(at), path, lo, hi),
                ).fetchall()
            if path != HOME and not any(r[1] == path for r in rows):
                when = f" at {parse_time(at)}" if at is not None else ""
                raise NotFoundError(f"document {path!r} not found for owner {owner!r}{when}")
            return build_tree(rows, path, depth)


@contextmanager
def gc_paused() -> Iterator[None]:
    """No cyclic garbage collection while a large acyclic structure is built: the collector
    would go over every object made so far again and again, which makes the whole build
    grow faster than its size (a tree of 100k nodes)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def build_tree(rows: Sequence[tuple], path: str, depth: int | None) -> list[TreeNode]:
    """Nest rows (id, path, title, version, size, updated_at) under `path`."""
    base_depth = 0 if path == HOME else path.count("/")
    nodes: dict[str, TreeNode] = {}
    for r in sorted(rows, key=lambda r: r[1]):
        if depth is not None and r[1].count("/") - base_depth > depth:
            continue
        nodes[r[1]] = TreeNode(r[0], r[1], r[2], r[3], r[4], r[5])
    roots: list[TreeNode] = []
    for p, node in nodes.items():
        parent = nodes.get(parent_of(p) or "")
        if parent is not None and p != path:
            parent.children.append(node)
        elif p == path or parent_of(p) == HOME:
            roots.append(node)
    return roots
