"""The inspector's pages: each takes the `Inspector` and the request, reads the store through
the library and returns HTML. Errors are doctree errors; the app turns them into pages."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from doctree.errors import NotFoundError, UserError
from doctree.store.documents import Version, parse_time, unified_diff
from doctree.store.paths import HOME, normalize_path
from doctree.web.html import (
    badge,
    doc_url,
    esc,
    human_size,
    render_diff,
    render_markdown,
    table,
    url,
)
from doctree.web.inspector import Inspector


def _int(request: Request, name: str, *, low: int = 0) -> int | None:
    value = request.query_params.get(name)
    if value is None or value == "":
        return None
    try:
        n = int(value)
    except ValueError:
        raise UserError(f"{name} {value!r}: must be a whole number") from None
    if n < low:
        raise UserError(f"{name} {value!r}: must be at least {low}")
    return n


def _path(request: Request) -> str:
    return normalize_path(request.path_params.get("path") or HOME)


def _time(request: Request, name: str = "at") -> str | None:
    value = (request.query_params.get(name) or "").strip()
    return parse_time(value) if value else None


def _doc_tabs(path: str, current: str) -> str:
    tabs = []
    for kind, label in (("doc", "Page"), ("history", "History"), ("blame", "Blame")):
        if kind == current:
            tabs.append(f"<strong>{label}</strong>")
        else:
            tabs.append(f'<a href="{doc_url(kind, path)}">{label}</a>')
    return f'<p class=meta>{" · ".join(tabs)} · <a href="{doc_url("tree", path)}">Subtree</a></p>'


def _actor(v: Version) -> str:
    extra = ""
    if v.run_id is not None:
        extra += f' · <a href="/runs/{v.run_id}">run {v.run_id}</a>'
    if v.session_id:
        extra += f' · <a href="/sessions/{esc(v.session_id)}">{esc(v.session_id)}</a>'
    return f"{esc(v.actor)}{extra}"


# -- tree ---------------------------------------------------------------------------------


def tree(ins: Inspector, request: Request) -> Response:
    path = _path(request)
    at = _time(request)
    depth = _int(request, "depth")
    roots = ins.repo.tree(ins.owner, path, depth=depth, at=at)
    rows: list[str] = []
    base = 0 if path == HOME else path.count("/")
    for root in roots:
        for node in root.walk():
            level = node.path.count("/") - base - (1 if path == HOME else 0)
            name = node.path.rsplit("/", 1)[-1] if level > 0 or path == HOME else node.path
            title = "" if node.title == name else node.title
            link = doc_url("doc", node.path, version=node.version if at else None)
            rows.append(
                f'<tr><td class="l{min(level, 20)}">'
                f'<a href="{link}">{esc(name)}</a></td><td>{esc(title)}</td>'
                f"<td class=n>v{node.version}</td><td class=n>{human_size(node.size)}</td>"
                f"<td class=meta>{esc(node.updated_at[:19])}</td></tr>"
            )
    when = f" as it was at {esc(at)}" if at else ""
    form = (
        f'<form method=get action="{doc_url("tree", path)}">'
        f'<label>as of <input name=at value="{esc(at or "")}" placeholder="2026-11-20T09:00:00Z">'
        "</label> <button>show</button></form>"
    )
    body = (
        f"<h1>{esc(path)}{when}</h1>{form}<p class=meta>{len(rows)} documents</p>"
        + table(["document", "title", "version", "size", "updated"], rows, numeric={2, 3})
        if rows
        else f"<h1>{esc(path)}{when}</h1>{form}<p class=muted>no documents</p>"
    )
    return ins.page(f"tree {path}", body)


# -- one document -------------------------------------------------------------------------


def document(ins: Inspector, request: Request) -> Response:
    path = _path(request)
    version = _int(request, "version", low=1)
    banner = ""
    try:
        doc = ins.repo.read(ins.owner, path, version=version)
    except NotFoundError:
        if version is not None:
            raise
        history = ins.repo.history(ins.owner, path)  # the one last deleted there, or 404
        last = history[-1]
        shown = next((v for v in reversed(history) if v.body is not None and not v.deleted), None)
        banner = (
            f"<p class=error>deleted at version {last.version} ({esc(last.created_at[:19])}, "
            f"by {esc(last.actor)})"
            + (f"; shown as of version {shown.version}" if shown else "")
            + "</p>"
        )
        doc = None if shown is None else ins.repo.read(ins.owner, path, version=shown.version)
    if doc is None:
        body = f"<h1>{esc(path)}</h1>{_doc_tabs(path, 'doc')}{banner}"
        return ins.page(path, body)
    if version is not None:
        banner += (
            f"<p class=notice>version {version} of {doc.path} — "
            f'<a href="{doc_url("doc", path)}">current</a> · '
            f'<a href="{doc_url("diff", path, to=version)}">diff with the one before</a></p>'
        )
    meta = (
        f"<p class=meta>version {doc.version} · {human_size(doc.size)} · updated "
        f"{esc(doc.updated_at[:19])} · sha256 <span class=mono>{esc(doc.content_sha256[:12])}</span></p>"
    )
    links_html = ""
    if version is None and not banner:
        out = [r for r in ins.repo.links(ins.owner, doc.path) if r.kind != "parent"]
        back = ins.repo.backlinks(ins.owner, doc.path)
        children = ins.repo.children(ins.owner, doc.path)

        def items(refs, attr):
            return "".join(
                f'<li><a href="{doc_url("doc", getattr(r, attr))}">{esc(getattr(r, attr))}</a>'
                f" <span class=muted>{esc(r.kind)}"
                f"{'' if r.state == 'resolved' or attr == 'source_path' else ', ' + esc(r.state)}"
                "</span></li>"
                for r in refs
            )

        links_html = (
            "<h2>Links</h2>"
            + (
                f"<ul class=links>{items(out, 'target_path')}</ul>"
                if out
                else "<p class=muted>none</p>"
            )
            + "<h2>Backlinks</h2>"
            + (
                f"<ul class=backlinks>{items(back, 'source_path')}</ul>"
                if back
                else "<p class=muted>none</p>"
            )
        )
        if children:
            links_html += (
                "<h2>Children</h2><ul>"
                + "".join(
                    f'<li><a href="{doc_url("doc", c.path)}">{esc(c.path.rsplit("/", 1)[-1])}</a>'
                    f" <span class=muted>{esc(c.title)}</span></li>"
                    for c in children
                )
                + "</ul>"
            )
    body = (
        f"<h1>{esc(doc.title)} <span class=muted>{esc(doc.path)}</span></h1>"
        f"{_doc_tabs(path, 'doc')}{banner}{meta}"
        f"<div class=doc id=body>{render_markdown(doc.body)}</div>{links_html}"
    )
    return ins.page(doc.title, body)


def version(ins: Inspector, request: Request) -> Response:
    """One version of a document by id: what a search of the past links to (the path may
    since belong to another document)."""
    try:
        doc_id = int(request.path_params["document_id"])
        number = int(request.path_params["version"])
    except ValueError:
        raise NotFoundError("documents and versions are numbered") from None
    v = ins.repo.version(doc_id, number)
    if v.owner != ins.owner:
        raise NotFoundError(f"no document with id {doc_id}")
    now = ins.repo.read_by_id(doc_id)
    where = (
        f'deleted since (last at <a href="{doc_url("history", now.path)}">{esc(now.path)}</a>)'
        if now.deleted
        else f'now <a href="{doc_url("doc", now.path)}">{esc(now.path)}</a> at version {now.version}'
    )
    text = (
        "<p class=error>this version was redacted; its content is gone</p>"
        if v.body is None
        else f"<div class=doc id=body>{render_markdown(v.body)}</div>"
    )
    body = (
        f"<h1>{esc(v.title or v.path)} <span class=muted>{esc(v.path)}@{v.version}</span></h1>"
        f"<p class=meta>{esc(v.operation)} {esc(v.created_at[:19])} by {_actor(v)} · {where}</p>"
        f"{text}"
    )
    return ins.page(f"{v.path}@{v.version}", body)


def history(ins: Inspector, request: Request) -> Response:
    path = _path(request)
    versions = ins.repo.history(ins.owner, path)
    rows = []
    for v in reversed(versions):
        note = f" <span class=badge>{v.erasure}</span>" if v.erasure else ""
        prev = f'<a href="{doc_url("diff", path, to=v.version)}">diff</a>' if v.version > 1 else ""
        view = (
            f'<a href="{doc_url("doc", path, version=v.version)}">v{v.version}</a>'
            if v.body is not None and not v.deleted
            else f"v{v.version}"
        )
        rows.append(
            f"<tr><td class=n>{view}</td><td>{esc(v.operation)}{note}</td>"
            f"<td>{esc(v.path)}</td><td class=n>{human_size(v.size)}</td>"
            f"<td class=meta>{esc(v.created_at[:19])}</td><td>{_actor(v)}</td><td>{prev}</td></tr>"
        )
    last = versions[-1].version
    form = (
        f'<form method=get action="{doc_url("diff", path)}">compare '
        f"<input name=from type=number min=0 max={last} value={max(last - 1, 0)} size=4> with "
        f"<input name=to type=number min=1 max={last} value={last} size=4> "
        "<button>diff</button></form>"
    )
    body = f"<h1>History of {esc(path)}</h1>{_doc_tabs(path, 'history')}{form}" + table(
        ["version", "operation", "path", "size", "time", "by", ""], rows, numeric={0, 3}
    )
    return ins.page(f"history {path}", body)


def diff(ins: Inspector, request: Request) -> Response:
    path = _path(request)
    to_v = _int(request, "to", low=1)
    from_v = _int(request, "from", low=0)
    text = ins.repo.diff(ins.owner, path, from_v, to_v)
    label_to = to_v if to_v is not None else "current"
    label_from = from_v if from_v is not None else "previous"
    body = (
        f"<h1>Diff of {esc(path)}: {esc(label_from)} → {esc(label_to)}</h1>"
        f"{_doc_tabs(path, '')}{render_diff(text)}"
    )
    return ins.page(f"diff {path}", body)


def blame(ins: Inspector, request: Request) -> Response:
    from doctree.store.blame import blame as blame_doc

    path = _path(request)
    version = _int(request, "version", low=1)
    result = blame_doc(ins.repo, ins.owner, path, version=version)
    rows = []
    previous = None
    for line in result.lines:
        o = line.origin
        first = o.version != previous
        previous = o.version
        who = ""
        if first:
            run = f' <a href="/runs/{o.run_id}">run {o.run_id}</a>' if o.run_id is not None else ""
            who = (
                f'<a href="{doc_url("doc", path, version=o.version)}">v{o.version}</a> '
                f"{esc(o.created_at[:16])} {esc(o.actor)}{run}"
            )
        rows.append(
            f'<tr class="{"first" if first else ""}"><td class="meta">{who}</td>'
            f"<td class=n>{line.number}</td><td class=src>{esc(line.text)}</td></tr>"
        )
    body = (
        f"<h1>Blame of {esc(result.path)} at version {result.version}</h1>"
        f"{_doc_tabs(path, 'blame')}<table class=blame>{''.join(rows)}</table>"
    )
    return ins.page(f"blame {path}", body)


# -- search -------------------------------------------------------------------------------


def search(ins: Inspector, request: Request) -> Response:
    from doctree.store.timetravel import search_at, search_versions

    q = (request.query_params.get("q") or "").strip()
    under = normalize_path(request.query_params.get("under") or HOME)
    at = _time(request)
    every = request.query_params.get("all") in ("1", "on", "true")
    limit = _int(request, "limit", low=1) or 20
    form = (
        '<form method=get action="/search">'
        f'<input name=q value="{esc(q)}" placeholder="words" size=30 autofocus> '
        f'under <input name=under value="{esc(under)}" size=16> '
        f'as of <input name=at value="{esc(at or "")}" placeholder="now" size=20> '
        f"<label><input type=checkbox name=all value=1{' checked' if every else ''}> every version"
        "</label> <button>search</button></form>"
    )
    rows = []
    if q:
        if every:
            hits = search_versions(ins.repo, ins.owner, q, under=under, until=at, limit=limit)
        elif at:
            hits = search_at(ins.repo, ins.owner, q, at, under=under, limit=limit)
        else:
            hits = None
            for hit in ins.repo.search(ins.owner, q, under=under, limit=limit):
                rows.append(
                    f'<tr><td><a href="{doc_url("doc", hit.path)}">{esc(hit.path)}</a>'
                    f"<br><span class=meta>{esc(' '.join(hit.snippet.split()))}</span></td>"
                    f"<td class=n>v{hit.version}</td><td class=meta>{esc(hit.updated_at[:19])}</td>"
                    "<td></td></tr>"
                )
        for vh in hits or []:
            state = " <span class=badge>deleted</span>" if vh.deleted else ""
            if not vh.deleted and vh.current_path != vh.path:
                state = f" <span class=muted>now {esc(vh.current_path)}</span>"
            link = f"/version/{vh.document_id}/{vh.version}"
            rows.append(
                f'<tr><td><a href="{link}">{esc(vh.path)}</a>{state}'
                f"<br><span class=meta>{esc(' '.join(vh.snippet.split()))}</span></td>"
                f"<td class=n>v{vh.version}</td><td class=meta>{esc(vh.created_at[:19])}</td>"
                f"<td>{esc(vh.actor)}</td></tr>"
            )
    result = ""
    if q:
        result = (
            table(["document", "version", "time", "by"], rows, numeric={1})
            if rows
            else "<p class=muted>no matches</p>"
        )
    return ins.page("search", f"<h1>Search</h1>{form}{result}")


# -- runs ---------------------------------------------------------------------------------


def _run_id(request: Request) -> int:
    value = request.path_params["run_id"]
    try:
        return int(value)
    except ValueError:
        raise NotFoundError(f"run {value!r}: runs are numbered") from None


def runs(ins: Inspector, request: Request) -> Response:
    from doctree.store.runs import Runs

    limit = _int(request, "limit", low=1) or 100
    rows = Runs(ins.repo.conn).list(owner=ins.owner, limit=limit)
    counts = ins.repo.versions_per_run([r.id for r in rows])
    out = []
    for r in rows:
        status = "reverted" if r.reverted_at else r.status
        out.append(
            f'<tr><td class=n><a href="/runs/{r.id}">{r.id}</a></td>'
            f"<td>{esc(r.session_id or '-')}</td><td>{esc(r.backend)}</td><td>{badge(status)}</td>"
            f"<td class=n>{r.turns}</td><td class=n>{r.input_tokens + r.output_tokens}</td>"
            f"<td class=n>${r.cost_usd:.4f}</td><td class=n>{counts.get(r.id, 0)}</td>"
            f"<td class=meta>{esc(r.started_at[:19])}</td></tr>"
        )
    body = "<h1>Memory-agent runs</h1>" + (
        table(
            [
                "run",
                "session",
                "backend",
                "status",
                "turns",
                "tokens",
                "cost",
                "changes",
                "started",
            ],
            out,
            numeric={0, 4, 5, 6, 7},
        )
        if out
        else "<p class=muted>no runs yet</p>"
    )
    return ins.page("runs", body)


def run(ins: Inspector, request: Request) -> Response:
    from doctree.store.runs import Runs

    r = Runs(ins.repo.conn).get(_run_id(request))
    if r.owner != ins.owner:
        raise NotFoundError(f"run {r.id}: not a run of agent {ins.owner!r}")
    versions = list(reversed(ins.repo.log(r.owner, HOME, run_id=r.id, limit=None)))
    status = "reverted" if r.reverted_at else r.status
    facts = [
        ("definition", f"{esc(r.definition)} for {esc(r.owner)}"),
        ("status", f"{badge(status)} stop reason {esc(r.stop_reason or '-')}"),
        ("backend", f"{esc(r.backend)} ({esc(r.model)})"),
        ("started", esc(r.started_at)),
        ("ended", esc(r.ended_at or "-")),
        ("turns", f"{r.turns}; tool calls {r.tool_calls} ({r.tool_errors} errors)"),
        (
            "tokens",
            f"input {r.input_tokens}, output {r.output_tokens}, cache read "
            f"{r.cache_read_tokens}, cache write {r.cache_write_tokens}",
        ),
        ("cost", f"${r.cost_usd:.4f}"),
    ]
    if r.session_id:
        facts.insert(
            1, ("session", f'<a href="/sessions/{esc(r.session_id)}">{esc(r.session_id)}</a>')
        )
    if r.memory_session_id:
        facts.append(
            (
                "own log",
                f'<a href="/sessions/{esc(r.memory_session_id)}">{esc(r.memory_session_id)}</a>',
            )
        )
    if r.reverted_at:
        facts.append(("reverted", f"{esc(r.reverted_at)} by {esc(r.reverted_by)}"))
    if r.error:
        facts.append(("error", f"<pre>{esc(r.error)}</pre>"))
    facts_html = (
        "<table>" + "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in facts) + "</table>"
    )
    given = _given(ins, r)
    notice = ""
    if request.query_params.get("reverted"):
        notice = "<p class=notice id=reverted>the run's changes were put back; see below</p>"
    revert_form = ""
    if versions and r.status != "running":
        revert_form = (
            f'<form method=post action="/runs/{r.id}/revert" class=inline>'
            f'<input type=hidden name=csrf value="{esc(ins.csrf)}">'
            "<button class=danger id=revert>Revert this run</button></form> "
            "<span class=meta>puts back every document the run changed, unless someone "
            "changed it since (like <code>doctree revert --run</code>)</span>"
        )
    body = (
        f"<h1>Run {r.id}</h1>{notice}{facts_html}<h2>What it was given</h2>{given}"
        f"<h2>What it changed ({len(versions)} versions)</h2>{revert_form}{_changes(ins, versions)}"
    )
    return ins.page(f"run {r.id}", body)


def _given(ins: Inspector, r) -> str:
    if not r.session_id or r.first_history_id is None:
        return "<p class=muted>no transcript recorded for this run</p>"
    from doctree.sessions.repository import SessionsRepository
    from doctree.sessions.transcripts import format_transcript

    sessions = SessionsRepository(ins.repo.conn)
    s = sessions.get(r.session_id)
    if s is None:
        return f"<p class=muted>session {esc(r.session_id)} is gone</p>"
    records = sessions.history(s.id, after_id=r.first_history_id - 1, until_id=r.last_history_id)
    text = format_transcript(records, agent=s.agent.owner, session_id=s.id)
    return (
        f"<details><summary>the transcript: {len(records)} records of session "
        f"{esc(s.id)} (history {r.first_history_id}–{r.last_history_id})</summary>"
        f"<pre>{esc(text)}</pre></details>"
    )


def _changes(ins: Inspector, versions: list[Version]) -> str:
    """One diff per document: from before the run's first version to its last one."""
    by_doc: dict[int, list[Version]] = {}
    for v in versions:
        by_doc.setdefault(v.document_id, []).append(v)
    parts = []
    for doc_id, vs in by_doc.items():
        first, last = vs[0], vs[-1]
        before = ins.repo.version(doc_id, first.version - 1) if first.version > 1 else None
        a_body = (before.body or "") if before else ""
        a_label = f"{before.path}@{before.version}" if before else "/dev/null"
        text = unified_diff(a_body, last.body or "", a_label, f"{last.path}@{last.version}")
        ops = ", ".join(dict.fromkeys(v.operation for v in vs))
        now = ins.repo.read_by_id(doc_id)
        link = doc_url("doc", now.path) if not now.deleted else doc_url("history", now.path)
        parts.append(
            f'<h3><a href="{link}">{esc(last.path)}</a> <span class=muted>{esc(ops)}, '
            f"v{first.version}–v{last.version}</span></h3>{render_diff(text)}"
        )
    return "".join(parts) or "<p class=muted>no changes</p>"


