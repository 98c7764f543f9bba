"""The Anthropic memory tool backed by the tree: through the SDK's real tool runner over real
HTTP to the loopback fake of the Messages API, and command for command against the SDK's own
file-system implementation."""

from __future__ import annotations

import re

import anthropic
import pytest
from anthropic.lib.tools import ToolError
from anthropic.lib.tools._beta_builtin_memory_tool import BetaLocalFilesystemMemoryTool

from doctree.interop.memory_tool import DoctreeMemoryTool, MemoryCommands
from doctree.store.documents import Actor
from tests.fakes.messages_api import (
    FakeMessagesServer,
    Scripted,
    message,
    text_block,
    tool_use_block,
)

OWNER = "a"


def memory_call(input: dict, id: str) -> dict:
    return message(tool_use_block("memory", input, id=id))


def run_model(tool: DoctreeMemoryTool, script: list[dict]) -> tuple[object, FakeMessagesServer]:
    """Run the SDK's tool runner against a scripted fake model; return the final message."""
    with FakeMessagesServer(Scripted(script)) as fake:
        client = anthropic.Anthropic(api_key="test-key", base_url=fake.base_url, max_retries=0)
        runner = client.beta.messages.tool_runner(
            model="claude-sonnet-4-6",
            max_tokens=1024,
            messages=[{"role": "user", "content": "Remember that I prefer tea."}],
            tools=[tool],
        )
        final = runner.until_done()
    assert fake.failures == []
    return final, fake


def tool_results(fake: FakeMessagesServer) -> list[dict]:
    """Every tool_result block the SDK sent back to the fake, in order."""
    out = []
    for req in fake.requests:
        last = req.body["messages"][-1]
        if last["role"] == "user" and isinstance(last["content"], list):
            out += [b for b in last["content"] if b.get("type") == "tool_result"]
    return out


def result_text(block: dict) -> str:
    content = block["content"]
    return content if isinstance(content, str) else "".join(c["text"] for c in content)


# -- through the SDK's tool runner ----------------------------------------------------------------


@pytest.mark.slow
def test_model_remembers_through_the_tool_runner(repo):
    tool = DoctreeMemoryTool(repo, OWNER, session_id="s1")
    final, fake = run_model(
        tool,
        [
            memory_call({"command": "view", "path": "/memories"}, "t1"),
            memory_call(
                {
                    "command": "create",
                    "path": "/memories/prefs.md",
                    "file_text": "- drinks: coffee\n",
                },
                "t2",
            ),
            memory_call(
                {
                    "command": "str_replace",
                    "path": "/memories/prefs.md",
                    "old_str": "coffee",
                    "new_str": "tea",
                },
                "t3",
            ),
            message(text_block("Noted: you prefer tea.")),
        ],
    )

    assert final.content[0].text == "Noted: you prefer tea."
    assert repo.read(OWNER, "~/memory/prefs.md").body == "- drinks: tea\n"
    assert [result_text(b) for b in tool_results(fake)][1:] == [
        "File created successfully at: /memories/prefs.md",
        "The memory file has been edited. Here is the snippet showing the change (with line "
        "numbers):\n     1\t- drinks: tea\n     2\t",
    ]


def test_request_declares_the_memory_tool_type(repo):
    _, fake = run_model(DoctreeMemoryTool(repo, OWNER), [message(text_block("ok"))])

    assert fake.requests[0].body["tools"] == [{"type": "memory_20250818", "name": "memory"}]


def test_tool_error_reaches_the_model_as_an_error_result(repo):
    _, fake = run_model(
        DoctreeMemoryTool(repo, OWNER),
        [
            memory_call({"command": "view", "path": "/memories/../../etc/passwd"}, "t1"),
            message(text_block("I cannot read that.")),
        ],
    )

    (result,) = tool_results(fake)
    assert result["is_error"] is True
    assert result_text(result) == "Path /memories/../../etc/passwd would escape /memories directory"


