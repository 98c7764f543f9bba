"""The memory agent on the `openai` backend: the real openai SDK against a loopback fake of
an OpenAI-compatible chat-completions endpoint over real HTTP, including the ways small
local models misbehave. A misbehaving model never leaves memory other than it found it."""

from __future__ import annotations

import json

import pytest

from doctree.agent.runtime import (
    MAX_CORRECTIONS,
    MemoryAgentRuntime,
    RunFailedError,
)
from doctree.errors import UserError
from doctree.interop.tools import MemoryTools
from doctree.llm.backends import Backend, parse_backend
from doctree.llm.definitions import Pricing, load_definition
from doctree.llm.model_clients import prompt_budget, text_tool_call
from doctree.store.documents import DocumentsRepository
from doctree.store.runs import Runs
from tests.fakes.chat_completions import FakeChatServer, call, chat
from tests.fakes.messages_api import HttpError, Scripted

TRANSCRIPT = """# Transcript of session s-1

- agent: main
- session: s-1
- started: 2026-11-20T09:00:00Z
- ended: 2026-11-20T09:10:00Z

## user · 2026-11-20T09:00:00Z

I prefer tea in the mornings.
"""


@pytest.fixture
def fake():
    servers = []

    def start(*items, context_window=None):
        srv = FakeChatServer(Scripted(list(items)), context_window=context_window).start()
        servers.append(srv)
        return srv

    yield start
    for s in servers:
        s.stop()


def runtime(repo, srv, context_window=None, **overrides):
    definition = load_definition()
    if overrides:
        definition = definition.model_copy(update=overrides)
    return MemoryAgentRuntime(
        repo,
        backend="openai:qwen2.5:7b",
        base_url=srv.base_url + "/v1",
        definition=definition,
        context_window=context_window,
        max_retries=2,
    )


def write(path, body, **extra):
    return call("document_write", {"path": path, "body": body, **extra})


def done(text="Done: recorded the preference."):
    return chat(text)


def tool_messages(srv, n):
    """The tool messages of the n-th request (0-based) after its last assistant message."""
    messages = srv.requests[n].body["messages"]
    last = max(i for i, m in enumerate(messages) if m["role"] == "assistant")
    return [m for m in messages[last + 1 :] if m["role"] == "tool"]


def notes(srv, n):
    """The user messages the loop added after the n-th request's last assistant message."""
    messages = srv.requests[n].body["messages"]
    last = max(i for i, m in enumerate(messages) if m["role"] == "assistant")
    return [m["content"] for m in messages[last + 1 :] if m["role"] == "user"]


def snapshot(repo):
    """Every current document of every owner, and the number of versions: what a failed run
    must leave as it found it (reverting adds versions, so those are compared apart)."""
    return {(owner, d.path): d.body for owner in repo.owners() for d in repo.documents(owner, "~")}


@pytest.fixture
def seeded(repo):
    """Memory with one page in it, written by someone else before the run."""
    repo.write("main", "~/memory/patterns", "# Patterns\n\n- likes coffee\n")
    return snapshot(repo)


# -- the loop on chat completions -------------------------------------------------------------


@pytest.mark.slow
def test_multi_turn_tool_loop_writes_through_the_tools(repo, fake):
    srv = fake(
        chat(None, write("~/memory/patterns", "# Patterns\n\n- prefers tea (session s-1)\n")),
        chat(None, call("document_read", {"path": "~/memory/patterns"})),
        done(),
    )
    result = runtime(repo, srv).run("main", "s-1", TRANSCRIPT)
    run = result.run
    assert (run.status, run.stop_reason, run.turns, run.backend, run.model) == (
        "completed",
        "end_turn",
        3,
        "openai",
        "qwen2.5:7b",
    )
    assert "prefers tea" in repo.read("main", "~/memory/patterns").body
    assert "1\t# Patterns" in tool_messages(srv, 2)[0]["content"]


def test_requests_carry_the_system_prompt_the_transcript_and_function_tools(repo, fake):
    srv = fake(chat(None, call("document_read", {"path": "~/memory"})), done())
    runtime(repo, srv).run("main", "s-1", TRANSCRIPT)
    body = srv.requests[0].body
    assert body["model"] == "qwen2.5:7b"
    assert body["max_tokens"] == load_definition().openai.max_response_tokens
    system, user = body["messages"]
    assert system == {"role": "system", "content": load_definition().system_prompt()}
    assert "<transcript>" in user["content"] and "I prefer tea" in user["content"]
    names = [t["function"]["name"] for t in body["tools"]]
    assert names == load_definition().tools
    assert all(t["type"] == "function" and "parameters" in t["function"] for t in body["tools"])
    assert "stream" not in body or body["stream"] is False


def test_the_assistants_tool_calls_are_echoed_with_their_results(repo, fake):
    srv = fake(chat("Reading.", call("document_read", {"path": "~/memory"}, id="c1")), done())
    runtime(repo, srv).run("main", "s-1", TRANSCRIPT)
    said = srv.requests[1].body["messages"][2]
    assert said["role"] == "assistant" and said["content"] == "Reading."
    assert said["tool_calls"][0]["id"] == "c1"
    [result] = tool_messages(srv, 1)
    assert result["tool_call_id"] == "c1" and "memory is empty" in result["content"]


def test_usage_is_recorded_as_the_server_reports_it(repo, fake):
    usage = {
        "prompt_tokens": 5000,
        "completion_tokens": 40,
        "total_tokens": 5040,
        "prompt_tokens_details": {"cached_tokens": 4096},
    }
    srv = fake(
        chat(None, call("document_read", {"path": "~/memory"}), usage=usage),
        chat("Done.", usage={"prompt_tokens": 5100, "completion_tokens": 7, "total_tokens": 5107}),
    )
    run = runtime(repo, srv).run("main", "s-1", TRANSCRIPT).run
    assert (run.input_tokens, run.output_tokens, run.cache_read_tokens) == (904 + 5100, 47, 4096)
    assert run.cache_write_tokens == 0
    assert run.cost_usd == 0  # a local server costs nothing unless the definition prices it


def test_a_definition_may_price_the_served_model(repo, fake):
    priced = load_definition().openai.model_copy(
        update={"pricing": Pricing(input=1.0, output=2.0, cache_write=0, cache_read=0.5)}
    )
    usage = {"prompt_tokens": 1_000_000, "completion_tokens": 0, "total_tokens": 1_000_000}
    srv = fake(chat(None, call("document_read", {"path": "~/memory"}), usage=usage), done())
    run = runtime(repo, srv, openai=priced).run("main", "s-1", TRANSCRIPT).run
    assert run.cost_usd >= 1.0


def test_rate_limit_and_server_errors_are_retried_by_the_sdk(repo, fake):
    srv = fake(
        HttpError(429),
        HttpError(500),
        chat(None, call("document_read", {"path": "~/memory"})),
        done(),
    )
    run = runtime(repo, srv).run("main", "s-1", TRANSCRIPT).run
    assert run.status == "completed" and len(srv.requests) == 4


def test_exhausted_retries_fail_the_run_and_record_the_error(repo, fake):
    srv = fake(HttpError(503), HttpError(503), HttpError(503))
    with pytest.raises(RunFailedError):
        runtime(repo, srv).run("main", "s-1", TRANSCRIPT)
    [run] = Runs(repo.conn).list()
    assert (run.status, run.stop_reason) == ("failed", "error")
    assert "503" in run.error or "InternalServerError" in run.error


def test_the_turn_limit_stops_a_model_that_never_finishes(repo, fake):
    srv = fake(
        *[chat(None, write(f"~/memory/n{i}", f"# N{i}\n")) for i in range(3)],
    )
    run = runtime(repo, srv, max_turns=3).run("main", "s-1", TRANSCRIPT).run
    assert (run.status, run.stop_reason) == ("stopped", "max_turns")


