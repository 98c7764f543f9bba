"""Migrations: numbered SQL files applied once, in order, each in a transaction, recorded;
an older database is upgraded; a database newer than the code is refused."""

from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys

import pytest

from doctree.errors import SchemaError
from doctree.resources import resource_dir
from doctree.store.db import applied_migrations, apply_migrations, connect
from doctree.store.migrations import migration_sha256, migrations

# SQLite's migrations and file; PostgreSQL's are tested in test_postgres_backend.py.
pytestmark = pytest.mark.sqlite_only


def tables(conn: sqlite3.Connection) -> set[str]:
    return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def test_shipped_migration_files_are_well_named_and_numbered_once_from_one():
    # The directory as listed, not as the runner sorts it: a repeat or a stray file shows here.
    files = [f for f in os.listdir(resource_dir("migrations")) if f.endswith(".sql")]
    bad = [f for f in files if not re.fullmatch(r"\d{3}_[a-z0-9_]+\.sql", f)]
    assert not bad, f"badly named migration files {bad}"
    numbers = [int(f[:3]) for f in files]
    repeated = sorted(n for n in set(numbers) if numbers.count(n) > 1)
    assert not repeated, f"migration numbers used twice: {repeated}"
    assert min(numbers) == 1
    assert [n for n, _, _ in migrations()] == sorted(numbers)
    assert [name for _, name, _ in migrations()][0] == "001_baseline"


def test_migration_files_with_a_repeated_number_or_a_bad_name_are_refused(tmp_path):
    (tmp_path / "001_a.sql").write_text("CREATE TABLE a (x);")
    (tmp_path / "001_b.sql").write_text("CREATE TABLE b (x);")
    with pytest.raises(SchemaError, match="duplicate numbers"):
        migrations(tmp_path)
    (tmp_path / "001_b.sql").unlink()
    (tmp_path / "2_c.sql").write_text("CREATE TABLE c (x);")
    with pytest.raises(SchemaError, match="must look like 001_name.sql"):
        migrations(tmp_path)


def recorded_checksums(conn: sqlite3.Connection) -> dict[str, str | None]:
    return dict(conn.execute("SELECT name, sha256 FROM doctree_migrations").fetchall())


def test_each_applied_migration_records_the_sha256_of_its_file(db_path):
    conn = connect(db_path)
    assert recorded_checksums(conn) == {
        name: migration_sha256(sql) for _, name, sql in migrations()
    }
    conn.close()


def test_a_migration_edited_after_it_was_applied_is_refused(db_path):
    connect(db_path).close()
    edited = [
        (n, name, sql + "\nCREATE TABLE added_later (x);" if name == "001_baseline" else sql)
        for n, name, sql in migrations()
    ]
    conn = connect(db_path, migrate=False)
    with pytest.raises(SchemaError) as err:
        apply_migrations(conn, available=edited)
    message = str(err.value)
    assert "001_baseline" in message and "must never be edited" in message
    assert "added_later" not in tables(conn)
    conn.close()


def test_an_edited_migration_makes_open_fail_with_the_database_named(db_path):
    connect(db_path).close()
    raw = sqlite3.connect(db_path)
    raw.execute("UPDATE doctree_migrations SET sha256 = 'feed' WHERE name = '001_baseline'")
    raw.commit()
    raw.close()
    with pytest.raises(SchemaError) as err:
        connect(db_path)
    assert str(db_path) in str(err.value) and "001_baseline" in str(err.value)


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


def appended(tmp_path, sql: str) -> list[tuple[int, str, str]]:
    """The shipped migrations and one more after them, from a migrations directory of the
    test's own (as a later release appends a file)."""
    folder = tmp_path / "migrations"
    folder.mkdir()
    for f in resource_dir("migrations").glob("*.sql"):
        (folder / f.name).write_bytes(f.read_bytes())
    after = migrations()[-1][0] + 1
    (folder / f"{after:03d}_notes.sql").write_text(sql)
    return migrations(folder)


def test_a_database_of_an_older_release_is_upgraded_by_the_appended_migration(db_path, tmp_path):
    connect(db_path).close()  # as the shipped migrations leave it
    added = appended(tmp_path, "-- a later change\nCREATE TABLE notes (x);\n")
    conn = connect(db_path, migrate=False)
    assert apply_migrations(conn, available=added) == [added[-1][1]]
    assert "notes" in tables(conn)
    assert recorded_checksums(conn) == {name: migration_sha256(sql) for _, name, sql in added}
    assert apply_migrations(conn, available=added) == []
    conn.close()


def test_migrations_are_applied_in_the_order_of_their_numbers(tmp_path):
    folder = tmp_path / "m"
    folder.mkdir()
    (folder / "002_second.sql").write_text("INSERT INTO log VALUES ('second');")
    (folder / "010_third.sql").write_text("INSERT INTO log VALUES ('third');")
    (folder / "001_first.sql").write_text("CREATE TABLE log (what TEXT);")
    conn = connect(tmp_path / "x.db", migrate=False)
    assert apply_migrations(conn, available=migrations(folder)) == [
        "001_first",
        "002_second",
        "010_third",
    ]
    assert [r[0] for r in conn.execute("SELECT what FROM log")] == ["second", "third"]
    conn.close()


def test_database_with_an_unknown_newer_migration_is_refused(db_path):
    connect(db_path).close()
    raw = sqlite3.connect(db_path)
    raw.execute(
        "INSERT INTO doctree_migrations (number, name, applied_at, sha256)"
        " VALUES (999, '999_future', 'x', 'x')"
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


@pytest.mark.slow
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
        connect(blocker / "sub" / "doctree.db", create_folder=True)


def test_a_database_in_a_missing_folder_is_refused_unless_its_folder_may_be_made(tmp_path):
    from doctree.errors import UserError
    from doctree.store.db import connect

    target = tmp_path / "missing" / "doctree.db"
    with pytest.raises(UserError, match="its folder .* does not exist"):
        connect(target)
    assert not (tmp_path / "missing").exists()
    connect(target, create_folder=True).close()
    assert target.is_file()


def test_a_database_opened_without_create_is_never_made(tmp_path):
    from doctree.errors import UserError
    from doctree.store.db import connect

    with pytest.raises(UserError, match="no such file"):
        connect(tmp_path / "doctree.db", create=False)
    assert list(tmp_path.iterdir()) == []
