"""`doctree serve --mcp` as a real uvicorn process on a free loopback port: the inspector
answers over HTTP, and an MCP client (the `mcp` package) over streamable HTTP lists and
calls the tools, with the token; without it the client is refused."""

from __future__ import annotations

import subprocess
import sys
import time
import urllib.error
import urllib.request

import anyio
import pytest

from tests.web_demo import build_demo, free_port

pytestmark = pytest.mark.slow

TOKEN = "Tq8rX2vJ-kP4nW7yZ3bL9mF5hD1cG6sA0eRuVoYi"  # 40 url-safe characters: 240 bits


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def db_path(request, tmp_path_factory):
    """The demo, built once per backend (this module's `db_path`, in place of the one per
    test): a SQLite file, or a PostgreSQL database."""
    if request.param == "sqlite":
        yield build_demo(tmp_path_factory.mktemp("served") / "demo.db")
        return
    server = request.getfixturevalue("postgres_server")
    url = build_demo(server.new_database())
    yield url
    server.drop_database(url)


@pytest.fixture(scope="module")
def server(db_path):
    db = db_path
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "doctree", "--db", str(db), "serve", "--port", str(port)]
        + ["--mcp", "--under", "~/memory", "--token", TOKEN],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(base + "/tree", timeout=2)
        except urllib.error.HTTPError:
            break  # it answers (401 without the token)
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise RuntimeError(proc.stderr.read().decode()) from None
            time.sleep(0.1)
    yield base
    proc.terminate()
    proc.wait(timeout=10)


def get(url: str, token: str | None = None) -> tuple[int, str]:
    req = urllib.request.Request(url)
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def test_real_server_serves_pages_with_the_token_and_refuses_without(server):
    status, page = get(server + "/doc/~/memory/projects/apollo", TOKEN)
    assert status == 200 and "Backlinks" in page
    assert get(server + "/tree")[0] == 401
    assert get(server + "/tree", "wrong")[0] == 403


def mcp_session(url: str, token: str | None, script):
    from mcp.client import Client
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    headers = {"Authorization": f"Bearer {token}"} if token else None

    async def main():
        http = create_mcp_http_client(headers=headers)
        async with http, Client(streamable_http_client(url, http_client=http)) as client:
            return await script(client)

    return anyio.run(main)


def text_of(result) -> str:
    return "".join(c.text for c in result.content)


def test_mcp_over_http_lists_and_calls_the_tools(server):
    async def script(client):
        tools = {t.name for t in (await client.list_tools()).tools}
        blame = await client.call_tool("blame", {"path": "~/memory/projects/apollo"})
        past = await client.call_tool(
            "search_history", {"query": "launch date", "all_versions": True, "limit": 50}
        )
        outside = await client.call_tool("read", {"path": "~/elsewhere"})
        return tools, text_of(blame), text_of(past), outside

    tools, blame, past, outside = mcp_session(server + "/mcp", TOKEN, script)

    assert {"read", "write", "search", "history", "diff", "blame", "search_history"} <= tools
    assert "~/memory/projects/apollo version" in blame and "memory-agent:main" in blame
    assert "~/memory/projects/apollo version 2 " in past
    assert outside.is_error and "outside the served subtree" in text_of(outside)


def post_initialize(url: str, token: str | None) -> int:
    body = (
        b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",'
        b'"capabilities":{},"clientInfo":{"name":"t","version":"1"}}}'
    )
    req = urllib.request.Request(url, data=body, method="POST")
    req.add_header("Content-Type", "application/json")
    req.add_header("Accept", "application/json, text/event-stream")
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


def test_mcp_over_http_without_the_token_is_refused(server):
    async def script(client):
        return await client.list_tools()

    with pytest.raises(BaseException, match="unhandled errors|error response"):
        mcp_session(server + "/mcp", None, script)
    assert post_initialize(server + "/mcp", None) == 401
    assert post_initialize(server + "/mcp", "wrong") == 403
    assert post_initialize(server + "/mcp", TOKEN) == 200


def test_port_0_announces_the_port_the_system_chose(tmp_path):
    db = build_demo(tmp_path / "demo.db")
    proc = subprocess.Popen(
        [sys.executable, "-m", "doctree", "--db", str(db), "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        banner = proc.stderr.readline()
        port = int(banner.split("http://127.0.0.1:")[1].split("/")[0])
        assert port != 0, banner
        deadline = time.monotonic() + 30
        while True:
            try:
                status, page = get(f"http://127.0.0.1:{port}/tree")
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, banner
                time.sleep(0.1)
        assert status == 200 and "memory" in page
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_a_port_in_use_is_one_clear_line(tmp_path):
    import socket

    db = build_demo(tmp_path / "demo.db")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        r = subprocess.run(
            [sys.executable, "-m", "doctree", "--db", str(db), "serve", "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert r.returncode == 2
    assert f"127.0.0.1:{port}: cannot listen there" in r.stderr
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize("host", ["no such host..invalid", "999.1.1.1"])
def test_a_host_that_cannot_be_listened_on_is_one_clear_line(tmp_path, host):
    db = build_demo(tmp_path / "demo.db")
    r = subprocess.run(
        [sys.executable, "-m", "doctree", "--db", str(db), "serve", "--host", host]
        + ["--token", TOKEN, "--port", "0"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 2, r.stderr
    assert f"host {host!r}:" in r.stderr
    assert "Traceback" not in r.stderr
