"""Reverting a run: put back every document a memory agent run changed, unless someone wrote
after it.

Every version carries the run that made it, so a run's changes can be undone exactly: a
document the run changed goes back to the version before the run's first version of it, a
document it created is deleted, one it deleted is restored, one it moved is moved back.
Each of those is a new version by the reverting actor (history stays append-only). A
document someone else changed after (or during) the run is left alone and reported as
kept: a revert never overwrites later work. Reverting twice changes nothing the second
time: a document already as it was before the run is reported as unchanged.

Built on the store's public API only (`log`, `read_by_id`, `version`, `get`, `history`,
`restore`, `move`, `delete`, `transaction`). The runtime reverts a failed run before the
worker retries its transcript, so the retry starts from the state before the run.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from doctree.errors import DoctreeError, UserError
from doctree.store.documents import Actor, Document, DocumentsRepository, Version
from doctree.store.paths import depth_of
from doctree.store.runs import Runs

MAX_PASSES = 8  # each pass may free a path or a parent another document waits on


@dataclass
class RevertItem:
    """One document the run changed, and what the revert did (or would do) about it."""

    document_id: int
    path: str  # where the document is now (after the revert)
    before_path: str | None  # where it was before the run; None if the run created it
    actions: list[str] = field(default_factory=list)  # deleted, undeleted, moved, restored
    reason: str = ""
    versions: list[int] = field(default_factory=list)  # versions the revert wrote

    def to_dict(self) -> dict[str, Any]:
        return self.__dict__.copy()


@dataclass
class RevertReport:
    """What reverting a run put back, kept (and why) and found already as before."""

    run_id: int
    owner: str
    dry_run: bool = False
    reverted: list[RevertItem] = field(default_factory=list)
    kept: list[RevertItem] = field(default_factory=list)
    unchanged: list[RevertItem] = field(default_factory=list)
    already_reverted_at: str | None = None

    @property
    def changed(self) -> bool:
        """Whether the revert wrote (or, in a dry run, would write) anything."""
        return bool(self.reverted)

    def to_dict(self) -> dict[str, Any]:
        return {
            "run_id": self.run_id,
            "owner": self.owner,
            "dry_run": self.dry_run,
            "already_reverted_at": self.already_reverted_at,
            "reverted": [i.to_dict() for i in self.reverted],
            "kept": [i.to_dict() for i in self.kept],
            "unchanged": [i.to_dict() for i in self.unchanged],
        }


@dataclass
class _Plan:
    """A document to put back: its state before the run (None: it did not exist)."""

    item: RevertItem
    owner: str
    before: Version | None


class _Blocked(DoctreeError):
    """A document cannot be put back yet (its path is taken, it has children)."""


def revert_actor(run_id: int) -> Actor:
    """The actor of the runtime's automatic revert of a failed run."""
    return Actor("system", f"revert-run-{run_id}")


def revert_run(
    repo: DocumentsRepository,
    run_id: int,
    *,
    actor: Actor,
    dry_run: bool = False,
    force: bool = False,
) -> RevertReport:
    """Put back every document run `run_id` changed, unless someone changed it afterwards.

    A run still `running` is refused unless `force` (its process died and left it so).
    `dry_run` reports what would be done and writes nothing. The revert is one
    transaction; it records on the run that it was reverted (the first time only).
    """
    runs = Runs(repo.conn)
    run = runs.get(run_id)
    if run.status == "running" and not force:
        raise UserError(
            f"run {run_id} is still running: revert it when it has ended "
            "(force it only if its process died)"
        )
    report = RevertReport(run_id, run.owner, dry_run=dry_run, already_reverted_at=run.reverted_at)
    if dry_run:
        for plan in _plan(repo, run_id, report):
            plan.item.actions = _predicted_actions(repo.read_by_id(plan.item.document_id), plan)
            plan.item.reason = (
                _reason(plan.item.actions, plan.before) if plan.before else "created by the run"
            )
            report.reverted.append(plan.item)
        return report
    with repo.transaction():
        pending = _plan(repo, run_id, report)
        for _ in range(MAX_PASSES):
            if not pending:
                break
            still = []
            for plan in _ordered(repo, pending):
                try:
                    _put_back(repo, plan, actor)
                except (_Blocked, UserError) as e:
                    plan.item.reason = str(e)
                    still.append(plan)
                    continue
                report.reverted.append(plan.item)
            if len(still) == len(pending):
                break
            pending = still
        for plan in pending:
            plan.item.path = repo.read_by_id(plan.item.document_id).path
            report.kept.append(plan.item)
        runs.mark_reverted(run_id, str(actor))
    report.reverted.sort(key=lambda i: i.document_id)
    return report


# -- planning ------------------------------------------------------------------------------


