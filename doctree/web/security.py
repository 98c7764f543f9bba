"""The inspector's doors: who may come in (`Guard`), what the browser may do with a page
(`SecurityHeaders`), the session a token link opens (`SessionCookies`), and how strong a token
must be (`check_token`).

- Every response carries `X-Frame-Options: DENY` and a Content-Security-Policy that forbids
  framing (`frame-ancestors 'none'`), scripts (the pages have none), images from elsewhere
  (`img-src 'self'`: an image a memory page links to does not load, so opening a page tells
  no third party), forms posting elsewhere, and any style but the inspector's own stylesheet
  (`style-src 'self'`: `/static/inspector.css`; no inline style); plus `X-Content-Type-Options: nosniff` and `Referrer-Policy: same-origin` (no referrer leaves
  the inspector; within it the browser sends its real `Origin` on a form post, which
  `no-referrer` would turn into `null` and so refuse every form as cross-site).
- A token link (`/?token=TOKEN`) opens a session: a cookie signed with the token
  (itsdangerous, salted with the port) whose name holds the port, so inspectors on two ports
  of one host keep their own, and the token itself is never stored in the browser.
- A token needs at least 128 bits (`check_token`); pages refusing a request name nothing but
  how to get in.
"""

from __future__ import annotations

import hmac
import math
import secrets
import string
from http.cookies import SimpleCookie
from urllib.parse import parse_qs, urlencode

from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from doctree.errors import UserError
from doctree.web.templating import render

MIN_TOKEN_BITS = 128
SESSION_MAX_AGE = 12 * 60 * 60
"""Seconds a session cookie stays good; then the token link opens a new one."""
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})


CONTENT_SECURITY_POLICY = (
    "default-src 'none'; "
    "style-src 'self'; "
    "img-src 'self'; "
    "form-action 'self'; "
    "frame-ancestors 'none'; "
    "base-uri 'none'"
)
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = tuple(
    (k.encode("latin-1"), v.encode("latin-1"))
    for k, v in (
        ("x-frame-options", "DENY"),
        ("content-security-policy", CONTENT_SECURITY_POLICY),
        ("x-content-type-options", "nosniff"),
        ("referrer-policy", "same-origin"),
    )
)


# -- tokens ------------------------------------------------------------------------------


_URL_SAFE = frozenset(string.ascii_letters + string.digits + "-_")
_HEX = frozenset(string.hexdigits)


def token_bits(token: str) -> float:
    """An estimate of a token's entropy from its length and alphabet, as random tokens are
    made: digits carry 3.3 bits a character, hex digits 4 ('-' separators uncounted, as in a
    UUID), url-safe base64 characters 6, other printable characters 6.6. A token of fewer
    than 8 distinct characters ('aaaa...', 'abab...') counts as 0."""
    chars = set(token)
    if len(chars) < 8:
        return 0.0
    if chars <= set(string.digits):
        return len(token) * math.log2(10)
    if chars - {"-"} <= _HEX and (
        chars <= set(string.hexdigits.lower() + "-") or chars <= set(string.hexdigits.upper() + "-")
    ):
        return (len(token) - token.count("-")) * 4.0
    if chars <= _URL_SAFE:
        return len(token) * 6.0
    return len(token) * math.log2(94)


def check_token(token: str) -> str:
    """`token` if it carries at least `MIN_TOKEN_BITS` bits; UserError otherwise."""
    bits = token_bits(token)
    if bits < MIN_TOKEN_BITS:
        raise UserError(
            f"token: {len(token)} characters carry about {bits:.0f} bits; a token needs at "
            f"least {MIN_TOKEN_BITS} (e.g. 22 random url-safe characters or 32 hex digits: "
            "python -c 'import secrets; print(secrets.token_urlsafe(32))')"
        )
    return token


# -- sessions ------------------------------------------------------------------------------


class SessionCookies:
    """Session cookies signed with the token: `doctree_session_PORT`, good for
    `SESSION_MAX_AGE` seconds, valid only on the port that issued them."""

    def __init__(self, token: str, max_age: int = SESSION_MAX_AGE):
        self.token = token
        self.max_age = max_age

    @staticmethod
    def name(port: int | None) -> str:
        return f"doctree_session_{port or 0}"

    def _signer(self, port: int | None) -> object:
        from itsdangerous import TimestampSigner

        return TimestampSigner(self.token, salt=f"doctree-inspector-session:{port or 0}")

    def issue(self, port: int | None) -> str:
        signer = self._signer(port)
        return signer.sign(secrets.token_urlsafe(16)).decode("ascii")  # type: ignore[attr-defined]

    def valid(self, value: str, port: int | None) -> bool:
        from itsdangerous import BadSignature

        try:
            self._signer(port).unsign(value, max_age=self.max_age)  # type: ignore[attr-defined]
        except BadSignature:
            return False
        return True


