"""Rows of `documents` and `document_versions` as the repository reads them: the live row
at a path, the row of a deleted document, and rows turned into `Document`s and `Version`s
with their bodies decoded (see `doctree.store.encoding`).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from typing import Any

from doctree.errors import NotFoundError
from doctree.store import encoding
from doctree.store.live import body_of, live_row
from doctree.store.model import Document, Version


def live_rows(conn: sqlite3.Connection, owner: str, paths: Sequence[str]) -> dict[str, sqlite3.Row]:
    """Live rows of several paths (a path and its ancestors) in one query, by path: a
    lookup of each path (a planner without statistics of a new table may otherwise scan
    all of the owner's rows for `path IN (...)`, as PostgreSQL does)."""
    one = "SELECT * FROM documents WHERE owner = ? AND path = ? AND deleted_at IS NULL"
    rows = conn.execute(
        " UNION ALL ".join([one] * len(paths)), [x for p in paths for x in (owner, p)]
    )
    return {r["path"]: r for r in rows}


def last_deleted_row(conn: sqlite3.Connection, owner: str, path: str) -> sqlite3.Row | None:
    """The row of the document most recently deleted at `path`, if there is one."""
    return conn.execute(
        "SELECT * FROM documents WHERE owner = ? AND path = ? AND deleted_at IS NOT NULL"
        " ORDER BY deleted_at DESC, id DESC LIMIT 1",
        (owner, path),
    ).fetchone()


def any_row(conn: sqlite3.Connection, owner: str, path: str) -> sqlite3.Row:
    """The row of the live document at `path`, else of the one last deleted there."""
    row = live_row(conn, owner, path) or last_deleted_row(conn, owner, path)
    if row is None:
        raise NotFoundError(f"document {path!r} not found for owner {owner!r}")
    return row


def require(conn: sqlite3.Connection, owner: str, path: str) -> sqlite3.Row:
    """The row of the live document at `path`; NotFoundError if there is none."""
    row = live_row(conn, owner, path)
    if row is None:
        raise NotFoundError(f"document {path!r} not found for owner {owner!r}")
    return row


def to_document(row: sqlite3.Row, *, with_links: bool = True) -> Document:
    """A `documents` row as a `Document`."""
    return Document(
        id=row["id"],
        owner=row["owner"],
        path=row["path"],
        title=row["title"],
        body=body_of(row),
        version=row["version"],
        content_sha256=row["content_sha256"].hex(),
        size=row["size"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        deleted=row["deleted_at"] is not None,
        links=json.loads(row["links"]) if with_links and row["links"] else [],
    )


def to_version(
    row: sqlite3.Row, body: str | None, links: dict[str, list[str]] | None = None
) -> Version:
    """A `document_versions` row as a `Version` with its decoded `body`. `links`, when
    given, caches the decoded link lists of a run of versions (most repeat the one before)."""
    raw = row["links"]
    if not raw:
        decoded: list[str] = []
    elif links is None:
        decoded = json.loads(raw)
    elif (cached := links.get(raw)) is None:
        decoded = links[raw] = json.loads(raw)
    else:
        decoded = list(cached)  # each Version owns its list
    return Version(
        id=row["id"],
        document_id=row["document_id"],
        owner=row["owner"],
        version=row["version"],
        operation=row["operation"],
        path=row["path"],
        title=row["title"],
        body=body,
        size=row["size"],
        actor_kind=row["actor_kind"],
        actor_id=row["actor_id"],
        session_id=row["session_id"],
        run_id=row["run_id"],
        created_at=row["created_at"],
        redacted=row["redacted_at"] is not None,
        links=decoded,
        deleted=bool(row["deleted"]),
    )


VERSION_BODY = (
    "CASE WHEN length(document_versions.body_data) = 0 THEN (SELECT d.body_data FROM"
    " documents d WHERE d.id = document_versions.document_id)"
    " ELSE document_versions.body_data END"
)
"""The stored value of a `document_versions` row with `encoding.CURRENT` resolved: the
current version's full copy is the document's own `body_data`."""

VERSION_COLUMNS = (
    "id, document_id, owner, version, operation, path, title, size,"
    " actor_kind, actor_id, session_id, run_id, created_at, redacted_at, links, deleted,"
    f" {VERSION_BODY}"
)
"""The columns `decoded_history` reads, in the order it unpacks them."""


def decoded_history(rows: Iterable[Sequence[Any]]) -> list[Version]:
    """Versions from consecutive `document_versions` rows of one document, selected as
    `VERSION_COLUMNS` from version 1 on: each body is decoded once, against the one
    decoded next to it, a block of `encoding.CHAIN` versions at a time (the rows are
    unpacked by position, not by name: this is the loop of a whole history)."""
    out: list[Version] = []
    links: dict[str, list[str]] = {}
    previous: int | None = None
    run: list[Sequence[Any]] = []
    chain = encoding.CHAIN

    def flush() -> None:
        texts = encoding.decode_block([r[16] for r in run])
        for (
            id_, doc_id, owner, version, operation, path, title, size,
            actor_kind, actor_id, session_id, run_id, created_at, redacted_at, raw, deleted, _,
        ), text in zip(run, texts, strict=True):  # fmt: skip
            if not raw:
                decoded: list[str] = []
            elif (cached := links.get(raw)) is None:
                links[raw] = json.loads(raw)
                decoded = list(links[raw])
            else:
                decoded = list(cached)  # each Version owns its list
            out.append(
                Version(
                    id_,
                    doc_id,
                    owner,
                    version,
                    operation,
                    path,
                    title,
                    text,
                    size,
                    actor_kind,
                    actor_id,
                    session_id,
                    run_id,
                    created_at,
                    redacted_at is not None,
                    decoded,
                    bool(deleted),
                )  # fmt: skip
            )

    for row in rows:
        version = row[3]
        if previous is not None and version != previous + 1:
            raise encoding.EncodingError(f"versions {previous} and {version} are not consecutive")
        previous = version
        if run and (version - 1) % chain == 0:
            flush()
            run = []
        run.append(row)
    if run:
        flush()
    return out


def to_versions(conn: sqlite3.Connection, rows: Sequence[sqlite3.Row]) -> list[Version]:
    """Version rows with their bodies decoded (see `bodies`)."""
    decoded = bodies(conn, rows)
    return [to_version(r, decoded[r["id"]]) for r in rows]


def bodies(conn: sqlite3.Connection, rows: Sequence[sqlite3.Row]) -> dict[int, str | None]:
    """The body of each version row, by row id (None: redacted).

    A full copy decodes on its own; a delta needs the other versions of its block (a
    delta against the next version, up to a full copy or the current version; one of the
    older kind, back to a full copy), read in one range query per run of nearby versions of
    a document (at most `encoding.CHAIN` rows for a single version).
    """
    out: dict[int, str | None] = {}
    need: dict[int, dict[int, int]] = {}  # document id -> version -> row id
    after: dict[int, set[int]] = {}  # document id -> versions stored against the next one
    current: dict[int, int] = {}  # document id -> row id of its current version
    for r in rows:
        data = r["body_data"]
        if data is None:
            out[r["id"]] = None
        elif encoding.is_current(data):
            current[r["document_id"]] = r["id"]
        elif encoding.is_full(data):
            out[r["id"]] = encoding.decode(data, None)
        else:
            need.setdefault(r["document_id"], {})[r["version"]] = r["id"]
            if encoding.needs_next(data):
                after.setdefault(r["document_id"], set()).add(r["version"])
    if current:
        marks = ",".join("?" * len(current))
        for doc_id, data in conn.execute(
            f"SELECT id, body_data FROM documents WHERE id IN ({marks})", list(current)
        ).fetchall():
            out[current[doc_id]] = encoding.decode(data, None)
    for doc_id, wanted in need.items():
        for lo, hi in spans(wanted, after.get(doc_id, set())):
            pairs = conn.execute(
                f"SELECT version, {VERSION_BODY} FROM document_versions"
                " WHERE document_id = ? AND version BETWEEN ? AND ? ORDER BY version",
                (doc_id, lo, hi),
            ).fetchall()
            for version, text in encoding.decode_sequence((p[0], p[1]) for p in pairs):
                if version in wanted:
                    out[wanted[version]] = text
    return out


def spans(versions: Iterable[int], forward: set[int] | None = None) -> list[tuple[int, int]]:
    """The ranges of versions to read to decode these versions: their blocks, adjacent
    ones merged. A version in `forward` (stored as a delta against the next version) needs
    only the rest of its block, from itself on: in a block, the values of that kind follow
    those of the older kind, so nothing after it needs a version before it."""
    spans: list[tuple[int, int]] = []
    for v in sorted(versions):
        lo, hi = encoding.block(v)
        if forward and v in forward:
            lo = v
        if spans and lo <= spans[-1][1] + 1:
            spans[-1] = (spans[-1][0], hi)
        else:
            spans.append((lo, hi))
    return spans
