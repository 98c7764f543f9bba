"""forget, redact, compact and revert preview and ask in a terminal (a real pseudo-terminal,
the command a real subprocess), refuse without one unless given --yes, and --dry-run only
shows (`doctree/cli/confirm.py`)."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from doctree.cli import cli
from doctree.store.documents import DocumentsRepository

pytestmark = pytest.mark.slow

DOCTREE = [sys.executable, "-m", "doctree"]
ALICE = "# Alice\nLikes tea.\nMet Kohl at the fair.\nWorks at Acme.\n"


def in_terminal(db, args: list[str], answer: str | None) -> tuple[int, str]:
    """Run `doctree --db DB ARGS` with a pseudo-terminal as stdin, stdout and stderr; when
    it asks, type `answer`. Returns (exit code, everything it printed)."""
    main, child = pty.openpty()
    proc = subprocess.Popen(
        [*DOCTREE, "--db", str(db), *args],
        stdin=child,
        stdout=child,
        stderr=child,
        env={**os.environ, "TERM": "dumb", "USER": "tester"},
        close_fds=True,
    )
    os.close(child)
    out = b""
    answered = answer is None
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        ready, _, _ = select.select([main], [], [], 0.2)
        if ready:
            try:
                data = os.read(main, 4096)
            except OSError:  # the child closed the terminal
                break
            if not data:
                break
            out += data
        if not answered and b"go ahead? [y/N]" in out:
            os.write(main, answer.encode() + b"\n")
            answered = True
        if proc.poll() is not None and not ready:
            break
    code = proc.wait(timeout=60)
    os.close(main)
    return code, out.decode("utf-8", "replace").replace("\r\n", "\n")


@pytest.fixture
def alice_db(db_path) -> Path | str:
    with DocumentsRepository(db_path) as repo:
        repo.write("main", "~/memory/people/alice", ALICE)
    return db_path


def body(db, path="~/memory/people/alice", version=None) -> str:
    with DocumentsRepository(db) as repo:
        return repo.read("main", path, version=version).body


def test_forget_in_a_terminal_shows_the_change_and_goes_ahead_on_yes(alice_db):
    code, out = in_terminal(alice_db, ["forget", "Kohl"], "y")

    assert code == 0, out
    assert "~/memory/people/alice: versions v1 rewritten; new current version v2" in out
    assert "~/memory/people/alice v1: Met \x1b[31m\x1b[1m»Kohl«\x1b[0m at the fair." in out
    assert out.index("go ahead?") < out.index("forgot ~/memory/people/alice v1; now v2")
    assert body(alice_db) == body(alice_db, version=1) == ALICE.replace("Kohl", "[forgotten]")


def test_forget_in_a_terminal_changes_nothing_when_the_answer_is_no(alice_db):
    code, out = in_terminal(alice_db, ["forget", "Kohl"], "n")

    assert code == 1
    assert "nothing changed" in out
    assert body(alice_db) == ALICE


def test_redact_in_a_terminal_asks_before_it_changes_anything(alice_db):
    code, out = in_terminal(alice_db, ["redact", "~/memory/people/alice", "Kohl"], "n")

    assert (code, body(alice_db)) == (1, ALICE)
    assert "redact 'Kohl' would replace each match by [redacted]" in out


@pytest.mark.parametrize(
    "args",
    [
        ["forget", "Kohl"],
        ["redact", "~/memory/people/alice", "Kohl"],
        ["redact", "~/memory/people/alice", "--whole-version", "1"],
        ["compact", "~/memory", "--whole-memory", "--include-hand-written"],
    ],
)
def test_without_a_terminal_and_without_yes_it_refuses_in_one_line(alice_db, args):
    result = subprocess.run(
        [*DOCTREE, "--db", str(alice_db), *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert "--yes" in result.stderr and "--dry-run" in result.stderr
    assert body(alice_db) == ALICE


def test_compact_dry_run_lists_what_it_would_condense_and_changes_nothing(alice_db):
    with DocumentsRepository(alice_db) as repo:
        repo.write("main", "~/memory/people/bob", "# Bob\nLikes coffee.\n")

    result = CliRunner().invoke(
        cli,
        [
            "--db",
            str(alice_db),
            "compact",
            "~/memory",
            "--whole-memory",
            "--include-hand-written",
            "--dry-run",
        ],
    )

    assert result.exit_code == 0, result.output
    assert "compact would condense 3 document(s) of 'main' under ~/memory" in result.output
    assert "~/memory/people/alice" in result.output
    with DocumentsRepository(alice_db) as repo:
        assert not repo.exists("main", "~/memory/compacted")


def test_compact_in_a_terminal_asks_first(alice_db):
    with DocumentsRepository(alice_db) as repo:
        repo.write("main", "~/memory/people/bob", "# Bob\nLikes coffee.\n")

    code, out = in_terminal(
        alice_db, ["compact", "~/memory", "--whole-memory", "--include-hand-written"], "n"
    )

    assert code == 1 and "compact would condense" in out
    with DocumentsRepository(alice_db) as repo:
        assert not repo.exists("main", "~/memory/compacted")


def test_revert_without_a_terminal_refuses_and_in_one_asks(db_path):
    from doctree.store.model import Actor, Provenance
    from doctree.store.runs import Runs

    with DocumentsRepository(db_path) as repo:
        run_id = Runs(repo.conn).start(owner="main", backend="offline", model="offline")
        repo.write(
            "main",
            "~/memory/x",
            "by the run\n",
            provenance=Provenance(Actor("memory-agent", "main"), run=run_id),
        )
        Runs(repo.conn).finish(run_id, "completed", "end_turn")

    piped = subprocess.run(
        [*DOCTREE, "--db", str(db_path), "revert", "--run", str(run_id)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert piped.returncode == 2 and "--yes" in piped.stderr

    code, out = in_terminal(db_path, ["revert", "--run", str(run_id)], "y")

    assert code == 0, out
    assert out.index("would put back 2") < out.index("go ahead?") < out.index(": put back 2")
    with DocumentsRepository(db_path) as repo:
        assert not repo.exists("main", "~/memory/x")
