"""`open_reader`: a SQLite store opened for one read with the minimum (what `doctree read
PATH` uses), or None whenever the full opening must decide: never a new file, never a read
of a schema that is not the shipped one."""

from __future__ import annotations

import sqlite3

import pytest

from doctree.store.db import apply_migrations, connect, open_reader
from doctree.store.documents import DocumentsRepository
from doctree.store.live import current_body
from doctree.store.migrations import migrations, shipped_names

pytestmark = pytest.mark.sqlite_only  # a SQLite file opened by its path


@pytest.fixture
def store(tmp_path):
    path = tmp_path / "s.db"
    with DocumentsRepository(path) as repo:
        repo.write("main", "~/notes", "# Notes\n\nfirst\n")
        repo.write("main", "~/notes", "# Notes\n\nsecond, and a longer body this time\n" * 20)
        repo.write("main", "~/gone", "bye\n")
        repo.delete("main", "~/gone")
    return path


def test_a_current_database_is_read_as_the_repository_reads_it(store):
    conn = open_reader(store)
    assert conn is not None
    try:
        with DocumentsRepository(store) as repo:
            assert current_body(conn, "main", "~/notes") == repo.read("main", "~/notes").body
        assert current_body(conn, "main", "~/gone") is None  # deleted: no live row
        assert current_body(conn, "other", "~/notes") is None  # another owner's tree
    finally:
        conn.close()


@pytest.mark.parametrize("name", ["a?b#c%20d.db", "with space.db", "naïve ünïcode.db", "100%.db"])
def test_a_file_whose_name_holds_uri_characters_is_read(tmp_path, name):
    path = tmp_path / name
    with DocumentsRepository(path) as repo:
        repo.write("main", "~/notes", "hello\n")
    conn = open_reader(path)
    assert conn is not None
    try:
        assert current_body(conn, "main", "~/notes") == "hello\n"
    finally:
        conn.close()
    # the name was not taken for another (a new, empty) file
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix == ".db") == [name]


def test_no_file_is_created_for_a_missing_database(tmp_path):
    missing = tmp_path / "missing.db"
    assert open_reader(missing) is None
    assert not missing.exists()
    assert open_reader(tmp_path) is None  # a folder


def test_a_server_url_or_memory_is_left_to_the_full_opening():
    assert open_reader("postgresql://u@localhost/db") is None
    assert open_reader(":memory:") is None


@pytest.mark.parametrize(
    "content", [b"", b"plain text, not SQLite\n" * 10], ids=["empty file", "not SQLite"]
)
def test_a_file_that_is_not_a_doctree_database_is_left_untouched(tmp_path, content):
    path = tmp_path / "x.db"
    path.write_bytes(content)
    assert open_reader(path) is None
    assert path.read_bytes() == content


def test_another_applications_database_is_left_to_the_full_opening(tmp_path):
    path = tmp_path / "other.db"
    raw = sqlite3.connect(path)
    raw.execute("CREATE TABLE documents (x)")
    raw.commit()
    raw.close()
    before = path.read_bytes()
    assert open_reader(path) is None
    assert path.read_bytes() == before


def test_a_database_recording_an_unknown_migration_is_not_read(store):
    raw = sqlite3.connect(store)
    raw.execute(
        "INSERT INTO doctree_migrations (number, name, applied_at, sha256)"
        " VALUES (999, '999_future', 'x', 'x')"
    )
    raw.commit()
    raw.close()
    assert open_reader(store) is None


def test_a_database_of_an_older_schema_is_not_read(tmp_path):
    path = tmp_path / "old.db"
    conn = connect(path, migrate=False)
    apply_migrations(conn, available=migrations()[:-1])
    conn.close()
    assert open_reader(path) is None


def test_the_shipped_names_are_those_the_migrations_record(store):
    assert shipped_names() == [name for _, name, _ in migrations()]
    raw = sqlite3.connect(store)
    recorded = [r[0] for r in raw.execute("SELECT name FROM doctree_migrations ORDER BY number")]
    raw.close()
    assert recorded == shipped_names()
