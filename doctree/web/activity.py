"""What the memory agent learned, and undoing it: the activity feed (the home page), a run's
changes as inline diffs, the preview and confirmation of a run's revert, and putting one
document back as it was before a run.

Every revert goes through a POST carrying the page's CSRF token (`Inspector.check_csrf`).
A run's revert is previewed first (`GET /runs/N/revert`, a dry run of
`doctree.memory.revert.revert_run`): what it puts back, with the diff each document gets,
and what it keeps because someone changed it after the run, named with who did.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from doctree.errors import NotFoundError, UserError
from doctree.store.changes import changes_by_document
from doctree.store.documents import Provenance, Version, unified_diff
from doctree.store.paths import HOME
from doctree.web.html import doc_url, pager
from doctree.web.inspector import Inspector
from doctree.web.views import int_param, own_run, page_number, run_id_of, side

FEED_PAGE = 10
"""Runs on one page of the activity feed."""
FOLD_LINES = 40
"""A document's diff longer than this is folded (one click opens it; no script)."""


def _by_document(versions: list[Version]) -> dict[int, list[Version]]:
    """A run's versions (oldest first) grouped by document, in the order first touched."""
    by_doc: dict[int, list[Version]] = {}
    for v in versions:
        by_doc.setdefault(v.document_id, []).append(v)
    return by_doc


def _before(ins: Inspector, doc_id: int, vs: list[Version]) -> Version | None:
    """The document's version before the run's first version of it (None: the run made it)."""
    first = vs[0].version
    return ins.repo.version(doc_id, first - 1) if first > 1 else None


def _later(ins: Inspector, doc_id: int, run_id: int, last: int) -> list[str]:
    """Who wrote versions of the document after the run's last one (other than the run),
    without reading their bodies."""
    rows = ins.repo.conn.execute(
        "SELECT actor_kind, actor_id, run_id FROM document_versions"
        " WHERE document_id = ? AND version > ? ORDER BY version",
        (doc_id, last),
    ).fetchall()
    return [f"{r[0]}:{r[1]}" for r in rows if r[2] != run_id]


@dataclass(frozen=True)
class Change:
    """What a run did to one document: from before its first version to its last, who
    changed it since, and (with controls) how to put it back as before the run."""

    document_id: int
    path: str
    link: str
    operations: str
    first: int
    last: int
    diff: str
    lines: int
    folded: bool
    changed_since: str  # who wrote it after the run ('' if no one)
    now_version: int
    put_back: str | None  # the button's label; None: nothing to put back


def changes(
    ins: Inspector, run: Any, versions: list[Version], *, controls: bool = True
) -> list[Change]:
    """One change per document the run changed; with `controls`, the label of a button
    putting that one document back as it was before the run."""
    out = []
    for change in changes_by_document(ins.repo, versions):
        doc_id, vs, last, before, text = (
            change.document_id,
            change.versions,
            change.last,
            change.before,
            change.diff,
        )
        now = ins.repo.read_by_id(doc_id)
        later = _later(ins, doc_id, run.id, last.version) if now.version > last.version else []
        label = None
        if controls and _restorable(before, now):
            label = (
                "Delete it (the run created it)"
                if before is None or before.deleted
                else f"Put back v{before.version} (as before this run)"
            )
        lines = text.count("\n")
        out.append(
            Change(
                document_id=doc_id,
                path=last.path,
                link=doc_url("doc", now.path) if not now.deleted else doc_url("history", now.path),
                operations=", ".join(dict.fromkeys(v.operation for v in vs)),
                first=vs[0].version,
                last=last.version,
                diff=text,
                lines=lines,
                folded=lines > FOLD_LINES,
                changed_since=", ".join(dict.fromkeys(later)),
                now_version=now.version,
                put_back=label,
            )
        )
    return out


def _restorable(before: Version | None, now: Any) -> bool:
    """Whether putting the document back as before the run would change anything."""
    if before is None or before.deleted:
        return not now.deleted
    if before.body is None:
        return False  # redacted since: nothing to put back
    return now.deleted or now.content_sha256 != before.content_sha256 or now.path != before.path


def _run_versions(ins: Inspector, r: Any) -> list[Version]:
    """The versions the run wrote, oldest first."""
    return list(reversed(ins.repo.log(r.owner, HOME, run_id=r.id, limit=None)))


# -- the feed -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Card:
    """One run in the feed: the run, whether it wrote anything, and its changes."""

    run: Any
    status: str
    wrote: bool
    changes: list[Change]


