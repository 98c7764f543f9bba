"""Where text came from: `doctree blame PATH` (each line with the version that introduced
it), and the past of `doctree search` (`--at TIME`, `--all-versions`)."""

from __future__ import annotations

import click

from doctree.cli import DOC_PATH, State, cli, emit_json

pass_state = click.pass_obj


@cli.command()
@click.argument("path", type=DOC_PATH)
@click.option(
    "--version", type=click.IntRange(min=1), help="Blame this version (default: the current one)."
)
@click.option("--json", "as_json", is_flag=True, help="Print every line with its origin as JSON.")
@pass_state
def blame(state: State, path: str, version: int | None, as_json: bool) -> None:
    """Each line of the document at PATH with the version, time, actor, session and run
    that introduced it. Follows the document across moves; a restored line keeps its
    first author.

    \b
      doctree blame ~/memory/projects/apollo
      doctree blame ~/memory/projects/apollo --version 3 --json
    """
    from doctree.store.blame import blame as blame_doc

    result = blame_doc(state.repo, state.owner, path, version=version)
    if as_json:
        emit_json(result.to_dict())
        return
    width = len(str(len(result.lines)))
    for line in result.lines:
        o = line.origin
        who = o.actor + (f" run {o.run_id}" if o.run_id is not None else "")
        click.echo(
            f"v{o.version:<4} {o.created_at[:19]} {who[:28]:<28} {line.number:>{width}}| {line.text}"
        )


def print_version_hits(
    state: State,
    query: str,
    under: str,
    limit: int,
    at: str | None,
    all_versions: bool,
    as_json: bool,
) -> None:
    """`doctree search --at / --all-versions`: hits in past versions, with who and when."""
    from doctree.store.timetravel import search_at, search_versions

    if all_versions or at is None:
        hits = search_versions(state.repo, state.owner, query, under=under, until=at, limit=limit)
    else:
        hits = search_at(state.repo, state.owner, query, at, under=under, limit=limit)
    if as_json:
        emit_json([h.to_dict() for h in hits])
        return
    if not hits:
        click.echo("no matches")
    for h in hits:
        now = " (deleted)" if h.deleted else ""
        if h.current_path and h.current_path != h.path and not h.deleted:
            now = f" (now {h.current_path})"
        also = ""
        if len(h.versions) > 1:
            also = f" (same text in v{', v'.join(str(n) for n in h.versions[1:])})"
        snippet = " ".join(h.snippet.split())
        click.echo(
            f"{h.path}@{h.version}{now}  {h.created_at[:19]} by {h.actor}{also}\n    {snippet}"
        )
