"""Opening a database: a SQLite file (WAL, busy timeout) or a PostgreSQL server
(`postgresql://...`, see `doctree.store.backends.postgres`), and the numbered migrations in
`migrations/` (SQLite) and `migrations/postgresql/`."""

from __future__ import annotations

import os
import time

from doctree.errors import SchemaError, UserError
from doctree.store.encoding import decode
from doctree.store.targets import busy_timeout_ms, is_database_url, scheme_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3
    from pathlib import Path
    from typing import Any
else:
    try:
        # The sqlite3 package's C core: the same connect, Row and errors. The package adds
        # its datetime adapters (importing datetime), which a one-shot read has no use for;
        # the full opening's backends import the package, so everything else has them.
        import _sqlite3 as sqlite3
    except ImportError:  # an interpreter whose sqlite3 has no such module
        import sqlite3

# The migrations (hashlib, pathlib), the backends (typing, contextlib, re) and the SQLite
# dialect (which imports the store's model) are imported by the functions that use them:
# `doctree read` opens with `open_reader`, which needs none (tests/cli/test_cli_startup.py).

CACHE_KIB = 32 * 1024

PAGE_SIZE = 2048
"""Bytes of a page of a file made by doctree (SQLite's default is 4096). Each of the ~60
tables and indexes takes at least a page, so an empty store is ~150 KB instead of ~295 KB;
rows stay on their page up to ~2 KB (a full-text index leaf is ~1 KB), and the files of
the history bench (bench/store.py --history) are 1% and 20% smaller (docs/performance.md).
"""


def dialect_of(conn: Any) -> Any:
    """`doctree.store.backends.dialect_of`, the backends imported on first use (see above)."""
    from doctree.store.backends import dialect_of as of_backend

    return of_backend(conn)


def default_db_path() -> Path | str:
    """`DOCTREE_DB` (a file path or a `postgresql://` URL), else `doctree.db` under the
    user's data directory."""
    from pathlib import Path

    if env := os.environ.get("DOCTREE_DB"):
        return env if is_database_url(env) else Path(env).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(Path.home(), ".local", "share")
    return Path(base) / "doctree" / "doctree.db"


def _enable_wal(conn: sqlite3.Connection) -> None:
    """Switch to WAL. On a fresh file another process may be switching at the same moment;
    SQLite then answers "database is locked" at once, without its busy handler, so wait and
    retry here, up to the busy timeout."""
    deadline = time.monotonic() + busy_timeout_ms() / 1000
    pause = 0.005
    while True:
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) or time.monotonic() + pause > deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.2)


ACCEPTED = "a SQLite file path, or a PostgreSQL server as postgresql://... or postgres://..."


def check_target(target: str | os.PathLike[str]) -> None:
    """Refuse a database target that names an unknown kind of server (`mysql://...`) or a
    malformed PostgreSQL URL (`postgres:/db`): such a string would otherwise become the name
    of a new SQLite file."""
    text = os.fspath(target)
    if not isinstance(text, str) or is_database_url(text):
        return
    written = scheme_of(text)
    if written is None:
        return
    from doctree.store.backends import describe

    scheme = written.lower()
    if scheme in ("postgresql", "postgres"):
        raise UserError(
            f"database {describe(text)!r}: a PostgreSQL URL starts with {scheme}:// "
            "(e.g. postgresql://user@host/db)"
        )
    after = text[len(written) + 1 :]
    hint = "" if after.startswith("//") else f" (or ./{text} for a file of that name)"
    raise UserError(
        f"database {describe(text)!r}: unknown scheme {scheme + ':'!r}; a database is "
        f"{ACCEPTED}{hint}"
    )


