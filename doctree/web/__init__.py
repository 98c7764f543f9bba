"""`doctree serve`: a web inspector over one agent's memory, and MCP over streamable HTTP.

`create_app` (doctree.web.app) builds the ASGI application; `serve` runs it on uvicorn.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable

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
) -> None:
    """Run the inspector on uvicorn until interrupted. Beyond loopback a token is required.
    `on_start` is called with the port listened on (the one the system chose for port 0) once
    the settings are accepted and the socket is bound, just before the server starts."""
    import uvicorn

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
    config = uvicorn.Config(app, log_level=log_level, lifespan="on")
    uvicorn.Server(config).run(sockets=[sock])


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
