"""Commands for the doors other tools use: mcp, export, import, redact, forget."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from doctree.cli import DOC_PATH, Int, State, cli, emit_json, user_actor
from doctree.cli.confirm import confirm, yes_option

F = TypeVar("F", bound=Callable[..., Any])

pass_state = click.pass_obj


class McpCommand(click.Command):
    """`doctree mcp`, whose help lists the server's tools from the tool registry itself, so
    the list cannot drift from what the server offers (read only when help is shown)."""

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        from doctree.interop.mcp_server import TOOL_SPECS

        saved = self.help
        self.help = (saved or "").replace("{tools}", ", ".join(TOOL_SPECS))
        try:
            super().format_help_text(ctx, formatter)
        finally:
            self.help = saved


@cli.command(cls=McpCommand)
@click.option(
    "--under",
    default="~",
    type=DOC_PATH,
    show_default=True,
    help="Serve only this subtree of the owner's home (e.g. ~/memory).",
)
@click.option("--actor-id", help="Id recorded as the actor of changes (default: the owner).")
@pass_state
def mcp(state: State, under: str, actor_id: str | None) -> None:
    """Serve the tree to an MCP client over stdio.

    Tools: {tools}. Resources: every document as doctree:///PATH (the tree, and a template
    for any path). Prompts: recall (the memory that bears on a question).

    \b
    Claude Code:
      claude mcp add doctree -- doctree --db ~/doctree.db --owner main mcp
    """
    from doctree.interop.mcp_server import serve_stdio
    from doctree.logs import setup
    from doctree.store.documents import Actor
    from doctree.store.paths import normalize_path

    setup()
    actor = Actor("agent", actor_id or state.owner)
    serve_stdio(state.repo, state.owner, under=normalize_path(under), actor=actor)


@cli.command("export")
@click.argument("path", type=DOC_PATH)
@click.argument("directory", type=click.Path(file_okay=False))
@click.option(
    "--force",
    is_flag=True,
    help="Also overwrite files in DIRECTORY that no export wrote, or edited since.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the written files as JSON.")
@pass_state
def export_cmd(state: State, path: str, directory: str, force: bool, as_json: bool) -> None:
    """Write the subtree at PATH into DIRECTORY as markdown files with YAML frontmatter.

    Each document becomes NAME.md (frontmatter: id, path, version, title, links, updated,
    sha256, then the body's own properties, in one block); a document with children also
    gets a NAME/ folder. NAME is the title when it names the same path segment ('Alice
    Smith' for alice-smith, so Obsidian links find it), else the segment. `doctree import
    DIRECTORY` brings it back exactly. A file an earlier export wrote is overwritten while it is
    as that export wrote it; one edited since (its body no longer has its frontmatter's sha256),
    or any other file in the way, stops the export before it writes anything (unless --force):
    import the edit first.

    \b
      doctree export ~/memory backup/
    """
    from doctree.interop.exchange import export_tree

    report = export_tree(state.repo, state.owner, path, directory, force=force)
    if as_json:
        emit_json({"directory": str(report.directory), "files": [str(f) for f in report.files]})
    else:
        click.echo(f"exported {len(report.files)} document(s) to {report.directory}")


@cli.command("import")
@click.argument("directory", type=click.Path(file_okay=False))
@click.option(
    "--under",
    default="~",
    type=DOC_PATH,
    show_default=True,
    help="Put the folder's contents below this path.",
)
@click.option(
    "--if-unchanged",
    is_flag=True,
    help="Replace a document only if it is still as exported (its sha256); else exit 3, "
    "writing nothing.",
)
@click.option("--dry-run", is_flag=True, help="Show what would change; change nothing.")
@yes_option
@click.option("--json", "as_json", is_flag=True, help="Print what was imported as JSON.")
@pass_state
def import_cmd(
    state: State,
    directory: str,
    under: str,
    if_unchanged: bool,
    dry_run: bool,
    yes: bool,
    as_json: bool,
) -> None:
    """Import a folder of markdown files: a doctree export, an Obsidian vault, or an
    Anthropic memory directory.

    NAME.md becomes the document NAME and a folder NAME/ its children. Plain names become
    their slug, the name kept as the title ('People/Alice Smith.md' -> people/alice-smith);
    an exported file goes back to its document. In plain markdown, [[wiki]] links (with
    |label, #heading, ![[embeds]]) and relative links become references. Hidden folders
    (.obsidian) and binary files are skipped and listed. Symlinks out of the folder are
    refused; nothing is written unless everything can be. Importing the same folder again
    changes nothing. An import that would replace documents already there (each keeps its
    history) lists them and asks first; give --yes in scripts.

    \b
      doctree import backup/
      doctree import ~/vault --under ~/notes
      doctree import ./memory/memories --under ~/memory
    """
    from doctree.interop.exchange import import_tree

    def run(dry: bool):
        return import_tree(
            state.repo,
            state.owner,
            directory,
            under=under,
            actor=user_actor(),
            if_unchanged=if_unchanged,
            dry_run=dry,
        )

    plan = run(True)
    if not confirm(
        "import",
        lambda: _import_preview(plan, directory),
        yes=yes,
        dry_run=dry_run,
        changes=bool(plan.modified),
        quiet=as_json,
    ):
        if as_json:
            emit_json(plan.to_dict())
        return
    report = run(False)
    if as_json:
        emit_json(report.to_dict())
        return
    click.echo(
        f"imported {directory}: {len(report.created)} created, {len(report.modified)} modified, "
        f"{len(report.unchanged)} unchanged, {len(report.skipped)} skipped"
    )
    for f, reason in report.skipped:
        click.echo(f"  skipped {f}: {reason}")


def _import_preview(plan, directory: str) -> list[str]:
    """What an import would change, for its preview (see `doctree.cli.confirm`)."""
    lines = [
        f"import {directory} would replace {len(plan.modified)} document(s) already there "
        "(each keeps its history; `restore` brings a version back):",
        *(f"  {path}" for path in plan.modified),
        f"  and create {len(plan.created)}, leave {len(plan.unchanged)} unchanged, "
        f"skip {len(plan.skipped)}",
    ]
    return lines


def _erase_preview(report, command: str) -> list[str]:
    """What an erasure would change, for its preview (see `doctree.cli.confirm`)."""
    from doctree.cli.confirm import highlight

    lines = [f"{command} {report.pattern!r} would replace each match by {report.marker}:"]
    for h in report.hits:
        what = []
        if h.versions:
            what.append("versions " + ", ".join(f"v{n}" for n in h.versions) + " rewritten")
        if h.new_version is not None:
            what.append(f"new current version v{h.new_version}")
        if h.renamed:
            what.append("path or title rewritten")
        note = " (deleted)" if h.deleted else ""
        lines.append(f"  {h.path}{note}: {'; '.join(what)}")
    lines.append(
        f"  {report.rewritten} version(s) in {len(report.hits)} document(s), "
        f"{report.history_records} session history record(s), "
        f"{report.recall_passages} recall passage(s), {report.runs} run error(s)"
    )
    if report.examples:
        lines.append("  for example:")
        lines.extend(f"    {e.where}: {highlight(e.line, e.spans)}" for e in report.examples)
    if report.inside_words:
        words = ", ".join(f"{w} ({n})" for w, n in report.inside_words)
        lines.append(f"  left as they are, the text inside longer words: {words}")
        lines.append("  (to erase those too, give a --regex that says so)")
    return lines


def _erase_result(report, verb: str) -> None:
    for h in report.hits:
        what = ", ".join(f"v{n}" for n in h.versions) or "no body"
        if h.new_version is not None:
            what += f"; now v{h.new_version}"
        note = " (deleted)" if h.deleted else ""
        note += " (path or title rewritten)" if h.renamed else ""
        click.echo(f"{verb} {h.path}{note} {what}")
    new = sum(1 for h in report.hits if h.new_version is not None)
    click.echo(
        f"{verb} {report.rewritten} version(s) in {len(report.hits)} document(s) "
        f"({new} new version(s)); {report.history_records} session history record(s), "
        f"{report.recall_passages} recall passage(s), {report.runs} run error(s)"
    )
    if report.note:
        click.echo(f"note: {report.note}", err=True)


def _erase_options(what: str) -> Callable[[F], F]:
    """The options `redact` and `forget` share; `what` names the argument they match."""

    def apply(f: F) -> F:
        for option in reversed(
            (
                click.option(
                    "--regex", is_flag=True, help=f"{what} is a Python regular expression."
                ),
                click.option(
                    "-i", "--ignore-case", is_flag=True, help=f"Match {what} regardless of case."
                ),
                click.option(
                    "--dry-run", is_flag=True, help="Show what would change; change nothing."
                ),
                yes_option,
                click.option("--json", "as_json", is_flag=True, help="Print the report as JSON."),
            )
        ):
            f = option(f)
        return f

    return apply


def _plan_and_erase(
    run: Callable[[bool], Any],
    verb: str,
    nothing: str,
    done: str,
    *,
    yes: bool,
    dry_run: bool,
    as_json: bool,
) -> None:
    """Plan an erasure (`run(True)`), show it and ask (or not: --yes, --dry-run), then
    carry it out (`run(False)`) and report: `nothing` when nothing matched, else what was
    `done`."""
    plan = run(True)
    if not confirm(
        verb,
        lambda: _erase_preview(plan, verb),
        yes=yes,
        dry_run=dry_run,
        changes=plan.changes_anything,
        quiet=as_json,
    ):
        if as_json:
            emit_json(plan.to_dict())
        return
    report = run(False) if plan.changes_anything else plan
    if as_json:
        emit_json(report.to_dict())
    elif not report.changes_anything:
        click.echo(nothing)
    else:
        _erase_result(report, done)


@cli.command()
@click.argument("path", type=DOC_PATH)
@click.argument("span", required=False)
@click.option(
    "--whole-version",
    "whole_version",
    type=Int(min=1),
    metavar="N",
    help="Erase the whole content of version N instead of a span (its body and title).",
)
@_erase_options("SPAN")
@pass_state
def redact(
    state: State,
    path: str,
    span: str | None,
    whole_version: int | None,
    regex: bool,
    ignore_case: bool,
    dry_run: bool,
    yes: bool,
    as_json: bool,
) -> None:
    """Erase SPAN from every version of the document at PATH, and from the sessions.

    Each match of SPAN (plain text unless --regex; across a line break or other spacing
    between its words) is replaced by `[redacted]`: a new
    current version holds the page with the span replaced, every older version that held
    it is rewritten in place with only the span replaced, and the agent's session history
    and recall record get the same. Everything else stays byte for byte. Other documents
    are left alone (`forget` reaches every document).

    --whole-version N erases the whole content of version N instead: its body and title
    go, the fact of the change stays, and a `redacted` version records who erased it
    (redacting the current version empties the document); the passages of past sessions
    that hold one of its sentences (five words or more) are erased too.

    In a terminal it shows what would change and asks; give --yes in scripts.

    \b
      doctree redact ~/memory/people/alice "12 Mill Lane" --dry-run
      doctree redact ~/memory/people/alice "12 Mill Lane"
      doctree redact ~/notes --whole-version 3 --yes
    """
    from doctree.errors import UserError
    from doctree.memory import erase

    if (span is None) == (whole_version is None):
        raise UserError("redact: give SPAN (the text to erase) or --whole-version N, and not both")
    if whole_version is not None:
        _redact_whole_version(state, path, whole_version, dry_run, yes, as_json)
        return
    assert span is not None  # one of the two (above)

    def run(dry: bool):
        return erase.redact(
            state.repo,
            state.owner,
            path,
            span,
            regex=regex,
            ignore_case=ignore_case,
            dry_run=dry,
            actor=user_actor(),
        )

    _plan_and_erase(
        run,
        "redact",
        f"{span!r} is not in {path} nor in the sessions: nothing changed",
        "redacted",
        yes=yes,
        dry_run=dry_run,
        as_json=as_json,
    )


def _redact_whole_version(
    state: State, path: str, version: int, dry_run: bool, yes: bool, as_json: bool
) -> None:
    from doctree.memory.erase import redact_version

    target = state.repo.read(state.owner, path, version=version)
    head = (target.body or "").splitlines()[:3]

    def preview() -> list[str]:
        lines = [
            f"redact --whole-version would erase the body and title of {target.path} "
            f"version {version} ({target.size} bytes), starting:"
        ]
        return lines + [f"    {line}" for line in head]

    if not confirm("redact", preview, yes=yes, dry_run=dry_run, changes=True, quiet=as_json):
        if as_json:
            emit_json({"path": target.path, "version": version, "dry_run": True})
        return
    v, erased = redact_version(state.repo, state.owner, path, version, actor=user_actor())
    if as_json:
        emit_json(
            {**{k: x for k, x in v.to_dict().items() if k != "body"}, "recall_passages": erased}
        )
    else:
        click.echo(
            f"redacted {v.path} version {version}; recorded as version {v.version} by {v.actor}"
        )
        if erased:
            click.echo(f"erased {erased} passage(s) of past sessions it came from")


@cli.command()
@click.argument("pattern")
@click.option(
    "--under",
    default="~",
    type=DOC_PATH,
    show_default=True,
    help="Only documents that lived at or below this path.",
)
@_erase_options("PATTERN")
@pass_state
def forget(
    state: State,
    pattern: str,
    under: str,
    regex: bool,
    ignore_case: bool,
    dry_run: bool,
    yes: bool,
    as_json: bool,
) -> None:
    """Erase PATTERN (plain text unless --regex) from memory, its history and sessions.

    Plain text matches across a line break or other spacing between its words, and
    as whole words: "Ann" takes "Ann" and "Ann's", not "Annual" or "Joanna" (the
    preview lists such longer words it leaves). Exactly the matched text goes, replaced by `[forgotten]`: a document whose current
    body holds it gets a new current version with each match replaced; every older
    version that holds it is rewritten in place with only the match replaced; titles,
    and the agent's session history, run errors and recall record get the same; a path
    segment holding it (or, for plain text, its slug: "Ana Lima" in ana-lima) has the
    matched part replaced by `forgotten-<id>`, and links to it follow. Everything else
    stays byte for byte. One transaction; then the indexes are cleaned and the database
    vacuumed so no copy stays.

    In a terminal it shows what would change and asks; give --yes in scripts.

    \b
      doctree forget "12 Mill Lane" --dry-run
      doctree forget "12 Mill Lane"
      doctree forget --regex "sk-[A-Za-z0-9]{20,}" --under ~/memory --yes
    """
    from doctree.memory.erase import forget as run_forget

    def run(dry: bool):
        return run_forget(
            state.repo,
            state.owner,
            pattern,
            under=under,
            regex=regex,
            ignore_case=ignore_case,
            dry_run=dry,
            actor=user_actor(),
        )

    _plan_and_erase(
        run,
        "forget",
        f"{pattern!r} is nowhere in memory: nothing changed",
        "forgot",
        yes=yes,
        dry_run=dry_run,
        as_json=as_json,
    )
