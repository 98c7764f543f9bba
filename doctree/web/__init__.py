"""`doctree serve`: a web inspector over one agent's memory, and MCP over streamable HTTP.

`create_app` (doctree.web.app) builds the ASGI application; `serve` runs it on uvicorn.
"""

from __future__ import annotations

import ipaddress
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
    on_start: Callable[[], None] | None = None,
) -> None:
    """Run the inspector on uvicorn until interrupted. Beyond loopback a token is required.
    `on_start` is called once the settings are accepted, just before the server starts."""
    import uvicorn

    from doctree.web.app import create_app

    loopback = is_loopback(host)
    if not loopback and not token:
        raise UserError(
            f"host {host!r}: serving beyond loopback needs a token "
            "(pass --token or set DOCTREE_TOKEN)"
        )
    app = create_app(db, owner, token=token, mcp=mcp, mcp_under=mcp_under, loopback=loopback)
    if on_start is not None:
        on_start()
    uvicorn.run(app, host=host.strip("[]"), port=port, log_level=log_level, lifespan="on")
