"""`doctree replay`: transcripts through session, history, sleep, worker tick, memory agent."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from doctree.cli import cli
from doctree.sessions.repository import SessionsRepository
from doctree.sessions.transcripts import format_transcript, parse_transcript
from doctree.store.documents import DocumentsRepository
from doctree.store.runs import Runs

FIXTURES = Path(__file__).parents[1] / "fixtures" / "transcripts"
PERSONAL = FIXTURES / "01-personal-assistant.md"
CODING = FIXTURES / "02-coding-help.md"


def replay(db_path: Path, *args: str):
    return CliRunner().invoke(cli, ["--db", str(db_path), "replay", *args])


def test_replay_prints_each_run_and_the_versions_it_made(db_path):
    result = replay(db_path, str(PERSONAL))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "session s-2026-11-16-week-plan of owner main: 19 record(s) appended" in out
    assert "run 1 (offline, completed, end_turn)" in out
    assert "~/memory/archive/2026-W47/s-2026-11-16-week-plan  created   v1" in out


def test_replay_shows_a_progress_bar_on_stderr(db_path):
    result = replay(db_path, str(PERSONAL))
    assert "replaying" in result.stderr
    assert "replaying" not in result.stdout


def test_replay_json_lists_runs_changes_and_usage(db_path):
    result = replay(db_path, "--json", str(PERSONAL), str(CODING))
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [o["session_id"] for o in data] == [
        "s-2026-11-16-week-plan",
        "s-2026-11-17-flaky-settlement-test",
    ]
    run = data[1]["runs"][0]
    assert run["run_id"] == 2
    assert run["usage"]["input_tokens"] == 0
    assert {"path": "~/memory/projects/ledger", "operation": "created", "version": 1} in run[
        "changes"
    ]


def test_replay_appends_the_history_and_processes_the_session(db_path):
    assert replay(db_path, str(PERSONAL)).exit_code == 0
    with SessionsRepository(db_path) as sessions:
        s = sessions.require("s-2026-11-16-week-plan")
        records = sessions.history(s.id)
        assert len(records) == 19
        assert s.invalidated_at is None
        assert s.processed_until == records[-1].id
        assert s.agent.owner == "main"
        assert records[0].time == "2026-11-16T08:30:00Z"


def test_replaying_twice_does_not_duplicate_the_history(db_path):
    replay(db_path, str(PERSONAL))
    result = replay(db_path, str(PERSONAL))
    assert result.exit_code == 0, result.output
    assert "0 record(s) appended, 19 already held" in result.stdout
    assert "already replayed" in result.stdout
    with SessionsRepository(db_path) as sessions:
        assert len(sessions.history("s-2026-11-16-week-plan")) == 19
    with DocumentsRepository(db_path) as repo:
        assert len(Runs(repo.conn).list()) == 1


def test_replay_as_another_agent(db_path):
    result = CliRunner().invoke(
        cli, ["--db", str(db_path), "--owner", "alice", "replay", str(PERSONAL)]
    )
    assert result.exit_code == 0, result.output
    with DocumentsRepository(db_path) as repo:
        assert repo.owners() == ["alice"]
        assert repo.exists("alice", "~/memory/people/bob")


def test_replay_writes_as_the_memory_agent_of_the_run(db_path):
    replay(db_path, str(CODING))
    with DocumentsRepository(db_path) as repo:
        versions = repo.log("main", "~/memory", limit=None)
        assert {(v.actor, v.session_id, v.run_id) for v in versions} == {
            ("memory-agent:main", "s-2026-11-17-flaky-settlement-test", 1)
        }


def test_a_malformed_transcript_is_a_one_line_error(db_path, tmp_path):
    bad = tmp_path / "bad.md"
    bad.write_text(
        "# Transcript of session s-x\n\n- agent: main\n- session: s-x\n\n## user at noon\n\nhi\n"
    )
    result = replay(db_path, str(bad))
    assert result.exit_code == 2
    assert f"transcript {bad}:6:" in result.stderr


def test_a_session_with_other_history_is_refused(db_path, tmp_path):
    replay(db_path, str(PERSONAL))
    t = parse_transcript(PERSONAL.read_text())
    changed = PERSONAL.read_text().replace("Morning! Can you help", "Evening! Can you help")
    other = tmp_path / "other.md"
    other.write_text(changed)
    result = replay(db_path, str(other))
    assert result.exit_code == 2
    assert f"session {t.session_id!r}: its history differs from the transcript at record 1" in (
        result.stderr
    )


def test_an_unknown_backend_is_refused(db_path):
    result = replay(db_path, "--backend", "gpt", str(PERSONAL))
    assert result.exit_code == 2
    assert "backend 'gpt'" in result.stderr
    for choice in ("offline", "anthropic", "auto", "replay:CASSETTE", "record:CASSETTE"):
        assert choice in result.stderr


def test_a_missing_transcript_file_is_refused(db_path, tmp_path):
    result = replay(db_path, str(tmp_path / "nope.md"))
    assert result.exit_code == 2
    assert "nope.md" in result.stderr


def test_replay_on_the_replay_backend_goes_through_the_sdk(db_path):
    cassette = Path(__file__).parents[1] / "fixtures" / "cassettes" / "10-small-talk.json"
    result = replay(
        db_path, "--json", "--backend", f"replay:{cassette}", str(FIXTURES / "10-small-talk.md")
    )
    assert result.exit_code == 0, result.output
    run = json.loads(result.stdout)[0]["runs"][0]
    assert (run["backend"], run["status"]) == ("replay", "completed")
    assert run["turns"] >= 1
    assert run["changes"]


def test_replay_without_a_cassette_is_refused(db_path):
    result = replay(db_path, "--backend", "replay", str(PERSONAL))
    assert result.exit_code == 2
    assert "replay:FILE" in result.stderr


def test_a_session_of_another_agent_is_refused(db_path):
    first = replay(db_path, str(PERSONAL))
    assert first.exit_code == 0, first.output
    result = CliRunner().invoke(
        cli, ["--db", str(db_path), "--owner", "alice", "replay", str(PERSONAL)]
    )
    assert result.exit_code == 2
    assert "belongs to agent:main, not to agent:alice" in result.stderr


def test_a_longer_transcript_of_a_replayed_session_appends_only_the_new_records(db_path, tmp_path):
    t = parse_transcript(PERSONAL.read_text())
    first = tmp_path / "first.md"
    first.write_text(format_transcript(t.messages[:8], owner=t.owner, session_id=t.session_id))
    replay(db_path, str(first))
    result = replay(db_path, "--json", str(PERSONAL))
    assert result.exit_code == 0, result.output
    outcome = json.loads(result.stdout)[0]
    assert (outcome["appended"], outcome["skipped"]) == (11, 8)
    first_id, last_id = outcome["runs"][0]["records"]
    assert last_id - first_id + 1 == 11
    with DocumentsRepository(db_path) as repo:
        page = repo.read("main", "~/memory/archive/2026-W47/s-2026-11-16-week-plan").body
    records = page.split("## Records\n\n")[1].split("\n\n")[0].splitlines()
    assert len(records) == 2


def test_anthropic_without_a_key_fails_before_any_session_is_made(db_path, monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    result = replay(db_path, "--backend", "anthropic", str(PERSONAL))
    assert result.exit_code == 2
    assert "set ANTHROPIC_API_KEY" in result.stderr
    with SessionsRepository(db_path) as sessions:
        assert sessions.get("s-2026-11-16-week-plan") is None


def test_a_failed_run_leaves_the_session_pending_and_says_why(db_path):
    cassette = Path(__file__).parents[1] / "fixtures" / "cassettes" / "10-small-talk.json"
    result = replay(db_path, "--backend", f"replay:{cassette}", str(PERSONAL))
    assert result.exit_code == 1
    assert "memory agent failed:" in result.stdout
    again = replay(db_path, "--backend", f"replay:{cassette}", str(PERSONAL))
    assert again.exit_code == 1
    assert "waiting for a retry after:" in again.stdout
    with SessionsRepository(db_path) as sessions:
        assert sessions.require("s-2026-11-16-week-plan").invalidated_at is not None


@pytest.mark.slow
def test_two_replays_of_all_fixtures_give_the_same_tree_and_versions(fresh_database):
    fixtures = [str(p) for p in sorted(FIXTURES.glob("*.md"))]
    results = []
    for name in ("a", "b"):
        db = fresh_database(name)
        assert replay(db, *fixtures).exit_code == 0
        with DocumentsRepository(db) as repo:
            results.append(
                [
                    (v.owner, v.path, v.version, v.operation, v.content_sha256, v.run_id)
                    for v in sorted(repo.log(None, "~", limit=None), key=lambda v: v.id)
                ]
            )
    assert results[0] == results[1]
    assert {owner for owner, *_ in results[0]} == {"main", "ops"}


@pytest.mark.slow
def test_record_then_replay_through_the_cli_gives_the_same_tree(
    tmp_path, fresh_database, monkeypatch
):
    from tests.fakes.messages_api import FakeMessagesServer, ScriptedMemoryModel

    cassette = tmp_path / "small-talk.json"
    transcript = str(FIXTURES / "10-small-talk.md")
    a, b = fresh_database("a"), fresh_database("b")
    with FakeMessagesServer(ScriptedMemoryModel()) as upstream:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", upstream.base_url)
        monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
        recorded = replay(a, "--backend", f"record:{cassette}", transcript)
    assert recorded.exit_code == 0, recorded.output
    assert cassette.is_file()
    replayed = replay(b, "--backend", f"replay:{cassette}", transcript)
    assert replayed.exit_code == 0, replayed.output
    trees = []
    for db in (a, b):
        with DocumentsRepository(db) as repo:
            trees.append([(d.path, d.version, d.content_sha256) for d in repo.documents("main")])
    assert trees[0] == trees[1]
    assert trees[0]
