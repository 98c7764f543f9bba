"""The CLI and the library speak the glossary's words (docs/concepts.md): the owner is
`--owner` / `$DOCTREE_OWNER`, the memory agent's backend is `--backend` on every command
that picks one, JSON says `owner` and `definition`. No other name works: doctree 0.1.0 is its first release, so
words it used before (`--agent`, `$DOCTREE_AGENT`, `replay --source-agent`, `--all-agents`,
`--model`, `--handler`, the keywords `source_agent` and `agent_id`) are refused, not aliased."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from doctree.cli import cli
from doctree.engine import Engine
from doctree.errors import UserError
from doctree.interop.tools import MemoryTools
from doctree.sessions.repository import SessionsRepository
from doctree.sessions.sessions import AgentDescriptor
from doctree.store.documents import DocumentsRepository
from doctree.store.runs import Runs

PERSONAL = Path(__file__).parents[1] / "fixtures" / "transcripts" / "01-personal-assistant.md"


@pytest.fixture(autouse=True)
def no_owner_in_environment(monkeypatch):
    monkeypatch.delenv("DOCTREE_OWNER", raising=False)
    monkeypatch.delenv("DOCTREE_AGENT", raising=False)


def run(db: Path | str, *args: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(cli, ["--db", str(db), *args], catch_exceptions=False, env=env)


# -- the owner -------------------------------------------------------------------------------


def test_help_names_the_owner_option_and_no_other(tmp_path):
    help_text = run(tmp_path / "x.db", "--help").output
    assert "--owner" in help_text and "DOCTREE_OWNER" in help_text
    assert "--agent" not in help_text and "DOCTREE_AGENT" not in help_text


def test_the_owner_flag_picks_the_home_and_the_old_flag_is_unknown(db_path):
    result = CliRunner().invoke(
        cli, ["--db", str(db_path), "--owner", "alice", "write", "~/a"], input="hello\n"
    )
    assert result.exit_code == 0, result.output
    with DocumentsRepository(db_path) as repo:
        assert repo.owners() == ["alice"]
    assert run(db_path, "--owner", "alice", "read", "~/a").output == "hello\n"
    old = CliRunner().invoke(cli, ["--db", str(db_path), "--agent", "bob", "write", "~/b"])
    assert old.exit_code == 2 and "No such option '--agent'" in old.output
    with DocumentsRepository(db_path) as repo:
        assert repo.owners() == ["alice"]


@pytest.mark.parametrize(
    ("env", "owner"),
    [
        ({"DOCTREE_OWNER": "olive"}, "olive"),
        ({"DOCTREE_AGENT": "adam"}, "main"),  # not a doctree variable: the default owner
        ({"DOCTREE_OWNER": "olive", "DOCTREE_AGENT": "adam"}, "olive"),
    ],
)
def test_owner_from_the_environment_only_under_its_name(db_path, env, owner):
    result = CliRunner().invoke(cli, ["--db", str(db_path), "write", "~/a"], input="x", env=env)
    assert result.exit_code == 0, result.output
    with DocumentsRepository(db_path) as repo:
        assert repo.owners() == [owner]


@pytest.mark.parametrize("command", [("runs",), ("log",), ("compact", "~/memory")])
def test_all_owners_flag_is_shown_and_all_agents_unknown(tmp_path, command):
    help_text = run(tmp_path / "x.db", *command, "--help").output
    assert "--all-owners" in help_text and "--all-agents" not in help_text
    old = run(tmp_path / "x.db", *command, "--all-agents")
    assert old.exit_code == 2 and "No such option '--all-agents'" in old.output


def test_log_of_every_owner(db_path):
    for owner in ("alice", "bob"):
        CliRunner().invoke(cli, ["--db", str(db_path), "--owner", owner, "write", "~/a"], input="x")
    owners = {v["owner"] for v in json.loads(run(db_path, "log", "--all-owners", "--json").output)}
    assert owners == {"alice", "bob"}


# -- replay ----------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["replay", "worker", "compact"])
def test_every_command_that_picks_a_backend_calls_it_backend(tmp_path, command):
    help_text = run(tmp_path / "x.db", command, "--help").output
    assert "--backend" in help_text
    for old in ("--model", "--handler"):
        assert old not in help_text
        result = run(tmp_path / "x.db", command, old, "offline")
        assert result.exit_code == 2 and f"No such option '{old}'" in result.output


def test_replay_has_no_agent_option_of_its_own_in_help(tmp_path):
    help_text = run(tmp_path / "x.db", "replay", "--help").output
    assert "--source-agent" not in help_text and "--agent" not in help_text
    assert "--owner" in help_text  # it says where the owner comes from


@pytest.mark.parametrize(
    ("before", "after", "env"),
    [
        (("--owner", "alice"), ("--backend", "offline"), None),
        ((), ("--backend", "offline"), {"DOCTREE_OWNER": "alice"}),
    ],
)
def test_replay_as_the_given_owner(db_path, before, after, env):
    assert PERSONAL.is_file()
    result = run(db_path, *before, "replay", "--json", *after, str(PERSONAL), env=env)
    assert result.exit_code == 0, result.output
    (outcome,) = json.loads(result.stdout)
    assert outcome["owner"] == "alice" and outcome["runs"][0]["backend"] == "offline"
    assert outcome["runs"][0]["owner"] == "alice" and "source_agent" not in outcome["runs"][0]
    with DocumentsRepository(db_path) as repo:
        assert repo.owners() == ["alice"]


def test_replay_without_an_owner_given_uses_the_transcripts_agent(db_path):
    result = run(db_path, "replay", "--json", str(PERSONAL))
    assert result.exit_code == 0, result.output
    (outcome,) = json.loads(result.stdout)
    assert outcome["owner"] == "main"  # the transcript's, not the --owner default's


def test_replay_refuses_the_old_owner_flags(db_path):
    for flag in ("--source-agent", "--agent"):
        result = run(db_path, "replay", flag, "alice", str(PERSONAL))
        assert result.exit_code == 2 and f"No such option '{flag}'" in result.output
    assert not Path(db_path).exists()  # refused before anything was opened


def test_worker_backend_flag_and_its_environment_variable(db_path, tmp_path):
    jobs = tmp_path / "jobs.jsonl"
    result = run(db_path, "worker", "--once", "--backend", f"jobs:{jobs}")
    assert result.exit_code == 0, result.output
    assert "0 pending" in result.output
    # $DOCTREE_BACKEND is read; the old names are not (anthropic without a key would fail)
    env = {
        "DOCTREE_BACKEND": f"jobs:{jobs}",
        "DOCTREE_WORKER_BACKEND": "anthropic",
        "DOCTREE_WORKER_HANDLER": "anthropic",
    }
    result = run(db_path, "worker", "--once", env=env)
    assert result.exit_code == 0, result.output
    assert "backend auto" not in result.output  # jobs:FILE was taken, not the default


# -- JSON and human output ---------------------------------------------------------------------


def test_runs_json_and_table_say_owner_and_definition(db_path):
    run(db_path, "--owner", "alice", "replay", str(PERSONAL))
    (row,) = json.loads(run(db_path, "--owner", "alice", "runs", "--json").output)
    assert (row["owner"], row["definition"]) == ("alice", "memory-agent")
    assert not {"agent", "source_agent", "agent_id"} & set(row)
    header = run(db_path, "--owner", "alice", "runs").output.splitlines()[0]
    assert "owner" in header.split() and "agent" not in header.split()
    shown = json.loads(
        run(db_path, "--owner", "alice", "run-show", str(row["id"]), "--json").output
    )
    assert (shown["owner"], shown["definition"]) == ("alice", "memory-agent")


def test_sessions_json_and_table_say_owner(db_path):
    run(db_path, "--owner", "alice", "replay", str(PERSONAL))
    rows = json.loads(run(db_path, "sessions", "--json").output)
    assert {r["agent"]["owner"] for r in rows} == {"alice"}
    assert all("id" not in r["agent"] for r in rows)
    assert run(db_path, "sessions").output.split()[1] == "OWNER"


# -- the library: one name for each keyword -----------------------------------------------------


def test_runs_take_owner_and_definition_only(db_path):
    with DocumentsRepository(db_path) as repo:
        runs = Runs(repo.conn)
        new = runs.start(owner="main", definition="memory-agent", backend="b", model="m")
        assert [r.id for r in runs.list(owner="main")] == [new]
        with pytest.raises(TypeError, match="source_agent"):
            runs.start(source_agent="main", definition="memory-agent", backend="b", model="m")
        with pytest.raises(TypeError, match="source_agent"):
            runs.list(source_agent="main")
        assert [r.id for r in runs.list(owner="main")] == [new]


def test_sessions_scrub_and_descriptor_take_owner_only(db_path):
    with SessionsRepository(db_path) as sessions:
        sessions.create({"type": "agent", "owner": "main"}, "s1")
        sessions.append_history("s1", "user", "my dog is Rex")
        assert sessions.scrub(owner="main", text_map=lambda t: t.replace("Rex", "*")) == 1
        assert sessions.history("s1")[0].content == "my dog is *"
        assert sessions.require("s1").agent == AgentDescriptor("agent", "main")
        with pytest.raises(UserError, match="expected the keys type and owner, not id"):
            AgentDescriptor.of({"type": "agent", "id": "a"})
        with pytest.raises(TypeError, match="agent_id"):
            sessions.scrub(agent_id="main", text_map=str)
        with pytest.raises(UserError, match="'compaction': must be one of"):
            sessions.end("s1", "compaction")
    assert not hasattr(AgentDescriptor("agent", "main"), "id")


def test_memory_tools_take_owner_only(db_path):
    with DocumentsRepository(db_path) as repo:
        assert MemoryTools(repo, owner="ops").owner == "ops"
        with pytest.raises(TypeError, match="source_agent"):
            MemoryTools(repo, source_agent="ops")


def test_engine_compacts_context_under_one_name(db_path):
    engine = Engine(db_path, handler="offline", compact=False)
    try:
        s = engine.start_session("main")
        engine.append(s.id, "user", "long context")
        new = engine.compact_context(s.id)
        assert engine.session(s.id).ended_reason == "context-compaction"
        assert engine.current_session("main") == new
        assert not hasattr(engine, "compact")
    finally:
        engine.close()
