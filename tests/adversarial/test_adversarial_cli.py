"""The CLI under hostile input, as real processes and through click: every failure is one
line on stderr with exit 1, 2 or 3, never a traceback."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from doctree.cli import cli
from doctree.store.backends import is_database_url
from doctree.store.db import connect

DOCTREE = [sys.executable, "-m", "doctree"]


def run(db, *args, stdin: bytes = b""):
    return subprocess.run(
        [*DOCTREE, "--db", str(db), *args], input=stdin, capture_output=True, timeout=120
    )


@pytest.fixture
def seeded_db(db_path):
    """A store with one document in two versions (written in-process: the tests' own
    commands are the real processes)."""
    for args, stdin in (
        (["write", "~/memory/a"], b"# A\nalpha tea\n"),
        (["edit", "~/memory/a", "tea", "green tea"], b""),
    ):
        result = CliRunner().invoke(cli, ["--db", str(db_path), *args], input=stdin)
        assert result.exit_code == 0, result.output
    return db_path


def one_line_error(result, code: int) -> str:
    err = result.stderr.decode("utf-8", "replace")
    assert result.returncode == code, err
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err
    return err


def test_non_utf8_argument_stdin_and_file_are_refused(seeded_db, tmp_path):
    err = one_line_error(run(seeded_db, "read", os.fsdecode(b"~/memory/\xff")), 2)
    assert "is not UTF-8 text" in err
    err = one_line_error(run(seeded_db, "write", "~/memory/b", stdin=b"a\xffb"), 2)
    assert "stdin: is not UTF-8 text" in err
    bad = tmp_path / "bad.md"
    bad.write_bytes(b"\xfe\xff")
    assert "is not UTF-8 text" in one_line_error(
        run(seeded_db, "write", "~/memory/b", "--file", str(bad)), 2
    )


@pytest.mark.parametrize(
    "args",
    [
        ["read", "~/memory/a", "--version", str(2**70)],
        ["restore", "~/memory/a", str(2**63)],
        ["diff", "~/memory/a", "1", str(2**64)],
        ["search", "tea", "--limit", str(2**63)],
        ["runs", "--limit", str(2**70)],
        ["run-show", str(2**70)],
        ["revert", "--run", str(2**70)],
        ["consolidate", "--week", "9999-W52"],
        ["read", "~/memory/a", "--at", "0001-01-01T00:00:00+14:00"],
        ["log", "--since", "9999-12-31T23:59:59-14:00"],
        ["show", "--at", "0001-01-01T00:00:00+14:00"],
        ["compact", "~/nonexistent"],
        ["log", "~/memory/nope"],
        ["diff", "--run", "99"],
        ["context", "--under", "~/nonexistent"],
        ["search", "tea", "--under", "~/nonexistent"],
        ["worker", "--once", "--backend", "bogus"],
        ["search", "-- -tea"],
    ],
)
def test_bad_numbers_and_missing_things_exit_2_with_one_line(seeded_db, args):
    one_line_error(run(seeded_db, *args), 2)


def test_deep_frontmatter_is_one_line_exit_2(seeded_db):
    body = b"---\nx: " + b"[" * 30_000 + b"\n---\nbody\n"
    err = one_line_error(run(seeded_db, "write", "~/memory/deep", stdin=body), 2)
    assert "frontmatter nested too deep" in err


@pytest.mark.sqlite_only  # a SQLite file's bytes (the PostgreSQL twin follows)
def test_a_database_of_another_application_is_refused_untouched(tmp_path):
    other = tmp_path / "other.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE documents (x)")
    conn.commit()
    conn.close()
    before = other.read_bytes()
    err = one_line_error(run(other, "show"), 2)
    assert "is not a doctree database" in err
    assert other.read_bytes() == before
    assert "must not be empty" in one_line_error(
        subprocess.run([*DOCTREE, "--db", "", "show"], capture_output=True), 2
    )


def test_a_postgres_database_of_another_application_is_refused_untouched(
    postgres_url_without_tables,
):
    import psycopg

    url = postgres_url_without_tables
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE documents (x TEXT)")
        conn.execute("INSERT INTO documents VALUES ('theirs')")
    err = one_line_error(run(url, "show"), 2)
    assert "is not a doctree database" in err
    with psycopg.connect(url, autocommit=True) as conn:
        tables = conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
        ).fetchall()
        assert tables == [("documents",)]
        assert conn.execute("SELECT x FROM documents").fetchall() == [("theirs",)]


def test_a_read_only_postgres_database_is_read_and_a_write_is_one_line(postgres_url):
    import psycopg

    assert run(postgres_url, "write", "~/memory/a", stdin=b"kept\n").returncode == 0
    with psycopg.connect(postgres_url, autocommit=True) as conn:  # as a standby would be
        conn.execute(
            "DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET default_transaction_read_only"
            " = on', current_database()); END $$"
        )
    read = run(postgres_url, "read", "~/memory/a")
    assert (read.returncode, read.stdout) == (0, b"kept\n"), read.stderr
    err = one_line_error(run(postgres_url, "write", "~/memory/b", stdin=b"new\n"), 1)
    assert "read-only" in err and "the server refuses writes" in err
    assert b"~/memory/b" not in run(postgres_url, "show", "~").stdout


@pytest.mark.sqlite_only  # corrupts the pages of a SQLite file
def test_a_corrupt_database_is_one_line_naming_it_and_nothing_is_stored(seeded_db):
    data = bytearray(seeded_db.read_bytes())
    page = 4096
    for p in range(2, len(data) // page):  # every page but the schema's
        data[p * page : p * page + 64] = b"\xa5" * 64
    seeded_db.write_bytes(bytes(data))
    for f in (seeded_db.with_name("d.db-wal"), seeded_db.with_name("d.db-shm")):
        f.unlink(missing_ok=True)
    result = run(seeded_db, "write", "~/memory/c", stdin=b"new\n")
    err = result.stderr.decode()
    assert result.returncode in (1, 2), err
    assert "Traceback" not in err and str(seeded_db) in err


def test_export_refuses_files_it_did_not_write_and_uncreatable_folders(seeded_db, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "memory.md").write_text("mine\n")
    assert "not written by an export" in one_line_error(run(seeded_db, "export", "~", str(out)), 2)
    assert (out / "memory.md").read_text() == "mine\n"
    (tmp_path / "file").write_text("x")
    one_line_error(run(seeded_db, "export", "~", str(tmp_path / "file" / "sub")), 2)
    assert run(seeded_db, "export", "~", str(out), "--force").returncode == 0
    assert run(seeded_db, "export", "~", str(out)).returncode == 0  # its own files: fine


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    command=st.sampled_from(
        [
            ["read"],
            ["show"],
            ["history"],
            ["write"],
            ["search"],
            ["log"],
            ["links"],
            ["rm"],
            ["restore", "1"],
            ["diff"],
            ["forget"],
        ]
    ),
    arg=st.text(max_size=30) | st.sampled_from(["~/\udcff", "\x00", "~/" + "a/" * 30]),
    number=st.integers() | st.just(2**70),
    stdin=st.binary(max_size=40),
)
def test_fuzzed_commands_never_raise_an_unexpected_exception(db_path, command, arg, number, stdin):
    db = db_path
    args = ["--db", str(db), command[0], arg, *command[1:]]
    if command[0] == "read":
        args += ["--version", str(number)]
    result = CliRunner().invoke(cli, args, input=stdin)
    assert result.exit_code in (0, 1, 2, 3), result.output
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception


# Holds the store's write lock (a write transaction, as the store opens it) until told.
HOLDER = """
import sys
from doctree.store.backends import begin_write
from doctree.store.db import connect
conn = connect(sys.argv[1])
begin_write(conn)
print("holding", flush=True)
sys.stdin.readline()
conn.rollback()
"""


@pytest.mark.parametrize(
    "args",
    [
        ["write", "~/memory/new"],
        ["rm", "~/memory/a"],
        ["mv", "~/memory/a", "~/memory/b"],
        ["forget", "tea", "--yes"],
    ],
)
def test_a_lock_held_past_the_timeout_is_one_line_and_stores_nothing(seeded_db, args):
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(seeded_db)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "holding"
        result = subprocess.run(
            [*DOCTREE, "--db", str(seeded_db), *args],
            input=b"body\n",
            capture_output=True,
            timeout=120,
            env={**os.environ, "DOCTREE_BUSY_TIMEOUT_MS": "300"},
        )
    finally:
        holder.communicate("\n", timeout=60)
    err = one_line_error(result, 1)
    assert str(seeded_db) in err and "held it past the busy timeout" in err
    assert "database is locked" in err or "lock timeout" in err  # SQLite's words, a server's
    listing = run(seeded_db, "log", "~", "--json")
    assert listing.returncode == 0
    assert [v["version"] for v in json.loads(listing.stdout)] == [2, 1, 1]


def test_forget_from_the_cli_leaves_no_copy_in_transcripts_search_or_the_file(db_path):
    db = db_path
    secret = "qpwsecret77"
    from doctree.sessions.repository import SessionsRepository
    from doctree.sessions.sessions import AgentDescriptor

    sessions = SessionsRepository(db)
    sessions.ensure(AgentDescriptor("agent", "main"), "s1")
    sessions.append_history("s1", "user", f"my code is {secret}")
    sessions.close()
    assert run(db, "write", f"~/memory/{secret}", stdin=f"code {secret}\n".encode()).returncode == 0
    assert secret in run(db, "transcript", "s1").stdout.decode()

    result = run(db, "forget", secret, "--yes")

    assert result.returncode == 0, result.stderr
    assert secret not in run(db, "transcript", "s1").stdout.decode()
    assert b"no matches" in run(db, "search", secret).stdout
    assert secret not in run(db, "show", "~").stdout.decode()
    with connect(db) as conn:
        for table in tables_of(conn, db):
            for row in conn.execute(f"SELECT * FROM {table}"):
                assert secret not in repr(tuple(row)), table
        if not is_database_url(db):  # and not in the file's bytes either
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    if not is_database_url(db):
        assert secret.encode() not in db.read_bytes()


def tables_of(conn, db) -> list[str]:
    if is_database_url(db):
        query = (
            "SELECT table_name FROM information_schema.tables"
            " WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
        )
    else:
        query = "SELECT name FROM sqlite_master WHERE type = 'table'"
    tables = [r[0] for r in conn.execute(query)]
    assert "documents" in tables and "session_history" in tables
    return tables


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    command=st.sampled_from(["read", "write", "search", "history", "forget", "show"]),
    raw=st.binary(min_size=1, max_size=12).filter(lambda b: b"\x00" not in b),
    stdin=st.binary(max_size=30),
)
def test_raw_bytes_in_argv_and_stdin_of_a_real_process_never_trace_back(
    new_store, command, raw, stdin
):
    db = new_store()
    result = subprocess.run(
        [*DOCTREE, "--db", str(db), command, os.fsdecode(b"~/" + raw)],
        input=stdin,
        capture_output=True,
        timeout=120,
    )
    assert result.returncode in (0, 1, 2, 3)
    assert b"Traceback" not in result.stderr
