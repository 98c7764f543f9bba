"""The inspector's pages: each takes the `Inspector` and the request, reads the store through
the library and returns HTML. Errors are doctree errors; the app turns them into pages."""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

from starlette.requests import Request
from starlette.responses import Response

from doctree.errors import NotFoundError, UserError
from doctree.store.documents import Document, Version, parse_time
from doctree.store.paths import HOME, normalize_path
from doctree.web.html import (
    badge,
    doc_url,
    esc,
    human_size,
    pager,
    pretty,
    render_diff,
    render_markdown,
    session_link,
    session_url,
    snippet,
    table,
    url,
    when,
)
from doctree.web.inspector import Inspector


def int_param(request: Request, name: str, *, low: int = 0) -> int | None:
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


def page_number(request: Request) -> int:
    return int_param(request, "page", low=1) or 1


def _doc_tabs(path: str, current: str, *, live: bool = True) -> str:
    """Page · History · Blame · Subtree (a deleted document has no subtree to show)."""
    tabs = []
    for kind, label in (("doc", "Page"), ("history", "History"), ("blame", "Blame")):
        if kind == current:
            tabs.append(f"<strong>{label}</strong>")
        else:
            tabs.append(f'<a href="{doc_url(kind, path)}">{label}</a>')
    if live:
        tabs.append(f'<a href="{doc_url("tree", path)}">Subtree</a>')
    return f"<p class=meta>{' · '.join(tabs)}</p>"


def _actor(v: Version) -> str:
    extra = ""
    if v.run_id is not None:
        extra += f' · <a href="/runs/{v.run_id}">run {v.run_id}</a>'
    if v.session_id:
        extra += f" · {session_link(v.session_id)}"
    return f"{esc(v.actor)}{extra}"


KINDS = {
    "user": "a person",
    "agent": "the agent",
    "memory-agent": "the memory agent",
    "system": "doctree itself",
}


def provenance(ins: Inspector, v: Version) -> str:
    """Who wrote this version (a person, the agent, a memory-agent run, an import or a
    revert), from which session, when that session happened and when the version was
    written."""
    from doctree.sessions.repository import SessionsRepository

    who = f"{KINDS.get(v.actor_kind, v.actor_kind)} <span class=mono>{esc(v.actor)}</span>"
    parts = [f"<strong>{esc(v.operation)}</strong> by {who}"]
    if v.run_id is not None:
        parts.append(f'in <a href="/runs/{v.run_id}">run {v.run_id}</a>')
    if v.session_id:
        s = SessionsRepository(ins.repo.conn).get(v.session_id)
        happened = f" (session started {when(s.created_at)})" if s is not None else ""
        parts.append(f"from session {session_link(v.session_id)}{happened}")
    else:
        parts.append("outside any session")
    parts.append(f"written {when(v.created_at)}")
    return f"<p class=prov id=provenance>version {v.version}: {', '.join(parts)}</p>"


def side(ins: Inspector, path: str = HOME) -> str:
    """The tree beside a page: the top level, and the children of each ancestor of `path`
    (at most `SIDE_ITEMS` a level, then a link to the rest)."""
    wanted = {path}
    p = path
    while "/" in p:
        p = p.rsplit("/", 1)[0]
        wanted.add(p)

    def level(parent: str, depth: int) -> str:
        try:
            children = ins.repo.children(ins.owner, parent)
        except NotFoundError:
            return ""
        items = []
        for c in children[:SIDE_ITEMS]:
            name = c.path.rsplit("/", 1)[-1] if c.path != HOME else c.path
            cls = " class=here" if c.path == path else ""
            opened = c.path in wanted or len(children) == 1  # a lone child is shown open
            sub = level(c.path, depth + 1) if opened and depth < 20 else ""
            items.append(f'<li{cls}><a href="{doc_url("doc", c.path)}">{esc(name)}</a>{sub}</li>')
        if len(children) > SIDE_ITEMS:
            rest = len(children) - SIDE_ITEMS
            items.append(f'<li><a href="{doc_url("tree", parent)}">{rest} more…</a></li>')
        return f"<ul>{''.join(items)}</ul>" if items else ""

    return f'<a href="/tree">~</a>{level(HOME, 0)}'


