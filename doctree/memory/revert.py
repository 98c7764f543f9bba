"""Reverting a run: put back every document a memory agent (or compaction) run changed,
never overwriting what someone wrote after it.

Every version carries the run that made it, so a run's changes can be undone exactly: a
document the run changed goes back to the version before the run's first version of it, a
document it created is deleted, one it deleted is restored, one it moved is moved back.
Each of those is a new version by the reverting actor (history stays append-only).
Reverting twice changes nothing the second time: a document already as it was before the
run is reported as unchanged.

A document someone else changed after (or during) the run is never overwritten. By default
it is left alone and reported as kept, with who changed it (`changed_since`). With `lines`,
only the run's own lines are taken out of it, a three-way undo (`undo_lines`): the lines the
run added go, the lines it changed or removed come back, and every later change stays; where
a later change touched the same lines, the document is left as it is and reported for
review, as is any document that cannot be put back (its old path taken, its earlier version
redacted). The reviews are recorded on the run (`Runs.flag_reviews`), so `doctree runs` and
`run-show` list them until a later revert puts the document back or a person keeps it.
The runtime and the worker revert failed and crashed runs this way: a crashed run's partial
writes are taken out, or flagged, never kept silently.

Built on the store's public API only (`log`, `read_by_id`, `version`, `get`, `history`,
`restore`, `move`, `delete`, `transaction`). The runtime reverts a failed run before the
worker retries its transcript, so the retry starts from the state before the run.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from doctree.errors import DoctreeError, UserError
from doctree.store.documents import Actor, Document, DocumentsRepository, Provenance, Version
from doctree.store.paths import depth_of
from doctree.store.runs import Runs

MAX_PASSES = 8  # each pass may free a path or a parent another document waits on


@dataclass
class RevertItem:
    """One document the run changed, and what the revert did (or would do) about it."""

    document_id: int
    path: str  # where the document is now (after the revert)
    before_path: str | None  # where it was before the run; None if the run created it
    # deleted, undeleted, moved, restored; lines-undone (only the run's own lines taken out)
    actions: list[str] = field(default_factory=list)
    reason: str = ""
    versions: list[int] = field(default_factory=list)  # versions the revert wrote
    changed_since: str | None = None  # who changed it after the run (latest such version)

    def to_dict(self) -> dict[str, Any]:
        return self.__dict__.copy()


@dataclass
class RevertReport:
    """What reverting a run put back, kept (and why), left for review and found already as
    before."""

    run_id: int
    owner: str
    dry_run: bool = False
    reverted: list[RevertItem] = field(default_factory=list)
    kept: list[RevertItem] = field(default_factory=list)
    review: list[RevertItem] = field(default_factory=list)
    unchanged: list[RevertItem] = field(default_factory=list)
    already_reverted_at: str | None = None

    @property
    def changed_since(self) -> list[RevertItem]:
        """Documents someone changed after the run, which a whole-document revert keeps."""
        return [i for i in self.kept if i.changed_since]

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
            "review": [i.to_dict() for i in self.review],
            "unchanged": [i.to_dict() for i in self.unchanged],
        }


@dataclass
class _Plan:
    """A document to put back: its state before the run (None: it did not exist)."""

    item: RevertItem
    owner: str
    before: Version | None


@dataclass
class _LinePlan:
    """A document to take the run's own lines out of: the body it gets (None: delete it, the
    run created it and nothing else is left), if still at `version`."""

    item: RevertItem
    owner: str
    path: str
    body: str | None
    version: int


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
    lines: bool = False,
    keep_changed: bool = False,
) -> RevertReport:
    """Put back every document run `run_id` changed, never overwriting later work.

    A document changed since the run is kept (`report.kept`, with `changed_since`); with
    `lines`, the run's own lines are taken out of it when no later change touched them, and
    it is reported for review (`report.review`, recorded on the run) when one did, as is
    every document that cannot be put back. `keep_changed` is a person's decision to keep
    what is kept: it resolves the run's open reviews.

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
        plans, line_plans = _plan(repo, run_id, report, lines=lines)
        for plan in plans:
            plan.item.actions = _predicted_actions(repo.read_by_id(plan.item.document_id), plan)
            plan.item.reason = (
                _reason(plan.item.actions, plan.before) if plan.before else "created by the run"
            )
            report.reverted.append(plan.item)
        for lp in line_plans:
            lp.item.actions = ["lines-undone" if lp.body is not None else "deleted"]
            report.reverted.append(lp.item)
        report.reverted.sort(key=lambda i: i.document_id)
        return report
    with repo.transaction():
        pending, line_plans = _plan(repo, run_id, report, lines=lines)
        for lp in line_plans:
            _undo_lines(repo, lp, actor)
            report.reverted.append(lp.item)
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
            (report.review if lines else report.kept).append(plan.item)
        settled = [i.document_id for i in (*report.reverted, *report.unchanged)]
        if keep_changed:
            settled += [i.document_id for i in report.kept]
        runs.resolve_reviews(run_id, settled, str(actor))
        runs.flag_reviews(run_id, [(i.document_id, i.reason) for i in report.review])
        runs.mark_reverted(run_id, str(actor))
    report.reverted.sort(key=lambda i: i.document_id)
    return report


