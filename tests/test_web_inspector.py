"""The inspector as a place to review memory: the activity feed, provenance, a revert that is
previewed and confirmed, large trees and long lists, readable content and URLs of any name
(over HTTP with Starlette's TestClient, on SQLite and PostgreSQL; the browser's view of the
same pages is tests/test_web_browser.py)."""

# ruff: noqa: F811  (the demo fixtures `db` and `client` are test_web's, imported)
from __future__ import annotations

import html
import re
from urllib.parse import quote

from starlette.testclient import TestClient
from test_web import APOLLO, BASE, client, csrf_of, db, db_path, readable  # noqa: F401

from doctree.sessions.repository import SessionsRepository
from doctree.store.documents import Actor, DocumentsRepository, Provenance
from doctree.store.runs import Runs
from doctree.web.app import create_app

ACTIVE = "~/memory/active"


def doc_id(db, path: str) -> int:
    with DocumentsRepository(db) as repo:
        return repo.read("main", path).id


# -- 1. the activity feed -----------------------------------------------------------------


def test_the_feed_shows_each_run_with_its_session_time_diffs_and_reverts(client):
    page = readable(client.get("/"), 200)
    run9 = page.split('<section class=run id="run-9">', 1)[1].split("</section>", 1)[0]
    assert 'href="/sessions/s-2026-11-23-apollo-replan"' in run9
    assert "<time datetime=" in run9
    assert '<pre class="diff">' in run9 and "<ins>" in run9  # word-level inline diffs
    assert 'href="/runs/9/revert"' in run9  # the run's revert, previewed first
    assert run9.count('action="/runs/9/revert-document"') >= 2  # one per document
    assert "changed since by memory-agent:main" in run9  # run 10 wrote ~/memory/active since


def test_the_feed_is_paginated_with_a_total(client):
    first = readable(client.get("/?limit=4"), 200)
    last = readable(client.get("/?limit=4&page=3"), 200)
    total = int(re.search(r"1–4 of (\d+)", first).group(1))
    assert total == len(re.findall(r'<tr><td class=n><a href="/runs/', client.get("/runs").text))
    assert 'id="run-1"' in last and 'id="run-1"' not in first and "rel=next" in first


def test_putting_one_document_back_restores_its_version_before_the_run(client, db):
    page = readable(client.get("/"), 200)
    apollo = doc_id(db, APOLLO)
    r = client.post(
        "/runs/9/revert-document",
        data={"csrf": csrf_of(page), "document": str(apollo)},
        follow_redirects=False,
    )
    assert r.status_code == 303 and r.headers["location"].startswith(f"/doc/{APOLLO}")
    with DocumentsRepository(db) as repo:
        now = repo.read("main", APOLLO)
        by_run = [v.version for v in repo.history("main", APOLLO) if v.run_id == 9]
        before = repo.version(apollo, by_run[0] - 1)  # the version before run 9's first
        assert now.body == before.body and "December 8" not in now.body
        assert repo.version(apollo, now.version).actor == "user:inspector"
        assert Runs(repo.conn).get(9).reverted_at is None  # the run's other changes stay
        others = {v.path for v in repo.log("main", "~", run_id=9, limit=None)} - {APOLLO}
        assert others and all(repo.exists("main", p) for p in others)
    # Done once, the button is gone for that document.
    again = readable(client.get("/runs/9"), 200)
    assert f"name=document value={apollo}>" not in again


def test_putting_a_document_back_needs_the_csrf_token(client, db):
    apollo = doc_id(db, APOLLO)
    r = client.post("/runs/9/revert-document", data={"document": str(apollo)})
    assert "CSRF" in readable(r, 403)
    with DocumentsRepository(db) as repo:
        assert "December 8" in repo.read("main", APOLLO).body


# -- 2. provenance --------------------------------------------------------------------------


def test_every_document_page_says_who_wrote_it_in_which_run_session_and_when(client):
    page = readable(client.get(f"/doc/{APOLLO}"), 200)
    prov = re.search(r"<p class=prov id=provenance>(.*?)</p>", page).group(1)
    assert "the memory agent" in prov and 'href="/runs/9"' in prov
    assert 'href="/sessions/s-2026-11-23-apollo-replan"' in prov
    assert "session started" in prov and "written" in prov and prov.count("<time") == 2
    old = readable(client.get("/version/1/1"), 200)
    assert "id=provenance" in old


