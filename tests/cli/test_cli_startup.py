"""Start-up of the command line: a command imports only what it uses.

The console entry point (`doctree.console`) prints `doctree --help` and `--version` and
reads `doctree read PATH` without importing click or any command module; the tests below it
check the click group these fall back to (and every other command goes to) as well.
`doctree --help` lists the commands from a table (doctree/cli/lazy.py) without importing any
command module, the store, sqlite3, json, the SDKs or pydantic; `doctree read PATH` imports
its own command module and the few store modules of a one-shot read (`open_reader`: no
repository, no migration checksums, no secret detector for a path too short to hold a
secret), and none of the model backends. Each runs in a fresh interpreter, as a user runs
it; the time itself is measured by bench/startup.py.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

HEAVY = (
    "anthropic",
    "openai",
    "starlette",
    "uvicorn",
    "pydantic",
    "httpx",
    "mcp",
    "markdown_it",
    "jinja2",
    "yaml",
    "psycopg",
)

# What `doctree read PATH` may import of the store: the quick opening and the live row.
READ_STORE = {
    "doctree.store",
    "doctree.store.db",
    "doctree.store.encoding",
    "doctree.store.live",
    "doctree.store.migrations",
    "doctree.store.paths",
    "doctree.store.targets",
}


# Run in the child after the command: what it imported, and whether the secret detector
# compiled its patterns. The child's json and sqlite3 are imported only after the command
# (and from a saved copy of the module names), so they are not counted as its imports.
CHILD = """\
import io, sys, contextlib
sys.argv = ['doctree', *ARGS]
out = io.TextIOWrapper(io.BytesIO(), encoding='utf-8', write_through=True)
status = 0
with contextlib.redirect_stdout(out):
    try:
        from ENTRY import main
        main()
    except SystemExit as e:
        status = e.code or 0
modules = sorted(sys.modules)
secrets = sys.modules.get('doctree.store.secrets')
compiled = bool(secrets and secrets._patterns.cache_info().currsize)
import json
print(json.dumps([status, modules, out.buffer.getvalue().decode(), compiled]))
"""


# `CHILD` for a plain interpreter, its output caught without contextlib (which imports what
# the read must not: the test looks for it).
PLAIN_CHILD = """\
import io, sys
sys.argv = ['doctree', *ARGS]
sys.stdout = io.TextIOWrapper(io.BytesIO(), encoding='utf-8', write_through=True)
status = 0
try:
    from doctree.console import main
    main()
except SystemExit as e:
    status = e.code or 0