def connect(
    path: str | os.PathLike[str],
    *,
    migrate: bool = True,
    create: bool = True,
    create_folder: bool = False,
) -> Any:
    """Open a doctree database and bring its schema up to date: a SQLite file, or a
    PostgreSQL database given as a `postgresql://` URL.

    A SQLite file that does not exist is created with `create` (its folder must exist,
    unless `create_folder`), and refused without it: a reader never creates a database.
    Unknown URL schemes are refused (see `check_target`)."""
    check_target(path)
    if is_database_url(path):
        from doctree.store.backends import postgres

        return postgres.connect(str(path), migrate=migrate)
    import urllib.parse
    from pathlib import Path

    from doctree.store.backends.sqlite import SqliteConnection

    path = Path(path)
    target = str(path)
    if target != ":memory:":
        if path.is_dir():
            raise UserError(f"database {target!r}: is a directory, not a file")
        if not path.exists():
            if not create:
                raise UserError(
                    f"database {target!r}: no such file (an existing database was expected; "
                    "none is created here)"
                )
            folder = path.parent
            if not folder.is_dir():
                if not create_folder:
                    raise UserError(
                        f"database {target!r}: its folder {str(folder)!r} does not exist "
                        "(create it first, or check --db or $DOCTREE_DB)"
                    )
                try:
                    folder.mkdir(parents=True, exist_ok=True)
                except OSError as e:
                    raise UserError(
                        f"database {target!r}: cannot create its folder ({e.strerror})"
                    ) from None
        elif not create:
            # Opened read-write but never created: a file removed since the check above is
            # an error from SQLite, not a new empty database.
            target = "file:" + urllib.parse.quote(str(path.absolute())) + "?mode=rw"
    timeout_ms = busy_timeout_ms()
    try:
        conn = sqlite3.connect(
            target,
            uri=target.startswith("file:"),
            timeout=timeout_ms / 1000,
            isolation_level=None,
            check_same_thread=False,
            factory=SqliteConnection,
        )
        conn.row_factory = sqlite3.Row
        conn.execute(f"PRAGMA busy_timeout = {timeout_ms}")
        new_file = conn.execute("PRAGMA page_count").fetchone()[0] == 0
        if new_file:
            # Only a file nothing was read from yet takes a page size; an existing one
            # keeps its own.
            conn.execute(f"PRAGMA page_size = {PAGE_SIZE}")
        if migrate:
            try:
                check_doctree_database(conn, path)  # before WAL: a foreign file stays as it was
            except UserError:
                conn.close()
                raise
        if new_file:
            # A new file: its free pages can be given back to the file system, a step at a
            # time (doctree.store.backends.sqlite.release_free_pages). Only a file without
            # tables can be switched, so an existing one keeps its mode.
            conn.execute("PRAGMA auto_vacuum = INCREMENTAL")
        _enable_wal(conn)
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("PRAGMA temp_store = MEMORY")  # savepoint journals stay off disk
        # A 32 MiB page cache (the default is 2 MiB): path lookups and index updates of a
        # store with many documents stay in memory; it is only used as the file grows.
        conn.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
        register_functions(conn)
        if str(path) != ":memory:":
            conn.remember_file(str(path))
    except sqlite3.DatabaseError as e:
        from doctree.store.backends import is_unavailable

        if is_unavailable(e):  # locked by another process past the busy timeout: not a
            raise  # mistake of the caller's (the CLI says so, exit 1)
        raise UserError(f"database {str(path)!r}: cannot be opened as SQLite ({e})") from e
    if migrate:
        try:
            apply_migrations(conn)
        except SchemaError as e:
            conn.close()
            raise SchemaError(f"database {str(path)!r}: {e}") from None
    return conn


def open_reader(target: str | os.PathLike[str]) -> sqlite3.Connection | None:
    """An existing SQLite doctree database opened for one read with the minimum, or None.

    What a one-shot read (`doctree read PATH`) needs and no more: the file opened read-write
    (never created) with the busy timeout, and of the schema only a cheap read of the
    migration names it records, which must be those shipped (`shipped_names`). No WAL
    switch or other PRAGMA, no SQL function, no checksum of a migration file, no dialect.
    None when that does not hold: a server URL, no such file, a file that is not a doctree
    database or cannot be read, a schema to bring up to date. `connect` then opens it the
    full way, migrating it or saying what is wrong."""
    if is_database_url(target):
        return None
    path = os.fspath(target)
    if not isinstance(path, str) or path == ":memory:" or not os.path.isfile(path):
        return None
    from doctree.store.migrations import shipped_names

    timeout_ms = busy_timeout_ms()
    try:
        conn = sqlite3.connect(
            _file_uri(os.path.abspath(path)),
            uri=True,
            timeout=timeout_ms / 1000,
            isolation_level=None,
            check_same_thread=False,
        )
    except sqlite3.Error:
        return None
    try:
        recorded = [
            r[0] for r in conn.execute("SELECT name FROM doctree_migrations ORDER BY number")
        ]
    except sqlite3.Error:  # not a doctree database, damaged, or locked past the timeout
        recorded = None
    if recorded != shipped_names():
        conn.close()
        return None
    conn.row_factory = sqlite3.Row
    return conn


def _file_uri(path: str) -> str:
    """The `file:` URI that opens the existing file `path` read-write and never creates it.
    Only `%`, `?` and `#` are special in the path of an SQLite URI, so only they are escaped
    (urllib.parse would cost a one-shot read more than its query)."""
    escaped = path.replace("%", "%25").replace("?", "%3f").replace("#", "%23")
    return f"file:{escaped}?mode=rw"


def register_functions(conn: Any) -> None:
    """The SQL functions the SQLite schema uses: `doctree_body`, with which the full-text
    index's view `documents_text` decodes stored bodies, and `doctree_unhex`, with which
    migration 008 turns the hex digests of an older database into bytes (SQLite's own
    `unhex` is 3.41 and later), and `doctree_recall_clip`, with which migration 016 derives
    the surroundings of the recall index's entries."""
    if dialect_of(conn).name != "sqlite":
        return
    conn.create_function("doctree_body", 1, _decode_body, deterministic=True)
    conn.create_function("doctree_unhex", 1, _unhex, deterministic=True)
    conn.create_aggregate("doctree_recall_clip", 2, _RecallClip)


def _decode_body(value: bytes | None) -> str | None:
    return None if value is None else decode(value, None)