def test_every_change_is_a_version_with_actor_session_and_run(repo):
    tool = DoctreeMemoryTool(
        repo, OWNER, actor=Actor("memory-agent", "mem-a"), session_id="s9", run_id=7
    )
    run_model(
        tool,
        [
            memory_call(
                {"command": "create", "path": "/memories/a.md", "file_text": "one\n"}, "t1"
            ),
            memory_call(
                {
                    "command": "insert",
                    "path": "/memories/a.md",
                    "insert_line": 1,
                    "insert_text": "two",
                },
                "t2",
            ),
            memory_call(
                {"command": "rename", "old_path": "/memories/a.md", "new_path": "/memories/b.md"},
                "t3",
            ),
            memory_call({"command": "delete", "path": "/memories/b.md"}, "t4"),
            message(text_block("done")),
        ],
    )

    history = repo.history(OWNER, "~/memory/b.md")
    assert [(v.operation, v.actor, v.session_id, v.run_id) for v in history] == [
        ("created", "memory-agent:mem-a", "s9", 7),
        ("modified", "memory-agent:mem-a", "s9", 7),
        ("moved", "memory-agent:mem-a", "s9", 7),
        ("deleted", "memory-agent:mem-a", "s9", 7),
    ]
    assert history[1].body == "one\ntwo\n"


# -- the same answers as the SDK's file-system implementation ------------------------------------

SCRIPT = [
    {"command": "view", "path": "/memories"},
    {"command": "create", "path": "/memories/notes.md", "file_text": "a\nb\nc\n"},
    {"command": "create", "path": "/memories/notes.md", "file_text": "again"},
    {"command": "create", "path": "/memories/proj/progress.xml", "file_text": "<p/>"},
    {"command": "create", "path": "/memories/proj/deep/er/x.md", "file_text": "deep"},
    {"command": "view", "path": "/memories"},
    {"command": "view", "path": "/memories/proj"},
    {"command": "view", "path": "/memories/notes.md"},
    {"command": "view", "path": "/memories/notes.md", "view_range": [2, 3]},
    {"command": "view", "path": "/memories/notes.md", "view_range": [2, -1]},
    {"command": "view", "path": "/memories/missing.md"},
    {"command": "str_replace", "path": "/memories/notes.md", "old_str": "b", "new_str": "B"},
    {"command": "str_replace", "path": "/memories/notes.md", "old_str": "zz", "new_str": "y"},
    {"command": "str_replace", "path": "/memories/notes.md", "old_str": "\n", "new_str": "y"},
    {"command": "str_replace", "path": "/memories/proj", "old_str": "a", "new_str": "b"},
    {"command": "str_replace", "path": "/memories/missing", "old_str": "a", "new_str": "b"},
    {"command": "insert", "path": "/memories/notes.md", "insert_line": 0, "insert_text": "top\n"},
    {"command": "insert", "path": "/memories/notes.md", "insert_line": 9, "insert_text": "x"},
    {"command": "insert", "path": "/memories/missing", "insert_line": 0, "insert_text": "x"},
    {"command": "rename", "old_path": "/memories/proj", "new_path": "/memories/project"},
    {"command": "rename", "old_path": "/memories/gone", "new_path": "/memories/x"},
    {"command": "rename", "old_path": "/memories/notes.md", "new_path": "/memories/project"},
    {"command": "rename", "old_path": "/memories", "new_path": "/memories/x"},
    {"command": "view", "path": "/memories/../etc/passwd"},
    {"command": "view", "path": "/etc/passwd"},
    {"command": "delete", "path": "/memories"},
    {"command": "delete", "path": "/memories/gone"},
    {"command": "delete", "path": "/memories/project"},
    {"command": "view", "path": "/memories"},
    {"command": "view", "path": "/memories/notes.md"},
]

_DIR_LINE = re.compile(r"^\d+(?:\.\d)?[BK]\t(/memories(?:/\S+/)?)$", re.M)


def answer(tool, command: dict) -> str:
    try:
        return "ok: " + tool.call(command)
    except ToolError as e:
        return "error: " + str(e)


def same_dir_sizes(text: str) -> str:
    """A directory's own size depends on the file system; the tree always shows 4K."""
    return _DIR_LINE.sub(lambda m: f"4K\t{m.group(1)}", text)


@pytest.mark.parametrize("step", range(len(SCRIPT)))
def test_answers_match_the_sdk_file_system_tool(repo, tmp_path, step):
    fs = BetaLocalFilesystemMemoryTool(str(tmp_path / "fs"))
    tree = DoctreeMemoryTool(repo, OWNER)
    for command in SCRIPT[:step]:  # bring both to the same state
        answer(fs, command)
        answer(tree, command)

    command = SCRIPT[step]
    assert answer(tree, command) == same_dir_sizes(answer(fs, command))


