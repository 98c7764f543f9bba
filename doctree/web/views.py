"""The inspector's pages: each takes the request's `Inspector` (with a repository of its own)
and the request, reads the store through the library and renders its template
(`doctree/web/templates/`). They are plain functions: the app runs them in Starlette's thread
pool, so a page waiting on the database holds up no other. Errors are doctree errors; the app
turns them into pages."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from doctree.errors import NotFoundError, UserError
from doctree.store.documents import Provenance, Version, parse_time
from doctree.store.paths import HOME, normalize_path
from doctree.web.html import doc_url, pager
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


KINDS = {
    "user": "a person",
    "agent": "the agent",
    "memory-agent": "the memory agent",
    "system": "doctree itself",
}


@dataclass(frozen=True)
class Authorship:
    """Who wrote a version (a person, the agent, a memory-agent run, an import or a revert),
    from which session, when that session happened and when the version was written."""

    version: Version
    kind: str
    session_started: str | None


def provenance(ins: Inspector, v: Version) -> Authorship:
    from doctree.sessions.repository import SessionsRepository

    started = None
    if v.session_id:
        s = SessionsRepository(ins.repo.conn).get(v.session_id)
        started = s.created_at if s is not None else None
    return Authorship(v, KINDS.get(v.actor_kind, v.actor_kind), started)


# -- the tree beside a page -------------------------------------------------------------------

SIDE_ITEMS = 40


@dataclass(frozen=True)
class SideItem:
    name: str
    path: str
    here: bool
    below: SideLevel | None


@dataclass(frozen=True)
class SideLevel:
    """One level of the tree beside a page: its first `SIDE_ITEMS` children, and how many
    more there are (with a link to the tree page listing them)."""

    items: list[SideItem]
    rest: int
    parent: str


def side(ins: Inspector, path: str = HOME) -> SideLevel | None:
    """The tree beside a page: the top level, and the children of each ancestor of `path`
    (at most `SIDE_ITEMS` a level, then a link to the rest)."""
    wanted = {path}
    p = path
    while "/" in p:
        p = p.rsplit("/", 1)[0]
        wanted.add(p)

    def level(parent: str, depth: int) -> SideLevel | None:
        try:
            children = ins.repo.children(ins.owner, parent)
        except NotFoundError:
            return None
        items = []
        for c in children[:SIDE_ITEMS]:
            name = c.path.rsplit("/", 1)[-1] if c.path != HOME else c.path
            opened = c.path in wanted or len(children) == 1  # a lone child is shown open
            sub = level(c.path, depth + 1) if opened and depth < 20 else None
            items.append(SideItem(name, c.path, c.path == path, sub))
        rest = max(len(children) - SIDE_ITEMS, 0)
        return SideLevel(items, rest, parent) if items else None

    return level(HOME, 0) or SideLevel([], 0, HOME)


# -- tree ---------------------------------------------------------------------------------


TREE_ROWS = 200
"""Rows a tree page shows at most (unless asked for more levels): as many whole levels below
its path as fit, each deeper subtree one link (`/tree/PATH`), so a tree of thousands of
documents is a page of its top levels."""


@dataclass(frozen=True)
class TreeRow:
    node: Any
    level: int
    name: str
    title: str
    below: int  # documents under it not shown (a link to its own tree page); 0: none


def tree(ins: Inspector, request: Request) -> Response:
    path = _path(request)
    at = _time(request)
    asked = int_param(request, "depth", low=1)
    roots = ins.repo.tree(ins.owner, path, at=at)
    rows: list[TreeRow] = []
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
        below = size_of(node) - 1 if node.children and level + 1 >= depth else 0
        rows.append(
            TreeRow(node, min(level, 20), name, "" if node.title == name else node.title, below)
        )
        if level + 1 < depth:
            for c in node.children:
                show(c)

    for root in roots:
        total += size_of(root)
        show(root)
    return ins.page(
        "tree.html",
        title=f"tree {path}",
        side=side(ins, path),
        path=path,
        at=at,
        rows=rows,
        total=total,
        deeper=doc_url("tree", path, at=at, depth=depth + 1) if len(rows) < total else None,
    )


# -- one document -------------------------------------------------------------------------


def document(ins: Inspector, request: Request) -> Response:
    path = _path(request)
    version = int_param(request, "version", low=1)
    deleted = None
    try:
        doc = ins.repo.read(ins.owner, path, version=version)
    except NotFoundError:
        if version is not None:
            raise
        history = ins.repo.history(ins.owner, path)  # the one last deleted there, or 404
        last = history[-1]
        shown = next((v for v in reversed(history) if v.body is not None and not v.deleted), None)
        deleted = {"last": last, "shown": shown}
        doc = None if shown is None else ins.repo.read(ins.owner, path, version=shown.version)
    context: dict[str, Any] = {
        "path": path,
        "doc": doc,
        "deleted": deleted,
        "version": version,
        "restored": bool(request.query_params.get("restored")) and doc is not None,
    }
    if doc is not None:
        context["prov"] = provenance(ins, ins.repo.version(doc.id, doc.version))
        if version is None and deleted is None and not context["restored"]:
            context["links"] = [
                r for r in ins.repo.links(ins.owner, doc.path) if r.kind != "parent"
            ]
            context["backlinks"] = ins.repo.backlinks(ins.owner, doc.path)
            context["children"] = ins.repo.children(ins.owner, doc.path)
    return ins.page(
        "document.html", title=doc.title if doc else path, side=side(ins, path), **context
    )


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
    return ins.page(
        "version.html", title=f"{v.path}@{v.version}", v=v, now=now, prov=provenance(ins, v)
    )


def history(ins: Inspector, request: Request) -> Response:
    path = _path(request)
    versions = ins.repo.history(ins.owner, path)
    return ins.page(
        "history.html",
        title=f"history {path}",
        side=side(ins, path),
        path=path,
        versions=list(reversed(versions)),
        last=versions[-1],
    )


def restore(ins: Inspector, request: Request, form: FormData) -> Response:
    """Restore an earlier version of a document as its new version (undeleting it if need
    be), from the history page's button."""
    path = _path(request)
    ins.check_csrf(form.get("csrf"))
    raw = str(form.get("version") or "")
    try:
        number = int(raw)
    except ValueError:
        raise UserError(f"version {raw!r}: must be a whole number") from None
    doc = ins.repo.restore(ins.owner, path, number, provenance=Provenance(ins.actor))
    return RedirectResponse(doc_url("doc", doc.path, restored=1), status_code=303)


