"""The versioned document tree.

Every change appends an immutable row to `document_versions`; `documents` holds the current
state of each document, and `document_references` the references each version makes. All SQL
for documents lives in this module.
"""

from __future__ import annotations

import difflib
import gc
import hashlib
import json
import os
import re
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from doctree.errors import (
    BodyTooLargeError,
    ConflictError,
    DoctreeError,
    EditError,
    NotFoundError,
    NotTextError,
    PathError,
    TitleError,
    TransactionError,
    UserError,
)
from doctree.store import db as dbmod
from doctree.store import encoding
from doctree.store.backends import dialect_of, is_connection, is_database_url
from doctree.store.frontmatter import frontmatter_problem
from doctree.store.paths import (
    HOME,
    ancestors,
    is_under,
    name_of,
    normalize_path,
    parent_of,
    require_text,
    validate_owner,
)
from doctree.store.references import body_links, declared_links, split_frontmatter
from doctree.store.search import fts_query as fts_query  # where it was first defined
from doctree.store.search import parse_search, snippet_of
from doctree.timeutil import now_iso as now  # the name the store has always used

DEFAULT_MAX_BODY_BYTES = 100_000
MAX_TITLE_BYTES = 1_024
MAX_SQL_INT = 2**63 - 1  # the largest integer SQLite stores
_TITLE_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
ACTOR_KINDS = ("agent", "memory-agent", "user", "system")
OPERATIONS = ("created", "modified", "moved", "deleted", "restored", "redacted")
_HEADING = re.compile(r"^#\s+(.+?)\s*#*\s*$", re.M)


def parse_time(value: str | datetime) -> str:
    """Turn a user-given time into the stored form; accepts ISO 8601 dates and datetimes."""
    if isinstance(value, datetime):
        dt = value
    else:
        text = value.strip()
        try:
            dt = datetime.fromisoformat(text.replace("Z", "+00:00"))
        except ValueError:
            raise UserError(
                f"time {value!r}: use ISO 8601, e.g. 2026-11-23 or 2026-11-23T14:05:00Z"
            ) from None
        if len(text) == 10:  # a bare date means the end of that day
            dt = dt.replace(hour=23, minute=59, second=59, microsecond=999999)
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=UTC)
    try:
        return dt.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    except OverflowError:
        raise UserError(f"time {value!r}: is outside the years 1 to 9999 in UTC") from None


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Actor:
    """Who made a change: kind is agent, memory-agent, user or system."""

    kind: str
    id: str

    def __post_init__(self) -> None:
        if self.kind not in ACTOR_KINDS:
            raise UserError(f"actor kind {self.kind!r}: must be one of {', '.join(ACTOR_KINDS)}")
        if not self.id:
            raise UserError("actor id: must not be empty")
        require_text(self.id, f"actor id {self.id!r}")

    def __str__(self) -> str:
        return f"{self.kind}:{self.id}"


@dataclass(frozen=True)
class Provenance:
    """Where a change comes from, recorded on every version it makes: its actor, and the
    session and memory-agent run it was made in (None outside them)."""

    actor: Actor
    session: str | None = None
    run: int | None = None


@dataclass
class Document:
    id: int
    owner: str
    path: str
    title: str
    body: str
    version: int
    content_sha256: str
    size: int
    created_at: str
    updated_at: str
    deleted: bool = False
    links: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return self.__dict__.copy()


@dataclass
class Version:
    id: int
    document_id: int
    owner: str
    version: int
    operation: str
    path: str
    title: str
    body: str | None
    content_sha256: str
    size: int
    actor_kind: str
    actor_id: str
    session_id: str | None
    run_id: int | None
    created_at: str
    redacted: bool = False
    links: list[str] = field(default_factory=list)
    deleted: bool = False  # the document is a tombstone as of this version

    @property
    def actor(self) -> str:
        return f"{self.actor_kind}:{self.actor_id}"

    def to_dict(self) -> dict[str, Any]:
        d = self.__dict__.copy()
        d["actor"] = self.actor
        return d


@dataclass
class Reference:
    """A reference from one document to a path. `target_id` is None while it dangles."""

    kind: str
    source_id: int
    source_path: str
    target_path: str
    target_id: int | None
    state: str  # resolved, dangling, deleted

    def to_dict(self) -> dict[str, Any]:
        return self.__dict__.copy()


@dataclass
class SearchHit:
    document_id: int
    path: str
    title: str
    snippet: str
    score: float
    version: int
    updated_at: str

    def to_dict(self) -> dict[str, Any]:
        return self.__dict__.copy()


@dataclass(slots=True)
class TreeNode:
    id: int
    path: str
    title: str
    version: int
    size: int
    updated_at: str
    children: list[TreeNode] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "path": self.path,
            "title": self.title,
            "version": self.version,
            "size": self.size,
            "updated_at": self.updated_at,
            "children": [c.to_dict() for c in self.children],
        }

    def walk(self) -> Iterator[TreeNode]:
        yield self
        for c in self.children:
            yield from c.walk()


def title_for(path: str, body: str) -> str:
    """A title from frontmatter `title:`, else the first `# heading`, else the path's name."""
    meta, text = split_frontmatter(body) if body.startswith("---") else ({}, body)
    if isinstance(meta.get("title"), str) and meta["title"].strip():
        return clean_title(meta["title"])
    m = _HEADING.search(text)
    if m:
        return clean_title(m.group(1)[:200])
    return name_of(path) if path != HOME else HOME


def clean_title(text: str) -> str:
    """A title derived from a body, made to keep the title rules: control characters become
    spaces, and a title longer than the limit is cut, with an ellipsis."""
    text = _TITLE_CONTROL.sub(" ", text).strip()
    if len(text.encode("utf-8")) > MAX_TITLE_BYTES:
        text = text.encode("utf-8")[: MAX_TITLE_BYTES - 3].decode("utf-8", "ignore") + "…"
    return text


