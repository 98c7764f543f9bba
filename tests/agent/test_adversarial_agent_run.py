"""A memory agent run survives hostile tool calls from the model: each is an error result the
model reads on its next turn, never an exception that fails the run. Real SDK, real HTTP to the
loopback fake of the Messages API."""

from __future__ import annotations

import pytest

from doctree.agent.runtime import MemoryAgentRuntime
from doctree.llm.definitions import load_definition
from tests.fakes.messages_api import (
    FakeMessagesServer,
    Scripted,
    message,
    text_block,
    tool_use_block,
)

DEEP = "---\nx: " + "[" * 30_000 + "\n---\nbody\n"
HOSTILE = [
    ("document_read", {"path": "~/memory", "version": 2**70}),
    ("document_read", {"path": "~/memory", "version": 2**63}),
    ("document_write", {"path": "~/memory/\ud800", "body": "x"}),
    ("document_write", {"path": "~/memory/y", "body": "lone \udfff surrogate"}),
    ("document_write", {"path": "~/memory/deep", "body": DEEP}),
    ("document_write", {"path": "~/memory/x", "body": "x", "links": ["~/notes/secret"]}),
    ("document_search", {"query": "tea", "limit": 10**30}),
    (
        "document_edit",
        {"path": "~/memory/x", "old_string": "a", "new_string": "b", "expected_version": 2**64},
    ),
]


@pytest.mark.slow
def test_hostile_tool_calls_are_error_results_and_the_run_completes(repo):
    script = [message(tool_use_block(name, input)) for name, input in HOSTILE]
    script += [
        message(tool_use_block("document_write", {"path": "~/memory/tea", "body": "# Tea\n"})),
        message(text_block("Done.")),
    ]
    with FakeMessagesServer(Scripted(script), simulate_usage=False) as srv:
        runtime = MemoryAgentRuntime(
            repo,
            backend="anthropic",
            api_key="test-key",
            base_url=srv.base_url,
            definition=load_definition(),
            max_retries=0,
        )
        result = runtime.run("main", "s-1", "# Transcript of session s-1\n")
        requests = srv.requests
    assert (result.run.status, result.run.stop_reason) == ("completed", "end_turn")
    assert result.run.tool_errors == len(HOSTILE)
    for n in range(1, len(HOSTILE) + 1):
        (res,) = [
            b for b in requests[n].body["messages"][-1]["content"] if b["type"] == "tool_result"
        ]
        assert res["is_error"] and "\n" not in res["content"], res["content"]
    assert [d.path for d in repo.documents("main")] == ["~/memory", "~/memory/tea"]
    assert repo.owners() == ["main"]
