"""The memory agent's document tools: results, errors, and confinement to ~/memory."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from doctree.interop.tools import MemoryTools
from doctree.llm.definitions import TOOL_NAMES
from doctree.store.documents import Actor


@pytest.fixture
def tools(repo):
    return MemoryTools(repo, "main", session_id="s-1", run_id=7)


def test_definitions_list_every_tool_with_a_schema(tools):
    defs = tools.definitions()
    assert [d["name"] for d in defs] == list(TOOL_NAMES)
    for d in defs:
        assert d["description"]
        assert d["input_schema"]["type"] == "object"
        assert d["input_schema"]["additionalProperties"] is False


def test_no_schema_has_an_owner_field(tools):
    for d in tools.definitions():
        assert not {"owner", "agent"} & set(d["input_schema"]["properties"])


def test_read_of_missing_root_says_memory_is_empty(tools):
    result = tools.call("document_read", {"path": "~/memory"})
    assert not result.is_error
    assert "memory is empty" in result.content


def test_write_creates_a_page_with_memory_agent_actor_session_and_run(tools, repo):
    result = tools.call("document_write", {"path": "~/memory/people/alice", "body": "# Alice\n"})
    assert not result.is_error, result.content
    v = repo.history("main", "~/memory/people/alice")[-1]
    assert (v.actor_kind, v.actor_id, v.session_id, v.run_id) == ("memory-agent", "main", "s-1", 7)


def test_parents_created_by_a_write_carry_the_run(tools, repo):
    tools.call("document_write", {"path": "~/memory/people/alice", "body": "# Alice\n"})
    assert repo.history("main", "~/memory/people")[-1].run_id == 7


def test_read_shows_numbered_body_children_and_backlinks(tools, repo):
    repo.write("main", "~/memory/people/alice", "# Alice\n\nLikes tea.\n")
    repo.write(
        "main", "~/memory/projects/apollo", "# Apollo\n\nLed by [[~/memory/people/alice]].\n"
    )
    repo.write("main", "~/memory/people/alice/notes", "# Notes\n")
    content = tools.call("document_read", {"path": "~/memory/people/alice"}).content
    assert "1\t# Alice" in content
    assert "3\tLikes tea." in content
    assert "~/memory/people/alice/notes" in content
    assert "~/memory/projects/apollo (body)" in content


def test_read_of_an_earlier_version(tools, repo):
    repo.write("main", "~/memory/active", "# Active\n\nold\n")
    repo.write("main", "~/memory/active", "# Active\n\nnew\n")
    content = tools.call("document_read", {"path": "~/memory/active", "version": 1}).content
    assert "old" in content and "an earlier version" in content


def test_read_of_missing_page_is_an_error_that_suggests_search(tools):
    result = tools.call("document_read", {"path": "~/memory/nobody"})
    assert result.is_error
    assert "document_search" in result.content


def test_write_with_stale_expected_version_is_a_conflict_and_writes_nothing(tools, repo):
    repo.write("main", "~/memory/active", "# Active\n")
    repo.write("main", "~/memory/active", "# Active\n\nmore\n")
    result = tools.call(
        "document_write", {"path": "~/memory/active", "body": "x", "expected_version": 1}
    )
    assert result.is_error
    assert "expected version 1" in result.content
    assert repo.read("main", "~/memory/active").version == 2


def test_write_with_expected_version_zero_refuses_an_existing_page(tools, repo):
    repo.write("main", "~/memory/active", "# Active\n")
    result = tools.call(
        "document_write", {"path": "~/memory/active", "body": "x", "expected_version": 0}
    )
    assert result.is_error


def test_same_body_again_reports_unchanged(tools):
    tools.call("document_write", {"path": "~/memory/a", "body": "# A\n"})
    result = tools.call("document_write", {"path": "~/memory/a", "body": "# A\n"})
    assert result.content.startswith("unchanged")


def test_edit_replaces_an_exact_string(tools, repo):
    repo.write("main", "~/memory/people/bob", "# Bob\n\nLives in Munich.\n")
    result = tools.call(
        "document_edit",
        {"path": "~/memory/people/bob", "old_string": "Munich", "new_string": "Berlin"},
    )
    assert not result.is_error, result.content
    assert "Berlin" in repo.read("main", "~/memory/people/bob").body


def test_edit_of_absent_string_is_an_error(tools, repo):
    repo.write("main", "~/memory/people/bob", "# Bob\n")
    result = tools.call(
        "document_edit", {"path": "~/memory/people/bob", "old_string": "Paris", "new_string": "x"}
    )
    assert result.is_error and "not found" in result.content


def test_search_is_scoped_to_memory(tools, repo):
    repo.write("main", "~/notes/secret", "# Secret\n\nzebra\n")
    repo.write("main", "~/memory/zoo", "# Zoo\n\nzebra\n")
    content = tools.call("document_search", {"query": "zebra"}).content
    assert "~/memory/zoo" in content
    assert "~/notes/secret" not in content


def test_move_within_memory(tools, repo):
    repo.write("main", "~/memory/old", "# Old\n")
    result = tools.call(
        "document_move", {"path": "~/memory/old", "new_path": "~/memory/archive/2026-W47/old"}
    )
    assert not result.is_error, result.content
    assert repo.exists("main", "~/memory/archive/2026-W47/old")


def test_delete_within_memory(tools, repo):
    repo.write("main", "~/memory/junk", "# Junk\n")
    assert not tools.call("document_delete", {"path": "~/memory/junk"}).is_error
    assert not repo.exists("main", "~/memory/junk")


def test_memory_root_cannot_be_deleted(tools, repo):
    repo.write("main", "~/memory/a", "# A\n")
    result = tools.call("document_delete", {"path": "~/memory", "recursive": True})
    assert result.is_error
    assert repo.exists("main", "~/memory/a")


def test_unknown_tool_is_an_error_naming_the_tools(tools):
    result = tools.call("shell", {"cmd": "rm -rf /"})
    assert result.is_error and "document_read" in result.content


def test_missing_field_is_an_error_naming_it(tools):
    result = tools.call("document_write", {"path": "~/memory/a"})
    assert result.is_error and "body" in result.content


def test_wrong_type_is_an_error(tools):
    result = tools.call("document_write", {"path": "~/memory/a", "body": 42})
    assert result.is_error and "body" in result.content


def test_an_owner_field_is_refused(tools, repo):
    result = tools.call("document_write", {"path": "~/memory/a", "body": "x", "owner": "other"})
    assert result.is_error and "unknown field" in result.content
    assert repo.owners() == []


BAD_PATHS = [
    "~/memory/../notes/x",
    "~/memory/./x",
    "~/notes/x",
    "~/other/memory/x",
    "~",
    "/etc/passwd",
    "/memories/x",
    "memory/x",
    "../x",
    "~other/memory/x",
    "~/memory\x00/x",
    "~/memoryx/y",
    "~/Memory/x/../../y",
    "",
]


@pytest.mark.parametrize("bad", BAD_PATHS)
def test_write_outside_memory_is_refused_and_writes_nothing(tools, repo, bad):
    result = tools.call("document_write", {"path": bad, "body": "pwned"})
    assert result.is_error
    assert repo.owners() == []


@pytest.mark.parametrize("bad", BAD_PATHS)
def test_read_outside_memory_is_refused(tools, repo, bad):
    repo.write("main", "~/notes/x", "# Private\n\nsecret\n")
    repo.write("other", "~/memory/x", "# Other agent\n\nsecret\n")
    result = tools.call("document_read", {"path": bad})
    assert result.is_error
    assert "secret" not in result.content


@pytest.mark.parametrize("bad", BAD_PATHS)
def test_move_out_of_memory_is_refused(tools, repo, bad):
    repo.write("main", "~/memory/a", "# A\n")
    result = tools.call("document_move", {"path": "~/memory/a", "new_path": bad})
    assert result.is_error
    assert repo.exists("main", "~/memory/a")


@pytest.mark.parametrize("bad", BAD_PATHS)
def test_delete_outside_memory_is_refused(tools, repo, bad):
    repo.write("main", "~/notes/x", "# Notes\n")
    result = tools.call("document_delete", {"path": bad, "recursive": True})
    assert result.is_error
    assert repo.exists("main", "~/notes/x")


def test_search_under_another_tree_is_refused(tools, repo):
    repo.write("main", "~/notes/x", "# Notes\n\nzebra\n")
    result = tools.call("document_search", {"query": "zebra", "under": "~/notes"})
    assert result.is_error


def test_links_outside_memory_are_refused(tools, repo):
    result = tools.call(
        "document_write", {"path": "~/memory/a", "body": "x", "links": ["~/notes/x"]}
    )
    assert result.is_error
    assert repo.owners() == []


def test_another_agents_memory_is_unreachable(repo):
    repo.write("other", "~/memory/secret", "# Secret\n\nthe code is 1234\n")
    tools = MemoryTools(repo, "main")
    assert tools.call("document_read", {"path": "~/memory/secret"}).is_error
    assert tools.call("document_search", {"query": "code"}).content.startswith("no pages")
    tools.call("document_write", {"path": "~/memory/secret", "body": "overwritten"})
    assert "1234" in repo.read("other", "~/memory/secret").body


def test_every_call_is_recorded_with_what_it_changed(tools):
    tools.call("document_write", {"path": "~/memory/a", "body": "# A\n"})
    tools.call("document_read", {"path": "~/nope"})
    assert [(c.name, c.is_error, c.changed) for c in tools.calls] == [
        ("document_write", False, ["~/memory/a"]),
        ("document_read", True, []),
    ]


def test_actor_is_memory_agent_of_the_owner(tools):
    assert tools.actor == Actor("memory-agent", "main")


_SEGMENTS = st.sampled_from(
    ["memory", "..", ".", "~", "", "other", "notes", "a", "x.y", "-", "ops", "\x00", "/", " "]
)


@pytest.mark.slow
@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    prefix=st.sampled_from(["~/", "/", "", "~", "../", "~/memory/", "~other/"]),
    segments=st.lists(_SEGMENTS, max_size=6),
    tool=st.sampled_from(["document_write", "document_delete", "document_move"]),
)
def test_no_path_reaches_outside_the_owners_memory(repo, prefix, segments, tool):
    """Whatever the path, a change lands at or below ~/memory of the source agent, or nowhere."""
    path = prefix + "/".join(segments)
    tools = MemoryTools(repo, "main")
    if not repo.exists("main", "~/memory/seed"):
        repo.write("main", "~/memory/seed", "# Seed\n")
        repo.write("main", "~/notes/keep", "# Keep\n")
        repo.write("ops", "~/memory/keep", "# Keep\n")
    inputs = {
        "document_write": {"path": path, "body": "x"},
        "document_delete": {"path": path, "recursive": True},
        "document_move": {"path": "~/memory/seed", "new_path": path},
    }
    before = len(repo.log(None, limit=None))
    tools.call(tool, inputs[tool])
    for v in repo.log(None, limit=None)[: len(repo.log(None, limit=None)) - before]:
        assert v.owner == "main"
        assert v.path == "~/memory" or v.path.startswith("~/memory/")
    assert repo.exists("main", "~/notes/keep") and repo.exists("ops", "~/memory/keep")
    if not repo.exists("main", "~/memory/seed"):
        repo.write("main", "~/memory/seed", "# Seed\n")


def test_a_tool_not_offered_is_refused(repo):
    repo.write("main", "~/memory/a", "# A\n")
    tools = MemoryTools(repo, "main", allowed=["document_read", "document_write"])
    assert [d["name"] for d in tools.definitions()] == ["document_read", "document_write"]
    result = tools.call("document_delete", {"path": "~/memory/a"})
    assert result.is_error and "document_read, document_write" in result.content
    assert repo.exists("main", "~/memory/a")
