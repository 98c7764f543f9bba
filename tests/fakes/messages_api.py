"""Test fakes of the Anthropic Messages API, served by the product's replay server.

`FakeMessagesServer` is `doctree.llm.replay.ReplayServer` with a simulated prompt cache:
responses without a `usage` get one from `PromptCacheSimulator` (tokens estimated as
bytes / 4; the `cache_control` breakpoints of each request are remembered so a later request
that repeats a prefix is billed as a cache read, as the API's prompt cache would).
Responders, besides the replay backend's `CassettePlayer` and `Recorder`:

- `Scripted`: a fixed list of responses and HTTP errors, served in order.
- `ScriptedMemoryModel`: a deterministic stand-in for a model that reads a transcript and
  issues plausible document tool calls; the fixture cassettes are recorded against it, since
  the live API is out of reach where they were made. It is not a language model.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import threading
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from doctree.llm.replay import (
    CASSETTE_FORMAT,
    Cassette,
    CassettePlayer,
    HttpError,
    RecordedRequest,
    Recorder,
    ReplayMismatchError,
    ReplayResponse,
    ReplayServer,
    Responder,
    request_diff,
)
from doctree.timeutil import iso_week

__all__ = [
    "CASSETTE_FORMAT", "DEFAULT_MODEL", "SCRIPTED_LABEL", "Cassette", "CassettePlayer",
    "FakeMessagesServer", "FakeResponse", "HttpError", "PromptCacheSimulator", "RecordedRequest",
    "Recorder", "ReplayMismatchError", "Scripted", "ScriptedMemoryModel", "estimate_tokens", "message",
    "prompt_segments", "request_diff", "text_block", "tool_use_block",
]  # fmt: skip

SCRIPTED_LABEL = (
    "recorded against tests/fakes/messages_api.py ScriptedMemoryModel, a deterministic scripted "
    "fake of the Messages API (not a language model, not the live API)"
)
DEFAULT_MODEL = "claude-sonnet-4-6"
FakeResponse = ReplayResponse


class FakeMessagesServer(ReplayServer):
    """The replay server with a simulated prompt cache (`simulate_usage=False` turns it off)."""

    def __init__(self, responder: Responder, *, simulate_usage: bool = True):
        self.cache = PromptCacheSimulator() if simulate_usage else None
        super().__init__(responder, usage=self.cache.usage if self.cache else None)


# -- responses ------------------------------------------------------------------------------


def text_block(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


def tool_use_block(name: str, input: dict[str, Any], id: str | None = None) -> dict[str, Any]:
    if id is None:
        digest = hashlib.sha256(json.dumps([name, input], sort_keys=True).encode()).hexdigest()
        id = "toolu_" + digest[:20]
    return {"type": "tool_use", "id": id, "name": name, "input": input}


def message(
    *blocks: dict[str, Any],
    stop_reason: str | None = None,
    usage: dict[str, int] | None = None,
    model: str = DEFAULT_MODEL,
    id: str | None = None,
) -> dict[str, Any]:
    """A Messages API response body. stop_reason defaults to tool_use if a block calls a tool."""
    if stop_reason is None:
        stop_reason = "tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn"
    body: dict[str, Any] = {
        "id": id or "msg_" + hashlib.sha256(json.dumps(blocks).encode()).hexdigest()[:24],
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": list(blocks),
        "stop_reason": stop_reason,
        "stop_sequence": None,
    }
    if usage is not None:
        body["usage"] = {
            "input_tokens": 0,
            "output_tokens": 0,
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": 0,
            **usage,
        }
    return body


# -- the prompt cache, simulated ------------------------------------------------------------


def _canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def prompt_segments(body: dict[str, Any]) -> list[tuple[str, bool]]:
    """The request's prompt in the order the API caches it (tools, system, messages).

    Each item is one block as canonical JSON without its `cache_control`, and whether the
    block carries a cache breakpoint.
    """
    out: list[tuple[str, bool]] = []

    def add(block: Any) -> None:
        if isinstance(block, dict):
            marked = "cache_control" in block
            out.append((_canon({k: v for k, v in block.items() if k != "cache_control"}), marked))
        else:
            out.append((_canon(block), False))

    for tool in body.get("tools") or []:
        add(tool)
    system = body.get("system")
    if isinstance(system, str):
        add({"type": "text", "text": system})
    elif isinstance(system, list):
        for block in system:
            add(block)
    for msg in body.get("messages") or []:
        content = msg.get("content")
        if isinstance(content, str):
            add({"role": msg.get("role"), "text": content})
            continue
        for block in content or []:
            add(dict(block, role=msg.get("role")) if isinstance(block, dict) else block)
    return out


def estimate_tokens(n_bytes: int) -> int:
    """Tokens of `n_bytes` of prompt, estimated at four bytes a token."""
    return math.ceil(n_bytes / 4)


class PromptCacheSimulator:
    """Bills a request's input as cache read / cache write / uncached, from its breakpoints.

    Like the API's prompt cache: each `cache_control` breakpoint writes the prefix up to it;
    a later request reads the longest cached prefix that ends at one of its breakpoints or
    at a block boundary up to `LOOKBACK` blocks before one.
    """

    LOOKBACK = 20

    def __init__(self) -> None:
        self._cached: set[str] = set()
        self._lock = threading.Lock()

    def usage(self, request: dict[str, Any], response_content: list[dict[str, Any]]) -> dict:
        segments = prompt_segments(request)
        total = 0
        digest = hashlib.sha256()
        bounds: list[tuple[int, str]] = []  # (bytes up to and including block i, hash)
        marks: list[int] = []  # indexes of blocks with a breakpoint
        for i, (text, marked) in enumerate(segments):
            data = text.encode("utf-8")
            total += len(data)
            digest.update(data)
            bounds.append((total, digest.copy().hexdigest()))
            if marked:
                marks.append(i)
        with self._lock:
            read = 0
            for b in marks:
                for j in range(b, max(b - self.LOOKBACK, 0) - 1, -1):
                    if bounds[j][1] in self._cached:
                        read = max(read, bounds[j][0])
                        break
            self._cached.update(bounds[b][1] for b in marks)
        last = bounds[marks[-1]][0] if marks else 0
        read_t = estimate_tokens(read)
        write_t = max(estimate_tokens(last) - read_t, 0)
        input_t = max(estimate_tokens(total) - read_t - write_t, 0)
        output_t = max(estimate_tokens(len(_canon(response_content).encode("utf-8"))), 1)
        return {
            "input_tokens": input_t,
            "output_tokens": output_t,
            "cache_creation_input_tokens": write_t,
            "cache_read_input_tokens": read_t,
        }


# -- responders -----------------------------------------------------------------------------


class Scripted:
    """Serve a fixed list of responses in order: message bodies (dicts) or `HttpError`s."""

    def __init__(self, items: list[dict[str, Any] | HttpError | FakeResponse]):
        self.items = list(items)
        self.served = 0

    def __call__(self, request: dict[str, Any]) -> FakeResponse | HttpError | dict[str, Any]:
        if self.served >= len(self.items):
            raise ReplayMismatchError(
                f"request {self.served + 1}: the script has only {len(self.items)} response(s)"
            )
        item = self.items[self.served]
        self.served += 1
        return item


# -- a scripted memory model ----------------------------------------------------------------

_HEADER = re.compile(r"^- (agent|session|started|ended): *(.+?) *$", re.M)
_SECTION = re.compile(r"^## (user|assistant|system|tool call|tool result) · (\S+) *$", re.M)
_NAME = re.compile(
    r"\b(?:with|met|call|called|email|ask|told)\s+(?:(?:Dr|Mr|Ms|Mrs)\.?\s+)?"
    r"([A-Z][a-z]+(?: [A-Z][a-z]+)?)\b"
)
_FORGET = re.compile(r"\bforget (?:what I said |everything )?about ([^.,;!?]+)", re.I)
_HIT = re.compile(r"^- (\S+) \(v\d+\)", re.M)
_VERSION = re.compile(r"^version: (\d+)", re.M)
_BODY_LINE = re.compile(r"^ *\d+\t(.*)$")


def _transcript_of(request: dict[str, Any]) -> str:
    first = (request.get("messages") or [{}])[0]
    content = first.get("content")
    if isinstance(content, list):
        content = "\n".join(b.get("text", "") for b in content if isinstance(b, dict))
    text = content or ""
    m = re.search(r"<transcript>\n?(.*?)</transcript>", text, re.S)
    return m.group(1) if m else text


def _slug(text: str) -> str:
    text = re.sub(r"[^\w.\-]+", "-", text.strip().lower())
    return re.sub(r"-{2,}", "-", text).strip("-._")[:80] or "untitled"


@dataclass
class _Facts:
    agent: str
    session: str
    day: date
    user_lines: list[str]
    people: list[str]
    forget: list[str]  # what the user asked to forget ("the standup time")

    @property
    def week(self) -> str:
        return iso_week(self.day)

    @property
    def session_page(self) -> str:
        return f"~/memory/archive/{self.week}/{_slug(self.session)}"


def _facts(transcript: str) -> _Facts:
    headers = dict(_HEADER.findall(transcript))
    started = headers.get("started", "")
    try:
        day = datetime.fromisoformat(started.replace("Z", "+00:00")).date()
    except ValueError:
        day = date(1970, 1, 1)
    sections = list(_SECTION.finditer(transcript))
    user_lines: list[str] = []
    people: list[str] = []
    forget: list[str] = []
    for i, m in enumerate(sections):
        end = sections[i + 1].start() if i + 1 < len(sections) else len(transcript)
        if m.group(1) != "user":
            continue
        text = transcript[m.end() : end].strip()
        paragraph = " ".join(text.split("\n\n")[0].split())
        first = re.split(r"(?<=[.!?])\s", paragraph)[0]
        if first:
            user_lines.append(first[:160])
        people.extend(p for p in _NAME.findall(text) if p not in people)
        forget.extend(m.group(1).strip() for m in _FORGET.finditer(text))
    return _Facts(
        headers.get("agent", "unknown"),
        headers.get("session", "unknown-session"),
        day,
        user_lines,
        people,
        forget,
    )


class ScriptedMemoryModel:
    """A deterministic stand-in for the memory agent's model (not a language model).

    From the transcript in the first user message it plans: read ~/memory; for each request
    to "forget about X", search for X, read the best hit and delete its lines that mention X
    (a line at a time, with `document_edit`); search for the people named; write a page for the session under archive/<YYYY-Www>/ with its first user
    lines (verbatim: a secret the user typed reaches the tools, which withhold it), citing the
    session; write or extend a page per person named (at most three);
    read ~/memory/active and add a dated line linking the session page; then end the turn.
    Each response depends only on the request, so recording twice gives the same cassette.
    """

    def __init__(self, model: str = DEFAULT_MODEL, max_people: int = 3):
        self.model = model
        self.max_people = max_people

    def plan(self, f: _Facts) -> list[tuple[str, dict[str, Any]] | str]:
        steps: list[tuple[str, dict[str, Any]] | str] = [("document_read", {"path": "~/memory"})]
        for what in f.forget:
            steps.append(("document_search", {"query": what}))
            steps.append(("read_first_hit", {}))
            steps.append(("drop_lines", {"about": what}))
        people = f.people[: self.max_people]
        if people:
            steps.append(("document_search", {"query": " ".join(people)}))
        points = "\n".join(f"- {line}" for line in f.user_lines[:8]) or "- (no user messages)"
        person_links = "".join(f"- [[~/memory/people/{_slug(p)}]]\n" for p in people)
        body = (
            f"# Session {f.session}\n\n"
            f"- agent: {f.agent}\n- date: {f.day.isoformat()}\n- source: session {f.session}\n\n"
            f"## What the user said\n\n{points}\n"
            + (f"\n## People\n\n{person_links}" if people else "")
            + "\nSee also [[~/memory/active]].\n"
        )
        steps.append(("document_write", {"path": f.session_page, "body": body}))
        for p in people:
            page = f"~/memory/people/{_slug(p)}"
            line = (
                f"- Mentioned on {f.day.isoformat()} (session {f.session}, [[{f.session_page}]])."
            )
            steps.append(("document_read", {"path": page}))
            steps.append(("append", {"path": page, "title": p, "line": line}))
        line = f"- {f.day.isoformat()}: [[{f.session_page}]] (session {f.session})"
        steps.append(("document_read", {"path": "~/memory/active"}))
        steps.append(("append", {"path": "~/memory/active", "title": "Active", "line": line}))
        steps.append(
            f"Recorded session {f.session} in {f.session_page}"
            + (f" and updated {len(people)} people page(s)" if people else "")
            + "."
        )
        return steps

    def __call__(self, request: dict[str, Any]) -> dict[str, Any]:
        f = _facts(_transcript_of(request))
        messages = request.get("messages") or []
        step = sum(1 for m in messages if m.get("role") == "assistant")
        plan = self.plan(f)
        if step >= len(plan):
            return message(text_block("Done."), model=self.model)
        item = plan[step]
        if isinstance(item, str):
            return message(text_block(item), model=self.model)
        name, args = item
        last = _last_tool_result(messages)
        if name == "append":
            name, args = _append(args["path"], args["title"], args["line"], last)
        elif name == "read_first_hit":
            hits = _HIT.findall(last[0]) if last and not last[1] else []
            name, args = "document_read", {"path": hits[0] if hits else "~/memory"}
        elif name == "drop_lines":
            name, args = _drop(args["about"], last)
        call = tool_use_block(name, args, id=f"toolu_{step:02d}_{_digest(f.session)}")
        return message(call, model=self.model, id=f"msg_{step:02d}_{_digest(f.session)}")


def _append(
    path: str, title: str, line: str, last: tuple[str, bool] | None
) -> tuple[str, dict[str, Any]]:
    """Write `line` at the end of the page just read, or create the page if the read failed."""
    if last is None or last[1]:
        body = f"# {title}\n\n{line}\n"
        return "document_write", {"path": path, "body": body, "expected_version": 0}
    content = last[0]
    m = _VERSION.search(content)
    body_lines = [b.group(1) for ln in content.split("\n") if (b := _BODY_LINE.match(ln))]
    args: dict[str, Any] = {"path": path, "body": "\n".join([*body_lines, line]) + "\n"}
    if m:
        args["expected_version"] = int(m.group(1))
    return "document_write", args


def _drop(about: str, last: tuple[str, bool] | None) -> tuple[str, dict[str, Any]]:
    """Delete the first line of the page just read that mentions `about` (all its words)."""
    words = [w.lower() for w in re.findall(r"\w{3,}", about) if w.lower() != "the"]
    content = last[0] if last and not last[1] else ""
    path = content.split("\n", 1)[0].removeprefix("path: ").strip() or "~/memory"
    body = [b.group(1) for ln in content.split("\n") if (b := _BODY_LINE.match(ln))]
    for line in body:
        if words and all(w in line.lower() for w in words):
            return "document_edit", {"path": path, "old_string": line + "\n", "new_string": ""}
    return "document_read", {"path": path}


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:10]


def _last_tool_result(messages: list[dict[str, Any]]) -> tuple[str, bool] | None:
    if not messages or messages[-1].get("role") != "user":
        return None
    content = messages[-1].get("content")
    if not isinstance(content, list):
        return None
    for block in reversed(content):
        if isinstance(block, dict) and block.get("type") == "tool_result":
            c = block.get("content")
            if isinstance(c, list):
                c = "\n".join(b.get("text", "") for b in c if isinstance(b, dict))
            return str(c or ""), bool(block.get("is_error"))
    return None
