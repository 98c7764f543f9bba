"""What a set of versions did to each document: the diff from before the first of them to
the last, document by document (the changes of a memory-agent run, shown by `doctree diff
--run N` and by the inspector's run pages).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from doctree.store.model import Version
from doctree.store.reads import unified_diff


class VersionReader(Protocol):
    def version(self, document_id: int, version: int) -> Version: ...


@dataclass(frozen=True)
class DocumentChange:
    """One document's part of a set of versions: those versions (oldest first), the version
    before the first of them (None: they created the document) and the unified diff from
    that version to the last (a deleted version counts as empty)."""

    document_id: int
    before: Version | None
    versions: list[Version]
    diff: str

    @property
    def last(self) -> Version:
        return self.versions[-1]

    @property
    def path(self) -> str:
        return self.last.path

    @property
    def from_version(self) -> int:
        """The version the diff starts from (0: the document did not exist)."""
        return self.versions[0].version - 1

    @property
    def to_version(self) -> int:
        return self.last.version


def changes_by_document(repo: VersionReader, versions: Iterable[Version]) -> list[DocumentChange]:
    """`versions` grouped by document, in the order each document first appears, each with
    its diff from before its first version to its last."""
    by_doc: dict[int, list[Version]] = {}
    for v in versions:
        by_doc.setdefault(v.document_id, []).append(v)
    out = []
    for doc_id, vs in by_doc.items():
        vs.sort(key=lambda v: v.version)
        first, last = vs[0], vs[-1]
        before = repo.version(doc_id, first.version - 1) if first.version > 1 else None
        a_body = (before.body or "") if before and not before.deleted else ""
        a_label = f"{before.path}@{before.version}" if before else "/dev/null"
        b_body = "" if last.deleted else (last.body or "")
        diff = unified_diff(a_body, b_body, a_label, f"{last.path}@{last.version}")
        out.append(DocumentChange(doc_id, before, vs, diff))
    return out
