"""What the memory agent learned, and undoing it: the activity feed (the home page), a run's
changes as inline diffs, the preview and confirmation of a run's revert, and putting one
document back as it was before a run.

Every revert goes through a POST carrying the page's CSRF token (`Inspector.check_csrf`).
A run's revert is previewed first (`GET /runs/N/revert`, a dry run of
`doctree.memory.revert.revert_run`): what it puts back, with the diff each document gets,
and what it keeps because someone changed it after the run, named with who did.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from doctree.errors import NotFoundError, UserError
from doctree.store.documents import Provenance, Version, unified_diff
from doctree.store.paths import HOME
from doctree.web.html import badge, doc_url, esc, pager, render_diff, session_link, when
from doctree.web.inspector import Inspector
from doctree.web.views import int_param, own_run, page_number, run_id_of, side

FEED_PAGE = 10
"""Runs on one page of the activity feed."""
FOLD_LINES = 40
"""A document's diff longer than this is folded (one click opens it; no script)."""


def _csrf_field(ins: Inspector) -> str:
    return f'<input type=hidden name=csrf value="{esc(ins.csrf)}">'


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


def changes(ins: Inspector, run: Any, versions: list[Version], *, controls: bool = True) -> str:
    """One diff per document the run changed, from before its first version to its last;
    with `controls`, a button putting that one document back as it was before the run."""
    parts = []
    for doc_id, vs in _by_document(versions).items():
        last = vs[-1]
        before = _before(ins, doc_id, vs)
        a_body = (before.body or "") if before and not before.deleted else ""
        a_label = f"{before.path}@{before.version}" if before else "/dev/null"
        b_body = "" if last.deleted else (last.body or "")
        text = unified_diff(a_body, b_body, a_label, f"{last.path}@{last.version}")
        ops = ", ".join(dict.fromkeys(v.operation for v in vs))
        now = ins.repo.read_by_id(doc_id)
        link = doc_url("doc", now.path) if not now.deleted else doc_url("history", now.path)
        later = _later(ins, doc_id, run.id, last.version) if now.version > last.version else []
        note = ""
        if later:
            who = ", ".join(dict.fromkeys(later))
            note = (
                f"<p class=meta>changed since by {esc(who)} (now v{now.version}): putting it "
                "back drops those changes too</p>"
            )
        control = ""
        if controls and _restorable(before, now):
            label = (
                "Delete it (the run created it)"
                if before is None or before.deleted
                else f"Put back v{before.version} (as before this run)"
            )
            control = (
                f'<form method=post action="/runs/{run.id}/revert-document" class="inline tools">'
                f"{_csrf_field(ins)}<input type=hidden name=document value={doc_id}>"
                f"<button>{esc(label)}</button></form>"
            )
        lines = text.count("\n")
        fold = " open" if lines <= FOLD_LINES else ""
        parts.append(
            f'<div class=change><h3><a href="{link}">{esc(last.path)}</a> <span class=muted>'
            f"{esc(ops)}, v{vs[0].version}–v{last.version}</span></h3>{note}"
            f"<details{fold}><summary class=meta>the diff ({lines} lines)</summary>"
            f"{render_diff(text)}</details>{control}</div>"
        )
    return "".join(parts) or "<p class=muted>no changes</p>"


def _restorable(before: Version | None, now: Any) -> bool:
    """Whether putting the document back as before the run would change anything."""
    if before is None or before.deleted:
        return not now.deleted
    if before.body is None:
        return False  # redacted since: nothing to put back
    return now.deleted or now.content_sha256 != before.content_sha256 or now.path != before.path


def revert_control(ins: Inspector, run: Any, versions: list[Version]) -> str:
    """The run's revert: a link to its preview, or, once reverted, when and by whom."""
    if run.reverted_at:
        return (
            f"<p class=notice id=reverted>reverted {when(run.reverted_at)} by "
            f"{esc(run.reverted_by)}</p>"
        )
    if not versions or run.status == "running":
        return ""
    return (
        f'<p class=tools><a class=button id=revert href="/runs/{run.id}/revert">'
        "Revert this run…</a> <span class=meta>shows what it would change first</span></p>"
    )


# -- the feed -------------------------------------------------------------------------------


