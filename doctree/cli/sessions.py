"""Commands over sessions and the memory worker: sessions, transcript, worker."""

from __future__ import annotations

import json
import signal
import sys
import time
from typing import Any

import click

from doctree.cli import Int, State, cli, emit_json
from doctree.cli.options import model_server_options

pass_state = click.pass_obj

STATES = ("open", "pending", "failing", "processed", "exempt")


def _sessions(state: State):
    from doctree.sessions.repository import SessionsRepository

    return SessionsRepository(state.repo.conn)


def _db_path(state: State) -> str:
    from doctree.store.db import default_db_path

    return str(state.db_path or default_db_path())


@cli.command("sessions")
@click.option(
    "--state", "state_filter", type=click.Choice(STATES), help="Only sessions in this state."
)
@click.option(
    "--of",
    "of",
    metavar="AGENT",
    help="Only sessions of this agent descriptor: an agent id, or 'memory-agent:ID'.",
)
@click.option("--limit", type=Int(min=1), default=50, show_default=True)
@click.option(
    "--all",
    "show_all",
    is_flag=True,
    help="Also list the memory agents' own sessions (state exempt), which are left out "
    "unless --state exempt or --of memory-agent:ID asks for them.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the sessions as JSON.")
@pass_state
def sessions_cmd(
    state: State,
    state_filter: str | None,
    of: str | None,
    limit: int,
    show_all: bool,
    as_json: bool,
) -> None:
    """List sessions, newest first, with their memory state.

    The memory agents' own sessions (exempt) are listed only with --all.

    \b
    States:
      open       collecting records; not yet due for the memory worker
      pending    invalidated: the worker will hand its new records over
      failing    pending, but the last attempt failed (see ERROR; retried later)
      processed  every record has been handed to the memory agent
      exempt     a memory agent's own session: never collected
    """
    asked = show_all or state_filter == "exempt" or (of or "").startswith("memory-agent:")
    infos = _sessions(state).list_sessions(
        agent=of, state=state_filter, limit=limit, include_exempt=asked
    )
    if as_json:
        emit_json([i.to_dict() for i in infos])
        return
    if not infos:
        click.echo("no sessions" + (f" in state {state_filter!r}" if state_filter else ""))
        return
    rows = [("SESSION", "OWNER", "STATE", "RECORDS", "NEW", "MARK", "DONE TO", "ERROR")]
    for i in infos:
        s = i.session
        error = ""
        if s.last_error:
            wait = max(0.0, (s.retry_at or 0) - time.time())
            error = f"{s.failures}x, retry in {wait:.0f}s: {s.last_error}"
            error = error[:70] + ("…" if len(error) > 70 else "")
        rows.append(
            (
                s.id,
                str(s.agent) if s.agent.type != "agent" else s.agent.owner,
                i.state,
                str(i.records),
                str(i.unprocessed),
                "" if s.invalidated_at is None else str(s.invalidated_at),
                "" if s.processed_until is None else str(s.processed_until),
                error,
            )
        )
    widths = [max(len(r[c]) for r in rows) for c in range(len(rows[0]) - 1)]
    for r in rows:
        click.echo("  ".join(v.ljust(w) for v, w in zip(r, widths, strict=False)) + "  " + r[-1])


@cli.command("transcript")
@click.argument("session_id")
@click.option(
    "--new",
    "only_new",
    is_flag=True,
    help="Only the records not yet handed to the memory agent (what the worker would send).",
)
@pass_state
def transcript_cmd(state: State, session_id: str, only_new: bool) -> None:
    """Print a session's history as a markdown transcript (docs/transcripts.md)."""
    from doctree.sessions.transcripts import format_transcript

    sessions = _sessions(state)
    s = sessions.require(session_id)
    records = sessions.history(s.id, after_id=s.processed_until if only_new else None)
    click.echo(format_transcript(records, owner=s.agent.owner, session_id=s.id), nl=False)


