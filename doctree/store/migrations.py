"""The numbered migration files of each backend: `migrations/NNN_name.sql` (SQLite) and
`migrations/postgresql/NNN_name.sql`, read in order, and the checksum recorded for each.

Each backend starts from `001_baseline.sql`, the 0.1.0 schema; every later change is a new
file appended after it, never an edit of an applied one (its sha256 is checked on open)."""

from __future__ import annotations

import os

from doctree.errors import SchemaError
from doctree.resources import resource_dir, resource_folder

TYPE_CHECKING = False  # (`shipped_names`, of a one-shot read, imports neither typing nor re)
if TYPE_CHECKING:
    from pathlib import Path

_MIGRATION = r"(\d{3})_[a-z0-9_]+\.sql"


def migrations_dir(dialect: str = "sqlite") -> Path:
    """Where a dialect's migrations are: `migrations/` for SQLite, `migrations/<dialect>/`."""
    base = resource_dir("migrations")
    return base if dialect == "sqlite" else base / dialect


def shipped_names() -> list[str]:
    """The names of the SQLite migrations shipped (`001_baseline`, ...), in order: what a
    current database records in `doctree_migrations`. Read from the folder's listing alone
    (no file is read, nothing hashed): the cheap check of `doctree.store.db.open_reader`. A
    misnamed file is listed too: no database records it, so `migrations` gets to refuse it."""
    return sorted(f[:-4] for f in os.listdir(resource_folder("migrations")) if f.endswith(".sql"))


def migrations(directory: Path | None = None) -> list[tuple[int, str, str]]:
    """(number, name, sql) for every migration file, in order (`directory` for tests)."""
    import re

    out = []
    for f in sorted((directory or resource_dir("migrations")).glob("*.sql")):
        m = re.fullmatch(_MIGRATION, f.name)
        if not m:
            raise SchemaError(f"migration file {f.name!r}: names must look like 001_name.sql")
        out.append((int(m.group(1)), f.stem, f.read_text(encoding="utf-8")))
    numbers = [n for n, _, _ in out]
    if len(set(numbers)) != len(numbers):
        raise SchemaError(f"migrations: duplicate numbers in {[name for _, name, _ in out]}")
    return out


def migration_sha256(sql: str) -> str:
    """The checksum recorded for a migration: sha256 of its text as UTF-8."""
    import hashlib

    return hashlib.sha256(sql.encode("utf-8")).hexdigest()


def unknown_migrations_error(unknown: list[str]) -> SchemaError:
    """The refusal of a database that recorded migrations this doctree does not ship."""
    return SchemaError(
        f"database schema is newer than this doctree (unknown migrations {unknown}); "
        "upgrade doctree to open it (a database made before the 0.1.0 schema, whose "
        "migrations were squashed into 001_baseline, cannot be opened: make a new one)"
    )


def edited_migration_error(name: str, recorded: str, shipped: str) -> SchemaError:
    """The refusal of a database that applied a migration whose file has changed since."""
    return SchemaError(
        f"migration {name!r} was applied with sha256 {recorded[:12]}... but the file "
        f"shipped now has {shipped[:12]}...; an applied migration must never be "
        "edited (restore the file and put the change in a new migration)"
    )
