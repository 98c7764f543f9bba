"""The loopback fake of the Messages API, driven by the real anthropic SDK over HTTP."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import anthropic
import pytest

from tests.fakes.messages_api import (
    CASSETTE_FORMAT,
    Cassette,
    CassettePlayer,
    FakeMessagesServer,
    HttpError,
    PromptCacheSimulator,
    Recorder,
    Scripted,
    ScriptedMemoryModel,
    message,
    prompt_segments,
    text_block,
    tool_use_block,
)

TRANSCRIPT = """<transcript>
# Transcript of session s-7

- agent: main
- session: s-7
- started: 2026-11-20T09:00:00Z
- ended: 2026-11-20T09:10:00Z

## user · 2026-11-20T09:00:00Z

I had lunch with Alice Smith today.
</transcript>"""


def client(srv, **kw):
    return anthropic.Anthropic(api_key="k", base_url=srv.base_url, max_retries=0, **kw)


def ask(c, text="hi", **kw):
    return c.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=100,
        messages=[{"role": "user", "content": [{"type": "text", "text": text}]}],
        **kw,
    )


def test_sdk_receives_a_scripted_message():
    with FakeMessagesServer(Scripted([message(text_block("hello"))])) as srv:
        response = ask(client(srv))
    assert response.content[0].text == "hello"
    assert response.stop_reason == "end_turn"


def test_scripted_tool_use_sets_stop_reason_tool_use():
    call = tool_use_block("document_read", {"path": "~/memory"})
    with FakeMessagesServer(Scripted([message(call)])) as srv:
        response = ask(client(srv))
    assert response.stop_reason == "tool_use"
    assert response.content[0].input == {"path": "~/memory"}


def test_server_keeps_each_request_raw_and_parsed():
    with FakeMessagesServer(Scripted([message(text_block("x"))])) as srv:
        ask(client(srv), "remember me")
    [req] = srv.requests
    assert json.loads(req.raw) == req.body
    assert req.body["messages"][0]["content"][0]["text"] == "remember me"


def test_scripted_http_error_reaches_the_sdk_as_its_exception():
    srv = FakeMessagesServer(Scripted([HttpError(429, "slow down")]))
    with srv, pytest.raises(anthropic.RateLimitError, match="slow down"):
        ask(client(srv))


def test_script_run_out_is_a_loud_failure():
    with FakeMessagesServer(Scripted([])) as srv:
        with pytest.raises(anthropic.BadRequestError, match="only 0 response"):
            ask(client(srv))
        assert srv.failures


def test_unknown_route_is_404():
    with FakeMessagesServer(Scripted([])) as srv:
        req = urllib.request.Request(srv.base_url + "/v1/complete", data=b"{}", method="POST")
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(req)
    assert e.value.code == 404


def test_usage_is_simulated_when_the_script_gives_none():
    with FakeMessagesServer(Scripted([message(text_block("x"))])) as srv:
        response = ask(client(srv))
    assert response.usage.input_tokens > 0
    assert response.usage.output_tokens > 0


def test_prompt_segments_follow_the_cache_order_tools_system_messages():
    body = {
        "messages": [{"role": "user", "content": [{"type": "text", "text": "m"}]}],
        "system": [{"type": "text", "text": "s", "cache_control": {"type": "ephemeral"}}],
        "tools": [{"name": "t", "input_schema": {}}],
    }
    segments = prompt_segments(body)
    assert ['"name":"t"' in segments[0][0], '"s"' in segments[1][0], '"m"' in segments[2][0]] == [
        True,
        True,
        True,
    ]
    assert [marked for _, marked in segments] == [False, True, False]
    assert "cache_control" not in segments[1][0]


def _body(*texts, marked=True):
    system = {"type": "text", "text": "S" * 4000}
    if marked:
        system["cache_control"] = {"type": "ephemeral"}
    return {
        "system": [system],
        "messages": [{"role": "user", "content": [{"type": "text", "text": t}]} for t in texts],
    }


def test_first_request_writes_the_cache_and_the_next_reads_it():
    cache = PromptCacheSimulator()
    first = cache.usage(_body("a"), [])
    second = cache.usage(_body("a", "b"), [])
    assert first["cache_creation_input_tokens"] >= 1000
    assert first["cache_read_input_tokens"] == 0
    assert second["cache_read_input_tokens"] == first["cache_creation_input_tokens"]


def test_requests_without_breakpoints_are_never_cached():
    cache = PromptCacheSimulator()
    cache.usage(_body("a", marked=False), [])
    again = cache.usage(_body("a", marked=False), [])
    assert again["cache_read_input_tokens"] == 0
    assert again["input_tokens"] >= 1000


def test_cassette_round_trips_through_a_file(tmp_path):
    c = Cassette([{"request": {"a": 1}, "response": {"status": 200, "body": {}}}], "label")
    c.save(tmp_path / "c.json")
    again = Cassette.load(tmp_path / "c.json")
    assert (again.interactions, again.label) == (c.interactions, "label")
    assert json.loads((tmp_path / "c.json").read_text())["format"] == CASSETTE_FORMAT


def test_cassette_of_another_format_is_refused(tmp_path):
    from doctree.errors import UserError

    (tmp_path / "c.json").write_text('{"interactions": []}')
    with pytest.raises(UserError, match="format must be"):
        Cassette.load(tmp_path / "c.json")


def test_player_serves_recorded_responses_to_identical_requests():
    with FakeMessagesServer(Scripted([message(text_block("recorded"))])) as upstream:
        recorder = Recorder(upstream.base_url)
        with FakeMessagesServer(recorder, simulate_usage=False) as srv:
            first = ask(client(srv), "q")
    with FakeMessagesServer(CassettePlayer(recorder.cassette), simulate_usage=False) as srv:
        again = ask(client(srv), "q")
    assert again.content[0].text == first.content[0].text == "recorded"
    assert again.usage == first.usage


def test_player_refuses_a_different_request_with_the_difference():
    cassette = Cassette(
        [
            {
                "request": {
                    "max_tokens": 100,
                    "messages": [{"role": "user", "content": [{"type": "text", "text": "q"}]}],
                    "model": "claude-sonnet-4-6",
                },
                "response": {"status": 200, "body": message(text_block("x"), usage={})},
            }
        ]
    )
    with FakeMessagesServer(CassettePlayer(cassette, "c.json"), simulate_usage=False) as srv:
        with pytest.raises(anthropic.BadRequestError) as e:
            ask(client(srv), "another question")
        [failure] = srv.failures
    assert "request 1 differs" in failure
    assert '-     "text": "q",' in failure
    assert '+     "text": "another question",' in failure
    assert "differs" in str(e.value)


def test_difference_inside_a_long_text_shows_the_lines_that_differ():
    from tests.fakes.messages_api import request_diff

    diff = request_diff({"text": "a\nb\nc"}, {"text": "a\nB\nc"})
    assert "-   b" in diff and "+   B" in diff


def test_player_refuses_requests_beyond_the_recording():
    with FakeMessagesServer(CassettePlayer(Cassette([]), "c.json")) as srv:
        with pytest.raises(anthropic.BadRequestError):
            ask(client(srv))
        assert "beyond the recording" in srv.failures[0]


def test_recorder_keeps_errors_and_their_retry_headers():
    with FakeMessagesServer(Scripted([HttpError(429, "later", retry_after_ms=5)])) as upstream:
        recorder = Recorder(upstream.base_url)
        with FakeMessagesServer(recorder) as srv, pytest.raises(anthropic.RateLimitError):
            ask(client(srv))
    [exchange] = recorder.cassette.interactions
    assert exchange["response"]["status"] == 429
    assert exchange["response"]["headers"] == {"retry-after-ms": "5"}


def test_recorder_passes_the_clients_credentials_and_records_none():
    with FakeMessagesServer(Scripted([message(text_block("x"))])) as upstream:
        recorder = Recorder(upstream.base_url)
        with FakeMessagesServer(recorder) as srv:
            ask(client(srv))
        assert "k" in upstream.requests[0].headers["authorization"]
    assert "authorization" not in json.dumps(recorder.cassette.interactions)


def _model_request(*tail):
    return {
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": TRANSCRIPT}]},
            *tail,
        ]
    }


def test_scripted_model_starts_by_reading_the_memory_root():
    response = ScriptedMemoryModel()(_model_request())
    [call] = response["content"]
    assert (call["name"], call["input"]) == ("document_read", {"path": "~/memory"})


def test_scripted_model_is_deterministic():
    model = ScriptedMemoryModel()
    assert model(_model_request()) == ScriptedMemoryModel()(_model_request())


def test_scripted_model_writes_a_session_page_in_the_iso_week():
    model = ScriptedMemoryModel()
    r1 = model(_model_request())
    tail = [
        {"role": "assistant", "content": r1["content"]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "x", "content": ""}]},
    ]
    r2 = model(_model_request(*tail))  # search for the people named
    assert r2["content"][0]["input"] == {"query": "Alice Smith"}
    tail += [
        {"role": "assistant", "content": r2["content"]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "y", "content": ""}]},
    ]
    r3 = model(_model_request(*tail))
    call = r3["content"][0]
    assert call["name"] == "document_write"
    assert call["input"]["path"] == "~/memory/archive/2026-W47/s-7"
    assert "- source: session s-7" in call["input"]["body"]
    assert "[[~/memory/people/alice-smith]]" in call["input"]["body"]


def test_a_moved_breakpoint_still_reads_the_previous_prefix_within_the_lookback():
    cache = PromptCacheSimulator()

    def body(n):
        blocks = [{"type": "text", "text": f"block {i} " * 50} for i in range(n)]
        blocks[-1] = {**blocks[-1], "cache_control": {"type": "ephemeral"}}
        return {"messages": [{"role": "user", "content": blocks}]}

    first = cache.usage(body(3), [])
    second = cache.usage(body(5), [])
    assert second["cache_read_input_tokens"] == first["cache_creation_input_tokens"]
    assert second["cache_creation_input_tokens"] > 0
