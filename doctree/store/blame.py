"""Blame: for each line of a document's body, the version that introduced it.

Built on the repository's public reads (`history`), so it follows a document by id across
moves and reads bodies however they are stored. The versions are replayed oldest first,
carrying each line's origin along:

- a version whose body equals the previous one (a move, a deletion, a title change) changes
  nothing;
- a `restored` version takes the blame of the earlier version whose body it restores, so a
  restored line keeps the version, actor and run that first wrote it;
- otherwise the body is compared with the previous one: the common head and tail are
  found on the text itself and skipped, the changed middle is matched line by line
  (difflib, over lines interned as integers), and a line deleted in one place and
  inserted in another in the same version (a moved paragraph) keeps its origin.

A redacted version has no body: its lines cannot be told apart, so lines that survive it are
blamed on the first later version that shows them. Cost: one read of the history plus work
proportional to the changed lines of each version (a page of 1,000 versions blames in
about 40 ms; see bench/web.py).
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
    by_sha: dict[str, tuple[str, list[int]]] = {}
    body = ""
    attr: list[int] = []  # per line of `body`: index into `origins`
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
            body, attr = restored
        else:
            origins.append(Origin.of(v))
            attr = _step(body, attr, v.body, len(origins) - 1, intern)
            body = v.body
        sha = v.content_sha256
        by_sha.setdefault(sha, (body, attr))
    texts = split_lines(target.body)
    return Blame(
        target.document_id,
        target.owner,
        target.path,
        target.version,
        [BlameLine(i + 1, t, origins[a]) for i, (t, a) in enumerate(zip(texts, attr, strict=True))],
    )


def split_lines(body: str) -> list[str]:
    """The lines of a body, split at '\\n' only; a final newline ends the last line."""
    if not body:
        return []
    lines = body.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def _common_prefix(a: str, b: str, limit: int) -> int:
    """Length of the common prefix of a and b (at most `limit`), by binary search on slices."""
    lo, hi = 0, limit
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[:mid] == b[:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _common_suffix(a: str, b: str, limit: int) -> int:
    lo, hi = 0, limit
    la, lb = len(a), len(b)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[la - mid :] == b[lb - mid :]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _step(prev: str, prev_attr: list[int], cur: str, new: int, intern: dict[str, int]) -> list[int]:
    """The origins of `cur`'s lines, given `prev`'s and `new` for lines `cur` introduces.

    The common head and tail are found on the text itself (in C, by slice comparisons), cut
    back to whole lines; only the lines between are split, interned and matched.
    """
    lp, lc = len(prev), len(cur)
    p = _common_prefix(prev, cur, min(lp, lc))
    cut = cur.rfind("\n", 0, p) + 1  # the lines before `cut` are whole and the same in both
    s = _common_suffix(prev, cur, min(lp, lc) - cut)
    ec = lc - s
    ep = lp - s
    if not ((ec == cut or cur[ec - 1] == "\n") and (ep == cut or prev[ep - 1] == "\n")):
        nl = cur.find("\n", ec)  # inside the common tail: the next line start is in both
        ec = lc if nl < 0 else nl + 1
        ep = lp - (lc - ec)
    i = prev.count("\n", 0, cut)
    mid_a = [intern.setdefault(t, len(intern)) for t in split_lines(prev[cut:ep])]
    mid_b = [intern.setdefault(t, len(intern)) for t in split_lines(cur[cut:ec])]
    tail = prev_attr[i + len(mid_a) :]
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
    return prev_attr[:i] + mid + tail
