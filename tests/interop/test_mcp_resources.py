"""MCP beyond tools: the tree as resources, the `recall` prompt, and `context` with the same
arguments at every door. Driven by the `mcp` package's own client over stdio against a real
`python -m doctree mcp` subprocess (tests/interop/test_mcp_inspector.py drives the same server with
the official MCP Inspector CLI where node is installed)."""

from __future__ import annotations

import sys

import anyio
import pytest
from click.testing import CliRunner

from doctree.cli import cli
from doctree.memory.context import load_context
from doctree.store.documents import DocumentsRepository

pytestmark = pytest.mark.slow


def run_session(db_path, script, *extra_args: str):
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


@pytest.fixture
def seeded(db_path):
    with DocumentsRepository(db_path) as repo:
        repo.write("a", "~/memory/people/alice", "# Alice\n\nAlice prefers green tea.\n")
        repo.write("a", "~/memory/people/zoë", "# Zoë\n\nZoë leads the Apollo launch.\n")
        repo.write("a", "~/memory/projects/apollo", "# Apollo\n\nThe launch is on 2026-12-01.\n")
        repo.write("a", "~/private/diary", "# Diary\n\nNot for the memory server.\n")
    return db_path


def test_every_document_is_listed_as_a_resource(seeded):
    async def script(client):
        return (await client.list_resources()).resources

    resources = run_session(seeded, script)

    uris = [str(r.uri) for r in resources]
    assert "doctree:///~/memory/people/alice" in uris
    assert "doctree:///~/memory/people/zo%C3%AB" in uris
    assert "doctree:///~/private/diary" in uris
    alice = next(r for r in resources if r.name == "~/memory/people/alice")
    assert (alice.title, alice.mime_type, alice.description) == (
        "Alice",
        "text/markdown",
        "version 1",
    )
    assert uris == sorted(uris, key=lambda u: next(r.name for r in resources if str(r.uri) == u))


def test_a_served_subtree_lists_and_reads_only_its_own_documents(seeded):
    async def script(client):
        listed = [r.name for r in (await client.list_resources()).resources]
        try:
            await client.read_resource("doctree:///~/private/diary")
        except Exception as e:  # the SDK raises the JSON-RPC error
            refused = str(e)
        else:
            refused = ""
        return listed, refused

    listed, refused = run_session(seeded, script, "--under", "~/memory")

    assert "~/private/diary" not in listed and "~/memory/people/alice" in listed
    assert "outside the served subtree" in refused


def test_a_resource_reads_as_the_documents_markdown_body(seeded):
    async def script(client):
        plain = await client.read_resource("doctree:///~/memory/people/alice")
        accented = await client.read_resource("doctree:///~/memory/people/zo%C3%AB")
        return plain.contents[0], accented.contents[0]

    plain, accented = run_session(seeded, script)

    assert plain.text == "# Alice\n\nAlice prefers green tea.\n"
    assert plain.mime_type == "text/markdown"
    assert accented.text.startswith("# Zoë")


def test_the_template_reads_any_path_and_a_missing_one_is_a_clear_error(seeded):
    async def script(client):
        templates = (await client.list_resource_templates()).resource_templates
        errors = []
        for uri in ("doctree:///~/memory/nobody", "file:///etc/passwd", "doctree:///~/../x"):
            try:
                await client.read_resource(uri)
            except Exception as e:
                errors.append(str(e))
        return templates, errors

    templates, errors = run_session(seeded, script)

    assert [t.uri_template for t in templates] == ["doctree:///{path}"]
    missing, scheme, dots = errors
    assert "resource not found" in missing and "~/memory/nobody" in missing
    assert "must start with 'doctree:///'" in scheme
    assert "'..'" in dots


def test_the_recall_prompt_loads_the_memory_that_bears_on_the_question(seeded):
    async def script(client):
        prompts = (await client.list_prompts()).prompts
        got = await client.get_prompt("recall", {"question": "Who leads the Apollo launch?"})
        passages = await client.get_prompt(
            "recall", {"question": "Who leads the Apollo launch?", "words": "40"}
        )
        try:
            await client.get_prompt("recall", {})
        except Exception as e:
            missing = str(e)
        return prompts, got, passages, missing

    prompts, got, passages, missing = run_session(seeded, script)

    (recall,) = prompts
    assert recall.name == "recall"
    assert [(a.name, a.required) for a in recall.arguments] == [
        ("question", True),
        ("words", False),
    ]
    text = got.messages[0].content.text
    assert got.messages[0].role == "user"
    assert "Zoë leads the Apollo launch." in text and text.endswith("Who leads the Apollo launch?")
    assert "Not for the memory server" not in text  # only ~/memory is loaded
    assert "Zoë leads the Apollo launch." in passages.messages[0].content.text
    assert "question: is required" in missing


def test_context_takes_the_same_arguments_at_every_door(seeded):
    question = "Who leads the Apollo launch?"
    with DocumentsRepository(seeded) as repo:
        library = load_context(repo, "a", query=question, words=30)
        library_docs = load_context(repo, "a", query=question, cap=4000)
    cli_out = CliRunner().invoke(
        cli, ["--db", str(seeded), "--owner", "a", "context", "--query", question, "--words", "30"]
    )

    async def script(client):
        words = await client.call_tool("context", {"query": question, "words": 30})
        docs = await client.call_tool("context", {"query": question, "cap": 4000})
        both = await client.call_tool("context", {"query": question, "words": 30, "cap": 100})
        alone = await client.call_tool("context", {"words": 30})
        return words, docs, both, alone

    words, docs, both, alone = run_session(seeded, script)

    assert "Zoë leads the Apollo launch." in library
    assert words.content[0].text == library == cli_out.output.rstrip("\n")
    assert docs.content[0].text == library_docs
    assert both.is_error and "cap 100 and words 30: give one" in both.content[0].text
    assert alone.is_error and "passage mode needs query" in alone.content[0].text


def test_a_listening_client_hears_of_changes_made_through_the_server(seeded):
    alice = "doctree:///~/memory/people/alice"

    async def script(client):
        events = []
        async with client.listen(
            resources_list_changed=True, resource_subscriptions=[alice]
        ) as sub:
            await client.call_tool(
                "write", {"path": "~/memory/people/alice", "body": "# Alice\n\nCoffee now.\n"}
            )
            await client.call_tool(  # the same body again: no version, no event
                "write", {"path": "~/memory/people/alice", "body": "# Alice\n\nCoffee now.\n"}
            )
            await client.call_tool("write", {"path": "~/memory/people/carol", "body": "# Carol"})
            await client.call_tool("read", {"path": "~/memory/people/alice"})
            with anyio.move_on_after(10):
                async for event in sub:
                    events.append(event)
                    if len(events) == 2:
                        break
            with anyio.move_on_after(0.5):  # nothing else arrives
                async for event in sub:
                    events.append(event)
        return events

    events = run_session(seeded, script)

    assert [type(e).__name__ for e in events] == ["ResourceUpdated", "ResourcesListChanged"]
    assert events[0].uri == alice
