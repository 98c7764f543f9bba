"""Commands for the doors other tools use: mcp, export, import, redact, forget."""

from __future__ import annotations

import click

from doctree.cli import DOC_PATH, Int, State, cli, emit_json, user_actor

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
    from doctree.store.documents import Actor
    from doctree.store.paths import normalize_path

    actor = Actor("agent", actor_id or state.owner)
    serve_stdio(state.repo, state.owner, under=normalize_path(under), actor=actor)


@cli.command("export")
@click.argument("path", type=DOC_PATH)
@click.argument("directory", type=click.Path(file_okay=False))
@click.option(
    "--force", is_flag=True, help="Also overwrite files in DIRECTORY that no export wrote."
)
@click.option("--json", "as_json", is_flag=True, help="Print the written files as JSON.")
@pass_state
def export_cmd(state: State, path: str, directory: str, force: bool, as_json: bool) -> None:
    """Write the subtree at PATH into DIRECTORY as markdown files with YAML frontmatter.

    Each document becomes NAME.md (frontmatter: id, path, version, title, links, updated,
    sha256, then the body's own properties, in one block); a document with children also
    gets a NAME/ folder. NAME is the title when it names the same path segment ('Alice
    Smith' for alice-smith, so Obsidian links find it), else the segment. `doctree import
    DIRECTORY` brings it back exactly. A file an earlier export wrote is overwritten; any other file
    in the way stops the export before it writes anything (unless --force).

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
@click.option("--json", "as_json", is_flag=True, help="Print what was imported as JSON.")
@pass_state
def import_cmd(state: State, directory: str, under: str, if_unchanged: bool, as_json: bool) -> None:
    """Import a folder of markdown files: a doctree export, an Obsidian vault, or an
    Anthropic memory directory.

    NAME.md becomes the document NAME and a folder NAME/ its children. Plain names become
    their slug, the name kept as the title ('People/Alice Smith.md' -> people/alice-smith);
    an exported file goes back to its document. In plain markdown, [[wiki]] links (with
    |label, #heading, ![[embeds]]) and relative links become references. Hidden folders
    (.obsidian) and binary files are skipped and listed. Symlinks out of the folder are
    refused; nothing is written unless everything can be. Importing the same folder again
    changes nothing.

    \b
      doctree import backup/
      doctree import ~/vault --under ~/notes
      doctree import ./memory/memories --under ~/memory
    """
    from doctree.interop.exchange import import_tree

    report = import_tree(
        state.repo,
        state.owner,
        directory,
        under=under,
        actor=user_actor(),
        if_unchanged=if_unchanged,
    )
    if as_json:
        emit_json(report.to_dict())
        return
    click.echo(
        f"imported {directory}: {len(report.created)} created, {len(report.modified)} modified, "
        f"{len(report.unchanged)} unchanged, {len(report.skipped)} skipped"
    )
    for f, reason in report.skipped:
        click.echo(f"  skipped {f}: {reason}")


@cli.command()
@click.argument("path", type=DOC_PATH)
@click.argument("version", type=Int(min=1))
@click.option("--json", "as_json", is_flag=True, help="Print the redaction record as JSON.")
@pass_state
def redact(state: State, path: str, version: int, as_json: bool) -> None:
    """Erase the content of VERSION of the document at PATH.

    The fact of the change stays in the history, and a `redacted` version records who
    erased it. Redacting the current version also empties the document. The passages of
    past sessions that hold one of its sentences (five words or more) are erased too.
    """
    from doctree.memory.recall import redact as redact_with_sources

    v, erased = redact_with_sources(state.repo, state.owner, path, version, actor=user_actor())
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
@click.option("--regex", is_flag=True, help="PATTERN is a Python regular expression.")
@click.option("-i", "--ignore-case", is_flag=True, help="Match regardless of case.")
@click.option("--dry-run", is_flag=True, help="Report what would be redacted; change nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@pass_state
def forget(
    state: State,
    pattern: str,
    under: str,
    regex: bool,
    ignore_case: bool,
    dry_run: bool,
    as_json: bool,
) -> None:
    """Erase PATTERN (plain text unless --regex) from memory, its history and sessions.

    Every version whose body holds it is redacted; path segments holding it are renamed
    `redacted-<id>`, titles and the agent's session records get `[redacted]` instead; the
    indexes are cleaned and the database file rewritten so no copy stays. One transaction.

    \b
      doctree forget "4111 1111 1111 1111" --dry-run
      doctree forget --regex "sk-[A-Za-z0-9]{20,}" --under ~/memory
    """
    from doctree.memory.forget import forget as run_forget

    report = run_forget(
        state.repo,
        state.owner,
        pattern,
        under=under,
        regex=regex,
        ignore_case=ignore_case,
        dry_run=dry_run,
        actor=user_actor(),
    )
    if as_json:
        emit_json(report.to_dict())
        return
    if report.recall_passages:
        erased = "would erase" if dry_run else "erased"
        click.echo(f"{erased} {report.recall_passages} passage(s) of past sessions")
    if not report.hits:
        click.echo("no versions match")
        return
    verb = "would redact" if dry_run else "redacted"
    for h in report.hits:
        versions = ", ".join(f"v{n}" for n in h.versions) or "no body"
        note = " (deleted)" if h.deleted else ""
        note += " (path or title renamed)" if h.renamed else ""
        if h.skipped:
            click.echo(f"skipped {h.path}{note} {versions}: {h.skipped}")
        else:
            click.echo(f"{verb} {h.path}{note} {versions}")
    documents = sum(1 for h in report.hits if not h.skipped)
    click.echo(f"{verb} {report.redacted} version(s) in {documents} document(s)")
    if not dry_run and report.history_records:
        click.echo(f"rewrote {report.history_records} session history record(s)")
    if report.note:
        click.echo(f"note: {report.note}", err=True)
