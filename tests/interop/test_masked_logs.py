"""What the MCP server logs, as a real `doctree mcp` (stdio) and `doctree serve --mcp` (HTTP)
subprocess: a tool that fails unexpectedly, its error quoting the secret it was given, is
logged with a traceback; every line on stderr has the secret as its marker."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from tests.secrets_corpus import github_token
from tests.web_demo import build_demo

pytestmark = pytest.mark.slow

TOKEN = "Tq8rX2vJ-kP4nW7yZ3bL9mF5hD1cG6sA0eRuVoYi"

#: `doctree` with its write tool failing as an unexpected error does: the error quotes the body.
FAILING = """
import sys
from doctree.interop.mcp_server import DoctreeTools

def failing(self, a):
    raise RuntimeError(f"the store refused {a.body!r}")

DoctreeTools.tool_write = failing
sys.argv = ["doctree", *sys.argv[1:]]
from doctree.cli import main
main()
"""


def lines(*messages: dict) -> str:
    return "".join(json.dumps(m) + "\n" for m in messages)


INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"},
    },
}


def test_a_failing_tool_over_stdio_logs_no_secret(tmp_path):
    key = github_token(random.Random(17))
    call = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "write", "arguments": {"path": "~/memory/x", "body": f"key {key}"}},
    }
    proc = subprocess.Popen(
        [sys.executable, "-c", FAILING, "--db", str(tmp_path / "m.db"), "--owner", "a", "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    proc.stdin.write(
        lines(INITIALIZE, {"jsonrpc": "2.0", "method": "notifications/initialized"}, call)
    )
    proc.stdin.flush()
    while (answer := json.loads(proc.stdout.readline())).get("id") != 1:
        pass
    proc.stdin.close()
    proc.wait(timeout=30)
    err = proc.stderr.read()
    assert answer["result"]["isError"]
    assert "tool call failed unexpectedly" in err
    assert "Traceback" in err and "RuntimeError" in err
    assert key not in err and key[:12] not in err
    assert "[secret: github-token]" in err


def test_a_failing_tool_over_http_logs_no_secret(tmp_path):
    key = github_token(random.Random(17))
    db = build_demo(tmp_path / "demo.db")
    proc = subprocess.Popen(
        [sys.executable, "-c", FAILING, "--db", str(db), "serve", "--port", "0", "--mcp"]
        + ["--token", TOKEN],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        banner = proc.stderr.readline()
        port = int(banner.split("http://127.0.0.1:")[1].split("/")[0])
        url = f"http://127.0.0.1:{port}/mcp"
        headers = {
            "Authorization": f"Bearer {TOKEN}",
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
        }
        deadline = time.monotonic() + 30
        while True:
            try:
                req = urllib.request.Request(
                    url, data=json.dumps(INITIALIZE).encode(), headers=headers
                )
                with urllib.request.urlopen(req, timeout=10) as r:
                    session = r.headers.get("mcp-session-id")
                    r.read()
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, banner
                time.sleep(0.1)
        if session:
            headers["mcp-session-id"] = session
        for message in (
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "tools/call",
                "params": {"name": "write", "arguments": {"path": "~/memory/x", "body": key}},
            },
        ):
            req = urllib.request.Request(url, data=json.dumps(message).encode(), headers=headers)
            with urllib.request.urlopen(req, timeout=20) as r:
                answer = r.read().decode()
        assert "internal error" in answer
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=20)
    assert "tool call failed unexpectedly" in err and "Traceback" in err
    assert key not in err and key[:12] not in err
    assert "[secret: github-token]" in err


def test_an_error_quoting_a_secret_goes_back_to_the_client_as_its_marker(tmp_path):
    """A real `doctree mcp`: an edit whose text to replace is not there answers with an error
    that quotes that text; the secret in it reaches the client only as its marker."""
    key = github_token(random.Random(23))
    calls = [
        {"name": "write", "arguments": {"path": "~/memory/x", "body": "hello"}},
        {"name": "edit", "arguments": {"path": "~/memory/x", "old": f"key {key}", "new": "y"}},
    ]
    proc = subprocess.Popen(
        [sys.executable, "-m", "doctree", "--db", str(tmp_path / "m.db"), "--owner", "a", "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    proc.stdin.write(lines(INITIALIZE, {"jsonrpc": "2.0", "method": "notifications/initialized"}))
    for n, c in enumerate(calls, start=1):
        # each call once the one before is answered: the server may run calls sent together
        # in any order, and the edit must find the document written
        proc.stdin.write(lines({"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": c}))
        proc.stdin.flush()
        while (answer := json.loads(proc.stdout.readline())).get("id") != n:
            pass
    proc.stdin.close()
    proc.wait(timeout=30)
    text = answer["result"]["content"][0]["text"]
    assert answer["result"]["isError"] and "not found" in text
    assert key not in text and key[:12] not in text
    assert "[secret: github-token]" in text