SIDE_ITEMS = 40


# -- tree ---------------------------------------------------------------------------------


TREE_ROWS = 200
"""Rows a tree page shows at most (unless asked for more levels): as many whole levels below
its path as fit, each deeper subtree one link (`/tree/PATH`), so a tree of thousands of
documents is a page of its top levels."""


def tree(ins: Inspector, request: Request) -> Response:
    path = _path(request)
    at = _time(request)
    asked = int_param(request, "depth", low=1)
    roots = ins.repo.tree(ins.owner, path, at=at)
    rows: list[str] = []
    total = 0
    base = 0 if path == HOME else path.count("/")
    per_level: dict[int, int] = {}
    for root in roots:
        for node in root.walk():
            lv = node.path.count("/") - base - (1 if path == HOME else 0)
            per_level[lv] = per_level.get(lv, 0) + 1
    depth, shown = 1, per_level.get(0, 0)
    while depth in per_level and shown + per_level[depth] <= TREE_ROWS:
        shown += per_level[depth]
        depth += 1
    depth = asked or depth

    def size_of(node: Any) -> int:
        return sum(1 for _ in node.walk())

    def show(node: Any) -> None:
        level = node.path.count("/") - base - (1 if path == HOME else 0)
        name = node.path.rsplit("/", 1)[-1] if level > 0 or path == HOME else node.path
        title = "" if node.title == name else node.title
        link = doc_url("doc", node.path, version=node.version if at else None)
        more = ""
        if node.children and level + 1 >= depth:
            below = size_of(node) - 1
            more = (
                f' <a class=more href="{esc(doc_url("tree", node.path, at=at))}">'
                f"▸ {below} below</a>"
            )
        rows.append(
            f'<tr><td class="l{min(level, 20)}">'
            f'<a href="{link}">{esc(name)}</a>{more}</td><td>{esc(title)}</td>'
            f"<td class=n>v{node.version}</td><td class=n>{human_size(node.size)}</td>"
            f"<td class=meta>{when(node.updated_at)}</td></tr>"
        )
        if level + 1 < depth:
            for c in node.children:
                show(c)

    for root in roots:
        total += size_of(root)
        show(root)
    as_of = f" as it was at {when(at)}" if at else ""
    form = (
        f'<form method=get action="{doc_url("tree", path)}">'
        f'<label>as of <input name=at value="{esc(at or "")}" placeholder="2026-11-20T09:00:00Z">'
        "</label> <button>show</button></form>"
    )
    deeper = (
        f' · <a href="{esc(doc_url("tree", path, at=at, depth=depth + 1))}">show a level more</a>'
        if len(rows) < total
        else ""
    )
    body = (
        f"<h1>{esc(path)}{as_of}</h1>{form}<p class=meta id=count>{total} documents, "
        f"{len(rows)} shown{deeper}</p>"
        + table(["document", "title", "version", "size", "updated"], rows, numeric={2, 3})
        if rows
        else f"<h1>{esc(path)}{as_of}</h1>{form}<p class=muted>no documents</p>"
    )
    return ins.page(f"tree {path}", body, side=side(ins, path))


# -- one document -------------------------------------------------------------------------


