"""A command group that imports a command's module only when that command runs.

`doctree --help` lists every command from `COMMANDS` (its module and the first sentence of
its help) without importing any command module, and `doctree read PATH` imports only
`doctree.cli.documents`. `tests/cli/test_cli_startup.py` checks the table against the commands
themselves; after adding or renaming a command or changing the first sentence of its help,
print the table afresh and paste it below:

    .venv/bin/python -c 'from doctree.cli.lazy import print_table; print_table()'

The console entry point (`doctree.console`) prints `doctree --help` without even this
group: from `doctree/help_text.py`, written here from the group (`write_help_text`, also run
by `python -m doctree.cli.docs`) and checked against click's rendering by
tests/cli/test_console.py.
"""

from __future__ import annotations

import importlib

import click

# name: (module under doctree.cli, first sentence of the help)
COMMANDS: dict[str, tuple[str, str]] = {
    "blame": (
        "provenance",
        "Each line of the document at PATH with the version, time, actor, session and run that introduced it.",
    ),
    "compact": ("memory", "Condense the subtree PATH into PATH/compacted now."),
    "consolidate": (
        "memory",
        "Roll a week of session pages into ~/memory/archive/WEEK and prune ~/memory/active.",
    ),
    "context": ("memory", "Print the agent's memory as it would go into a prompt."),
    "diff": ("documents", "Unified diff of PATH between FROM_VERSION and TO_VERSION."),
    "edit": ("documents", "Replace the exact text OLD with NEW in the document at PATH."),
    "export": (
        "interop",
        "Write the subtree at PATH into DIRECTORY as markdown files with YAML frontmatter.",
    ),
    "forget": (
        "interop",
        "Erase PATTERN (plain text unless --regex) from memory, its history and sessions.",
    ),
    "history": ("documents", "List every version of the document at PATH, oldest first."),
    "import": (
        "interop",
        "Import a folder of markdown files: a doctree export, an Obsidian vault, or an Anthropic memory directory.",
    ),
    "links": ("documents", "References from the document at PATH (out) and to it (back)."),
    "log": ("documents", "The change log of the subtree at PATH, newest first."),
    "mcp": ("interop", "Serve the tree to an MCP client over stdio."),
    "mv": ("documents", "Move the document at PATH, with its subtree, to NEW_PATH."),
    "read": (
        "documents",
        "Print the body of the document at PATH (current, a version, or as of a time).",
    ),
    "redact": (
        "interop",
        "Erase SPAN from every version of the document at PATH, and from the sessions.",
    ),
    "replay": (
        "replay",
        "Replay TRANSCRIPTS through the live path and show what the memory agent changed.",
    ),
    "restore": (
        "documents",
        "Restore VERSION of the document at PATH as a new version (undeletes it if deleted).",
    ),
    "revert": ("agent", "Put back every document a run changed, never overwriting later work."),
    "rm": ("documents", "Delete the document at PATH."),
    "run-show": (
        "agent",
        "One run: what it was given, how it ended, its usage, and the versions it made.",
    ),
    "runs": (
        "agent",
        "Memory agent runs, newest first: backend, outcome, usage, cost and changes.",
    ),
    "search": (
        "documents",
        "Search titles, bodies and paths by words or meaning, best first, with snippets.",
    ),
    "serve": ("web", "A web inspector over the agent's memory."),
    "sessions": ("sessions", "List sessions, newest first, with their memory state."),
    "show": ("documents", "Show the tree at PATH with titles, version numbers and sizes."),
    "transcript": (
        "sessions",
        "Print a session's history as a markdown transcript (docs/transcripts.md).",
    ),
    "worker": (
        "sessions",
        "Run the memory worker: hand pending sessions to the memory agent every INTERVAL s.",
    ),
    "write": (
        "documents",
        "Create or replace the document at PATH with a body from stdin or --file.",
    ),
}


# Every module that registers commands (those of the table and any not in it yet).
MODULES = ("agent", "documents", "interop", "memory", "provenance", "replay", "sessions", "web")


