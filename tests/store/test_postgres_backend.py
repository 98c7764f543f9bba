"""The PostgreSQL backend's own parts: its migrations, its reading of FTS5 queries, its
connection's sqlite3 interface, and the errors a user sees. (Everything the store does is
tested on both backends through the `db_path` fixture.)"""

from __future__ import annotations

import sqlite3
import subprocess
import sys

import pytest
from click.testing import CliRunner

from doctree.cli import cli
from doctree.errors import SchemaError, UserError
from doctree.store.backends import describe, is_database_url, search_words
from doctree.store.backends.postgres import apply_migrations, fts_to_tsquery, migrations, translate
from doctree.store.db import connect
from doctree.store.documents import DocumentsRepository
from doctree.store.migrations import migration_sha256

# -- without a server ---------------------------------------------------------------------


def test_a_url_is_told_from_a_file_path():
    assert is_database_url("postgresql://u@h/db") and is_database_url("postgres://h/db")
    assert not is_database_url("/tmp/postgresql.db") and not is_database_url(None)


def test_describe_hides_the_password_and_nothing_else():
    assert (
        describe("postgresql://ann:s3cret@db.example/mem") == "postgresql://ann:***@db.example/mem"
    )
    assert describe("postgresql://ann@db.example/mem") == "postgresql://ann@db.example/mem"
    assert describe("/tmp/x.db") == "/tmp/x.db"


def test_placeholders_are_translated_outside_quotes_only():
    text, returning = translate("SELECT '?', \"a?\" FROM t WHERE x = ? AND y LIKE 'a%'")
    assert text == "SELECT '?', \"a?\" FROM t WHERE x = %s AND y LIKE 'a%%'" and not returning


def test_an_insert_into_a_table_with_a_generated_id_returns_it():
    assert translate("INSERT INTO runs (agent) VALUES (?)") == (
        "INSERT INTO runs (agent) VALUES (%s) RETURNING id",
        True,
    )
    assert translate("INSERT INTO leases (name) VALUES (?)")[1] is False


@pytest.mark.parametrize(
    ("fts5", "tsquery"),
    [
        ('"tea" OR "green"', "'tea' | 'green'"),
        ('"green tea"', "('green' <-> 'tea')"),
        ('"apol"*', "'apol':*"),
        ('("green tea") AND ("green tea" OR "cup")', "( ('green' <-> 'tea') ) & ( ('green' <-> 'tea') | 'cup' )"),
        ('("apollo") NOT "kafka"', "( 'apollo' ) & ! 'kafka'"),
        ('"Zoë" OR dates : "d20230508"', "'zoe' | 'd20230508':C"),
    ],
)  # fmt: skip
def test_fts5_expressions_are_read_into_tsquery(fts5, tsquery):
    labels = {"text": "A", "speaker": "B", "dates": "C", "context": "D"}
    assert fts_to_tsquery(fts5, labels) == tsquery


def test_indexed_text_is_folded_as_the_queries_are():
    assert search_words("Zoë's café — ~/memory/people/zoe") == "zoe s cafe memory people zoe"


def test_without_a_server_the_cli_says_which_database_and_why(tmp_path):
    url = f"postgresql://nobody:pw@/doctree?host={tmp_path}"  # no server listens there
    result = CliRunner().invoke(cli, ["--db", url, "show"])
    assert result.exit_code == 1  # not a usage mistake: the server is away
    assert "cannot connect" in result.output and "nobody:***@" in result.output
    assert "pw@" not in result.output


# -- against the throwaway server ---------------------------------------------------------


@pytest.fixture
def server(postgres_server):
    """The throwaway server, through conftest's fixture, so these tests are marked `postgres`
    (and `make test-fast` starts no server for them)."""
    return postgres_server


@pytest.fixture
def empty_url(server):
    url = server.new_database_empty()
    yield url
    server.drop_database(url)


