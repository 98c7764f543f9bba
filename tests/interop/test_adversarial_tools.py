"""Attacks on the three doors of the one tool layer: the memory agent's tools
(`MemoryTools.call`), the MCP server (its tools object, and the server itself in-process through
the `mcp` client) and the Anthropic memory-tool backend (`DoctreeMemoryTool.run` / `call`).

Hypothesis throws arbitrary JSON at them — wrong types, lone surrogates, integers past 2^63,
paths that climb out, YAML frontmatter nested 30,000 deep — and every call must come back as
a result (an error result for a bad call), never an exception, and nothing may be written
outside the surface's subtree or owner.
"""

from __future__ import annotations

import contextlib

import anyio
import pytest
from anthropic.lib.tools import ToolError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from doctree.interop.mcp_server import TOOL_SPECS as MCP_SPECS
from doctree.interop.mcp_server import DoctreeTools, build_server, server_version
from doctree.interop.memory_tool import COMMAND_SPECS, DoctreeMemoryTool
from doctree.interop.toolkit import MAX_NUMBER, ToolResult
from doctree.interop.tools import TOOL_SPECS, MemoryTools
from doctree.store.documents import DocumentsRepository
from doctree.store.paths import is_under

OWNER = "a"
DEEP = "---\nx: " + "[" * 30_000 + "\n---\nbody\n"
FUZZ = settings(
    max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None
)

segments = st.sampled_from(["people", "alice", "..", ".", "", "x.md", "Ünï", "a b", "\x00", "~"])
surrogate = st.sampled_from(["\ud800", "a\udfffb", "\udc80x"])


@st.composite
def paths(draw, roots=("~/memory", "~", "~/other", "/memories", "/etc", "memory", "")):
    root = draw(st.sampled_from(roots))
    parts = draw(st.lists(st.one_of(segments, surrogate, st.text(max_size=8)), max_size=4))
    return "/".join([root, *parts]) if parts else root


scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**80), max_value=2**80),
    st.sampled_from([2**63, 2**70, -(2**63) - 1, MAX_NUMBER, MAX_NUMBER + 1, 0, 1, -1]),
    st.floats(allow_nan=True),
    st.text(max_size=20),
    surrogate,
    st.just(DEEP),
    paths(),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)


slug = st.sampled_from(["people", "alice", "bob", "projects", "notes.md", "a", "log"])


def good_paths(root: str = "~/memory"):
    return st.builds(lambda parts: "/".join([root, *parts]), st.lists(slug, max_size=3))


words = st.one_of(st.text(max_size=30), st.sampled_from(["alice", "tea", "# Alice\nlikes tea\n"]))
numbers = st.one_of(
    st.integers(min_value=0, max_value=5), st.sampled_from([2**63, 2**70, MAX_NUMBER + 1, -1])
)
TYPED = {
    "body": words,
    "file_text": words,
    "title": words,
    "query": words,
    "old_string": words,
    "new_string": words,
    "old": words,
    "new": words,
    "old_str": words,
    "new_str": words,
    "insert_text": words,
    "links": st.lists(st.one_of(good_paths(), paths()), max_size=3),
    "version": numbers,
    "expected_version": numbers,
    "limit": numbers,
    "depth": numbers,
    "cap": st.one_of(numbers, st.just(4000)),
    "from_version": numbers,
    "to_version": numbers,
    "insert_line": numbers,
    "view_range": st.lists(numbers, min_size=2, max_size=2),
    "replace_all": st.booleans(),
    "recursive": st.booleans(),
    "content_sha256": words,
}
PATH_FIELDS = ("path", "new_path", "old_path", "under")


def mostly(usual, rare, odds: int):
    """`usual` `odds` times out of `odds + 1`, else `rare` (one_of would weigh them alike)."""
    return st.integers(0, odds).flatmap(lambda k: usual if k < odds else rare)


def field_value(field: str, root: str):
    """Mostly a value of the field's own type (so calls reach the store), sometimes anything."""
    typed = good_paths(root) if field in PATH_FIELDS else TYPED.get(field, values)
    hostile = st.one_of(paths(), values, surrogate, st.just(DEEP))
    return mostly(typed, hostile, 5)


def inputs(model, root: str = "~/memory"):
    """Dicts over a tool's own fields (the required ones always there), sometimes with an
    unknown field, sometimes not a dict at all."""
    fields = {f: i for f, i in model.model_fields.items() if f != "command"}
    good = st.fixed_dictionaries(
        {f: field_value(f, root) for f, i in fields.items() if i.is_required()},
        optional={f: field_value(f, root) for f, i in fields.items() if not i.is_required()},
    )
    extra = st.dictionaries(st.sampled_from([*fields, "owner", "root"]), values, max_size=3)
    return mostly(good, st.one_of(extra, values), 5)


class _Unknown:
    model_fields: dict = {}


def seeded(repo: DocumentsRepository) -> DocumentsRepository:
    """Pages the generated paths name, so that edits, moves and deletes find something."""
    for path in ("~/memory/people/alice", "~/memory/people/bob", "~/memory/a", "~/memory/log"):
        repo.write(OWNER, path, f"# {path.rsplit('/', 1)[1]}\nalice likes tea\n")
    repo.write(OWNER, "~/notes/private", "# Private\n")
    return repo


