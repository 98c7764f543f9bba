"""What the CLI tests that replay transcripts share: running `doctree` on a database as the
owner `main`, and writing a session's messages as a transcript file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from click.testing import CliRunner

from doctree.cli import cli
from doctree.sessions.transcripts import format_transcript


def doctree(db_path: Path, *args: str) -> str:
    """`doctree --db DB --owner main ARGS…`, which must exit 0; its standard output."""
    result = CliRunner().invoke(cli, ["--db", str(db_path), "--owner", "main", *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def in_turn(day: str, said: tuple[str, ...], hour: str = "10") -> list[dict[str, Any]]:
    """User and assistant messages in turn, a minute apart from `hour`:00 on `day`."""
    return [
        {"kind": "user" if i % 2 == 0 else "assistant", "time": f"{day}T{hour}:{i:02d}:00Z",
         "content": text}
        for i, text in enumerate(said)
    ]  # fmt: skip


def write_session(tmp_path: Path, sid: str, messages: list[dict[str, Any]]) -> str:
    """The messages as the transcript of session `sid` of `main`, in a file; its path."""
    path = tmp_path / f"{sid}.md"
    path.write_text(format_transcript(messages, owner="main", session_id=sid))
    return str(path)