def test_a_truncated_reply_stops_the_run(repo, fake):
    srv = fake(chat("I will now", finish_reason="length"))
    run = runtime(repo, srv).run("main", "s-1", TRANSCRIPT).run
    assert (run.status, run.stop_reason) == ("stopped", "response_max_tokens")


# -- misbehaviour: each answered, bounded, and a failed run reverted ---------------------------


def test_arguments_that_are_not_json_are_a_tool_error_and_run_nothing(repo, fake, seeded):
    srv = fake(
        chat(None, call("document_write", '{"path": "~/memory/patterns", "body": "# P')),
        chat(None, call("document_read", {"path": "~/memory"})),
        done(),
    )
    run = runtime(repo, srv).run("main", "s-1", TRANSCRIPT).run
    [result] = tool_messages(srv, 1)
    assert "not valid JSON" in result["content"] and "nothing was run" in result["content"]
    assert (run.status, run.tool_calls, run.tool_errors) == ("completed", 2, 1)
    assert snapshot(repo) == seeded
    # the malformed call is echoed as valid JSON, so a server that parses history accepts it
    echoed = srv.requests[1].body["messages"][2]["tool_calls"][0]["function"]["arguments"]
    assert json.loads(echoed) == {"invalid_arguments": '{"path": "~/memory/patterns", "body": "# P'}


def test_arguments_that_are_json_but_not_an_object_are_a_tool_error(repo, fake):
    srv = fake(
        chat(None, call("document_read", '["~/memory"]')),
        chat(None, call("document_read", {"path": "~/memory"})),
        done(),
    )
    runtime(repo, srv).run("main", "s-1", TRANSCRIPT)
    [result] = tool_messages(srv, 1)
    assert "must be one JSON object" in result["content"]


def test_an_unknown_tool_is_a_tool_error_naming_the_tools(repo, fake):
    srv = fake(
        chat(None, call("memory_save", {"text": "tea"})),
        chat(None, call("document_read", {"path": "~/memory"})),
        done(),
    )
    run = runtime(repo, srv).run("main", "s-1", TRANSCRIPT).run
    [result] = tool_messages(srv, 1)
    assert "unknown tool 'memory_save'" in result["content"]
    assert "document_write" in result["content"]
    assert run.status == "completed" and repo.owners() == []


@pytest.mark.parametrize(
    "text",
    [
        '<tool_call>\n{"name": "document_write", "arguments": {"path": "~/memory/a"}}\n</tool_call>',
        '```json\n{"name": "document_read", "parameters": {"path": "~/memory"}}\n```',
        'document_read(path="~/memory")',
    ],
)
def test_a_tool_call_written_as_text_is_not_run_and_the_model_is_told(repo, fake, text):
    srv = fake(chat(text), chat(None, call("document_read", {"path": "~/memory"})), done())
    run = runtime(repo, srv).run("main", "s-1", TRANSCRIPT).run
    [note] = notes(srv, 1)
    assert "wrote a tool call as text" in note
    assert run.status == "completed" and repo.owners() == []


def test_a_reply_without_any_tool_call_is_told_to_start_with_the_tools(repo, fake):
    srv = fake(
        chat("Noted, the user likes tea."),
        chat(None, call("document_read", {"path": "~/memory"})),
        done(),
    )
    run = runtime(repo, srv).run("main", "s-1", TRANSCRIPT).run
    [note] = notes(srv, 1)
    assert "made no tool call" in note and "document_read" in note
    assert run.status == "completed" and run.turns == 3


