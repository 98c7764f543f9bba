"""The inspector over HTTP (Starlette's TestClient): every page of the demo's memory, the
revert action, bad input (404/400 pages, never a traceback), the token and CSRF guards."""

from __future__ import annotations

import itertools
import re

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from doctree.cli import cli
from doctree.errors import UserError
from doctree.store.backends import is_database_url
from doctree.store.documents import DocumentsRepository
from doctree.store.runs import Runs
from doctree.web.app import create_app
from tests.web_demo import build_demo, copy_db

BASE = "http://127.0.0.1:8765"
APOLLO = "~/memory/projects/apollo"


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def db_path(request, tmp_path_factory):
    """The demo, built once per backend (this module's `db_path`, in place of the one per
    test): a SQLite file, or a PostgreSQL database that each test's copy is made from."""
    if request.param == "sqlite":
        yield build_demo(tmp_path_factory.mktemp("demo") / "demo.db")
        return
    server = request.getfixturevalue("postgres_server")
    url = build_demo(server.new_database())
    yield url
    server.drop_database(url)


@pytest.fixture
def db(db_path, tmp_path, request):
    """A private copy of the demo, for tests that write."""
    if not is_database_url(db_path):
        yield copy_db(db_path, tmp_path / "demo.db")
        return
    import psycopg

    server = request.getfixturevalue("postgres_server")
    copy = server.database_url(f"web{next(COPIES)}")
    with psycopg.connect(server.url, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {database_name(copy)} TEMPLATE {database_name(db_path)}")
    yield copy
    server.drop_database(copy)


COPIES = itertools.count(1)


def database_name(url: str) -> str:
    return url.split("/")[3].split("?")[0]


@pytest.fixture
def client(db):
    with TestClient(create_app(str(db), "main"), base_url=BASE) as c:
        yield c


def readable(response, status: int) -> str:
    """The response is a readable HTML page with this status and no traceback."""
    assert response.status_code == status, response.text[:500]
    assert response.headers["content-type"].startswith("text/html")
    assert "Traceback" not in response.text and 'File "' not in response.text
    return response.text


def csrf_of(page: str) -> str:
    return re.search(r'name=csrf value="([^"]+)"', page).group(1)


PAGES = [
    ("/tree", "archive"),
    ("/tree/~/memory/people", "priya"),
    ("/tree?at=2030-01-01", "apollo"),
    (f"/doc/{APOLLO}", "Backlinks"),
    (f"/doc/{APOLLO}?version=1", "version 1 of"),
    (f"/history/{APOLLO}", "modified"),
    (f"/diff/{APOLLO}?from=1&to=4", "@@"),
    (f"/diff/{APOLLO}", "@@"),
    (f"/blame/{APOLLO}", "Blame of"),
    (f"/blame/{APOLLO}?version=2", "at version 2"),
    ("/search?q=launch", "apollo"),
    ("/search?q=launch&at=2030-01-01", "apollo"),
    ("/search?q=December&all=1", "apollo"),
    ("/search", "Search"),
    ("/runs", "Memory-agent runs"),
    ("/runs/3", "What it was given"),
    ("/sessions", "processed"),
    ("/version/1/1", "created"),
    ("/sessions?state=processed", "processed"),
    ("/sessions/s-2026-11-18-apollo-kickoff", "History"),
]


@pytest.mark.parametrize(("page", "expected"), PAGES)
def test_every_page_of_the_demo_renders(client, page, expected):
    assert expected in readable(client.get(page), 200)


def test_home_is_the_activity_feed_newest_run_first(client):
    page = readable(client.get("/"), 200)
    ids = [int(n) for n in re.findall(r'<section class=run id="run-(\d+)">', page)]
    assert ids and ids == sorted(ids, reverse=True)


def test_tree_lists_titles_versions_and_sizes(client):
    page = readable(client.get("/tree/~/memory/projects"), 200)
    assert f'href="/doc/{APOLLO}"' in page
    assert re.search(r"Apollo</td><td class=n>v\d+</td><td class=n>[\d.]+ (B|KB)</td>", page)


def test_a_page_renders_markdown_with_links_to_documents_and_backlinks(client):
    page = readable(client.get("/doc/~/memory/people/priya"), 200)
    assert "<h2>Facts</h2>" in page or "<h2>" in page
    assert f'<a href="/doc/{APOLLO}">' in page  # a [[wiki]] link in the body
    back = page.split("<h2>Backlinks</h2>", 1)[1]
    assert 'href="/doc/~/memory/' in back


def test_a_body_cannot_inject_markup(db):
    with DocumentsRepository(db) as repo:
        repo.write(
            "main", "~/memory/evil", "# Evil\n<script>alert(1)</script>\n[x](javascript:alert(1))\n"
        )
    with TestClient(create_app(str(db), "main"), base_url=BASE) as c:
        page = readable(c.get("/doc/~/memory/evil"), 200)
    assert "<script>alert" not in page
    assert 'href="javascript:' not in page


def test_a_deleted_document_shows_its_last_text_and_says_it_was_deleted(db):
    with DocumentsRepository(db) as repo:
        repo.write("main", "~/memory/gone", "# Gone\nonce here\n")
        repo.delete("main", "~/memory/gone")
    with TestClient(create_app(str(db), "main"), base_url=BASE) as c:
        page = readable(c.get("/doc/~/memory/gone"), 200)
    assert "deleted at version 2" in page and "once here" in page


def test_run_page_shows_what_it_was_given_changed_and_cost(client):
    page = readable(client.get("/runs/3"), 200)
    assert "apollo-kickoff" in page  # the transcript it was given
    assert "What it changed" in page and '<pre class="diff">' in page
    assert "cost" in page and "$0.0000" in page
    assert 'href="/runs/3/revert"' in page  # to the revert's preview


def test_revert_button_puts_the_run_back(client, db):
    page = readable(client.get("/runs/9/revert"), 200)
    before = client.get(f"/doc/{APOLLO}").text
    assert "December 8" in before

    r = client.post("/runs/9/revert", data={"csrf": csrf_of(page)})

    assert "put back" in readable(r, 200)
    after = readable(client.get(f"/doc/{APOLLO}"), 200)
    assert "December 8" not in after
    with DocumentsRepository(db) as repo:
        assert Runs(repo.conn).get(9).reverted_at is not None
    again = client.post("/runs/9/revert", data={"csrf": csrf_of(page)})
    assert "put back 0" in readable(again, 200)


def test_revert_without_or_with_a_wrong_csrf_token_is_refused_and_writes_nothing(client, db):
    missing = client.post("/runs/9/revert", data={})
    wrong = client.post("/runs/9/revert", data={"csrf": "forged"})

    assert "CSRF" in readable(missing, 403)
    assert "CSRF" in readable(wrong, 403)
    with DocumentsRepository(db) as repo:
        assert Runs(repo.conn).get(9).reverted_at is None


def test_a_cross_site_post_is_refused(client):
    page = client.get("/runs/9").text
    r = client.post(
        "/runs/9/revert", data={"csrf": csrf_of(page)}, headers={"Origin": "http://evil.example"}
    )
    assert "cross-site" in readable(r, 403)


def test_revert_of_a_run_that_does_not_exist_is_a_404_page(client):
    page = client.get("/runs/3").text
    assert "no such run" in readable(
        client.post("/runs/999/revert", data={"csrf": csrf_of(page)}), 404
    )
    assert readable(client.get("/runs/3/revert-document"), 405)


BAD = [
    ("/doc/~/memory/nope", 404, "not found"),
    (f"/doc/{APOLLO}?version=99", 404, "no version 99"),
    (f"/doc/{APOLLO}?version=0", 400, "at least 1"),
    (f"/doc/{APOLLO}?version=two", 400, "whole number"),
    (f"/diff/{APOLLO}?from=1&to=50", 404, "no version 50"),
    (f"/blame/{APOLLO}?version=50", 404, "no version 50"),
    ("/history/~/memory/nope", 404, "not found"),
    ("/tree/~/memory/nope", 404, "not found"),
    ("/tree?at=yesterday-ish", 400, "ISO 8601"),
    ("/search?q=x&at=soon", 400, "ISO 8601"),
    ("/doc/memory/x", 400, "must start with"),
    ("/runs/999", 404, "no such run"),
    ("/runs/abc", 404, "numbered"),
    ("/sessions/nope", 404, "nope"),
    ("/sessions/s-2026-11-19-ops-disk-full", 404, "not a session of agent"),
    ("/version/1/999", 404, "no version 999"),
    ("/version/x/1", 404, "numbered"),
    ("/version/99999/1", 404, "no document with id 99999"),
    ("/sessions?state=sleepy", 400, "sleepy"),
    ("/no/such/page", 404, "no page"),
]


@pytest.mark.parametrize(("page", "status", "message"), BAD)
def test_bad_input_gets_a_readable_error_page(client, page, status, message):
    assert message in readable(client.get(page), status)


def test_only_loopback_host_names_are_served_without_a_token(db):
    with TestClient(create_app(str(db), "main"), base_url="http://evil.example") as c:
        assert "loopback only" in readable(c.get("/tree"), 403)
    with TestClient(create_app(str(db), "main"), base_url="http://localhost:8765") as c:
        readable(c.get("/tree"), 200)


TOKEN = "Tq8rX2vJ-kP4nW7yZ3bL9mF5hD1cG6sA0eRuVoYi"  # 40 url-safe characters: 240 bits


@pytest.fixture
def guarded(db):
    with TestClient(
        create_app(str(db), "main", token=TOKEN, loopback=False), base_url="http://10.0.0.5:8765"
    ) as c:
        yield c


def test_with_a_token_a_request_without_it_is_401(guarded):
    r = guarded.get("/tree")
    assert "needs a token" in readable(r, 401)
    assert r.headers["www-authenticate"] == "Bearer"


def test_with_a_token_a_wrong_one_is_403(guarded):
    assert "token given is wrong" in readable(
        guarded.get("/tree", headers={"Authorization": "Bearer nope"}), 403
    )
    guarded.cookies.set("doctree_session_8765", "nope")
    readable(guarded.get("/tree"), 401)  # a cookie that is not a signed session opens nothing
    # A token link replaces a stale cookie.
    assert guarded.get(f"/tree?token={TOKEN}", follow_redirects=False).status_code == 303
    readable(guarded.get("/tree"), 200)


def test_with_a_token_a_bearer_header_or_the_cookie_from_a_token_link_opens_it(guarded):
    readable(guarded.get("/tree", headers={"Authorization": f"Bearer {TOKEN}"}), 200)

    r = guarded.get(f"/doc/~/memory?token={TOKEN}", follow_redirects=False)
    assert (r.status_code, r.headers["location"]) == (303, "/doc/~/memory")
    assert "HttpOnly" in r.headers["set-cookie"] and "SameSite=strict" in r.headers["set-cookie"]
    readable(guarded.get("/runs"), 200)  # the cookie is sent from now on


def test_with_a_token_writes_are_refused_without_it(guarded, db):
    page = guarded.get("/runs/9", headers={"Authorization": f"Bearer {TOKEN}"}).text
    r = guarded.post("/runs/9/revert", data={"csrf": csrf_of(page)})
    readable(r, 401)
    with DocumentsRepository(db) as repo:
        assert Runs(repo.conn).get(9).reverted_at is None


def test_serving_beyond_loopback_without_a_token_is_refused(db, monkeypatch):
    with pytest.raises(UserError, match="needs a token"):
        create_app(str(db), "main", loopback=False)
    monkeypatch.delenv("DOCTREE_TOKEN", raising=False)
    r = CliRunner().invoke(cli, ["--db", str(db), "serve", "--host", "0.0.0.0", "--port", "0"])
    assert r.exit_code == 2 and "needs a token" in r.output


def test_sessions_page_shows_pending_and_failing_sessions_with_their_error(db):
    from doctree.sessions.repository import SessionsRepository

    with SessionsRepository(db) as sessions:
        for sid in ("s-web-pending", "s-web-failing"):
            sessions.create("main", sid)
            sessions.append_history(sid, "user", "Remember the blue door.")
            sessions.sleep(sid)
        sessions.record_failure("s-web-failing", "model overloaded", retry_in=60)
    with TestClient(create_app(str(db), "main"), base_url=BASE) as c:
        page = readable(c.get("/sessions"), 200)
        failing = readable(c.get("/sessions?state=failing"), 200)
        one = readable(c.get("/sessions/s-web-failing"), 200)

    assert "1 pending, 1 failing" in page
    assert re.search(r's-web-pending</a></td><td>[^<]*</td><td><span class="badge pending">', page)
    assert "s-web-failing" in failing and "s-web-pending" not in failing
    assert "model overloaded" in failing and "model overloaded" in one
    assert "Remember the blue door." in one


@pytest.mark.slow
def test_every_link_reachable_from_the_tree_opens_a_page(client):
    """A crawl of the demo from /tree (GET links only, no forms): no broken link."""
    seen, queue, broken = set(), ["/tree", "/runs", "/sessions"], []
    while queue and len(seen) < 1500:
        page = queue.pop()
        if page in seen:
            continue
        seen.add(page)
        r = client.get(page)
        if r.status_code != 200:
            broken.append((page, r.status_code))
            continue
        for href in re.findall(r'href="(/[^"]*)"', r.text):
            href = href.replace("&amp;", "&")
            if href not in seen:
                queue.append(href)
    assert broken == []
    assert len(seen) > 100
