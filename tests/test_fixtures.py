"""The fixture transcripts, and the golden memory the offline agent writes from them.

The goldens are `doctree show ~/memory` and selected documents after `doctree replay` of
every fixture on the offline backend. After an intended change, regenerate them with

    DOCTREE_UPDATE_GOLDEN=1 .venv/bin/pytest -q tests/test_fixtures.py

and review the diff (`git diff tests/fixtures/golden`) like any other change.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from doctree.cli import cli
from doctree.sessions.transcripts import parse_transcript

FIXTURES = Path(__file__).parent / "fixtures" / "transcripts"
GOLDEN = Path(__file__).parent / "fixtures" / "golden" / "offline"
TRANSCRIPTS = sorted(FIXTURES.glob("*.md"))
UPDATE = os.environ.get("DOCTREE_UPDATE_GOLDEN") == "1"

#: (agent, path) of the documents kept as golden snapshots.
DOCUMENTS = [
    ("main", "~/memory"),
    ("main", "~/memory/active"),
    ("main", "~/memory/corrections"),
    ("main", "~/memory/patterns"),
    ("main", "~/memory/people/bob"),
    ("main", "~/memory/people/priya"),
    ("main", "~/memory/projects/apollo"),
    ("main", "~/memory/projects/hermes"),
    ("main", "~/memory/archive/2026-W47/s-2026-11-16-week-plan"),
    ("main", "~/memory/archive/2026-W47/s-2026-11-20-hermes-migration"),
    ("main", "~/memory/archive/2026-W47/s-2026-11-22-pasted-newsletter"),
    ("main", "~/memory/archive/2026-W48/s-2026-11-23-evening-chat"),
    ("ops", "~/memory/decisions"),
]


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=lambda p: p.name)
def test_fixture_parses(path):
    t = parse_transcript(path.read_text(encoding="utf-8"), source=str(path))
    assert t.messages
    assert t.started and t.ended


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=lambda p: p.name)
def test_fixture_formats_back_to_the_same_transcript(path):
    t = parse_transcript(path.read_text(encoding="utf-8"), source=str(path))
    assert parse_transcript(t.format()) == t


def test_there_are_at_least_eight_fixtures_with_distinct_sessions():
    sessions = [parse_transcript(p.read_text()).session_id for p in TRANSCRIPTS]
    assert len(sessions) >= 8
    assert len(set(sessions)) == len(sessions)


def test_the_long_fixture_has_hundreds_of_messages():
    longest = max(len(parse_transcript(p.read_text()).messages) for p in TRANSCRIPTS)
    assert longest >= 300


def test_fixtures_cover_tool_calls_and_more_than_one_agent():
    parsed = [parse_transcript(p.read_text()) for p in TRANSCRIPTS]
    kinds = {m.kind for t in parsed for m in t.messages}
    assert kinds == {"user", "assistant", "system", "tool_call", "tool_result"}
    assert len({t.owner for t in parsed}) >= 2


@pytest.fixture(scope="module")
def replayed(tmp_path_factory):
    """A database after `doctree replay` of every fixture on the offline backend."""
    db = tmp_path_factory.mktemp("golden") / "doctree.db"
    result = CliRunner().invoke(
        cli, ["--db", str(db), "replay", "--backend", "offline", *map(str, TRANSCRIPTS)]
    )
    assert result.exit_code == 0, result.output
    return db


def doctree(db: Path, *args: str) -> str:
    result = CliRunner().invoke(cli, ["--db", str(db), *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def check_golden(name: str, actual: str) -> None:
    path = GOLDEN / name
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual, encoding="utf-8")
        return
    assert path.exists(), (
        f"golden file {path} is missing: run DOCTREE_UPDATE_GOLDEN=1 .venv/bin/pytest -q "
        "tests/test_fixtures.py to create it"
    )
    expected = path.read_text(encoding="utf-8")
    assert actual == expected, (
        f"output differs from the golden file {path}. If the change is intended, run "
        "DOCTREE_UPDATE_GOLDEN=1 .venv/bin/pytest -q tests/test_fixtures.py and review "
        "`git diff tests/fixtures/golden`"
    )


@pytest.mark.parametrize("agent", ["main", "ops"])
def test_golden_show_memory(replayed, agent):
    check_golden(f"show-{agent}.txt", doctree(replayed, "--owner", agent, "show", "~/memory"))


@pytest.mark.parametrize(("agent", "path"), DOCUMENTS, ids=lambda x: str(x))
def test_golden_document(replayed, agent, path):
    name = f"documents/{agent}/{path[2:].replace('/', '__')}.md"
    check_golden(name, doctree(replayed, "--owner", agent, "read", path))
