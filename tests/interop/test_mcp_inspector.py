"""`doctree mcp` driven by a third-party client: the official MCP Inspector CLI
(npm `@modelcontextprotocol/inspector`, `--cli`), which `make mcp-inspector` (a step of
`make test`) installs into .node/. Skipped, with one line saying why, where node or the
Inspector is not installed; tests/interop/test_mcp.py and tests/interop/test_mcp_resources.py cover the same
behaviour with the Python `mcp` client."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from doctree.interop.mcp_server import TOOL_SPECS
from doctree.store.documents import DocumentsRepository

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
INSPECTOR = ROOT / ".node" / "node_modules" / ".bin" / "mcp-inspector"

if shutil.which("node") is None:
    pytest.skip("node is not installed: the MCP Inspector CLI cannot run", allow_module_level=True)
if not INSPECTOR.exists():
    pytest.skip(
        "the MCP Inspector CLI is not installed: run `make mcp-inspector`", allow_module_level=True
    )


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("inspector") / "doctree.db"
    with DocumentsRepository(path) as repo:
        repo.write("main", "~/memory/people/alice", "# Alice\n\nAlice prefers green tea.\n")
        repo.write("main", "~/memory/people/zoë", "# Zoë\n\nZoë leads the Apollo launch.\n")
    return path


def inspect(db: Path, method: str, *args: str, tool_error: bool = False) -> dict:
    """One request through the Inspector to `python -m doctree --db DB mcp`; its JSON answer.
    The Inspector exits 5 for a tool result marked as an error (`tool_error`)."""
    command = [str(INSPECTOR), "--cli", sys.executable, "-m", "doctree", "--db", str(db), "mcp"]
    result = subprocess.run(
        [*command, "--method", method, *args], capture_output=True, text=True, timeout=180
    )
    assert result.returncode == (5 if tool_error else 0), result.stderr + result.stdout
    return json.loads(result.stdout)


def test_the_inspector_lists_every_tool(db):
    tools = inspect(db, "tools/list")["tools"]
    assert [t["name"] for t in tools] == list(TOOL_SPECS)
    context = next(t for t in tools if t["name"] == "context")
    assert {"query", "cap", "words", "under"} <= set(context["inputSchema"]["properties"])


def test_the_inspector_lists_and_reads_documents_as_resources(db):
    listed = inspect(db, "resources/list")["resources"]
    templates = inspect(db, "resources/templates/list")["resourceTemplates"]
    read = inspect(db, "resources/read", "--uri", "doctree:///~/memory/people/zo%C3%AB")
    assert "doctree:///~/memory/people/alice" in [r["uri"] for r in listed]
    assert [t["uriTemplate"] for t in templates] == ["doctree:///{path}"]
    assert read["contents"][0]["text"] == "# Zoë\n\nZoë leads the Apollo launch.\n"


def test_the_inspector_gets_the_recall_prompt(db):
    prompts = inspect(db, "prompts/list")["prompts"]
    got = inspect(
        db, "prompts/get", "--prompt-name", "recall", "--prompt-args", "question=Who leads Apollo?"
    )
    assert [p["name"] for p in prompts] == ["recall"]
    assert "Zoë leads the Apollo launch." in got["messages"][0]["content"]["text"]


def test_the_inspector_calls_context_in_passage_mode_and_gets_clean_errors(db):
    words = inspect(
        db, "tools/call", "--tool-name", "context", "--tool-arg", "query=green tea", "words=20"
    )
    missing = inspect(
        db,
        "tools/call",
        "--tool-name",
        "read",
        "--tool-arg",
        "path=~/memory/nobody",
        tool_error=True,
    )
    assert not words["isError"] and "Alice prefers green tea." in words["content"][0]["text"]
    assert missing["isError"]
    (line,) = missing["content"][0]["text"].splitlines()
    assert "~/memory/nobody" in line and "not found" in line