@pytest.mark.postgres
def test_a_new_database_gets_every_migration_recorded_with_its_sha256(empty_url):
    conn = connect(empty_url)
    rows = conn.execute("SELECT number, name, sha256 FROM doctree_migrations ORDER BY number")
    recorded = [(r[0], r[1], r[2]) for r in rows]
    shipped = [(n, name, migration_sha256(sql)) for n, name, sql in migrations()]
    assert recorded == shipped and recorded
    assert apply_migrations(conn) == []  # applied once
    conn.close()


@pytest.mark.postgres
def test_an_edited_migration_is_refused_with_the_database_named(empty_url):
    connect(empty_url).close()
    edited = [(n, name, sql + "\n-- edited") for n, name, sql in migrations()]
    conn = connect(empty_url, migrate=False)
    with pytest.raises(SchemaError, match="must never be edited"):
        apply_migrations(conn, available=edited)
    conn.close()


@pytest.mark.postgres
def test_a_database_of_a_newer_doctree_is_refused(empty_url):
    conn = connect(empty_url)
    conn.execute(
        "INSERT INTO doctree_migrations (number, name, applied_at, sha256)"
        " VALUES (999, '999_future', 'x', 'x')"
    )
    conn.close()
    with pytest.raises(SchemaError, match=r"newer than this doctree.*999_future"):
        connect(empty_url)


@pytest.mark.postgres
def test_a_schema_of_another_application_is_refused_and_left_alone(empty_url):
    import psycopg

    with psycopg.connect(empty_url, autocommit=True) as other:
        other.execute("CREATE TABLE invoices (id int)")
    with pytest.raises(UserError, match="not a doctree database.*invoices"):
        connect(empty_url)
    with psycopg.connect(empty_url, autocommit=True) as other:
        names = [
            r[0]
            for r in other.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        ]
    assert names == ["invoices"]


@pytest.mark.postgres
def test_a_failing_migration_is_rolled_back_and_not_recorded(empty_url):
    shipped = migrations()
    after = shipped[-1][0] + 1
    broken = [
        *shipped,
        (after, f"{after:03d}_broken", "CREATE TABLE half (x int);\nSELECT no_such_function();"),
    ]
    conn = connect(empty_url, migrate=False)
    with pytest.raises(sqlite3.DatabaseError, match="no_such_function"):
        apply_migrations(conn, available=broken)
    names = [r[0] for r in conn.execute("SELECT name FROM doctree_migrations")]
    tables = [
        r[0] for r in conn.execute("SELECT tablename FROM pg_tables WHERE tablename = 'half'")
    ]
    conn.close()
    assert names == [name for _, name, _ in shipped] and tables == []


def test_a_migration_appended_after_the_baseline_upgrades_a_database_on_open(empty_url):
    shipped = migrations()
    after = shipped[-1][0] + 1
    added = [*shipped, (after, f"{after:03d}_notes", "CREATE TABLE notes (x int);")]
    connect(empty_url).close()
    conn = connect(empty_url, migrate=False)
    assert apply_migrations(conn, available=added) == [f"{after:03d}_notes"]
    assert apply_migrations(conn, available=added) == []
    rows = conn.execute("SELECT name, sha256 FROM doctree_migrations ORDER BY number").fetchall()
    conn.close()
    assert [(r[0], r[1]) for r in rows] == [(n, migration_sha256(q)) for _, n, q in added]


# Columns PostgreSQL has where SQLite has something of its own: the full-text vectors
# (SQLite's FTS5 tables) and the insertion order of sessions (SQLite's implicit rowid).
PG_ONLY_COLUMNS = {"search_vector", "rowid"}
# Tables PostgreSQL has where SQLite has something of its own: BM25's term statistics, which
# FTS5 keeps inside its own index (docs/schema.md).
PG_ONLY_TABLES = {"search_counts", "search_terms", "search_flush"}  # and the queue of a
# transaction's notes of its changes to them (the notes: a temporary table of its connection)
# Columns SQLite has where PostgreSQL keeps them in the row's `search_vector`: what the
# recall index's contentless entries are taken out with (migration 016).
SQLITE_ONLY_COLUMNS = {("recall_passages", "dates"), ("recall_passages", "around")}