async def revert(ins: Inspector, request: Request) -> Response:
    from doctree.memory.revert import revert_run
    from doctree.store.runs import Runs

    run_id = _run_id(request)
    form = await request.form()
    ins.check_csrf(form.get("csrf"))
    r = Runs(ins.repo.conn).get(run_id)
    if r.owner != ins.owner:
        raise NotFoundError(f"run {run_id}: not a run of agent {ins.owner!r}")
    report = revert_run(ins.repo, run_id, actor=ins.actor)
    items = []
    for label, group in (
        ("put back", report.reverted),
        ("kept", report.kept),
        ("unchanged", report.unchanged),
    ):
        for item in group:
            items.append(
                f'<li>{label}: <a href="{doc_url("history", item.path)}">{esc(item.path)}</a> '
                f"<span class=muted>{esc('+'.join(item.actions))} {esc(item.reason)}</span></li>"
            )
    body = (
        f"<h1>Reverted run {run_id}</h1><p class=notice id=reverted>put back "
        f"{len(report.reverted)}, kept {len(report.kept)}, unchanged {len(report.unchanged)}</p>"
        f'<ul>{"".join(items)}</ul><p><a href="/runs/{run_id}">back to run {run_id}</a></p>'
    )
    return ins.page(f"reverted run {run_id}", body)


