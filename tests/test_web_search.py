"""Time-travel search: the tree as it was at a time (`--at`), and the text of every version
(`--all-versions`), in the library, the CLI and the inspector; redacted text is never found."""

from __future__ import annotations

import json
import time

import pytest
from click.testing import CliRunner

from doctree.cli import cli
from doctree.store.documents import Actor, Provenance, now
from doctree.store.timetravel import search_at, search_versions

ALICE = Actor("agent", "alice")
BOB = Actor("user", "bob")


def tick() -> str:
    """A time strictly between two writes."""
    time.sleep(0.002)
    t = now()
    time.sleep(0.002)
    return t


@pytest.fixture
def past(repo):
    """tea (v1, alice) -> coffee (v2, bob); a note later deleted; a page moved."""
    repo.write(
        "main", "~/memory/alice", "# Alice\nPrefers green tea.\n", provenance=Provenance(ALICE)
    )
    repo.write("main", "~/memory/notes/kafka", "# Kafka\nThe broker runs on port 9092.\n")
    repo.write("main", "~/memory/old/plan", "# Plan\nShip the zeppelin in May.\n")
    t1 = tick()
    repo.write(
        "main", "~/memory/alice", "# Alice\nPrefers black coffee.\n", provenance=Provenance(BOB)
    )
    repo.delete("main", "~/memory/notes/kafka")
    repo.move("main", "~/memory/old/plan", "~/memory/new/plan")
    t2 = tick()
    return {"t1": t1, "t2": t2}


def test_search_at_finds_the_text_of_then_with_version_time_and_actor(repo, past):
    hits = search_at(repo, "main", "green tea", past["t1"])

    assert [(h.path, h.version, h.actor) for h in hits] == [("~/memory/alice", 1, "agent:alice")]
    assert hits[0].created_at < past["t1"]
    assert "[green]" in hits[0].snippet
    assert search_at(repo, "main", "coffee", past["t1"]) == []
    assert [h.version for h in search_at(repo, "main", "coffee", past["t2"])] == [2]


def test_time_travel_snippets_are_cut_as_the_current_search_cuts_them(repo):
    filler = " ".join(f"w{i}" for i in range(40))
    repo.write("main", "~/memory/a", f"# A\n{filler} the green\ntea is here. {filler}\n")
    [now_hit] = repo.search("main", "green tea")
    [then] = search_at(repo, "main", "green tea", now())
    [every] = search_versions(repo, "main", "green tea")
    assert then.snippet == every.snippet == now_hit.snippet
    assert (
        now_hit.snippet == "… w34 w35 w36 w37 w38 w39 the [green] [tea] is here. w0 w1 w2 w3 w4 …"
    )


def test_search_at_finds_a_document_deleted_since_and_says_so(repo, past):
    hits = search_at(repo, "main", "broker", past["t1"])

    assert [(h.path, h.deleted) for h in hits] == [("~/memory/notes/kafka", True)]
    assert search_at(repo, "main", "broker", past["t2"]) == []


def test_search_at_uses_the_path_of_then(repo, past):
    before = search_at(repo, "main", "zeppelin", past["t1"], under="~/memory/old")
    after = search_at(repo, "main", "zeppelin", past["t2"], under="~/memory/old")

    assert [(h.path, h.current_path) for h in before] == [
        ("~/memory/old/plan", "~/memory/new/plan")
    ]
    assert after == []


def test_search_versions_finds_text_of_any_version_deleted_documents_included(repo, past):
    tea = search_versions(repo, "main", "tea")
    broker = search_versions(repo, "main", "broker")

    assert [(h.path, h.version, h.actor) for h in tea] == [("~/memory/alice", 1, "agent:alice")]
    assert [(h.path, h.deleted) for h in broker] == [("~/memory/notes/kafka", True)]
    # One hit per distinct body: the creation and the tombstone share the text.
    assert broker[0].versions == [1, 2]


def test_search_versions_up_to_a_time(repo, past):
    assert search_versions(repo, "main", "coffee", until=past["t1"]) == []
    assert [h.version for h in search_versions(repo, "main", "coffee", until=past["t2"])] == [2]


def test_redacted_text_is_never_found(repo):
    repo.write("main", "~/memory/keys", "# Keys\nthe code name is bluebird\n")
    t = tick()
    repo.write("main", "~/memory/keys", "# Keys\nno secrets here\n")
    repo.erase_version("main", "~/memory/keys", 1)

    assert search_versions(repo, "main", "bluebird") == []
    assert search_at(repo, "main", "bluebird", t) == []
    assert [h.version for h in search_versions(repo, "main", "secrets")] == [2]


def test_a_query_of_no_words_finds_nothing(repo, past):
    assert search_versions(repo, "main", "  ...  ") == []
    assert search_at(repo, "main", "", past["t2"]) == []


def test_cli_search_at_and_all_versions(db_path, repo, past):
    runner = CliRunner()
    base = ["--db", str(db_path), "search"]

    at = runner.invoke(cli, [*base, "tea", "--at", past["t1"], "--json"])
    every = runner.invoke(cli, [*base, "broker", "--all-versions"])
    bad = runner.invoke(cli, [*base, "tea", "--at", "last tuesday"])

    assert at.exit_code == 0, at.output
    [hit] = json.loads(at.output)
    assert (hit["path"], hit["version"], hit["actor"]) == ("~/memory/alice", 1, "agent:alice")
    assert every.exit_code == 0, every.output
    assert "~/memory/notes/kafka@1 (deleted)" in every.output
    assert bad.exit_code == 2 and "last tuesday" in bad.output


def test_inspector_search_of_every_version_links_to_the_version_even_if_its_path_is_reused(
    db_path, repo
):
    from starlette.testclient import TestClient

    from doctree.web.app import create_app

    repo.write(
        "main",
        "~/memory/note",
        "# Note\nThe zeppelin leaves at dawn.\n",
        provenance=Provenance(ALICE),
    )
    first = repo.get("main", "~/memory/note").id
    repo.delete("main", "~/memory/note")
    repo.write("main", "~/memory/note", "# Note\nSomething else entirely.\n")

    with TestClient(create_app(str(db_path), "main"), base_url="http://127.0.0.1") as c:
        page = c.get("/search", params={"q": "zeppelin", "all": "1"}).text
        link = f"/version/{first}/1"
        assert f'href="{link}"' in page and "agent:alice" in page
        opened = c.get(link).text
        now = c.get("/search", params={"q": "zeppelin"}).text

    assert "The zeppelin leaves at dawn." in opened and "deleted since" in opened
    assert "no matches" in now


def test_search_versions_finds_text_that_compaction_condensed_away(repo, monkeypatch):
    from doctree.memory.compaction import compact

    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    from doctree.store.documents import Actor

    agent = Actor("memory-agent", "main")  # compaction condenses the memory agent's pages
    body = "# A\n\nHello there, how are you today?\n\nUse k6.\n"
    repo.write("main", "~/memory/topics/a", body, provenance=Provenance(agent))
    repo.write(
        "main",
        "~/memory/topics/b",
        "# B\n\nThe broker runs on port 9092.\n",
        provenance=Provenance(agent),
    )

    result = compact(repo, "main", "~/memory/topics", backend="offline")

    assert result.retired  # the sources are tombstones now
    assert repo.search("main", "how are you today", under="~/memory/topics/a") == []
    hits = search_versions(repo, "main", "how are you today", under="~/memory/topics")
    assert [(h.path, h.deleted) for h in hits][:1] == [("~/memory/topics/a", True)]
