"""A forget by position ("forget the last two things I said", "scrap that last one") leaves the
session's record as it leaves the pages: the statements it counts and the request go from
the history, the recall record `context --query` quotes and the run's copy of the
transcript; the statement before them stays everywhere."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from doctree.cli import cli
from doctree.sessions.transcripts import format_transcript


def doctree(db_path: Path, *args: str) -> str:
    result = CliRunner().invoke(cli, ["--db", str(db_path), "--owner", "main", *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def session(tmp_path: Path, sid: str, *said: str) -> str:
    """User messages, each acknowledged, a minute apart."""
    messages = []
    for i, text in enumerate(said):
        messages.append({"kind": "user", "time": f"2031-08-04T10:{2 * i:02d}:00Z", "content": text})
        messages.append(
            {"kind": "assistant", "time": f"2031-08-04T10:{2 * i:02d}:30Z", "content": "Noted."}
        )
    path = tmp_path / f"{sid}.md"
    path.write_text(format_transcript(messages, owner="main", session_id=sid))
    return str(path)


@pytest.mark.parametrize(
    ("request_", "gone", "kept"),
    [
        ("Actually, forget the last two things I said.", ["Thessaly", "Okonkwo"], ["Aldgate"]),
        ("Don't keep the last 2 points, neither is mine to share.", ["Thessaly", "Okonkwo"],
         ["Aldgate"]),
        ("Scrap that last one, it's too early.", ["Okonkwo"], ["Aldgate", "Thessaly"]),
    ],
)  # fmt: skip
def test_a_forget_by_position_leaves_the_record_with_exactly_what_it_counts(
    db_path, tmp_path, request_, gone, kept
):
    path = session(
        tmp_path, "s-pos",
        "The dentist moved to the Aldgate practice from September.",
        "My colleague Rhea is moving to Thessaly next spring.",
        "Dr Okonkwo says my scan results came back clear.",
        request_,
    )  # fmt: skip
    doctree(db_path, "replay", path)
    said = doctree(db_path, "transcript", "s-pos")
    copy = doctree(db_path, "transcript", "memory-agent-main-run-1")
    pages = doctree(db_path, "show", "~/memory")
    answer = json.loads(
        doctree(db_path, "context", "--query", "Aldgate Thessaly Okonkwo scan dentist",
                "--words", "800", "--json")
    )  # fmt: skip
    recalled = json.dumps([answer["recalled"], answer["text"]])
    for where in (said, copy, pages, recalled):
        for word in gone:
            assert word not in where, (word, where)
    assert request_ not in said and request_ not in copy
    for word in kept:
        assert word in said and word in copy and word in recalled, word
