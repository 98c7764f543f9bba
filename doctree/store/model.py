"""What the store holds and hands out, and the rules of their fields.

Documents, versions, references, search hits and tree nodes as the repository returns them;
who made a change (`Actor`, `Provenance`); titles, times and whole numbers as the store
accepts them. No SQL here.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from doctree.errors import ArgumentError, TitleError, UserError
from doctree.store.paths import (
    HOME,
    invisible_character,
    name_of,
    refuse_secret,
    require_text,
    strip_invisible,
)
from doctree.store.references import split_frontmatter
from doctree.store.secrets import mask_text

DEFAULT_MAX_BODY_BYTES = 100_000
MAX_TITLE_BYTES = 1_024
MAX_SQL_INT = 2**63 - 1  # the largest integer SQLite stores
_TITLE_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
ACTOR_KINDS = ("agent", "memory-agent", "user", "system")
OPERATIONS = ("created", "modified", "moved", "deleted", "restored", "redacted")
HEADING = re.compile(r"^#\s+(.+?)\s*#*\s*$", re.M)
"""A markdown `# heading` line, whose text is a document's title."""


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
    """The sha256 of a text as every API, CLI and document shows it: 64 hex characters."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def sha256_digest(text: str) -> bytes:
    """The sha256 of a text as the store keeps it (`content_sha256`): its 32 bytes, half the
    size of the hex text (`.hex()` gives `sha256(text)`)."""
    return hashlib.sha256(text.encode("utf-8")).digest()


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
        refuse_secret(self.id, "actor id")

    def __str__(self) -> str:
        return f"{self.kind}:{self.id}"


@dataclass(frozen=True)
class Provenance:
    """Where a change comes from, recorded on every version it makes: its actor, and the
    session and memory-agent run it was made in (None outside them). Every write method
    takes it as its one keyword `provenance=`; no actor means the owner agent itself
    (`agent:<owner>`)."""

    actor: Actor | None = None
    session: str | None = None
    run: int | None = None

    def __post_init__(self) -> None:
        if self.actor is not None and not isinstance(self.actor, Actor):
            raise ArgumentError("Provenance", "actor", self.actor, "an Actor or None")
        if self.session is not None and not isinstance(self.session, str):
            raise ArgumentError("Provenance", "session", self.session, "text (str) or None")
        if self.session is not None:
            refuse_secret(self.session, "session id")
        if self.run is not None and (
            isinstance(self.run, bool) or not isinstance(self.run, int) or not 0 < self.run < 2**63
        ):
            raise ArgumentError(
                "Provenance", "run", self.run, "a run id (a whole number > 0) or None"
            )

    def actor_for(self, owner: str) -> Actor:
        """The actor of the change: the one given, else the owner agent itself."""
        return self.actor if self.actor is not None else Actor("agent", owner)


def provenance_of(owner: str, provenance: Provenance | None) -> Provenance:
    """A write's provenance with its actor filled in (the owner agent itself if none)."""
    if provenance is None:
        return Provenance(Actor("agent", owner))
    if provenance.actor is None:
        return Provenance(Actor("agent", owner), provenance.session, provenance.run)
    return provenance


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
    size: int
    actor_kind: str
    actor_id: str
    session_id: str | None
    run_id: int | None
    created_at: str
    redacted: bool = False  # an erasure reached it: its content erased, or text in it replaced
    links: list[str] = field(default_factory=list)
    deleted: bool = False  # the document is a tombstone as of this version
    cached_sha256: str | None = field(default=None, repr=False, compare=False)
    """The digest once computed (`content_sha256`: a version's digest is derived from its
    body, never stored)."""

    @property
    def content_sha256(self) -> str:
        """The sha256 of the body (hex); of an erased version, that of the empty body (the
        digest of the content it had is not kept: it would confirm a guess of it).
        Computed from the body when first asked (a history decodes every body, and most of
        its readers never ask for the digests)."""
        if self.cached_sha256 is None:
            self.cached_sha256 = sha256(self.body or "")
        return self.cached_sha256

    @property
    def erasure(self) -> str | None:
        """What an erasure did to this version: 'redacted' (its content is gone),
        'rewritten' (matched text in it was replaced), or None."""
        if not self.redacted:
            return None
        return "redacted" if self.body is None else "rewritten"

    @property
    def actor(self) -> str:
        return f"{self.actor_kind}:{self.actor_id}"

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {}
        for key, value in self.__dict__.items():
            if key != "cached_sha256":
                d[key] = value
            if key == "body":
                d["content_sha256"] = self.content_sha256
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


@dataclass(frozen=True)
class PassageSearch:
    """A search of one owner's passages in an index: `match` (an FTS5 expression), the SQL
    that narrows it further (`scope`, appended to the WHERE clause, with its
    `scope_params`), how many rows at most, and the weight of each field (text, context,
    speaker, dates)."""

    match: str
    owner: str
    limit: int
    weights: tuple[float, float, float, float]
    scope: str = ""
    scope_params: Sequence[Any] = ()


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
    m = HEADING.search(text)
    if m:
        return clean_title(m.group(1)[:200])
    return name_of(path) if path != HOME else HOME


def clean_title(text: str) -> str:
    """A title derived from a body, made to keep the title rules: control characters become
    spaces, invisible format characters (`invisible_character`) are dropped, a lone surrogate
    becomes '?', and a title longer than the limit is cut, with an ellipsis."""
    text = _TITLE_CONTROL.sub(" ", text)
    text = strip_invisible(text.encode("utf-8", "replace").decode("utf-8")).strip()
    if len(text.encode("utf-8")) > MAX_TITLE_BYTES:
        text = text.encode("utf-8")[: MAX_TITLE_BYTES - 3].decode("utf-8", "ignore") + "…"
    return text


def check_title(path: str, title: object) -> str:
    """A title given explicitly: text, UTF-8, no control characters, no invisible or
    reordering format characters (`invisible_character`), at most MAX_TITLE_BYTES; returned
    with any secret in it replaced by its marker."""
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
    if (hidden := invisible_character(title)) is not None:
        raise TitleError(path, f"{hidden} is not allowed in a title")
    if size > MAX_TITLE_BYTES:
        raise TitleError(path, f"is {size:,} bytes; a title may be at most {MAX_TITLE_BYTES:,}")
    return mask_text(title)


def check_declared_title(path: str, body: str) -> None:
    """Refuse a body whose frontmatter declares a title that cannot be one: text that is not
    UTF-8 (a YAML "\\ud800" escape) or that holds an invisible or reordering character."""
    if not body.startswith("---"):
        return
    title = split_frontmatter(body)[0].get("title")
    if not isinstance(title, str):
        return
    try:
        title.encode("utf-8")
    except UnicodeEncodeError:
        raise TitleError(
            path, 'the frontmatter title is not UTF-8 text (a lone surrogate, e.g. "\\ud800")'
        ) from None
    if (hidden := invisible_character(title)) is not None:
        raise TitleError(path, f"the frontmatter title holds {hidden}, which is not allowed")


def check_int(value: object, what: str, *, minimum: int = 0) -> int:
    """An integer SQLite can store (below 2**63), at least `minimum`; UserError otherwise."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise UserError(f"{what} {value!r}: must be a whole number")
    if not minimum <= value <= MAX_SQL_INT:
        raise UserError(f"{what} {value}: must be between {minimum} and {MAX_SQL_INT}")
    return value


def env_body_limit() -> int:
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


def retitle(title: str, old_path: str, new_path: str, body: str) -> str:
    """A title derived from the old path follows the document to its new path."""
    if old_path != new_path and title == title_for(old_path, body):
        return title_for(new_path, body)
    return title