def check_title(path: str, title: object) -> str:
    """A title given explicitly: text, UTF-8, no control characters, at most MAX_TITLE_BYTES."""
    if not isinstance(title, str):
        raise TitleError(path, f"must be text, got {type(title).__name__}")
    try:
        size = len(title.encode("utf-8"))
    except UnicodeEncodeError:
        raise TitleError(
            path, "is not UTF-8 text (a lone surrogate or an undecodable byte)"
        ) from None
    if _TITLE_CONTROL.search(title):
        raise TitleError(path, "control characters (NUL, ESC, newlines, ...) are not allowed")
    if size > MAX_TITLE_BYTES:
        raise TitleError(path, f"is {size:,} bytes; a title may be at most {MAX_TITLE_BYTES:,}")
    return title


def check_int(value: object, what: str, *, minimum: int = 0) -> int:
    """An integer SQLite can store (below 2**63), at least `minimum`; UserError otherwise."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise UserError(f"{what} {value!r}: must be a whole number")
    if not minimum <= value <= MAX_SQL_INT:
        raise UserError(f"{what} {value}: must be between {minimum} and {MAX_SQL_INT}")
    return value


def _env_body_limit() -> int:
    """The body limit from $DOCTREE_MAX_BODY_BYTES, else the default."""
    raw = os.environ.get("DOCTREE_MAX_BODY_BYTES", "").strip()
    if not raw:
        return DEFAULT_MAX_BODY_BYTES
    try:
        return int(raw.replace("_", ""))
    except ValueError:
        raise UserError(
            f"DOCTREE_MAX_BODY_BYTES {raw!r}: must be a whole number of bytes, e.g. 200000"
        ) from None


_KEEP = object()  # "leave the parent as it is" in _new_version


def _range(prefix: str) -> tuple[str, str]:
    """Bounds such that lo <= path < hi selects exactly the strict descendants of prefix."""
    base = "~" if prefix == HOME else prefix
    return base + "/", base + "0"  # '0' is the character after '/'


class DocumentsRepository:
    """The document tree of every owner in one SQLite database.

    Open it with a path (created and migrated as needed) or an open connection. One write is
    one transaction; `transaction()` groups several writes into one.
    """

    def __init__(
        self,
        db: str | os.PathLike[str] | sqlite3.Connection,
        *,
        max_body_bytes: int | None = None,
    ):
        if max_body_bytes is None:
            max_body_bytes = _env_body_limit()
        if max_body_bytes <= 0:
            raise UserError(f"max_body_bytes {max_body_bytes}: must be a positive number")
        self.max_body_bytes = max_body_bytes
        if is_connection(db):
            self.conn = db
            self._owns_conn = False
            dbmod.register_functions(db)  # the full-text index's view decodes with it
        else:
            self.conn = dbmod.connect(db)
            self._owns_conn = True
        self.dialect = dialect_of(self.conn)
        self._depth = 0
        self._serial = 0
        self._open: list[int] = []  # serials of the open transaction levels, outermost first
        self._broken: set[int] = set()  # levels whose rollback would undo a half-done write
        self._reading = False  # inside snapshot()
        self._purge_index = False  # a redaction asks for the full-text index to be merged
        self.dialect.prepare(self.conn)

    @property
    def path(self) -> Path | None:
        """The database file (None in memory, or on a server: see `location`)."""
        where = self.location
        return Path(where) if where and not is_database_url(where) else None

    @property
    def location(self) -> str | None:
        """Where the database is: its file, or the server's URL (with its password: show
        it through `doctree.store.backends.describe`)."""
        return self.dialect.location(self.conn)

    def close(self) -> None:
        if self._owns_conn:
            self.conn.close()

    def __enter__(self) -> DocumentsRepository:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- transactions -------------------------------------------------------------------

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One write transaction (BEGIN IMMEDIATE); nested calls become savepoints.

        Writes (write, edit, move, ...) inside it join it without a savepoint of their own:
        they check everything before they change anything, so a refused write leaves the
        transaction as it was. (A savepoint per write would also make FTS5 flush its
        pending index on every write, which is what makes batches slow.) Should a write
        fail midway, the whole transaction is rolled back at its end and TransactionError
        raised, unless a savepoint taken before that write was rolled back first.
        """
        self._serial += 1
        serial = self._serial
        # Outermost: BEGIN, unless the connection is already in a transaction of its
        # owner's (a shared connection): then a savepoint inside that one.
        begin = self._depth == 0 and not self.conn.in_transaction
        name = f"doctree_sp{serial}"
        if begin:
            self.dialect.begin_write(self.conn)
        else:
            self.conn.execute(f"SAVEPOINT {name}")
        self._depth += 1
        self._open.append(serial)

        def undo() -> None:
            if begin:
                self.conn.execute("ROLLBACK")
            else:
                self.conn.execute(f"ROLLBACK TO {name}")
                self.conn.execute(f"RELEASE {name}")

        try:
            yield
        except BaseException:
            self._open.pop()
            self._depth -= 1
            if self._depth == 0:
                self._purge_index = False
            undo()
            if serial in self._broken:  # the half-done write is undone
                self._broken = set()
            raise
        self._open.pop()
        self._depth -= 1
        if self._depth == 0 and self._broken:
            self._broken = set()
            self._purge_index = False
            undo()
            raise TransactionError(
                "a write in this transaction failed after changing the database; "
                "the whole transaction was rolled back"
            )
        if self._depth == 0 and self._purge_index:
            self._purge_index = False
            try:
                # The terms of erased text are gone from the index.
                self.dialect.optimize_documents_index(self.conn)
            except BaseException:
                undo()
                raise
        self.conn.execute("COMMIT" if begin else f"RELEASE {name}")

    @property
    def in_write_transaction(self) -> bool:
        """True inside this repository's own `transaction()` (which holds the write lock)."""
        return self._depth > 0

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """A read transaction: every read inside sees the database as of its start.

        Under WAL a reader holds its snapshot while other connections write and commit, so
        several reads (an export of a subtree) never mix states from before and after a
        concurrent write. Read-only: a write inside raises. Inside a transaction that is
        already open, reads already share one view, and this does nothing.
        """
        if self._depth > 0 or self._reading or self.conn.in_transaction:
            yield
            return
        self.dialect.begin_read(self.conn)
        self._reading = True
        try:
            yield
        finally:
            self._reading = False
            # Nothing was written through this repository (see _writing); COMMIT rather than
            # ROLLBACK so that nothing another user of a shared connection wrote is lost.
            self.conn.execute("COMMIT")

    @contextmanager
    def _writing(self) -> Iterator[None]:
        """The transaction of one write: its own, or the caller's (see `transaction`)."""
        if self._reading:
            raise DoctreeError("cannot write inside a read snapshot; open a transaction instead")
        if self._depth == 0:
            with self.transaction():
                yield
            return
        before = self.conn.total_changes
        try:
            yield
        except BaseException:
            if self.conn.total_changes != before:
                self._broken = set(self._open)
            raise

    # -- rows ----------------------------------------------------------------------------

    def _doc_row(self, owner: str, path: str) -> sqlite3.Row | None:
        return self.conn.execute(
            "SELECT * FROM documents WHERE owner = ? AND path = ? AND deleted_at IS NULL",
            (owner, path),
        ).fetchone()

    def _live_rows(self, owner: str, paths: Sequence[str]) -> dict[str, sqlite3.Row]:
        """Live rows of several paths (a path and its ancestors) in one query, by path."""
        marks = ",".join("?" * len(paths))
        rows = self.conn.execute(
            f"SELECT * FROM documents WHERE owner = ? AND deleted_at IS NULL AND path IN ({marks})",
            (owner, *paths),
        )
        return {r["path"]: r for r in rows}

    @staticmethod
    def _document(row: sqlite3.Row, *, with_links: bool = True) -> Document:
        return Document(
            id=row["id"],
            owner=row["owner"],
            path=row["path"],
            title=row["title"],
            body=_text(row),
            version=row["version"],
            content_sha256=row["content_sha256"],
            size=row["size"],
            created_at=row["created_at"],
            updated_at=row["updated_at"],
            deleted=row["deleted_at"] is not None,
            links=json.loads(row["links"]) if with_links and row["links"] else [],
        )

    @staticmethod
    def _version(row: sqlite3.Row, body: str | None) -> Version:
        return Version(
            id=row["id"],
            document_id=row["document_id"],
            owner=row["owner"],
            version=row["version"],
            operation=row["operation"],
            path=row["path"],
            title=row["title"],
            body=body,
            content_sha256=row["content_sha256"],
            size=row["size"],
            actor_kind=row["actor_kind"],
            actor_id=row["actor_id"],
            session_id=row["session_id"],
            run_id=row["run_id"],
            created_at=row["created_at"],
            redacted=row["redacted_at"] is not None,
            links=json.loads(row["links"]) if row["links"] else [],
            deleted=bool(row["deleted"]),
        )

    def _versions(self, rows: Sequence[sqlite3.Row]) -> list[Version]:
        """Version rows with their bodies decoded (see `_bodies`)."""
        bodies = self._bodies(rows)
        return [self._version(r, bodies[r["id"]]) for r in rows]

    def _bodies(self, rows: Sequence[sqlite3.Row]) -> dict[int, str | None]:
        """The body of each version row, by row id (None: redacted).

        A full copy decodes on its own; a delta needs the versions back to a full copy, read
        in one range query per run of nearby versions of a document (at most
        `encoding.CHAIN` rows for a single version).
        """
        out: dict[int, str | None] = {}
        need: dict[int, dict[int, int]] = {}  # document id -> version -> row id
        for r in rows:
            data = r["body_data"]
            if data is None:
                out[r["id"]] = None
            elif encoding.is_full(data):
                out[r["id"]] = encoding.decode(data, None)
            else:
                need.setdefault(r["document_id"], {})[r["version"]] = r["id"]
        for doc_id, wanted in need.items():
            for lo, hi in _spans(wanted):
                pairs = self.conn.execute(
                    "SELECT version, body_data FROM document_versions"
                    " WHERE document_id = ? AND version BETWEEN ? AND ? ORDER BY version",
                    (doc_id, lo, hi),
                ).fetchall()
                for version, text in encoding.decode_sequence((p[0], p[1]) for p in pairs):
                    if version in wanted:
                        out[wanted[version]] = text
        return out

    def _require(self, owner: str, path: str) -> sqlite3.Row:
        row = self._doc_row(owner, path)
        if row is None:
            raise NotFoundError(f"document {path!r} not found for agent {owner!r}")
        return row

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
            if row["content_sha256"] != content_sha256.lower():
                raise ConflictError(
                    f"conflict on {path!r}: content sha256 is {row['content_sha256'][:12]}..., "
                    f"not {content_sha256[:12]}...; read it again and retry",
                    current,
                )

    def _check_body(self, path: str, body: object) -> str:
        if not isinstance(body, str):
            raise UserError(f"body of {path!r}: must be text, got {type(body).__name__}")
        if "\x00" in body:
            raise UserError(f"body of {path!r}: NUL bytes are not allowed in a body")
        try:
            size = len(body.encode("utf-8"))
        except UnicodeEncodeError:
            raise NotTextError(f"body of {path!r}", body) from None
        if size > self.max_body_bytes:
            raise BodyTooLargeError(path, size, self.max_body_bytes)
        if body.startswith("---") and (problem := frontmatter_problem(body)):
            raise UserError(f"body of {path!r}: {problem}")
        return body

    def _insert_version(
        self,
        *,
        doc_id: int,
        owner: str,
        version: int,
        operation: str,
        path: str,
        title: str,
        body: str,
        base: str | None,
        full: bytes,
        digest: str,
        size: int,
        links_json: str | None,
        prov: Provenance,
        ts: str,
        deleted: bool = False,
    ) -> None:
        """Append a version row; its body is stored encoded against `base`, the body of
        the version before it (None: there is none, or it was redacted). `full` is
        `encoding.encode_full(body)`, which the caller stores in `documents` too."""
        self.conn.execute(
            "INSERT INTO document_versions (document_id, owner, version, operation, path, title,"
            " body_data, content_sha256, size, actor_kind, actor_id, session_id, run_id, links,"
            " deleted, created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (
                doc_id,
                owner,
                version,
                operation,
                path,
                title,
                encoding.encode(body, base, version, full),
                digest,
                size,
                prov.actor.kind,
                prov.actor.id,
                prov.session,
                prov.run,
                links_json,
                int(deleted),
                ts,
            ),
        )

    def _insert_references(
        self, owner: str, doc_id: int, version: int, path: str, body: str, links: list[str]
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
        # path until that document moves away or is deleted (see _resolve_references_to).
        # A reference the previous version made too keeps its pin: a link keeps following
        # its target for as long as the source keeps the link.
        pins: dict[tuple[str, str], int] = {}
        if version > 1:
            pins = {
                (r[0], r[1]): r[2]
                for r in self.conn.execute(
                    "SELECT kind, target_path, target_id FROM document_references"
                    " WHERE source_id = ? AND version = ? AND target_id IS NOT NULL",
                    (doc_id, version - 1),
                )
            }
        self.conn.executemany(
            "INSERT INTO document_references (source_id, version, kind, owner, target_path,"
            " target_id) VALUES (?, ?, ?, ?, ?, ?)",
            [
                (doc_id, version, kind, owner, target, pins.get((kind, target)))
                for kind, target in refs
            ],
        )

    def _resolve_references_to(self, owner: str, path: str, doc_id: int) -> None:
        """Pin the references waiting on `path` (dangling, or pinned to a document deleted
        there) to the document now at `path`, before it moves away or is deleted there."""
        self.conn.execute(
            "UPDATE document_references SET target_id = ? WHERE owner = ? AND target_path = ?"
            " AND (target_id IS NULL OR target_id IN"
            "  (SELECT id FROM documents WHERE owner = ? AND path = ? AND deleted_at IS NOT NULL))",
            (doc_id, owner, path, owner, path),
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
        digest, size = sha256(body), len(body.encode("utf-8"))
        links_json = json.dumps(links) if links else None
        full = encoding.encode_full(body)
        doc_id = self.conn.execute(
            "INSERT INTO documents (owner, path, parent_id, title, body_data, version,"
            " content_sha256, size, links, created_at, updated_at) VALUES (?,?,?,?,?,1,?,?,?,?,?)",
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
            body=body,
            base=None,
            full=full,
            digest=digest,
            size=size,
            links_json=links_json,
            prov=prov,
            ts=ts,
        )
        self._insert_references(owner, doc_id, 1, path, body, links)
        self.dialect.index_document(self.conn, doc_id, path, title, body)
        # References waiting on `path` now find this document by path (see _references);
        # they are pinned to it only when it moves away or is deleted.
        return Document(
            doc_id, owner, path, title, body, 1, digest, size, ts, ts, False, list(links)
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
            known = self._live_rows(owner, anc) if anc else {}
        parent_id = None
        for a in anc:
            row = known.get(a)
            if row is not None:
                parent_id = row["id"]
            else:
                parent_id = self._create(owner, a, parent_id, name_of(a), "", [], prov, ts).id
        return parent_id

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

        The new version is stored as a delta against the current body, unless
        `base_redacted` says the current version's content was just erased.
        """
        doc_id, owner = row["id"], row["owner"]
        old_body = _text(row)
        version = row["version"] + 1
        digest, size = sha256(body), len(body.encode("utf-8"))
        links_json = json.dumps(links) if links else None
        full = encoding.encode_full(body)
        was_deleted = row["deleted_at"] is not None
        deleted_at = (row["deleted_at"] if was_deleted else ts) if deleted else None
        new_parent = row["parent_id"] if parent_id is _KEEP else parent_id
        self.conn.execute(
            "UPDATE documents SET path = ?, parent_id = ?, title = ?, body_data = ?, version = ?,"
            " content_sha256 = ?, size = ?, links = ?, updated_at = ?, deleted_at = ?"
            " WHERE id = ?",
            (
                path,
                new_parent,
                title,
                full,
                version,
                digest,
                size,
                links_json,
                ts,
                deleted_at,
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
            body=body,
            base=None if base_redacted else old_body,
            full=full,
            digest=digest,
            size=size,
            links_json=links_json,
            prov=prov,
            ts=ts,
            deleted=deleted,
        )
        if not deleted:
            self._insert_references(owner, doc_id, version, path, body, links)
        # The full-text index reads its text from `documents` (external content), so it is
        # told the old values to remove and the new ones to add, and only when they change.
        changed = path != row["path"] or title != row["title"] or body != old_body
        if not was_deleted and (deleted or changed):
            self.dialect.unindex_document(self.conn, doc_id, row["path"], row["title"], old_body)
        if not deleted and (was_deleted or changed):
            self.dialect.index_document(self.conn, doc_id, path, title, body)
        return Document(
            doc_id,
            owner,
            path,
            title,
            body,
            version,
            digest,
            size,
            row["created_at"],
            ts,
            deleted,
            list(links),
        )

    @staticmethod
    def _provenance(
        owner: str,
        provenance: Provenance | None,
        actor: Actor | None,
        session_id: str | None,
        run_id: int | None,
    ) -> Provenance:
        """A write's provenance: given whole, or as actor, session_id and run_id (the actor
        defaults to the owner agent itself)."""
        if provenance is not None:
            if actor is not None or session_id is not None or run_id is not None:
                raise UserError(
                    "give a write's provenance either as provenance= or as actor=, "
                    "session_id=, run_id=, not both"
                )
            return provenance
        return Provenance(actor if actor is not None else Actor("agent", owner), session_id, run_id)

    # -- reads ---------------------------------------------------------------------------

    def get(self, owner: str, path: str) -> Document | None:
        """The current document at `path`, or None."""
        row = self._doc_row(validate_owner(owner), normalize_path(path))
        return self._document(row) if row else None

    def exists(self, owner: str, path: str) -> bool:
        return self._doc_row(validate_owner(owner), normalize_path(path)) is not None

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
        if version is None and at is None:
            return self._document(self._require(owner, path))
        if version is not None:
            row = self._doc_row(owner, path) or self._last_deleted_row(owner, path)
            if row is None:
                raise NotFoundError(f"document {path!r} not found for agent {owner!r}")
            v = self.version(row["id"], version)
            return self._document_from_version(v, row["created_at"])
        at_ts = parse_time(at)
        # The document at `path` then: its latest version at that time is there and live.
        vrow = self.conn.execute(
            "SELECT v.*, d.created_at AS doc_created_at FROM document_versions v"
            " JOIN documents d ON d.id = v.document_id"
            " WHERE v.owner = ? AND v.path = ? AND v.created_at <= ? AND v.deleted = 0"
            " AND v.version = (SELECT MAX(w.version) FROM document_versions w"
            "   WHERE w.document_id = v.document_id AND w.created_at <= ?)"
            " ORDER BY v.created_at DESC, v.id DESC LIMIT 1",
            (owner, path, at_ts, at_ts),
        ).fetchone()
        if vrow is not None:
            return self._document_from_version(self._versions([vrow])[0], vrow["doc_created_at"])
        raise NotFoundError(f"document {path!r} did not exist at {at_ts} for agent {owner!r}")

    def _document_from_version(self, v: Version, created_at: str) -> Document:
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

    def _last_deleted_row(self, owner: str, path: str) -> sqlite3.Row | None:
        return self.conn.execute(
            "SELECT * FROM documents WHERE owner = ? AND path = ? AND deleted_at IS NOT NULL"
            " ORDER BY deleted_at DESC, id DESC LIMIT 1",
            (owner, path),
        ).fetchone()

    def _any_row(self, owner: str, path: str) -> sqlite3.Row:
        row = self._doc_row(owner, path) or self._last_deleted_row(owner, path)
        if row is None:
            raise NotFoundError(f"document {path!r} not found for agent {owner!r}")
        return row

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
        return self._versions([row])[0]

    def read_by_id(self, document_id: int) -> Document:
        check_int(document_id, "document id")
        row = self.conn.execute("SELECT * FROM documents WHERE id = ?", (document_id,)).fetchone()
        if row is None:
            raise NotFoundError(f"no document with id {document_id}")
        return self._document(row)

    def history(self, owner: str, path: str) -> list[Version]:
        """Every version of the document at `path` (or the one last deleted there), oldest first."""
        row = self._any_row(validate_owner(owner), normalize_path(path))
        rows = self.conn.execute(
            "SELECT * FROM document_versions WHERE document_id = ? ORDER BY version",
            (row["id"],),
        ).fetchall()
        # Every version from the first: each delta applies to the body decoded just before.
        bodies = encoding.decode_sequence((r["version"], r["body_data"]) for r in rows)
        return [self._version(r, body) for r, (_, body) in zip(rows, bodies, strict=True)]

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
            lo, hi = _range(under)
            scope += " AND (path = ? OR (path >= ? AND path < ?))"
            params += [under, lo, hi]
        rows = self.conn.execute(
            "SELECT * FROM document_versions WHERE document_id IN"
            f" (SELECT document_id FROM document_versions WHERE {scope})"
            " ORDER BY document_id, version",
            params,
        )
        text: str | None = None
        for r in rows:
            data = r["body_data"]
            if r["version"] == 1:
                text = None
            text = None if data is None else encoding.decode(data, text)
            if under == HOME or r["path"] == under or is_under(r["path"], under):
                yield self._version(r, text)

    def diff(
        self,
        owner: str,
        path: str,
        from_version: int | None = None,
        to_version: int | None = None,
    ) -> str:
        """Unified diff between two versions (default: the previous and the current one)."""
        row = self._any_row(validate_owner(owner), normalize_path(path))
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
        """Versions under a path (newest first): the change log of a subtree, a run or a session."""
        where, params = [], []
        if owner is not None:
            where.append("owner = ?")
            params.append(validate_owner(owner))
        under = normalize_path(under)
        if under != HOME:
            lo, hi = _range(under)
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
        sql += " ORDER BY id DESC"
        if limit is not None:
            sql += f" LIMIT {check_int(limit, 'limit')}"
        return self._versions(self.conn.execute(sql, params).fetchall())

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
            parent = self._require(owner, path)
            rows = self.conn.execute(
                "SELECT * FROM documents WHERE parent_id = ? AND deleted_at IS NULL ORDER BY path",
                (parent["id"],),
            )
        return [self._document(r, with_links=False) for r in rows]

    def documents(
        self, owner: str, under: str = HOME, *, with_links: bool = False
    ) -> list[Document]:
        """Every live document at or below `under`, by path (with their declared links if
        `with_links`)."""
        owner, under = validate_owner(owner), normalize_path(under)
        lo, hi = _range(under)
        rows = self.conn.execute(
            "SELECT * FROM documents WHERE owner = ? AND deleted_at IS NULL"
            " AND (path = ? OR (path >= ? AND path < ?)) ORDER BY path",
            (owner, under, lo, hi),
        )
        return [self._document(r, with_links=with_links) for r in rows]

    def current_versions(self, owner: str, under: str = HOME) -> dict[int, int]:
        """The current version of every live document at or below `under`, by document id.

        What a derived index (the retrieval chunks) compares with the versions it was built
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
        return self.conn.execute(
            "SELECT COALESCE(SUM(version), 0) FROM documents WHERE owner = ?",
            (validate_owner(owner),),
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
            lo, hi = _range(under)
            sql += " AND (path = ? OR (path >= ? AND path < ?))"
            params += [under, lo, hi]
        cur = self.conn.cursor()
        cur.row_factory = None  # plain tuples: thousands of rows, read for two numbers each
        return dict(cur.execute(sql, params).fetchall())

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
        lo, hi = _range(path)
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
                raise NotFoundError(f"document {path!r} not found for agent {owner!r}{when}")
            return _build_tree(rows, path, depth)

    def links(self, owner: str, path: str) -> list[Reference]:
        """References the current version of `path` makes (parent, link, body)."""
        row = self._require(validate_owner(owner), normalize_path(path))
        return self._references("r.source_id = ? AND r.version = ?", (row["id"], row["version"]))

    def backlinks(self, owner: str, path: str, *, include_parent: bool = False) -> list[Reference]:
        """Current documents whose current version references `path`."""
        owner, path = validate_owner(owner), normalize_path(path)
        row = self._require(owner, path)
        kinds = "" if include_parent else " AND r.kind != 'parent'"
        # Pinned to this document, or waiting on its path (see _resolve_references_to).
        return self._references(
            "r.id IN (SELECT id FROM document_references WHERE target_id = ?"
            " UNION ALL SELECT id FROM document_references WHERE owner = ? AND target_path = ?"
            "  AND (target_id IS NULL OR target_id IN (SELECT id FROM documents"
            "   WHERE owner = ? AND path = ? AND deleted_at IS NOT NULL)))"
            " AND s.version = r.version AND s.deleted_at IS NULL" + kinds,
            (row["id"], owner, path, owner, path),
        )

    def _references(self, where: str, params: Sequence[Any]) -> list[Reference]:
        """References with their state. A reference points at the document it is pinned to
        while that one is live; else at the live document at its path (it waited for it, or
        its pinned target was deleted there); else it is deleted (pinned) or dangling."""
        rows = self.conn.execute(
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
                Reference(
                    r["kind"], r["source_id"], r["source_path"], target_path, target_id, state
                )
            )
        return out

    def search(
        self,
        owner: str,
        query: str,
        *,
        under: str = HOME,
        limit: int = 10,
        snippets: bool = True,
    ) -> list[SearchHit]:
        """Full-text search over current titles, bodies and paths, best (BM25) first.

        The query is read by `search_query`: any of its words may match (stopwords
        dropped), `word*` matches a prefix, `"a phrase"` must occur as written, `-word`
        excludes. `snippets=False` leaves each hit's snippet empty, for callers that only rank.
        """

        owner, under = validate_owner(owner), normalize_path(under)
        limit = check_int(limit, "limit", minimum=1)
        parsed = parse_search(query)
        match = parsed.fts()
        if not match:
            return []
        params: list[Any] = []
        scope = ""
        if under != HOME:
            lo, hi = _range(under)
            scope = " AND (d.path = ? OR (d.path >= ? AND d.path < ?))"
            params += [under, lo, hi]
        rows = self.dialect.search_documents(self.conn, match, owner, scope, params, limit)
        # Snippets are cut here, the same on every backend (see `snippet_of`).
        bodies = (
            self.dialect.indexed_bodies(self.conn, [r["id"] for r in rows])
            if snippets and rows
            else {}
        )
        return [
            SearchHit(
                r["id"],
                r["path"],
                r["title"],
                snippet_of(bodies[r["id"]], parsed) if snippets else "",
                r["score"],
                r["version"],
                r["updated_at"],
            )
            for r in rows
        ]

    def owners(self) -> list[str]:
        return [r[0] for r in self.conn.execute("SELECT DISTINCT owner FROM documents ORDER BY 1")]

    def total_size(self, owner: str, under: str = HOME) -> int:
        """Bytes of body in every live document at or below `under`."""
        owner, under = validate_owner(owner), normalize_path(under)
        lo, hi = _range(under)
        return self.conn.execute(
            "SELECT COALESCE(SUM(size), 0) FROM documents WHERE owner = ? AND deleted_at IS NULL"
            " AND (path = ? OR (path >= ? AND path < ?))",
            (owner, under, lo, hi),
        ).fetchone()[0]

    # -- writes --------------------------------------------------------------------------

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
        actor: Actor | None = None,
        session_id: str | None = None,
        run_id: int | None = None,
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
        prov = self._provenance(owner, provenance, actor, session_id, run_id)
        with self._writing():
            anc = ancestors(path)
            rows = self._live_rows(owner, [*anc, path]) if anc else {}
            row = rows.get(path) if anc else self._doc_row(owner, path)
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
            old_body = _text(row)
            old_links = json.loads(row["links"]) if row["links"] else []
            new_links = old_links if declared is None else declared
            if title is not None:
                new_title = title
            elif row["title"] != title_for(path, old_body):
                new_title = row["title"]  # a title given explicitly before is kept
                if _HEADING.search(body) or body.startswith("---"):
                    new_title = title_for(path, body)
            else:
                new_title = title_for(path, body)
            if body == old_body and new_title == row["title"] and new_links == old_links:
                return self._document(row)
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
        actor: Actor | None = None,
        session_id: str | None = None,
        run_id: int | None = None,
        provenance: Provenance | None = None,
    ) -> Document:
        """Replace an exact string in the body. It must occur exactly once unless replace_all."""
        owner, path = validate_owner(owner), normalize_path(path)
        if not isinstance(old, str) or old == "":
            raise EditError(f"edit of {path!r}: the text to replace must not be empty")
        if not isinstance(new, str):
            raise EditError(f"edit of {path!r}: the replacement must be text")
        with self._writing():
            row = self._require(owner, path)
            self._check_precondition(path, row, expected_version, content_sha256)
            current = _text(row)
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
                provenance=self._provenance(owner, provenance, actor, session_id, run_id),
            )

    def move(
        self,
        owner: str,
        path: str,
        new_path: str,
        *,
        expected_version: int | None = None,
        actor: Actor | None = None,
        session_id: str | None = None,
        run_id: int | None = None,
        provenance: Provenance | None = None,
    ) -> list[Document]:
        """Move a document and its subtree. Ids are kept, so references to them survive."""
        owner = validate_owner(owner)
        path, new_path = normalize_path(path), normalize_path(new_path)
        if HOME in (path, new_path):
            raise PathError(HOME, "the home '~' cannot be moved or replaced")
        if is_under(new_path, path):
            raise PathError(new_path, f"cannot move {path!r} into itself")
        prov = self._provenance(owner, provenance, actor, session_id, run_id)
        with self._writing():
            row = self._require(owner, path)
            self._check_precondition(path, row, expected_version, None)
            if self._doc_row(owner, new_path) is not None:
                raise ConflictError(f"cannot move {path!r} to {new_path!r}: it already exists")
            ts = now()
            new_parent_id = self._ensure_ancestors(owner, new_path, prov, ts)
            lo, hi = _range(path)
            rows = self.conn.execute(
                "SELECT * FROM documents WHERE owner = ? AND deleted_at IS NULL"
                " AND (path = ? OR (path >= ? AND path < ?)) ORDER BY path",
                (owner, path, lo, hi),
            ).fetchall()
            # Pin every reference waiting on a path of the subtree (from outside it or from
            # within) to the document there, before any of them moves.
            for r in rows:
                self._resolve_references_to(owner, r["path"], r["id"])
            moved = []
            for r in rows:
                target = new_path + r["path"][len(path) :]
                body = _text(r)
                moved.append(
                    self._new_version(
                        r,
                        operation="moved",
                        path=target,
                        title=_retitle(r["title"], r["path"], target, body),
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
        actor: Actor | None = None,
        session_id: str | None = None,
        run_id: int | None = None,
        provenance: Provenance | None = None,
    ) -> list[Document]:
        """Delete a document (a tombstone version; history stays). Children need recursive."""
        owner, path = validate_owner(owner), normalize_path(path)
        if path == HOME:
            raise PathError(path, "the home '~' cannot be deleted")
        prov = self._provenance(owner, provenance, actor, session_id, run_id)
        with self._writing():
            row = self._require(owner, path)
            self._check_precondition(path, row, expected_version, content_sha256)
            lo, hi = _range(path)
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
                self._resolve_references_to(owner, r["path"], r["id"])
            return [
                self._new_version(
                    r,
                    operation="deleted",
                    path=r["path"],
                    title=r["title"],
                    body=_text(r),
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
        actor: Actor | None = None,
        session_id: str | None = None,
        run_id: int | None = None,
        provenance: Provenance | None = None,
    ) -> Document:
        """Write a new version with the content of an earlier one; undeletes a deleted document.

        `path` names the live document, or else the one most recently deleted at that path.
        """
        owner, path = validate_owner(owner), normalize_path(path)
        prov = self._provenance(owner, provenance, actor, session_id, run_id)
        with self._writing():
            row = self._any_row(owner, path)
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
                title=_retitle(old.title, old.path, path, old.body),
                body=old.body,
                links=old.links,
                prov=prov,
                ts=ts,
                parent_id=parent_id,
            )
            self._resolve_references_to(owner, path, row["id"])
            return doc

    def redact(
        self,
        owner: str,
        path: str,
        version: int,
        *,
        actor: Actor | None = None,
        session_id: str | None = None,
        run_id: int | None = None,
        provenance: Provenance | None = None,
    ) -> Version:
        """Erase the content of one version of the document at `path` (the live one, else
        the one most recently deleted there); see `redact_by_id`."""
        owner, path = validate_owner(owner), normalize_path(path)
        with self._writing():
            row = self._any_row(owner, path)
            return self.redact_by_id(
                row["id"],
                version,
                provenance=self._provenance(owner, provenance, actor, session_id, run_id),
            )

    def redact_by_id(
        self,
        document_id: int,
        version: int,
        *,
        actor: Actor | None = None,
        session_id: str | None = None,
        run_id: int | None = None,
        provenance: Provenance | None = None,
    ) -> Version:
        """Erase the content of one version; the fact of the change and who redacted it stay.

        A `redacted` version is appended to record it. Redacting the current version also
        empties the current body. A deleted document stays deleted. By id, so it reaches any
        document, also a deleted one whose path another document has taken since.
        """
        with self._writing():
            row = self.conn.execute(
                "SELECT * FROM documents WHERE id = ?", (document_id,)
            ).fetchone()
            if row is None:
                raise NotFoundError(f"no document with id {document_id}")
            prov = self._provenance(row["owner"], provenance, actor, session_id, run_id)
            target = self.version(row["id"], version)
            ts = now()
            self._erase_body(row["id"], target, ts, prov.actor)
            self.conn.execute(
                "DELETE FROM document_references WHERE source_id = ? AND version = ?",
                (row["id"], version),
            )
            self._erase_redaction_copies(row["id"], target.content_sha256, ts, prov.actor)
            # The current state holds this content (it is the current version, or a later
            # version that kept it): it is emptied too.
            current = version == row["version"] or row["content_sha256"] == target.content_sha256
            self._new_version(
                row,
                operation="redacted",
                path=row["path"],
                title=name_of(row["path"]) if current else row["title"],
                body="" if current else _text(row),
                links=[] if current else (json.loads(row["links"]) if row["links"] else []),
                prov=prov,
                ts=ts,
                deleted=row["deleted_at"] is not None,
                base_redacted=current,
            )
            # Text removed from the full-text index lingers in its segments until they are
            # merged: merge them when the transaction ends (see `transaction`).
            self._purge_index = True
            return self.version(row["id"], row["version"] + 1)

    def _erase_body(self, doc_id: int, target: Version, ts: str, actor: Actor) -> None:
        """Erase one version's stored body. The next version may be stored as a delta
        against this one: it is stored in full first, so nothing left needs (or holds) the
        erased text."""
        following = self.conn.execute(
            "SELECT id, body_data FROM document_versions WHERE document_id = ? AND version = ?",
            (doc_id, target.version + 1),
        ).fetchone()
        if following is not None and following["body_data"] is not None:
            data = following["body_data"]
            if not encoding.is_full(data):
                if target.body is None:
                    raise encoding.EncodingError(
                        f"version {target.version + 1} of document {doc_id} depends on a "
                        "redacted version"
                    )
                self.conn.execute(
                    "UPDATE document_versions SET body_data = ? WHERE id = ?",
                    (encoding.reencode_after(target.body, data), following["id"]),
                )
        self.conn.execute(
            "UPDATE document_versions SET body_data = NULL, title = '', redacted_at = ?,"
            " redacted_by = ? WHERE id = ?",
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
                " AND operation = 'redacted' AND content_sha256 = ? AND body_data IS NOT NULL"
                " AND size > 0 ORDER BY version",
                (doc_id, digest),
            )
        ]
        for n in numbers:
            self._erase_body(doc_id, self.version(doc_id, n), ts, actor)

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
        with self._writing():
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
                        _map_links(v["links"], path_map),
                        v["id"],
                    ),
                )
            path, title = current_map(row["path"]), text_map(row["title"])
            self.conn.execute(
                "UPDATE documents SET path = ?, title = ?, links = ? WHERE id = ?",
                (path, title, _map_links(row["links"], path_map), document_id),
            )
            if row["deleted_at"] is None and (path, title) != (row["path"], row["title"]):
                body = _text(row)
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
        with self._writing():
            for table in ("documents", "document_versions"):
                key = "id" if table == "documents" else "document_id"
                for r in self.conn.execute(
                    f"SELECT id, {key} AS doc, links FROM {table}"
                    " WHERE owner = ? AND links IS NOT NULL",
                    (validate_owner(owner),),
                ).fetchall():
                    if (links := _map_links(r["links"], path_map)) != r["links"]:
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
        with self._writing():
            self.dialect.optimize_documents_index(self.conn)

    def max_version_id(self) -> int:
        """The id of the newest version row: every version that exists has an id at most this."""
        return self.conn.execute("SELECT COALESCE(MAX(id), 0) FROM document_versions").fetchone()[0]