def test_both_backends_have_the_same_tables_columns_and_indexes(empty_url, tmp_path):
    lite = connect(tmp_path / "s.db")
    lite_tables = {
        r[0]: [
            c[1]
            for c in lite.execute(f"PRAGMA table_info('{r[0]}')")
            if (r[0], c[1]) not in SQLITE_ONLY_COLUMNS
        ]
        for r in lite.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            " AND sql NOT LIKE 'CREATE VIRTUAL%' AND name NOT LIKE '%_fts_%'"
        ).fetchall()
    }
    lite_indexes = {
        r[0]
        for r in lite.execute(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
        ).fetchall()
    }
    lite.close()
    pg = connect(empty_url)
    pg_tables: dict[str, list[str]] = {}
    for table, column in pg.execute(
        "SELECT table_name, column_name FROM information_schema.columns"
        " WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position"
    ).fetchall():
        if column not in PG_ONLY_COLUMNS and table not in PG_ONLY_TABLES:
            pg_tables.setdefault(table, []).append(column)
    pg_indexes = {
        r[0]
        for r in pg.execute(
            "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()"
            " AND indexname LIKE 'idx_%' AND indexname NOT LIKE '%_search'"
        ).fetchall()
    }
    pg.close()
    assert pg_tables == lite_tables
    assert pg_indexes == lite_indexes


OPEN = """
import sys
from doctree.store.documents import DocumentsRepository
repo = DocumentsRepository(sys.argv[1])
repo.write("main", "~/p" + sys.argv[2], "hello")
print("ok")
"""


@pytest.mark.postgres
@pytest.mark.slow
def test_four_processes_opening_a_new_database_at_once_all_succeed(empty_url):
    procs = [
        subprocess.Popen([sys.executable, "-c", OPEN, empty_url, str(i)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
        for i in range(4)
    ]  # fmt: skip
    results = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0] * 4, [err for _, err in results]
    repo = DocumentsRepository(empty_url)
    assert sorted(d.path for d in repo.documents("main")) == [f"~/p{i}" for i in range(4)]
    assert len(repo.conn.execute("SELECT name FROM doctree_migrations").fetchall()) == len(
        migrations()
    )
    repo.close()


@pytest.mark.postgres
def test_the_connection_speaks_the_sqlite3_interface(server):
    conn = connect(server.test_database())
    with conn:  # as sqlite3: a transaction context, the connection stays open
        conn.execute("BEGIN")
        conn.execute("INSERT INTO leases VALUES (?, ?, ?, ?)", ("n", "h", 1.0, 2.0))
    row = conn.execute("SELECT name, holder FROM leases").fetchone()
    assert (row[0], row["holder"], dict(row)) == ("n", "h", {"name": "n", "holder": "h"})
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute("INSERT INTO leases VALUES (?, ?, ?, ?)", ("n", "h", 1.0, 2.0))
    cur = conn.execute("INSERT INTO runs (definition, owner, backend, model, started_at)"
                       " VALUES (?, ?, ?, ?, ?)", ("a", "main", "offline", "m", "t"))  # fmt: skip
    assert cur.lastrowid == 1 and cur.rowcount == 1
    conn.close()


@pytest.mark.postgres
def test_vacuum_skipped_for_want_of_ownership_is_reported_not_claimed(server):
    import psycopg

    from doctree.store.db import vacuum_file

    url = server.test_database()
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute("DROP ROLE IF EXISTS doctree_writer")
        admin.execute("CREATE ROLE doctree_writer LOGIN")
        admin.execute("GRANT ALL ON ALL TABLES IN SCHEMA public TO doctree_writer")
    try:
        writer = connect(url.replace("doctree@", "doctree_writer@"), migrate=False)
        done, why = vacuum_file(writer)
        writer.close()
        assert not done and "skipped VACUUM" in why
        owner = connect(url)
        assert vacuum_file(owner) == (True, None)
        owner.close()
    finally:
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute("DROP OWNED BY doctree_writer")
            admin.execute("DROP ROLE doctree_writer")