def _plan(repo: DocumentsRepository, run_id: int, report: RevertReport) -> list[_Plan]:
    """Sort the run's documents into unchanged, kept (written since) and to put back."""
    by_doc: dict[int, list[Version]] = {}
    for v in reversed(repo.log(None, run_id=run_id, limit=None)):
        by_doc.setdefault(v.document_id, []).append(v)
    plans = []
    for doc_id, versions in by_doc.items():
        first = versions[0]
        cur = repo.read_by_id(doc_id)
        before = repo.version(doc_id, first.version - 1) if first.version > 1 else None
        if before is not None and before.deleted:
            before = None  # it did not exist before the run either
        item = RevertItem(doc_id, cur.path, before.path if before else None)
        if _matches(cur, before):
            item.reason = "already as it was before the run"
            report.unchanged.append(item)
            continue
        later = [
            v
            for k in range(first.version, cur.version + 1)
            if (v := repo.version(doc_id, k)).run_id != run_id
        ]
        if later:
            v = later[-1]
            item.reason = (
                f"changed since by {v.actor} (version {v.version}, {v.operation}); "
                "later work is never overwritten"
            )
            report.kept.append(item)
            continue
        if before is not None and before.body is None:
            item.reason = f"version {before.version} (before the run) was redacted"
            report.kept.append(item)
            continue
        plans.append(_Plan(item, first.owner, before))
    return plans


def _matches(cur: Document, before: Version | None) -> bool:
    """Whether the document is as it was before the run."""
    if before is None:
        return cur.deleted
    return (
        not cur.deleted
        and cur.path == before.path
        and cur.content_sha256 == before.content_sha256
        and cur.title == before.title
        and cur.links == before.links
    )


def _predicted_actions(cur: Document, plan: _Plan) -> list[str]:
    before = plan.before
    if before is None:
        return ["deleted"]
    actions = []
    if cur.deleted:
        actions.append("undeleted")
    if cur.path != before.path:
        actions.append("moved")
    if not cur.deleted and (cur.content_sha256, cur.title, cur.links) != (
        before.content_sha256,
        before.title,
        before.links,
    ):
        actions.append("restored")
    return actions


def _ordered(repo: DocumentsRepository, plans: list[_Plan]) -> list[_Plan]:
    """Documents to restore or move back first, parents before children; then the ones to
    delete, children before parents."""
    back = [p for p in plans if p.before is not None]
    gone = [p for p in plans if p.before is None]
    back.sort(key=lambda p: (depth_of(p.before.path), p.before.path))
    paths = {p.item.document_id: repo.read_by_id(p.item.document_id).path for p in gone}
    gone.sort(key=lambda p: (-depth_of(paths[p.item.document_id]), paths[p.item.document_id]))
    return back + gone


# -- putting back --------------------------------------------------------------------------


def _record(plan: _Plan, action: str, docs: Document | list[Document]) -> None:
    plan.item.actions.append(action)
    for d in docs if isinstance(docs, list) else [docs]:
        if d.id == plan.item.document_id:
            plan.item.versions.append(d.version)


def _put_back(repo: DocumentsRepository, plan: _Plan, actor: Actor) -> None:
    """Bring one document to its state before the run, or raise _Blocked / UserError."""
    doc_id, owner, before = plan.item.document_id, plan.owner, plan.before
    cur = repo.read_by_id(doc_id)
    if before is None:
        children = repo.children(owner, cur.path)
        if children:
            raise _Blocked(
                f"cannot delete {cur.path!r}, created by the run: {len(children)} child "
                f"document(s) below it stay (e.g. {children[0].path!r})"
            )
        _record(
            plan, "deleted", repo.delete(owner, cur.path, expected_version=cur.version, actor=actor)
        )
        plan.item.path = cur.path
        plan.item.reason = "created by the run"
        return
    if cur.path != before.path:
        _require_free(repo, owner, before.path, doc_id, "its path before the run")
    if cur.deleted:
        _require_free(repo, owner, cur.path, doc_id, "the path it was deleted at")
        if repo.history(owner, cur.path)[-1].document_id != doc_id:
            raise _Blocked(
                f"cannot restore {cur.path!r}: another document was deleted there later; "
                f"restore document {doc_id} by hand"
            )
        _record(plan, "undeleted", repo.restore(owner, cur.path, before.version, actor=actor))
        cur = repo.read_by_id(doc_id)
    if cur.path != before.path:
        moved = repo.move(owner, cur.path, before.path, expected_version=cur.version, actor=actor)
        _record(plan, "moved", moved)
        cur = repo.read_by_id(doc_id)
    if not _matches(cur, before):
        _record(plan, "restored", repo.restore(owner, cur.path, before.version, actor=actor))
    if not plan.item.actions:
        plan.item.actions.append("moved")
        plan.item.reason = "moved back with its parent"
    else:
        plan.item.reason = _reason(plan.item.actions, before)
    plan.item.path = before.path


def _reason(actions: list[str], before: Version) -> str:
    if "undeleted" in actions:
        return f"deleted by the run; restored version {before.version}"
    if "moved" in actions and "restored" not in actions:
        return f"moved by the run; moved back to {before.path!r}"
    return f"changed by the run; restored version {before.version}"


def _require_free(repo: DocumentsRepository, owner: str, path: str, doc_id: int, what: str) -> None:
    other = repo.get(owner, path)
    if other is not None and other.id != doc_id:
        raise _Blocked(f"{what}, {path!r}, is taken by another document (id {other.id})")
