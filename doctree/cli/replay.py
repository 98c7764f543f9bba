"""`doctree replay`: feed transcripts through the live path and show what memory changed.

Each transcript becomes a session of its agent: its records are appended as history (so
the 6th record invalidates it, by the real rule), the session is put to sleep at its end
(invalidating it like an idle agent), and a worker tick hands it to the memory agent. A
transcript whose records the session already holds is not appended twice.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click

from doctree.cli import State, cli, emit_json, read_regular_file
from doctree.cli.options import model_server_options
from doctree.errors import ConflictError, UserError

MAX_TICKS = 100


@dataclass
class ReplayOutcome:
    """What replaying one transcript did: the session, its history, the runs and changes."""

    source: str
    owner: str
    session_id: str
    messages: int
    appended: int = 0
    skipped: int = 0  # records the session already held
    runs: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None
    pending: bool = False  # still invalidated after the ticks (e.g. waiting for a retry)

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


class _Collecting:
    """The worker's handler: the memory agent runtime, keeping each run's result."""

    def __init__(self, runtime: Any):
        self.runtime = runtime
        self.results: list[tuple[Any, Any]] = []

    def handle(self, job: Any) -> Any:
        result = self.runtime.handle(job)
        self.results.append((job, result))
        return result


def runtime_for(repo: Any, model: str, **options: Any) -> Any:
    """The memory agent runtime for `--backend`: offline, anthropic, openai[:MODEL], auto,
    replay:CASSETTE or record:CASSETTE (read by `parse_backend`). A backend that cannot run
    (no API key, no cassette, too small a context window) fails here."""
    from doctree.agent.runtime import MemoryAgentRuntime, parse_backend

    try:
        choice = parse_backend(model)
    except UserError as e:
        raise UserError(f"--backend {model!r}: {str(e).partition(': ')[2]}") from None
    if choice.name == "replay" and choice.cassette is None:
        name = "record" if model.startswith("record") else "replay"
        raise UserError(f"--backend {model}: give the cassette, e.g. --backend {name}:FILE")
    runtime = MemoryAgentRuntime(repo, backend=model, **options)
    check_runtime(runtime, model)  # says what auto picked; a missing key fails here
    return runtime


def check_runtime(runtime: Any, requested: str) -> None:
    """Say (stderr) which backend `auto` picked and why; make a backend that cannot run (no
    API key) fail here, as one line, before any session is touched."""
    from doctree.agent.runtime import auto_choice_note

    note = auto_choice_note(requested)
    if note is not None:
        click.echo(note, err=True)
    if runtime.backend != "offline":
        runtime.client()


def _same(record: Any, message: Any) -> bool:
    return (record.kind, record.time, record.content) == (
        message.kind,
        message.time,
        message.content,
    )


def append_transcript(sessions: Any, transcript: Any, agent: str) -> tuple[int, int]:
    """Append the transcript's records the session does not hold yet; returns
    (appended, skipped). The session must belong to `agent`, and its history must be the
    start of the transcript (or hold all of it)."""
    s = sessions.ensure(agent, transcript.session_id, created_at=transcript.started)
    existing = sessions.history(s.id)
    messages = list(transcript.messages)
    held = 0
    for record, message in zip(existing, messages, strict=False):
        if not _same(record, message):
            raise UserError(
                f"session {s.id!r}: its history differs from the transcript at record "
                f"{held + 1} ({record.kind} at {record.time}); replay it under another session id"
            )
        held += 1
    if held < len(existing):
        raise UserError(
            f"session {s.id!r}: holds {len(existing)} records, more than the transcript's "
            f"{len(messages)}; replay it under another session id"
        )
    # one transaction, one session lookup and one count for the whole transcript
    sessions.append_many(s.id, ((m.kind, m.content, m.time) for m in messages[held:]))
    return len(messages) - held, held


def replay_one(
    repo: Any,
    sessions: Any,
    worker: Any,
    handler: _Collecting,
    text: str,
    *,
    source: str,
    owner: str | None = None,
) -> ReplayOutcome:
    """Replay one transcript through session, history, sleep, worker tick, memory agent, as
    `owner`'s (None: the agent the transcript names)."""
    from doctree.sessions.transcripts import parse_transcript

    transcript = parse_transcript(text, source=source)
    owner = owner or transcript.owner
    outcome = ReplayOutcome(source, owner, transcript.session_id, len(transcript.messages))
    try:
        outcome.appended, outcome.skipped = append_transcript(sessions, transcript, owner)
    except ConflictError as e:
        raise UserError(f"{source}: {e}") from None
    sessions.sleep(transcript.session_id)
    handler.results.clear()
    for _ in range(MAX_TICKS):
        tick = worker.tick()
        if transcript.session_id in tick.failed:
            outcome.error = sessions.require(transcript.session_id).last_error
            break
        pending = sessions.require(transcript.session_id).invalidated_at is not None
        if not pending or not (tick.processed or tick.raced or tick.exempt):
            break
    for job, result in handler.results:
        outcome.runs.append(_run_dict(repo, job, result))
    s = sessions.require(transcript.session_id)
    outcome.pending = s.invalidated_at is not None
    if outcome.pending and outcome.error is None and s.last_error:
        outcome.error = f"waiting for a retry after: {s.last_error}"
    return outcome


