"""The console entry point (`doctree.console`): `doctree --help`, `--version` and `read PATH`
answered without click print exactly what the click group prints, and every other command
line still goes to click.

Each case runs two real processes: `python -m doctree ARGS` (the entry point) and the click
group itself (`doctree.cli.main`, what the entry point was before), and compares their exit
codes, stdout and stderr byte for byte.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import click
import pytest

from doctree import help_text
from doctree.cli import cli
from doctree.cli.lazy import HELP_COLUMNS, rendered_help_text

CLICK = "from doctree.cli import main; main()"
# After the command: whether it imported click (the quick way never does).
PROBE = (
    "import sys\nsys.argv = ['doctree', *sys.argv[1:]]\n"
    "from doctree.console import main\n"
    "try:\n    main()\nexcept SystemExit as e:\n    code = e.code\nelse:\n    code = 0\n"
    "sys.stderr.write('click imported: %s\\n' % ('click' in sys.modules))\n"
    "sys.exit(code)\n"
)


def environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "DOCTREE_DB")}
    env.update(extra)
    return env


def run(argv: list[str], env: dict[str, str]) -> tuple[int, bytes, bytes]:
    proc = subprocess.run(argv, capture_output=True, env=env)
    return proc.returncode, proc.stdout, proc.stderr


def both(*args: str, **env: str) -> tuple[tuple[int, bytes, bytes], tuple[int, bytes, bytes]]:
    """(entry point, click group) results of `doctree ARGS`, each in a fresh process."""
    e = environment(**env)
    return (
        run([sys.executable, "-m", "doctree", *args], e),
        run([sys.executable, "-c", CLICK, *args], e),
    )


def imports_click(*args: str, **env: str) -> tuple[int, bool]:
    """(exit code, whether click was imported) of `doctree ARGS` through the entry point."""
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, *args], capture_output=True, text=True, env=environment(**env)
    )
    assert "click imported: " in proc.stderr, proc.stderr
    return proc.returncode, "click imported: True" in proc.stderr


@pytest.fixture
def db(tmp_path: Path) -> str:
    """A database holding ~/notes ('# Notes\\n\\nhello\\n') and ~/plain (no final newline)."""
    path = str(tmp_path / "t.db")
    for doc, body in (("~/notes", "# Notes\n\nhello\n"), ("~/plain", "no newline at the end")):
        subprocess.run(
            [sys.executable, "-c", CLICK, "--db", path, "write", doc],
            input=body.encode(),
            check=True,
            capture_output=True,
        )
    return path


def test_the_cached_help_text_is_what_click_renders():
    """doctree/help_text.py goes stale when a command or an option changes: this fails
    until it is written afresh (see its docstring)."""
    rendered = rendered_help_text()
    assert help_text.COLUMNS == HELP_COLUMNS
    assert rendered == {"HELP": help_text.HELP, "VERSION": help_text.VERSION}, (
        "doctree/help_text.py is stale; write it afresh: .venv/bin/python -m doctree.cli.docs"
    )


def copy_of_the_group(rename: dict[str, str] | None = None) -> click.Group:
    """A plain click group with doctree's options, help and loaded commands, `rename`d."""
    cli.load_all()
    rename = rename or {}
    return click.Group(
        name=cli.name,
        params=cli.params,
        callback=cli.callback,
        help=cli.help,
        context_settings=cli.context_settings,
        commands={rename.get(n, n): c for n, c in cli.commands.items() if not c.hidden},
    )


def test_a_command_added_or_renamed_makes_the_cached_help_stale():
    """The comparison above sees a command added and one renamed (and nothing else: the
    same commands render the cached text)."""
    assert rendered_help_text(copy_of_the_group()) == {
        "HELP": help_text.HELP,
        "VERSION": help_text.VERSION,
    }
    added = copy_of_the_group()
    added.add_command(click.Command("zebra", help="A command added since."))
    assert rendered_help_text(added)["HELP"] != help_text.HELP
    renamed = copy_of_the_group({"blame": "annotate"})
    assert rendered_help_text(renamed)["HELP"] != help_text.HELP


@pytest.mark.slow
@pytest.mark.parametrize("args", [["--help"], ["-h"], ["--version"]])
@pytest.mark.parametrize("columns", [None, "80", "200"])
def test_help_and_version_are_byte_identical_to_clicks(args, columns):
    env = {} if columns is None else {"COLUMNS": columns}
    quick, slow = both(*args, **env)
    assert quick == slow
    assert quick[0] == 0 and quick[1].startswith((b"Usage: doctree", b"doctree, version"))
    assert imports_click(*args, **env) == (0, False)


