"""Commands for memory within budget: context, compact, consolidate."""

from __future__ import annotations

import click

from doctree.cli import DOC_PATH, Int, State, cli, emit_json, require_given_path
from doctree.cli.confirm import confirm, yes_option
from doctree.cli.options import all_owners_option

pass_state = click.pass_obj


@cli.command()
@click.option("--query", help="Put what is most relevant to this text first (or only).")
@click.option(
    "--cap",
    type=Int(min=0),
    metavar="CHARS",
    help="Whole documents, at most this many characters.  [default: 8000]",
)
@click.option(
    "--words",
    type=Int(min=0),
    metavar="N",
    help="Passage mode: the passages most relevant to --query, at most N words "
    "(headers included), instead of whole documents.",
)
@click.option(
    "--under",
    type=DOC_PATH,
    default="~/memory",
    show_default=True,
    help="Load documents at or below this path.",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print JSON: the documents (path, version, title, chars) or, with --words, the "
    "passages (path, version, seq, speaker, day, score, words, text) and the recalled "
    "passages (session_id, time, speaker, score, words, text), and the text.",
)
@pass_state
def context(
    state: State,
    query: str | None,
    cap: int | None,
    words: int | None,
    under: str,
    as_json: bool,
) -> None:
    """Print the agent's memory as it would go into a prompt.

    Whole documents (the default): most recently changed first, or with --query the
    documents whose passages best match it first; separated by '---'; stopping before
    the first document that would pass --cap (a document is never cut).

    With --query, what was said in past sessions follows the pages, word for word, under
    '# Said in sessions', each session headed by its id and date.

    Passages (--words N, needs --query): only the passages most relevant to the query,
    at most N words: those of the pages first, grouped under a '## <path> (<date>)'
    header per document, then the verbatim passages of past sessions.

    \b
      doctree context --cap 4000
      doctree context --query "when is the Apollo launch"
      doctree context --query "when is the Apollo launch" --words 200
      doctree context --query "what does Bob do" --words 500 --json
    """
    from doctree.memory.context import check_context_args

    require_given_path(state, "under", under)
    check_context_args(query=query, cap=cap, words=words, flag="--")
    if words is not None and query:
        _passages(state, query, words, under, as_json)
        return
    from doctree.memory.context import DEFAULT_CAP, SEPARATOR, memories, render_document

    cap = DEFAULT_CAP if cap is None else cap
    docs, said = memories(state.repo, state.owner, cap=cap, query=query, under=under)
    text = SEPARATOR.join([*(render_document(d) for d in docs), *([said] if said else [])])
    if as_json:
        emit_json(
            {
                "mode": "documents",
                "query": query,
                "cap": cap,
                "chars": len(text),
                "documents": [
                    {
                        "path": d.path,
                        "version": d.version,
                        "title": d.title,
                        "chars": len(render_document(d)),
                    }
                    for d in docs
                ],
                "recalled_chars": len(said),
                "text": text,
            }
        )
    elif text:
        click.echo(text)


def _passages(state: State, query: str, words: int, under: str, as_json: bool) -> None:
    """`doctree context --words N`: the passages of the pages, then the verbatim passages of
    past sessions, for the query (`doctree.memory.recall.blend`)."""
    from doctree.memory.recall import blend

    ctx, said = blend(state.repo, state.owner, query, budget_words=words, under=under)
    if as_json:
        emit_json(
            {
                "mode": "passages",
                "query": query,
                "budget_words": words,
                "words": ctx.words,
                "left_out": ctx.left_out,
                "passages": [
                    {
                        "path": p.path,
                        "version": p.version,
                        "seq": p.seq,
                        "speaker": p.speaker,
                        "day": p.day,
                        "score": round(p.score, 4),
                        "words": p.words,
                        "text": p.text,
                    }
                    for p in ctx.passages
                ],
                "recalled": [
                    {
                        "session_id": p.session_id,
                        "time": p.time,
                        "speaker": p.speaker,
                        "score": round(p.score, 4),
                        "words": p.words,
                        "text": p.text,
                    }
                    for p in said.passages
                ],
                "text": ctx.text,
            }
        )
        return
    if ctx.left_out:
        click.echo(
            f"note: {ctx.left_out} document(s) changed since the passage index was last "
            "updated were not searched (the database could not be written)",
            err=True,
        )
    if ctx.text:
        click.echo(ctx.text)