def _run_dict(repo: Any, job: Any, result: Any) -> dict[str, Any]:
    run = result.run
    versions = repo.log(job.owner, "~", run_id=run.id, limit=None)
    changes = [
        {"path": v.path, "operation": v.operation, "version": v.version}
        for v in sorted(versions, key=lambda v: v.id)
    ]
    return {
        "run_id": run.id,
        "session_id": job.session_id,
        "owner": job.owner,
        "records": [job.first_history_id, job.last_history_id],
        "backend": run.backend,
        "model": run.model,
        "status": run.status,
        "stop_reason": run.stop_reason,
        "turns": run.turns,
        "tool_calls": run.tool_calls,
        "tool_errors": run.tool_errors,
        "usage": {
            "input_tokens": run.input_tokens,
            "output_tokens": run.output_tokens,
            "cache_read_tokens": run.cache_read_tokens,
            "cache_write_tokens": run.cache_write_tokens,
            "cost_usd": run.cost_usd,
        },
        "changes": changes,
        "notes": list(getattr(result.summary, "notes", None) or []),
    }


def _given(ctx: click.Context | None, name: str) -> bool:
    """Whether the option `name` of `ctx` was given (on the command line or in the
    environment) rather than left at its default."""
    from click.core import ParameterSource

    return ctx is not None and ctx.get_parameter_source(name) in (
        ParameterSource.COMMANDLINE,
        ParameterSource.ENVIRONMENT,
    )


def _print_outcome(o: ReplayOutcome) -> None:
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
    "--backend",
    "model",
    default="auto",
    show_default=True,
    metavar="BACKEND",
    help="The memory agent's backend: auto (anthropic when ANTHROPIC_API_KEY is set, else "
    "offline; the same rule as `worker`), offline, anthropic, openai (an OpenAI-compatible "
    "server at OPENAI_BASE_URL; openai:MODEL names its model), replay:CASSETTE (serve a "
    "recording) or record:CASSETTE (record one from ANTHROPIC_BASE_URL).",
)
@model_server_options
@click.option("--json", "as_json", is_flag=True, help="Print the outcome as JSON.")
@click.pass_context
def replay(
    ctx: click.Context,
    transcripts: tuple[str, ...],
    model: str,
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
    from doctree.sessions.repository import SessionsRepository
    from doctree.store.paths import validate_owner
    from doctree.worker.worker import MemoryWorker

    state: State = ctx.obj
    owner = state.owner if _given(ctx.parent, "owner") else None
    if owner is not None:
        validate_owner(owner)
    texts = [(name, read_transcript(name)) for name in transcripts]
    repo = state.repo
    runtime = runtime_for(repo, model, base_url=base_url, context_window=context_window)
    handler = _Collecting(runtime)
    sessions = SessionsRepository(repo.conn)
    worker = MemoryWorker(repo.conn, handler=handler)
    outcomes: list[ReplayOutcome] = []
    try:
        with click.progressbar(
            texts,
            label="replaying",
            file=sys.stderr,
            item_show_func=lambda item: Path(item[0]).name if item else None,
        ) as bar:
            for name, text in bar:
                outcomes.append(
                    replay_one(repo, sessions, worker, handler, text, source=name, owner=owner)
                )
    finally:
        worker.close()
        runtime.close()
    if as_json:
        emit_json([o.to_dict() for o in outcomes])
    else:
        for o in outcomes:
            _print_outcome(o)
    failed = [o for o in outcomes if o.error]
    if failed:
        raise click.exceptions.Exit(1)
