"""`doctree serve`: the web inspector (and MCP over HTTP with --mcp)."""

from __future__ import annotations

import click

from doctree.cli import DOC_PATH, State, cli

pass_state = click.pass_obj


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind.")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True)
@click.option(
    "--token",
    envvar="DOCTREE_TOKEN",
    help="Require this token on every request (also $DOCTREE_TOKEN); needed beyond loopback. "
    "At least 128 bits: 22 random url-safe characters or 32 hex digits.",
)
@click.option("--mcp", is_flag=True, help="Also serve the MCP tools over streamable HTTP at /mcp.")
@click.option(
    "--under",
    default="~",
    type=DOC_PATH,
    show_default=True,
    help="With --mcp: confine the MCP tools to this subtree.",
)
@click.option(
    "--header-timeout",
    type=click.FloatRange(0.1, 3600),
    default=10.0,
    show_default=True,
    metavar="SECONDS",
    help="Close a connection that has not sent a whole request line and headers by then.",
)
@pass_state
def serve(
    state: State,
    host: str,
    port: int,
    token: str | None,
    mcp: bool,
    under: str,
    header_timeout: float,
) -> None:
    """A web inspector over the agent's memory. Its home is what the memory agent learned:
    every run, newest first, with its changes as diffs and a revert for the run (previewed
    first) and for each document; then the tree, pages with their provenance, links and
    backlinks, history, diffs, blame, search across time, runs and sessions.

    Loopback only unless --token (or $DOCTREE_TOKEN) is set; with a token every request
    must carry it: open the inspector once with ?token=TOKEN (that opens a session, a
    cookie signed with the token, for this port only), or send 'Authorization: Bearer
    TOKEN'. A token under 128 bits is refused. Pages may not be framed, run no script and
    load no image from elsewhere (see docs/inspector.md).
    While the database is unavailable (a PostgreSQL server restarting, a lock held past the
    busy timeout) pages answer 503 with Retry-After; the inspector reconnects on its own.

    \b
      doctree serve                      # http://127.0.0.1:8765/
      doctree serve --mcp                # plus MCP at http://127.0.0.1:8765/mcp
      export DOCTREE_TOKEN=$(python -c 'import secrets; print(secrets.token_urlsafe(32))')
      doctree serve --host 0.0.0.0
    """
    from doctree.logs import setup
    from doctree.web import serve as run_server

    setup()
    db = str(state.database())  # an existing database: the inspector never creates one

    def announce(bound: int) -> None:
        mcp_note = f" (MCP at http://{host}:{bound}/mcp)" if mcp else ""
        click.echo(
            f"doctree inspector on http://{host}:{bound}/{mcp_note}; Ctrl-C stops it", err=True
        )

    run_server(
        db,
        state.owner,
        host=host,
        port=port,
        token=token,
        mcp=mcp,
        mcp_under=under,
        on_start=announce,
        header_timeout=header_timeout,
    )