def test_a_model_that_never_calls_a_tool_fails_the_run_after_the_corrections(repo, fake, seeded):
    srv = fake(*[chat("The user likes tea.")] * MAX_CORRECTIONS)
    with pytest.raises(RunFailedError, match="misbehaved 3 turns in a row"):
        runtime(repo, srv).run("main", "s-1", TRANSCRIPT)
    assert len(srv.requests) == MAX_CORRECTIONS
    [run] = Runs(repo.conn).list()
    assert run.status == "failed" and "no tool call" in run.error
    assert snapshot(repo) == seeded


def test_a_model_that_misbehaves_after_writing_fails_and_its_writes_are_reverted(
    repo, fake, seeded
):
    bad = chat(None, call("document_write", "{path: ~/memory/x"))
    srv = fake(
        chat(None, write("~/memory/patterns", "# Patterns\n\nGARBAGE\n")),
        chat(None, write("~/memory/junk", "# Junk\n")),
        *[bad] * MAX_CORRECTIONS,
    )
    with pytest.raises(RunFailedError, match="not valid JSON"):
        runtime(repo, srv).run("main", "s-1", TRANSCRIPT)
    [run] = Runs(repo.conn).list()
    assert (run.status, run.tool_errors) == ("failed", MAX_CORRECTIONS)
    assert snapshot(repo) == seeded
    assert not repo.exists("main", "~/memory/junk")


def test_an_endless_loop_of_the_same_call_is_refused_then_fails_the_run(repo, fake, seeded):
    loop = chat(None, write("~/memory/patterns", "# Patterns\n\n- likes tea\n"))
    srv = fake(*[loop] * 10)
    with pytest.raises(RunFailedError, match="same arguments"):
        runtime(repo, srv).run("main", "s-1", TRANSCRIPT)
    # two calls ran, the next ones were refused, and the run failed at the third refusal
    assert len(srv.requests) == 2 + MAX_CORRECTIONS
    assert "same arguments" in tool_messages(srv, 3)[0]["content"]
    assert snapshot(repo) == seeded


def test_a_corrected_model_is_given_its_allowance_again(repo, fake):
    text = chat("document_read(path='~/memory')")
    good = chat(None, call("document_read", {"path": "~/memory"}))
    srv = fake(text, text, good, text, text, good, done())
    run = runtime(repo, srv).run("main", "s-1", TRANSCRIPT).run
    assert run.status == "completed" and run.turns == 7


# -- the context window ------------------------------------------------------------------------


def test_the_prompt_budget_fits_an_8k_window():
    d = load_definition()
    budget = prompt_budget(d.system_prompt(), _tool_definitions(d), d.openai.max_response_tokens)
    assert budget.total <= 8192 == d.openai.context_window


def _tool_definitions(d):
    return MemoryTools(DocumentsRepository(":memory:"), "main", allowed=d.tools).definitions()


def test_a_window_too_small_for_the_prompt_is_refused_before_any_run(repo, fake):
    srv = fake()
    rt = runtime(repo, srv, context_window=4096)
    with pytest.raises(UserError, match=r"context window of 4,096 tokens cannot hold") as e:
        rt.run("main", "s-1", TRANSCRIPT)
    assert "system prompt" in str(e.value) and "needs" in str(e.value)
    assert srv.requests == [] and Runs(repo.conn).list() == []


def _long_transcript(records: int) -> str:
    sections = [
        f"## user · 2026-11-20T09:{i // 60:02d}:{i % 60:02d}Z\n\nThe user said fact number {i}: "
        f"the meeting room for topic {i} is room {100 + i}.\n"
        for i in range(records)
    ]
    return TRANSCRIPT.split("## user")[0] + "\n".join(sections)


def _reads_then_finishes(request):
    if request["messages"][-1]["role"] == "tool":
        return chat("Nothing new to keep.")
    return chat(None, call("document_read", {"path": "~/memory"}))


