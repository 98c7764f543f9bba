"""A loopback fake of the Anthropic Messages API, so the real SDK client talks real HTTP.

`FakeMessagesServer` is a stdlib `http.server` on 127.0.0.1 and a free port that answers
`POST /v1/messages` with whatever its responder returns, and keeps every request it saw.
Responders:

- `Scripted`: a fixed list of responses and HTTP errors, served in order (tests).
- `CassettePlayer`: recorded exchanges; a request that differs from the recording gets an
  HTTP 400 whose message, and `server.failures`, hold the difference (the replay backend).
- `Recorder`: forwards each request to another endpoint and records the exchange, so a
  cassette can be written (record mode).
- `ScriptedMemoryModel`: a deterministic stand-in for a model that reads a transcript and
  issues plausible document tool calls; the fixture cassettes are recorded against it, since
  the live API is out of reach where they were made. It is not a language model.

Responses without a `usage` get one from `PromptCacheSimulator`: tokens are estimated as
bytes / 4, and the `cache_control` breakpoints of each request are remembered so a later
request that repeats a prefix is billed as a cache read, as the API's prompt cache would.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import math
import re
import threading
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from doctree.errors import ReplayMismatchError
from doctree.timeutil import iso_week

CASSETTE_FORMAT = "doctree-cassette/1"
SCRIPTED_LABEL = (
    "recorded against doctree.agent.messages_fake.ScriptedMemoryModel, a deterministic scripted "
    "fake of the Messages API (not a language model, not the live API)"
)
DEFAULT_MODEL = "claude-sonnet-4-6"


# -- responses ------------------------------------------------------------------------------


@dataclass
class FakeResponse:
    """An HTTP response of the fake: status, JSON body, extra headers."""

    status: int
    body: dict[str, Any]
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class HttpError:
    """A scripted HTTP error (e.g. 429 or 500); `retry_after_ms` keeps SDK retries fast."""

    status: int
    message: str = "scripted error"
    retry_after_ms: int | None = 1

    def response(self) -> FakeResponse:
        kind = {
            400: "invalid_request_error",
            401: "authentication_error",
            429: "rate_limit_error",
            529: "overloaded_error",
        }.get(self.status, "api_error")
        headers = {}
        if self.retry_after_ms is not None:
            headers["retry-after-ms"] = str(self.retry_after_ms)
        return FakeResponse(
            self.status,
            {"type": "error", "error": {"type": kind, "message": self.message}},
            headers,
        )


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


# -- the server -----------------------------------------------------------------------------

Responder = Callable[[dict[str, Any]], "FakeResponse | HttpError | dict[str, Any]"]


@dataclass
class RecordedRequest:
    """A request the fake received: the raw body bytes, the parsed JSON and the headers."""

    raw: bytes
    body: dict[str, Any]
    headers: dict[str, str]


class FakeMessagesServer:
    """`POST /v1/messages` on 127.0.0.1:<free port>, answered by a responder; a context manager."""

    def __init__(self, responder: Responder, *, simulate_usage: bool = True):
        self.responder = responder
        self.requests: list[RecordedRequest] = []
        self.failures: list[str] = []
        self.cache = PromptCacheSimulator() if simulate_usage else None
        self._lock = threading.Lock()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        if self._httpd is None:
            raise RuntimeError("the fake Messages API server is not started")
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> FakeMessagesServer:
        if self._httpd is not None:
            return self
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length)
                if self.path.split("?")[0] != "/v1/messages":
                    self._send(
                        FakeResponse(
                            404,
                            {
                                "type": "error",
                                "error": {
                                    "type": "not_found_error",
                                    "message": f"no route {self.path}",
                                },
                            },
                        )
                    )
                    return
                self._send(fake._handle(raw, dict(self.headers.items())))

            def _send(self, resp: FakeResponse) -> None:
                data = json.dumps(resp.body).encode("utf-8")
                self.send_response(resp.status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.send_header("request-id", "req_fake")
                for k, v in resp.headers.items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, args=(0.05,), name="fake-messages-api", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def __enter__(self) -> FakeMessagesServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _handle(self, raw: bytes, headers: dict[str, str]) -> FakeResponse:
        with self._lock:
            try:
                body = json.loads(raw)
            except ValueError:
                return HttpError(400, "request body is not JSON", None).response()
            headers = {k.lower(): v for k, v in headers.items()}
            self.requests.append(RecordedRequest(raw, body, headers))
            try:
                if getattr(self.responder, "wants_headers", False):
                    out = self.responder(body, headers)
                else:
                    out = self.responder(body)
            except ReplayMismatchError as e:
                self.failures.append(str(e))
                return HttpError(400, str(e), None).response()
            except Exception as e:  # a broken responder must surface, not hang the client
                self.failures.append(f"{type(e).__name__}: {e}")
                resp = HttpError(500, f"fake responder failed: {type(e).__name__}: {e}", None)
                out = resp.response()
                out.headers["x-should-retry"] = "false"
                return out
            if isinstance(out, HttpError):
                return out.response()
            if isinstance(out, dict):
                out = FakeResponse(200, out)
            if (
                out.status == 200
                and self.cache is not None
                and out.body.get("type") == "message"
                and "usage" not in out.body
            ):
                out = FakeResponse(
                    out.status,
                    {**out.body, "usage": self.cache.usage(body, out.body.get("content", []))},
                    out.headers,
                )
            return out


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


@dataclass
class Cassette:
    """Recorded exchanges: each a request body and the response (status, headers, body).

    On disk each request is stored as a delta against the one before it (fields that did not
    change are listed in `same`; `messages_kept` counts the leading messages it shares), so
    a run's repeated prompt is written once. `load` gives back the full requests.
    """

    interactions: list[dict[str, Any]] = field(default_factory=list)
    label: str = ""
    meta: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def load(cls, path: str | Path) -> Cassette:
        from doctree.errors import UserError

        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except OSError as e:
            raise UserError(f"cassette {str(path)!r}: cannot be read ({e.strerror})") from None
        except ValueError as e:
            raise UserError(f"cassette {str(path)!r}: is not JSON ({e})") from None
        if not isinstance(data, dict) or data.get("format") != CASSETTE_FORMAT:
            raise UserError(f"cassette {str(path)!r}: format must be {CASSETTE_FORMAT!r}")
        try:
            interactions = _expand(data.get("interactions", []))
        except (KeyError, TypeError, IndexError) as e:
            raise UserError(f"cassette {str(path)!r}: malformed exchange ({e!r})") from None
        return cls(interactions, data.get("label", ""), data.get("meta", {}))

    def save(self, path: str | Path) -> None:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        data = {
            "format": CASSETTE_FORMAT,
            "label": self.label,
            "meta": self.meta,
            "interactions": _compress(self.interactions),
        }
        path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def _compress(interactions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out, prev = [], None
    for item in interactions:
        request = item["request"]
        stored: dict[str, Any] = {}
        if isinstance(prev, dict) and isinstance(request, dict):
            same = [k for k in request if k in prev and prev[k] == request[k]]
            stored = {k: v for k, v in request.items() if k not in same}
            if same:
                stored["$same"] = same
            old, new = prev.get("messages"), request.get("messages")
            if "messages" in stored and isinstance(old, list) and isinstance(new, list):
                kept = 0
                while kept < min(len(old), len(new)) and old[kept] == new[kept]:
                    kept += 1
                if kept:
                    stored["messages"] = new[kept:]
                    stored["$messages_kept"] = kept
        else:
            stored = request
        out.append({"request": stored, "response": item["response"]})
        prev = request
    return out


def _expand(stored: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out, prev = [], None
    for item in stored:
        request = dict(item["request"])
        same = request.pop("$same", [])
        kept = request.pop("$messages_kept", 0)
        if same or kept:
            full = {k: prev[k] for k in same}
            full.update(request)
            if kept:
                full["messages"] = prev["messages"][:kept] + request.get("messages", [])
            request = full
        out.append({"request": request, "response": item["response"]})
        prev = request
    return out


def _diff_lines(body: dict[str, Any]) -> list[str]:
    """Indented, key-sorted JSON with each string's newlines turned into lines of their own,
    so a difference inside a long transcript shows as the lines that differ."""
    out = []
    for line in json.dumps(body, indent=1, sort_keys=True, ensure_ascii=False).splitlines():
        pieces = re.split(r"(?<!\\)\\n", line)
        out.append(pieces[0])
        indent = " " * (len(line) - len(line.lstrip()) + 2)
        out.extend(indent + p for p in pieces[1:])
    return out


def request_diff(expected: dict[str, Any], actual: dict[str, Any], limit: int = 40) -> str:
    """A unified diff of two request bodies (first lines only)."""
    lines = list(
        difflib.unified_diff(
            _diff_lines(expected), _diff_lines(actual), "recorded", "received", n=2, lineterm=""
        )
    )
    if len(lines) > limit:
        lines = lines[:limit] + [f"... ({len(lines) - limit} more diff lines)"]
    return "\n".join(lines)


class CassettePlayer:
    """Serve a cassette in order; a request unlike the recorded one is a `ReplayMismatchError`."""

    def __init__(self, cassette: Cassette, source: str = "<cassette>"):
        self.cassette = cassette
        self.source = source
        self.served = 0

    @property
    def exhausted(self) -> bool:
        return self.served >= len(self.cassette.interactions)

    def __call__(self, request: dict[str, Any]) -> FakeResponse:
        n = self.served + 1
        if self.exhausted:
            raise ReplayMismatchError(
                f"cassette {self.source}: request {n} is beyond the recording "
                f"({len(self.cassette.interactions)} exchanges); record it again"
            )
        recorded = self.cassette.interactions[self.served]
        if recorded["request"] != request:
            raise ReplayMismatchError(
                f"cassette {self.source}: request {n} differs from the recording "
                "(record it again if the change is intended):\n"
                + request_diff(recorded["request"], request)
            )
        self.served += 1
        resp = recorded["response"]
        return FakeResponse(resp["status"], resp["body"], dict(resp.get("headers") or {}))


_KEPT_HEADERS = ("retry-after", "retry-after-ms", "x-should-retry")


_FORWARDED_HEADERS = ("authorization", "x-api-key", "anthropic-version", "anthropic-beta")


class Recorder:
    """Forward each request to `upstream` (a Messages API endpoint) and record the exchange.

    The client's own credentials and version headers are passed on; `api_key`, if given,
    replaces them. Only the request body and the response are recorded, never credentials.
    """

    wants_headers = True

    def __init__(
        self,
        upstream: str,
        api_key: str | None = None,
        *,
        label: str = "",
        anthropic_version: str = "2023-06-01",
        timeout: float = 600.0,
    ):
        self.upstream = upstream.rstrip("/")
        self.api_key = api_key
        self.anthropic_version = anthropic_version
        self.timeout = timeout
        self.cassette = Cassette(label=label or f"recorded from {self.upstream}")

    def __call__(
        self, request: dict[str, Any], headers: dict[str, str] | None = None
    ) -> FakeResponse:
        sent = {"content-type": "application/json", "anthropic-version": self.anthropic_version}
        sent.update({k: v for k, v in (headers or {}).items() if k in _FORWARDED_HEADERS})
        if self.api_key:
            sent.pop("authorization", None)
            sent["x-api-key"] = self.api_key
        req = urllib.request.Request(
            self.upstream + "/v1/messages",
            data=json.dumps(request).encode("utf-8"),
            method="POST",
            headers=sent,
        )
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as r:
                status, raw, headers = r.status, r.read(), r.headers
        except urllib.error.HTTPError as e:
            status, raw, headers = e.code, e.read(), e.headers
        body = json.loads(raw) if raw else {}
        kept = {k: headers[k] for k in _KEPT_HEADERS if headers.get(k) is not None}
        self.cassette.interactions.append(
            {"request": request, "response": {"status": status, "headers": kept, "body": body}}
        )
        return FakeResponse(status, body, kept)


# -- a scripted memory model ----------------------------------------------------------------

_HEADER = re.compile(r"^- (agent|session|started|ended): *(.+?) *$", re.M)
_SECTION = re.compile(r"^## (user|assistant|system|tool call|tool result) · (\S+) *$", re.M)
_NAME = re.compile(
    r"\b(?:with|met|call|called|email|ask|told)\s+(?:(?:Dr|Mr|Ms|Mrs)\.?\s+)?"
    r"([A-Z][a-z]+(?: [A-Z][a-z]+)?)\b"
)
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
    return _Facts(
        headers.get("agent", "unknown"),
        headers.get("session", "unknown-session"),
        day,
        user_lines,
        people,
    )


class ScriptedMemoryModel:
    """A deterministic stand-in for the memory agent's model (not a language model).

    From the transcript in the first user message it plans: read ~/memory; search for the
    people named; write a page for the session under archive/<YYYY-Www>/ with its first user
    lines, citing the session; write or extend a page per person named (at most three);
    read ~/memory/active and add a dated line linking the session page; then end the turn.
    Each response depends only on the request, so recording twice gives the same cassette.
    """

    def __init__(self, model: str = DEFAULT_MODEL, max_people: int = 3):
        self.model = model
        self.max_people = max_people

    def plan(self, f: _Facts) -> list[tuple[str, dict[str, Any]] | str]:
        steps: list[tuple[str, dict[str, Any]] | str] = [("document_read", {"path": "~/memory"})]
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
