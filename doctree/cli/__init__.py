"""The `doctree` command: a thin shell over the library.

Each command parses its options, calls one library function and prints. Heavy modules are
imported inside commands so that `doctree --help` starts fast.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
from typing import Any

import click

from doctree.cli.aliases import AliasedOption
from doctree.cli.lazy import LazyGroup
from doctree.errors import ConflictError, DoctreeError, UserError

DEFAULT_OWNER = "main"

EXIT_USER_ERROR = 2
EXIT_CONFLICT = 3
MAX_INT = 2**63 - 1  # the largest integer the database stores


class Int(click.IntRange):
    """A whole-number option or argument: at least `min`, and small enough to store."""

    def __init__(self, min: int = 0) -> None:
        super().__init__(min=min, max=MAX_INT)

    def _describe_range(self) -> str:
        return f"x>={self.min}"  # the upper bound is the storage limit, not worth a help line

    def convert(self, value: Any, param: Any, ctx: Any) -> Any:
        number = click.INT.convert(value, param, ctx)
        if number > MAX_INT:
            self.fail(f"{number} is too large (at most {MAX_INT})", param, ctx)
        return super().convert(number, param, ctx)


def _not_utf8(args: list[str]) -> str | None:
    """The first argument that is not UTF-8 text (Python decodes bad bytes to surrogates).

    The check of `doctree.store.paths.is_utf8_text`, here so that `--help` imports no store.
    """
    for a in args:
        if isinstance(a, str) and not a.isascii():
            try:
                a.encode("utf-8")
            except UnicodeEncodeError:
                return a
    return None


class State:
    """What the group options decided: the database file and the owner."""

    def __init__(self, db: str | None, owner: str):
        self.db_path = db
        self.owner = owner
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


class DoctreeGroup(LazyGroup):
    """Turns doctree's own errors into one-line messages and exit codes, never tracebacks."""

    def main(self, args: Any = None, prog_name: str | None = None, *a: Any, **kw: Any) -> Any:
        """Like click's main, but a usage mistake is one line on stderr and exit 2."""
        if kw.get("standalone_mode", True) is False:
            return super().main(args, prog_name, *a, **kw)
        kw["standalone_mode"] = False
        bad = _not_utf8(sys.argv[1:] if args is None else list(args))
        if bad is not None:
            try:
                shown = os.fsencode(bad).decode("utf-8", "backslashreplace")
            except UnicodeError:
                shown = bad.encode("utf-8", "backslashreplace").decode("utf-8")
            click.echo(f"error: argument '{shown}': is not UTF-8 text", err=True)
            sys.exit(EXIT_USER_ERROR)
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
        except sqlite3.Error as e:
            # Disk full, a read-only file, a lock held past the timeout: the write's own
            # transaction was rolled back, so nothing of it is stored. (A PostgreSQL error
            # is one of these too, and a DoctreeError: it is caught here, with its database.)
            click.echo(f"error: database {database_of(ctx)!r}: {_cause(e)}", err=True)
            ctx.exit(1)
        except DoctreeError as e:
            click.echo(f"error: {e}", err=True)
            ctx.exit(1)


def database_of(ctx: click.Context) -> str:
    """The database the command uses, for messages (a server URL without its password)."""
    from doctree.store.backends import describe

    state = ctx.find_object(State)
    if state is not None and state.db_path:
        return describe(state.db_path)
    from doctree.store.db import default_db_path

    return describe(default_db_path())


def _cause(e: sqlite3.Error) -> str:
    text = " ".join(str(e).split()) or type(e).__name__
    if "readonly" in text or "read-only" in text:
        if hasattr(e, "sqlstate"):  # a server's refusal, not a file's permissions
            return f"{text} (the server refuses writes to this database)"
        return f"{text} (the file or its folder is not writable)"
    # SQLite says "database is locked"; a server's lock timeout is marked SQLITE_BUSY too.
    if "locked" in text or "busy" in text or getattr(e, "sqlite_errorname", "") == "SQLITE_BUSY":
        return f"{text} (another process held it past the busy timeout; try again)"
    return text


@click.group(cls=DoctreeGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--db",
    envvar="DOCTREE_DB",
    type=click.Path(dir_okay=False),
    help="Database: a SQLite file, or a PostgreSQL server as postgresql://user@host/db "
    "(needs doctree[postgres]; see docs/scaling.md). Default: $DOCTREE_DB, else "
    "~/.local/share/doctree/doctree.db.",
)
@click.option(
    "--owner",
    "--agent",
    "owner",
    cls=AliasedOption,
    hidden_aliases=["--agent"],
    # $DOCTREE_AGENT is the older name, read when $DOCTREE_OWNER is not set.
    envvar=["DOCTREE_OWNER", "DOCTREE_AGENT"],
    default=DEFAULT_OWNER,
    show_default=True,
    help="The owner: the agent id whose home '~' paths refer to (also $DOCTREE_OWNER).",
)
@click.version_option(package_name="doctree")
@click.pass_context
def cli(ctx: click.Context, db: str | None, owner: str) -> None:
    """doctree: a versioned document tree for agent memory.

    Every change is a version with its actor; paths start at the owner's home '~'
    (e.g. ~/memory/people/alice). Try:

    \b
      printf '# Alice\\nPrefers tea.\\n' | doctree write ~/memory/people/alice
      doctree show ~/memory
      doctree history ~/memory/people/alice

    Exit codes: 0 ok, 2 bad input, 3 conflict (a precondition failed), 1 other errors.
    """
    from doctree.store.paths import validate_owner

    try:
        validate_owner(owner)
    except UserError as e:
        raise click.BadParameter(str(e), param_hint="--owner") from None
    if db is not None and not db.strip():
        raise click.BadParameter(
            "the database file must not be empty; leave --db out to use the default",
            param_hint="--db",
        )
    ctx.obj = State(db, owner)
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
    raw = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read()
    if isinstance(raw, str):
        from doctree.store.paths import require_text

        return require_text(raw, "stdin")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise UserError("stdin: is not UTF-8 text") from None


def require_given_path(state: State, name: str, path: str) -> None:
    """A path given on the command line must exist; the default may be missing (an agent
    with no memory yet)."""
    from doctree.errors import NotFoundError
    from doctree.store.paths import HOME, normalize_path

    ctx = click.get_current_context()
    if ctx.get_parameter_source(name) != click.core.ParameterSource.COMMANDLINE:
        return
    path = normalize_path(path)
    if path != HOME and not state.repo.exists(state.owner, path):
        raise NotFoundError(f"document {path!r} not found for agent {state.owner!r}")


def main() -> None:
    cli(prog_name="doctree")