# -- planning ------------------------------------------------------------------------------


def _plan(
    repo: DocumentsRepository, run_id: int, report: RevertReport, *, lines: bool = False
) -> tuple[list[_Plan], list[_LinePlan]]:
    """Sort the run's documents into unchanged, kept or for review (written since), to put
    back whole, and (with `lines`) to take the run's own lines out of."""
    by_doc: dict[int, list[Version]] = {}
    for v in reversed(repo.log(None, run_id=run_id, limit=None)):
        by_doc.setdefault(v.document_id, []).append(v)
    plans: list[_Plan] = []
    line_plans: list[_LinePlan] = []
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
            item.changed_since = f"{v.actor} (version {v.version}, {v.operation})"
            if not lines:
                item.reason = (
                    f"changed since by {item.changed_since}; later work is never overwritten "
                    "(--lines takes out only the run's own lines)"
                )
                report.kept.append(item)
                continue
            outcome = _line_plan(repo, item, first.owner, before, versions[-1], later, cur)
            if isinstance(outcome, _LinePlan):
                line_plans.append(outcome)
            elif outcome == "unchanged":
                report.unchanged.append(item)
            else:
                report.review.append(item)
            continue
        if before is not None and before.body is None:
            item.reason = f"version {before.version} (before the run) was redacted"
            (report.review if lines else report.kept).append(item)
            continue
        plans.append(_Plan(item, first.owner, before))
    return plans, line_plans


def _line_plan(
    repo: DocumentsRepository,
    item: RevertItem,
    owner: str,
    before: Version | None,
    last: Version,
    later: list[Version],
    cur: Document,
) -> _LinePlan | str:
    """How to take the run's own lines out of a document changed since: a `_LinePlan`,
    "unchanged" (they are out already), or "review" (with `item.reason` saying why)."""
    who = item.changed_since
    if any(v.version < last.version for v in later):
        item.reason = (
            f"changed by another writer while the run ran (version {later[0].version}); "
            "the run's own lines cannot be told apart"
        )
        return "review"
    if last.deleted or cur.deleted or (before is not None and last.path != before.path):
        item.reason = (
            f"the run {'deleted' if last.deleted else 'moved'} it and {who} changed it since; "
            "only a change of lines can be taken out line by line"
        )
        return "review"
    if cur.path != last.path:
        item.reason = f"moved since by {who}; put back by hand"
        return "review"
    if before is not None and before.body is None:
        item.reason = f"version {before.version} (before the run) was redacted"
        return "review"
    if last.body is None or cur.body is None:
        item.reason = "a version since the run was redacted"
        return "review"
    base = before.body if before is not None else ""
    # Taken out already (by an earlier revert): some later version is exactly the undo of
    # the one before it.
    previous = last.body
    for v in later:
        if (
            v.body is not None
            and v.body != previous
            and undo_lines(base, last.body, previous) == v.body
        ):
            item.reason = f"the run's lines were taken out at version {v.version}"
            return "unchanged"
        previous = v.body if v.body is not None else previous
    body = undo_lines(base, last.body, cur.body)
    if body is None:
        item.reason = (
            f"{who} changed the run's own lines since; left as it is for review "
            f"(compare versions {last.version} and {cur.version})"
        )
        return "review"
    if body == cur.body:
        item.reason = "none of the run's lines are left"
        return "unchanged"
    gone = before is None and not body.strip() and not repo.children(owner, cur.path)
    item.reason = f"took out the run's own lines; kept the changes since by {who}"
    return _LinePlan(item, owner, cur.path, None if gone else body, cur.version)