class LazyGroup(click.Group):
    """A group whose commands come from `COMMANDS`, each module imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(COMMANDS) | set(self.commands))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands:
            if cmd_name in COMMANDS:
                # The module registers its commands on the group as it is imported.
                importlib.import_module(f"doctree.cli.{COMMANDS[cmd_name][0]}")
            else:  # a command missing from the table still runs (only a typo pays for this)
                self.load_all()
        return self.commands.get(cmd_name)

    def load_all(self) -> None:
        """Import every command module (for tools that walk all the commands)."""
        for name in MODULES:
            importlib.import_module(f"doctree.cli.{name}")

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list of --help, from the table: no command module is imported."""
        names = [n for n in self.list_commands(ctx) if n in COMMANDS or not self.commands[n].hidden]
        if not names:
            return
        limit = formatter.width - 6 - max(len(n) for n in names)
        rows = []
        for name in names:
            loaded = self.commands.get(name)
            if loaded is not None:
                rows.append((name, loaded.get_short_help_str(limit)))
            else:  # the same shortening click applies to a loaded command's help
                rows.append(
                    (name, click.Command(name, help=COMMANDS[name][1]).get_short_help_str(limit))
                )
        with formatter.section("Commands"):
            formatter.write_dl(rows)


def command_table(group: LazyGroup) -> dict[str, tuple[str, str]]:
    """The table as the loaded commands say it should be (hidden commands left out)."""
    group.load_all()
    return {
        name: (
            cmd.callback.__module__.rsplit(".", 1)[1],
            click.Command(name, help=cmd.help).get_short_help_str(10**9),
        )
        for name, cmd in sorted(group.commands.items())
        if not cmd.hidden
    }


def print_table() -> None:
    """Print `COMMANDS` as the loaded commands say it should be, to paste above."""
    cli = importlib.import_module("doctree.cli").cli  # the group this module serves

    print("COMMANDS: dict[str, tuple[str, str]] = {")
    for name, (module, short) in command_table(cli).items():
        print(f"    {name!r}: ({module!r}, {short!r}),")
    print("}")


#: The terminal width `doctree.help_text` is rendered for: click renders help alike on any
#: terminal at least this wide (and when there is none).
HELP_COLUMNS = 80


def rendered_help_text(group: click.Group | None = None) -> dict[str, str]:
    """`doctree --help` and `doctree --version` (as `HELP` and `VERSION`) as click renders
    them for `group` (default: doctree's) on a terminal of `HELP_COLUMNS` columns: what
    `doctree.help_text` must hold."""
    from click.testing import CliRunner

    cli = group or importlib.import_module("doctree.cli").cli
    rendered = {}
    for name, option in (("HELP", "--help"), ("VERSION", "--version")):
        result = CliRunner().invoke(
            cli, [option], prog_name="doctree", terminal_width=HELP_COLUMNS - 2
        )
        if result.exit_code != 0:
            raise RuntimeError(f"doctree {option} exited with {result.exit_code}: {result.output}")
        rendered[name] = result.output
    return rendered


def write_help_text() -> None:
    """Write `doctree/help_text.py` afresh from the command tree."""
    import os

    lines = [
        '"""What `doctree --help` and `doctree --version` print, as click renders them on a',
        "terminal of 80 columns or more: `doctree.console` prints it without importing click.",
        "",
        "Generated: do not edit. After changing the command tree (a command added, renamed or",
        "its help changed), write it afresh with docs/cli.md (tests/cli/test_console.py fails",
        "until then):",
        "",
        "    .venv/bin/python -m doctree.cli.docs",
        '"""',
        "",
    ]
    lines.append(f"COLUMNS = {HELP_COLUMNS}  # the text applies on a terminal this wide or wider")
    lines += [f"{name} = {_literal(text)}" for name, text in rendered_help_text().items()]
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(package, "help_text.py"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def _literal(text: str) -> str:
    """`text` as a Python string literal, in double quotes where that needs no escape (the
    quotes ruff's formatter would choose, so a written file stays formatted)."""
    literal = repr(text)
    if literal.startswith("'") and '"' not in text:  # then text holds no ' either
        literal = f'"{literal[1:-1]}"'
    return literal
