"""Path traversal through every door (memory tool, MCP, CLI, import, export): `../`, absolute
paths, symlinks out of an imported folder and NUL bytes are refused with a clear error, and
nothing is written."""

from __future__ import annotations

import os
import sys

import anyio
import pytest
from anthropic.lib.tools import ToolError
from click.testing import CliRunner

from doctree.cli import cli
from doctree.errors import PathError, UserError
from doctree.interop.exchange import export_tree, import_tree
from doctree.interop.memory_tool import DoctreeMemoryTool
from doctree.store.documents import DocumentsRepository

OWNER = "a"


def nothing_written(repo: DocumentsRepository) -> bool:
    return repo.log(None, limit=None) == []


# -- the memory tool -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "error"),
    [
        ("/memories/../secret.md", "Path /memories/../secret.md would escape /memories directory"),
        ("/memories/a/../../x.md", "Path /memories/a/../../x.md would escape /memories directory"),
        ("/etc/passwd", "Path must start with /memories, got: /etc/passwd"),
        ("memories/x.md", "Path must start with /memories, got: memories/x.md"),
        ("/memoriesx/y.md", "Path must start with /memories, got: /memoriesx/y.md"),
        ("/memories/a\x00b.md", "NUL bytes are not allowed in a path"),
    ],
)
def test_memory_tool_refuses_traversal_and_writes_nothing(repo, path, error):
    tool = DoctreeMemoryTool(repo, OWNER)

    with pytest.raises(ToolError) as e:
        tool.call({"command": "create", "path": path, "file_text": "x"})

    assert error in str(e.value)
    assert nothing_written(repo)


def test_memory_tool_refuses_renaming_out_of_memories(repo):
    tool = DoctreeMemoryTool(repo, OWNER)
    tool.call({"command": "create", "path": "/memories/a.md", "file_text": "x"})

    with pytest.raises(ToolError, match="would escape /memories directory"):
        tool.call(
            {"command": "rename", "old_path": "/memories/a.md", "new_path": "/memories/../a.md"}
        )
    assert [d.path for d in repo.documents(OWNER)] == ["~/memory", "~/memory/a.md"]


# -- the MCP server, over real stdio --------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    ("path", "error"),
    [
        ("~/memory/../x", "path '~/memory/../x': '..' is not allowed in a path"),
        ("/etc/passwd", "path '/etc/passwd': absolute paths are not allowed"),
        ("~/a\x00b", "NUL bytes are not allowed in a path"),
    ],
)
def test_mcp_write_refuses_traversal_and_writes_nothing(db_path, path, error):
    from mcp.client import Client
    from mcp.client.stdio import StdioServerParameters

    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "doctree", "--db", str(db_path), "--owner", OWNER, "mcp"],
    )

    async def main():
        async with Client(params) as client:
            return await client.call_tool("write", {"path": path, "body": "x"})

    result = anyio.run(main)

    assert result.is_error and error in result.content[0].text
    with DocumentsRepository(db_path) as repo:
        assert nothing_written(repo)


# -- the CLI -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "error"),
    [
        ("~/memory/../x", "'..' is not allowed in a path"),
        ("/etc/passwd", "absolute paths are not allowed"),
        ("~/a\x00b", "NUL bytes are not allowed in a path"),
    ],
)
def test_cli_write_refuses_traversal_with_a_one_line_error(db_path, path, error):
    result = CliRunner().invoke(cli, ["--db", str(db_path), "write", path], input="x")

    assert result.exit_code == 2
    assert result.output.startswith("error: path ") and error in result.output
    with DocumentsRepository(db_path) as repo:
        assert nothing_written(repo)


# -- import --------------------------------------------------------------------------------------


@pytest.fixture
def vault(tmp_path):
    d = tmp_path / "vault"
    d.mkdir()
    (d / "ok.md").write_text("fine")
    return d


def test_import_refuses_a_symlinked_file_pointing_outside(repo, vault, tmp_path):
    (tmp_path / "secret.txt").write_text("secret")
    os.symlink(tmp_path / "secret.txt", vault / "evil.md")

    with pytest.raises(
        UserError, match=r"'evil.md': is a symlink to .*outside the imported folder"
    ):
        import_tree(repo, OWNER, vault)
    assert nothing_written(repo)


def test_import_refuses_a_symlinked_folder_pointing_outside(repo, vault, tmp_path):
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "x.md").write_text("x")
    os.symlink(tmp_path / "elsewhere", vault / "sub")

    with pytest.raises(UserError, match="'sub': is a symlink to .*outside the imported folder"):
        import_tree(repo, OWNER, vault)
    assert nothing_written(repo)


def test_import_skips_a_symlink_inside_the_folder_without_following_it(repo, vault):
    os.symlink(vault / "ok.md", vault / "alias.md")

    report = import_tree(repo, OWNER, vault)

    assert report.created == ["~/ok"]
    assert report.skipped == [("alias.md", "symlink inside the import; not followed")]


@pytest.mark.parametrize(
    ("under", "error"),
    [
        ("~/../x", "'..' is not allowed in a path"),
        ("/tmp", "absolute paths are not allowed"),
        ("~/a\x00b", "NUL bytes are not allowed in a path"),
    ],
)
def test_import_refuses_a_bad_destination(repo, vault, under, error):
    with pytest.raises(PathError, match=error):
        import_tree(repo, OWNER, vault, under=under)
    assert nothing_written(repo)


def test_import_refuses_a_frontmatter_link_with_dotdot(repo, vault):
    (vault / "x.md").write_text("---\nid: 1\nversion: 1\nupdated: now\nlinks: [~/../etc]\n---\nx")

    with pytest.raises(UserError, match="frontmatter link: path '~/../etc'"):
        import_tree(repo, OWNER, vault)
    assert nothing_written(repo)


# -- export --------------------------------------------------------------------------------------


def test_export_refuses_to_write_through_a_symlinked_folder(repo, tmp_path):
    repo.write(OWNER, "~/memory/x", "x")
    out, outside = tmp_path / "out", tmp_path / "outside"
    out.mkdir()
    outside.mkdir()
    os.symlink(outside, out / "memory")

    with pytest.raises(UserError, match="is a symlink; refusing to write through it"):
        export_tree(repo, OWNER, "~/memory", out)
    assert list(outside.iterdir()) == []


def test_export_refuses_to_overwrite_through_a_symlinked_file(repo, tmp_path):
    repo.write(OWNER, "~/notes", "x")
    out, target = tmp_path / "out", tmp_path / "victim.txt"
    out.mkdir()
    target.write_text("keep me")
    os.symlink(target, out / "notes.md")

    with pytest.raises(UserError, match="is a symlink; refusing to write through it"):
        export_tree(repo, OWNER, "~/notes", out)
    assert target.read_text() == "keep me"