def test_a_persons_edit_says_so_and_outside_any_session(db):
    with DocumentsRepository(db) as repo:
        repo.write(
            "main", APOLLO, "# Apollo\nhand edit\n", provenance=Provenance(Actor("user", "ana"))
        )
    with TestClient(create_app(str(db), "main"), base_url=BASE) as c:
        prov = readable(c.get(f"/doc/{APOLLO}"), 200)
    assert "a person" in prov and "user:ana" in prov and "outside any session" in prov


def test_blame_links_each_change_to_its_session(client):
    page = readable(client.get(f"/blame/{APOLLO}"), 200)
    assert 'href="/sessions/s-2026-11-18-apollo-kickoff"' in page
    assert 'href="/sessions/s-2026-11-23-apollo-replan"' in page


# -- 3. undo a person can trust -------------------------------------------------------------


def test_a_runs_revert_is_previewed_with_the_pages_changed_since_and_then_confirmed(client, db):
    preview = readable(client.get("/runs/9/revert"), 200)
    will = preview.split("id=will>", 1)[1].split("id=kept>", 1)[0]
    kept = preview.split("id=kept>", 1)[1]
    assert APOLLO in will and "December 8" in will  # the diff it will apply
    assert ACTIVE in kept and "changed since by" in kept  # run 10 wrote it after run 9
    with DocumentsRepository(db) as repo:
        assert Runs(repo.conn).get(9).reverted_at is None  # a preview writes nothing
        assert "December 8" in repo.read("main", APOLLO).body

    done = client.post("/runs/9/revert", data={"csrf": csrf_of(preview)})
    assert "put back" in readable(done, 200)
    run = readable(client.get("/runs/9"), 200)
    assert 'id=revert href="/runs/9/revert"' not in run and "id=reverted>reverted" in run
    assert "id=confirm" not in readable(client.get("/runs/9/revert"), 200)


def test_any_earlier_version_is_restored_from_the_history_page(client, db):
    page = readable(client.get(f"/history/{APOLLO}"), 200)
    with DocumentsRepository(db) as repo:
        current = repo.read("main", APOLLO).version
    assert f"restore v{current}<" not in page and f"restore v{current - 1}<" in page
    r = client.post(
        f"/restore/{APOLLO}", data={"csrf": csrf_of(page), "version": "1"}, follow_redirects=False
    )
    assert r.status_code == 303
    assert "id=restored" in readable(client.get(r.headers["location"]), 200)
    with DocumentsRepository(db) as repo:
        now = repo.read("main", APOLLO)
        assert now.version == current + 1 and now.body == repo.version(now.id, 1).body
    forged = client.post(f"/restore/{APOLLO}", data={"csrf": "x", "version": "2"})
    assert "CSRF" in readable(forged, 403)


def test_a_deleted_documents_pages_have_no_subtree_link(db):
    with DocumentsRepository(db) as repo:
        repo.write("main", "~/memory/gone", "# Gone\n")
        repo.delete("main", "~/memory/gone")
    with TestClient(create_app(str(db), "main"), base_url=BASE) as c:
        for kind in ("doc", "history"):
            page = readable(c.get(f"/{kind}/~/memory/gone"), 200)
            assert 'href="/tree/~/memory/gone"' not in page
        live = readable(c.get(f"/doc/{APOLLO}"), 200)
    assert f'href="/tree/{APOLLO}"' in live


# -- 4. large trees and long lists ----------------------------------------------------------


def test_a_tree_of_5000_documents_is_a_small_page_of_its_top_levels(tmp_path):
    db = tmp_path / "big.db"
    with DocumentsRepository(db) as repo, repo.transaction():
        for team in range(50):
            for n in range(100):
                repo.write("main", f"~/memory/t{team:02}/doc{n:03}", f"# Doc {n}\n")
    with TestClient(create_app(str(db), "main"), base_url=BASE) as c:
        page = readable(c.get("/tree"), 200)
        sub = readable(c.get("/tree/~/memory/t07"), 200)
        deeper = readable(c.get("/tree?depth=3"), 200)
    assert len(page.encode()) < 100_000, len(page.encode())
    assert "5051 documents, 51 shown" in page
    assert 'href="/tree/~/memory/t07">▸ 100 below</a>' in page
    assert "doc042" in sub and "101 documents, 101 shown" in sub
    assert "5051 documents, 5051 shown" in deeper


def test_runs_sessions_and_search_are_paginated_with_totals(client):
    runs = readable(client.get("/runs?limit=3&page=2"), 200)
    assert re.search(r"4–6 of (\d+)", runs) and "rel=next" in runs and "rel=prev" in runs
    sessions = readable(client.get("/sessions?limit=2&page=1"), 200)
    total = int(re.search(r"1–2 of (\d+)", sessions).group(1))
    assert total > 2 and f"{total} in all" in sessions
    search = readable(client.get("/search?q=apollo&limit=2"), 200)
    n = int(re.search(r"id=total>(\d+) matches", search).group(1))
    assert n > 2 and f"1–2 of {n}" in search and "rel=next" in search