def all_versions(repo: DocumentsRepository):
    return repo.log(None, limit=None)


def assert_confined(repo: DocumentsRepository, owner: str, root: str, seen=frozenset()) -> None:
    """Every version not in `seen` (the seed) is the owner's, at or below root; so is every
    declared link; the page outside root is untouched."""
    for v in all_versions(repo):
        if v.id not in seen:
            assert v.owner == owner and is_under(v.path, root), (v.owner, v.path)
    assert repo.read(OWNER, "~/notes/private").version == 1
    for d in repo.documents(owner, with_links=True):
        for link in d.links:
            assert is_under(link, root), (d.path, link)


# -- the memory agent's tools -------------------------------------------------------------------

memory_calls = mostly(
    st.sampled_from(list(TOOL_SPECS)), st.sampled_from(["shell", "x "]), 8
).flatmap(
    lambda name: st.tuples(
        st.just(name),
        inputs(TOOL_SPECS[name].input if name in TOOL_SPECS else _Unknown),
    )
)


@pytest.mark.slow
@FUZZ
@given(calls=st.lists(memory_calls, min_size=1, max_size=6))
def test_memory_tools_return_results_and_stay_in_memory(tmp_path_factory, calls):
    repo = seeded(DocumentsRepository(tmp_path_factory.mktemp("m") / "t.db"))
    try:
        seen = {v.id for v in all_versions(repo)}
        tools = MemoryTools(repo, OWNER)
        for name, input in calls:
            result = tools.call(name, input)
            assert isinstance(result, ToolResult)
            assert "\n" not in result.content or not result.is_error
        assert_confined(repo, OWNER, "~/memory", seen)
    finally:
        repo.close()


@pytest.mark.parametrize(
    ("name", "input", "expected"),
    [
        ("document_read", {"path": "~/memory", "version": 2**70}, "less than or equal to"),
        ("document_read", {"path": "~/memory/people/alice", "version": 2**63}, "less than"),
        ("document_write", {"path": "~/memory/x", "body": DEEP}, "frontmatter nested too deep"),
        ("document_write", {"path": "~/memory/\ud800", "body": "x"}, "is not UTF-8 text"),
        ("document_write", {"path": "~/memory/x", "body": "\ud800"}, "body: is not UTF-8"),
        (
            "document_edit",
            {"path": "~/memory/x", "old_string": "a", "new_string": "\udfff"},
            "UTF-8",
        ),
        ("document_search", {"query": "x", "limit": 2**64}, "less than or equal to 50"),
        ("document_write", {"path": "~/memory/x", "body": "x", "links": ["~/notes/p"]}, "links[0]"),
        (
            "document_move",
            {"path": "~/memory/x", "new_path": "~/memory/y", "expected_version": 2**70},
            "less",
        ),
    ],
)
def test_memory_tools_refuse_each_known_attack_with_an_error_result(repo, name, input, expected):
    tools = MemoryTools(repo, OWNER)
    result = tools.call(name, input)
    assert result.is_error and expected in result.content, result.content
    assert "\n" not in result.content
    assert all_versions(repo) == []  # nothing written
    assert tools.calls[-1].is_error and tools.calls[-1].changed == []


# -- MCP ------------------------------------------------------------------------------------------

mcp_calls = mostly(st.sampled_from(list(MCP_SPECS)), st.just("delete"), 8).flatmap(
    lambda name: st.tuples(
        st.just(name),
        inputs(MCP_SPECS[name].input if name in MCP_SPECS else _Unknown),
    )
)


@pytest.mark.slow
@FUZZ
@given(calls=st.lists(mcp_calls, min_size=1, max_size=6))
def test_mcp_tools_return_one_line_errors_and_stay_under_the_served_subtree(
    tmp_path_factory, calls
):
    repo = seeded(DocumentsRepository(tmp_path_factory.mktemp("p") / "t.db"))
    try:
        seen = {v.id for v in all_versions(repo)}
        tools = DoctreeTools(repo, OWNER, under="~/memory")
        for name, input in calls:
            result = tools.call(name, input)
            assert isinstance(result, ToolResult)
            if result.is_error:
                assert "\n" not in result.content and "pydantic.dev" not in result.content
        assert_confined(repo, OWNER, "~/memory", seen)
    finally:
        repo.close()


def _with_client(db, script, under="~/memory"):
    from mcp.client import Client

    repo = DocumentsRepository(db)
    server = build_server(DoctreeTools(repo, OWNER, under=under))

    async def main():
        async with Client(server) as client:
            return await script(client)

    try:
        return anyio.run(main)
    finally:
        repo.close()