def _map_links(links_json: str | None, path_map: Callable[[str], str]) -> str | None:
    if not links_json:
        return links_json
    links = json.loads(links_json)
    mapped = [path_map(p) for p in links]
    return links_json if mapped == links else json.dumps(mapped)


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


def _build_tree(rows: Sequence[tuple], path: str, depth: int | None) -> list[TreeNode]:
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


def _text(row: sqlite3.Row) -> str:
    """The current body of a `documents` row (stored as `encoding.encode_full` makes it)."""
    return encoding.decode(row["body_data"], None)


def _spans(versions: Iterable[int]) -> list[tuple[int, int]]:
    """The ranges of versions to read to decode these versions: from each one's chain start,
    overlapping ranges merged."""
    spans: list[tuple[int, int]] = []
    for v in sorted(versions):
        lo = encoding.chain_start(v)
        if spans and lo <= spans[-1][1] + 1:
            spans[-1] = (spans[-1][0], v)
        else:
            spans.append((lo, v))
    return spans


def _retitle(title: str, old_path: str, new_path: str, body: str) -> str:
    """A title derived from the old path follows the document to its new path."""
    if old_path != new_path and title == title_for(old_path, body):
        return title_for(new_path, body)
    return title


def unified_diff(a: str, b: str, a_label: str, b_label: str) -> str:
    """A unified diff of two bodies, labelled like `~/path@3` (or `/dev/null`).

    A last line without a newline is marked as `diff -u` does, so lines never run together.
    """
    out = []
    for line in difflib.unified_diff(
        a.splitlines(keepends=True), b.splitlines(keepends=True), a_label, b_label
    ):
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)


_unified = unified_diff  # the former private name
