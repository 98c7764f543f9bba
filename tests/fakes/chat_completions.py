"""A loopback fake of an OpenAI-compatible chat-completions endpoint, for the `openai` backend.

`FakeChatServer` is the product's replay server on the route `/v1/chat/completions` (a real
HTTP server on 127.0.0.1, so the real `openai` SDK makes real requests). It fills in the
`usage` a server reports when a response has none (tokens estimated as bytes / 4) and, like
llama.cpp's server, refuses with HTTP 400 a request whose prompt and `max_tokens` exceed the
context window it was given. Responders:

- `Scripted` (from `tests.fakes.messages_api`): fixed responses and HTTP errors, in order.
- `CassetteChat`: an Anthropic cassette of the fixture transcripts translated to chat
  completions. Each request must be the recorded request translated (the same transcript,
  system prompt and tools, the same tool calls and the same tool results, in order); one that
  differs is refused with the difference, as the replay backend refuses one.
"""

from __future__ import annotations

import json
import math
from typing import Any

from doctree.llm.replay import (
    Cassette,
    HttpError,
    ReplayMismatchError,
    ReplayResponse,
    ReplayServer,
    Responder,
    request_diff,
)

ROUTE = "/v1/chat/completions"
DEFAULT_MODEL = "qwen2.5:7b"


def estimate(value: Any) -> int:
    """Tokens of a JSON value at four bytes a token (the fake's stand-in for a tokenizer)."""
    return max(math.ceil(len(json.dumps(value, ensure_ascii=False).encode("utf-8")) / 4), 1)


class FakeChatServer(ReplayServer):
    """The replay server on the chat-completions route, with usage and a context window."""

    def __init__(self, responder: Responder, *, context_window: int | None = None):
        self.context_window = context_window
        self.oversized: list[int] = []  # prompt tokens of each request refused as too long
        super().__init__(self._guarded(responder), route=ROUTE)

    def _guarded(self, responder: Responder) -> Responder:
        def respond(request: dict[str, Any]) -> Any:
            prompt = estimate(request.get("messages")) + estimate(request.get("tools") or [])
            window = self.context_window
            if window is not None and prompt + int(request.get("max_tokens") or 0) > window:
                self.oversized.append(prompt)
                return HttpError(
                    400,
                    f"the request exceeds the available context size ({prompt} prompt tokens "
                    f"+ {request.get('max_tokens')} to generate > {window})",
                    None,
                )
            out = responder(request)
            if (
                isinstance(out, dict)
                and out.get("object") == "chat.completion"
                and "usage" not in out
            ):
                completion = estimate(out["choices"][0]["message"])
                out = {
                    **out,
                    "usage": {
                        "prompt_tokens": prompt,
                        "completion_tokens": completion,
                        "total_tokens": prompt + completion,
                    },
                }
            return out

        return respond


def call(name: str, arguments: dict[str, Any] | str, id: str | None = None) -> dict[str, Any]:
    """A tool call of a response; `arguments` a dict (sent as JSON) or the raw text."""
    raw = arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
    return {
        "id": id or f"call_{abs(hash((name, raw))) % 10**8:08d}",
        "type": "function",
        "function": {"name": name, "arguments": raw},
    }


def chat(
    content: str | None = None,
    *calls: dict[str, Any],
    finish_reason: str | None = None,
    usage: dict[str, Any] | None = None,
    model: str = DEFAULT_MODEL,
) -> dict[str, Any]:
    """A chat-completions response body; finish_reason defaults to tool_calls if it has any."""
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if calls:
        message["tool_calls"] = list(calls)
    body: dict[str, Any] = {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": 1764000000,
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": finish_reason or ("tool_calls" if calls else "stop"),
            }
        ],
    }
    if usage is not None:
        body["usage"] = usage
    return body


# -- an Anthropic cassette as chat completions -------------------------------------------------


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "\n".join(b.get("text", "") for b in content or [] if b.get("type") == "text")


def as_chat_request(recorded: dict[str, Any], max_tokens: int) -> dict[str, Any]:
    """The chat-completions request that carries the same conversation as a recorded
    Messages API request (without its cache breakpoints)."""
    system = _text(recorded.get("system"))
    messages: list[dict[str, Any]] = [{"role": "system", "content": system}]
    for m in recorded["messages"]:
        blocks = (
            m["content"]
            if isinstance(m["content"], list)
            else [{"type": "text", "text": m["content"]}]
        )
        if m["role"] == "assistant":
            said: dict[str, Any] = {"role": "assistant", "content": _text(blocks) or None}
            uses = [b for b in blocks if b["type"] == "tool_use"]
            if uses:
                said["tool_calls"] = [call(b["name"], b["input"], id=b["id"]) for b in uses]
            messages.append(said)
            continue
        for b in blocks:
            if b["type"] == "tool_result":
                messages.append(
                    {"role": "tool", "tool_call_id": b["tool_use_id"], "content": b["content"]}
                )
        text = _text(blocks)
        if text:
            messages.append({"role": "user", "content": text})
    tools = [
        {
            "type": "function",
            "function": {
                "name": t["name"],
                "description": t.get("description", ""),
                "parameters": t["input_schema"],
            },
        }
        for t in recorded.get("tools") or []
    ]
    return {"messages": messages, "model": "", "tools": tools, "max_tokens": max_tokens}


