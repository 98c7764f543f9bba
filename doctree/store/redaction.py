"""Erasure primitives of the store: the exact replacement of a text in every version of a
document, the erasure of one whole version's content (the fact of the change stays), and the
in-place rewriting of paths, titles and links that `doctree.memory.erase` asks for when
erased text was part of them.

These reach the documents only. The public way to erase is `doctree.memory.erase`
(`forget`, `redact`, `redact_version`), which also reaches the sessions' history and the
recall record, and cleans the indexes and the database file afterwards.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from doctree.errors import NotFoundError
from doctree.store import encoding
from doctree.store.model import (
    Actor,
    Provenance,
    Version,
    check_int,
    provenance_of,
)
from doctree.store.paths import name_of, normalize_path, validate_owner
from doctree.store.rows import VERSION_BODY, any_row, body_of
from doctree.store.writes import Writes
from doctree.timeutil import now_iso as now


class Redaction(Writes):
    """Redaction and the rewriting of a forget, on a repository's writes (which append the
    `redacted` version) and reads (which find the versions to erase)."""

    def erase_version(
        self,
        owner: str,
        path: str,
        version: int,
        *,
        provenance: Provenance | None = None,
    ) -> Version:
        """Erase the content of one version of the document at `path` (the live one, else
        the one most recently deleted there); see `erase_version_by_id`."""
        owner, path = validate_owner(owner), normalize_path(path)
        with self._core.writing():
            row = any_row(self.conn, owner, path)
            return self.erase_version_by_id(
                row["id"],
                version,
                provenance=provenance_of(owner, provenance),
            )

    def erase_version_by_id(
        self,
        document_id: int,
        version: int,
        *,
        provenance: Provenance | None = None,
    ) -> Version:
        """Erase the content of one version; the fact of the change and who redacted it stay.

        A `redacted` version is appended to record it. Redacting the current version also
        empties the current body. A deleted document stays deleted. By id, so it reaches any
        document, also a deleted one whose path another document has taken since.
        """
        with self._core.writing():
            row = self.conn.execute(
                "SELECT * FROM documents WHERE id = ?", (document_id,)
            ).fetchone()
            if row is None:
                raise NotFoundError(f"no document with id {document_id}")
            prov = provenance_of(row["owner"], provenance)
            target = self.version(row["id"], version)
            ts = now()
            self._erase_body(row["id"], target, ts, prov.actor_for(row["owner"]))
            self.conn.execute(
                "DELETE FROM document_references WHERE source_id = ? AND version = ?",
                (row["id"], version),
            )
            self._erase_redaction_copies(
                row["id"], target.content_sha256, ts, prov.actor_for(row["owner"])
            )
            # The current state holds this content (it is the current version, or a later
            # version that kept it): it is emptied too.
            current = (
                version == row["version"] or row["content_sha256"].hex() == target.content_sha256
            )
            self._new_version(
                row,
                operation="redacted",
                path=row["path"],
                title=name_of(row["path"]) if current else row["title"],
                body="" if current else body_of(row),
                links=[] if current else (json.loads(row["links"]) if row["links"] else []),
                prov=prov,
                ts=ts,
                deleted=row["deleted_at"] is not None,
                base_redacted=current,
            )
            # Text removed from the full-text index lingers in its segments until they are
            # merged: merge them when the transaction ends (see `transaction`).
            self._core.merge_index_at_commit()
            return self.version(row["id"], row["version"] + 1)

    def replace_text(
        self,
        document_id: int,
        body_map: Callable[[str], str],
        *,
        provenance: Provenance | None = None,
    ) -> tuple[list[int], Version | None]:
        """Pass every stored body of a document through `body_map` (which replaces exactly
        the text to erase and returns what it is given when that is not there).

        When the current body changes, a `redacted` version holding the rewritten body is
        appended first and becomes the current state. Then every older version whose body
        changes is rewritten in place: its body, digest and size are those of the
        rewritten text, `redacted_at`/`redacted_by` record who erased what, and everything
        else stays. Versions stored as deltas are stored again so that none holds or needs
        the erased text. Returns (the numbers of the versions rewritten in place, the new
        version or None).
        """
        with self._core.writing():
            row = self.conn.execute(
                "SELECT * FROM documents WHERE id = ?", (check_int(document_id, "document id"),)
            ).fetchone()
            if row is None:
                raise NotFoundError(f"no document with id {document_id}")
            prov = provenance_of(row["owner"], provenance)
            ts = now()
            rows = self.conn.execute(
                f"SELECT id, version, {VERSION_BODY} AS body_data FROM document_versions"
                " WHERE document_id = ? ORDER BY version",
                (document_id,),
            ).fetchall()
            old = dict(encoding.decode_sequence((r["version"], r["body_data"]) for r in rows))
            new = {n: None if t is None else body_map(t) for n, t in old.items()}
            changed = [n for n in old if new[n] != old[n]]
            if not changed:
                return [], None
            added: Version | None = None
            current = body_of(row)
            if (body := body_map(current)) != current:
                self._new_version(
                    row,
                    operation="redacted",
                    path=row["path"],
                    title=row["title"],
                    body=body,
                    links=json.loads(row["links"]) if row["links"] else [],
                    prov=prov,
                    ts=ts,
                    deleted=row["deleted_at"] is not None,
                    base_redacted=True,  # stored in full: it never needs an older version
                )
                added = self.version(document_id, row["version"] + 1)
            # Every version from the one before the first changed (a delta against it) is
            # encoded again against the new texts, so no value needs or holds an old one.
            after = dict(new)
            if added is not None:
                after[added.version] = added.body
            first = changed[0]
            for r in rows:
                n, text = r["version"], new[r["version"]]
                if n < first - 1 or text is None:
                    continue
                if n == row["version"] and added is None:  # still the current version
                    value = encoding.CURRENT
                else:
                    value = encoding.encode_older(text, after.get(n + 1), n)
                if n in changed:  # its digest is derived from the new text
                    self.conn.execute(
                        "UPDATE document_versions SET body_data = ?,"
                        " size = ?, redacted_at = ?, redacted_by = ? WHERE id = ?",
                        (value, len(text.encode("utf-8")), ts, str(prov.actor_for(row["owner"])),
                         r["id"]),
                    )  # fmt: skip
                else:
                    self.conn.execute(
                        "UPDATE document_versions SET body_data = ? WHERE id = ?", (value, r["id"])
                    )
            self._core.merge_index_at_commit()
            return changed, added

    def _erase_body(self, doc_id: int, target: Version, ts: str, actor: Actor) -> None:
        """Erase one version's stored body. The version before it may be stored as a delta
        against this one (and, stored before migration 008, the one after it): it is stored
        in full first, so nothing left needs (or holds) the erased text."""
        preceding = self.conn.execute(
            "SELECT id, body_data FROM document_versions WHERE document_id = ? AND version = ?",
            (doc_id, target.version - 1),
        ).fetchone()
        if preceding is not None and encoding.needs_next(preceding["body_data"]):
            text = self.version(doc_id, target.version - 1).body
            assert text is not None  # a delta, so not erased
            self.conn.execute(
                "UPDATE document_versions SET body_data = ? WHERE id = ?",
                (encoding.encode_full(text), preceding["id"]),
            )
        following = self.conn.execute(
            "SELECT id, body_data FROM document_versions WHERE document_id = ? AND version = ?",
            (doc_id, target.version + 1),
        ).fetchone()
        if following is not None and following["body_data"] is not None:
            data = following["body_data"]
            if encoding.needs_previous(data):
                if target.body is None:
                    raise encoding.EncodingError(
                        f"version {target.version + 1} of document {doc_id} depends on a "
                        "redacted version"
                    )
                self.conn.execute(
                    "UPDATE document_versions SET body_data = ? WHERE id = ?",
                    (encoding.reencode_after(target.body, data), following["id"]),
                )
        # Nothing of the content stays: not its digest (which would confirm a guess of a
        # short content, a PIN, to anyone who can read the history) and not its size. Both
        # become those of the empty body the version now has (the digest is derived).
        self.conn.execute(
            "UPDATE document_versions SET body_data = NULL, title = '', redacted_at = ?,"
            " redacted_by = ?, size = 0 WHERE id = ?",
            (ts, str(actor), target.id),
        )

    def _erase_redaction_copies(self, doc_id: int, digest: str, ts: str, actor: Actor) -> None:
        """Erase the `redacted` versions that carried this content as the document's state
        then (redacting an older version keeps the current body): once the content itself
        is redacted, no copy of it stays behind."""
        numbers = [
            r[0]
            for r in self.conn.execute(
                "SELECT version FROM document_versions WHERE document_id = ?"
                " AND operation = 'redacted' AND body_data IS NOT NULL AND size > 0"
                " ORDER BY version",
                (doc_id,),
            )
        ]
        for n in numbers:
            copy = self.version(doc_id, n)
            if copy.content_sha256 == digest:  # derived from its body
                self._erase_body(doc_id, copy, ts, actor)

    def scrub_paths(
        self,
        document_id: int,
        path_map: Callable[[str], str],
        text_map: Callable[[str], str],
        current_map: Callable[[str], str] | None = None,
    ) -> None:
        """Rewrite in place the paths and titles a document holds, in every version of it and
        in its current state, its search entry and the references made to its paths (forget:
        a path segment that held forgotten text). `path_map` gives each path its new form,
        `text_map` each title; both return what they are given when it needs no change.
        `current_map` (default `path_map`) gives the current path's, which must keep the
        document where its parent is."""
        current_map = current_map or path_map
        with self._core.writing():
            row = self.conn.execute(
                "SELECT * FROM documents WHERE id = ?", (check_int(document_id, "document id"),)
            ).fetchone()
            if row is None:
                raise NotFoundError(f"no document with id {document_id}")
            old_paths = {row["path"]}
            for v in self.conn.execute(
                "SELECT id, path, title, links FROM document_versions WHERE document_id = ?",
                (document_id,),
            ).fetchall():
                old_paths.add(v["path"])
                self.conn.execute(
                    "UPDATE document_versions SET path = ?, title = ?, links = ? WHERE id = ?",
                    (
                        path_map(v["path"]),
                        text_map(v["title"]),
                        map_links(v["links"], path_map),
                        v["id"],
                    ),
                )
            path, title = current_map(row["path"]), text_map(row["title"])
            self.conn.execute(
                "UPDATE documents SET path = ?, title = ?, links = ? WHERE id = ?",
                (path, title, map_links(row["links"], path_map), document_id),
            )
            self.dialect.queue_passages(self.conn, document_id, row["owner"])
            if row["deleted_at"] is None and (path, title) != (row["path"], row["title"]):
                body = body_of(row)
                self.dialect.unindex_document(
                    self.conn, document_id, row["path"], row["title"], body
                )
                self.dialect.index_document(self.conn, document_id, path, title, body)
            for old in old_paths:
                new = current_map(old) if old == row["path"] else path_map(old)
                if new != old:
                    self.conn.execute(
                        "UPDATE document_references SET target_path = ?"
                        " WHERE owner = ? AND target_path = ?",
                        (new, row["owner"], old),
                    )

    def scrub_links(self, owner: str, path_map: Callable[[str], str]) -> list[int]:
        """Rewrite in place the declared links (every version) and reference targets of
        `owner` that `path_map` changes; the ids of the documents whose links changed."""
        changed: set[int] = set()
        with self._core.writing():
            for table in ("documents", "document_versions"):
                key = "id" if table == "documents" else "document_id"
                for r in self.conn.execute(
                    f"SELECT id, {key} AS doc, links FROM {table}"
                    " WHERE owner = ? AND links IS NOT NULL",
                    (validate_owner(owner),),
                ).fetchall():
                    if (links := map_links(r["links"], path_map)) != r["links"]:
                        self.conn.execute(
                            f"UPDATE {table} SET links = ? WHERE id = ?", (links, r["id"])
                        )
                        changed.add(r["doc"])
            for r in self.conn.execute(
                "SELECT DISTINCT target_path FROM document_references WHERE owner = ?", (owner,)
            ).fetchall():
                if (new := path_map(r[0])) != r[0]:
                    self.conn.execute(
                        "UPDATE document_references SET target_path = ?"
                        " WHERE owner = ? AND target_path = ?",
                        (new, owner, r[0]),
                    )
        return sorted(changed)

    def optimize_search_index(self) -> None:
        """Merge the full-text index into one segment, dropping every entry of a deleted or
        changed row, so text taken out of the index leaves no copy in the file (forget)."""
        with self._core.writing():
            self.dialect.optimize_documents_index(self.conn)


def map_links(links_json: str | None, path_map: Callable[[str], str]) -> str | None:
    if not links_json:
        return links_json
    links = json.loads(links_json)
    mapped = [path_map(p) for p in links]
    return links_json if mapped == links else json.dumps(mapped)
