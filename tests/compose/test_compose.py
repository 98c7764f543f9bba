"""The composition root: one reader of backend strings with one `auto` rule, settings read in
one place, and every door (CLI replay, CLI worker, the library's Engine) building its objects
there, so `auto` picks the same backend whichever door is used."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from doctree.compose import (
    Settings,
    build_handler,
    build_runtime,
    compaction_backend,
    open_repository,
    replay_pipeline,
)
from doctree.engine import Engine
from doctree.errors import UserError
from doctree.llm.backends import MODEL_FORMS, Backend, auto_backend, parse_backend
from doctree.memory.compaction import AnthropicCondenser, ExtractiveCondenser, condenser_for
from doctree.sessions.repository import SessionsRepository
from doctree.store.documents import DocumentsRepository
from doctree.store.runs import Runs
from doctree.worker.worker import JobsFileHandler
from tests.fakes.messages_api import FakeMessagesServer, Scripted, message, text_block

ROOT = Path(__file__).resolve().parents[2]
PERSONAL = ROOT / "tests" / "fixtures" / "transcripts" / "01-personal-assistant.md"
KEY = {"ANTHROPIC_API_KEY": "sk-ant-test"}

# -- the auto rule -----------------------------------------------------------------------------


def test_auto_is_anthropic_when_the_api_key_is_set():
    assert auto_backend(KEY) == "anthropic"
    assert parse_backend("auto", environ=KEY) == Backend("anthropic", spec="auto", auto=True)


def test_auto_is_offline_without_the_api_key_or_with_an_empty_one():
    assert parse_backend("auto", environ={}) == Backend("offline", spec="auto", auto=True)
    assert auto_backend({"ANTHROPIC_API_KEY": ""}) == "offline"


def test_a_base_url_alone_does_not_make_auto_pick_the_api():
    # one rule: the key decides (compaction once also looked at ANTHROPIC_BASE_URL)
    assert auto_backend({"ANTHROPIC_BASE_URL": "http://127.0.0.1:9"}) == "offline"


def test_auto_says_what_it_picked_and_a_named_backend_says_nothing():
    assert "picked 'offline'" in parse_backend("auto", environ={}).note()
    paid = parse_backend("auto", environ=KEY).note()
    assert "picked 'anthropic' because ANTHROPIC_API_KEY is set" in paid and "paid API" in paid
    assert parse_backend("anthropic", environ=KEY).note() is None


def test_compaction_follows_the_same_auto_rule(monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:9")
    assert isinstance(condenser_for("auto"), ExtractiveCondenser)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    assert isinstance(condenser_for("auto"), AnthropicCondenser)


# -- each form ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("offline", Backend("offline", spec="offline")),
        ("anthropic", Backend("anthropic", spec="anthropic")),
        ("openai", Backend("openai", spec="openai")),
        ("openai:qwen2.5:7b", Backend("openai", spec="openai:qwen2.5:7b", model="qwen2.5:7b")),
        ("replay:c.json", Backend("replay", spec="replay:c.json", cassette="c.json")),
        ("record:c.json", Backend("replay", spec="record:c.json", cassette="c.json", record=True)),
    ],
)
def test_each_model_backend_form(spec, expected):
    assert parse_backend(spec, environ={}) == expected
    assert parse_backend(spec, handlers=True, environ={}) == expected


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("jobs:out.jsonl", Backend("jobs", spec="jobs:out.jsonl", path="out.jsonl")),
        (
            "jobs:out.jsonl:0.5",
            Backend("jobs", spec="jobs:out.jsonl:0.5", path="out.jsonl", delay=0.5),
        ),
        ("jobs:a:b.jsonl", Backend("jobs", spec="jobs:a:b.jsonl", path="a:b.jsonl")),
        (
            "python:pkg.mod:make",
            Backend("python", spec="python:pkg.mod:make", target="pkg.mod:make"),
        ),
    ],
)
def test_each_worker_handler_form(spec, expected):
    assert parse_backend(spec, handlers=True) == expected


@pytest.mark.parametrize(
    ("spec", "rule"),
    [
        ("gpt", f"must be one of {MODEL_FORMS}"),
        ("", f"must be one of {MODEL_FORMS}"),
        ("Offline", f"must be one of {MODEL_FORMS}"),
        ("auto:x", f"must be one of {MODEL_FORMS}"),
        ("anthropic:claude", f"must be one of {MODEL_FORMS}"),
        ("ollama:qwen", f"must be one of {MODEL_FORMS}"),
        ("openai:", "name the model, e.g. openai:qwen2.5:7b"),
        ("replay:", "name the cassette, e.g. replay:FILE"),
        ("record:", "name the cassette, e.g. record:FILE"),
        ("jobs:out.jsonl", f"must be one of {MODEL_FORMS}"),  # a worker handler only
        ("python:m:a", f"must be one of {MODEL_FORMS}"),
    ],
)
def test_a_bad_model_backend_is_refused_naming_the_input_and_the_forms(spec, rule):
    with pytest.raises(UserError) as e:
        parse_backend(spec)
    assert str(e.value) == f"backend {spec!r}: {rule}"


@pytest.mark.parametrize(
    ("spec", "rule"),
    [
        ("jobs:", "expected jobs:FILE or jobs:FILE:DELAY (seconds)"),
        ("jobs:f:-1", "expected jobs:FILE or jobs:FILE:DELAY (seconds)"),
        ("python:mod", "expected python:MODULE:ATTR"),
        ("python::attr", "expected python:MODULE:ATTR"),
        ("shell:ls", "must be one of"),
    ],
)
def test_a_bad_worker_handler_is_refused_naming_the_input_and_the_forms(spec, rule):
    with pytest.raises(UserError) as e:
        parse_backend(spec, handlers=True)
    assert str(e.value).startswith(f"backend {spec!r}: {rule}")
    if rule == "must be one of":
        assert "jobs:FILE[:DELAY], python:MODULE:ATTR" in str(e.value)


def test_a_python_handler_that_cannot_be_imported_names_it():
    with pytest.raises(UserError, match="backend 'python:no_such_module:H': cannot be imported"):
        build_handler(None, Settings(backend="python:no_such_module:H"))


def test_the_compaction_backend_that_goes_with_each_backend():
    assert compaction_backend("offline") == "offline"
    assert compaction_backend("anthropic") == "anthropic"
    assert compaction_backend("openai:qwen2.5:7b") == "offline"  # local memory stays local
    assert compaction_backend("replay:c.json") == compaction_backend("jobs:x") == "auto"
    assert compaction_backend(parse_backend("auto", environ=KEY)) == "anthropic"


# -- settings, read in one place ---------------------------------------------------------------


def test_settings_take_the_environment_for_what_is_not_given():
    env = {"DOCTREE_BACKEND": "offline", "DOCTREE_CONTEXT_WINDOW": "4096", "DOCTREE_OWNER": "ops"}
    s = Settings.from_env(env)
    assert (s.backend, s.context_window, s.owner, s.db) == ("offline", 4096, "ops", None)
    given = Settings.from_env(env, backend="anthropic", context_window=None, db="x.db")
    assert (given.backend, given.context_window, given.db) == ("anthropic", 4096, "x.db")


def test_settings_alone_read_no_environment(monkeypatch):
    monkeypatch.setenv("DOCTREE_BACKEND", "anthropic")
    assert Settings().backend == "auto"


def test_a_bad_setting_is_a_user_error_naming_its_variable():
    with pytest.raises(UserError, match=r"setting \$DOCTREE_CONTEXT_WINDOW 'lots'"):
        Settings.from_env({"DOCTREE_CONTEXT_WINDOW": "lots"})
    with pytest.raises(UserError, match="setting context_window 0: must be a whole number"):
        Settings.from_env({}, context_window=0)
    with pytest.raises(UserError, match="setting timeout -1: must be a positive number"):
        Settings(timeout=-1)
    with pytest.raises(UserError, match=r"setting \$DOCTREE_OWNER '../x'"):
        Settings.from_env({"DOCTREE_OWNER": "../x"})
    with pytest.raises(UserError, match="setting colour 'red'"):
        Settings.from_env({}, colour="red")
    huge = "9" * 30  # a count no model has: refused, never carried on to a request or a row
    with pytest.raises(UserError, match=r"\$DOCTREE_CONTEXT_WINDOW '9+': .* at most 2147483647"):
        Settings.from_env({"DOCTREE_CONTEXT_WINDOW": huge})
    with pytest.raises(UserError, match="setting max_retries 4294967296: .* at most"):
        Settings(max_retries=2**32)


# -- the objects -------------------------------------------------------------------------------


def test_the_runtime_gets_the_backend_and_model_settings(repo):
    s = Settings(backend="openai:qwen2.5:7b", base_url="http://127.0.0.1:9/v1", timeout=5)
    rt = build_runtime(repo, s)
    try:
        assert (rt.backend, rt.model, rt.base_url, rt.timeout) == (
            "openai",
            "qwen2.5:7b",
            "http://127.0.0.1:9/v1",
            5,
        )
    finally:
        rt.close()


def test_a_worker_handler_is_not_a_runtime(repo, tmp_path):
    handler = build_handler(repo, Settings(backend=f"jobs:{tmp_path / 'j.jsonl'}:0.25"))
    assert isinstance(handler, JobsFileHandler) and handler.delay == 0.25
    with pytest.raises(UserError, match="backend 'jobs:x': must be one of"):
        build_runtime(repo, Settings(backend="jobs:x"))


def test_the_replay_pipeline_is_the_live_path(repo):
    text = PERSONAL.read_text(encoding="utf-8")
    with replay_pipeline(Settings(backend="offline"), repo) as replayer:
        first = replayer.replay(text, source=PERSONAL.name)
        again = replayer.replay(text, source=PERSONAL.name)
    assert first.error is None and first.appended == first.messages > 0
    assert [r["backend"] for r in first.runs] == ["offline"]
    assert first.runs[0]["changes"]  # the offline memory agent wrote pages
    assert (again.appended, again.skipped, again.runs) == (0, first.messages, [])
    s = SessionsRepository(repo.conn).require(first.session_id)
    assert s.invalidated_at is None and s.processed_until is not None


def test_a_replay_pipeline_that_cannot_run_fails_before_any_session(repo):
    with pytest.raises(UserError, match="backend 'anthropic': set ANTHROPIC_API_KEY"):
        replay_pipeline(Settings(backend="anthropic"), repo)
    assert SessionsRepository(repo.conn).list_sessions(limit=None) == []


def test_open_repository_on_settings_owns_its_connection(tmp_path):
    repo = open_repository(Settings(db=str(tmp_path / "x.db")))
    repo.write("main", "~/a", "x")
    repo.close()
    with DocumentsRepository(tmp_path / "x.db") as again:
        assert again.read("main", "~/a").body == "x"


def test_no_benchmark_takes_a_private_name_of_doctree():
    offenders = []
    for path in sorted((ROOT / "bench").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("doctree"):
                offenders += [f"{path.name}: {a.name}" for a in node.names if a.name[0] == "_"]
    assert offenders == []


# -- every door, one rule ----------------------------------------------------------------------


def _env(key: bool, base_url: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("ANTHROPIC_", "DOCTREE_", "OPENAI_"))
    }
    env["ANTHROPIC_BASE_URL"] = base_url  # set either way: the key alone decides
    if key:
        env["ANTHROPIC_API_KEY"] = "test-key"
    return env


def _doctree(db: Path, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "doctree", "--db", str(db), *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=ROOT,
    )


def _pending(db: Path, text: str) -> None:
    from doctree.sessions.transcripts import parse_transcript

    t = parse_transcript(text)
    with SessionsRepository(db) as sessions:
        sessions.ensure(t.owner, t.session_id, created_at=t.started)
        sessions.append_many(t.session_id, ((m.kind, m.content, m.time) for m in t.messages))
        sessions.sleep(t.session_id)


def _backends(db: Path) -> list[str]:
    with DocumentsRepository(db) as repo:
        return [r.backend for r in Runs(repo.conn).list()]


@pytest.mark.slow  # real doctree processes
@pytest.mark.parametrize("key", [False, True], ids=["no-key", "key"])
def test_cli_replay_cli_worker_and_engine_resolve_auto_the_same(tmp_path, monkeypatch, key):
    text = PERSONAL.read_text(encoding="utf-8")
    expected = "anthropic" if key else "offline"
    script = Scripted([message(text_block("Nothing worth keeping.")) for _ in range(3)])
    with FakeMessagesServer(script) as fake:
        env = _env(key, fake.base_url)

        replayed = _doctree(tmp_path / "r.db", "replay", "--json", str(PERSONAL), env=env)
        assert replayed.returncode == 0, replayed.stderr
        (outcome,) = json.loads(replayed.stdout)

        _pending(tmp_path / "w.db", text)
        worked = _doctree(tmp_path / "w.db", "worker", "--once", "--no-compact", env=env)
        assert worked.returncode == 0, worked.stderr

        for name in ("ANTHROPIC_API_KEY", "DOCTREE_BACKEND"):
            monkeypatch.delenv(name, raising=False)
        monkeypatch.setenv("ANTHROPIC_BASE_URL", fake.base_url)
        if key:
            monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
        _pending(tmp_path / "e.db", text)
        with Engine(tmp_path / "e.db", compact=False) as engine:
            assert engine.run_worker_once().processed

    assert [r["backend"] for r in outcome["runs"]] == [expected]
    assert _backends(tmp_path / "r.db") == _backends(tmp_path / "w.db") == [expected]
    assert _backends(tmp_path / "e.db") == [expected]
    assert script.served == (3 if key else 0)
    # both commands say the same about the choice
    note = parse_backend("auto", environ=env).note()
    assert note in replayed.stderr and note in worked.stderr


@pytest.mark.slow  # real doctree processes
def test_every_door_refuses_a_bad_backend_with_the_same_line(tmp_path):
    env = _env(False, "http://127.0.0.1:9")
    line = "error: backend 'gpt': must be one of " + MODEL_FORMS
    replayed = _doctree(tmp_path / "r.db", "replay", "--backend", "gpt", str(PERSONAL), env=env)
    assert (replayed.returncode, replayed.stderr.strip()) == (2, line)
    worked = _doctree(tmp_path / "w.db", "worker", "--once", "--backend", "gpt", env=env)
    assert worked.returncode == 2
    assert worked.stderr.strip() == line + ", jobs:FILE[:DELAY], python:MODULE:ATTR"
    with pytest.raises(UserError) as e:
        Engine(tmp_path / "e.db", handler="gpt")
    assert f"error: {e.value}" == worked.stderr.strip()


@pytest.mark.slow  # real doctree processes
def test_the_backend_environment_variable_reaches_every_door(tmp_path, monkeypatch):
    jobs = tmp_path / "jobs.jsonl"
    env = _env(False, "http://127.0.0.1:9") | {"DOCTREE_BACKEND": f"jobs:{jobs}"}
    _pending(tmp_path / "w.db", PERSONAL.read_text(encoding="utf-8"))
    worked = _doctree(tmp_path / "w.db", "worker", "--once", env=env)
    assert worked.returncode == 0, worked.stderr
    assert len(jobs.read_text().splitlines()) == 1
    replayed = _doctree(tmp_path / "r.db", "replay", str(PERSONAL), env=env)
    assert replayed.returncode == 2  # replay runs the memory agent, not a worker handler
    assert f"backend 'jobs:{jobs}': must be one of" in replayed.stderr
    monkeypatch.setenv("DOCTREE_BACKEND", f"jobs:{jobs}")
    _pending(tmp_path / "e.db", PERSONAL.read_text(encoding="utf-8"))
    with Engine(tmp_path / "e.db", compact=False) as engine:
        assert engine.run_worker_once().processed
    assert len(jobs.read_text().splitlines()) == 2