def diff(ins: Inspector, request: Request) -> Response:
    path = _path(request)
    to_v = int_param(request, "to", low=1)
    from_v = int_param(request, "from", low=0)
    text = ins.repo.diff(ins.owner, path, from_v, to_v)
    return ins.page(
        "diff.html",
        title=f"diff {path}",
        path=path,
        text=text,
        label_from=from_v if from_v is not None else "previous",
        label_to=to_v if to_v is not None else "current",
    )


def blame(ins: Inspector, request: Request) -> Response:
    from doctree.store.blame import blame as blame_doc

    path = _path(request)
    version = int_param(request, "version", low=1)
    result = blame_doc(ins.repo, ins.owner, path, version=version)
    rows = []
    previous = None
    for line in result.lines:
        first = line.origin.version != previous
        previous = line.origin.version
        rows.append((line, first))
    return ins.page(
        "blame.html",
        title=f"blame {path}",
        side=side(ins, path),
        path=path,
        result=result,
        rows=rows,
    )


# -- search -------------------------------------------------------------------------------

SEARCH_PAGE = 20
SEARCH_MAX = 1000
"""Hits a search reads at most; the page says '1000+' beyond."""


@dataclass(frozen=True)
class VersionGroup:
    """One document's matching versions (newest first): the newest, and the others."""

    hit: Any
    others: list[Any]