@cli.command()
@click.argument("path", default="~/memory", type=DOC_PATH)
@click.option(
    "--backend",
    type=click.Choice(["auto", "offline", "anthropic"]),
    default="auto",
    show_default=True,
    help="anthropic: the compaction agent on the Messages API; offline: lossless (drops only "
    "repeated lines). auto: anthropic when ANTHROPIC_API_KEY is set, else offline (the rule "
    "of every command).",
)
@click.option(
    "--if-over",
    "if_over",
    type=Int(min=0),
    metavar="BYTES",
    help="Only compact when PATH holds more than BYTES.",
)
@click.option(
    "--include-hand-written",
    is_flag=True,
    help="Also condense pages written by hand (by a person, an import or the agent itself); "
    "by default they are left alone and listed as skipped.",
)
@click.option(
    "--whole-memory",
    is_flag=True,
    help="Allow PATH to be the memory root ~/memory (or ~): every page below it goes into one. "
    "Refused without it.",
)
@all_owners_option("Every owner in the database, not only --owner (for cron, with --if-over).")
@click.option(
    "--dry-run", is_flag=True, help="Show which documents would be condensed; change nothing."
)
@yes_option
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@pass_state
def compact(
    state: State,
    path: str,
    backend: str,
    if_over: int | None,
    include_hand_written: bool,
    whole_memory: bool,
    all_owners: bool,
    dry_run: bool,
    yes: bool,
    as_json: bool,
) -> None:
    """Condense the subtree PATH into PATH/compacted now.

    Documents are retired (deleted, history kept) only if still at the version the pass
    started from; the condensed document links to every one. Pages written by hand are
    skipped unless --include-hand-written. The memory root ~/memory is refused unless
    --whole-memory. One compaction per agent at a time: if another process is compacting,
    this one skips. A failure changes nothing. Each pass is a run: `doctree revert --run N`
    puts every condensed page back and removes the condensed one.

    In a terminal it shows which documents would be condensed and asks; give --yes in
    scripts.

    \b
      doctree compact ~/memory/archive --dry-run
      doctree compact ~/memory/projects --backend offline --json --yes
      doctree compact --whole-memory --all-owners --if-over 40000 --yes   # from cron
    """
    from doctree.errors import DoctreeError
    from doctree.memory.compaction import CompactionPolicy, Compactor, check_scope

    if not all_owners:
        require_given_path(state, "path", path)
    check_scope(path, whole_memory=whole_memory)
    policy = CompactionPolicy.from_env()
    policy.under = path
    if if_over is not None:
        policy.threshold, policy.thresholds = if_over, {}
    compactor = Compactor(state.repo, condenser=backend, policy=policy)
    owners = state.repo.owners() if all_owners else [state.owner]
    plans = {
        owner: compactor.snapshot(owner, path, include_hand_written=include_hand_written)
        for owner in owners
    }
    if not confirm(
        "compact",
        lambda: _compact_preview(plans, path, if_over),
        yes=yes,
        dry_run=dry_run,
        changes=any(len(docs) + (prev is not None) >= 2 for docs, prev, _ in plans.values()),
        quiet=as_json,
    ):
        if as_json:
            emit_json(
                {
                    owner: [d.path for d in docs] + ([prev.path] if prev else [])
                    for owner, (docs, prev, _) in plans.items()
                }
            )
        return
    results = []
    for owner in owners:
        if if_over is not None:
            results.append(
                compactor.maybe_compact(owner, path, include_hand_written=include_hand_written)
            )
        else:
            results.append(
                compactor.compact(
                    owner,
                    path,
                    include_hand_written=include_hand_written,
                    whole_memory=whole_memory,
                )
            )
    if as_json:
        emit_json([r.to_dict() for r in results] if all_owners else results[0].to_dict())
    else:
        for r in results:
            click.echo(_describe(r, path, all_owners))
    failed = [r for r in results if r.status == "failed"]
    if failed:
        raise DoctreeError(
            f"compaction of {path} failed for {', '.join(r.owner for r in failed)}, "
            f"nothing changed: {failed[0].error}"
        )


