"""Commands over memory agent runs: `doctree runs` lists them, `doctree run-show N` shows one,
`doctree revert --run N` puts back what one changed.

A run is one transcript handed to the memory agent of an owner. Review what a run
changed with `doctree log --run N` and `doctree diff --run N`.
"""

from __future__ import annotations

import click

from doctree.cli import Int, State, cli, emit_json, user_actor
from doctree.cli.confirm import confirm, yes_option
from doctree.cli.options import all_owners_option

pass_state = click.pass_obj


def cut(text: str, width: int) -> str:
    """`text` in at most `width` characters; a longer one is cut with an ellipsis."""
    return text if len(text) <= width else text[: width - 1] + "…"


def _tokens(n: int) -> str:
    return f"{n / 1000:.1f}k" if n >= 1000 else str(n)


def _changes(state: State, run) -> list:
    return state.repo.log(run.owner, "~", run_id=run.id, limit=None)


@cli.command()
@click.option("--session", "session_id", help="Only runs on this source session.")
@click.option(
    "--status",
    type=click.Choice(["running", "completed", "stopped", "failed"]),
    help="Only runs that ended this way.",
)
@click.option("--limit", type=Int(min=1), default=20, show_default=True)
@all_owners_option("Runs for every owner, not just --owner.")
@click.option("--json", "as_json", is_flag=True, help="Print the runs as JSON.")
@pass_state
def runs(
    state: State,
    session_id: str | None,
    status: str | None,
    limit: int,
    all_owners: bool,
    as_json: bool,
) -> None:
    """Memory agent runs, newest first: backend, outcome, usage, cost and changes.

    The runs for --owner's memory; with --all-owners every run, the OWNER column saying
    whose memory each one wrote. STATUS is `review` while documents a revert of the run
    could not put back wait for a person (`run-show N` lists them; `needs_review` in
    --json), `reverted` once its changes were put back.

    \b
      doctree runs
      doctree runs --status failed --all-owners
      doctree log --run 3        # the versions run 3 made
    """
    from doctree.store.runs import Runs

    rows = Runs(state.repo.conn).list(
        owner=None if all_owners else state.owner,
        session_id=session_id,
        status=status,
        limit=limit,
    )
    counts = state.repo.versions_per_run([r.id for r in rows])
    reviews = Runs(state.repo.conn).reviews([r.id for r in rows])
    if as_json:
        emit_json(
            [
                {
                    **r.to_dict(),
                    "changes": counts.get(r.id, 0),
                    "needs_review": [v.to_dict() for v in reviews.get(r.id, [])],
                }
                for r in rows
            ]
        )
        return
    if not rows:
        who = "any owner" if all_owners else f"owner {state.owner!r}"
        click.echo(f"no runs for {who}")
        return
    click.echo(
        f"{'run':>4}  {'owner':<10} {'session':<28} {'backend':<9} {'status':<9} "
        f"{'stop':<14} {'turns':>5} {'in':>7} {'out':>6} {'cache r/w':>13} {'cost $':>8} "
        f"{'changes':>7}"
    )
    for r in rows:
        cache = f"{_tokens(r.cache_read_tokens)}/{_tokens(r.cache_write_tokens)}"
        click.echo(
            f"{r.id:>4}  {cut(r.owner, 10):<10} {cut(r.session_id or '-', 28):<28} "
            f"{cut(r.backend, 9):<9} {_state(r, reviews):<9} "
            f"{cut(r.stop_reason or '-', 14):<14} {r.turns:>5} "
            f"{_tokens(r.input_tokens):>7} {_tokens(r.output_tokens):>6} {cache:>13} "
            f"{r.cost_usd:>8.4f} {counts.get(r.id, 0):>7}"
        )


def _state(run, reviews: dict) -> str:
    """A run's status column: `review` while documents its revert could not put back wait
    for a person, `reverted` once put back, else how it ended."""
    if reviews.get(run.id):
        return "review"
    return "reverted" if run.reverted_at else run.status


@cli.command("run-show")
@click.argument("run_id", type=Int(min=1))
@click.option("--json", "as_json", is_flag=True, help="Print the run and its changes as JSON.")
@pass_state
def run_show(state: State, run_id: int, as_json: bool) -> None:
    """One run: what it was given, how it ended, its usage, and the versions it made.

    \b
      doctree run-show 3
      doctree diff --run 3
    """
    from doctree.store.runs import Runs

    run = Runs(state.repo.conn).get(run_id)
    versions = list(reversed(_changes(state, run)))
    reviews = Runs(state.repo.conn).reviews([run.id]).get(run.id, [])
    if as_json:
        emit_json(
            {
                **run.to_dict(),
                "needs_review": [v.to_dict() for v in reviews],
                "changes": [
                    {"path": v.path, "operation": v.operation, "version": v.version}
                    for v in versions
                ],
            }
        )
        return
    records = ""
    if run.first_history_id is not None:
        records = f" (history records {run.first_history_id}-{run.last_history_id})"
    lines = [
        f"run {run.id}: {run.definition} for owner {run.owner!r}",
        f"  session:   {run.session_id or '-'}{records}",
        f"  own log:   session {run.memory_session_id or '-'}",
        f"  backend:   {run.backend} ({run.model})",
        f"  outcome:   {run.status}, stop reason {run.stop_reason or '-'}",
        f"  started:   {run.started_at}",
        f"  ended:     {run.ended_at or '-'}",
        f"  turns:     {run.turns}; tool calls {run.tool_calls} ({run.tool_errors} errors)",
        f"  tokens:    input {run.input_tokens}, output {run.output_tokens}, "
        f"cache read {run.cache_read_tokens}, cache write {run.cache_write_tokens}",
        f"  cost:      ${run.cost_usd:.4f}",
    ]
    if run.reverted_at:
        lines.append(f"  reverted:  {run.reverted_at} by {run.reverted_by}")
    if reviews:
        lines.append(f"  needs review ({len(reviews)}): its revert could not put these back")
        lines.extend(f"    {v.path}: {v.reason}" for v in reviews)
    if run.error:
        first, _, rest = run.error.partition("\n")
        lines.append(f"  error:     {first}")
        lines.extend(f"             {ln}" for ln in rest.splitlines())
    lines.append(f"changes ({len(versions)}):")
    lines.extend(f"  {v.operation:<9} {v.path} v{v.version}" for v in versions)
    click.echo("\n".join(lines))