out, sys.stdout = sys.stdout, sys.__stdout__
modules = sorted(sys.modules)
import json
print(json.dumps([status, modules, out.buffer.getvalue().decode()]))
"""


def run_child(
    *args: str, stdin: str | None = None, entry: str = "doctree.cli"
) -> tuple[int, set[str], str, bool]:
    """(exit code, modules imported, stdout, secret patterns compiled) of `doctree ARGS`
    run in a fresh interpreter, through the click group (`doctree.cli`) or the console
    entry point (`doctree.console`)."""
    code = CHILD.replace("ARGS", repr(list(args))).replace("ENTRY", entry)
    proc = subprocess.run(
        [sys.executable, "-c", code], input=stdin, capture_output=True, text=True, check=True
    )
    status, modules, stdout, compiled = json.loads(proc.stdout)
    return status, set(modules), stdout, compiled


def write_note(db: Path, body: str) -> None:
    """Write `body` to ~/notes in `db` through the whole CLI, in its own process."""
    subprocess.run(
        [sys.executable, "-m", "doctree", "--db", str(db), "write", "~/notes"],
        input=body,
        text=True,
        check=True,
        capture_output=True,
    )


def modules_after(*args: str, entry: str = "doctree.cli") -> tuple[int, set[str], str]:
    """(exit code, modules imported, stdout) of `doctree ARGS` run in a fresh interpreter."""
    status, modules, stdout, _ = run_child(*args, entry=entry)
    return status, modules, stdout


def top(modules: set[str]) -> set[str]:
    return {m.split(".")[0] for m in modules}


@pytest.mark.slow
def test_help_imports_no_store_sdk_or_command_module():
    status, modules, out = modules_after("--help")
    assert status == 0 and "Commands:" in out
    assert top(modules) & set(HEAVY) == set()
    # what help never uses: the database driver, and json (for --json output only)
    assert top(modules) & {"sqlite3", "json"} == set()
    doctree_modules = {m for m in modules if m.startswith("doctree.")}
    assert doctree_modules <= {
        "doctree.cli",
        "doctree.cli.options",
        "doctree.cli.lazy",
        "doctree.errors",
    }, doctree_modules


@pytest.mark.slow
@pytest.mark.parametrize("args", [["--help"], ["-h"], ["--version"]])
def test_help_through_the_entry_point_imports_neither_click_nor_the_store(args):
    status, modules, out = modules_after(*args, entry="doctree.console")
    assert status == 0 and out.startswith(("Usage: doctree", "doctree, version"))
    # (re is not checked: the editable install's finder imports it at every start)
    assert top(modules) & {"click", "sqlite3", "json", "typing", *HEAVY} == set()
    assert {m for m in modules if m.startswith("doctree")} == {
        "doctree",
        "doctree.console",
        "doctree.help_text",
    }


@pytest.mark.slow
def test_read_through_the_entry_point_imports_no_click_and_no_command_module(tmp_path):
    db = tmp_path / "t.db"
    write_note(db, "# Notes\n\nhello\n")
    status, modules, out = modules_after(
        "--db", str(db), "read", "~/notes", entry="doctree.console"
    )
    assert status == 0 and out == "# Notes\n\nhello\n"
    assert top(modules) & {"click", "json", "hashlib", "dataclasses", *HEAVY} == set()
    doctree_modules = {m for m in modules if m.startswith("doctree")}
    assert doctree_modules - READ_STORE == {
        "doctree",
        "doctree.console",
        "doctree.errors",
        "doctree.resources",
    }


@pytest.mark.slow
def test_read_through_the_entry_point_imports_neither_typing_nor_re(tmp_path):
    """Nor what they bring (enum, contextlib), nor the sqlite3 package around its C core
    (which imports datetime for its adapters): a plain install, the checkout on `sys.path`
    with no site-packages (so no editable install's finder, which imports `re`)."""
    db = tmp_path / "t.db"
    subprocess.run(
        [sys.executable, "-m", "doctree", "--db", str(db), "write", "~/notes/plain"],
        input="hello\n",
        text=True,
        check=True,
        capture_output=True,
    )
    code = PLAIN_CHILD.replace("ARGS", repr(["--db", str(db), "read", "~/notes/plain"]))
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.run(
        [sys.executable, "-S", "-c", code],
        env={"PYTHONPATH": str(root), "PATH": os.environ.get("PATH", "")},
        capture_output=True,
        text=True,
        check=True,
    )
    status, modules, out = json.loads(proc.stdout.splitlines()[-1])
    assert status == 0 and out == "hello\n"
    assert "_sqlite3" in modules
    assert (
        top(set(modules))
        & {
            "typing",
            "re",
            "enum",
            "contextlib",
            "click",
            "pathlib",
            "sqlite3",
            "datetime",
        }
        == set()
    )


@pytest.mark.slow
def test_read_imports_its_own_command_module_only(tmp_path):
    db = tmp_path / "t.db"
    write_note(db, "# Notes\n\nhello\n")
    status, modules, out = modules_after("--db", str(db), "read", "~/notes")
    assert status == 0 and "hello" in out
    assert top(modules) & set(HEAVY) == set()
    commands = {m for m in modules if m.startswith("doctree.cli.")}
    assert commands <= {"doctree.cli.options", "doctree.cli.lazy", "doctree.cli.documents"}
    floors = {"doctree.llm", "doctree.memory", "doctree.agent", "doctree.sessions", "doctree.web"}
    assert floors & {".".join(m.split(".")[:2]) for m in modules} == set()
    # a one-shot read: no repository, no settings, no checksums of migration files
    store = {m for m in modules if m.startswith("doctree.store")}
    assert store <= READ_STORE, store - READ_STORE
    assert top(modules) & {"hashlib", "dataclasses"} == set()


@pytest.mark.slow
def test_read_compiles_no_secret_pattern_and_write_does(tmp_path):
    """The detector's patterns are compiled for the first text that may hold a secret (one
    holding a keyword such as "token"): a write searches its body, a read searches nothing
    (a path whose segments are too short to hold a secret does not even load the detector)."""
    db = str(tmp_path / "t.db")
    body = "# Notes\n\nThe token is expired.\n"
    status, _, _, compiled = run_child("--db", db, "write", "~/notes", stdin=body)
    assert status == 0 and compiled
    status, modules, out, compiled = run_child("--db", db, "read", "~/notes")
    assert status == 0 and out == body
    assert "doctree.store.secrets" not in modules and not compiled


@pytest.mark.slow
def test_read_of_a_schema_newer_than_the_code_is_refused_not_read(tmp_path):
    """The quick opening reads the migration names recorded: a database that records one
    this doctree does not ship is left to the full opening, which refuses it."""
    db = tmp_path / "t.db"
    write_note(db, "hello\n")
    raw = sqlite3.connect(db)
    raw.execute(
        "INSERT INTO doctree_migrations (number, name, applied_at, sha256)"
        " VALUES (999, '999_future', 'x', 'x')"
    )
    raw.commit()
    raw.close()
    proc = subprocess.run(
        [sys.executable, "-m", "doctree", "--db", str(db), "read", "~/notes"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode != 0 and proc.stdout == ""
    assert "999_future" in proc.stderr and "newer than this doctree" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.slow
def test_read_of_an_older_schema_brings_it_up_to_date_as_before(tmp_path):
    """A database missing a shipped migration is opened the full way, which applies it."""
    from doctree.store.db import apply_migrations, connect
    from doctree.store.migrations import migrations, shipped_names

    db = tmp_path / "old.db"
    conn = connect(db, migrate=False)
    apply_migrations(conn, available=migrations()[:-1])
    conn.close()
    proc = subprocess.run(
        [sys.executable, "-m", "doctree", "--db", str(db), "read", "~/notes"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2 and "document '~/notes' not found" in proc.stderr
    raw = sqlite3.connect(db)
    recorded = [r[0] for r in raw.execute("SELECT name FROM doctree_migrations ORDER BY number")]
    raw.close()
    assert recorded == shipped_names()


def test_command_table_matches_the_commands():
    """The table --help reads: every command, its module, the first sentence of its help."""
    from doctree.cli import cli
    from doctree.cli.lazy import COMMANDS, command_table

    assert command_table(cli) == COMMANDS, (
        "doctree/cli/lazy.py COMMANDS is stale; print it afresh: "
        "python -c 'from doctree.cli.lazy import print_table; print_table()'"
    )


def test_every_command_module_is_listed():
    from pathlib import Path

    from doctree.cli.lazy import COMMANDS, MODULES

    folder = Path(__file__).resolve().parents[2] / "doctree" / "cli"
    registering = {p.stem for p in folder.glob("*.py") if "@cli.command" in p.read_text()}
    assert registering == set(MODULES)
    assert {m for m, _ in COMMANDS.values()} <= set(MODULES)


@pytest.mark.slow
def test_lazy_help_is_the_help_of_the_loaded_commands():
    """The lazily listed commands read exactly as click lists the loaded commands."""
    from doctree.cli import cli
    from doctree.cli.lazy import LazyGroup

    _, _, lazy = modules_after("--help")
    cli.load_all()
    loaded = CliRunner().invoke(cli, ["--help"], prog_name="doctree", terminal_width=80)
    shown = [line for line in lazy.splitlines() if line.strip()]
    # click's own listing, calling each loaded command (no table involved)
    ctx = cli.make_context("doctree", ["--help"], resilient_parsing=True)
    formatter = ctx.make_formatter()
    super(LazyGroup, cli).format_commands(ctx, formatter)
    assert formatter.getvalue().strip() in lazy
    assert loaded.output.splitlines()[0] == shown[0]


@pytest.mark.slow
def test_unknown_command_is_still_a_usage_error():
    proc = subprocess.run(
        [sys.executable, "-m", "doctree", "no-such-command"], capture_output=True, text=True
    )
    assert proc.returncode == 2
    assert "No such command 'no-such-command'" in proc.stderr
