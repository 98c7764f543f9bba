"""The numbered migration files of each backend: `migrations/NNN_name.sql` (SQLite) and
`migrations/postgresql/NNN_name.sql`, read in order, and the checksum recorded for each."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from doctree.errors import SchemaError
from doctree.resources import resource_dir

_MIGRATION = re.compile(r"(\d{3})_[a-z0-9_]+\.sql")


def migrations_dir(dialect: str = "sqlite") -> Path:
    """Where a dialect's migrations are: `migrations/` for SQLite, `migrations/<dialect>/`."""
    base = resource_dir("migrations")
    return base if dialect == "sqlite" else base / dialect


def migrations(directory: Path | None = None) -> list[tuple[int, str, str]]:
    """(number, name, sql) for every migration file, in order (`directory` for tests)."""
    out = []
    for f in sorted((directory or resource_dir("migrations")).glob("*.sql")):
        m = _MIGRATION.fullmatch(f.name)
        if not m:
            raise SchemaError(f"migration file {f.name!r}: names must look like 001_name.sql")
        out.append((int(m.group(1)), f.stem, f.read_text(encoding="utf-8")))
    numbers = [n for n, _, _ in out]
    if len(set(numbers)) != len(numbers):
        raise SchemaError(f"migrations: duplicate numbers in {[name for _, name, _ in out]}")
    return out


def migration_sha256(sql: str) -> str:
    """The checksum recorded for a migration: sha256 of its text as UTF-8."""
    return hashlib.sha256(sql.encode("utf-8")).hexdigest()