def search(ins: Inspector, request: Request) -> Response:
    from doctree.store.timetravel import search_at, search_versions

    q = (request.query_params.get("q") or "").strip()
    under = normalize_path(request.query_params.get("under") or HOME)
    at = _time(request)
    every = request.query_params.get("all") in ("1", "on", "true")
    page = page_number(request)
    per = int_param(request, "limit", low=1) or SEARCH_PAGE
    groups: list[VersionGroup] = []
    hits: list[Any] = []
    total = 0
    if q:
        window = slice((page - 1) * per, page * per)
        if every:
            found = search_versions(ins.repo, ins.owner, q, under=under, until=at, limit=SEARCH_MAX)
            by_doc: dict[int, list[Any]] = {}
            for vh in found:
                by_doc.setdefault(vh.document_id, []).append(vh)
            total = len(by_doc)
            for vhs in list(by_doc.values())[window]:
                others = sorted(vhs[1:], key=lambda o: -o.version)
                groups.append(VersionGroup(vhs[0], others))
        elif at:
            found = search_at(ins.repo, ins.owner, q, at, under=under, limit=SEARCH_MAX)
            total = len(found)
            groups = [VersionGroup(vh, []) for vh in found[window]]
        else:
            found = ins.repo.search(ins.owner, q, under=under, limit=SEARCH_MAX)
            total = len(found)
            hits = found[window]
    nav = pager(
        "/search",
        page,
        per,
        total,
        more=total >= SEARCH_MAX,
        q=q,
        under=under if under != HOME else None,
        at=at,
        all="1" if every else None,
    )
    return ins.page(
        "search.html",
        title="search",
        q=q,
        under=under,
        at=at,
        every=every,
        hits=hits,
        groups=groups,
        total=total,
        more="+" if total >= SEARCH_MAX else "",
        nav=nav,
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
    return ins.page(
        "runs.html",
        title="runs",
        runs=rows,
        changes=ins.repo.versions_per_run([r.id for r in rows]),
        nav=pager("/runs", page, per, len(every), limit=per if per != RUNS_PAGE else None),
    )


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
    return ins.page(
        "sessions.html",
        title="sessions",
        infos=[(i, _who(i.session.agent)) for i in infos[(page - 1) * per : page * per]],
        total=len(infos),
        counts=counts,
        states=STATES,
        state=state,
        nav=pager("/sessions", page, per, len(infos), state=state),
    )


RECORDS_PAGE = 500


def _session_id(request: Request) -> str:
    """The session id of `/sessions/ID`, percent-decoded exactly once from the raw path (a
    session id may hold `/`, `?`, `#` and `%`, each encoded by `session_url`)."""
    raw = request.scope.get("raw_path")
    if isinstance(raw, bytes) and raw.startswith(b"/sessions/"):
        return unquote(raw[len(b"/sessions/") :].decode("latin-1"), errors="strict")
    return str(request.path_params["session_id"])


def session(ins: Inspector, request: Request) -> Response:
    from doctree.sessions.repository import SessionsRepository
    from doctree.sessions.sessions import state_of
    from doctree.store.runs import Runs
    from doctree.web.html import session_url

    repo = SessionsRepository(ins.repo.conn)
    s = repo.require(_session_id(request))
    if s.agent.owner != ins.owner:
        raise NotFoundError(f"session {s.id!r}: not a session of agent {ins.owner!r}")
    page = page_number(request)
    total = repo.count_since(s.id, None)
    records = repo.history(s.id, limit=None)[(page - 1) * RECORDS_PAGE : page * RECORDS_PAGE]
    return ins.page(
        "session.html",
        title=f"session {s.id}",
        s=s,
        state=state_of(s, repo.max_id(s.id)),
        records=records,
        runs=Runs(ins.repo.conn).list(session_id=s.id, limit=None),
        nav=pager(session_url(s.id), page, RECORDS_PAGE, total),
    )
