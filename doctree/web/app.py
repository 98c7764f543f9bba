"""The inspector's Starlette application: pages over one agent's memory, and MCP over HTTP.

Pages (server-rendered HTML, no JavaScript): the tree (`/tree`), a document (`/doc/PATH`),
its history (`/history/PATH`), one version by document id (`/version/ID/N`), a diff of two versions (`/diff/PATH?from=A&to=B`), its blame
(`/blame/PATH`), search across time (`/search`), memory-agent runs (`/runs`, `/runs/N`, and
`POST /runs/N/revert`), sessions and their memory state (`/sessions`, `/sessions/ID`).
With `mcp=True`, the MCP tools of `doctree mcp` are served over streamable HTTP at `/mcp`.

Access (see `Guard`): with a token, every request must carry it (an `Authorization: Bearer`
header, the cookie set by opening any page with `?token=...`); without a token, only
loopback Host headers are served (against DNS rebinding). Every POST also needs the page's
CSRF token and, when the browser sends one, a same-origin `Origin`.
"""

from __future__ import annotations

import contextlib
import hmac
import inspect
import secrets
import sqlite3
from collections.abc import AsyncIterator
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qs, urlencode

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from doctree.errors import (
    ConflictError,
    DatabaseUnavailableError,
    DoctreeError,
    NotFoundError,
    UserError,
)
from doctree.store.backends import is_unavailable
from doctree.store.documents import Actor, DocumentsRepository
from doctree.store.paths import HOME
from doctree.web import html as h
from doctree.web import views
from doctree.web.inspector import Inspector

LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})
TOKEN_COOKIE = "doctree_token"
RETRY_AFTER_SECONDS = 2  # a 503's Retry-After while the database is unavailable


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

    `loopback=False` (bound to a non-loopback address) requires a token.
    """
    if not loopback and not token:
        raise UserError("serving beyond loopback needs a token: pass --token or set DOCTREE_TOKEN")
    repo = DocumentsRepository(db)
    ins = Inspector(
        repo,
        owner,
        actor or Actor("user", "inspector"),
        csrf=secrets.token_urlsafe(24),
        db_label=str(db).rsplit("/", 1)[-1],
    )
    mcp_app = None
    repos = [repo]
    if mcp:
        from doctree.interop.mcp_server import DoctreeTools, build_server

        repos.append(DocumentsRepository(db))  # the MCP tools run in worker threads
        server = build_server(DoctreeTools(repos[-1], owner, under=mcp_under, actor=actor))
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
            for r in repos:
                r.close()

    def wrap(fn: Any) -> Any:
        async def endpoint(request: Request) -> Response:
            try:
                response = fn(ins, request)
                if inspect.isawaitable(response):
                    response = await response
                return response
            except NotFoundError as e:
                return error_page(ins, 404, "Not found", str(e))
            except ConflictError as e:
                return error_page(ins, 409, "Conflict", str(e))
            except UserError as e:
                return error_page(ins, 400, "Bad request", str(e))
            except (DatabaseUnavailableError, sqlite3.OperationalError) as e:
                # A server restarting, a lock held past the timeout: ask to come back soon.
                # The connection reconnects on its own at the next request.
                if is_unavailable(e):
                    page = error_page(ins, 503, "Database unavailable", f"{e}; try again")
                    page.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
                    return page
                if isinstance(e, DoctreeError):
                    return error_page(ins, 500, "Error", str(e))
                raise
            except DoctreeError as e:
                return error_page(ins, 500, "Error", str(e))

        return endpoint

    routes: list[Any] = [
        Route("/", wrap(lambda ins, r: RedirectResponse("/tree", status_code=302))),
        Route("/tree", wrap(views.tree)),
        Route("/tree/{path:path}", wrap(views.tree)),
        Route("/doc/{path:path}", wrap(views.document)),
        Route("/history/{path:path}", wrap(views.history)),
        Route("/version/{document_id}/{version}", wrap(views.version)),
        Route("/diff/{path:path}", wrap(views.diff)),
        Route("/blame/{path:path}", wrap(views.blame)),
        Route("/search", wrap(views.search)),
        Route("/runs", wrap(views.runs)),
        Route("/runs/{run_id}", wrap(views.run)),
        Route("/runs/{run_id}/revert", wrap(views.revert), methods=["POST"]),
        Route("/sessions", wrap(views.sessions)),
        Route("/sessions/{session_id}", wrap(views.session)),
    ]
    if mcp_app is not None:
        routes.append(Route("/mcp", mcp_app, methods=["GET", "POST", "DELETE"]))

    async def not_found(request: Request, exc: Exception) -> Response:
        return error_page(ins, 404, "Not found", f"no page at {request.url.path!r}")

    async def http_error(request: Request, exc: Exception) -> Response:
        code = getattr(exc, "status_code", 500)
        return error_page(ins, code, "Error", str(getattr(exc, "detail", "")) or "request refused")

    async def server_error(request: Request, exc: Exception) -> Response:
        return error_page(
            ins, 500, "Internal error", "the inspector failed on this request; see its log"
        )

    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={404: not_found, HTTPException: http_error, 500: server_error},
    )
    return Guard(app, ins, token=token, loopback=loopback)


def error_page(ins: Inspector, status: int, title: str, message: str) -> HTMLResponse:
    body = (
        f"<h1>{status} {h.esc(title)}</h1><p class=error>{h.esc(message)}</p>"
        '<p><a href="/tree">back to the tree</a></p>'
    )
    return ins.page(f"{status} {title}", body, status)


class Guard:
    """Checks every request before the app sees it: the token (when one is set), a loopback
    Host (when none is), and for every POST the CSRF token and a same-origin Origin."""

    def __init__(self, app: ASGIApp, ins: Inspector, *, token: str | None, loopback: bool):
        self.app = app
        self.ins = ins
        self.token = token
        self.loopback = loopback

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        refusal = self._refusal(scope, headers, query)
        if refusal is not None:
            await refusal(scope, receive, send)
            return
        given = (query.get("token") or [None])[0]
        if self.token and given and scope["method"] == "GET" and scope["path"] != "/mcp":
            # Opened with ?token=: keep it in a cookie and drop it from the address bar.
            rest = {k: v for k, v in query.items() if k != "token"}
            target = scope["path"] + ("?" + urlencode(rest, doseq=True) if rest else "")
            response = RedirectResponse(target, status_code=303)
            response.set_cookie(TOKEN_COOKIE, given, httponly=True, samesite="strict", path="/")
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def _refusal(
        self, scope: Scope, headers: dict[str, str], query: dict[str, list[str]]
    ) -> Response | None:
        is_mcp = scope["path"] == "/mcp" or scope["path"].startswith("/mcp/")
        if self.token:
            given = (query.get("token") or [None])[0] or _bearer(headers) or _cookie(headers)
            if not given:
                return self._deny(
                    401,
                    "Token required",
                    "this inspector needs a token: open it with ?token=TOKEN, "
                    "or send 'Authorization: Bearer TOKEN'",
                    is_mcp,
                )
            if not hmac.compare_digest(given.encode(), self.token.encode()):
                return self._deny(403, "Forbidden", "the token given is wrong", is_mcp)
        elif self.loopback:
            host = headers.get("host", "")
            name = host.rsplit(":", 1)[0] if not host.startswith("[") else host.split("]")[0] + "]"
            if name not in LOOPBACK_HOSTS:
                return self._deny(
                    403, "Forbidden", f"host {host!r}: this inspector answers loopback only", is_mcp
                )
        if scope["method"] == "POST" and not is_mcp:
            origin = headers.get("origin")
            if origin and origin.split("://", 1)[-1] != headers.get("host"):
                return self._deny(
                    403, "Forbidden", f"origin {origin!r}: cross-site request refused", False
                )
        return None

    def _deny(self, status: int, title: str, message: str, plain: bool) -> Response:
        headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
        if plain:
            return Response(
                message + "\n", status_code=status, headers=headers, media_type="text/plain"
            )
        page = error_page(self.ins, status, title, message)
        if headers:
            page.headers.update(headers)
        return page


def _bearer(headers: dict[str, str]) -> str | None:
    auth = headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip() or None
    return None


def _cookie(headers: dict[str, str]) -> str | None:
    if "cookie" not in headers:
        return None
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(headers["cookie"])
    except Exception:
        return None
    morsel = jar.get(TOKEN_COOKIE)
    return morsel.value if morsel else None
