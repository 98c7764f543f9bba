"""The documentation stays in step with the code: the CLI reference is generated from
`--help`, and the concepts and schema pages name what the code defines."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from doctree import cli_docs
from doctree.db import apply_migrations, migrations
from doctree.store import ACTOR_KINDS, OPERATIONS

DOCS = Path(__file__).resolve().parent.parent / "docs"


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


def test_schema_page_describes_every_store_table():
    text = (DOCS / "schema.md").read_text(encoding="utf-8")
    conn = sqlite3.connect(":memory:")
    store_migrations = [m for m in migrations() if m[0] <= 2]  # 001 documents, 002 leases
    apply_migrations(conn, available=store_migrations)
    tables = [
        r[0]
        for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        if not re.match(r"(sqlite_|documents_fts_)", r[0])
    ]
    missing = [t for t in tables if f"`{t}`" not in text]
    assert not missing, f"docs/schema.md does not describe the tables {missing}"


def test_concepts_page_names_every_operation_and_actor_kind():
    text = (DOCS / "concepts.md").read_text(encoding="utf-8")
    missing = [
        w for w in (*OPERATIONS, *ACTOR_KINDS, "parent", "link", "body") if f"`{w}`" not in text
    ]
    assert not missing, f"docs/concepts.md does not mention {missing}"