@cli.command("worker")
@click.option("--once", is_flag=True, help="Run one tick and exit.")
@click.option(
    "--interval",
    type=click.FloatRange(min=0, min_open=True),
    default=30.0,
    show_default=True,
    help="Seconds between ticks.",
)
@click.option(
    "--batch",
    type=Int(min=1),
    default=10,
    show_default=True,
    help="At most this many sessions per tick.",
)
@click.option(
    "--backend",
    "handler",
    metavar="BACKEND",
    default="auto",
    show_default=True,
    help="The memory agent ($DOCTREE_BACKEND when not given): auto (anthropic when "
    "ANTHROPIC_API_KEY is set, else offline; the same rule as `replay` and the library), "
    "offline, anthropic, openai (an OpenAI-compatible server at OPENAI_BASE_URL; openai:MODEL "
    "names its model), replay:CASSETTE (the memory agent runtime), jobs:FILE[:DELAY] (append "
    "each job to FILE as a JSON line, no model) or python:MODULE:ATTR. auto says on stderr "
    "which it picked.",
)
@model_server_options
@click.option(
    "--lease-ttl",
    type=click.FloatRange(min=0, min_open=True),
    default=60.0,
    show_default=True,
    help="Seconds a session lease lasts without renewal (a crashed worker's is taken over after; "
    "at least 0.25: it is renewed every quarter of it).",
)
@click.option(
    "--retry-base",
    type=click.FloatRange(min=0),
    default=30.0,
    show_default=True,
    help="Seconds before the first retry of a failing session; doubles per failure (max 1 h).",
)
@click.option(
    "--compact/--no-compact",
    default=True,
    show_default=True,
    help="After each memory-agent run, compact the agent's memory if it grew past its threshold.",
)
@click.option("--json", "as_json", is_flag=True, help="Print each tick's result as a JSON line.")
@click.option("-v", "--verbose", is_flag=True, help="Log every session handed over to stderr.")
@pass_state
def worker_cmd(
    state: State,
    once: bool,
    interval: float,
    batch: int,
    handler: str,
    base_url: str | None,
    context_window: int | None,
    lease_ttl: float,
    retry_base: float,
    compact: bool,
    as_json: bool,
    verbose: bool,
) -> None:
    """Run the memory worker: hand pending sessions to the memory agent every INTERVAL s.

    SIGINT or SIGTERM stops it after the session in hand (a second one aborts that session;
    its lease is released and it stays pending). Several workers may share one database.
    While a PostgreSQL server is away it retries with backoff, one log line per attempt,
    and carries on once the server is back.
    """
    import logging

    from doctree.cli.options import on_command_line, open_with_backend
    from doctree.compose import build_handler, build_worker
    from doctree.logs import setup

    setup(logging.INFO if verbose else logging.WARNING)
    settings = state.settings(
        db=str(_db_path(state)),
        backend=on_command_line("handler", handler),
        base_url=base_url,
        context_window=context_window,
    )
    repo = open_with_backend(state, settings, handlers=True)
    # no API key, too small a window: one line, exit 2, before any tick
    the_handler = build_handler(repo, settings, check=True)
    worker = build_worker(
        settings,
        the_handler,
        compact=compact,
        interval=interval,
        batch=batch,
        lease_ttl=lease_ttl,
        retry_base=retry_base,
    )

    def on_signal(signum: int, frame: Any) -> None:
        if worker.stopping:
            raise KeyboardInterrupt
        worker.request_stop()
        click.echo(
            f"worker: {signal.Signals(signum).name}: stopping after the session in hand", err=True
        )

    previous = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}

    def on_tick(result) -> None:
        if as_json:
            click.echo(json.dumps(result.to_dict()))
        elif result.found or once:
            click.echo(
                f"tick: {result.found} pending, {len(result.processed)} processed, "
                f"{len(result.raced)} still pending (new records), {len(result.exempt)} exempt, "
                f"{len(result.skipped)} skipped, {len(result.failed)} failed, "
                f"{result.records} records handed over"
                + (f", {len(result.lost)} lost their lease" if result.lost else "")
                + (f", {len(result.orphans)} orphaned run(s) reverted" if result.orphans else ""),
                err=not once,
            )

    if not once:
        click.echo(
            f"worker {worker.holder}: every {interval:g}s, {batch} sessions per tick, "
            f"backend {settings.backend}",
            err=True,
        )
    try:
        worker.run(once=once, on_tick=on_tick)
    except KeyboardInterrupt:
        click.echo("worker: aborted; the session in hand stays pending", err=True)
        sys.exit(130)
    finally:
        for s, h in previous.items():
            signal.signal(s, h)
        worker.close()
        if hasattr(the_handler, "close"):
            the_handler.close()  # a replay backend's loopback server
    if not once:
        click.echo("worker: stopped", err=True)
