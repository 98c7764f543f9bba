"""The inspector's pages are Jinja2 templates with autoescaping on: text from the store (a
body, a title, a search snippet, a run's notes, a session's records and ids) and from the
request (a path, a query) comes out as text on every page that shows it, never as markup and
never as template code; the templates and the stylesheet ship in the package."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from doctree.sessions.repository import SessionsRepository
from doctree.store.documents import Actor, DocumentsRepository, Provenance
from doctree.store.runs import Runs
from doctree.web.app import create_app

BASE = "http://127.0.0.1:8765"
HOSTILE = "<script>alert(1)</script> {{ 7*7 }} {% if 1 %}jinja{% endif %} <b onclick=x>b</b>"
SID = "s-<script>alert(2)</script>-{{7*7}}"
DOC = "~/memory/hostile"
ROOT = Path(__file__).resolve().parents[2]
TIMES = re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d(\.\d+)?)?Z?")


def assert_inert(page: str, where: str) -> None:
    """No markup from HOSTILE in the page, and its template code shown as it was written."""
    assert "<script" not in page.lower(), where
    assert "<b onclick" not in page, where
    assert "{% if 1 %}jinja{% endif %}" in page, where
    assert "{{ 7*7 }}" in page, where
    assert "&lt;script&gt;" in page, where


@pytest.fixture
def hostile(db_path):
    """A document, a session, a run and its change, each carrying HOSTILE."""
    with SessionsRepository(db_path) as sessions:
        sessions.create("main", SID)
        first = sessions.append_history(SID, "user", HOSTILE)
        last = sessions.append_history(SID, "tool_call", {"name": HOSTILE, "input": HOSTILE})
        sessions.record_failure(SID, HOSTILE, retry_in=60)
    with DocumentsRepository(db_path) as repo:
        repo.write("main", DOC, f"# Title {HOSTILE}\n\nfirst {HOSTILE}\n")
        runs = Runs(repo.conn)
        run_id = runs.start(
            owner="main",
            backend="offline",
            model=HOSTILE,
            session_id=SID,
            first_history_id=first,
            last_history_id=last,
        )
        repo.write(
            "main",
            DOC,
            f"# Title {HOSTILE}\n\nsecond {HOSTILE} zeppelin\n",
            provenance=Provenance(Actor("memory-agent", "main"), run=run_id),
        )
        runs.finish(run_id, "failed", HOSTILE, error=HOSTILE)
        document_id = repo.read("main", DOC).id
    return {"run": run_id, "document": document_id}


def test_text_from_the_store_is_shown_as_text_on_every_page(db_path, hostile):
    run, doc_id = hostile["run"], hostile["document"]
    from urllib.parse import quote

    session = "/sessions/" + quote(SID, safe="")
    pages = {
        "document": f"/doc/{DOC}",
        "old version": f"/doc/{DOC}?version=1",
        "version by id": f"/version/{doc_id}/1",
        "history": f"/history/{DOC}",
        "diff": f"/diff/{DOC}?from=1&to=2",
        "blame": f"/blame/{DOC}",
        "tree": "/tree/~/memory",
        "search": "/search?q=zeppelin",
        "search of every version": "/search?q=zeppelin&all=1",
        "activity": "/",
        "run": f"/runs/{run}",
        "revert preview": f"/runs/{run}/revert",
        "sessions": "/sessions",
        "session": session,
    }
    with TestClient(create_app(str(db_path), "main"), base_url=BASE) as c:
        for where, url in pages.items():
            r = c.get(url)
            assert r.status_code == 200, (where, r.text[:300])
            page = r.text
            assert "<script" not in page.lower() and "<b onclick" not in page, where
            if where.startswith("search"):
                # a snippet: the words found highlighted, the rest text
                assert "<mark>zeppelin</mark>" in page and "{{ 7*7 }}" in page, where
                assert "&lt;/script&gt;" in page, where
            elif where not in ("history", "tree", "sessions"):  # these show no body or note
                assert_inert(page, where)
        tree = c.get("/tree/~/memory").text
        assert "Title &lt;script&gt;" in tree and "{{ 7*7 }}" in tree
        runs = c.get("/runs").text
        assert "s-&lt;script&gt;alert(2)&lt;/script&gt;-{{7*7}}" in runs
        listing = c.get("/sessions").text
        assert "{{7*7}}" in listing and "&lt;script&gt;alert(2)" in listing


def test_text_from_the_request_is_shown_as_text(db_path, hostile):
    with TestClient(create_app(str(db_path), "main"), base_url=BASE) as c:
        for url in (
            "/search?q=" + HOSTILE.replace("&", "%26").replace("#", "%23"),
            "/search?q=x&under=" + HOSTILE.replace("&", "%26"),
            "/doc/~/memory/<script>alert(1)</script>{{ 7*7 }}",
            "/tree?at=<script>alert(1)</script>{{ 7*7 }}",
            "/sessions?state=<script>{{ 7*7 }}",
            "/no/<script>{{ 7*7 }}",
        ):
            page = c.get(url).text
            assert "<script" not in page.lower(), url
            assert "{{ 7*7 }}" in page, url
            # a template that ran would print 49; times shown on the page may hold it too
            assert "49" not in TIMES.sub("", page), url


def test_a_body_is_rendered_as_markdown_without_its_raw_html(db_path, hostile):
    with TestClient(create_app(str(db_path), "main"), base_url=BASE) as c:
        page = c.get(f"/doc/{DOC}").text
    body = page.split("id=body>", 1)[1].split("</div>", 1)[0]
    assert "<h1>Title &lt;script&gt;alert(1)&lt;/script&gt; {{ 7*7 }}" in body
    assert "<p>second &lt;script&gt;" in body and "&lt;b onclick=x&gt;" in body


def test_templates_and_stylesheet_ship_in_the_package():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    shipped = config["package-data"]["doctree.web"]
    web = ROOT / "doctree" / "web"
    files = [p for p in (web / "templates").rglob("*") if p.is_file()]
    files += [p for p in (web / "static").rglob("*") if p.is_file()]
    assert any(p.suffix == ".html" for p in files) and any(p.suffix == ".css" for p in files)
    for p in files:
        rel = p.relative_to(web).as_posix()
        assert any(Path(rel).match(pattern) for pattern in shipped), rel


def test_no_html_is_built_in_python_strings():
    """Markup lives in the templates: the modules hold no tag literals, no hand escaping,
    and mark text as safe in one place only."""
    sources = {p.name: p.read_text() for p in (ROOT / "doctree" / "web").glob("*.py")}
    tags = re.compile(r"""["'][^"'\n]*<(p|a|tr|td|li|ul|h\d|div|span|pre|form|input|table)[ >]""")
    for name, text in sources.items():
        assert not tags.search(text), (name, tags.search(text))
        assert "html.escape" not in text and "def esc(" not in text, name
    assert sum(text.count("Markup(") for text in sources.values()) == 1