def home(ins: Inspector, request: Request) -> Response:
    """What did my agent learn? The memory-agent runs, newest first, each with its session,
    its time and what it changed, as diffs, with a revert for the run and each document."""
    from doctree.store.runs import Runs

    page = page_number(request)
    per = int_param(request, "limit", low=1) or FEED_PAGE
    every = Runs(ins.repo.conn).list(owner=ins.owner, limit=None)
    shown = every[(page - 1) * per : page * per]
    cards = []
    for r in shown:
        versions = list(reversed(ins.repo.log(r.owner, HOME, run_id=r.id, limit=None)))
        status = "reverted" if r.reverted_at else r.status
        docs = len(_by_document(versions))
        head = (
            f'<h2><a href="/runs/{r.id}">Run {r.id}</a> {badge(status)}</h2>'
            f"<p class=meta>{when(r.started_at)}"
            + (f" · session {session_link(r.session_id)}" if r.session_id else "")
            + f" · {esc(r.backend)} · {docs} document{'s' if docs != 1 else ''} changed</p>"
        )
        body = (
            revert_control(ins, r, versions) + changes(ins, r, versions)
            if versions
            else "<p class=muted>changed nothing</p>"
        )
        cards.append(f'<section class=run id="run-{r.id}">{head}{body}</section>')
    nav = pager("/", page, per, len(every), limit=per if per != FEED_PAGE else None)
    intro = (
        "<h1>What the memory agent learned</h1><p class=meta>Every memory-agent run, newest "
        "first, with the changes it made. Revert a whole run (you see what it will do first) "
        "or put one document back as it was before the run.</p>"
    )
    notice = ""
    if request.query_params.get("restored"):
        notice = f"<p class=notice id=restored>put back {esc(request.query_params['restored'])}</p>"
    body = (
        intro + notice + (nav + "".join(cards) + nav if cards else "<p class=muted>no runs yet</p>")
    )
    return ins.page("activity", body, side=side(ins))


# -- reverting a run ------------------------------------------------------------------------


def revert_preview(ins: Inspector, request: Request) -> Response:
    """What reverting the run would do, document by document, and a button to do it."""
    from doctree.memory.revert import revert_run

    r = own_run(ins, run_id_of(request))
    report = revert_run(ins.repo, r.id, actor=ins.actor, dry_run=True, force=False)
    befores = {
        doc_id: _before(ins, doc_id, vs)
        for doc_id, vs in _by_document(
            list(reversed(ins.repo.log(r.owner, HOME, run_id=r.id, limit=None)))
        ).items()
    }
    parts = []
    for item in report.reverted:
        now = ins.repo.read_by_id(item.document_id)
        before = befores.get(item.document_id)
        a = "" if now.deleted else now.body
        b = "" if before is None or before.deleted else (before.body or "")
        text = unified_diff(a, b, f"{now.path} now", f"{item.before_path or now.path} after revert")
        parts.append(
            f"<div class=change><h3>{esc(now.path)} <span class=muted>"
            f"{esc(', '.join(item.actions))}</span></h3>{render_diff(text)}</div>"
        )
    kept = [
        f'<li><a href="{doc_url("history", i.path)}">{esc(i.path)}</a> — changed since by '
        f"{esc(i.changed_since or 'someone')}: left as it is ({esc(i.reason)}). Put it back "
        "alone from the run's page if you want the run's change gone anyway.</li>"
        for i in report.kept
    ]
    unchanged = [f"<li>{esc(i.path)}</li>" for i in report.unchanged]
    if r.reverted_at:
        action = (
            f"<p class=notice id=reverted>this run was reverted {when(r.reverted_at)} by "
            f"{esc(r.reverted_by)}</p>"
        )
    elif report.reverted:
        n = len(report.reverted)
        action = (
            f'<form method=post action="/runs/{r.id}/revert">{_csrf_field(ins)}'
            f"<button class=danger id=confirm>Revert run {r.id}: put back {n} "
            f"document{'s' if n != 1 else ''}</button></form>"
        )
    else:
        action = "<p class=muted>nothing to put back</p>"
    body = (
        f'<h1>Revert run {r.id}?</h1><p class=meta><a href="/runs/{r.id}">run {r.id}</a> · '
        f"{when(r.started_at)}"
        + (f" · session {session_link(r.session_id)}" if r.session_id else "")
        + "</p>"
        f"<h2 id=will>Will put back ({len(report.reverted)})</h2>"
        + ("".join(parts) or "<p class=muted>none</p>")
        + f"<h2 id=kept>Will keep: changed by someone since ({len(kept)})</h2>"
        + (f"<ul>{''.join(kept)}</ul>" if kept else "<p class=muted>none</p>")
        + (
            f"<h2>Already as before the run ({len(unchanged)})</h2><ul>{''.join(unchanged)}</ul>"
            if unchanged
            else ""
        )
        + action
    )
    return ins.page(f"revert run {r.id}?", body)


