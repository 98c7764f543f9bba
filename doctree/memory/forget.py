"""Forget: redact every version whose content matches a pattern, and report what it touched.

Built on the store's public API: `log` finds the documents that ever lived under a path,
`version` reads each of their versions, `redact_by_id` erases one. By id, so a deleted
document is reached even when another document has taken its path since. The fact of each
change and who redacted it stay in the history.
"""

from __future__ import annotations

import re
from contextlib import nullcontext
from dataclasses import dataclass, field

from doctree.errors import UserError
from doctree.store.documents import Actor, DocumentsRepository, Version
from doctree.store.paths import HOME, is_under, normalize_path

RECALL_PATH = "~/memory"  # forget reaches the verbatim record when `under` holds this


@dataclass
class ForgetHit:
    """One document with matching versions: what was (or, on a dry run, would be) redacted."""

    document_id: int
    path: str
    versions: list[int]
    deleted: bool
    skipped: str | None = None  # why it was not redacted (by id, nothing is skipped today)

    def to_dict(self) -> dict:
        return self.__dict__.copy()


@dataclass
class ForgetReport:
    pattern: str
    dry_run: bool
    hits: list[ForgetHit] = field(default_factory=list)
    recall_passages: int = 0  # verbatim passages of past sessions erased (or, dry, matching)

    @property
    def redacted(self) -> int:
        return sum(len(h.versions) for h in self.hits if h.skipped is None)

    def to_dict(self) -> dict:
        return {
            "pattern": self.pattern,
            "dry_run": self.dry_run,
            "redacted_versions": 0 if self.dry_run else self.redacted,
            "documents": [h.to_dict() for h in self.hits],
            "recall_passages": self.recall_passages,
        }


def compile_pattern(pattern: str, *, regex: bool = False, ignore_case: bool = False) -> re.Pattern:
    """A pattern to match version content: plain text unless `regex`."""
    if not pattern:
        raise UserError("pattern '': must not be empty (it would match every version)")
    flags = re.IGNORECASE if ignore_case else 0
    try:
        return re.compile(pattern if regex else re.escape(pattern), flags)
    except re.error as e:
        raise UserError(f"pattern {pattern!r}: not a valid regular expression ({e})") from None


def matching_versions(
    repo: DocumentsRepository, owner: str, pattern: re.Pattern, *, under: str = HOME
) -> dict[int, list[Version]]:
    """Versions (by document id) of documents that ever lived under `under` whose body or
    title matches `pattern`. Read-only."""
    under = normalize_path(under)
    doc_ids = dict.fromkeys(v.document_id for v in repo.log(owner, under, limit=None))
    found: dict[int, list[Version]] = {}
    for doc_id in doc_ids:
        last = repo.read_by_id(doc_id).version
        for n in range(1, last + 1):
            v = repo.version(doc_id, n)
            if v.body is None:
                continue  # already redacted
            if pattern.search(v.body) or pattern.search(v.title or ""):
                found.setdefault(doc_id, []).append(v)
    return found


def forget(
    repo: DocumentsRepository,
    owner: str,
    pattern: str,
    *,
    under: str = HOME,
    regex: bool = False,
    ignore_case: bool = False,
    dry_run: bool = False,
    actor: Actor | None = None,
) -> ForgetReport:
    """Redact every version under `under` whose content matches `pattern`; one transaction.

    The current version is redacted first, so the `redacted` versions that follow carry an
    empty body rather than a copy of the text being forgotten. When `under` holds
    `~/memory`, the verbatim passages of past sessions that match are erased too, in the
    same transaction (`doctree.memory.recall`).
    """
    compiled = compile_pattern(pattern, regex=regex, ignore_case=ignore_case)
    report = ForgetReport(pattern, dry_run)
    found = matching_versions(repo, owner, compiled, under=under)
    with nullcontext() if dry_run else repo.transaction():
        for doc_id, versions in found.items():
            doc = repo.read_by_id(doc_id)
            hit = ForgetHit(doc_id, doc.path, [v.version for v in versions], doc.deleted)
            report.hits.append(hit)
            if dry_run:
                continue
            order = sorted(hit.versions, key=lambda n: (n != doc.version, n))
            for n in order:
                repo.redact_by_id(doc_id, n, actor=actor)
        if is_under(RECALL_PATH, normalize_path(under)):  # the record belongs to ~/memory
            report.recall_passages = forget_recalled(repo, owner, compiled, dry_run=dry_run)
    return report


def forget_recalled(
    repo: DocumentsRepository, owner: str, pattern: re.Pattern, *, dry_run: bool = False
) -> int:
    """The recall layer's part of `forget`: erase the verbatim passages of past sessions that
    match (in the caller's transaction); on a dry run, count them."""
    from doctree.memory.recall import erase, matching

    if dry_run:
        return matching(repo.conn, owner, pattern.search)
    return erase(repo.conn, owner, pattern.search)