# -- responses -----------------------------------------------------------------------------


class SecurityHeaders:
    """Adds `SECURITY_HEADERS` to every HTTP response of `app` (one the app set itself is
    kept)."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {k.lower() for k, _ in headers}
                headers += [(k, v) for k, v in SECURITY_HEADERS if k not in present]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def refusal_page(status: int, title: str, message: str) -> HTMLResponse:
    """A page refusing a request before it is let in: its status, and what to do, nothing
    about whose memory or which database lies behind it."""
    page = render("refusal.html", status=status, heading=title, message=message)
    return HTMLResponse(page, status_code=status)


def secured(app: ASGIApp, *, token: str | None, loopback: bool) -> ASGIApp:
    """`app` behind its `Guard`, every response with the `SECURITY_HEADERS`."""
    return SecurityHeaders(Guard(app, token=token, loopback=loopback))


# -- the guard -----------------------------------------------------------------------------

HOW_TO_LOG_IN = (
    "this inspector needs a token: open it once with ?token=TOKEN, "
    "or send 'Authorization: Bearer TOKEN'"
)


class Guard:
    """Checks every request before the app sees it: the token or a session it opened (when a
    token is set), a loopback Host (when none is), and for every POST a same-origin Origin
    (the CSRF token of the forms is the app's to check)."""

    def __init__(self, app: ASGIApp, *, token: str | None, loopback: bool):
        self.app = app
        self.token = token
        self.loopback = loopback
        self.sessions = SessionCookies(token) if token else None

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
        if self.sessions and given and scope["method"] == "GET" and not _is_mcp(scope):
            # Opened with ?token=: open a session and drop the token from the address bar.
            port = _port(scope)
            rest = {k: v for k, v in query.items() if k != "token"}
            target = scope["path"] + ("?" + urlencode(rest, doseq=True) if rest else "")
            response = RedirectResponse(target, status_code=303)
            response.set_cookie(
                SessionCookies.name(port),
                self.sessions.issue(port),
                max_age=self.sessions.max_age,
                httponly=True,
                samesite="strict",
                path="/",
            )
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def _refusal(
        self, scope: Scope, headers: dict[str, str], query: dict[str, list[str]]
    ) -> Response | None:
        mcp = _is_mcp(scope)
        if self.token and self.sessions:
            given = (query.get("token") or [None])[0] or _bearer(headers)
            if given is not None:
                if not hmac.compare_digest(given.encode(), self.token.encode()):
                    return _deny(403, "Forbidden", "the token given is wrong", mcp)
            else:
                port = _port(scope)
                cookie = _cookie(headers, SessionCookies.name(port))
                if cookie is None or not self.sessions.valid(cookie, port):
                    return _deny(401, "Token required", HOW_TO_LOG_IN, mcp)
        elif self.loopback:
            host = headers.get("host", "")
            name = host.rsplit(":", 1)[0] if not host.startswith("[") else host.split("]")[0] + "]"
            if name not in LOOPBACK_HOSTS:
                return _deny(
                    403, "Forbidden", f"host {host!r}: this inspector answers loopback only", mcp
                )
        if scope["method"] == "POST" and not mcp:
            origin = headers.get("origin")
            if origin and origin.split("://", 1)[-1] != headers.get("host"):
                return _deny(
                    403, "Forbidden", f"origin {origin!r}: cross-site request refused", False
                )
        return None


def _deny(status: int, title: str, message: str, plain: bool) -> Response:
    response: Response
    if plain:
        response = Response(message + "\n", status_code=status, media_type="text/plain")
    else:
        response = refusal_page(status, title, message)
    if status == 401:
        response.headers["WWW-Authenticate"] = "Bearer"
    return response


def _is_mcp(scope: Scope) -> bool:
    return scope["path"] == "/mcp" or scope["path"].startswith("/mcp/")


def _port(scope: Scope) -> int | None:
    server = scope.get("server")
    return server[1] if server else None


def _bearer(headers: dict[str, str]) -> str | None:
    auth = headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip() or None
    return None


def _cookie(headers: dict[str, str], name: str) -> str | None:
    if "cookie" not in headers:
        return None
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(headers["cookie"])
    except Exception:
        return None
    morsel = jar.get(name)
    return morsel.value if morsel else None