@pytest.mark.slow
def test_a_transcript_too_long_for_the_window_is_handed_over_in_parts(repo):
    long = _long_transcript(300)  # about 30 KB: several times what an 8k window holds
    with FakeChatServer(_reads_then_finishes, context_window=8192) as srv:
        rt = MemoryAgentRuntime(repo, backend="openai:m", base_url=srv.base_url + "/v1")
        run = rt.run("main", "s-1", long).run
    assert run.status == "completed" and srv.oversized == []
    firsts = [
        r.body["messages"][1]["content"] for r in srv.requests if len(r.body["messages"]) == 2
    ]
    n = len(firsts)
    assert n > 2
    assert [f"This is part {i} of {n} of the transcript" in m for i, m in enumerate(firsts, 1)] == [
        True
    ] * n
    handed = "".join(firsts)
    assert all(f"fact number {i}:" in handed for i in range(300))  # every record, once
    assert sum(handed.count(f"fact number {i}:") for i in range(300)) == 300
    assert all("- session: s-1" in m for m in firsts)  # each part keeps the header


@pytest.mark.slow
def test_a_record_too_long_for_the_window_is_cut_between_lines(repo):
    huge = "\n".join(f"line {i} of a pasted log that goes on and on" for i in range(1200))
    text = TRANSCRIPT + f"\n## user · 2026-11-20T09:05:00Z\n\n{huge}\n"
    with FakeChatServer(_reads_then_finishes, context_window=8192) as srv:
        rt = MemoryAgentRuntime(repo, backend="openai:m", base_url=srv.base_url + "/v1")
        run = rt.run("main", "s-1", text).run
    assert run.status == "completed" and srv.oversized == []
    handed = "".join(
        r.body["messages"][1]["content"] for r in srv.requests if len(r.body["messages"]) == 2
    )
    assert "line 0 of" in handed and "line 1199 of" in handed


def test_a_long_tool_result_in_the_transcript_is_cut_with_a_note(repo):
    result = {"tool_use_id": "t1", "content": "x" * 40_000 + "THE-END", "is_error": False}
    text = TRANSCRIPT + (
        f"\n## tool result · 2026-11-20T09:05:00Z\n\n```json\n{json.dumps(result)}\n```\n"
    )
    with FakeChatServer(_reads_then_finishes, context_window=8192) as srv:
        rt = MemoryAgentRuntime(repo, backend="openai:m", base_url=srv.base_url + "/v1")
        run = rt.run("main", "s-1", text).run
    assert run.status == "completed" and srv.oversized == []
    handed = "".join(
        r.body["messages"][1]["content"] for r in srv.requests if len(r.body["messages"]) == 2
    )
    assert "[cut to fit the context window" in handed and "THE-END" not in handed
    assert "I prefer tea" in handed


def test_a_record_that_cannot_be_cut_fails_the_run_without_an_oversized_request(repo, fake):
    srv = fake(context_window=8192)
    huge = {"id": "t1", "name": "run_shell", "input": {"command": "echo " + "y" * 40_000}}
    text = TRANSCRIPT.split("## user")[0] + (
        f"## tool call · 2026-11-20T09:05:00Z\n\n```json\n{json.dumps(huge)}\n```\n"
    )
    with pytest.raises(RunFailedError, match="context window of 8,192"):
        runtime(repo, srv).run("main", "s-1", text)
    assert srv.requests == [] and srv.oversized == []
    [run] = Runs(repo.conn).list()
    assert run.status == "failed"


def test_old_tool_results_are_elided_to_stay_inside_an_8k_window(repo, fake):
    big = "# Big\n\n" + "".join(
        f"- line {i} of a long page about many things\n" for i in range(140)
    )
    repo.write("main", "~/memory/big", big)
    reads = [
        chat(None, call("document_read", {"path": "~/memory/big", "version": 1}, id=f"r{i}"))
        for i in range(3)
    ]
    srv = fake(
        *reads, chat(None, call("document_read", {"path": "~/memory"})), done(), context_window=8192
    )
    run = runtime(repo, srv).run("main", "s-1", TRANSCRIPT).run
    assert run.status == "completed" and srv.oversized == []
    last = srv.requests[-1].body["messages"]
    tool_contents = [m["content"] for m in last if m["role"] == "tool"]
    assert tool_contents[0].startswith("[elided to fit the context window")
    assert "memory" in tool_contents[-1]  # the newest result is whole


