"""Writes to the document tree: create, replace, edit, move, delete and restore, each one
transaction that first checks its preconditions and then appends a version per document it
changes (see `Writes._new_version`), with the references that version makes.
"""

from __future__ import annotations

import json
import sqlite3

from doctree.errors import (
    BodyTooLargeError,
    ConflictError,
    EditError,
    NotTextError,
    PathError,
    UserError,
)
from doctree.store import backlinks, encoding
from doctree.store.frontmatter import frontmatter_problem
from doctree.store.model import (
    HEADING,
    Document,
    Provenance,
    check_declared_title,
    check_title,
    provenance_of,
    retitle,
    sha256_digest,
    title_for,
)
from doctree.store.paths import (
    HOME,
    ancestors,
    is_under,
    name_of,
    normalize_path,
    subtree_bounds,
    validate_owner,
)
from doctree.store.reads import Reads
from doctree.store.rows import any_row, body_of, live_row, live_rows, require, to_document
from doctree.store.secrets import mask_text
from doctree.timeutil import now_iso as now

_KEEP = object()  # "leave the parent as it is" in _new_version


class Writes(Reads):
    """The writes of a repository (on its reads: a restore copies a version)."""

    def write(
        self,
        owner: str,
        path: str,
        body: str,
        *,
        title: str | None = None,
        links: list[str] | None = None,
        expected_version: int | None = None,
        content_sha256: str | None = None,
        provenance: Provenance | None = None,
    ) -> Document:
        """Create or replace the document at `path`; missing parents are created empty.

        `expected_version` (0 = must not exist) or `content_sha256` make the write conditional:
        if the document is not in that state a ConflictError is raised and nothing is written.
        Writing exactly what is already there makes no new version. `links` declares links
        (None keeps the ones declared before).
        """
        owner, path = validate_owner(owner), normalize_path(path)
        if path == HOME:
            raise PathError(path, "the home '~' is not a document; write below it, e.g. '~/notes'")
        body = self._check_body(path, body)
        if title is not None:
            title = check_title(path, title)
        declared = [normalize_path(p) for p in links] if links is not None else None
        prov = provenance_of(owner, provenance)
        with self._core.writing():
            anc = ancestors(path)
            rows = live_rows(self.conn, owner, [*anc, path]) if anc else {}
            row = rows.get(path) if anc else live_row(self.conn, owner, path)
            self._check_precondition(path, row, expected_version, content_sha256)
            ts = now()
            if row is None:
                parent_id = self._ensure_ancestors(owner, path, prov, ts, known=rows)
                return self._create(
                    owner,
                    path,
                    parent_id,
                    title or title_for(path, body),
                    body,
                    declared or [],
                    prov,
                    ts,
                )
            old_body = body_of(row)
            old_links = json.loads(row["links"]) if row["links"] else []
            new_links = old_links if declared is None else declared
            if title is not None:
                new_title = title
            elif row["title"] != title_for(path, old_body):
                new_title = row["title"]  # a title given explicitly before is kept
                if HEADING.search(body) or body.startswith("---"):
                    new_title = title_for(path, body)
            else:
                new_title = title_for(path, body)
            if body == old_body and new_title == row["title"] and new_links == old_links:
                return to_document(row)
            return self._new_version(
                row,
                operation="modified",
                path=path,
                title=new_title,
                body=body,
                links=new_links,
                prov=prov,
                ts=ts,
            )

    def edit(
        self,
        owner: str,
        path: str,
        old: str,
        new: str,
        *,
        replace_all: bool = False,
        expected_version: int | None = None,
        content_sha256: str | None = None,
        provenance: Provenance | None = None,
    ) -> Document:
        """Replace an exact string in the body. It must occur exactly once unless replace_all."""
        owner, path = validate_owner(owner), normalize_path(path)
        if not isinstance(old, str) or old == "":
            raise EditError(f"edit of {path!r}: the text to replace must not be empty")
        if not isinstance(new, str):
            raise EditError(f"edit of {path!r}: the replacement must be text")
        with self._core.writing():
            row = require(self.conn, owner, path)
            self._check_precondition(path, row, expected_version, content_sha256)
            current = body_of(row)
            count = current.count(old)
            if count == 0:
                raise EditError(
                    f"edit of {path!r}: the text to replace was not found: {old[:80]!r}"
                )
            if count > 1 and not replace_all:
                raise EditError(
                    f"edit of {path!r}: the text to replace occurs {count} times; "
                    "give more context to make it unique, or replace all"
                )
            body = current.replace(old, new, -1 if replace_all else 1)
            return self.write(
                owner,
                path,
                body,
                expected_version=row["version"],
                provenance=provenance_of(owner, provenance),
            )

    def move(
        self,
        owner: str,
        path: str,
        new_path: str,
        *,
        expected_version: int | None = None,
        provenance: Provenance | None = None,
    ) -> list[Document]:
        """Move a document and its subtree. Ids are kept, so references to them survive."""
        owner = validate_owner(owner)
        path, new_path = normalize_path(path), normalize_path(new_path)
        if HOME in (path, new_path):
            raise PathError(HOME, "the home '~' cannot be moved or replaced")
        if is_under(new_path, path):
            raise PathError(new_path, f"cannot move {path!r} into itself")
        prov = provenance_of(owner, provenance)
        with self._core.writing():
            row = require(self.conn, owner, path)
            self._check_precondition(path, row, expected_version, None)
            if live_row(self.conn, owner, new_path) is not None:
                raise ConflictError(f"cannot move {path!r} to {new_path!r}: it already exists")
            ts = now()
            new_parent_id = self._ensure_ancestors(owner, new_path, prov, ts)
            lo, hi = subtree_bounds(path)
            rows = self.conn.execute(
                "SELECT * FROM documents WHERE owner = ? AND deleted_at IS NULL"
                " AND (path = ? OR (path >= ? AND path < ?)) ORDER BY path",
                (owner, path, lo, hi),
            ).fetchall()
            # Pin every reference waiting on a path of the subtree (from outside it or from
            # within) to the document there, before any of them moves.
            for r in rows:
                backlinks.resolve_references_to(self.conn, owner, r["path"], r["id"])
            moved = []
            for r in rows:
                target = new_path + r["path"][len(path) :]
                body = body_of(r)
                moved.append(
                    self._new_version(
                        r,
                        operation="moved",
                        path=target,
                        title=retitle(r["title"], r["path"], target, body),
                        body=body,
                        links=json.loads(r["links"]) if r["links"] else [],
                        prov=prov,
                        ts=ts,
                        parent_id=new_parent_id if r["id"] == row["id"] else _KEEP,
                    )
                )
            return moved

    def delete(
        self,
        owner: str,
        path: str,
        *,
        recursive: bool = False,
        expected_version: int | None = None,
        content_sha256: str | None = None,
        provenance: Provenance | None = None,
    ) -> list[Document]:
        """Delete a document (a tombstone version; history stays). Children need recursive."""
        owner, path = validate_owner(owner), normalize_path(path)
        if path == HOME:
            raise PathError(path, "the home '~' cannot be deleted")
        prov = provenance_of(owner, provenance)
        with self._core.writing():
            row = require(self.conn, owner, path)
            self._check_precondition(path, row, expected_version, content_sha256)
            lo, hi = subtree_bounds(path)
            rows = self.conn.execute(
                "SELECT * FROM documents WHERE owner = ? AND deleted_at IS NULL"
                " AND path >= ? AND path < ? ORDER BY path DESC",
                (owner, lo, hi),
            ).fetchall()
            if rows and not recursive:
                raise UserError(
                    f"cannot delete {path!r}: it has {len(rows)} descendant(s); "
                    "delete them first or delete recursively"
                )
            ts = now()
            for r in [*rows, row]:
                backlinks.resolve_references_to(self.conn, owner, r["path"], r["id"])
            return [
                self._new_version(
                    r,
                    operation="deleted",
                    path=r["path"],
                    title=r["title"],
                    body=body_of(r),
                    links=json.loads(r["links"]) if r["links"] else [],
                    prov=prov,
                    ts=ts,
                    deleted=True,
                )
                for r in [*rows, row]
            ]

    def restore(
        self,
        owner: str,
        path: str,
        version: int,
        *,
        provenance: Provenance | None = None,
    ) -> Document:
        """Write a new version with the content of an earlier one; undeletes a deleted document.

        `path` names the live document, or else the one most recently deleted at that path.
        """
        owner, path = validate_owner(owner), normalize_path(path)
        prov = provenance_of(owner, provenance)
        with self._core.writing():
            row = any_row(self.conn, owner, path)
            old = self.version(row["id"], version)
            if old.body is None:
                raise UserError(f"cannot restore version {version} of {path!r}: it was redacted")
            if old.deleted:
                raise UserError(
                    f"cannot restore version {version} of {path!r}: it is a deletion; "
                    "restore the version before it"
                )
            ts = now()
            parent_id: int | None | object = _KEEP
            if row["deleted_at"] is not None:
                parent_id = self._ensure_ancestors(owner, path, prov, ts)
            doc = self._new_version(
                row,
                operation="restored",
                path=path,
                title=retitle(old.title, old.path, path, old.body),
                body=old.body,
                links=old.links,
                prov=prov,
                ts=ts,
                parent_id=parent_id,
            )
            backlinks.resolve_references_to(self.conn, owner, path, row["id"])
            return doc

    def _new_version(
        self,
        row: sqlite3.Row,
        *,
        operation: str,
        path: str,
        title: str,
        body: str,
        links: list[str],
        prov: Provenance,
        ts: str,
        parent_id: int | None | object = _KEEP,
        deleted: bool = False,
        base_redacted: bool = False,
    ) -> Document:
        """Append a version to the document in `row` and make it the current state.

        The new version's row stands for the new current body (`encoding.CURRENT`); the
        version before it, if its row stood for the old one, is stored from now on as a
        delta against the new body (or in full: `encoding.encode_older`). With
        `base_redacted` (the current version's content is being erased, and the caller
        rewrites or erases its row) it is given the plain full copy instead.
        """
        doc_id, owner = row["id"], row["owner"]
        old_body = body_of(row)
        version = row["version"] + 1
        digest, size = sha256_digest(body), len(body.encode("utf-8"))
        links_json = json.dumps(links) if links else None
        full = encoding.encode_full(body)
        was_deleted = row["deleted_at"] is not None
        deleted_at = (row["deleted_at"] if was_deleted else ts) if deleted else None
        new_parent = row["parent_id"] if parent_id is _KEEP else parent_id
        # The full-text index is told the old values to remove and the new ones to add, and
        # only when they change; where its entry is a column of the row, this UPDATE sets it.
        changed = path != row["path"] or title != row["title"] or body != old_body
        unindex = not was_deleted and (deleted or changed)
        index = not deleted and (was_deleted or changed)
        inline = (
            self.dialect.document_index_value(path, title, body if index else None)
            if index or unindex
            else None
        )
        # The version before stops being the current one: if its row stands for the
        # document's body (encoding.CURRENT), it is given its own value as this statement
        # replaces that body (on a server, in the statement's WITH: no round trip of its own).
        kept = (
            "UPDATE document_versions SET body_data = ? WHERE document_id = ? AND version = ?"
            " AND length(body_data) = 0"
        )
        kept_params = (
            row["body_data"]
            if base_redacted
            else encoding.encode_older(old_body, body, row["version"], row["body_data"]),
            doc_id,
            row["version"],
        )
        if not self.dialect.writes_in_with:
            self.conn.execute(kept, kept_params)
        # The parent is set only when it changes: an UPDATE of a foreign key's column is
        # checked by SQLite under a statement journal, which makes FTS5 write its pending
        # entries out (see migration 015).
        reparent = new_parent != row["parent_id"]
        self.conn.execute(
            (f"WITH kept AS ({kept}) " if self.dialect.writes_in_with else "")
            + "UPDATE documents SET path = ?,"
            + (" parent_id = ?," if reparent else "")
            + " title = ?, body_data = ?, version = ?,"
            " content_sha256 = ?, size = ?, links = ?, updated_at = ?, deleted_at = ?"
            + (f", {inline[0]} = {inline[1]}" if inline else "")
            + " WHERE id = ?",
            (
                *(kept_params if self.dialect.writes_in_with else ()),
                path,
                *((new_parent,) if reparent else ()),
                title,
                full,
                version,
                digest,
                size,
                links_json,
                ts,
                deleted_at,
                *(inline[2] if inline else ()),
                doc_id,
            ),
        )
        self._insert_version(
            doc_id=doc_id,
            owner=owner,
            version=version,
            operation=operation,
            path=path,
            title=title,
            size=size,
            links_json=links_json,
            prov=prov,
            ts=ts,
            deleted=deleted,
        )
        self.dialect.queue_passages(self.conn, doc_id, owner)
        if not deleted:
            backlinks.insert_references(self.conn, owner, doc_id, version, path, body, links)
        if unindex and inline is None:
            self.dialect.unindex_document(self.conn, doc_id, row["path"], row["title"], old_body)
        if index and inline is None:
            self.dialect.index_document(self.conn, doc_id, path, title, body)
        if unindex:
            self._core.index_replaced()
        return Document(
            doc_id,
            owner,
            path,
            title,
            body,
            version,
            digest.hex(),
            size,
            row["created_at"],
            ts,
            deleted,
            list(links),
        )

    def _check_precondition(
        self,
        path: str,
        row: sqlite3.Row | None,
        expected_version: int | None,
        content_sha256: str | None,
    ) -> None:
        current = row["version"] if row else None
        if expected_version is not None:
            if expected_version == 0 and row is not None:
                raise ConflictError(
                    f"conflict on {path!r}: expected it not to exist (expected_version 0), "
                    f"but it is at version {current}",
                    current,
                )
            if expected_version != 0 and current != expected_version:
                found = f"it is at version {current}" if row else "it does not exist"
                raise ConflictError(
                    f"conflict on {path!r}: expected version {expected_version}, but {found}; "
                    "read it again and retry",
                    current,
                )
        if content_sha256 is not None:
            if row is None:
                raise ConflictError(
                    f"conflict on {path!r}: expected content sha256 {content_sha256[:12]}..., "
                    "but it does not exist"
                )
            found = row["content_sha256"].hex()
            if found != content_sha256.lower():
                raise ConflictError(
                    f"conflict on {path!r}: content sha256 is {found[:12]}..., "
                    f"not {content_sha256[:12]}...; read it again and retry",
                    current,
                )

    def _check_body(self, path: str, body: object) -> str:
        """The body to store: text within the size limit, each secret in it replaced by its
        marker (`doctree.store.secrets`), so no version, index or WAL frame holds one."""
        if not isinstance(body, str):
            raise UserError(f"body of {path!r}: must be text, got {type(body).__name__}")
        if "\x00" in body:
            raise UserError(f"body of {path!r}: NUL bytes are not allowed in a body")
        try:
            size = len(body.encode("utf-8"))
        except UnicodeEncodeError:
            raise NotTextError(f"body of {path!r}", body) from None
        if size > self._core.max_body_bytes:
            raise BodyTooLargeError(path, size, self._core.max_body_bytes)
        if body.startswith("---"):
            if problem := frontmatter_problem(body):
                raise UserError(f"body of {path!r}: {problem}")
            check_declared_title(path, body)
        return mask_text(body)

    def _insert_version(
        self,
        *,
        doc_id: int,
        owner: str,
        version: int,
        operation: str,
        path: str,
        title: str,
        size: int,
        links_json: str | None,
        prov: Provenance,
        ts: str,
        deleted: bool = False,
    ) -> None:
        """Append a version row as the document's current version: its body is the one
        the caller stores in `documents`, so the row holds `encoding.CURRENT` for it (it is
        given a value of its own when a later version is written: `_new_version`). A
        version's digest is not stored: it is derived from its body
        (`Version.content_sha256`)."""
        self.conn.execute(
            "INSERT INTO document_versions (document_id, owner, version, operation, path, title,"
            " body_data, size, actor_kind, actor_id, session_id, run_id, links,"
            " deleted, created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (
                doc_id,
                owner,
                version,
                operation,
                path,
                title,
                encoding.CURRENT,
                size,
                prov.actor_for(owner).kind,
                prov.actor_for(owner).id,
                prov.session,
                prov.run,
                links_json,
                int(deleted),
                ts,
            ),
        )

    def _create(
        self,
        owner: str,
        path: str,
        parent_id: int | None,
        title: str,
        body: str,
        links: list[str],
        prov: Provenance,
        ts: str,
    ) -> Document:
        digest, size = sha256_digest(body), len(body.encode("utf-8"))
        links_json = json.dumps(links) if links else None
        full = encoding.encode_full(body)
        # Where the full-text entry is a column of the row, it is set by this INSERT.
        inline = self.dialect.document_index_value(path, title, body)
        column, value, index_params = (
            (f", {inline[0]}", f",{inline[1]}", inline[2]) if inline else ("", "", [])
        )
        doc_id = self.conn.execute(
            "INSERT INTO documents (owner, path, parent_id, title, body_data, version,"
            f" content_sha256, size, links, created_at, updated_at{column})"
            f" VALUES (?,?,?,?,?,1,?,?,?,?,?{value})",
            (
                owner,
                path,
                parent_id,
                title,
                full,
                digest,
                size,
                links_json,
                ts,
                ts,
                *index_params,
            ),
        ).lastrowid
        assert doc_id is not None
        self._insert_version(
            doc_id=doc_id,
            owner=owner,
            version=1,
            operation="created",
            path=path,
            title=title,
            size=size,
            links_json=links_json,
            prov=prov,
            ts=ts,
        )
        self.dialect.queue_passages(self.conn, doc_id, owner)
        backlinks.insert_references(self.conn, owner, doc_id, 1, path, body, links)
        if inline is None:
            self.dialect.index_document(self.conn, doc_id, path, title, body)
        # References waiting on `path` now find this document by path (see `backlinks`);
        # they are pinned to it only when it moves away or is deleted.
        return Document(
            doc_id, owner, path, title, body, 1, digest.hex(), size, ts, ts, False, list(links)
        )

    def _ensure_ancestors(
        self,
        owner: str,
        path: str,
        prov: Provenance,
        ts: str,
        known: dict[str, sqlite3.Row] | None = None,
    ) -> int | None:
        """Create missing ancestors of `path` (empty); return the id of its parent."""
        anc = ancestors(path)
        if known is None:
            known = live_rows(self.conn, owner, anc) if anc else {}
        parent_id = None
        for a in anc:
            row = known.get(a)
            if row is not None:
                parent_id = row["id"]
            else:
                parent_id = self._create(owner, a, parent_id, name_of(a), "", [], prov, ts).id
        return parent_id