def document(ins: Inspector, request: Request) -> Response:
    path = _path(request)
    version = int_param(request, "version", low=1)
    banner = ""
    deleted = False
    doc: Document | None
    try:
        doc = ins.repo.read(ins.owner, path, version=version)
    except NotFoundError:
        if version is not None:
            raise
        deleted = True
        history = ins.repo.history(ins.owner, path)  # the one last deleted there, or 404
        last = history[-1]
        shown = next((v for v in reversed(history) if v.body is not None and not v.deleted), None)
        banner = (
            f"<p class=error>deleted at version {last.version} ({when(last.created_at)}, "
            f"by {esc(last.actor)})"
            + (f"; shown as of version {shown.version}" if shown else "")
            + "</p>"
        )
        doc = None if shown is None else ins.repo.read(ins.owner, path, version=shown.version)
    if doc is None:
        body = f"<h1>{esc(path)}</h1>{_doc_tabs(path, 'doc', live=False)}{banner}"
        return ins.page(path, body, side=side(ins, path))
    if request.query_params.get("restored"):
        banner += "<p class=notice id=restored>restored: this is the document's new version</p>"
    if version is not None:
        banner += (
            f"<p class=notice>version {version} of {doc.path} — "
            f'<a href="{doc_url("doc", path)}">current</a> · '
            f'<a href="{doc_url("diff", path, to=version)}">diff with the one before</a></p>'
        )
    meta = provenance(ins, ins.repo.version(doc.id, doc.version)) + (
        f"<p class=meta>{human_size(doc.size)} · sha256 "
        f"<span class=mono>{esc(doc.content_sha256[:12])}</span></p>"
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
        f"{_doc_tabs(path, 'doc', live=not deleted)}"
        f"{banner}{meta}<div class=doc id=body>{render_markdown(doc.body)}</div>{links_html}"
    )
    return ins.page(doc.title, body, side=side(ins, path))


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
        f"{provenance(ins, v)}<p class=meta>{where}</p>{text}"
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
        restore = ""
        if v.body is not None and not v.deleted and v.version != versions[-1].version:
            restore = (
                f' <form method=post action="{doc_url("restore", path)}" class=inline>'
                f'<input type=hidden name=csrf value="{esc(ins.csrf)}">'
                f"<input type=hidden name=version value={v.version}>"
                f"<button>restore v{v.version}</button></form>"
            )
        rows.append(
            f"<tr><td class=n>{view}</td><td>{esc(v.operation)}{note}</td>"
            f"<td>{esc(v.path)}</td><td class=n>{human_size(v.size)}</td>"
            f"<td class=meta>{when(v.created_at)}</td><td>{_actor(v)}</td>"
            f"<td>{prev}{restore}</td></tr>"
        )
    last = versions[-1].version
    form = (
        f'<form method=get action="{doc_url("diff", path)}">compare '
        f"<input name=from type=number min=0 max={last} value={max(last - 1, 0)} size=4> with "
        f"<input name=to type=number min=1 max={last} value={last} size=4> "
        "<button>diff</button></form>"
    )
    live = not versions[-1].deleted
    body = f"<h1>History of {esc(path)}</h1>{_doc_tabs(path, 'history', live=live)}{form}" + table(
        ["version", "operation", "path", "size", "time", "by", ""], rows, numeric={0, 3}
    )
    return ins.page(f"history {path}", body, side=side(ins, path))


async def restore(ins: Inspector, request: Request) -> Response:
    """Restore an earlier version of a document as its new version (undeleting it if need
    be), from the history page's button."""
    from starlette.responses import RedirectResponse

    path = _path(request)
    form = await request.form()
    ins.check_csrf(form.get("csrf"))
    raw = str(form.get("version") or "")
    try:
        number = int(raw)
    except ValueError:
        raise UserError(f"version {raw!r}: must be a whole number") from None
    doc = ins.repo.restore(ins.owner, path, number, actor=ins.actor)
    return RedirectResponse(doc_url("doc", doc.path, restored=1), status_code=303)