def test_a_result_too_long_for_the_window_is_cut_with_a_note(repo, fake):
    big = "# Big\n\n" + "".join(f"- line {i} of a very long page\n" for i in range(600))
    repo.write("main", "~/memory/big", big)
    srv = fake(
        chat(None, call("document_read", {"path": "~/memory/big"})),
        done(),
        context_window=8192,
    )
    run = runtime(repo, srv).run("main", "s-1", TRANSCRIPT).run
    assert run.status == "completed" and srv.oversized == []
    [result] = tool_messages(srv, 1)
    assert "line 0 of" in result["content"] and "line 599" not in result["content"]
    assert "[cut to fit the context window" in result["content"]


# -- settings ----------------------------------------------------------------------------------


def test_a_local_server_needs_no_key(repo, fake, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    srv = fake(chat(None, call("document_read", {"path": "~/memory"})), done())
    monkeypatch.setenv("OPENAI_BASE_URL", srv.base_url + "/v1")
    rt = MemoryAgentRuntime(repo, backend="openai:llama")
    assert rt.run("main", "s-1", TRANSCRIPT).run.status == "completed"
    assert srv.requests[0].headers["authorization"] == "Bearer none"
    assert srv.requests[0].body["model"] == "llama"


def test_the_key_from_the_environment_is_sent(repo, fake, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-key")
    srv = fake(chat(None, call("document_read", {"path": "~/memory"})), done())
    runtime(repo, srv).run("main", "s-1", TRANSCRIPT)
    assert srv.requests[0].headers["authorization"] == "Bearer sk-test-key"


def test_openais_own_api_without_a_key_is_refused(repo, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(UserError, match="set OPENAI_BASE_URL"):
        MemoryAgentRuntime(repo, backend="openai").client()


def test_the_model_comes_from_the_backend_string_else_the_definition(repo):
    assert MemoryAgentRuntime(repo, backend="openai:qwen2.5:14b").model == "qwen2.5:14b"
    assert MemoryAgentRuntime(repo, backend="openai").model == load_definition().openai.model
    nameless = load_definition().model_copy(
        update={"openai": load_definition().openai.model_copy(update={"model": None})}
    )
    with pytest.raises(UserError, match="name the model"):
        MemoryAgentRuntime(repo, backend="openai", definition=nameless)


@pytest.mark.parametrize(
    ("spec", "choice"),
    [
        ("openai", Backend("openai", spec="openai")),
        ("openai:qwen2.5:7b", Backend("openai", spec="openai:qwen2.5:7b", model="qwen2.5:7b")),
        ("replay:c.json", Backend("replay", spec="replay:c.json", cassette="c.json")),
        ("record:c.json", Backend("replay", spec="record:c.json", cassette="c.json", record=True)),
        ("offline", Backend("offline", spec="offline")),
    ],
)
def test_backend_strings_are_read_by_one_function(spec, choice):
    assert parse_backend(spec) == choice


@pytest.mark.parametrize("spec", ["gpt", "openai:", "ollama:qwen", "anthropic:claude"])
def test_an_unknown_backend_string_is_refused_naming_the_forms(spec):
    with pytest.raises(UserError, match="openai:MODEL|name the model"):
        parse_backend(spec)


def test_text_tool_call_detection_leaves_plain_summaries_alone():
    names = ["document_read", "document_write"]
    assert text_tool_call("Recorded session s-1 in ~/memory/archive/2026-W47.", names) is None
    assert text_tool_call("I read the page and updated it with document_write.", names) is None
    assert text_tool_call('{"name": "document_write", "x": 1}', names) is not None


# -- the doors: Engine and the worker process choose it by name ----------------------------------


def _pending_session(engine):
    s = engine.start_session("main", "s-eng")
    engine.append(s.id, "user", "I prefer tea in the mornings.")
    engine.sleep(s.id)
    return s


def test_the_engine_runs_the_memory_agent_on_the_openai_backend(db_path, monkeypatch):
    from doctree.engine import Engine

    with FakeChatServer(_reads_then_finishes) as srv:
        monkeypatch.setenv("OPENAI_BASE_URL", srv.base_url + "/v1")
        monkeypatch.delenv("OPENAI_API_KEY", raising=False)
        with Engine(db_path, handler="openai:qwen2.5:7b") as engine:
            s = _pending_session(engine)
            tick = engine.run_worker_once()
            assert s.id in tick.processed
        assert {r.body["model"] for r in srv.requests} == {"qwen2.5:7b"}
    repo = DocumentsRepository(db_path)
    try:
        assert [(r.backend, r.status) for r in Runs(repo.conn).list()] == [("openai", "completed")]
    finally:
        repo.close()


def test_the_engine_passes_the_backend_settings_to_its_worker(db_path, monkeypatch):
    from doctree.engine import Engine

    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with FakeChatServer(_reads_then_finishes) as srv:
        url = srv.base_url + "/v1"
        options = {"base_url": url, "context_window": 16384}
        with Engine(db_path, handler="openai:m", handler_options=options) as engine:
            s = _pending_session(engine)
            assert s.id in engine.run_worker_once().processed
            cmd = engine.worker_command()
        assert srv.requests
    assert cmd[cmd.index("--base-url") + 1] == url
    assert cmd[cmd.index("--context-window") + 1] == "16384"


@pytest.mark.slow
def test_a_worker_process_runs_the_memory_agent_on_the_openai_backend(db_path, tmp_path):
    import os
    import subprocess

    from doctree.engine import Engine

    with FakeChatServer(_reads_then_finishes) as srv, Engine(db_path, handler="offline") as engine:
        _pending_session(engine)
        env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
        cmd = engine.worker_command(
            handler="openai:qwen2.5:7b",
            once=True,
            extra_args=["--base-url", srv.base_url + "/v1", "--context-window", "16384"],
        )
        done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        assert "1 processed" in done.stdout
        assert srv.requests and srv.failures == []


@pytest.mark.slow
def test_a_worker_refuses_a_window_too_small_before_its_first_tick(db_path):
    import os
    import subprocess

    from doctree.engine import Engine

    with Engine(db_path, handler="offline") as engine:
        _pending_session(engine)
        cmd = engine.worker_command(
            handler="openai:tiny",
            once=True,
            extra_args=["--base-url", "http://127.0.0.1:9/v1", "--context-window", "2048"],
        )
        env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
        done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 2
        assert "context window of 2,048 tokens cannot hold" in done.stderr
        assert "Traceback" not in done.stderr
        assert engine.session("s-eng").invalidated_at is not None  # still pending, untouched


# -- any mix of misbehaviour: memory is never corrupted -----------------------------------------

RESPONSES = {
    "write": lambda i: chat(None, write(f"~/memory/notes/n{i}", f"# N{i}\n\n- fact {i}\n")),
    "edit": lambda i: chat(
        None,
        call(
            "document_edit",
            {"path": "~/memory/patterns", "old_string": "coffee", "new_string": f"tea {i}"},
        ),
    ),
    "invalid_json": lambda i: chat(None, call("document_write", '{"path": "~/memory/x", BROKEN')),
    "unknown_tool": lambda i: chat(None, call("memory_save", {"text": "BROKEN"})),
    "text_call": lambda i: chat('<tool_call>{"name": "document_write", "arguments": {}}'),
    "prose": lambda i: chat("The user likes tea."),
    "loop": lambda i: chat(None, write("~/memory/loop", "# Loop\n")),
    "outside": lambda i: chat(None, write("~/../ops/memory/x", "BROKEN")),
    "server_error": lambda i: HttpError(500),
    "done": lambda i: done(),
}


@pytest.mark.slow
def test_no_mix_of_misbehaviour_corrupts_memory(tmp_path_factory):
    """Any sequence of good and bad turns (the script may also run out, failing the run):
    a failed run leaves memory exactly as it was; a finished one holds only what the valid
    calls wrote, all under ~/memory."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from doctree.store.documents import DocumentsRepository

    @settings(max_examples=30, deadline=None)
    @given(st.lists(st.sampled_from(sorted(RESPONSES)), min_size=1, max_size=9))
    def check(kinds):
        repo = DocumentsRepository(tmp_path_factory.mktemp("mix") / "doctree.db")
        repo.write("main", "~/memory/patterns", "# Patterns\n\n- likes coffee\n")
        before = snapshot(repo)
        items = [RESPONSES[k](i) for i, k in enumerate(kinds)]
        with FakeChatServer(Scripted(items)) as srv:
            rt = runtime(repo, srv)
            try:
                run = rt.run("main", "s-1", TRANSCRIPT).run
            except RunFailedError:
                run = None
        try:
            after = snapshot(repo)
            if run is None:
                assert after == before
            else:
                assert run.status in ("completed", "stopped")
                assert all(path.startswith("~/memory") for _, path in after)
                assert not any("BROKEN" in body for body in after.values())
                assert set(after) - set(before) <= {
                    ("main", p) for p in ["~/memory/loop", "~/memory/notes"]
                } | {("main", f"~/memory/notes/n{i}") for i in range(len(kinds))}
            assert repo.owners() == ["main"]
        finally:
            repo.close()

    check()


def test_a_local_server_gets_minutes_per_request_and_an_api_seconds(repo):
    assert MemoryAgentRuntime(repo, backend="openai:m").timeout == 600.0
    assert MemoryAgentRuntime(repo, backend="anthropic").timeout == 120.0
    assert MemoryAgentRuntime(repo, backend="openai:m", timeout=5).timeout == 5


def test_compaction_after_an_openai_run_stays_offline():
    from doctree.compose import compaction_backend

    assert compaction_backend("openai") == compaction_backend("openai:qwen2.5:7b") == "offline"
    assert compaction_backend("anthropic") == "anthropic"


def test_json_in_a_summary_that_names_no_tool_is_not_taken_for_a_call():
    names = ["document_read", "document_write"]
    summary = 'Noted the API shape the user described: {"parameters": {"limit": 10}}.'
    assert text_tool_call(summary, names) is None
    assert text_tool_call('{"tool": "document_read", "arguments": {"path": "~/memory"}}', names)


def test_a_server_that_does_not_answer_fails_the_run_naming_its_url(repo):
    rt = MemoryAgentRuntime(
        repo, backend="openai:m", base_url="http://127.0.0.1:9/v1", max_retries=0
    )
    with pytest.raises(
        RunFailedError, match=r"model server at http://127.0.0.1:9/v1/ did not answer"
    ):
        rt.run("main", "s-1", TRANSCRIPT)
    assert repo.owners() == []


def test_repeated_or_missing_call_ids_are_made_unique(repo, fake):
    first = call("document_read", {"path": "~/memory"}, id="call_0")
    second = call("document_write", {"path": "~/memory/a", "body": "# A\n"}, id="call_0")
    srv = fake(chat(None, first), chat(None, second), done())
    run = runtime(repo, srv).run("main", "s-1", TRANSCRIPT).run
    assert run.status == "completed" and repo.exists("main", "~/memory/a")
    ids = [m["tool_call_id"] for m in srv.requests[2].body["messages"] if m["role"] == "tool"]
    assert len(ids) == len(set(ids)) == 2
