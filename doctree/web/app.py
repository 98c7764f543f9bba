"""The inspector's Starlette application: pages over one agent's memory, and MCP over HTTP.

Pages (server-rendered HTML from the Jinja2 templates in `doctree/web/templates/`, one
stylesheet at `/static/`, no JavaScript): the activity feed (`/`: memory-agent runs with their
changes as diffs; `GET /runs/N/revert` previews a run's revert, `POST` does it,
`POST /runs/N/revert-document` puts one document back as before the run), the tree
(`/tree`), a document (`/doc/PATH`), its history (`/history/PATH`), one version by document
id (`/version/ID/N`), a diff of two versions (`/diff/PATH?from=A&to=B`), its blame
(`/blame/PATH`), search across time (`/search`), memory-agent runs (`/runs`, `/runs/N`),
sessions and their memory state (`/sessions`, `/sessions/ID`). With `mcp=True`, the MCP tools
of `doctree mcp` are served over streamable HTTP at `/mcp`.

Each page runs in Starlette's thread pool (`run_in_threadpool`) on a repository borrowed for
the request (`Repositories`): a page waiting on the database (a lock another process holds, a
slow query) holds up no other, and no two requests share a connection at once.

Access and the browser's rules are `doctree.web.security`'s (`secured`): with a token, every
request must carry it (an `Authorization: Bearer` header, or the signed session cookie a page
opened with `?token=...` sets); without a token, only loopback Host headers are served
(against DNS rebinding). Every POST also needs the page's CSRF token and, when the browser
sends one, a same-origin `Origin`. Every response carries the security headers.
"""

from __future__ import annotations

import contextlib
import secrets
import sqlite3
from collections.abc import AsyncIterator, Callable
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp

from doctree.compose import Settings, open_repository
from doctree.errors import (
    ConflictError,
    DatabaseUnavailableError,
    DoctreeError,
    NotFoundError,
    UserError,
)
from doctree.store.backends import is_unavailable
from doctree.store.documents import Actor
from doctree.store.paths import HOME
from doctree.web import activity, views
from doctree.web.inspector import Inspector, Repositories, Site
from doctree.web.security import check_token, secured
from doctree.web.templating import STATIC

RETRY_AFTER_SECONDS = 2  # a 503's Retry-After while the database is unavailable

View = Callable[..., Response]
"""A page: `(Inspector, Request)`, or `(Inspector, Request, FormData)` for a form's POST."""


