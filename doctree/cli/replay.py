"""`doctree replay`: feed transcripts through the live path and show what memory changed.

The pipeline is `doctree.worker.replay.Replayer`, built by `doctree.compose.replay_pipeline`
(the library's entry point for the same thing); this command reads files and prints.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from doctree.cli import State, cli, emit_json, read_regular_file
from doctree.cli.options import (
    BACKEND_HELP,
    model_server_options,
    on_command_line,
    open_with_backend,
)


def _given(ctx: click.Context | None, name: str) -> bool:
    """Whether the option `name` of `ctx` was given (on the command line or in the
    environment) rather than left at its default."""
    from click.core import ParameterSource

    return ctx is not None and ctx.get_parameter_source(name) in (
        ParameterSource.COMMANDLINE,
        ParameterSource.ENVIRONMENT,
    )


def _print_outcome(o: Any) -> None:
    held = f", {o.skipped} already held" if o.skipped else ""
    click.echo(
        f"{o.source}: session {o.session_id} of owner {o.owner}: "
        f"{o.appended} record(s) appended{held}"
    )
    if o.error:
        click.echo(f"  memory agent failed: {o.error}")
    if not o.runs and not o.error:
        if o.pending:
            click.echo("  no run: the session is pending, held by another worker")
        else:
            click.echo("  no run: nothing new to hand over (already replayed)")
    for r in o.runs:
        u = r["usage"]
        click.echo(
            f"  run {r['run_id']} ({r['backend']}, {r['status']}, {r['stop_reason']}): "
            f"{r['turns']} turn(s), {r['tool_calls']} tool call(s), "
            f"{len(r['changes'])} version(s); tokens in {u['input_tokens']} out "
            f"{u['output_tokens']} cache read {u['cache_read_tokens']} write "
            f"{u['cache_write_tokens']}, ${u['cost_usd']:.4f}"
        )
        for note in r["notes"]:
            click.echo(f"    note: {note}")
        width = max((len(c["path"]) for c in r["changes"]), default=0)
        for c in r["changes"]:
            click.echo(f"    {c['path']:<{width}}  {c['operation']:<9} v{c['version']}")


def read_transcript(name: str) -> str:
    """The text of the transcript file `name`: a regular file (a FIFO or a device could
    block or never end: refused before reading) of at most MAX_TRANSCRIPT_BYTES."""
    from doctree.sessions.transcripts import MAX_TRANSCRIPT_BYTES

    rule = (
        f"a transcript is at most {MAX_TRANSCRIPT_BYTES:,} bytes (split a longer one into "
        "several sessions)"
    )
    return read_regular_file(name, f"transcript {name!r}", MAX_TRANSCRIPT_BYTES, rule)


@cli.command()
@click.argument("transcripts", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option(
    "--backend", "backend", metavar="BACKEND", default="auto", show_default=True, help=BACKEND_HELP
)
@model_server_options
@click.option("--json", "as_json", is_flag=True, help="Print the outcome as JSON.")
@click.pass_context
def replay(
    ctx: click.Context,
    transcripts: tuple[str, ...],
    backend: str,
    base_url: str | None,
    context_window: int | None,
    as_json: bool,
) -> None:
    """Replay TRANSCRIPTS through the live path and show what the memory agent changed.

    Each transcript becomes a session (its session id) of the agent it names, or of the
    owner given to the group (--owner or $DOCTREE_OWNER); its records are appended as
    history, the session sleeps (which invalidates it), and a worker tick hands it to the
    memory agent. A transcript already replayed is not appended again. Each transcript
    is a regular file of at most 10,000,000 bytes (a FIFO or a device is refused).

    \b
      doctree replay tests/fixtures/transcripts/*.md
      doctree show ~/memory
      doctree log --run 1
    """
    from doctree.compose import replay_pipeline
    from doctree.store.paths import validate_owner

    state: State = ctx.obj
    owner = state.owner if _given(ctx.parent, "owner") else None
    if owner is not None:
        validate_owner(owner)
    texts = [(name, read_transcript(name)) for name in transcripts]
    settings = state.settings(
        backend=on_command_line("backend", backend),
        base_url=base_url,
        context_window=context_window,
    )
    repo = open_with_backend(state, settings)
    outcomes = []
    # a backend that cannot run (no API key, no cassette) fails here, before any session
    with (
        replay_pipeline(settings, repo) as replayer,
        click.progressbar(
            texts,
            label="replaying",
            file=sys.stderr,
            item_show_func=lambda item: Path(item[0]).name if item else None,
        ) as bar,
    ):
        for name, text in bar:
            outcomes.append(replayer.replay(text, source=name, owner=owner))
    if as_json:
        emit_json([o.to_dict() for o in outcomes])
    else:
        for o in outcomes:
            _print_outcome(o)
    failed = [o for o in outcomes if o.error]
    if failed:
        raise click.exceptions.Exit(1)
