"""The MCP server as a real `doctree mcp` subprocess, spoken to in raw JSON-RPC lines, for what
the `mcp` client cannot even send: JSON `"\\ud800"` escapes (lone surrogates), and integers
past 2^63. Each call gets an answer — an error result naming the field — and the server keeps
serving."""

from __future__ import annotations

import json
import os
import select
import sqlite3
import subprocess
import sys
from importlib.metadata import version

import pytest

from doctree.store.documents import DocumentsRepository

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(sys.platform == "win32", reason="select on pipes"),
]


class Server:
    def __init__(self, db, env: dict[str, str] | None = None):
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "doctree", "--db", str(db), "--owner", "a", "mcp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=None if env is None else {**os.environ, **env},
        )

    def send(self, line: str) -> None:
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def answer(self, timeout: float = 20.0) -> dict:
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        assert ready, "no answer: the call was dropped"
        return json.loads(self.proc.stdout.readline())

    def call(self, id: int, raw_params: str) -> dict:
        self.send(f'{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{raw_params}}}')
        reply = self.answer()
        assert reply["id"] == id
        return reply["result"]

    def close(self) -> None:
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=20)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()


def started(s: Server) -> Server:
    s.send(
        json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 0,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-06-18",
                    "capabilities": {},
                    "clientInfo": {"name": "test", "version": "1"},
                },
            }
        )
    )
    s.initialized = s.answer()
    s.send('{"jsonrpc":"2.0","method":"notifications/initialized"}')
    return s


@pytest.fixture
def server(db_path):
    s = started(Server(db_path))
    yield s
    s.close()


def text(result: dict) -> str:
    return "".join(c["text"] for c in result["content"])


def test_the_server_reports_the_installed_version(server):
    assert server.initialized["result"]["serverInfo"]["version"] == version("doctree")


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        (
            '{"name":"write","arguments":{"path":"~/memory/\\ud800","body":"x"}}',
            "path: is not UTF-8",
        ),
        (
            '{"name":"write","arguments":{"path":"~/memory/x","body":"a\\udfff"}}',
            "body: is not UTF-8",
        ),
        ('{"name":"wr\\ud800ite","arguments":{}}', "name: is not UTF-8"),
        (
            '{"name":"write","arguments":{"path":"~/memory/\\u0430lice","body":"x"}}',
            "mixes the letters of two alphabets",
        ),
        (
            '{"name":"read","arguments":{"path":"~/memory","version":1180591620717411303424}}',
            "version",
        ),
        (
            '{"name":"diff","arguments":{"path":"~/memory","from_version":9223372036854775808}}',
            "from_version",
        ),
    ],
)
def test_a_hostile_call_gets_a_one_line_error_and_the_server_keeps_serving(
    server, db_path, params, expected
):
    bad = server.call(1, params)
    assert bad["isError"] and expected in text(bad) and "\n" not in text(bad)
    ok = server.call(2, '{"name":"write","arguments":{"path":"~/memory/ok","body":"caf\\u00e9"}}')
    assert not ok["isError"], text(ok)
    with DocumentsRepository(db_path) as repo:
        assert [d.path for d in repo.documents("a")] == ["~/memory", "~/memory/ok"]
        assert repo.read("a", "~/memory/ok").body == "café"


DEEP = "[" * 10_000 + "]" * 10_000


@pytest.mark.parametrize(
    ("raw", "code", "id", "expected"),
    [
        (b"this is not json", -32700, None, "parse error"),
        (b'{"jsonrpc":"2.0","id":3,"method":"ping"', -32700, None, "parse error"),
        (b"\xff\xfe{\x00", -32700, None, "parse error"),  # not UTF-8, not JSON
        (DEEP.encode(), -32600, None, "nested 10000 levels deep"),
        (
            b'{"jsonrpc":"2.0","id":3,"method":"tools/call","params":' + DEEP.encode() + b"}",
            -32600,
            None,
            "at most 100",
        ),
        (b"[1, 2]", -32600, None, "not a JSON-RPC 2.0"),
        (b'{"jsonrpc":"2.0","id":9,"method":7}', -32600, 9, "not a JSON-RPC 2.0"),
        (b'{"jsonrpc":"1.0","id":"x","method":"ping"}', -32600, "x", "not a JSON-RPC 2.0"),
    ],
)
def test_a_line_that_is_not_json_rpc_gets_a_json_rpc_error_and_the_server_keeps_serving(
    server, db_path, raw, code, id, expected
):
    server.proc.stdin.buffer.write(raw + b"\n")
    server.proc.stdin.flush()
    reply = server.answer()
    assert reply["jsonrpc"] == "2.0" and reply["id"] == id
    assert reply["error"]["code"] == code and expected in reply["error"]["message"]
    ok = server.call(2, '{"name":"write","arguments":{"path":"~/memory/ok","body":"still here"}}')
    assert not ok["isError"], text(ok)
    with DocumentsRepository(db_path) as repo:
        assert repo.read("a", "~/memory/ok").body == "still here"


def test_json_nested_within_the_limit_is_served_as_usual(server):
    nested = "[" * 50 + "]" * 50
    reply = server.call(4, f'{{"name":"read","arguments":{{"path":"~/memory","x":{nested}}}}}')
    assert reply["isError"]  # the tool refuses an unknown field, with a result, not silence


@pytest.mark.sqlite_only
def test_a_write_while_another_process_holds_the_lock_says_so_and_the_next_one_works(db_path):
    s = started(Server(db_path, env={"DOCTREE_BUSY_TIMEOUT_MS": "200"}))
    try:
        assert not s.call(1, '{"name":"write","arguments":{"path":"~/memory/a","body":"one"}}')[
            "isError"
        ]
        holder = sqlite3.connect(db_path, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # another process's write lock, held on
        try:
            bad = s.call(2, '{"name":"write","arguments":{"path":"~/memory/a","body":"two"}}')
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        assert bad["isError"], text(bad)
        assert text(bad) == (
            "write of '~/memory/a': the database is unavailable: database is locked (another "
            "process held it past the busy timeout); nothing was written; try again"
        )
        again = s.call(3, '{"name":"write","arguments":{"path":"~/memory/a","body":"two"}}')
        assert not again["isError"], text(again)
    finally:
        s.close()
    with DocumentsRepository(db_path) as repo:
        assert [v.version for v in repo.history("a", "~/memory/a")] == [1, 2]