# -- sessions -----------------------------------------------------------------------------

STATES = ("open", "pending", "failing", "processed", "exempt")


def _who(agent: Any) -> str:
    """A session's owner; a memory agent's own session as `memory-agent:<owner>`."""
    return agent.owner if agent.type == "agent" else str(agent)


def sessions(ins: Inspector, request: Request) -> Response:
    from doctree.sessions.repository import SessionsRepository

    state = request.query_params.get("state") or None
    if state is not None and state not in STATES:
        raise UserError(f"state {state!r}: must be one of {', '.join(STATES)}")
    repo = SessionsRepository(ins.repo.conn)
    limit = _int(request, "limit", low=1) or 200
    infos = [
        *repo.list_sessions(agent=ins.owner, state=state, limit=limit),
        *repo.list_sessions(agent=f"memory-agent:{ins.owner}", state=state, limit=limit),
    ]
    infos.sort(key=lambda i: i.session.created_at, reverse=True)
    infos = infos[:limit]
    counts = {"pending": 0, "failing": 0, "total": len(infos)}
    for i in infos:
        if i.state in counts:
            counts[i.state] += 1
    rows = [
        f'<tr><td><a href="/sessions/{esc(i.session.id)}">{esc(i.session.id)}</a></td>'
        f"<td>{esc(_who(i.session.agent))}</td><td>{badge(i.state)}</td><td class=n>{i.records}</td>"
        f"<td class=n>{i.unprocessed}</td><td class=n>{i.session.failures}</td>"
        f"<td class=meta>{esc((i.session.last_error or '')[:80])}</td>"
        f"<td class=meta>{esc(i.session.created_at[:19])}</td></tr>"
        for i in infos
    ]
    filters = " · ".join(
        f'<a href="{url("/sessions", state=s)}">{s}</a>' if s != state else f"<strong>{s}</strong>"
        for s in STATES
    )
    body = (
        f"<h1>Sessions of agent {esc(ins.owner)}</h1><p class=meta>{counts['pending']} pending, "
        f'{counts["failing"]} failing, {counts["total"]} shown · <a href="/sessions">all</a> · {filters}</p>'
        + (
            table(
                [
                    "session",
                    "owner",
                    "memory state",
                    "records",
                    "unprocessed",
                    "failures",
                    "last error",
                    "created",
                ],
                rows,
                numeric={3, 4, 5},
            )
            if rows
            else "<p class=muted>no sessions</p>"
        )
    )
    return ins.page("sessions", body)


