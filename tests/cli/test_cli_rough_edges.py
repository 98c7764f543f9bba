"""What a new user meets first on the command line says what it means: one word per concept
(owner, not agent; `record:` is the only word for recording), one default backend rule for
`replay` and `worker`, help generated from the code it describes, and a clear error (exit 2)
instead of a silent empty write or an empty search. Each test runs the real `doctree`
command in a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from doctree.engine import Engine
from doctree.interop.mcp_server import TOOL_SPECS
from doctree.store.documents import DocumentsRepository
from tests.fakes.messages_api import FakeMessagesServer, Scripted, message, text_block

pytestmark = pytest.mark.slow

PERSONAL = Path(__file__).parents[1] / "fixtures" / "transcripts" / "01-personal-assistant.md"


def doctree(
    db: Path | str, *args: str, input: str | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    environ = {
        k: v
        for k, v in os.environ.items()
        if k not in ("ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "DOCTREE_OWNER", "DOCTREE_DB")
    }
    environ.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "doctree", "--db", str(db), *args],
        input=input if input is not None else "",
        capture_output=True,
        text=True,
        env=environ,
        timeout=120,
    )


def one_line_error(result: subprocess.CompletedProcess[str], code: int = 2) -> str:
    assert result.returncode == code, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


# -- item: naming --------------------------------------------------------------------------------


def test_mcp_help_lists_every_tool_of_the_registry_and_names_the_owner(tmp_path):
    result = doctree(tmp_path / "x.db", "mcp", "--help")
    assert result.returncode == 0, result.stderr
    text = " ".join(result.stdout.split())
    for name in TOOL_SPECS:
        assert name in text, name
    assert "--agent" not in text and "--owner main mcp" in text


def test_a_missing_document_is_reported_for_the_owner_not_an_agent(db_path):
    with DocumentsRepository(db_path) as repo:
        repo.write("alice", "~/notes", "x")
    line = one_line_error(doctree(db_path, "--owner", "bob", "read", "~/notes"))
    assert line == "error: document '~/notes' not found for owner 'bob'"


def test_recording_has_one_word_and_the_job_file_handler_another(tmp_path):
    for command in ("worker", "replay"):
        text = doctree(tmp_path / "x.db", command, "--help").stdout
        assert "recorder" not in text
    assert "record:CASSETTE" in doctree(tmp_path / "x.db", "replay", "--help").stdout
    assert "jobs:FILE" in doctree(tmp_path / "x.db", "worker", "--help").stdout
    line = one_line_error(doctree(tmp_path / "x.db", "worker", "--once", "--backend", "recorder:x"))
    assert "recorder:x" in line and "jobs:FILE" in line


def test_replay_and_worker_default_to_the_same_backend_rule(tmp_path):
    for command in ("worker", "replay"):
        text = " ".join(doctree(tmp_path / "x.db", command, "--help").stdout.split())
        assert "[default: auto]" in text, command
        assert "anthropic when ANTHROPIC_API_KEY is set, else offline" in text, command


def test_replay_without_a_key_runs_the_offline_agent(db_path):
    result = doctree(db_path, "replay", "--json", str(PERSONAL))
    assert result.returncode == 0, result.stderr
    (outcome,) = json.loads(result.stdout)
    assert [r["backend"] for r in outcome["runs"]] == ["offline"]


def test_replay_with_a_key_runs_the_anthropic_agent_as_the_worker_would(tmp_path):
    db = tmp_path / "d.db"
    script = Scripted([message(text_block("Nothing worth keeping."))])
    with FakeMessagesServer(script) as fake:
        env = {"ANTHROPIC_API_KEY": "test-key", "ANTHROPIC_BASE_URL": fake.base_url}
        result = doctree(db, "replay", "--json", str(PERSONAL), env=env)
    assert result.returncode == 0, result.stderr
    (outcome,) = json.loads(result.stdout)
    assert [r["backend"] for r in outcome["runs"]] == ["anthropic"]
    assert script.served == 1


# -- item: empty input, titles, sessions ---------------------------------------------------------


def test_write_from_an_empty_stdin_is_refused_and_stores_nothing(db_path):
    with DocumentsRepository(db_path) as repo:
        repo.write("main", "~/keep", "kept")
    line = one_line_error(doctree(db_path, "write", "~/memory/alice", input=""))
    assert line.startswith("error: stdin: is empty")
    with DocumentsRepository(db_path) as repo:
        assert not repo.exists("main", "~/memory/alice")
        assert repo.read("main", "~/keep").body == "kept"


def test_an_empty_file_empties_a_document_on_purpose(db_path, tmp_path):
    empty = tmp_path / "empty.md"
    empty.write_text("")
    with DocumentsRepository(db_path) as repo:
        repo.write("main", "~/notes", "old")
    result = doctree(db_path, "write", "~/notes", "--file", str(empty))
    assert result.returncode == 0, result.stderr
    with DocumentsRepository(db_path) as repo:
        doc = repo.read("main", "~/notes")
        assert (doc.body, doc.version) == ("", 2)


def test_an_empty_search_is_refused(db_path):
    with DocumentsRepository(db_path) as repo:
        repo.write("main", "~/notes", "green tea")
    for query in ("", "   "):
        line = one_line_error(doctree(db_path, "search", query))
        assert line == "error: query '': is empty; give at least one word to search for"
    assert "~/notes" in doctree(db_path, "search", "tea").stdout


def test_show_never_leaves_the_title_column_blank(db_path):
    with DocumentsRepository(db_path) as repo:
        repo.write("main", "~/memory/people/alice", "Prefers tea.")
        repo.write("main", "~/memory/people/bob", "# Robert Brown\n\nLikes coffee.")
    lines = doctree(db_path, "show", "~/memory").stdout.splitlines()
    alice = next(line for line in lines if "alice" in line)
    bob = next(line for line in lines if "bob" in line)
    people = next(line for line in lines if "people" in line)
    assert "(alice)" in alice and "Robert Brown" in bob and "(people)" in people
    assert "\x1b[" not in alice  # dimmed only on a terminal


def test_sessions_leaves_out_the_memory_agents_own_sessions_unless_asked(db_path):
    with Engine(db_path, handler="offline", compact=False) as engine:
        s = engine.start_session("main")
        engine.append(s.id, "user", "Remember that Alice prefers green tea.")
        engine.sleep(s.id)
        engine.run_worker_once()
    plain = doctree(db_path, "sessions", "--json")
    every = doctree(db_path, "sessions", "--all", "--json")
    exempt = doctree(db_path, "sessions", "--state", "exempt", "--json")
    states = [i["state"] for i in json.loads(plain.stdout)]
    all_states = sorted(i["state"] for i in json.loads(every.stdout))
    assert states == ["processed"]
    assert "exempt" in all_states and "processed" in all_states
    assert {i["state"] for i in json.loads(exempt.stdout)} == {"exempt"}
    assert "memory-agent:main" not in doctree(db_path, "sessions").stdout