# -- 5. readable content --------------------------------------------------------------------


def test_session_pages_keep_newlines_and_show_tool_calls_as_json(db):
    with SessionsRepository(db) as sessions:
        sessions.create("main", "s-readable")
        sessions.append_history("s-readable", "user", "first line\nsecond line")
        sessions.append_history(
            "s-readable", "tool_call", {"name": "memory_write", "input": {"path": "~/x"}}
        )
    with TestClient(create_app(str(db), "main"), base_url=BASE) as c:
        page = readable(c.get("/sessions/s-readable"), 200)
    assert "<pre class=wrap>first line\nsecond line</pre>" in page
    text = html.unescape(page)
    assert '"name": "memory_write",\n  "input": {' in text
    assert "{'name'" not in text  # not a Python repr


def test_search_snippets_are_highlighted_and_every_version_results_grouped(client):
    page = readable(client.get("/search?q=launch"), 200)
    assert "<mark>launch</mark>" in page.lower() or "<mark>Launch</mark>" in page
    assert "[launch]" not in page.lower()
    every = readable(client.get("/search?q=December&all=1"), 200)
    paths = re.findall(r'<tr><td><a href="/version/\d+/\d+">([^<]+)</a>', every)
    assert paths and len(paths) == len(set(paths))  # one row a document
    assert "also in" in every


def test_pages_render_gfm_tables_task_lists_and_autolinks(db):
    with DocumentsRepository(db) as repo:
        repo.write(
            "main",
            "~/memory/gfm",
            "# GFM\n\n| a | b |\n|---|--:|\n| 1 | 2 |\n\n- [x] done\n- [ ] todo\n\n"
            "see https://example.com/x\n",
        )
    with TestClient(create_app(str(db), "main"), base_url=BASE) as c:
        page = readable(c.get("/doc/~/memory/gfm"), 200)
    assert "<table>" in page and '<td class="ta-right">2</td>' in page
    assert "style=" not in page  # the CSP allows no style attribute
    assert 'type="checkbox"' in page and "checked" in page
    assert '<a href="https://example.com/x">' in page


def test_times_have_one_format_with_how_long_ago(client):
    for path in ("/", "/runs", "/sessions", f"/history/{APOLLO}", "/tree"):
        page = readable(client.get(path), 200)
        shown = re.findall(r"<time [^>]*>([^<]*)</time> <span class=muted>\(([^)]*)\)", page)
        assert shown, path
        for text, ago in shown:
            assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", text), text
            assert re.fullmatch(r"just now|(in )?\d+ \w+( ago)?", ago), ago


# -- 6. URLs ------------------------------------------------------------------------------


def test_a_non_ascii_name_is_encoded_once_and_opens(db):
    with DocumentsRepository(db) as repo:
        repo.write("main", "~/memory/people/zoë", "# Zoë\n")
        repo.write(
            "main",
            "~/memory/team",
            "# Team\n[[~/memory/people/zoë]] and [z](~/memory/people/zoë)\n",
        )
    with TestClient(create_app(str(db), "main"), base_url=BASE) as c:
        team = readable(c.get("/doc/~/memory/team"), 200)
        hrefs = re.findall(r'href="(/doc/~/memory/people/zo[^"]*)"', team)
        assert len(hrefs) >= 2 and set(hrefs) == {"/doc/~/memory/people/zo%C3%AB"}
        assert "Zoë" in readable(c.get(hrefs[0]), 200)
        assert 'href="/doc/~/memory/people/zo%C3%AB"' in readable(c.get("/tree"), 200)


def test_session_ids_with_slash_question_hash_and_percent_open(db):
    odd = ["s/with/slash", "s?query", "s#hash", "s%25pct", "s%"]
    with SessionsRepository(db) as sessions:
        for sid in odd:
            sessions.create("main", sid)
            sessions.append_history(sid, "user", f"record of {sid}")
    with TestClient(create_app(str(db), "main"), base_url=BASE) as c:
        listing = readable(c.get("/sessions"), 200)
        for sid in odd:
            href = "/sessions/" + quote(sid, safe="")
            assert f'href="{href}"' in listing
            page = readable(c.get(href), 200)
            assert f"record of {sid}" in page.replace("&amp;", "&")
