"""Forget: erase every copy of a text from an agent's memory, its history and its sessions.

In one write transaction, so nothing written meanwhile escapes it: every version (of a
document that ever lived under a path) whose body holds the pattern is redacted, the
current one first so that the `redacted` versions that record it carry no copy; path
segments and titles that hold it are rewritten in place, in every version, and so are the
declared links and references that name such a path; the sessions of the agent (its own
conversations and its memory agent's) and the errors of its runs have it replaced by a
note, and the passages of the recall record that hold it are erased. Then the indexes built from them are cleaned (the search index merged, the passage
index dropped for the documents touched), and the database file is rewritten (VACUUM) so
that no freed page keeps a copy. The fact of each change and who redacted it stay in the history.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass, field

from doctree.errors import NotFoundError, UserError
from doctree.store.documents import Actor, DocumentsRepository, Version
from doctree.store.paths import HOME, depth_of, is_under, normalize_path, validate_owner

REDACTED = "[redacted]"  # what a forgotten text is replaced by in titles and session history


@dataclass
class ForgetHit:
    """One document holding the pattern: the versions whose body was (or, on a dry run,
    would be) redacted, and whether its path or title held it (rewritten in place)."""

    document_id: int
    path: str
    versions: list[int]
    deleted: bool
    renamed: bool = False  # a path segment or title held the pattern
    skipped: str | None = None  # why it was not redacted (by id, nothing is skipped today)

    def to_dict(self) -> dict:
        return self.__dict__.copy()


@dataclass
class ForgetReport:
    pattern: str
    dry_run: bool
    hits: list[ForgetHit] = field(default_factory=list)
    history_records: int = 0  # session history records rewritten
    last_version_id: int = 0  # every version with an id up to this one was searched
    file_compacted: bool = False  # the database file was rewritten without freed pages
    note: str | None = None
    recall_passages: int = 0  # verbatim passages of past sessions erased (dry: matching)

    @property
    def redacted(self) -> int:
        return sum(len(h.versions) for h in self.hits if h.skipped is None)

    def to_dict(self) -> dict:
        return {
            "pattern": self.pattern,
            "dry_run": self.dry_run,
            "redacted_versions": 0 if self.dry_run else self.redacted,
            "renamed_documents": sum(1 for h in self.hits if h.renamed),
            "history_records": self.history_records,
            "last_version_id": self.last_version_id,
            "file_compacted": self.file_compacted,
            "note": self.note,
            "documents": [h.to_dict() for h in self.hits],
            "recall_passages": self.recall_passages,
        }


def compile_pattern(pattern: str, *, regex: bool = False, ignore_case: bool = False) -> re.Pattern:
    """A pattern to match version content: plain text unless `regex`."""
    if not isinstance(pattern, str) or not pattern:
        raise UserError("pattern '': must not be empty (it would match every version)")
    flags = re.IGNORECASE if ignore_case else 0
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # FutureWarning on syntax that may change meaning
            compiled = re.compile(pattern if regex else re.escape(pattern), flags)
    except (re.error, RecursionError, OverflowError) as e:
        raise UserError(f"pattern {pattern!r}: not a valid regular expression ({e})") from None
    if compiled.fullmatch(""):
        raise UserError(f"pattern {pattern!r}: matches the empty text (it would match everywhere)")
    return compiled


def _texts(v: Version) -> tuple[str, ...]:
    """The name-like texts of a version: its path, title and declared links."""
    return (v.path, v.title or "", *v.links)


def matching_versions(
    repo: DocumentsRepository, owner: str, pattern: re.Pattern, *, under: str = HOME
) -> dict[int, list[Version]]:
    """Versions (by document id) of documents that ever lived under `under` whose body
    matches `pattern`. Read-only."""
    bodies, _ = _scan(repo, owner, pattern, normalize_path(under))
    return bodies


def _scan(
    repo: DocumentsRepository, owner: str, pattern: re.Pattern, under: str
) -> tuple[dict[int, list[Version]], dict[int, list[Version]]]:
    """(versions whose body matches, every version of documents whose path, title or links
    ever matched), by document id, for the documents that ever lived under `under`."""
    doc_ids = dict.fromkeys(v.document_id for v in repo.log(owner, under, limit=None))
    bodies: dict[int, list[Version]] = {}
    names: dict[int, list[Version]] = {}
    for doc_id in doc_ids:
        doc = repo.read_by_id(doc_id)
        versions = [repo.version(doc_id, n) for n in range(1, doc.version + 1)]
        for v in versions:
            if v.body is not None and pattern.search(v.body):
                bodies.setdefault(doc_id, []).append(v)
        if any(pattern.search(t) for v in versions for t in _texts(v)) or any(
            pattern.search(t) for t in (doc.path, doc.title, *doc.links)
        ):
            names[doc_id] = versions
    return bodies, names


class _PathMap:
    """A path with every segment that holds the pattern renamed `redacted-<id>`, after the
    document at that segment, so that a document and its descendants stay one subtree.
    Segments of `under` itself are kept (the tree above it is out of reach)."""

    def __init__(self, repo: DocumentsRepository, owner: str, pattern: re.Pattern, under: str):
        self.repo, self.owner, self.pattern = repo, owner, pattern
        self.under, self.keep = under, depth_of(under)
        self.names: dict[str, str] = {}

    def __call__(self, path: str) -> str:
        if not self.pattern.search(path):
            return path
        segments = path.split("/")
        marked: set[int] = set()
        bounds, pos = [], 0
        for seg in segments:
            bounds.append((pos, pos + len(seg)))
            pos += len(seg) + 1
        for m in self.pattern.finditer(path):
            end = max(m.end(), m.start() + 1)
            marked |= {i for i, (a, b) in enumerate(bounds) if a < end and m.start() < b}
        keep = self.keep if is_under(path, self.under) else 0
        out = [
            self._name("/".join(segments[: i + 1])) if i in marked and i > keep else seg
            for i, seg in enumerate(segments)
        ]
        return "/".join(out)

    def _name(self, prefix: str) -> str:
        if prefix not in self.names:
            try:
                doc_id = self.repo.history(self.owner, prefix)[0].document_id
                self.names[prefix] = f"redacted-{doc_id}"
            except (NotFoundError, UserError):
                self.names[prefix] = "redacted"
        return self.names[prefix]


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
    compact_file: bool = True,
) -> ForgetReport:
    """Erase `pattern` from the documents that ever lived under `under` and from the agent's
    sessions (their history and the recall record), in one transaction (see the module docstring); `compact_file` then rewrites
    the database file so no freed page holds a copy (skipped inside a caller's transaction).
    """
    owner, under = validate_owner(owner), normalize_path(under)
    compiled = compile_pattern(pattern, regex=regex, ignore_case=ignore_case)
    report = ForgetReport(pattern, dry_run)
    with repo.snapshot() if dry_run else repo.transaction():
        report.last_version_id = repo.max_version_id()
        bodies, names = _scan(repo, owner, compiled, under)
        if not dry_run:
            _erase(repo, owner, compiled, under, bodies, names, report, actor)
        else:
            report.recall_passages = forget_recalled(repo, owner, compiled, dry_run=True)
        for doc_id in sorted({*bodies, *names}):
            doc = repo.read_by_id(doc_id)
            versions = [v.version for v in bodies.get(doc_id, [])]
            report.hits.append(
                ForgetHit(doc_id, doc.path, versions, doc.deleted, renamed=doc_id in names)
            )
    if not dry_run and compact_file:
        if repo.conn.in_transaction:
            report.note = "the database file was not compacted: a transaction is open"
        else:
            from doctree.store.db import compact_file as compact

            report.file_compacted, report.note = compact(repo.conn)
    return report


def _erase(
    repo: DocumentsRepository,
    owner: str,
    pattern: re.Pattern,
    under: str,
    bodies: dict[int, list[Version]],
    names: dict[int, list[Version]],
    report: ForgetReport,
    actor: Actor | None,
) -> None:
    """The writes of `forget`, inside its transaction."""
    from doctree.sessions.repository import SessionsRepository
    from doctree.store.passages import PassageIndex
    from doctree.store.runs import Runs

    for doc_id, versions in bodies.items():
        current = repo.read_by_id(doc_id).version
        for n in sorted((v.version for v in versions), key=lambda n: (n != current, n)):
            if repo.version(doc_id, n).body is not None:  # not erased with an earlier one
                repo.redact_by_id(doc_id, n, actor=actor)
    path_map = _PathMap(repo, owner, pattern, under)
    # Name every segment before any document is renamed: the names come from the ids of
    # the documents at the old paths.
    for doc_id, versions in names.items():
        doc = repo.read_by_id(doc_id)
        for text in {doc.path, *doc.links, *(p for v in versions for p in (v.path, *v.links))}:
            path_map(text)

    def text_map(text: str) -> str:
        return pattern.sub(REDACTED, text)

    def current_map(path: str) -> str:
        """A current path is renamed only below `under`, where the documents above it are
        renamed alike; elsewhere its parent, out of reach, keeps its name."""
        return path_map(path) if is_under(path, under) else path

    for doc_id in names:
        repo.scrub_paths(doc_id, path_map, text_map, current_map)
    linked = repo.scrub_links(owner, path_map)
    report.history_records = SessionsRepository(repo.conn).scrub(owner, text_map)
    report.recall_passages = forget_recalled(repo, owner, pattern)
    Runs(repo.conn).scrub(owner, text_map)
    passages = PassageIndex(repo)
    passages.drop(sorted({*bodies, *names, *linked}))
    passages.optimize()
    repo.optimize_search_index()


def forget_recalled(
    repo: DocumentsRepository, owner: str, pattern: re.Pattern, *, dry_run: bool = False
) -> int:
    """The recall record's part of `forget` (`doctree.memory.recall`): erase the verbatim
    passages of past sessions that match, in the caller's transaction; on a dry run, count
    them."""
    from doctree.memory.recall import erase, matching

    if dry_run:
        return matching(repo.conn, owner, pattern.search)
    return erase(repo.conn, owner, pattern.search)
