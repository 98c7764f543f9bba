"""The `doctree` command: a thin shell over the library.

Each command parses its options, calls one library function and prints. Heavy modules are
imported inside commands so that `doctree --help` starts fast.
"""

from __future__ import annotations

import gc
import os
import stat
import sys
from typing import TYPE_CHECKING, Any, TypeGuard

import click

from doctree.cli.lazy import LazyGroup
from doctree.errors import ConflictError, DoctreeError, UserError

if TYPE_CHECKING:
    import sqlite3

    from doctree.store.documents import DocumentsRepository

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


# The commands that add documents or sessions to a store that may not exist yet: given a
# new SQLite file, they create it (its folder must exist, except the default database's,
# which is created for the user on the first write). Every other command needs the
# database to exist and never creates one, so a mistyped --db is an error, not a new file.
CREATING_COMMANDS = frozenset({"write", "import", "replay", "worker", "mcp"})


class State:
    """What the group options decided: the database, the owner, and the command run."""

    def __init__(self, db: str | None, owner: str, command: str | None = None):
        self.db_path = db
        self.owner = owner
        self.command = command
        self._repo: DocumentsRepository | None = None
        self._conn: sqlite3.Connection | None = None

    @property
    def creates(self) -> bool:
        """Whether the command may create the database (see CREATING_COMMANDS)."""
        return self.command in CREATING_COMMANDS

    def database(self) -> Any:
        """The database to use, checked: a known URL scheme, and (for a command that does
        not create one) an existing file. UserError naming the database otherwise."""
        from doctree.store.db import check_target, default_db_path
        from doctree.store.targets import is_database_url

        target = self.db_path or default_db_path()
        check_target(target)
        if is_database_url(target) or str(target) == ":memory:" or self.creates:
            return target
        if not os.path.exists(target):
            given = "the default database" if self.db_path is None else "database"
            hint = (
                "write something first (e.g. doctree write ~/memory/notes), or give --db"
                if self.db_path is None
                else "check --db or $DOCTREE_DB"
            )
            raise UserError(
                f"{given} {str(target)!r}: no such file; '{self.command}' never creates a "
                f"database (only {', '.join(sorted(CREATING_COMMANDS))} do); {hint}"
            )
        return target

    def settings(self, **given: Any) -> Any:
        """The `doctree.compose.Settings` of this command: the group's database and owner,
        the command's options `given` (None: not given), the rest from the environment."""
        from doctree.compose import Settings

        return Settings.from_env(**({"db": self.db_path, "owner": self.owner} | given))

    @property
    def repo(self):
        if self._repo is None:
            from doctree.compose import connect_database, open_repository

            settings = self.settings(db=str(self.database()))
            # only the default location's folder is made for the user
            self._conn = connect_database(
                settings, create=self.creates, create_folder=self.db_path is None
            )
            self._repo = open_repository(self._conn)
        return self._repo

    def current_body(self, path: str) -> str | None:
        """The body of the live document at `path`, read the quick way: on a SQLite file
        whose schema is current, through `doctree.store.db.open_reader`, without building a
        repository (the store's modules, the migrations' checksums). None when the quick
        way does not apply or finds no document: `repo` then reads it, or says why not."""
        from doctree.store.live import read_current

        return read_current(self.database(), self.owner, path)

    def close(self) -> None:
        if self._repo is not None:
            self._repo.close()
        if self._conn is not None:
            self._conn.close()


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
        except Exception as e:
            if _is_database_error(e):
                # Disk full, a read-only file, a lock held past the timeout: the write's own
                # transaction was rolled back, so nothing of it is stored. (A PostgreSQL error
                # is one of these too, and a DoctreeError: it is caught here, with its database.)
                click.echo(f"error: database {database_of(ctx)!r}: {_cause(e)}", err=True)
                ctx.exit(1)
            if isinstance(e, DoctreeError):
                click.echo(f"error: {e}", err=True)
                ctx.exit(1)
            raise