def diff(ins: Inspector, request: Request) -> Response:
    path = _path(request)
    to_v = int_param(request, "to", low=1)
    from_v = int_param(request, "from", low=0)
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
    version = int_param(request, "version", low=1)
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
            sess = f" · {session_link(o.session_id)}" if o.session_id else ""
            who = (
                f'<a href="{doc_url("doc", path, version=o.version)}">v{o.version}</a> '
                f"{when(o.created_at)} {esc(o.actor_kind)}:{esc(o.actor_id)}{run}{sess}"
            )
        rows.append(
            f'<tr class="{"first" if first else ""}"><td class="meta">{who}</td>'
            f"<td class=n>{line.number}</td><td class=src>{esc(line.text)}</td></tr>"
        )
    body = (
        f"<h1>Blame of {esc(result.path)} at version {result.version}</h1>"
        f"{_doc_tabs(path, 'blame')}<div class=wide><table class=blame>{''.join(rows)}</table></div>"
    )
    return ins.page(f"blame {path}", body, side=side(ins, path))


# -- search -------------------------------------------------------------------------------

SEARCH_PAGE = 20
SEARCH_MAX = 1000
"""Hits a search reads at most; the page says '1000+' beyond."""


def search(ins: Inspector, request: Request) -> Response:
    from doctree.store.timetravel import search_at, search_versions

    q = (request.query_params.get("q") or "").strip()
    under = normalize_path(request.query_params.get("under") or HOME)
    at = _time(request)
    every = request.query_params.get("all") in ("1", "on", "true")
    page = page_number(request)
    per = int_param(request, "limit", low=1) or SEARCH_PAGE
    form = (
        '<form method=get action="/search">'
        f'<input name=q value="{esc(q)}" placeholder="words" size=30 autofocus> '
        f'under <input name=under value="{esc(under)}" size=16> '
        f'as of <input name=at value="{esc(at or "")}" placeholder="now" size=20> '
        f"<label><input type=checkbox name=all value=1{' checked' if every else ''}> every version"
        "</label> <button>search</button></form>"
    )
    rows: list[str] = []
    total = 0
    if q:
        if every:
            hits = search_versions(ins.repo, ins.owner, q, under=under, until=at, limit=SEARCH_MAX)
            groups: dict[int, list[Any]] = {}
            for vh in hits:
                groups.setdefault(vh.document_id, []).append(vh)
            total = len(groups)
            for vhs in list(groups.values())[(page - 1) * per : page * per]:
                rows.append(_version_group(vhs))
        elif at:
            hits = search_at(ins.repo, ins.owner, q, at, under=under, limit=SEARCH_MAX)
            total = len(hits)
            rows += [_version_group([vh]) for vh in hits[(page - 1) * per : page * per]]
        else:
            found = ins.repo.search(ins.owner, q, under=under, limit=SEARCH_MAX)
            total = len(found)
            for hit in found[(page - 1) * per : page * per]:
                rows.append(
                    f'<tr><td><a href="{doc_url("doc", hit.path)}">{esc(hit.path)}</a>'
                    f"<br><span class=snippet>{snippet(hit.snippet)}</span></td>"
                    f"<td class=n>v{hit.version}</td><td class=meta>{when(hit.updated_at)}</td>"
                    "<td></td></tr>"
                )
    result = ""
    if q:
        more = "+" if total >= SEARCH_MAX else ""
        nav = pager(
            "/search",
            page,
            per,
            total,
            q=q,
            under=under if under != HOME else None,
            at=at,
            all="1" if every else None,
        ).replace(f"of {total}</strong>", f"of {total}{more}</strong>")
        unit = "documents" if every else "matches"
        result = (
            f"<p class=meta id=total>{total}{more} {unit}</p>{nav}"
            + table(["document", "version", "time", "by"], rows, numeric={1})
            + nav
            if rows
            else "<p class=muted>no matches</p>"
        )
    return ins.page("search", f"<h1>Search</h1>{form}{result}")