@pytest.mark.slow
def test_help_on_a_narrow_terminal_is_rendered_by_click():
    """Click wraps help to a terminal narrower than 80 columns: the cached text does not
    apply, so click renders it."""
    quick, slow = both("--help", COLUMNS="60")
    assert quick == slow and quick[1] != help_text.HELP.encode()
    assert imports_click("--help", COLUMNS="60") == (0, True)


@pytest.mark.slow
@pytest.mark.parametrize(
    "args",
    [
        ["read", "~/notes"],
        ["read", "~/plain"],  # click adds the final newline
        ["read", "HOME/notes"],  # the shell expanded ~
        ["read", "~/notes/"],  # normalized
        ["--owner", "main", "read", "~/notes"],
        ["--owner=main", "read", "~/notes"],
    ],
)
def test_read_of_a_document_is_byte_identical_and_needs_no_click(db, args):
    args = [a.replace("HOME", os.path.expanduser("~")) for a in args]
    quick, slow = both("--db", db, *args)
    assert quick == slow
    assert quick[0] == 0 and quick[1] in (b"# Notes\n\nhello\n", b"no newline at the end\n")
    assert imports_click("--db", db, *args) == (0, False)


@pytest.mark.slow
def test_read_with_the_database_from_the_environment(db):
    quick, slow = both("read", "~/notes", DOCTREE_DB=db)
    assert quick == slow and quick[1] == b"# Notes\n\nhello\n"
    assert imports_click("read", "~/notes", DOCTREE_DB=db) == (0, False)


@pytest.mark.slow
@pytest.mark.parametrize(
    "args,code,said",
    [
        (["read", "~/missing"], 2, b"document '~/missing' not found"),
        (["read", "~/../x"], 2, b"'..' is not allowed"),
        (["read", "notes"], 2, b"path 'notes'"),
        (["read", ""], 2, b"path ''"),
        (["--owner", "bad owner", "read", "~/notes"], 2, b"agent id 'bad owner'"),
        (["--owner", "other", "read", "~/notes"], 2, b"not found for owner 'other'"),
        (["read"], 2, b"Missing argument 'PATH'"),
        (["read", "~/notes", "~/plain"], 2, b"unexpected extra argument"),
        (["read", "--help"], 0, b"Usage: doctree read [OPTIONS] PATH"),
        (["read", "~/notes", "--json"], 0, b'"path": "~/notes"'),
        (["read", "~/notes", "--version", "1"], 0, b"hello"),
        (["read", "~/notes", "--version", "9"], 2, b"version 9"),
        (["read", "--", "~/notes"], 0, b"hello"),
        (["--db", "--owner", "read", "~/notes"], 2, b"no such file"),
    ],
)
def test_read_of_anything_else_says_what_click_says(db, args, code, said):
    quick, slow = both("--db", db, *args) if args[0] != "--db" else both(*args)
    assert quick == slow
    assert quick[0] == code
    assert said in quick[1] + quick[2], quick


@pytest.mark.slow
def test_read_of_a_missing_or_foreign_database_says_what_click_says(tmp_path):
    foreign = tmp_path / "other.db"
    import sqlite3

    conn = sqlite3.connect(foreign)
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    conn.close()
    for target, said in (
        (str(tmp_path / "none.db"), b"no such file"),
        (str(foreign), b"is not a doctree database"),
        (str(tmp_path), b"is a directory"),
        ("mysql://host/db", b"unknown scheme"),
        ("", b"must not be empty"),
    ):
        quick, slow = both("--db", target, "read", "~/notes")
        assert quick == slow
        assert quick[0] == 2 and said in quick[2], quick


@pytest.mark.slow
def test_a_body_with_ansi_codes_is_printed_as_click_prints_it(tmp_path):
    """Click strips ANSI codes from what it prints to a pipe: such a body goes to click."""
    path = str(tmp_path / "t.db")
    subprocess.run(
        [sys.executable, "-c", CLICK, "--db", path, "write", "~/colour"],
        input=b"plain \x1b[31mred\x1b[0m text\n",
        check=True,
        capture_output=True,
    )
    quick, slow = both("--db", path, "read", "~/colour")
    assert quick == slow and quick[0] == 0


@pytest.mark.slow
def test_an_argument_that_is_not_utf8_is_refused_as_before(db):
    bad = os.fsdecode(b"~/caf\xe9")
    quick, slow = both("--db", db, "read", bad)
    assert quick == slow
    assert quick[0] == 2 and b"is not UTF-8 text" in quick[2]
