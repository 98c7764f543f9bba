"""The `doctree` command: a thin shell over the library.

Each command parses its options, calls one library function and prints. Heavy modules are
imported inside commands so that `doctree --help` starts fast.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import click

from doctree.errors import ConflictError, DoctreeError, UserError

DEFAULT_AGENT = "main"

EXIT_USER_ERROR = 2
EXIT_CONFLICT = 3


class State:
    """What the group options decided: the database file and the agent (owner)."""

    def __init__(self, db: str | None, agent: str):
        self.db_path = db
        self.agent = agent
        self._repo = None

    @property
    def repo(self):
        if self._repo is None:
            from doctree.store.db import default_db_path
            from doctree.store.documents import DocumentsRepository

            self._repo = DocumentsRepository(self.db_path or default_db_path())
        return self._repo

    def close(self) -> None:
        if self._repo is not None:
            self._repo.close()


class DoctreeGroup(click.Group):
    """Turns doctree's own errors into one-line messages and exit codes, never tracebacks."""

    def main(self, args: Any = None, prog_name: str | None = None, *a: Any, **kw: Any) -> Any:
        """Like click's main, but a usage mistake is one line on stderr and exit 2."""
        if kw.get("standalone_mode", True) is False:
            return super().main(args, prog_name, *a, **kw)
        kw["standalone_mode"] = False
        try:
            rv = super().main(args, prog_name, *a, **kw)
        except click.UsageError as e:
            where = e.ctx.command_path if e.ctx else (prog_name or "doctree")
            click.echo(f"error: {e.format_message()} (see '{where} --help')", err=True)
            sys.exit(EXIT_USER_ERROR)
        except click.ClickException as e:
            e.show()
            sys.exit(e.exit_code)
        except click.Abort:
            click.echo("aborted", err=True)
            sys.exit(1)
        sys.exit(rv if isinstance(rv, int) else 0)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except ConflictError as e:
            click.echo(f"conflict: {e}", err=True)
            ctx.exit(EXIT_CONFLICT)
        except UserError as e:
            click.echo(f"error: {e}", err=True)
            ctx.exit(EXIT_USER_ERROR)
        except DoctreeError as e:
            click.echo(f"error: {e}", err=True)
            ctx.exit(1)


@click.group(cls=DoctreeGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--db",
    envvar="DOCTREE_DB",
    type=click.Path(dir_okay=False),
    help="Database file. Default: $DOCTREE_DB, else ~/.local/share/doctree/doctree.db.",
)
@click.option(
    "--agent",
    envvar="DOCTREE_AGENT",
    default=DEFAULT_AGENT,
    show_default=True,
    help="Agent id whose home '~' paths refer to (also $DOCTREE_AGENT).",
)
@click.version_option(package_name="doctree")
@click.pass_context
def cli(ctx: click.Context, db: str | None, agent: str) -> None:
    """doctree: a versioned document tree for agent memory.

    Every change is a version with its actor; paths start at the agent's home '~'
    (e.g. ~/memory/people/alice). Try:

    \b
      doctree show ~/memory
      echo "# Alice" | doctree write ~/memory/people/alice
      doctree history ~/memory/people/alice

    Exit codes: 0 ok, 2 bad input, 3 conflict (a precondition failed), 1 other errors.
    """
    from doctree.store.paths import validate_owner

    try:
        validate_owner(agent)
    except UserError as e:
        raise click.BadParameter(str(e), param_hint="--agent") from None
    ctx.obj = State(db, agent)
    ctx.call_on_close(ctx.obj.close)


class DocPathType(click.ParamType):
    """A document path. The shell turns an unquoted `~/x` into `$HOME/x`; this turns it back."""

    name = "PATH"

    def convert(self, value: Any, param: Any, ctx: Any) -> str:
        return unexpand_home(value)


def unexpand_home(value: str) -> str:
    home = os.path.expanduser("~").rstrip("/")
    if home and home != "~":
        if value == home:
            return "~"
        if value.startswith(home + "/"):
            return "~" + value[len(home) :]
    return value


DOC_PATH = DocPathType()


def emit_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False, default=str))


def user_actor():
    from doctree.store.documents import Actor

    return Actor("user", os.environ.get("USER") or os.environ.get("USERNAME") or "cli")


def read_input(file: str | None) -> str:
    """Body text from a file, or from stdin ('-' or no file)."""
    if file and file != "-":
        try:
            with open(file, encoding="utf-8") as f:
                return f.read()
        except OSError as e:
            raise UserError(f"file {file!r}: cannot be read ({e.strerror})") from None
        except UnicodeDecodeError:
            raise UserError(f"file {file!r}: is not UTF-8 text") from None
    if sys.stdin.isatty():
        raise UserError("no body given: pipe it on stdin or pass --file FILE")
    return sys.stdin.read()


def main() -> None:
    cli(prog_name="doctree")


def _register() -> None:
    """Import the command modules; each registers its commands on `cli`."""
    import importlib

    for name in COMMAND_MODULES:
        importlib.import_module(f"doctree.cli.{name}")


COMMAND_MODULES = (
    "documents",
    "interop",
    "memory",
    "replay",
    "sessions",
    "agent",
    "provenance",
    "web",
)
_register()