def _version_group(vhs: list[Any]) -> str:
    """One document's matching versions (newest first): its path, the newest snippet, and
    a link to each version."""
    vh = vhs[0]
    state = " <span class=badge>deleted</span>" if vh.deleted else ""
    if not vh.deleted and vh.current_path and vh.current_path != vh.path:
        state = f" <span class=muted>now {esc(vh.current_path)}</span>"
    link = f"/version/{vh.document_id}/{vh.version}"
    others = ""
    if len(vhs) > 1:
        others = (
            "<br><span class=meta>also in "
            + ", ".join(
                f'<a href="/version/{o.document_id}/{o.version}">v{o.version}</a>'
                for o in sorted(vhs[1:], key=lambda o: -o.version)
            )
            + "</span>"
        )
    return (
        f'<tr><td><a href="{link}">{esc(vh.path)}</a>{state}'
        f"<br><span class=snippet>{snippet(vh.snippet)}</span>{others}</td>"
        f"<td class=n>v{vh.version}</td><td class=meta>{when(vh.created_at)}</td>"
        f"<td>{esc(vh.actor)}</td></tr>"
    )


# -- runs ---------------------------------------------------------------------------------

RUNS_PAGE = 50


def run_id_of(request: Request) -> int:
    value = request.path_params["run_id"]
    try:
        return int(value)
    except ValueError:
        raise NotFoundError(f"run {value!r}: runs are numbered") from None


def own_run(ins: Inspector, run_id: int) -> Any:
    from doctree.store.runs import Runs

    r = Runs(ins.repo.conn).get(run_id)
    if r.owner != ins.owner:
        raise NotFoundError(f"run {r.id}: not a run of agent {ins.owner!r}")
    return r


