"""Anchored dates through `doctree replay`: a date counted from an event of an earlier
session is written with its day, and marked when the event moves; `doctree show` lists the
pages they are on and `doctree read` prints them."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from doctree.cli import cli
from doctree.sessions.transcripts import format_transcript


def doctree(db_path: Path, *args: str) -> str:
    result = CliRunner().invoke(cli, ["--db", str(db_path), "--owner", "main", *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def session(tmp_path: Path, sid: str, day: str, *said: str) -> str:
    """User and assistant messages in turn, a minute apart."""
    messages = [
        {"kind": "user" if i % 2 == 0 else "assistant", "time": f"{day}T10:0{i}:00Z",
         "content": text}
        for i, text in enumerate(said)
    ]  # fmt: skip
    path = tmp_path / f"{sid}.md"
    path.write_text(format_transcript(messages, owner="main", session_id=sid))
    return str(path)


def test_anchored_dates_through_replay_and_show(db_path, tmp_path):
    first = session(
        tmp_path, "s-plan", "2031-05-05",
        "The kitchen fitters start on Monday 2 June. The worktop templating is the Friday "
        "before the fitters start, and the final invoice is due a month after 2 June.",
        "Noted.",
    )  # fmt: skip
    moved = session(
        tmp_path, "s-moved", "2031-05-12",
        "The fitters rang: the fitters start has moved to Monday 9 June now.",
        "Noted.",
    )  # fmt: skip
    doctree(db_path, "replay", "--backend", "offline", first)
    tree = doctree(db_path, "show", "~/memory")
    assert "├── active          Active" in tree, tree
    active = doctree(db_path, "read", "~/memory/active")
    assert "the Friday before the fitters start (2031-05-30)" in active, active
    assert "a month after 2 June (2031-07-02)" in active, active
    doctree(db_path, "replay", "--backend", "offline", moved)
    active = doctree(db_path, "read", "~/memory/active")
    assert (
        "the Friday before the fitters start (2031-05-30; counted from the fitters start, "
        "which moved to 2031-06-09 on 2031-05-12)"
    ) in active, active
    # counted from a date said with it, not from the event: no mark
    assert (
        "a month after 2 June (2031-07-02)," in active
        or "a month after 2 June (2031-07-02)." in active
    )