class _RecallClip:
    """The aggregate `doctree_recall_clip(id, text)`: the first words of the texts joined
    in the order of their ids (`doctree.store.recall.clip`), whatever order they come in."""

    def __init__(self) -> None:
        self.texts: list[tuple[int, str]] = []

    def step(self, id_: int, text: str) -> None:
        self.texts.append((id_, text))

    def finalize(self) -> str:
        from doctree.store.recall import clip

        return clip(" ".join(t for _, t in sorted(self.texts)))


def _unhex(value: str | bytes | None) -> bytes | None:
    """The bytes of a hex digest (a value that is bytes already is kept)."""
    return bytes.fromhex(value) if isinstance(value, str) else value


def check_doctree_database(conn: sqlite3.Connection, path: str | os.PathLike[str]) -> None:
    """Refuse a database that holds tables but is not doctree's (no migrations table):
    another application's file would gain doctree's tables, or clash with its own."""
    try:
        names = [
            r[0]
            for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type IN ('table', 'view')"
                " AND name NOT LIKE 'sqlite_%' ORDER BY name"
            )
        ]
    except sqlite3.DatabaseError as e:
        raise UserError(f"database {str(path)!r}: cannot be opened as SQLite ({e})") from None
    if names and "doctree_migrations" not in names:
        shown = ", ".join(names[:5]) + (", ..." if len(names) > 5 else "")
        raise UserError(
            f"database {str(path)!r}: is not a doctree database (it holds other tables: "
            f"{shown}); give a new file, an empty one, or a doctree database"
        )


def vacuum_file(conn: Any) -> tuple[bool, str | None]:
    """Rewrite the database file without its free pages and free space (VACUUM), then
    checkpoint the WAL into it and truncate the WAL: text deleted before leaves no copy in
    either file. (True, None) when done; (False, why) when another connection kept it from
    finishing (the data is unchanged either way). On PostgreSQL: VACUUM of the tables that
    hold text."""
    if dialect_of(conn).name == "postgresql":
        from doctree.store.backends import postgres

        return postgres.vacuum_database(conn)
    try:
        conn.execute("VACUUM")
        busy, _, _ = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    except sqlite3.OperationalError as e:
        return False, f"the database file was not vacuumed ({e}); run forget again later"
    if busy:
        return False, "the WAL was not checkpointed: another process is reading; it will be"
    return True, None


def applied_migrations(conn: sqlite3.Connection) -> list[str]:
    """Names of the migrations recorded in the database, in order."""
    conn.execute(
        "CREATE TABLE IF NOT EXISTS doctree_migrations ("
        " number INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL,"
        " sha256 TEXT NOT NULL)"
    )
    return [r[0] for r in conn.execute("SELECT name FROM doctree_migrations ORDER BY number")]


def apply_migrations(
    conn: sqlite3.Connection, *, available: list[tuple[int, str, str]] | None = None
) -> list[str]:
    """Apply every migration not yet recorded, each in its own transaction, recording the
    sha256 of its file. Returns the names applied.

    A database that records a migration this code does not know is newer than the code, and
    is refused rather than guessed at, and so is one that applied a migration whose file has
    changed since (its recorded sha256 differs). `available` replaces the shipped migrations
    (for tests).
    """
    from doctree.store.migrations import (
        edited_migration_error,
        migration_sha256,
        migrations,
        unknown_migrations_error,
    )

    known = migrations() if available is None else available
    register_functions(conn)
    done = set(applied_migrations(conn))
    unknown = sorted(done - {name for _, name, _ in known})
    if unknown:
        raise unknown_migrations_error(unknown)
    current = {name: migration_sha256(sql) for _, name, sql in known}
    for name, recorded in conn.execute(
        "SELECT name, sha256 FROM doctree_migrations ORDER BY number"
    ).fetchall():
        if current[name] != recorded:
            raise edited_migration_error(name, recorded, current[name])
    applied = []
    for number, name, sql in known:
        if name in done:
            continue
        conn.execute("BEGIN IMMEDIATE")
        try:
            # Another process may have applied it while we waited for the lock.
            if conn.execute(
                "SELECT 1 FROM doctree_migrations WHERE number = ?", (number,)
            ).fetchone():
                conn.execute("COMMIT")
                continue
            for statement in _statements(sql):
                conn.execute(statement)
            conn.execute(
                "INSERT INTO doctree_migrations (number, name, applied_at, sha256) "
                "VALUES (?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), ?)",
                (number, name, current[name]),
            )
            if done:  # a database upgraded: what a migration rebuilt leaves its old pages free
                from doctree.store.backends.sqlite import release_free_pages

                release_free_pages(conn)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        applied.append(name)
    return applied


def _statements(sql: str) -> list[str]:
    """Split a migration into statements (sqlite3.complete_statement knows about triggers)."""
    out, buf = [], ""
    for line in sql.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            if buf.strip():
                out.append(buf)
            buf = ""
    if buf.strip() and not all(
        ln.strip().startswith("--") or not ln.strip() for ln in buf.splitlines()
    ):
        raise SchemaError(f"migration has an unterminated statement: {buf.strip()[:80]!r}")
    return out