def create_app(
    db: str,
    owner: str,
    *,
    token: str | None = None,
    mcp: bool = False,
    mcp_under: str = HOME,
    loopback: bool = True,
    actor: Actor | None = None,
) -> ASGIApp:
    """The inspector for `owner`'s memory in database `db`, behind its `Guard`.

    `loopback=False` (bound to a non-loopback address) requires a token, and a token must
    carry at least 128 bits (`doctree.web.security.check_token`).
    """
    if not loopback and not token:
        raise UserError("serving beyond loopback needs a token: pass --token or set DOCTREE_TOKEN")
    if token is not None:
        check_token(token)
    settings = Settings(db=str(db), owner=owner)
    # opened now: a bad database fails here
    repos = Repositories(str(db), open_repository(settings))
    site = Site(
        owner,
        actor or Actor("user", "inspector"),
        csrf=secrets.token_urlsafe(24),
        db_label=str(db).rsplit("/", 1)[-1],
    )
    mcp_app = None
    mcp_repo = None
    if mcp:
        from doctree.interop.mcp_server import DoctreeTools, build_server

        mcp_repo = open_repository(settings)  # the MCP tools' own, one call at a time
        server = build_server(DoctreeTools(mcp_repo, owner, under=mcp_under, actor=actor))
        mcp_app = server.streamable_http_app(
            streamable_http_path="/mcp",
            stateless_http=True,
            json_response=True,
            host="127.0.0.1" if loopback else "0.0.0.0",
        )

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            if mcp_app is not None:
                async with mcp_app.router.lifespan_context(mcp_app):
                    yield
            else:
                yield
        finally:
            repos.close()
            if mcp_repo is not None:
                mcp_repo.close()

    def in_thread(view: View, request: Request, form: FormData | None) -> Response:
        """The page, in a worker thread of Starlette's pool, on a repository of its own."""
        with repos.borrow() as repo:
            ins = Inspector(site, repo, request)
            return view(ins, request) if form is None else view(ins, request, form)

    def wrap(view: View, *, form: bool = False) -> Any:
        async def endpoint(request: Request) -> Response:
            try:
                data = await request.form() if form else None
                return await run_in_threadpool(in_thread, view, request, data)
            except NotFoundError as e:
                return error_page(site, request, 404, "Not found", str(e))
            except ConflictError as e:
                return error_page(site, request, 409, "Conflict", str(e))
            except UserError as e:
                return error_page(site, request, 400, "Bad request", str(e))
            except (DatabaseUnavailableError, sqlite3.OperationalError) as e:
                # A server restarting, a lock held past the timeout: ask to come back soon.
                # The connection reconnects on its own at the next request.
                if is_unavailable(e):
                    page = error_page(site, request, 503, "Database unavailable", f"{e}; try again")
                    page.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
                    return page
                if isinstance(e, DoctreeError):
                    return error_page(site, request, 500, "Error", str(e))
                raise
            except DoctreeError as e:
                return error_page(site, request, 500, "Error", str(e))

        return endpoint

    routes: list[Any] = [
        Route("/", wrap(activity.home)),
        Route("/tree", wrap(views.tree)),
        Route("/tree/{path:path}", wrap(views.tree)),
        Route("/doc/{path:path}", wrap(views.document)),
        Route("/history/{path:path}", wrap(views.history)),
        Route("/restore/{path:path}", wrap(views.restore, form=True), methods=["POST"]),
        Route("/version/{document_id}/{version}", wrap(views.version)),
        Route("/diff/{path:path}", wrap(views.diff)),
        Route("/blame/{path:path}", wrap(views.blame)),
        Route("/search", wrap(views.search)),
        Route("/runs", wrap(views.runs)),
        Route("/runs/{run_id}", wrap(activity.run)),
        Route("/runs/{run_id}/revert", wrap(activity.revert_preview), methods=["GET"]),
        Route("/runs/{run_id}/revert", wrap(activity.revert, form=True), methods=["POST"]),
        Route(
            "/runs/{run_id}/revert-document",
            wrap(activity.revert_document, form=True),
            methods=["POST"],
        ),
        Route("/sessions", wrap(views.sessions)),
        Route("/sessions/{session_id:path}", wrap(views.session)),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
    if mcp_app is not None:
        routes.append(Route("/mcp", mcp_app, methods=["GET", "POST", "DELETE"]))

    async def not_found(request: Request, exc: Exception) -> Response:
        return error_page(site, request, 404, "Not found", f"no page at {request.url.path!r}")

    async def http_error(request: Request, exc: Exception) -> Response:
        code = getattr(exc, "status_code", 500)
        detail = str(getattr(exc, "detail", "")) or "request refused"
        return error_page(site, request, code, "Error", detail)

    async def server_error(request: Request, exc: Exception) -> Response:
        return error_page(
            site,
            request,
            500,
            "Internal error",
            "the inspector failed on this request; see its log",
        )

    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={404: not_found, HTTPException: http_error, 500: server_error},
    )
    return secured(app, token=token, loopback=loopback)


def error_page(
    site: Site, request: Request, status: int, heading: str, message: str
) -> HTMLResponse:
    """A readable page for a request that failed: its status, what went wrong, a way back."""
    return site.page(
        request,
        "error.html",
        title=f"{status} {heading}",
        status=status,
        code=status,
        heading=heading,
        message=message,
    )
