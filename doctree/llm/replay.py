"""The replay backend: recorded Messages API exchanges served over loopback HTTP.

`ReplayServer` is a stdlib `http.server` on 127.0.0.1 and a free port that answers
`POST /v1/messages` with whatever its responder returns, and keeps every request it saw, so
the real SDK client makes real requests. Responders:

- `CassettePlayer`: recorded exchanges; a request that differs from the recording gets an
  HTTP 400 whose message, and `server.failures`, hold the difference (the replay backend).
- `Recorder`: forwards each request to another endpoint and records the exchange, so a
  cassette can be written (record mode).

A `Cassette` is the recording on disk (format `doctree-cassette/1`).
"""

from __future__ import annotations

import difflib
import json
import re
import threading
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from doctree.errors import ReplayMismatchError

CASSETTE_FORMAT = "doctree-cassette/1"


# -- responses ------------------------------------------------------------------------------


@dataclass
class ReplayResponse:
    """An HTTP response of the replay server: status, JSON body, extra headers."""

    status: int
    body: dict[str, Any]
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class HttpError:
    """An HTTP error response (e.g. 429 or 500); `retry_after_ms` keeps SDK retries fast."""

    status: int
    message: str = "scripted error"
    retry_after_ms: int | None = 1

    def response(self) -> ReplayResponse:
        kind = {
            400: "invalid_request_error",
            401: "authentication_error",
            429: "rate_limit_error",
            529: "overloaded_error",
        }.get(self.status, "api_error")
        headers = {}
        if self.retry_after_ms is not None:
            headers["retry-after-ms"] = str(self.retry_after_ms)
        return ReplayResponse(
            self.status,
            {"type": "error", "error": {"type": kind, "message": self.message}},
            headers,
        )


# -- the server -----------------------------------------------------------------------------

Responder = Callable[[dict[str, Any]], "ReplayResponse | HttpError | dict[str, Any]"]
#: Fills in `usage` for a response that has none: (request, response content) -> usage.
UsageHook = Callable[[dict[str, Any], list[dict[str, Any]]], dict[str, int]]


@dataclass
class RecordedRequest:
    """A request the server received: the raw body bytes, the parsed JSON and the headers."""

    raw: bytes
    body: dict[str, Any]
    headers: dict[str, str]


class ReplayServer:
    """`POST /v1/messages` (or another `route`) on 127.0.0.1:<free port>, answered by a
    responder; a context manager."""

    def __init__(
        self, responder: Responder, *, usage: UsageHook | None = None, route: str = "/v1/messages"
    ):
        self.responder = responder
        self.route = route
        self.requests: list[RecordedRequest] = []
        self.failures: list[str] = []
        self.usage = usage
        self._lock = threading.Lock()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        if self._httpd is None:
            raise RuntimeError("the replay server is not started")
        host, port = self._httpd.server_address[:2]
        assert isinstance(host, str)  # an AF_INET server's
        return f"http://{host}:{port}"

    def start(self) -> ReplayServer:
        if self._httpd is not None:
            return self
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length)
                if self.path.split("?")[0] != server.route:
                    self._send(
                        ReplayResponse(
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
                self._send(server._handle(raw, dict(self.headers.items())))

            def _send(self, resp: ReplayResponse) -> None:
                data = json.dumps(resp.body).encode("utf-8")
                self.send_response(resp.status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.send_header("request-id", "req_replay")
                for k, v in resp.headers.items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, args=(0.05,), name="replay-messages-api", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def __enter__(self) -> ReplayServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _handle(self, raw: bytes, headers: dict[str, str]) -> ReplayResponse:
        with self._lock:
            try:
                body = json.loads(raw)
            except ValueError:
                return HttpError(400, "request body is not JSON", None).response()
            headers = {k.lower(): v for k, v in headers.items()}
            self.requests.append(RecordedRequest(raw, body, headers))
            out: ReplayResponse | HttpError | dict[str, Any]
            try:
                if isinstance(self.responder, Recorder):  # passes the client's headers on
                    out = self.responder(body, headers)
                else:
                    out = self.responder(body)
            except ReplayMismatchError as e:
                self.failures.append(str(e))
                return HttpError(400, str(e), None).response()
            except Exception as e:  # a broken responder must surface, not hang the client
                self.failures.append(f"{type(e).__name__}: {e}")
                resp = HttpError(500, f"responder failed: {type(e).__name__}: {e}", None)
                failed = resp.response()
                failed.headers["x-should-retry"] = "false"
                return failed
            if isinstance(out, HttpError):
                return out.response()
            if isinstance(out, dict):
                out = ReplayResponse(200, out)
            if (
                out.status == 200
                and self.usage is not None
                and out.body.get("type") == "message"
                and "usage" not in out.body
            ):
                out = ReplayResponse(
                    out.status,
                    {**out.body, "usage": self.usage(body, out.body.get("content", []))},
                    out.headers,
                )
            return out


# -- responders -----------------------------------------------------------------------------


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
    out: list[dict[str, Any]] = []
    prev: dict[str, Any] = {}  # the request before (a first one refers to none)
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

    def __call__(self, request: dict[str, Any]) -> ReplayResponse:
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
        return ReplayResponse(resp["status"], resp["body"], dict(resp.get("headers") or {}))


_KEPT_HEADERS = ("retry-after", "retry-after-ms", "x-should-retry")


_FORWARDED_HEADERS = ("authorization", "x-api-key", "anthropic-version", "anthropic-beta")


class Recorder:
    """Forward each request to `upstream` (a Messages API endpoint) and record the exchange.

    The client's own credentials and version headers are passed on; `api_key`, if given,
    replaces them. Only the request body and the response are recorded, never credentials.
    """

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
    ) -> ReplayResponse:
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
                status, raw, answered = r.status, r.read(), r.headers
        except urllib.error.HTTPError as e:
            status, raw, answered = e.code, e.read(), e.headers
        body = json.loads(raw) if raw else {}
        kept = {k: answered[k] for k in _KEPT_HEADERS if answered.get(k) is not None}
        self.cassette.interactions.append(
            {"request": request, "response": {"status": status, "headers": kept, "body": body}}
        )
        return ReplayResponse(status, body, kept)
