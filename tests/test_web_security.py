"""The inspector's doors, on real uvicorn processes over loopback HTTP: security headers on
every response (no framing, no script, no image from elsewhere), a signed session cookie per
port in place of the raw token, tokens under 128 bits refused, a 401 page that names nothing
but how to log in, and a client that sends half a request and stalls cut off in time."""

from __future__ import annotations

import re
import secrets
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from http.cookies import SimpleCookie

import pytest
from web_demo import build_demo, free_port

from doctree.errors import UserError
from doctree.store.documents import DocumentsRepository
from doctree.web.security import check_token, token_bits

TOKEN = secrets.token_urlsafe(32)


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


OPENER = urllib.request.build_opener(NoRedirect)


def fetch(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], str]:
    req = urllib.request.Request(url, headers=headers or {})
    try:
        with OPENER.open(req, timeout=20) as r:
            return r.status, {k.lower(): v for k, v in r.headers.items()}, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, {k.lower(): v for k, v in e.headers.items()}, e.read().decode()


def start(db, *args: str) -> tuple[subprocess.Popen, str]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "doctree", "--db", str(db), "serve", "--port", str(port), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            fetch(base + "/tree")
            return proc, base
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise RuntimeError(proc.stderr.read().decode()) from None
            time.sleep(0.1)


def stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    proc.wait(timeout=10)


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    db = build_demo(tmp_path_factory.mktemp("security") / "private-memory.db")
    with DocumentsRepository(db) as repo:
        repo.write(
            "main", "~/memory/tracked", "# Tracked\n![pixel](https://tracker.example/p.png)\n"
        )
    return db


@pytest.fixture(scope="module")
def two_servers(demo):
    """Two inspectors of one database on two ports of one host, with the same token."""
    a, base_a = start(demo, "--token", TOKEN, "--mcp")
    b, base_b = start(demo, "--token", TOKEN)
    yield base_a, base_b
    stop(a)
    stop(b)


def session_cookie(headers: dict[str, str]) -> tuple[str, str, str]:
    raw = headers["set-cookie"]
    jar: SimpleCookie = SimpleCookie()
    jar.load(raw)
    (name, morsel), *_ = jar.items()
    return name, morsel.value, raw


SECURITY = {
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
}


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("/tree", 200),
        ("/doc/~/memory/tracked", 200),
        ("/nowhere", 404),
        ("/tree?at=not-a-time", 400),
    ],
)
def test_every_response_carries_the_security_headers(two_servers, path, status):
    base, _ = two_servers
    code, headers, _ = fetch(base + path, {"Authorization": f"Bearer {TOKEN}"})
    assert code == status
    for name, value in SECURITY.items():
        assert headers[name] == value
    csp = headers["content-security-policy"]
    assert "frame-ancestors 'none'" in csp and "img-src 'self'" in csp
    assert "script-src" not in csp and "default-src 'none'" in csp  # so no script at all
    assert "unsafe-inline" not in csp


def test_refusals_and_mcp_carry_the_security_headers_too(two_servers):
    base, _ = two_servers
    for url, headers in (
        (base + "/tree", {}),
        (base + "/tree", {"Authorization": "Bearer wrong"}),
        (base + "/mcp", {}),
    ):
        code, got, _ = fetch(url, headers)
        assert code in (401, 403)
        assert (
            got["x-frame-options"] == "DENY"
            and "frame-ancestors 'none'" in got["content-security-policy"]
        )


def test_the_pages_stylesheet_is_their_own_file_and_nothing_is_inline(two_servers):
    base, _ = two_servers
    auth = {"Authorization": f"Bearer {TOKEN}"}
    code, headers, page = fetch(base + "/tree", auth)
    assert code == 200
    assert "style-src 'self';" in headers["content-security-policy"]
    assert re.findall(r"<link rel=stylesheet href=\"([^\"]+)\">", page) == ["/static/inspector.css"]
    assert "<style" not in page and " style=" not in page and "<script" not in page
    code, headers, css = fetch(base + "/static/inspector.css", auth)
    assert code == 200 and headers["content-type"].startswith("text/css")
    assert "nav.side" in css and headers["x-content-type-options"] == "nosniff"
    assert fetch(base + "/static/inspector.css")[0] == 401  # behind the token like every page
    assert fetch(base + "/static/../app.py", auth)[0] == 404


def test_an_image_from_elsewhere_in_a_page_is_not_allowed_to_load(two_servers):
    base, _ = two_servers
    _, headers, page = fetch(base + "/doc/~/memory/tracked", {"Authorization": f"Bearer {TOKEN}"})
    assert '<img src="https://tracker.example/p.png"' in page  # rendered, and ...
    assert "img-src 'self'" in headers["content-security-policy"]  # ... blocked by the browser


def test_a_token_link_opens_a_signed_session_cookie_named_for_the_port(two_servers):
    base, _ = two_servers
    port = base.rsplit(":", 1)[1]
    code, headers, _ = fetch(base + f"/doc/~/memory?token={TOKEN}")
    assert code == 303 and headers["location"] == "/doc/~/memory"
    name, value, raw = session_cookie(headers)
    assert name == f"doctree_session_{port}"
    assert TOKEN not in raw and TOKEN[:8] not in value  # the token is never stored
    assert "HttpOnly" in raw and "SameSite=strict" in raw and "Max-Age=" in raw
    assert fetch(base + "/tree", {"Cookie": f"{name}={value}"})[0] == 200
    tampered = value[:-2] + ("AA" if not value.endswith("AA") else "BB")
    assert fetch(base + "/tree", {"Cookie": f"{name}={tampered}"})[0] == 401
    assert fetch(base + "/tree", {"Cookie": f"{name}={TOKEN}"})[0] == 401  # the raw token


