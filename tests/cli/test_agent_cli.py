"""`doctree runs` and `doctree run-show`: reviewing memory agent runs from the command line."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from doctree.agent.runtime import MemoryAgentRuntime, RunFailedError
from doctree.cli import cli
from tests.fakes.messages_api import (
    FakeMessagesServer,
    HttpError,
    Scripted,
    message,
    text_block,
    tool_use_block,
)

TRANSCRIPT = "# Transcript of session s-1\n\n- agent: main\n- session: s-1\n"


def run_once(repo, *items, source="main"):
    with FakeMessagesServer(Scripted(list(items))) as srv:
        rt = MemoryAgentRuntime(
            repo, backend="anthropic", api_key="k", base_url=srv.base_url, max_retries=0
        )
        try:
            return rt.run(source, "s-1", TRANSCRIPT)
        finally:
            rt.close()


def invoke(db_path, *args):
    return CliRunner().invoke(cli, ["--db", str(db_path), *args])


@pytest.fixture
def one_run(repo):
    write = tool_use_block("document_write", {"path": "~/memory/active", "body": "# Active\n"})
    return run_once(repo, message(write), message(text_block("done")))


def test_runs_lists_a_run_with_backend_outcome_and_changes(db_path, one_run):
    result = invoke(db_path, "runs")
    assert result.exit_code == 0, result.output
    [line] = [ln for ln in result.output.splitlines() if ln.strip().startswith(str(one_run.run_id))]
    assert "anthropic" in line and "completed" in line and "end_turn" in line
    assert line.split()[-1] == "2"  # ~/memory and ~/memory/active


def test_runs_json_has_usage_and_the_number_of_changes(db_path, one_run):
    [row] = json.loads(invoke(db_path, "runs", "--json").output)
    assert row["id"] == one_run.run_id
    assert row["changes"] == 2
    assert row["output_tokens"] > 0 and row["cost_usd"] > 0


def test_runs_are_of_the_selected_agent_unless_all_agents(db_path, repo, one_run):
    run_once(repo, message(text_block("nothing")), source="ops")
    assert len(json.loads(invoke(db_path, "runs", "--json").output)) == 1
    assert len(json.loads(invoke(db_path, "--owner", "ops", "runs", "--json").output)) == 1
    assert len(json.loads(invoke(db_path, "runs", "--all-owners", "--json").output)) == 2


def test_runs_without_any_says_so(db_path, repo):
    assert invoke(db_path, "runs").output.strip() == "no runs for owner 'main'"


def test_run_show_lists_the_versions_the_run_made(db_path, one_run):
    result = invoke(db_path, "run-show", str(one_run.run_id))
    assert result.exit_code == 0, result.output
    assert "created   ~/memory/active v1" in result.output
    assert "outcome:   completed, stop reason end_turn" in result.output


def test_run_show_of_a_failed_run_shows_its_error(db_path, repo):
    with pytest.raises(RunFailedError) as e:
        run_once(repo, HttpError(500, "upstream exploded"))
    result = invoke(db_path, "run-show", str(e.value.run_id))
    assert "outcome:   failed, stop reason error" in result.output
    assert "upstream exploded" in result.output


def test_run_show_of_an_unknown_run_is_a_one_line_error(db_path, repo):
    result = invoke(db_path, "run-show", "42")
    assert result.exit_code == 2
    assert result.output.strip() == "error: run 42: no such run"


@pytest.mark.slow
def test_replay_records_a_cassette_and_replays_it_from_the_command_line(
    tmp_path, fresh_database, monkeypatch
):
    from pathlib import Path

    from tests.fakes.messages_api import ScriptedMemoryModel

    fixtures = sorted((Path(__file__).parents[1] / "fixtures" / "transcripts").glob("*.md"))
    if not fixtures:
        pytest.skip("no fixture transcripts")
    cassette = tmp_path / "new.json"
    a, b = fresh_database("a"), fresh_database("b")
    with FakeMessagesServer(ScriptedMemoryModel()) as upstream:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", upstream.base_url)
        recorded = invoke(a, "replay", "--backend", f"record:{cassette}", str(fixtures[0]))
    monkeypatch.delenv("ANTHROPIC_BASE_URL")
    assert recorded.exit_code == 0, recorded.output
    replayed = invoke(b, "replay", "--backend", f"replay:{cassette}", str(fixtures[0]))
    assert replayed.exit_code == 0, replayed.output
    show_a = invoke(a, "show", "~/memory").output
    assert show_a == invoke(b, "show", "~/memory").output
    assert "archive" in show_a
