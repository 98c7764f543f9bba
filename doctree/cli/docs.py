"""Generate docs/cli.md from the `--help` of every doctree command, and the API reference
from the docstrings.

    .venv/bin/python -m doctree.cli.docs             # rewrite docs/cli.md and doctree/help_text.py
    .venv/bin/python -m doctree.cli.docs --check     # exit 1 if docs/cli.md is out of date
    .venv/bin/python -m doctree.cli.docs --api DIR   # the API reference, as HTML, into DIR
                                                     # (pdoc, from the dev extra; `make api`)

The reference is generated, never edited by hand, so it cannot drift from the code;
tests/project/test_docs.py fails when it is stale.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

WIDTH = 96
DOC = Path(__file__).resolve().parent.parent.parent / "docs" / "cli.md"
REGENERATE = ".venv/bin/python -m doctree.cli.docs"

HEADER = f"""# The `doctree` command

This reference is generated from `doctree --help` and the `--help` of every command by
`{REGENERATE}`; do not edit it by hand.

Paths start at the agent's home `~` (quote them, or the shell expands `~` itself; an
expanded home directory is turned back into `~`). Exit codes: 0 ok, 2 bad input (one
line on stderr, never a traceback), 3 conflict (a precondition failed), 1 other errors.

The database (`--db`, else `$DOCTREE_DB`, else `~/.local/share/doctree/doctree.db`): a
mistyped one is an error, never a new database. Only the commands that add content
(`write`, `import`, `replay`, `worker`, `mcp`) create a SQLite file that does not exist,
and only in a folder that exists; the default database's folder is the one made for you on
the first write. Every other command needs the database to exist (exit 2, naming it). A
`scheme:` other than `postgresql://` or `postgres://` is refused (exit 2; write
`./name:x.db` for a file whose name has a colon). A PostgreSQL server that cannot be
reached is one line and exit 1; one that restarts while a command runs is reconnected to
(see docs/scaling.md).
"""


def _settings(cmd: click.Command) -> dict:
    """The command's own context settings, at a fixed width so the output is stable."""
    return {**cmd.context_settings, "terminal_width": WIDTH, "max_content_width": WIDTH}


def _help(cmd: click.Command, ctx: click.Context) -> str:
    return cmd.get_help(ctx).rstrip()


def _walk(cmd: click.Command, ctx: click.Context, out: list[str]) -> None:
    """Sections for `cmd` and, for a group, every subcommand (sorted by name)."""
    path = ctx.command_path
    out.append(f"## `{path}`\n\n```text\n{_help(cmd, ctx)}\n```\n")
    if isinstance(cmd, click.Group):
        for name in sorted(cmd.list_commands(ctx)):
            sub = cmd.get_command(ctx, name)
            if sub is None or sub.hidden:
                continue
            sub_ctx = click.Context(sub, info_name=name, parent=ctx, **_settings(sub))
            _walk(sub, sub_ctx, out)


def render() -> str:
    """The whole of docs/cli.md for the commands registered now."""
    from doctree.cli import cli

    ctx = click.Context(cli, info_name="doctree", **_settings(cli))
    sections: list[str] = []
    _walk(cli, ctx, sections)
    names = [
        n
        for n in sorted(cli.list_commands(ctx))
        if not getattr(cli.get_command(ctx, n), "hidden", False)
    ]
    index = "Commands: " + ", ".join(f"[`{n}`](#doctree-{n})" for n in names) + ".\n"
    return HEADER + "\n" + index + "\n" + "\n".join(sections)


PACKAGE = Path(__file__).resolve().parent.parent


def api_modules() -> list[str]:
    """The modules to give pdoc: every package, which brings its modules along, except a
    package with a lazy `__all__` (the front doors `doctree`, `doctree.store`): pdoc would
    show only its names, which are defined and documented in its modules, so those modules
    are named one by one instead."""

    def lazy(package: Path) -> bool:
        init = package / "__init__.py"
        return init.exists() and "__all__" in init.read_text(encoding="utf-8")

    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "__main__.py" or "__pycache__" in path.parts:
            continue
        folder = path.parent
        if path.name == "__init__.py":
            # a package: given when nothing above brings it (its parent is lazy) and it is
            # not lazy itself
            given = not lazy(folder) and (folder == PACKAGE or lazy(folder.parent))
        else:
            given = lazy(folder)  # a module: given when its package does not bring it
        if given:
            parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
            names.append(".".join(p for p in parts if p != "__init__"))
    return names


def write_api(out: Path) -> int:
    try:
        import pdoc
        import pdoc.render
    except ImportError:
        print("error: pdoc is not installed (pip install -e '.[dev]')", file=sys.stderr)
        return 2
    pdoc.render.configure(docformat="markdown")
    try:
        pdoc.pdoc(*api_modules(), output_directory=out)
    except OSError as e:
        print(f"error: --api {str(out)!r}: cannot write there ({e.strerror})", file=sys.stderr)
        return 2
    print(f"wrote {out / 'index.html'}")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if "-h" in args or "--help" in args:
        print(__doc__.strip())
        return 0
    if args[:1] == ["--api"]:
        if len(args) != 2:
            print("error: --api needs one folder, e.g. --api .api", file=sys.stderr)
            return 2
        return write_api(Path(args[1]))
    unknown = [a for a in args if a != "--check"]
    if unknown:
        print(f"error: unknown argument {unknown[0]!r} (see --help)", file=sys.stderr)
        return 2
    text = render()
    if "--check" in args:
        current = DOC.read_text(encoding="utf-8") if DOC.exists() else ""
        if current != text:
            print(f"{DOC} is out of date; regenerate it with: {REGENERATE}", file=sys.stderr)
            return 1
        return 0
    DOC.parent.mkdir(parents=True, exist_ok=True)
    DOC.write_text(text, encoding="utf-8")
    print(f"wrote {DOC}")
    # The text `doctree --help` prints without click comes from the same commands.
    from doctree.cli.lazy import write_help_text

    write_help_text()
    print("wrote doctree/help_text.py")
    return 0


if __name__ == "__main__":
    sys.exit(main())
