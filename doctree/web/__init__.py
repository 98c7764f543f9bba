"""`doctree serve`: a web inspector over one agent's memory, and MCP over streamable HTTP.

`create_app` (doctree.web.app) builds the ASGI application; `serve` runs it on uvicorn.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable
from typing import Any

from doctree.errors import UserError


def is_loopback(host: str) -> bool:
    """Whether `host` (an address or 'localhost') only listens on this machine."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def serve(
    db: str,
    owner: str,
    *,
    host: str = "127.0.0.1",
    port: int = 8765,
    token: str | None = None,
    mcp: bool = False,
    mcp_under: str = "~",
    log_level: str = "warning",
    on_start: Callable[[int], None] | None = None,
    header_timeout: float | None = None,
) -> None:
    """Run the inspector on uvicorn until interrupted. Beyond loopback a token is required.
    `on_start` is called with the port listened on (the one the system chose for port 0) once
    the settings are accepted and the socket is bound, just before the server starts.
    `header_timeout` (default `HEADER_TIMEOUT`) bounds the seconds a client has to send a
    request's line and headers."""
    import uvicorn

    from doctree.logs import uvicorn_log_config
    from doctree.web.app import create_app

    loopback = is_loopback(host)
    if not loopback and not token:
        raise UserError(
            f"host {host!r}: serving beyond loopback needs a token "
            "(pass --token or set DOCTREE_TOKEN)"
        )
    app = create_app(db, owner, token=token, mcp=mcp, mcp_under=mcp_under, loopback=loopback)
    sock = bind(host.strip("[]"), port)
    if on_start is not None:
        on_start(sock.getsockname()[1])
    config = uvicorn.Config(
        app,
        log_level=log_level,
        log_config=uvicorn_log_config(log_level),
        lifespan="on",
        http=header_timeout_protocol(header_timeout or HEADER_TIMEOUT),
        timeout_keep_alive=KEEP_ALIVE_TIMEOUT,
        h11_max_incomplete_event_size=MAX_HEADER_BYTES,
    )
    uvicorn.Server(config).run(sockets=[sock])


HEADER_TIMEOUT = 10.0
"""Seconds a connection has to send a whole request line and headers, from its first byte
(or from when it opens): a client that sends half a request and stalls (slowloris) is cut
off then, however slowly it trickles bytes."""
KEEP_ALIVE_TIMEOUT = 5
"""Seconds an idle keep-alive connection stays open between requests."""
MAX_HEADER_BYTES = 16 * 1024
"""The most bytes of request line and headers read before a request is refused (400)."""


def header_timeout_protocol(seconds: float) -> type:
    """uvicorn's h11 protocol with a deadline on reading a request's line and headers, which
    uvicorn itself does not have: the deadline is armed when the connection opens and when
    the first byte of a later request on it arrives, and cancelled once the headers are in."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class HeaderTimeoutProtocol(H11Protocol):
        header_deadline: Any = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self.header_deadline = self.loop.call_later(seconds, self._headers_too_slow)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            waiting = self.conn.their_state is h11.IDLE  # the request's headers are not in
            if waiting and self.header_deadline is None and not self.transport.is_closing():
                self.header_deadline = self.loop.call_later(seconds, self._headers_too_slow)
            elif not waiting:
                self._cancel_header_deadline()

        def connection_lost(self, exc: Exception | None) -> None:
            self._cancel_header_deadline()
            super().connection_lost(exc)

        def _cancel_header_deadline(self) -> None:
            if self.header_deadline is not None:
                self.header_deadline.cancel()
                self.header_deadline = None

        def _headers_too_slow(self) -> None:
            self.header_deadline = None
            if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
                self.transport.close()

    return HeaderTimeoutProtocol


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on `host`:`port` (port 0: one the system picks)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as e:
        raise UserError(f"host {host!r}: cannot be resolved ({e.strerror})") from None
    except UnicodeError:
        raise UserError(
            f"host {host!r}: not a valid host name (an empty or too long label)"
        ) from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as e:
        sock.close()
        raise UserError(f"{host}:{port}: cannot listen there ({e.strerror})") from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock
