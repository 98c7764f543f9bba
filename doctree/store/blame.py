"""Blame: for each line of a document's body, the version that introduced it.

Built on the repository's public reads (`history`), so it follows a document by id across
moves and reads bodies however they are stored. The versions are replayed oldest first,
carrying each line's origin along:

- a version whose body equals the previous one (a move, a deletion, a title change) changes
  nothing;
- a `restored` version takes the blame of the earlier version whose body it restores, so a
  restored line keeps the version, actor and run that first wrote it;
- otherwise the body is compared with the previous one: the common head and tail are
  skipped, the changed middle is matched line by line (difflib), and a line deleted in one
  place and inserted in another in the same version (a moved paragraph) keeps its origin.
  Lines are interned as integers first, so comparisons are integer comparisons.

A redacted version has no body: its lines cannot be told apart, so lines that survive it are
blamed on the first later version that shows them. Cost: one read of the history plus work
proportional to the changed lines of each version (a page of 1,000 versions blames in a few
milliseconds; see bench/web.py).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from difflib import SequenceMatcher
from typing import Any

from doctree.errors import NotFoundError
from doctree.store.documents import DocumentsRepository, Version


@dataclass(frozen=True)
class Origin:
    """The version that introduced a line: its number, time and who made it."""

    version: int
    created_at: str
    operation: str
    path: str  # the document's path at that version
    actor_kind: str
    actor_id: str
    session_id: str | None
    run_id: int | None

    @property
    def actor(self) -> str:
        return f"{self.actor_kind}:{self.actor_id}"

    @classmethod
    def of(cls, v: Version) -> Origin:
        return cls(
            v.version,
            v.created_at,
            v.operation,
            v.path,
            v.actor_kind,
            v.actor_id,
            v.session_id,
            v.run_id,
        )


@dataclass(frozen=True)
class BlameLine:
    """One line of the blamed body (numbered from 1) and where it came from."""

    number: int
    text: str
    origin: Origin

    def to_dict(self) -> dict[str, Any]:
        return {"line": self.number, "text": self.text, **asdict(self.origin)}


@dataclass
class Blame:
    """The blame of one version of a document."""

    document_id: int
    owner: str
    path: str  # the path at the blamed version
    version: int
    lines: list[BlameLine]

    def to_dict(self) -> dict[str, Any]:
        return {
            "document_id": self.document_id,
            "owner": self.owner,
            "path": self.path,
            "version": self.version,
            "lines": [line.to_dict() for line in self.lines],
        }


def blame(repo: DocumentsRepository, owner: str, path: str, *, version: int | None = None) -> Blame:
    """Blame the document at `path` (the live one, else the one last deleted there): every
    line of its current body, or of `version`, with the version that introduced it."""
    history = repo.history(owner, path)
    return blame_versions(history, version=version)


def blame_versions(history: list[Version], *, version: int | None = None) -> Blame:
    """Blame from a document's versions, oldest first (as `DocumentsRepository.history`)."""
    if not history:
        raise NotFoundError("no versions to blame")
    last = history[-1]
    if version is None:
        version = last.version
    if not 1 <= version <= last.version:
        raise NotFoundError(
            f"document {last.path!r} has no version {version} "
            f"(its versions are 1 to {last.version})"
        )
    target = history[version - 1]
    if target.version != version:  # versions are numbered 1..n without gaps; be safe
        target = next(v for v in history if v.version == version)
    if target.body is None:
        raise NotFoundError(
            f"version {version} of {target.path!r} was redacted; its content is gone"
        )

    intern: dict[str, int] = {}
    origins: list[Origin] = []  # one per version that introduced something, by index
    by_sha: dict[str, tuple[list[int], list[int]]] = {}
    lines: list[int] = []
    attr: list[int] = []  # per line: index into `origins`
    sha: str | None = None
    for v in history:
        if v.version > version:
            break
        if v.body is None:  # redacted: nothing to compare with; carry on from before it
            continue
        if v.content_sha256 == sha:
            continue
        restored = by_sha.get(v.content_sha256) if v.operation == "restored" else None
        if restored is not None:
            lines, attr = restored
        else:
            origins.append(Origin.of(v))
            cur = [intern.setdefault(t, len(intern)) for t in v.body.splitlines()]
            attr = _step(lines, attr, cur, len(origins) - 1, intern)
            lines = cur
        sha = v.content_sha256
        by_sha.setdefault(sha, (lines, attr))
    texts = target.body.splitlines()
    return Blame(
        target.document_id,
        target.owner,
        target.path,
        target.version,
        [BlameLine(i + 1, t, origins[a]) for i, (t, a) in enumerate(zip(texts, attr, strict=True))],
    )


def _step(
    prev: list[int], prev_attr: list[int], cur: list[int], new: int, intern: dict[str, int]
) -> list[int]:
    """The origins of `cur`'s lines, given `prev`'s and `new` for lines `cur` introduces."""
    n, m = len(prev), len(cur)
    lim = min(n, m)
    i = 0
    while i < lim and prev[i] == cur[i]:
        i += 1
    j = 0
    while j < lim - i and prev[n - 1 - j] == cur[m - 1 - j]:
        j += 1
    mid_a, mid_b = prev[i : n - j], cur[i : m - j]
    mid = [new] * len(mid_b)
    if mid_a and mid_b:
        matched_a = [False] * len(mid_a)
        matched_b = [False] * len(mid_b)
        for a, b, size in SequenceMatcher(None, mid_a, mid_b, autojunk=False).get_matching_blocks():
            mid[b : b + size] = prev_attr[i + a : i + a + size]
            matched_a[a : a + size] = [True] * size
            matched_b[b : b + size] = [True] * size
        # A line removed in one place and inserted in another (a moved paragraph) keeps
        # its origin. Only lines with text: an empty line carries no authorship.
        removed: dict[int, list[int]] = {}
        for k, line in enumerate(mid_a):
            if not matched_a[k]:
                removed.setdefault(line, []).append(prev_attr[i + k])
        removed.pop(intern.get("", -1), None)
        if removed:
            for k, line in enumerate(mid_b):
                if not matched_b[k] and removed.get(line):
                    mid[k] = removed[line].pop(0)
    return prev_attr[:i] + mid + prev_attr[n - j :]
