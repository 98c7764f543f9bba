"""docs/models.md: its doctree commands run as written, as real subprocesses, up to the HTTP
boundary: the documented base URLs point at a loopback fake of the chat-completions endpoint
on the documented path (/v1), which must receive the documented model's requests."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from doctree.interop.tools import MemoryTools
from doctree.llm.definitions import load_definition
from doctree.llm.model_clients import prompt_budget
from doctree.store.documents import DocumentsRepository
from tests.fakes.chat_completions import FakeChatServer, call, chat

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "models.md"
DOCUMENTED_HOSTS = ("http://localhost:11434", "http://localhost:8080")


def sections() -> dict[str, list[str]]:
    """The shell lines of each `## ` section's sh code blocks."""
    out: dict[str, list[str]] = {}
    title = ""
    for part in re.split(r"^## ", DOC.read_text(encoding="utf-8"), flags=re.M)[1:]:
        title = part.splitlines()[0].strip()
        blocks = re.findall(r"```sh\n(.*?)```", part, re.S)
        out[title] = [
            ln.split("  #")[0].strip() for b in blocks for ln in b.splitlines() if ln.strip()
        ]
    return out


def reads_then_finishes(request: dict) -> dict:
    """A stand-in model: read ~/memory, then finish once a tool result is in."""
    if request["messages"][-1]["role"] == "tool":
        return chat("Nothing new worth keeping beyond what is there.")
    return chat(None, call("document_read", {"path": "~/memory"}))


@pytest.mark.slow
@pytest.mark.parametrize("section", ["Ollama", "llama.cpp's server"])
def test_the_documented_commands_reach_the_server_on_the_documented_path(section, tmp_path):
    lines = sections()[section]
    commands = [ln for ln in lines if ln.startswith("doctree ")]
    assert any(c.startswith("doctree replay ") for c in commands)
    assert any(c.startswith("doctree worker ") for c in commands)
    with FakeChatServer(reads_then_finishes) as srv:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "DOCTREE_"))}
        env |= {"DOCTREE_DB": str(tmp_path / "memory.db"), "ANTHROPIC_API_KEY": ""}

        def local(text: str) -> str:
            for host in DOCUMENTED_HOSTS:
                text = text.replace(host, srv.base_url)
            return text

        for line in lines:
            if line.startswith("export "):
                name, _, value = line[len("export ") :].partition("=")
                env[name] = local(value)
        for command in commands:
            args = shlex.split(local(command))
            if args[1] == "worker":
                args.append("--once")  # the documented worker runs until stopped
            done = subprocess.run(
                [sys.executable, "-m", "doctree", *args[1:]],
                cwd=ROOT,
                env=env,
                capture_output=True,
                text=True,
                timeout=120,
            )
            assert done.returncode == 0, f"{command}\n{done.stdout}\n{done.stderr}"
            if args[1] == "replay":
                assert "(openai, completed, end_turn)" in done.stdout, done.stdout
        model = re.search(r"--backend openai:(\S+)", commands[0]).group(1)
        assert srv.requests, "no request reached the server"
        assert {r.body["model"] for r in srv.requests} == {model}
        assert srv.failures == []


def test_the_documented_prompt_budget_is_the_one_the_code_computes():
    d = load_definition()
    tools = MemoryTools(DocumentsRepository(":memory:"), "main", allowed=d.tools).definitions()
    budget = prompt_budget(d.system_prompt(), tools, d.openai.max_response_tokens)
    text = " ".join(DOC.read_text(encoding="utf-8").split())
    assert f"needs **{budget.total:,} tokens**" in text
    assert (
        f"system prompt {budget.system:,} + tool definitions {budget.tools:,} + reply "
        f"{budget.reply:,} + room for the transcript and the first tool results {budget.room:,}"
    ) in text
    assert (
        f"| {d.openai.context_window} |" in text
        or f"`openai.context_window`: {d.openai.context_window}" in text
    )


@pytest.mark.slow
def test_a_window_too_small_is_refused_on_the_command_line_with_the_budget(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "DOCTREE_"))}
    env |= {"DOCTREE_DB": str(tmp_path / "memory.db"), "OPENAI_BASE_URL": "http://127.0.0.1:9/v1"}
    transcript = ROOT / "tests" / "fixtures" / "transcripts" / "07-corrections.md"
    done = subprocess.run(
        [sys.executable, "-m", "doctree", "replay", "--backend", "openai:tiny",
         "--context-window", "4096", str(transcript)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "context window of 4,096 tokens cannot hold" in done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout == ""  # nothing replayed