def session(ins: Inspector, request: Request) -> Response:
    from doctree.sessions.repository import SessionsRepository, state_of
    from doctree.store.runs import Runs

    repo = SessionsRepository(ins.repo.conn)
    s = repo.require(request.path_params["session_id"])
    if s.agent.owner != ins.owner:
        raise NotFoundError(f"session {s.id!r}: not a session of agent {ins.owner!r}")
    state = state_of(s, repo.max_id(s.id))
    records = repo.history(s.id, limit=500)
    rows = [
        f"<tr><td class=n>{rec.id}</td><td>{esc(rec.kind)}</td><td class=meta>{esc(rec.time[:19])}</td>"
        f"<td>{esc(rec.content if isinstance(rec.content, str) else rec.content)}</td>"
        f"<td>{'handed over' if s.processed_until and rec.id <= s.processed_until else ''}</td></tr>"
        for rec in records
    ]
    run_rows = [
        f'<li><a href="/runs/{r.id}">run {r.id}</a> {badge("reverted" if r.reverted_at else r.status)}'
        f" <span class=meta>{esc(r.started_at[:19])}</span></li>"
        for r in Runs(ins.repo.conn).list(session_id=s.id, limit=None)
    ]
    facts = (
        f"<p class=meta>agent {esc(s.agent)} · memory state {badge(state)} · created "
        f"{esc(s.created_at[:19])} · processed until record {s.processed_until or '-'}"
        f"{' · failures ' + str(s.failures) if s.failures else ''}</p>"
    )
    if s.last_error:
        facts += f"<p class=error>{esc(s.last_error)}</p>"
    body = (
        f"<h1>Session {esc(s.id)}</h1>{facts}<h2>Runs</h2>"
        + (f"<ul>{''.join(run_rows)}</ul>" if run_rows else "<p class=muted>none</p>")
        + "<h2>History</h2>"
        + table(["id", "kind", "time", "content", ""], rows, numeric={0})
    )
    return ins.page(f"session {s.id}", body)