@pytest.mark.slow
def test_mcp_server_in_process_survives_a_hostile_session(db_path):
    hostile = [
        ("read", {"path": "~/memory", "version": 2**70}),
        ("diff", {"path": "~/memory/x", "from_version": 2**64, "to_version": 2**63}),
        ("write", {"path": "~/memory/x", "body": "x", "links": ["~/secrets/key"]}),
        ("write", {"path": "~/memory/x", "body": DEEP}),
        ("write", {"path": "~/memory/x", "body": 7}),
        ("write", {"path": "~/memory/\ud800", "body": "x"}),
        ("search", {"query": "x", "limit": "10"}),
        ("show", {"depth": 2**70}),
        ("context", {"cap": 10**30}),
        ("nope", {}),
        ("edit", {"path": "~/../etc/passwd", "old": "a", "new": "b"}),
    ]

    async def script(client):
        info = client.server_info
        results = [await client.call_tool(name, args) for name, args in hostile]
        ok = await client.call_tool("write", {"path": "~/memory/ok", "body": "# Ok\n"})
        return info, results, ok

    info, results, ok = _with_client(db_path, script)
    assert info.version == server_version() != ""
    for (name, _), r in zip(hostile, results, strict=True):
        text = "".join(c.text for c in r.content)
        assert r.is_error, (name, text)
        assert "\n" not in text and "pydantic" not in text, text
    assert not ok.is_error  # the session still works
    with DocumentsRepository(db_path) as repo:
        assert [d.path for d in repo.documents(OWNER)] == ["~/memory", "~/memory/ok"]


def test_mcp_write_confines_declared_links_to_the_served_subtree(db_path):
    async def script(client):
        bad = await client.call_tool(
            "write", {"path": "~/memory/x", "body": "x", "links": ["~/memory/y", "~/secrets/k"]}
        )
        good = await client.call_tool(
            "write", {"path": "~/memory/x", "body": "x", "links": ["~/memory/y"]}
        )
        return bad, good

    bad, good = _with_client(db_path, script)
    assert bad.is_error
    assert "links[1] '~/secrets/k': outside the served subtree '~/memory'" in bad.content[0].text
    assert not good.is_error
    with DocumentsRepository(db_path) as repo:
        assert repo.read(OWNER, "~/memory/x").links == ["~/memory/y"]


def test_mcp_context_defaults_to_memory_like_the_cli(db_path):
    with DocumentsRepository(db_path) as repo:
        repo.write(OWNER, "~/memory/tea", "# Tea\nPrefers green tea.\n")
        repo.write(OWNER, "~/notes/todo", "# Todo\nBuy green tea.\n")

    async def script(client):
        served_home = await client.call_tool("context", {"query": "tea"})
        return "".join(c.text for c in served_home.content)

    text = _with_client(db_path, script, under="~")
    assert "Prefers green tea." in text and "Buy green tea." not in text


# -- the memory-tool backend --------------------------------------------------------------------

command_inputs = mostly(
    st.sampled_from(list(COMMAND_SPECS)), st.sampled_from(["clear", 5]), 8
).flatmap(
    lambda name: inputs(
        COMMAND_SPECS[name].input if name in COMMAND_SPECS else _Unknown, "/memories"
    ).map(lambda d: {"command": name, **d} if isinstance(d, dict) else d)
)


@pytest.mark.slow
@FUZZ
@given(commands=st.lists(mostly(command_inputs, values, 8), min_size=1, max_size=6))
def test_memory_tool_backend_never_raises_but_tool_errors_and_stays_in_memory(
    tmp_path_factory, commands
):
    repo = seeded(DocumentsRepository(tmp_path_factory.mktemp("t") / "t.db"))
    try:
        seen = {v.id for v in all_versions(repo)}
        tool = DoctreeMemoryTool(repo, OWNER)
        for command in commands:
            result = tool.run(command)
            assert isinstance(result, ToolResult)
            with contextlib.suppress(ToolError):  # the SDK's entry point raises only ToolError
                tool.call(command)
        assert_confined(repo, OWNER, "~/memory", seen)
    finally:
        repo.close()


@pytest.mark.parametrize(
    ("input", "expected"),
    [
        ({"command": "view", "path": "/memories", "view_range": [1, 2**70]}, "view_range.1"),
        (
            {"command": "insert", "path": "/memories/a", "insert_line": 2**64, "insert_text": "x"},
            "insert_line",
        ),
        (
            {"command": "create", "path": "/memories/a.md", "file_text": DEEP},
            "frontmatter nested too deep",
        ),
        ({"command": "create", "path": "/memories/\ud800", "file_text": "x"}, "not UTF-8"),
        (
            {"command": "create", "path": "/memories/\u0430lice.md", "file_text": "x"},
            "mixes the letters of two alphabets",
        ),
        ({"command": "create", "path": "/memories/a.md", "file_text": ["x"]}, "file_text"),
        ({"command": "launch", "path": "/memories"}, "Unknown command: launch"),
        ({"path": "/memories"}, "command"),
    ],
)
def test_memory_tool_backend_refuses_each_known_attack(repo, input, expected):
    tool = DoctreeMemoryTool(repo, OWNER)
    result = tool.run(input)
    assert result.is_error and expected in result.content, result.content
    with pytest.raises(ToolError):
        tool.call(input)
    assert all_versions(repo) == []
