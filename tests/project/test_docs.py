"""The documentation stays in step with the code: the CLI reference is generated from
`--help`, and the concepts and schema pages name what the code defines."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from doctree.cli import docs as cli_docs
from doctree.store.db import apply_migrations
from doctree.store.documents import ACTOR_KINDS, OPERATIONS
from doctree.store.migrations import migrations

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_cli_reference_is_up_to_date():
    current = (DOCS / "cli.md").read_text(encoding="utf-8")
    assert current == cli_docs.render(), (
        f"docs/cli.md is out of date with the commands' --help; regenerate it with: "
        f"{cli_docs.REGENERATE}"
    )


def test_cli_reference_has_a_section_for_every_command():
    from doctree.cli import cli

    text = cli_docs.render()
    for name in cli.commands:
        assert f"## `doctree {name}`" in text


def test_check_mode_reports_a_stale_reference(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(cli_docs, "DOC", tmp_path / "cli.md")
    (tmp_path / "cli.md").write_text("stale", encoding="utf-8")
    assert cli_docs.main(["--check"]) == 1
    assert cli_docs.REGENERATE in capsys.readouterr().err
    assert cli_docs.main([]) == 0 and cli_docs.main(["--check"]) == 0


def shipped_schema() -> sqlite3.Connection:
    """A database made by every shipped migration."""
    conn = sqlite3.connect(":memory:")
    apply_migrations(conn)
    return conn


def test_schema_page_describes_every_table_of_every_migration():
    text = (DOCS / "schema.md").read_text(encoding="utf-8")
    conn = shipped_schema()
    tables = [
        r[0]
        for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        if not re.match(r"sqlite_|\w+_fts_(data|idx|content|docsize|config)$", r[0])
    ]
    assert {"documents", "sessions", "runs", "passages_fts"} <= set(tables)
    missing = [t for t in tables if f"`{t}`" not in text]
    assert not missing, f"docs/schema.md does not describe the tables {missing}"


def test_schema_page_names_every_index_of_every_migration():
    text = (DOCS / "schema.md").read_text(encoding="utf-8")
    conn = shipped_schema()
    indexes = [
        r[0]
        for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'")
        if not r[0].startswith("sqlite_autoindex")
    ]
    assert "idx_versions_owner_time" in indexes
    missing = [i for i in indexes if f"`{i}`" not in text]
    assert not missing, f"docs/schema.md does not name the indexes {missing}"


def test_schema_page_names_every_column_of_every_table():
    text = (DOCS / "schema.md").read_text(encoding="utf-8")
    conn = shipped_schema()
    missing = []
    for (table,) in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        " AND name NOT LIKE '%_fts_%'"
    ).fetchall():
        for col in conn.execute(f"SELECT name FROM pragma_table_info('{table}')"):
            if f"`{col[0]}`" not in text:
                missing.append(f"{table}.{col[0]}")
    assert not missing, f"docs/schema.md does not name the columns {missing}"


def test_schema_page_lists_every_migration_file():
    text = (DOCS / "schema.md").read_text(encoding="utf-8")
    missing = [name for _, name, _ in migrations() if f"`{name}`" not in text]
    assert not missing, f"docs/schema.md does not list the migrations {missing}"


def test_concepts_page_names_every_operation_and_actor_kind():
    text = (DOCS / "concepts.md").read_text(encoding="utf-8")
    missing = [
        w for w in (*OPERATIONS, *ACTOR_KINDS, "parent", "link", "body") if f"`{w}`" not in text
    ]
    assert not missing, f"docs/concepts.md does not mention {missing}"