@cli.command()
@click.option("--run", "run_id", type=Int(min=1), required=True, help="The run to revert.")
@click.option("--dry-run", is_flag=True, help="Show what would be put back; write nothing.")
@click.option("--force", is_flag=True, help="Revert a run still marked running (its process died).")
@click.option(
    "--lines",
    is_flag=True,
    help="For documents changed since the run: take out only the run's own lines, keeping "
    "the later changes; where those touched the same lines, flag the document for review.",
)
@click.option(
    "--keep-changed",
    is_flag=True,
    help="Put back the rest and keep documents changed since the run as they are.",
)
@yes_option
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@pass_state
def revert(
    state: State,
    run_id: int,
    dry_run: bool,
    force: bool,
    lines: bool,
    keep_changed: bool,
    yes: bool,
    as_json: bool,
) -> None:
    """Put back every document a run changed, never overwriting later work.

    A document the run changed goes back to its version before the run, one it created
    is deleted, one it deleted is restored, one it moved is moved back (if its old path is
    free). Each change is a new version; reverting twice changes nothing more.

    A document someone changed after the run (a shared page such as ~/memory/active) is
    never overwritten: the revert stops (exit 3) and names them, unless --lines (take out
    only the run's own lines; documents where a later change touched them are flagged for
    review, see `doctree runs`) or --keep-changed (leave them as they are). --dry-run shows
    them either way.

    In a terminal it shows what it would put back and asks; give --yes in scripts.

    \b
      doctree revert --run 3 --dry-run
      doctree revert --run 3          # shows the same, then asks (--yes in scripts)
      doctree revert --run 3 --lines --yes
      doctree log --run 3        # what run 3 had written
    """
    from doctree.errors import ConflictError, UserError
    from doctree.memory.revert import revert_run

    if lines and keep_changed:
        raise UserError("--lines and --keep-changed: give one (see doctree revert --help)")
    plan = revert_run(
        state.repo,
        run_id,
        actor=user_actor(),
        dry_run=True,
        force=force,
        lines=lines,
        keep_changed=keep_changed,
    )
    if not (dry_run or lines or keep_changed) and plan.changed_since:
        shown = ", ".join(f"{i.path} (by {i.changed_since})" for i in plan.changed_since[:5]) + (
            ", ..." if len(plan.changed_since) > 5 else ""
        )
        raise ConflictError(
            f"run {run_id}: {len(plan.changed_since)} document(s) changed since the run: "
            f"{shown}; nothing was reverted. --lines takes out only the run's own lines, "
            "--keep-changed leaves them as they are"
        )
    if not confirm(
        "revert",
        lambda: _revert_lines(plan, run_id),
        yes=yes,
        dry_run=dry_run,
        changes=bool(plan.reverted or plan.review),
        quiet=as_json,
    ):
        if as_json:
            emit_json(plan.to_dict())
        return
    report = revert_run(
        state.repo,
        run_id,
        actor=user_actor(),
        force=force,
        lines=lines,
        keep_changed=keep_changed,
    )
    if as_json:
        emit_json(report.to_dict())
        return
    click.echo("\n".join(_revert_lines(report, run_id)))


def _revert_lines(report, run_id: int) -> list[str]:
    would = "would put back" if report.dry_run else "put back"
    lines = [
        f"run {run_id} (owner {report.owner!r}): {would} {len(report.reverted)}, "
        f"kept {len(report.kept)}, for review {len(report.review)}, "
        f"unchanged {len(report.unchanged)}"
    ]
    if report.already_reverted_at:
        lines.append(f"  (already reverted at {report.already_reverted_at})")
    for item in report.reverted:
        where = item.path
        if item.before_path and item.before_path != item.path:
            where = f"{item.path} -> {item.before_path}"
        lines.append(f"  {'+'.join(item.actions):<18} {where}  ({item.reason or 'by the run'})")
    for item in report.kept:
        lines.append(f"  {'kept':<18} {item.path}  ({item.reason})")
    for item in report.review:
        lines.append(f"  {'needs review':<18} {item.path}  ({item.reason})")
    for item in report.unchanged:
        lines.append(f"  {'unchanged':<18} {item.path}  ({item.reason})")
    return lines