def home(ins: Inspector, request: Request) -> Response:
    """What did my agent learn? The memory-agent runs, newest first, each with its session,
    its time and what it changed, as diffs, with a revert for the run and each document."""
    from doctree.store.runs import Runs

    page = page_number(request)
    per = int_param(request, "limit", low=1) or FEED_PAGE
    every = Runs(ins.repo.conn).list(owner=ins.owner, limit=None)
    cards = []
    for r in every[(page - 1) * per : page * per]:
        versions = _run_versions(ins, r)
        status = "reverted" if r.reverted_at else r.status
        cards.append(Card(r, status, bool(versions), changes(ins, r, versions)))
    return ins.page(
        "activity.html",
        title="activity",
        side=side(ins),
        cards=cards,
        restored=request.query_params.get("restored"),
        nav=pager("/", page, per, len(every), limit=per if per != FEED_PAGE else None),
    )


# -- reverting a run ------------------------------------------------------------------------


@dataclass(frozen=True)
class PutBack:
    """A document the revert puts back: its path now, what the revert does, the diff."""

    path: str
    actions: str
    diff: str


def revert_preview(ins: Inspector, request: Request) -> Response:
    """What reverting the run would do, document by document, and a button to do it."""
    from doctree.memory.revert import revert_run

    r = own_run(ins, run_id_of(request))
    report = revert_run(ins.repo, r.id, actor=ins.actor, dry_run=True, force=False)
    befores = {
        doc_id: _before(ins, doc_id, vs)
        for doc_id, vs in _by_document(_run_versions(ins, r)).items()
    }
    will = []
    for item in report.reverted:
        now = ins.repo.read_by_id(item.document_id)
        before = befores.get(item.document_id)
        a = "" if now.deleted else now.body
        b = "" if before is None or before.deleted else (before.body or "")
        text = unified_diff(a, b, f"{now.path} now", f"{item.before_path or now.path} after revert")
        will.append(PutBack(now.path, ", ".join(item.actions), text))
    return ins.page(
        "revert_preview.html", title=f"revert run {r.id}?", run=r, report=report, will=will
    )


def revert(ins: Inspector, request: Request, form: FormData) -> Response:
    """Revert the run (after its preview): what was put back, kept and found unchanged."""
    from doctree.memory.revert import revert_run

    run_id = run_id_of(request)
    ins.check_csrf(form.get("csrf"))
    own_run(ins, run_id)
    report = revert_run(ins.repo, run_id, actor=ins.actor)
    items = [
        (label, item)
        for label, group in (
            ("put back", report.reverted),
            ("kept", report.kept),
            ("unchanged", report.unchanged),
        )
        for item in group
    ]
    return ins.page(
        "reverted.html", title=f"reverted run {run_id}", run_id=run_id, report=report, items=items
    )


def revert_document(ins: Inspector, request: Request, form: FormData) -> Response:
    """Put one document back as it was before the run: its version before the run's first
    version of it restored (undeleted, at its path now), or, if the run created it, deleted."""
    run_id = run_id_of(request)
    ins.check_csrf(form.get("csrf"))
    r = own_run(ins, run_id)
    raw = str(form.get("document") or "")
    try:
        doc_id = int(raw)
    except ValueError:
        raise UserError(f"document {raw!r}: documents are numbered") from None
    vs = [v for v in _run_versions(ins, r) if v.document_id == doc_id]
    if not vs:
        raise NotFoundError(f"document {doc_id}: run {run_id} did not change it")
    before = _before(ins, doc_id, vs)
    now = ins.repo.read_by_id(doc_id)
    if not _restorable(before, now):
        raise UserError(f"{now.path}: already as it was before run {run_id}")
    if before is None or before.deleted:
        ins.repo.delete(
            ins.owner, now.path, provenance=Provenance(ins.actor), expected_version=now.version
        )
        return RedirectResponse(doc_url("history", now.path), status_code=303)
    doc = ins.repo.restore(ins.owner, now.path, before.version, provenance=Provenance(ins.actor))
    return RedirectResponse(doc_url("doc", doc.path, restored=1), status_code=303)


# -- one run --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Given:
    """The transcript a run was given: its session's records the run read, as text."""

    session_id: str
    records: int
    first: int
    last: int | None
    text: str


def run(ins: Inspector, request: Request) -> Response:
    r = own_run(ins, run_id_of(request))
    versions = _run_versions(ins, r)
    return ins.page(
        "run.html",
        title=f"run {r.id}",
        run=r,
        run_status="reverted" if r.reverted_at else r.status,
        versions=versions,
        changes=changes(ins, r, versions),
        given=given(ins, r),
    )


def given(ins: Inspector, r: Any) -> Given | str | None:
    """The run's transcript; None: none recorded; the session's id: it is gone."""
    if not r.session_id or r.first_history_id is None:
        return None
    from doctree.sessions.repository import SessionsRepository
    from doctree.sessions.transcripts import format_transcript

    sessions = SessionsRepository(ins.repo.conn)
    s = sessions.get(r.session_id)
    if s is None:
        return str(r.session_id)
    records = sessions.history(s.id, after_id=r.first_history_id - 1, until_id=r.last_history_id)
    text = format_transcript(records, owner=s.agent.owner, session_id=s.id)
    return Given(s.id, len(records), r.first_history_id, r.last_history_id, text)
