"""Reads of the document tree: a document now, at a version or as it was at a time; one
version; a document's history and the diff of two versions; the change log of a subtree,
a run or a session; the live documents under a path; and the figures a derived index keeps
itself in step with (current versions, version totals).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import Any

from doctree.errors import NotFoundError
from doctree.store import encoding
from doctree.store.core import Part
from doctree.store.model import Document, Version, check_int, parse_time
from doctree.store.paths import HOME, is_under, normalize_path, subtree_bounds, validate_owner
from doctree.store.rows import (
    VERSION_BODY,
    VERSION_COLUMNS,
    any_row,
    decoded_history,
    last_deleted_row,
    live_row,
    require,
    to_document,
    to_version,
    to_versions,
)

READ_BATCH = 500  # documents `read_by_ids` reads in one statement


class Reads(Part):
    """The reads of a repository."""

    def get(self, owner: str, path: str) -> Document | None:
        """The current document at `path`, or None."""
        row = live_row(self.conn, validate_owner(owner), normalize_path(path))
        return to_document(row) if row else None

    def exists(self, owner: str, path: str) -> bool:
        return live_row(self.conn, validate_owner(owner), normalize_path(path)) is not None

    def read(
        self,
        owner: str,
        path: str,
        *,
        version: int | None = None,
        at: str | datetime | None = None,
    ) -> Document:
        """The document at `path`: current, a given version number, or as it was at a time."""
        owner, path = validate_owner(owner), normalize_path(path)
        if version is not None:
            row = live_row(self.conn, owner, path) or last_deleted_row(self.conn, owner, path)
            if row is None:
                raise NotFoundError(f"document {path!r} not found for owner {owner!r}")
            v = self.version(row["id"], version)
            return self._document_from_version(v, row["created_at"])
        if at is None:
            return to_document(require(self.conn, owner, path))
        at_ts = parse_time(at)
        # The document at `path` then: its latest version at that time is there and live.
        # Only a `created` or `moved` version changes a document's path, so the documents
        # that were ever at `path` by then are found among those (idx_versions_path_time).
        vrow = self.conn.execute(
            "SELECT v.*, d.created_at AS doc_created_at FROM document_versions v"
            " JOIN documents d ON d.id = v.document_id"
            " WHERE v.document_id IN (SELECT p.document_id FROM document_versions p"
            "   WHERE p.owner = ? AND p.path = ? AND p.operation IN ('created', 'moved')"
            "   AND p.created_at <= ?)"
            " AND v.path = ? AND v.deleted = 0"
            " AND v.version = (SELECT MAX(w.version) FROM document_versions w"
            "   WHERE w.document_id = v.document_id AND w.created_at <= ?)"
            " ORDER BY v.created_at DESC, v.id DESC LIMIT 1",
            (owner, path, at_ts, path, at_ts),
        ).fetchone()
        if vrow is not None:
            return self._document_from_version(
                to_versions(self.conn, [vrow])[0], vrow["doc_created_at"]
            )
        raise NotFoundError(f"document {path!r} did not exist at {at_ts} for owner {owner!r}")

    @staticmethod
    def _document_from_version(v: Version, created_at: str) -> Document:
        if v.body is None:
            raise NotFoundError(
                f"version {v.version} of {v.path!r} was redacted; its content is gone"
            )
        return Document(
            id=v.document_id,
            owner=v.owner,
            path=v.path,
            title=v.title,
            body=v.body,
            version=v.version,
            content_sha256=v.content_sha256,
            size=v.size,
            created_at=created_at,
            updated_at=v.created_at,
            deleted=v.deleted,
            links=v.links,
        )

    def version(self, document_id: int, version: int) -> Version:
        """One version of a document by id."""
        check_int(document_id, "document id")
        check_int(version, "version")
        row = self.conn.execute(
            "SELECT * FROM document_versions WHERE document_id = ? AND version = ?",
            (document_id, version),
        ).fetchone()
        if row is None:
            latest = self.conn.execute(
                "SELECT path, version FROM documents WHERE id = ?", (document_id,)
            ).fetchone()
            if latest is None:
                raise NotFoundError(f"no document with id {document_id}")
            raise NotFoundError(
                f"document {latest['path']!r} has no version {version} "
                f"(its versions are 1 to {latest['version']})"
            )
        return to_versions(self.conn, [row])[0]

    def read_by_id(self, document_id: int) -> Document:
        check_int(document_id, "document id")
        row = self.conn.execute("SELECT * FROM documents WHERE id = ?", (document_id,)).fetchone()
        if row is None:
            raise NotFoundError(f"no document with id {document_id}")
        return to_document(row)

    def read_by_ids(self, document_ids: Sequence[int]) -> Iterator[Document]:
        """The documents with `document_ids` (current versions, deleted ones included), in
        that order; an id with no document is left out. One read for all of them (on a
        server, one round trip instead of one per document); each body is decoded only as
        the caller comes to it, so a caller that stops early decodes no more. Ids are read
        READ_BATCH at a time (SQLite takes a bounded number of parameters)."""
        ids = [check_int(i, "document id") for i in document_ids]
        for start in range(0, len(ids), READ_BATCH):
            batch = ids[start : start + READ_BATCH]
            condition, params = self.dialect.one_of("id", batch)
            rows = {
                r["id"]: r
                for r in self.conn.execute(f"SELECT * FROM documents WHERE {condition}", params)
            }
            for i in batch:
                if i in rows:
                    yield to_document(rows[i])

    def history(self, owner: str, path: str) -> list[Version]:
        """Every version of the document at `path` (or the one last deleted there), oldest first."""
        row = any_row(self.conn, validate_owner(owner), normalize_path(path))
        # Every version from the first: each delta applies to the body decoded just before.
        return decoded_history(
            self.conn.execute(
                f"SELECT {VERSION_COLUMNS} FROM document_versions WHERE document_id = ?"
                " ORDER BY version",
                (row["id"],),
            ).fetchall()
        )

    def iter_versions(self, owner: str, under: str = HOME) -> Iterator[Version]:
        """Every version made at or below `under` (its path then) of the owner's documents,
        with its body decoded (None once redacted), by document id and then version.

        The way to read old bodies in bulk (search over history, export) without knowing
        how they are stored: each document's history is decoded in one pass, so the cost is
        one delta per version. Rows are streamed; run it inside `snapshot()` to read one
        consistent state while others write.
        """
        owner, under = validate_owner(owner), normalize_path(under)
        scope, params = "owner = ?", [owner]
        if under != HOME:
            lo, hi = subtree_bounds(under)
            scope += " AND (path = ? OR (path >= ? AND path < ?))"
            params += [under, lo, hi]
        rows = self.conn.execute(
            f"SELECT *, {VERSION_BODY} AS body_value FROM document_versions WHERE document_id IN"
            f" (SELECT document_id FROM document_versions WHERE {scope})"
            " ORDER BY document_id, version",
            params,
        )
        run: list[Any] = []  # the rows of one block of one document

        def decoded() -> Iterator[Version]:
            texts = encoding.decode_block([r["body_value"] for r in run])
            for r, text in zip(run, texts, strict=True):
                if under == HOME or r["path"] == under or is_under(r["path"], under):
                    yield to_version(r, text)

        for r in rows:
            if run and (
                r["document_id"] != run[0]["document_id"]
                or (r["version"] - 1) % encoding.CHAIN == 0
            ):
                yield from decoded()
                run = []
            run.append(r)
        if run:
            yield from decoded()

    def diff(
        self,
        owner: str,
        path: str,
        from_version: int | None = None,
        to_version: int | None = None,
    ) -> str:
        """Unified diff between two versions (default: the previous and the current one)."""
        row = any_row(self.conn, validate_owner(owner), normalize_path(path))
        to_v = to_version if to_version is not None else row["version"]
        from_v = from_version if from_version is not None else to_v - 1
        b = self.version(row["id"], to_v)
        a_body, a_label = "", "/dev/null"
        if from_v >= 1:
            a = self.version(row["id"], from_v)
            a_body, a_label = (a.body or ""), f"{a.path}@{a.version}"
        return unified_diff(a_body, b.body or "", a_label, f"{b.path}@{b.version}")

    def log(
        self,
        owner: str | None,
        under: str = HOME,
        *,
        run_id: int | None = None,
        session_id: str | None = None,
        since: str | datetime | None = None,
        limit: int | None = 100,
    ) -> list[Version]:
        """Versions under a path (newest first): the change log of a subtree, a run or a session.

        An owner's log is in time order, newest first (ties, such as a document and the
        parents one write created, newest id first), which the index on (owner, created_at)
        gives without sorting; a run's or a session's is in the order its versions were
        written (by id), which is the same order as long as the clock does not go back."""
        where: list[str] = []
        params: list[Any] = []
        if owner is not None:
            where.append("owner = ?")
            params.append(validate_owner(owner))
        under = normalize_path(under)
        if under != HOME:
            lo, hi = subtree_bounds(under)
            where.append("(path = ? OR (path >= ? AND path < ?))")
            params += [under, lo, hi]
        if run_id is not None:
            where.append("run_id = ?")
            params.append(check_int(run_id, "run"))
        if session_id is not None:
            where.append("session_id = ?")
            params.append(session_id)
        if since is not None:
            where.append("created_at >= ?")
            params.append(parse_time(since))
        sql = "SELECT * FROM document_versions"
        if where:
            sql += " WHERE " + " AND ".join(where)
        by_time = owner is not None and run_id is None and session_id is None
        sql += " ORDER BY created_at DESC, id DESC" if by_time else " ORDER BY id DESC"
        if limit is not None:
            sql += f" LIMIT {check_int(limit, 'limit')}"
        return to_versions(self.conn, self.conn.execute(sql, params).fetchall())

    def children(self, owner: str, path: str) -> list[Document]:
        """Live children of `path` (for the home: the top-level documents), by path."""
        owner, path = validate_owner(owner), normalize_path(path)
        if path == HOME:
            rows = self.conn.execute(
                "SELECT * FROM documents WHERE owner = ? AND parent_id IS NULL"
                " AND deleted_at IS NULL ORDER BY path",
                (owner,),
            )
        else:
            parent = require(self.conn, owner, path)
            rows = self.conn.execute(
                "SELECT * FROM documents WHERE parent_id = ? AND deleted_at IS NULL ORDER BY path",
                (parent["id"],),
            )
        return [to_document(r, with_links=False) for r in rows]

    def documents(
        self, owner: str, under: str = HOME, *, with_links: bool = False
    ) -> list[Document]:
        """Every live document at or below `under`, by path (with their declared links if
        `with_links`)."""
        owner, under = validate_owner(owner), normalize_path(under)
        lo, hi = subtree_bounds(under)
        rows = self.conn.execute(
            "SELECT * FROM documents WHERE owner = ? AND deleted_at IS NULL"
            " AND (path = ? OR (path >= ? AND path < ?)) ORDER BY path",
            (owner, under, lo, hi),
        )
        return [to_document(r, with_links=with_links) for r in rows]

    def current_versions(self, owner: str, under: str = HOME) -> dict[int, int]:
        """The current version of every live document at or below `under`, by document id.

        What a derived index (the retrieval passages) compares with the versions it was built
        from, to find what changed without reading any body.
        """
        return self._versions_by_id(owner, under, deleted=False)

    def deleted_versions(self, owner: str, under: str = HOME) -> dict[int, int]:
        """The current (tombstone) version of every deleted document last at or below
        `under`, by document id: what a derived index must have dropped."""
        return self._versions_by_id(owner, under, deleted=True)

    def version_total(self, owner: str) -> int:
        """The number of versions of the owner's documents (the sum of their current version
        numbers, deleted documents included). Every change adds to it, so a derived index
        that holds the sum of the versions it has seen of every document is up to date
        exactly when its sum equals this one: one cheap query when nothing changed.
        """
        owner = validate_owner(owner)
        return self.conn.execute(  # live and deleted apart: each has an index on (owner, path)
            "SELECT (SELECT COALESCE(SUM(version), 0) FROM documents"
            " WHERE owner = ? AND deleted_at IS NULL) + (SELECT COALESCE(SUM(version), 0)"
            " FROM documents WHERE owner = ? AND deleted_at IS NOT NULL)",
            (owner, owner),
        ).fetchone()[0]

    def versions_per_run(self, run_ids: list[int]) -> dict[int, int]:
        """How many versions each of these runs made (runs that made none are left out)."""
        if not run_ids:
            return {}
        marks = ",".join("?" * len(run_ids))
        rows = self.conn.execute(
            f"SELECT run_id, COUNT(*) FROM document_versions WHERE run_id IN ({marks})"
            " GROUP BY run_id",
            [int(r) for r in run_ids],
        )
        return {r[0]: r[1] for r in rows}

    def _versions_by_id(self, owner: str, under: str, *, deleted: bool) -> dict[int, int]:
        owner, under = validate_owner(owner), normalize_path(under)
        state = "IS NOT NULL" if deleted else "IS NULL"
        sql = f"SELECT id, version FROM documents WHERE owner = ? AND deleted_at {state}"
        params: list[Any] = [owner]
        if under != HOME:
            lo, hi = subtree_bounds(under)
            sql += " AND (path = ? OR (path >= ? AND path < ?))"
            params += [under, lo, hi]
        cur = self.conn.cursor()
        cur.row_factory = None  # plain tuples: thousands of rows, read for two numbers each
        return dict(cur.execute(sql, params).fetchall())

    def owners(self) -> list[str]:
        # Each half reads one partial index on (owner, path): live documents, deleted ones.
        return [
            r[0]
            for r in self.conn.execute(
                "SELECT owner FROM documents WHERE deleted_at IS NULL UNION"
                " SELECT owner FROM documents WHERE deleted_at IS NOT NULL ORDER BY 1"
            )
        ]

    def total_size(self, owner: str, under: str = HOME) -> int:
        """Bytes of body in every live document at or below `under`."""
        owner, under = validate_owner(owner), normalize_path(under)
        lo, hi = subtree_bounds(under)
        return self.conn.execute(
            "SELECT COALESCE(SUM(size), 0) FROM documents WHERE owner = ? AND deleted_at IS NULL"
            " AND (path = ? OR (path >= ? AND path < ?))",
            (owner, under, lo, hi),
        ).fetchone()[0]

    def max_version_id(self) -> int:
        """The id of the newest version row: every version that exists has an id at most this."""
        return self.conn.execute("SELECT COALESCE(MAX(id), 0) FROM document_versions").fetchone()[0]


def unified_diff(a: str, b: str, a_label: str, b_label: str) -> str:
    """A unified diff of two bodies, labelled like `~/path@3` (or `/dev/null`).

    A last line without a newline is marked as `diff -u` does, so lines never run together.
    """
    out = []
    import difflib  # only for a diff, not at start-up

    for line in difflib.unified_diff(
        a.splitlines(keepends=True), b.splitlines(keepends=True), a_label, b_label
    ):
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)
