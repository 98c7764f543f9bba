"""The CLI speaks the glossary's words (docs/concepts.md): the memory agent's backend is
`--backend` on every command that picks one, replay's agent override is `--source-agent`
(it no longer shadows the group's --agent in --help). The former names still work for
scripts but are left out of --help."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from doctree.cli import cli
from doctree.store.documents import DocumentsRepository

PERSONAL = Path(__file__).parent / "fixtures" / "transcripts" / "01-personal-assistant.md"


def run(db: Path | str, *args: str):
    return CliRunner().invoke(cli, ["--db", str(db), *args], catch_exceptions=False)


@pytest.mark.parametrize("command", ["replay", "worker", "compact"])
def test_every_command_that_picks_a_backend_calls_it_backend(tmp_path, command):
    help_text = run(tmp_path / "x.db", command, "--help").output
    assert "--backend" in help_text
    for old in ("--model", "--handler"):
        assert old not in help_text


def test_replay_names_its_agent_override_source_agent_and_hides_the_old_flag(tmp_path):
    help_text = run(tmp_path / "x.db", "replay", "--help").output
    assert "--source-agent" in help_text
    assert "--agent " not in help_text and "--agent," not in help_text


@pytest.mark.parametrize(
    "flags",
    [
        ("--backend", "offline", "--source-agent", "alice"),
        ("--model", "offline", "--agent", "alice"),  # the former names
    ],
)
def test_replay_flags_old_and_new_do_the_same(db_path, flags):
    assert PERSONAL.is_file()
    result = run(db_path, "replay", "--json", *flags, str(PERSONAL))
    assert result.exit_code == 0, result.output
    (outcome,) = json.loads(result.stdout)
    assert outcome["agent"] == "alice" and outcome["runs"][0]["backend"] == "offline"
    with DocumentsRepository(db_path) as repo:
        assert repo.owners() == ["alice"]


@pytest.mark.parametrize("flag", ["--backend", "--handler"])
def test_worker_backend_old_and_new_flag(db_path, tmp_path, flag):
    jobs = tmp_path / "jobs.jsonl"
    result = run(db_path, "worker", "--once", flag, f"recorder:{jobs}")
    assert result.exit_code == 0, result.output
    assert "0 pending" in result.output