def test_a_second_inspector_on_another_port_keeps_its_own_session(two_servers):
    base_a, base_b = two_servers
    name_a, value_a, _ = session_cookie(fetch(base_a + f"/tree?token={TOKEN}")[1])
    name_b, value_b, _ = session_cookie(fetch(base_b + f"/tree?token={TOKEN}")[1])
    assert name_a != name_b
    both = f"{name_a}={value_a}; {name_b}={value_b}"  # what the browser sends to either port
    assert fetch(base_a + "/tree", {"Cookie": both})[0] == 200
    assert fetch(base_b + "/tree", {"Cookie": both})[0] == 200
    # A's session, even under B's name, does not open B: it is signed for A's port.
    assert fetch(base_b + "/tree", {"Cookie": f"{name_b}={value_a}"})[0] == 401


def test_the_401_page_names_nothing_but_how_to_log_in(two_servers, demo):
    base, _ = two_servers
    code, headers, page = fetch(base + "/doc/~/memory/projects/apollo")
    assert code == 401 and headers["www-authenticate"] == "Bearer"
    assert "?token=TOKEN" in page and "Authorization: Bearer TOKEN" in page
    for secret in ("main", "private-memory", str(demo), "apollo", "Tree", "Runs"):
        assert secret not in page, secret
    code, _, page = fetch(base + "/tree", {"Authorization": "Bearer wrong"})
    assert code == 403 and "main" not in page and "private-memory" not in page


@pytest.mark.parametrize(
    "token", ["t", "s3cret", "t0ken-for-tests", "a" * 64, secrets.token_hex(15), "abcdefgh" * 2]
)
def test_a_token_under_128_bits_is_refused_with_one_line(demo, token):
    r = subprocess.run(
        [sys.executable, "-m", "doctree", "--db", str(demo), "serve", "--token", token]
        + ["--port", "0"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 2, r.stderr
    assert "a token needs at least 128" in r.stderr and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_token_strength_follows_the_length_and_alphabet_of_random_tokens():
    for _ in range(200):
        assert token_bits(secrets.token_urlsafe(16)) >= 128  # 22 url-safe characters
        assert token_bits(secrets.token_hex(16)) >= 128  # 32 hex digits
        assert token_bits(secrets.token_urlsafe(16)[:21]) < 128
        assert token_bits(secrets.token_hex(16)[:31]) < 128
    check_token("3f9a1c7e-5b2d-4e8f-9a6c-1d0b7e4f2a95")  # a UUID's 32 hex digits
    with pytest.raises(UserError, match="about 0 bits"):
        check_token("ab" * 40)  # long, but two characters


def connect(base: str) -> socket.socket:
    host, port = base.removeprefix("http://").split(":")
    return socket.create_connection((host, int(port)), timeout=30)


def closed_within(sock: socket.socket, seconds: float, trickle: bool = False) -> float | None:
    """Seconds until the server closed `sock` (None: still open after `seconds`); with
    `trickle`, one more byte of the request line is sent every 0.3 s meanwhile."""
    start = time.monotonic()
    sock.settimeout(0.3)
    while time.monotonic() - start < seconds:
        try:
            if sock.recv(1024) == b"":
                return time.monotonic() - start
        except TimeoutError:
            if trickle:
                try:
                    sock.sendall(b"x")
                except OSError:
                    return time.monotonic() - start
        except OSError:
            return time.monotonic() - start
    return None


def test_a_client_that_sends_half_a_request_line_and_stalls_is_cut_off(demo):
    proc, base = start(demo, "--header-timeout", "1.5")
    try:
        stalled = connect(base)
        stalled.sendall(b"GET /tr")
        trickling = connect(base)
        trickling.sendall(b"GET /tree?q=")
        silent = connect(base)
        took = closed_within(stalled, 10)
        assert took is not None and took < 6, took
        took = closed_within(trickling, 10, trickle=True)
        assert took is not None and took < 6, took  # bytes trickling in do not extend it
        assert closed_within(silent, 10) is not None  # nothing sent at all: cut off too
        # A whole request in time is served, and the server keeps serving.
        assert fetch(base + "/tree")[0] == 200
    finally:
        stop(proc)


def test_a_stalled_second_request_on_a_kept_alive_connection_is_cut_off(demo):
    proc, base = start(demo, "--header-timeout", "1.5")
    try:
        sock = connect(base)
        host = base.removeprefix("http://")
        sock.sendall(f"GET /tree HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        sock.settimeout(20)
        first = b""
        while b"</html>" not in first:
            chunk = sock.recv(65536)
            assert chunk, first[:200]
            first += chunk
        assert first.startswith(b"HTTP/1.1 200")
        sock.sendall(b"GET /tr")  # the next request, half sent
        took = closed_within(sock, 10)
        assert took is not None and took < 6, took
    finally:
        stop(proc)