def _is_database_error(e: Exception) -> TypeGuard[sqlite3.Error]:
    """Whether `e` is a `sqlite3.Error`. sqlite3 is looked up, not imported: a command that
    opened no database (`--help`) never imports it, and then raised none of its errors."""
    sqlite3 = sys.modules.get("sqlite3")
    return sqlite3 is not None and isinstance(e, sqlite3.Error)


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
    "~/.local/share/doctree/doctree.db. Only write, import, replay, worker and mcp create a "
    "new file, in a folder that exists (the default's folder is made on the first write); "
    "every other command needs the database to exist. Other URL schemes are refused.",
)
@click.option(
    "--owner",
    "owner",
    envvar="DOCTREE_OWNER",
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
    ctx.obj = State(db, owner, ctx.invoked_subcommand)
    ctx.call_on_close(ctx.obj.close)


class DocPathType(click.ParamType):
    """A document path. The shell turns an unquoted `~/x` into `$HOME/x`; this turns it back."""

    name = "PATH"

    def convert(self, value: Any, param: Any, ctx: Any) -> str:
        from doctree.store.paths import unexpand_home

        return unexpand_home(value)


DOC_PATH = DocPathType()


def emit_json(data: Any) -> None:
    import json

    click.echo(json.dumps(data, indent=2, ensure_ascii=False, default=str))


def user_actor():
    from doctree.store.documents import Actor

    return Actor("user", os.environ.get("USER") or os.environ.get("USERNAME") or "cli")


def read_input(file: str | None) -> str:
    """Body text from a file, or from stdin ('-' or no file): at most the store's body
    limit is read (`DOCTREE_MAX_BODY_BYTES`); more is refused without reading the rest."""
    from doctree.store.model import env_body_limit

    limit = env_body_limit()
    if file and file != "-":
        return read_regular_file(file, f"file {file!r}", limit)
    if sys.stdin.isatty():
        raise UserError("no body given: pipe it on stdin or pass --file FILE")
    if not hasattr(sys.stdin, "buffer"):  # a text stream (tests)
        from doctree.store.paths import require_text

        text = sys.stdin.read(limit + 1)
        if len(text.encode("utf-8", "surrogatepass")) > limit:
            raise _over_limit("stdin", limit)
        return require_text(text, "stdin")
    raw = read_bounded(sys.stdin.buffer, limit, "stdin")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise UserError("stdin: is not UTF-8 text") from None


def read_regular_file(name: str, what: str, limit: int, rule: str | None = None) -> str:
    """The UTF-8 text of the regular file `name`, of at most `limit` bytes. Anything else
    is refused before it is read: a FIFO or a device could block or never end (pipe such
    input on stdin instead), and a file larger than the limit is refused by its size."""
    try:  # O_NONBLOCK: opening a FIFO never waits for a writer
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as e:
        raise UserError(f"{what}: cannot be read ({e.strerror})") from None
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(f.fileno())
        if not stat.S_ISREG(st.st_mode):
            raise UserError(
                f"{what}: is {_kind_of(st.st_mode)}, not a regular file (save it to a file, "
                "or pipe it on stdin where the command reads stdin)"
            )
        if st.st_size > limit:
            raise _over_limit(what, limit, rule, size=st.st_size)
        raw = read_bounded(f, limit, what, rule=rule)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise UserError(f"{what}: is not UTF-8 text") from None


def _kind_of(mode: int) -> str:
    for test, kind in (
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a FIFO (a named pipe)"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return kind
    return "a special file"


def read_bounded(f: Any, limit: int, what: str, *, rule: str | None = None) -> bytes:
    """At most `limit` bytes of the binary stream `f`; UserError (naming `what` and the
    limit) if there is more, without reading the rest."""
    data = f.read(limit + 1)
    if len(data) > limit:
        raise _over_limit(what, limit, rule)
    return data


def _over_limit(
    what: str, limit: int, rule: str | None = None, *, size: int | None = None
) -> UserError:
    said = f"is {size:,} bytes" if size is not None else f"more than {limit:,} bytes"
    return UserError(
        f"{what}: {said}; "
        + (rule or f"the body limit is {limit:,} bytes (raise it with DOCTREE_MAX_BODY_BYTES)")
    )


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
        raise NotFoundError(f"document {path!r} not found for owner {state.owner!r}")


#: The youngest generation's threshold of the cyclic garbage collector in a `doctree`
#: process (Python's default: 700 new container objects). A command that reads many texts
#: (a replay's memory agent) makes hundreds of thousands of short-lived lists, tuples and
#: matches; at 700 each young collection finds most of a moment's objects still alive, moves
#: them to the older generations, and those are traversed again in full, the oldest with
#: every object the imports made. At 10,000, most of them are freed by their count before
#: a collection sees them: the collector's CPU time in the bench's 6,000-turn replay falls
#: from ~0.27 s to ~0.10 s. What is collected is the same; only when.
GC_YOUNG_THRESHOLD = 10_000


def main() -> None:
    """The click group run as the process's command line (the console entry point's way
    for anything it does not serve itself), with the collector's threshold of a process
    that is doctree's alone (`GC_YOUNG_THRESHOLD`; a program using doctree as a library
    keeps its own)."""
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(GC_YOUNG_THRESHOLD, older, oldest)
    cli(prog_name="doctree")