def runs(ins: Inspector, request: Request) -> Response:
    from doctree.store.runs import Runs

    page = page_number(request)
    per = int_param(request, "limit", low=1) or RUNS_PAGE
    every = Runs(ins.repo.conn).list(owner=ins.owner, limit=None)
    rows = every[(page - 1) * per : page * per]
    counts = ins.repo.versions_per_run([r.id for r in rows])
    out = []
    for r in rows:
        status = "reverted" if r.reverted_at else r.status
        out.append(
            f'<tr><td class=n><a href="/runs/{r.id}">{r.id}</a></td>'
            f"<td>{session_link(r.session_id) if r.session_id else '-'}</td>"
            f"<td>{esc(r.backend)}</td><td>{badge(status)}</td>"
            f"<td class=n>{r.turns}</td><td class=n>{r.input_tokens + r.output_tokens}</td>"
            f"<td class=n>${r.cost_usd:.4f}</td><td class=n>{counts.get(r.id, 0)}</td>"
            f"<td class=meta>{when(r.started_at)}</td></tr>"
        )
    nav = pager("/runs", page, per, len(every), limit=per if per != RUNS_PAGE else None)
    body = "<h1>Memory-agent runs</h1>" + (
        nav
        + table(
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
        + nav
        if out
        else "<p class=muted>no runs</p>"
    )
    return ins.page("runs", body)


# -- sessions -----------------------------------------------------------------------------

STATES = ("open", "pending", "failing", "processed", "exempt")
SESSIONS_PAGE = 100


def _who(agent: Any) -> str:
    """A session's owner; a memory agent's own session as `memory-agent:<owner>`."""
    return agent.owner if agent.type == "agent" else str(agent)


def sessions(ins: Inspector, request: Request) -> Response:
    from doctree.sessions.repository import SessionsRepository

    state = request.query_params.get("state") or None
    if state is not None and state not in STATES:
        raise UserError(f"state {state!r}: must be one of {', '.join(STATES)}")
    repo = SessionsRepository(ins.repo.conn)
    page = page_number(request)
    per = int_param(request, "limit", low=1) or SESSIONS_PAGE
    infos = [
        *repo.list_sessions(agent=ins.owner, state=state, limit=None),
        *repo.list_sessions(agent=f"memory-agent:{ins.owner}", state=state, limit=None),
    ]
    infos.sort(key=lambda i: i.session.created_at, reverse=True)
    counts = {"pending": 0, "failing": 0}
    for i in infos:
        if i.state in counts:
            counts[i.state] += 1
    shown = infos[(page - 1) * per : page * per]
    rows = [
        f"<tr><td>{session_link(i.session.id)}</td>"
        f"<td>{esc(_who(i.session.agent))}</td><td>{badge(i.state)}</td><td class=n>{i.records}</td>"
        f"<td class=n>{i.unprocessed}</td><td class=n>{i.session.failures}</td>"
        f"<td class=meta>{esc((i.session.last_error or '')[:80])}</td>"
        f"<td class=meta>{when(i.session.created_at)}</td></tr>"
        for i in shown
    ]
    filters = " · ".join(
        f'<a href="{url("/sessions", state=s)}">{s}</a>' if s != state else f"<strong>{s}</strong>"
        for s in STATES
    )
    nav = pager("/sessions", page, per, len(infos), state=state)
    body = (
        f"<h1>Sessions of agent {esc(ins.owner)}</h1><p class=meta>{counts['pending']} pending, "
        f'{counts["failing"]} failing, {len(infos)} in all · <a href="/sessions">all</a> · '
        f"{filters}</p>"
        + (
            nav
            + table(
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
            + nav
            if rows
            else "<p class=muted>no sessions</p>"
        )
    )
    return ins.page("sessions", body)


RECORDS_PAGE = 500


def _session_id(request: Request) -> str:
    """The session id of `/sessions/ID`, percent-decoded exactly once from the raw path (a
    session id may hold `/`, `?`, `#` and `%`, each encoded by `session_url`)."""
    raw = request.scope.get("raw_path")
    if isinstance(raw, bytes) and raw.startswith(b"/sessions/"):
        return unquote(raw[len(b"/sessions/") :].decode("latin-1"), errors="strict")
    return str(request.path_params["session_id"])


def session(ins: Inspector, request: Request) -> Response:
    from doctree.sessions.repository import SessionsRepository, state_of
    from doctree.store.runs import Runs

    repo = SessionsRepository(ins.repo.conn)
    s = repo.require(_session_id(request))
    if s.agent.owner != ins.owner:
        raise NotFoundError(f"session {s.id!r}: not a session of agent {ins.owner!r}")
    state = state_of(s, repo.max_id(s.id))
    page = page_number(request)
    total = repo.count_since(s.id, None)
    records = repo.history(s.id, limit=None)[(page - 1) * RECORDS_PAGE : page * RECORDS_PAGE]
    rows = [
        f"<tr><td class=n>{rec.id}</td><td>{esc(rec.kind)}</td><td class=meta>{when(rec.time)}"
        f"{'<br>handed over' if s.processed_until and rec.id <= s.processed_until else ''}</td>"
        f"<td class=content>{pretty(rec.content)}</td></tr>"
        for rec in records
    ]
    run_rows = [
        f'<li><a href="/runs/{r.id}">run {r.id}</a> {badge("reverted" if r.reverted_at else r.status)}'
        f" <span class=meta>{when(r.started_at)}</span></li>"
        for r in Runs(ins.repo.conn).list(session_id=s.id, limit=None)
    ]
    facts = (
        f"<p class=meta>agent {esc(s.agent)} · memory state {badge(state)} · created "
        f"{when(s.created_at)} · processed until record {s.processed_until or '-'}"
        f"{' · failures ' + str(s.failures) if s.failures else ''}</p>"
    )
    if s.last_error:
        facts += f"<p class=error>{esc(s.last_error)}</p>"
    nav = pager(session_url(s.id), page, RECORDS_PAGE, total)
    body = (
        f"<h1>Session {esc(s.id)}</h1>{facts}<h2>Runs</h2>"
        + (f"<ul>{''.join(run_rows)}</ul>" if run_rows else "<p class=muted>none</p>")
        + "<h2>History</h2>"
        + nav
        + table(["id", "kind", "time", "content"], rows, numeric={0})
    )
    return ins.page(f"session {s.id}", body)
