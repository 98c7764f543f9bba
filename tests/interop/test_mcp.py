"""The MCP server, driven by the `mcp` package's own client over stdio against a real
`python -m doctree mcp` subprocess."""

from __future__ import annotations

import sys

import anyio
import pytest

from doctree.store.documents import DocumentsRepository

pytestmark = pytest.mark.slow

TOOLS = {
    "read",
    "write",
    "edit",
    "search",
    "history",
    "diff",
    "backlinks",
    "show",
    "context",
    "blame",
    "search_history",
}


def run_session(db_path, script, *extra_args: str):
    """Start `doctree --db DB --owner a mcp`, run `script(client)` and return its result."""
    from mcp.client import Client
    from mcp.client.stdio import StdioServerParameters

    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "doctree", "--db", str(db_path), "--owner", "a", "mcp", *extra_args],
    )

    async def main():
        async with Client(params) as client:
            return await script(client)

    return anyio.run(main)


def text_of(result) -> str:
    return "".join(c.text for c in result.content)


@pytest.fixture
def seeded(db_path):
    with DocumentsRepository(db_path) as repo:
        repo.write("a", "~/memory/people/alice", "# Alice\nPrefers green tea.\n")
        repo.write("a", "~/memory/people/bob", "# Bob\nFriend of [[~/memory/people/alice]].\n")
        repo.write("a", "~/memory/people/alice", "# Alice\nPrefers black coffee.\n")
    return db_path


def test_server_lists_every_tool_each_described(db_path):
    async def script(client):
        return (await client.list_tools()).tools

    tools = run_session(db_path, script)

    assert {t.name for t in tools} == TOOLS
    assert all(len(t.description) > 40 for t in tools)
    write = next(t for t in tools if t.name == "write")
    assert {"path", "body", "content_sha256", "expected_version"} <= set(
        write.input_schema["properties"]
    )


def test_write_makes_a_version_recorded_with_the_server_actor(db_path):
    async def script(client):
        return await client.call_tool("write", {"path": "~/memory/todo", "body": "# Todo\n- tea\n"})

    result = run_session(db_path, script, "--actor-id", "claude-desktop")

    assert not result.is_error
    assert text_of(result).startswith("created ~/memory/todo version 1")
    with DocumentsRepository(db_path) as repo:
        (v,) = repo.history("a", "~/memory/todo")
        assert (v.actor, v.body) == ("agent:claude-desktop", "# Todo\n- tea\n")


def test_read_returns_metadata_and_body(seeded):
    async def script(client):
        return await client.call_tool("read", {"path": "~/memory/people/alice"})

    text = text_of(run_session(seeded, script))

    assert "version: 2\n" in text and "content_sha256: " in text
    assert text.endswith("---\n# Alice\nPrefers black coffee.\n")


def test_write_with_a_stale_sha256_is_a_tool_error_and_writes_nothing(seeded):
    async def script(client):
        return await client.call_tool(
            "write",
            {"path": "~/memory/people/alice", "body": "overwritten", "content_sha256": "0" * 64},
        )

    result = run_session(seeded, script)

    assert result.is_error and "conflict on '~/memory/people/alice'" in text_of(result)
    with DocumentsRepository(seeded) as repo:
        assert repo.read("a", "~/memory/people/alice").version == 2


def test_edit_replaces_exact_text(seeded):
    async def script(client):
        return await client.call_tool(
            "edit", {"path": "~/memory/people/alice", "old": "black coffee", "new": "oolong"}
        )

    result = run_session(seeded, script)

    assert text_of(result).startswith("edited ~/memory/people/alice version 3")
    with DocumentsRepository(seeded) as repo:
        assert repo.read("a", "~/memory/people/alice").body == "# Alice\nPrefers oolong.\n"


def test_search_finds_documents_with_snippets(seeded):
    async def script(client):
        return await client.call_tool("search", {"query": "coffee"})

    text = text_of(run_session(seeded, script))

    assert text.startswith("~/memory/people/alice  (title: Alice; version 2)")
    assert "[coffee]" in text


def test_history_and_diff_show_the_change(seeded):
    async def script(client):
        history = await client.call_tool("history", {"path": "~/memory/people/alice"})
        diff = await client.call_tool("diff", {"path": "~/memory/people/alice"})
        return text_of(history), text_of(diff)

    history, diff = run_session(seeded, script)

    assert [line.split()[0] for line in history.splitlines()] == ["v1", "v2"]
    assert "-Prefers green tea." in diff and "+Prefers black coffee." in diff


def test_backlinks_lists_referencing_documents(seeded):
    async def script(client):
        return await client.call_tool("backlinks", {"path": "~/memory/people/alice"})

    assert text_of(run_session(seeded, script)) == "~/memory/people/bob (body reference)"


def test_show_renders_the_tree(seeded):
    async def script(client):
        return await client.call_tool("show", {"path": "~/memory"})

    lines = text_of(run_session(seeded, script)).splitlines()

    assert [line.split()[0] for line in lines] == ["~/memory", "└──", "├──", "└──"]
    assert "alice" in lines[2] and "bob" in lines[3]


def test_served_subtree_confines_every_tool(seeded):
    async def script(client):
        return await client.call_tool("write", {"path": "~/secrets/x", "body": "x"})

    result = run_session(seeded, script, "--under", "~/memory")

    assert result.is_error
    assert "path '~/secrets/x': outside the served subtree '~/memory'" in text_of(result)


def test_context_returns_whole_documents_most_relevant_first(seeded):
    async def script(client):
        return text_of(await client.call_tool("context", {"query": "coffee", "cap": 4000}))

    text = run_session(seeded, script)

    assert text.index("Prefers black coffee.") < text.index("# Bob")
    assert "green tea" not in text  # the current version only


def test_context_with_a_cap_too_small_for_any_document_says_so(db_path):
    with DocumentsRepository(db_path) as repo:
        repo.write("a", "~/memory/long", "# Long\n" + "word " * 100)

    async def script(client):
        return text_of(await client.call_tool("context", {"cap": 100}))

    assert "fits within 100 characters" in run_session(db_path, script)


def test_search_by_meaning_finds_what_words_miss(db_path):
    with DocumentsRepository(db_path) as repo:
        repo.write("a", "~/memory/projects/apollo", "# Apollo\nThe launch moved to December 8.\n")
        repo.write("a", "~/memory/people/ann", "# Ann\nAnn keeps bees on the roof.\n")

    async def script(client):
        words = await client.call_tool(
            "search", {"query": "when is the release", "mode": "lexical"}
        )
        meaning = await client.call_tool(
            "search", {"query": "when is the release", "mode": "hybrid", "limit": 1}
        )
        default = await client.call_tool("search", {"query": "when is the release", "limit": 1})
        bad = await client.call_tool("search", {"query": "release", "mode": "fuzzy"})
        return text_of(words), text_of(meaning), text_of(default), bad

    words, meaning, default, bad = run_session(db_path, script)
    assert words.startswith("no documents")
    assert meaning.startswith("~/memory/projects/apollo")
    assert "December 8" in meaning
    assert default == meaning  # hybrid is the default (DEFAULT_MODE)
    assert bad.is_error and "mode" in text_of(bad)
