"""The `doctree` console entry point: the simplest command lines served without click.

Importing click costs more than starting the interpreter, so the three forms a person or a
script runs most often are answered before it is imported:

- `doctree --help` (or `-h`) and `doctree --version` print the text click renders for them,
  kept in `doctree.help_text` (generated from the command tree; a test fails when it goes
  stale), when the terminal is at least as wide as the text was rendered for (80 columns);
- `doctree [--db DB] [--owner OWNER] read PATH` prints the current body, read the quick way
  (`doctree.store.live.read_current`: no repository, no migration checksums).

Anything else goes to the click group (`doctree.cli`), and so does any of these forms whose
quick way does not apply: a narrow terminal, an argument that is not UTF-8, a bad owner or
path, a document that is not there, a database that is not a current SQLite file, a body
that click would print differently (ANSI codes, which it strips off a terminal). Click then
does the same the full way, or says what is wrong with the exit code it always gives.
"""

from __future__ import annotations

import os
import sys


def main() -> None:
    """Run `doctree` with the process's arguments."""
    args = sys.argv[1:]
    text = quick_output(args)
    if text is None or not _write(text):
        from doctree.cli import main as click_main

        click_main()


def quick_output(args: list[str]) -> str | None:
    """What `doctree ARGS` prints, if it is one of the forms served without click (see the
    module's docstring) and its quick way applies; None otherwise."""
    try:
        "".join(args).encode("utf-8")
    except UnicodeEncodeError:  # click names the argument
        return None
    if args in (["--help"], ["-h"]):
        from doctree import help_text

        return help_text.HELP if _terminal_columns() >= help_text.COLUMNS else None
    if args == ["--version"]:
        from doctree import help_text

        return help_text.VERSION
    return _quick_read(args)


def _terminal_columns() -> int:
    """The columns click's help formatter sees (`shutil.get_terminal_size`, without
    importing shutil): $COLUMNS, else the terminal's width, else 80."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns > 0:
        return columns
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        return 80


def _quick_read(args: list[str]) -> str | None:
    """The output of `doctree [--db DB] [--owner OWNER] read PATH` read the quick way, or
    None when the command line is any other or the quick way does not apply."""
    given: dict[str, str] = {}
    i = 0
    while i < len(args) and args[i] != "read":
        name, eq, value = args[i].partition("=")
        if name not in ("--db", "--owner") or name in given:
            return None
        if not eq:
            if i + 1 >= len(args):
                return None
            value = args[i + 1]
            i += 1
        if value.startswith("-"):
            return None
        given[name] = value
        i += 1
    if len(args) != i + 2 or args[i + 1].startswith("-"):
        return None
    db = given.get("--db", os.environ.get("DOCTREE_DB") or None)
    owner = given.get("--owner", os.environ.get("DOCTREE_OWNER") or "main")
    if db is not None and not db.strip():
        return None
    from doctree.errors import DoctreeError
    from doctree.store.paths import unexpand_home, validate_owner

    try:
        validate_owner(owner)
        from doctree.store.db import check_target, default_db_path
        from doctree.store.live import read_current

        target = db if db is not None else default_db_path()
        check_target(target)
        body = read_current(target, owner, unexpand_home(args[i + 1]))
    except (DoctreeError, OSError):
        return None
    except Exception as e:  # a database error: the full opening reports it
        if _is_database_error(e):
            return None
        raise
    if body is None or "\x1b" in body:
        return None
    return body if body.endswith("\n") else body + "\n"


def _is_database_error(e: Exception) -> bool:
    # sqlite3.Error is the class of its C core, which the quick reading imports alone
    core = sys.modules.get("_sqlite3")
    return core is not None and isinstance(e, core.Error)


def _write(text: str) -> bool:
    """Write `text` to stdout as click's echo would; False (nothing written) where click
    would write it otherwise: no stdout, or one whose encoding is not UTF-8 (click
    re-encodes an ASCII stream), or a Windows console."""
    out = sys.stdout
    if out is None or sys.platform == "win32":
        return False
    import codecs

    try:
        if codecs.lookup(out.encoding or "ascii").name != "utf-8":
            return False
    except LookupError:
        return False
    out.write(text)
    out.flush()
    return True