def test_view_of_a_file_with_a_body_and_children_lists_it_as_a_directory(repo):
    repo.write(OWNER, "~/memory/people", "# People\n")
    repo.write(OWNER, "~/memory/people/alice", "Alice")

    out = DoctreeMemoryTool(repo, OWNER).call({"command": "view", "path": "/memories/people"})

    assert out.splitlines()[1:] == ["4K\t/memories/people", "5B\t/memories/people/alice"]


def test_a_name_that_is_not_a_slug_is_refused_with_the_rule(repo):
    tool = DoctreeMemoryTool(repo, OWNER)

    with pytest.raises(
        ToolError, match=r"Path /memories/my notes.md is invalid: segment 'my notes.md'"
    ):
        tool.call({"command": "create", "path": "/memories/my notes.md", "file_text": "x"})
    assert repo.documents(OWNER) == []


def test_stale_edit_is_refused_and_the_newer_body_kept(repo):
    tool = DoctreeMemoryTool(repo, OWNER)
    tool.call({"command": "create", "path": "/memories/a.md", "file_text": "v1"})

    class Racing(MemoryCommands):
        def _file(self, path, doc_path):
            doc = super()._file(path, doc_path)
            repo.write(OWNER, doc_path, "v1 changed elsewhere")
            return doc

    racing = DoctreeMemoryTool(repo, OWNER)
    racing.commands = Racing(
        repo, OWNER, root="~/memory", actor=racing.actor, session_id=None, run_id=None
    )
    with pytest.raises(ToolError, match="The memory changed while this command ran"):
        racing.call(
            {"command": "str_replace", "path": "/memories/a.md", "old_str": "v1", "new_str": "v2"}
        )
    assert repo.read(OWNER, "~/memory/a.md").body == "v1 changed elsewhere"


def test_clear_all_memory_deletes_as_versions(repo):
    tool = DoctreeMemoryTool(repo, OWNER)
    tool.call({"command": "create", "path": "/memories/a.md", "file_text": "x"})

    assert tool.clear_all_memory() == "All memory cleared"
    assert repo.children(OWNER, "~/memory") == []
    assert [v.operation for v in repo.history(OWNER, "~/memory/a.md")] == ["created", "deleted"]


def test_create_below_a_file_is_refused(repo):
    tool = DoctreeMemoryTool(repo, OWNER)
    tool.call({"command": "create", "path": "/memories/a.md", "file_text": "text"})

    with pytest.raises(ToolError, match="The path /memories/a.md is a file, not a directory"):
        tool.call({"command": "create", "path": "/memories/a.md/b/c.md", "file_text": "x"})
    assert [d.path for d in repo.documents(OWNER)] == ["~/memory", "~/memory/a.md"]


def test_async_tool_remembers_through_the_async_tool_runner(repo):
    import anyio

    from doctree.interop.memory_tool import AsyncDoctreeMemoryTool

    script = [
        memory_call({"command": "create", "path": "/memories/a.md", "file_text": "tea\n"}, "t1"),
        message(text_block("Saved.")),
    ]

    async def main():
        with FakeMessagesServer(Scripted(script)) as fake:
            client = anthropic.AsyncAnthropic(api_key="k", base_url=fake.base_url, max_retries=0)
            runner = client.beta.messages.tool_runner(
                model="claude-sonnet-4-6",
                max_tokens=256,
                messages=[{"role": "user", "content": "Remember tea."}],
                tools=[AsyncDoctreeMemoryTool(repo, OWNER)],
            )
            return await runner.until_done(), tool_results(fake)

    final, results = anyio.run(main)

    assert final.content[0].text == "Saved."
    assert result_text(results[0]) == "File created successfully at: /memories/a.md"
    assert repo.read(OWNER, "~/memory/a.md").body == "tea\n"


def test_the_offline_example_in_the_integration_doc_runs_as_written(tmp_path, monkeypatch):
    import contextlib
    import io
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "integration.md").read_text()
    offline = doc[doc.index("**Offline, without an API key.**") :]
    start = offline.index("```python\n") + 10
    code = offline[start : offline.index("\n```", start)]
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "integration.md", "exec"), {})
    assert out.getvalue() == "Noted: you prefer tea.\n- drinks: tea\n\n"
