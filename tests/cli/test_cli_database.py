"""Which database a command opens, and what it may create: a mistyped --db is an error,
never a new database. Commands that only read (or change what exists) never create one;
the commands that add content create a new file, but never its folder (except the default
database's); a `scheme:` that is no known backend is refused."""

from __future__ import annotations

import os
import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from doctree.cli import CREATING_COMMANDS, cli

# Arguments that are valid for each command that does not create a database, so that the
# database is the only thing wrong. Every command of the CLI is either here or creating.
ARGS = {
    "blame": ["~/a"],
    "compact": ["~/memory"],
    "consolidate": [],
    "context": [],
    "diff": ["~/a", "1", "2"],
    "edit": ["~/a", "old", "new"],
    "export": ["~"],  # + a folder, added below
    "forget": ["secret", "--dry-run"],
    "history": ["~/a"],
    "links": ["~/a"],
    "log": [],
    "mv": ["~/a", "~/b"],
    "read": ["~/a"],
    "redact": ["~/a", "1"],
    "restore": ["~/a", "1"],
    "revert": ["--run", "1", "--dry-run"],
    "rm": ["~/a"],
    "run-show": ["1"],
    "runs": [],
    "search": ["tea"],
    "serve": ["--port", "0"],
    "sessions": [],
    "show": ["~/memory"],
    "transcript": ["s1"],
}


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args))


def one_line(result, code: int) -> str:
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


@pytest.fixture(autouse=True)
def clean_env(monkeypatch, tmp_path):
    monkeypatch.delenv("DOCTREE_DB", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "home" / "data"))
    monkeypatch.chdir(tmp_path)


def test_every_command_is_classified():
    assert set(cli.list_commands(click.Context(cli))) == set(ARGS) | CREATING_COMMANDS


@pytest.mark.parametrize("command", sorted(ARGS))
def test_a_command_that_does_not_add_content_never_creates_a_database(command, tmp_path):
    db = tmp_path / "nonexistent" / "dir" / "x.db"
    extra = [str(tmp_path / "out")] if command == "export" else []
    line = one_line(invoke("--db", str(db), command, *ARGS[command], *extra), 2)
    assert str(db) in line and "no such file" in line and "never creates a database" in line
    assert not (tmp_path / "nonexistent").exists()
    assert not (tmp_path / "out").exists()


def test_a_read_of_a_missing_file_in_an_existing_folder_creates_nothing(tmp_path):
    line = one_line(invoke("--db", "typo.db", "show", "~/memory"), 2)
    assert "'typo.db'" in line
    assert not (tmp_path / "typo.db").exists()


def test_a_write_to_a_new_file_creates_it(tmp_path):
    result = CliRunner().invoke(cli, ["--db", "new.db", "write", "~/a"], input="hello\n")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "new.db").is_file()
    assert invoke("--db", "new.db", "read", "~/a").output == "hello\n"


def test_a_write_into_a_missing_folder_is_an_error_and_makes_no_folder(tmp_path):
    db = tmp_path / "nonexistent" / "x.db"
    result = CliRunner().invoke(cli, ["--db", str(db), "write", "~/a"], input="hello\n")
    line = one_line(result, 2)
    assert str(tmp_path / "nonexistent") in line and "does not exist" in line
    assert not (tmp_path / "nonexistent").exists()


@pytest.mark.parametrize(
    "target, fragment",
    [
        ("mysql://root@localhost/memory", "unknown scheme 'mysql:'"),
        ("sqlite:///tmp/x.db", "unknown scheme 'sqlite:'"),
        ("https://example.com/db", "unknown scheme 'https:'"),
        ("notes:v2.db", "or ./notes:v2.db for a file of that name"),
        ("postgres:/typo", "a PostgreSQL URL starts with postgres://"),
        ("postgresql:typo", "a PostgreSQL URL starts with postgresql://"),
    ],
)
@pytest.mark.parametrize("command", [["show"], ["write", "~/a"]])
def test_an_unknown_scheme_is_refused_naming_the_schemes_accepted(
    target, fragment, command, tmp_path
):
    result = CliRunner().invoke(cli, ["--db", target, *command], input="x\n")
    line = one_line(result, 2)
    assert fragment in line
    if "unknown scheme" in fragment:
        assert "postgresql://" in line and "SQLite file" in line
    assert list(tmp_path.iterdir()) == []  # no file named after the URL


def test_a_password_in_a_refused_url_is_not_shown():
    line = one_line(invoke("--db", "mysql://root:hunter2@localhost/db", "show"), 2)
    assert "hunter2" not in line and "root:***@" in line


def test_a_file_name_with_a_colon_is_given_as_a_relative_path(tmp_path):
    result = CliRunner().invoke(cli, ["--db", "./notes:v2.db", "write", "~/a"], input="x\n")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "notes:v2.db").is_file()


# -- the default database -------------------------------------------------------------------


def test_the_default_database_is_not_created_by_a_read(tmp_path):
    line = one_line(invoke("show"), 2)
    assert "default database" in line and "write something first" in line
    assert not (tmp_path / "home").exists()


def test_the_default_database_and_its_folder_are_created_by_the_first_write(tmp_path):
    result = CliRunner().invoke(cli, ["write", "~/memory/a"], input="hello\n")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "home" / "data" / "doctree" / "doctree.db").is_file()
    assert invoke("read", "~/memory/a").output == "hello\n"


# -- through real processes -----------------------------------------------------------------


@pytest.mark.slow
def test_the_brief_example_creates_nothing_and_exits_2(tmp_path):
    env = {**os.environ, "HOME": str(tmp_path)}
    env.pop("DOCTREE_DB", None)
    for target in (str(tmp_path / "nonexistent" / "dir" / "x.db"), "mysql://u@h/db"):
        result = subprocess.run(
            [sys.executable, "-m", "doctree", "--db", target, "show", "~/memory"],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env=env,
        )
        assert result.returncode == 2, result.stderr
        assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
        assert target in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == []
