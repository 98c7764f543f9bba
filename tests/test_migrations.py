"""Migrations: numbered SQL files applied once, in order, each in a transaction, recorded;
an older database is upgraded; a database newer than the code is refused."""

from __future__ import annotations

import sqlite3
import subprocess
import sys

import pytest

from doctree.errors import SchemaError
from doctree.store.db import applied_migrations, apply_migrations, connect, migrations
from doctree.store.documents import DocumentsRepository


def tables(conn: sqlite3.Connection) -> set[str]:
    return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def test_shipped_migrations_are_numbered_in_order():
    numbers = [n for n, _, _ in migrations()]
    assert numbers == sorted(numbers) and numbers[:2] == [1, 2]
    assert [name for _, name, _ in migrations()][:2] == ["001_documents", "002_leases"]


def test_fresh_database_gets_every_migration_recorded_in_order(db_path):
    conn = connect(db_path)
    assert applied_migrations(conn) == [name for _, name, _ in migrations()]
    assert {"documents", "document_versions", "document_references", "leases"} <= tables(conn)
    conn.close()


def test_migrations_are_applied_only_once(db_path):
    connect(db_path).close()
    conn = connect(db_path)
    assert apply_migrations(conn) == []
    count = conn.execute("SELECT COUNT(*) FROM doctree_migrations").fetchone()[0]
    assert count == len(migrations())
    conn.close()


def test_older_database_is_upgraded_on_open(db_path):
    conn = connect(db_path, migrate=False)
    assert apply_migrations(conn, upto=1) == ["001_documents"]
    assert "leases" not in tables(conn)
    conn.close()
    with DocumentsRepository(db_path) as repo:
        assert applied_migrations(repo.conn)[:2] == ["001_documents", "002_leases"]
        assert "leases" in tables(repo.conn)


def test_database_with_an_unknown_newer_migration_is_refused(db_path):
    connect(db_path).close()
    raw = sqlite3.connect(db_path)
    raw.execute(
        "INSERT INTO doctree_migrations (number, name, applied_at) VALUES (999, '999_future', 'x')"
    )
    raw.commit()
    raw.close()
    with pytest.raises(SchemaError) as err:
        connect(db_path)
    message = str(err.value)
    assert str(db_path) in message and "999_future" in message
    assert "newer than this doctree" in message and "upgrade doctree" in message


def test_failing_migration_is_rolled_back_and_not_recorded(db_path):
    conn = connect(db_path, migrate=False)
    bad = [
        (1, "001_good", "CREATE TABLE good (x);"),
        (2, "002_bad", "CREATE TABLE half (x);\nINSERT INTO missing VALUES (1);"),
    ]
    with pytest.raises(sqlite3.OperationalError):
        apply_migrations(conn, available=bad)
    assert applied_migrations(conn) == ["001_good"]
    assert "good" in tables(conn) and "half" not in tables(conn)
    conn.close()


def test_two_processes_opening_a_fresh_database_both_succeed(db_path):
    code = "import sys; from doctree.store.db import connect; connect(sys.argv[1]).close()"
    procs = [
        subprocess.Popen([sys.executable, "-c", code, str(db_path)], stderr=subprocess.PIPE)
        for _ in range(2)
    ]
    for p in procs:
        _, err = p.communicate(timeout=60)
        assert p.returncode == 0, err.decode()
    conn = connect(db_path)
    assert applied_migrations(conn) == [name for _, name, _ in migrations()]
    conn.close()


def test_database_opens_in_wal_mode_with_a_busy_timeout(db_path):
    conn = connect(db_path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA busy_timeout").fetchone()[0] >= 1000
    conn.close()


def test_a_directory_is_not_a_database(tmp_path):
    from doctree.errors import UserError

    with pytest.raises(UserError, match="is a directory"):
        connect(tmp_path)


def test_a_database_whose_folder_cannot_be_created_is_a_user_error(tmp_path):
    from doctree.errors import UserError
    from doctree.store.db import connect

    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(UserError, match="cannot create its folder"):
        connect(blocker / "sub" / "doctree.db")