async def revert(ins: Inspector, request: Request) -> Response:
    """Revert the run (after its preview): what was put back, kept and found unchanged."""
    from doctree.memory.revert import revert_run

    run_id = run_id_of(request)
    form = await request.form()
    ins.check_csrf(form.get("csrf"))
    own_run(ins, run_id)
    report = revert_run(ins.repo, run_id, actor=ins.actor)
    items = []
    for label, group in (
        ("put back", report.reverted),
        ("kept", report.kept),
        ("unchanged", report.unchanged),
    ):
        for item in group:
            since = f" (changed since by {esc(item.changed_since)})" if item.changed_since else ""
            items.append(
                f'<li>{label}: <a href="{doc_url("history", item.path)}">{esc(item.path)}</a> '
                f"<span class=muted>{esc('+'.join(item.actions))} {esc(item.reason)}</span>"
                f"{since}</li>"
            )
    body = (
        f"<h1>Reverted run {run_id}</h1><p class=notice id=reverted>put back "
        f"{len(report.reverted)}, kept {len(report.kept)}, unchanged {len(report.unchanged)}</p>"
        f'<ul>{"".join(items)}</ul><p><a href="/runs/{run_id}">back to run {run_id}</a> · '
        '<a href="/">activity</a></p>'
    )
    return ins.page(f"reverted run {run_id}", body)


async def revert_document(ins: Inspector, request: Request) -> Response:
    """Put one document back as it was before the run: its version before the run's first
    version of it restored (undeleted, at its path now), or, if the run created it, deleted."""

    run_id = run_id_of(request)
    form = await request.form()
    ins.check_csrf(form.get("csrf"))
    r = own_run(ins, run_id)
    raw = str(form.get("document") or "")
    try:
        doc_id = int(raw)
    except ValueError:
        raise UserError(f"document {raw!r}: documents are numbered") from None
    vs = [v for v in reversed(ins.repo.log(r.owner, HOME, run_id=r.id, limit=None))]
    vs = [v for v in vs if v.document_id == doc_id]
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


def run(ins: Inspector, request: Request) -> Response:
    r = own_run(ins, run_id_of(request))
    versions = list(reversed(ins.repo.log(r.owner, HOME, run_id=r.id, limit=None)))
    status = "reverted" if r.reverted_at else r.status
    facts = [
        ("definition", f"{esc(r.definition)} for {esc(r.owner)}"),
        ("status", f"{badge(status)} stop reason {esc(r.stop_reason or '-')}"),
        ("backend", f"{esc(r.backend)} ({esc(r.model)})"),
        ("started", when(r.started_at)),
        ("ended", when(r.ended_at)),
        ("turns", f"{r.turns}; tool calls {r.tool_calls} ({r.tool_errors} errors)"),
        (
            "tokens",
            f"input {r.input_tokens}, output {r.output_tokens}, cache read "
            f"{r.cache_read_tokens}, cache write {r.cache_write_tokens}",
        ),
        ("cost", f"${r.cost_usd:.4f}"),
    ]
    if r.session_id:
        facts.insert(1, ("session", session_link(r.session_id)))
    if r.memory_session_id:
        facts.append(("own log", session_link(r.memory_session_id)))
    if r.reverted_at:
        facts.append(("reverted", f"{when(r.reverted_at)} by {esc(r.reverted_by)}"))
    if r.error:
        facts.append(("error", f"<pre class=wrap>{esc(r.error)}</pre>"))
    facts_html = (
        "<table>" + "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in facts) + "</table>"
    )
    transcript = given(ins, r)
    body = (
        f"<h1>Run {r.id}</h1>{facts_html}<h2>What it was given</h2>{transcript}"
        f"<h2>What it changed ({len(versions)} versions)</h2>{revert_control(ins, r, versions)}"
        f"{changes(ins, r, versions)}"
    )
    return ins.page(f"run {r.id}", body)


def given(ins: Inspector, r: Any) -> str:
    if not r.session_id or r.first_history_id is None:
        return "<p class=muted>no transcript recorded for this run</p>"
    from doctree.sessions.repository import SessionsRepository
    from doctree.sessions.transcripts import format_transcript

    sessions = SessionsRepository(ins.repo.conn)
    s = sessions.get(r.session_id)
    if s is None:
        return f"<p class=muted>session {esc(r.session_id)} is gone</p>"
    records = sessions.history(s.id, after_id=r.first_history_id - 1, until_id=r.last_history_id)
    text = format_transcript(records, owner=s.agent.owner, session_id=s.id)
    return (
        f"<details><summary>the transcript: {len(records)} records of session "
        f"{esc(s.id)} (history {r.first_history_id}–{r.last_history_id})</summary>"
        f"<pre class=wrap>{esc(text)}</pre></details>"
    )