def _compact_preview(plans: dict, path: str, if_over: int | None) -> list[str]:
    """What `compact` would condense, per owner (see `doctree.cli.confirm`)."""
    from doctree.interop.render import human_size
    from doctree.memory.compaction import condensed_path

    target = condensed_path(path)
    when = f" if it holds more than {if_over:,} bytes" if if_over is not None else ""
    lines = []
    for owner, (docs, previous, skipped) in plans.items():
        size = sum(len(d.body.encode("utf-8")) for d in docs)
        lines.append(
            f"compact would condense {len(docs)} document(s) of {owner!r} under {path} "
            f"({human_size(size)}){when} into {target}, and retire them (deleted, history "
            f"kept; `doctree revert --run N` puts them back):"
        )
        lines.extend(f"  {d.path}  {human_size(len(d.body.encode('utf-8')))}" for d in docs[:12])
        if len(docs) > 12:
            lines.append(f"  ... and {len(docs) - 12} more")
        if previous is not None:
            lines.append(f"  {previous.path} (the earlier condensed document, folded in)")
        if skipped:
            lines.append(
                f"  left alone: {len(skipped)} page(s) written by hand "
                "(--include-hand-written condenses them too)"
            )
    return lines


def _describe(result, path: str, named: bool) -> str:
    who = f"{result.owner}: " if named else ""
    skipped = ""
    if result.skipped:
        shown = ", ".join(result.skipped[:5]) + (", ..." if len(result.skipped) > 5 else "")
        skipped = (
            f"\n{who}skipped {len(result.skipped)} page(s) written by hand: {shown} "
            "(--include-hand-written condenses them too)"
        )
    if result.status == "compacted":
        undo = f"; undo: doctree revert --run {result.run_id}" if result.run_id else ""
        return (
            f"{who}compacted {path}: {len(result.retired)} document(s) retired, "
            f"{len(result.kept)} kept (changed during the pass); "
            f"{result.size_before:,} -> {result.size_after:,} bytes; "
            f"{result.condensed_path} is at version {result.condensed_version}{undo}"
        ) + skipped
    if result.status == "failed":
        return f"{who}compaction of {path} failed, nothing changed: {result.error}"
    why = {
        "skipped": "another process is compacting this agent's memory",
        "below-threshold": f"{result.size_before:,} bytes (or what is new in it) is under "
        "the threshold",
        "nothing": "fewer than two documents to condense",
        "no-gain": "the condensed text would save less than a quarter (the offline condenser "
        "only drops repeated lines)",
    }[result.status]
    return f"{who}nothing compacted in {path}: {why}" + skipped


@cli.command()
@click.option(
    "--week",
    metavar="YYYY-Www",
    help="The ISO week to consolidate, e.g. 2026-W47. Default: last week.",
)
@click.option("--keep-active", is_flag=True, help="Do not prune the week's lines from active.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@pass_state
def consolidate(state: State, week: str | None, keep_active: bool, as_json: bool) -> None:
    """Roll a week of session pages into ~/memory/archive/WEEK and prune ~/memory/active.

    Safe to run from cron: a second run for the same week changes nothing.

    \b
      doctree consolidate --week 2026-W47
      0 3 * * 1  doctree consolidate      # every Monday, last week
    """
    from doctree.memory.tiers import consolidate as run
    from doctree.memory.tiers import last_week

    result = run(state.repo, state.owner, week or last_week(), prune_active=not keep_active)
    if as_json:
        emit_json(result.to_dict())
    elif result.changed:
        click.echo(
            f"consolidated {result.week} into {result.archive_path}: "
            f"{len(result.rolled)} session page(s) rolled in, "
            f"{result.pruned_active_lines} line(s) moved out of active"
        )
    else:
        click.echo(f"nothing to consolidate for {result.week}")