def _undo_lines(repo: DocumentsRepository, lp: _LinePlan, actor: Actor) -> None:
    """Write the document without the run's lines (or delete it), if still at its version."""
    if lp.body is None:
        doc = repo.delete(
            lp.owner, lp.path, expected_version=lp.version, provenance=Provenance(actor)
        )
        lp.item.actions.append("deleted")
    else:
        doc = repo.write(
            lp.owner, lp.path, lp.body, expected_version=lp.version, provenance=Provenance(actor)
        )
        lp.item.actions.append("lines-undone")
    lp.item.versions.append(doc.version)


# -- the three-way undo --------------------------------------------------------------------


def undo_lines(before: str, run: str, current: str) -> str | None:
    """`current` with the run's own line changes taken out, or None when a later change
    touched the same lines.

    A three-way merge (diff3) with the run's version as the common base: `current` is one
    side (the later work), `before` the other (the undo). Lines stable in all three are kept;
    between them, a stretch only one side changed takes that side's lines; a stretch where
    the run's lines are still there, whole and once, with later lines around them, has them
    replaced by what was there before the run. Anything else is a conflict.
    """
    o, a, b = run.splitlines(), current.splitlines(), before.splitlines()
    in_a, in_b = _matching(o, a), _matching(o, b)
    out: list[str] = []
    io = ia = ib = 0
    while True:
        k = next((k for k in range(io, len(o)) if k in in_a and k in in_b), None)
        ko, ka, kb = (len(o), len(a), len(b)) if k is None else (k, in_a[k], in_b[k])
        merged = _merge_stretch(o[io:ko], a[ia:ka], b[ib:kb])
        if merged is None:
            return None
        out += merged
        if k is None:
            break
        out.append(a[ka])
        io, ia, ib = ko + 1, ka + 1, kb + 1
    text = "\n".join(out)
    return text + "\n" if out and (current.endswith("\n") or not current) else text


def _matching(x: Sequence[str], y: Sequence[str]) -> dict[int, int]:
    """Line i of x -> line j of y, for the lines the longest matching blocks pair up."""
    blocks = difflib.SequenceMatcher(None, x, y, autojunk=False).get_matching_blocks()
    return {i + n: j + n for i, j, size in blocks for n in range(size)}


def _merge_stretch(o: list[str], a: list[str], b: list[str]) -> list[str] | None:
    if a == o:
        return b  # no later change here: the undo applies
    if b == o or a == b:
        return a  # the run changed nothing here, or the later work undid it the same way
    if o:
        at = [p for p in range(len(a) - len(o) + 1) if a[p : p + len(o)] == o]
        if len(at) == 1:  # the run's lines intact, later lines beside them
            return a[: at[0]] + b + a[at[0] + len(o) :]
    return None


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
            plan,
            "deleted",
            repo.delete(
                owner, cur.path, expected_version=cur.version, provenance=Provenance(actor)
            ),
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
        _record(
            plan,
            "undeleted",
            repo.restore(owner, cur.path, before.version, provenance=Provenance(actor)),
        )
        cur = repo.read_by_id(doc_id)
    if cur.path != before.path:
        moved = repo.move(
            owner, cur.path, before.path, expected_version=cur.version, provenance=Provenance(actor)
        )
        _record(plan, "moved", moved)
        cur = repo.read_by_id(doc_id)
    if not _matches(cur, before):
        _record(
            plan,
            "restored",
            repo.restore(owner, cur.path, before.version, provenance=Provenance(actor)),
        )
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