def as_chat_response(recorded: dict[str, Any], model: str) -> dict[str, Any]:
    """A recorded Messages API response as a chat-completions response."""
    blocks = recorded.get("content") or []
    calls = [call(b["name"], b["input"], id=b["id"]) for b in blocks if b["type"] == "tool_use"]
    finish = {"end_turn": "stop", "tool_use": "tool_calls", "max_tokens": "length"}.get(
        recorded.get("stop_reason"), "stop"
    )
    u = recorded.get("usage") or {}
    cached = u.get("cache_read_input_tokens", 0)
    prompt = u.get("input_tokens", 0) + cached + u.get("cache_creation_input_tokens", 0)
    usage = {
        "prompt_tokens": prompt,
        "completion_tokens": u.get("output_tokens", 0),
        "total_tokens": prompt + u.get("output_tokens", 0),
        "prompt_tokens_details": {"cached_tokens": cached},
    }
    return chat(_text(blocks) or None, *calls, finish_reason=finish, usage=usage, model=model)


class CassetteChat:
    """Serve an Anthropic cassette as chat completions, checking each request's tool traffic.

    Request n must equal recorded request n translated by `as_chat_request` (the model name
    aside, which the backend settings choose); the answer is recorded response n translated.
    """

    def __init__(self, cassette: Cassette, source: str = "<cassette>", model: str = DEFAULT_MODEL):
        self.cassette = cassette
        self.source = source
        self.model = model
        self.served = 0

    def __call__(self, request: dict[str, Any]) -> ReplayResponse | dict[str, Any]:
        n = self.served + 1
        if self.served >= len(self.cassette.interactions):
            raise ReplayMismatchError(
                f"cassette {self.source}: request {n} is beyond the recording "
                f"({len(self.cassette.interactions)} exchanges)"
            )
        recorded = self.cassette.interactions[self.served]
        expected = as_chat_request(recorded["request"], int(request.get("max_tokens") or 0))
        expected["model"] = request.get("model")
        actual = {k: request.get(k) for k in expected}
        if actual != expected:
            raise ReplayMismatchError(
                f"cassette {self.source}: request {n} differs from the recording:\n"
                + request_diff(expected, actual)
            )
        self.served += 1
        response = recorded["response"]
        if response["status"] != 200:
            return ReplayResponse(response["status"], response["body"])
        return as_chat_response(response["body"], self.model)


# -- the scripted memory model, over chat completions -----------------------------------------


def as_messages_request(request: dict[str, Any]) -> dict[str, Any]:
    """A chat-completions request as the Messages API request that carries the same
    conversation (the inverse of `as_chat_request`, cache breakpoints aside)."""
    messages: list[dict[str, Any]] = []
    system = ""
    for m in request.get("messages") or []:
        role = m["role"]
        if role == "system":
            system = m["content"]
        elif role == "assistant":
            blocks: list[dict[str, Any]] = []
            if m.get("content"):
                blocks.append({"type": "text", "text": m["content"]})
            for c in m.get("tool_calls") or []:
                try:
                    args = json.loads(c["function"]["arguments"] or "{}")
                except ValueError:
                    args = {}
                blocks.append(
                    {
                        "type": "tool_use",
                        "id": c["id"],
                        "name": c["function"]["name"],
                        "input": args,
                    }
                )
            messages.append({"role": "assistant", "content": blocks})
        else:
            block = (
                {"type": "tool_result", "tool_use_id": m["tool_call_id"], "content": m["content"]}
                if role == "tool"
                else {"type": "text", "text": m["content"]}
            )
            if messages and messages[-1]["role"] == "user":
                messages[-1]["content"].append(block)
            else:
                messages.append({"role": "user", "content": [block]})
    return {"system": system, "messages": messages, "tools": request.get("tools") or []}


class ChatModel:
    """A Messages API responder (e.g. `ScriptedMemoryModel`) served as chat completions."""

    def __init__(self, model: Any, name: str = DEFAULT_MODEL):
        self.model = model
        self.name = name

    def __call__(self, request: dict[str, Any]) -> dict[str, Any]:
        return as_chat_response(self.model(as_messages_request(request)), self.name)
