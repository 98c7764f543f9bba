"""The Anthropic memory tool (`memory_20250818`) backed by the document tree.

`/memories/...` maps to an owner's `~/memory/...`; a file is a document, a directory is a
document with children (the root `/memories` always is one). Results and error strings follow
the SDK's own `BetaLocalFilesystemMemoryTool`, so a model sees no difference, but every change
is a version with its actor, and search, links and history come with it.

Where a tree differs from a file system: a directory left empty (its last file deleted) shows
as an empty file, since a document without children is a file; a name must be a path segment
(letters, digits, '-', '_', '.'), or the call is refused with the path rule it broke.
"""

from __future__ import annotations

import threading
from typing import Annotated, Any, Literal

from anthropic.lib.tools import BetaAbstractMemoryTool, BetaAsyncAbstractMemoryTool, ToolError
from anthropic.types.beta import (
    BetaMemoryTool20250818CreateCommand,
    BetaMemoryTool20250818DeleteCommand,
    BetaMemoryTool20250818InsertCommand,
    BetaMemoryTool20250818RenameCommand,
    BetaMemoryTool20250818StrReplaceCommand,
    BetaMemoryTool20250818ViewCommand,
)
from pydantic import ConfigDict, Field

from doctree.arguments import MAX_NUMBER
from doctree.errors import ConflictError, DoctreeError, PathError
from doctree.interop.toolkit import Scope, ToolInput, ToolResult, ToolSet, ToolSpec
from doctree.store.documents import Actor, Document, DocumentsRepository, Provenance, TreeNode
from doctree.store.paths import ancestors, is_under, normalize_path

MEMORY_DIR = "/memories"
MAX_LINES = 999999
LINE_NUMBER_WIDTH = len(str(MAX_LINES))
DIR_SIZE = "4K"  # how the SDK shows a directory's own size (4096 bytes) on a typical file system


def format_file_size(n: int) -> str:
    """Sizes as the SDK's file-system tool shows them: 0B, 512B, 1.5K, 2M."""
    if n == 0:
        return "0B"
    units = ["B", "K", "M", "G"]
    i = min((n.bit_length() - 1) // 10, len(units) - 1)
    size = n / (1024**i)
    return f"{int(size)}{units[i]}" if size == int(size) else f"{size:.1f}{units[i]}"


def _split_lines_keeping_cr(content: str) -> list[str]:
    lines = content.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


# -- the commands' inputs (validated on the one tool layer; the API defines their schema) ----


class _Command(ToolInput):
    # The API defines these inputs and may grow them: unknown fields are ignored, not errors.
    model_config = ConfigDict(extra="ignore", strict=True)


_Line = Annotated[int, Field(ge=-1, le=MAX_NUMBER)]


class ViewInput(_Command):
    command: Literal["view"] = "view"
    path: str
    view_range: list[_Line] | None = None


class CreateInput(_Command):
    command: Literal["create"] = "create"
    path: str
    file_text: str


class StrReplaceInput(_Command):
    command: Literal["str_replace"] = "str_replace"
    path: str
    old_str: str
    new_str: str


class InsertInput(_Command):
    command: Literal["insert"] = "insert"
    path: str
    insert_line: int = Field(le=MAX_NUMBER)
    insert_text: str


class DeleteInput(_Command):
    command: Literal["delete"] = "delete"
    path: str


class RenameInput(_Command):
    command: Literal["rename"] = "rename"
    old_path: str
    new_path: str


COMMAND_SPECS: dict[str, ToolSpec] = {
    spec.name: spec
    for spec in (
        ToolSpec("view", "Show a directory listing or a file with line numbers.", ViewInput),
        ToolSpec("create", "Create a file.", CreateInput),
        ToolSpec("str_replace", "Replace a unique string in a file.", StrReplaceInput),
        ToolSpec("insert", "Insert text after a line of a file.", InsertInput),
        ToolSpec("delete", "Delete a file or directory.", DeleteInput),
        ToolSpec("rename", "Rename or move a file or directory.", RenameInput),
    )
}


class MemoryCommands(ToolSet):
    """The memory tool's commands on the one tool layer: `/memories/...` is confined to the
    scope's root, and every failure is an error result in the SDK's own wording."""

    SPECS = COMMAND_SPECS
    ONE_LINE = False  # the SDK's wording quotes old_str verbatim, newlines included

    def __init__(
        self,
        repo: DocumentsRepository,
        owner: str,
        *,
        root: str,
        actor: Actor,
        session_id: str | None,
        run_id: int | None,
    ):
        super().__init__(Scope(owner, root, noun="the memory directory"))
        self.repo = repo
        self.owner = owner
        self.root = self.scope.root
        self.actor = actor
        self.session_id = session_id
        self.run_id = run_id
        self.provenance = Provenance(actor, session_id, run_id)  # recorded on every write

    def error_text(self, e: Exception) -> str:
        if isinstance(e, ToolError):
            return str(e)
        if isinstance(e, ConflictError):
            return f"The memory changed while this command ran; view it again. ({e})"
        return super().error_text(e)

    def parse(self, name: str, input: object) -> ToolInput:
        if isinstance(name, str) and name not in self.SPECS:
            raise ToolError(f"Unknown command: {name}")
        return super().parse(name, input)

    # -- paths -----------------------------------------------------------------------------

    def doc_path(self, path: object) -> str:
        """The document path for a `/memories/...` path; ToolError for anything else."""
        if not isinstance(path, str) or not path.startswith(MEMORY_DIR):
            raise ToolError(f"Path must start with /memories, got: {path}")
        rest = path[len(MEMORY_DIR) :]
        if rest and not rest.startswith("/"):
            raise ToolError(f"Path must start with /memories, got: {path}")
        if "\x00" in path:
            raise ToolError(f"Path {path!r} is invalid: NUL bytes are not allowed in a path")
        stack: list[str] = []
        for seg in rest.split("/"):
            if seg in ("", "."):
                continue
            if seg == "..":
                if not stack:
                    raise ToolError(f"Path {path} would escape /memories directory")
                stack.pop()
            else:
                stack.append(seg)
        if not stack:
            return self.root
        try:
            normalize_path(self.root + "/" + "/".join(stack))
        except PathError as e:
            raise ToolError(f"Path {path} is invalid: {e.rule}") from None
        return self.scope.path(self.root + "/" + "/".join(stack))

    def _is_dir(self, doc_path: str) -> bool:
        return doc_path == self.root or bool(self.repo.children(self.owner, doc_path))

    def _file(self, path: str, doc_path: str) -> Document:
        """The document behind a file path, or the SDK's errors for a missing path or a folder."""
        doc = self.repo.get(self.owner, doc_path)
        if doc is None and doc_path != self.root:
            raise ToolError(f"The path {path} does not exist. Please provide a valid path.")
        if doc is None or self._is_dir(doc_path):
            raise ToolError(f"The path {path} is not a file.")
        return doc

    def _check_parent_is_dir(self, path: str, doc_path: str) -> None:
        """Refuse to create below a file: a document with a body and no children."""
        for anc in ancestors(doc_path):
            if not is_under(anc, self.root) or anc == self.root:
                continue
            doc = self.repo.get(self.owner, anc)
            if doc is None:
                return
            if doc.body and not self._is_dir(anc):
                shown = MEMORY_DIR + anc[len(self.root) :]
                raise ToolError(f"The path {shown} is a file, not a directory")

    def _write(self, doc_path: str, body: str, **kwargs: Any) -> Document:
        return self.repo.write(
            self.owner,
            doc_path,
            body,
            provenance=self.provenance,
            **kwargs,
        )

    # -- commands --------------------------------------------------------------------------

    def tool_view(self, command: ViewInput) -> str:
        path = command.path
        doc_path = self.doc_path(path)
        if doc_path != self.root and not self.repo.exists(self.owner, doc_path):
            raise ToolError(f"The path {path} does not exist. Please provide a valid path.")
        if self._is_dir(doc_path):
            items: list[tuple[str, str]] = []
            try:
                roots = self.repo.tree(self.owner, doc_path, depth=3)
            except DoctreeError:
                roots = []

            def collect(node: TreeNode, relative: str, depth: int) -> None:
                if depth > 2:
                    return
                for child in sorted(node.children, key=lambda c: c.path.rsplit("/", 1)[1]):
                    name = child.path.rsplit("/", 1)[1]
                    rel = f"{relative}/{name}" if relative else name
                    if child.children:
                        items.append((DIR_SIZE, f"{rel}/"))
                        if depth < 2:
                            collect(child, rel, depth + 1)
                    else:
                        items.append((format_file_size(child.size), rel))

            if roots:
                collect(roots[0], "", 1)
            header = (
                f"Here're the files and directories up to 2 levels deep in {path}, "
                "excluding hidden items:"
            )
            lines = [f"{DIR_SIZE}\t{path}"] + [f"{size}\t{path}/{rel}" for size, rel in items]
            return f"{header}\n" + "\n".join(lines)
        content = self.repo.read(self.owner, doc_path).body
        lines = content.split("\n")
        if len(lines) > MAX_LINES:
            raise ToolError(f"File {path} exceeds maximum line limit of 999,999 lines.")
        display, start = lines, 1
        if command.view_range and len(command.view_range) == 2:
            first = max(1, command.view_range[0]) - 1
            end = len(lines) if command.view_range[1] == -1 else command.view_range[1]
            display, start = lines[first:end], first + 1
        numbered = [
            f"{str(i + start).rjust(LINE_NUMBER_WIDTH)}\t{line}" for i, line in enumerate(display)
        ]
        return f"Here's the content of {path} with line numbers:\n" + "\n".join(numbered)

    def tool_create(self, command: CreateInput) -> str:
        doc_path = self.doc_path(command.path)
        if doc_path == self.root or self.repo.exists(self.owner, doc_path):
            raise ToolError(f"File {command.path} already exists")
        self._check_parent_is_dir(command.path, doc_path)
        self._write(doc_path, command.file_text, expected_version=0)
        return f"File created successfully at: {command.path}"

    def tool_str_replace(self, command: StrReplaceInput) -> str:
        path, old, new = command.path, command.old_str, command.new_str
        doc = self._file(path, self.doc_path(path))
        content = doc.body
        count = content.count(old)
        if count == 0:
            raise ToolError(
                f"No replacement was performed, old_str `{old}` did not appear verbatim in {path}."
            )
        if count > 1:
            matching, start = [], 0
            while (pos := content.find(old, start)) != -1:
                matching.append(content[:pos].count("\n") + 1)
                start = pos + 1
            raise ToolError(
                f"No replacement was performed. Multiple occurrences of old_str `{old}` in lines: "
                f"{', '.join(map(str, matching))}. Please ensure it is unique"
            )
        changed_line = content[: content.find(old)].count("\n")
        new_content = content.replace(old, new)
        self._write(doc.path, new_content, content_sha256=doc.content_sha256)
        new_lines = new_content.split("\n")
        lo, hi = max(0, changed_line - 2), min(len(new_lines), changed_line + 3)
        snippet = [
            f"{str(n).rjust(LINE_NUMBER_WIDTH)}\t{new_lines[n - 1]}" for n in range(lo + 1, hi + 1)
        ]
        return (
            "The memory file has been edited. Here is the snippet showing the change "
            "(with line numbers):\n" + "\n".join(snippet)
        )

    def tool_insert(self, command: InsertInput) -> str:
        doc = self._file(command.path, self.doc_path(command.path))
        lines = _split_lines_keeping_cr(doc.body)
        if command.insert_line < 0 or command.insert_line > len(lines):
            raise ToolError(
                f"Invalid `insert_line` parameter: {command.insert_line}. "
                f"It should be within the range [0, {len(lines)}]."
            )
        lines.insert(command.insert_line, command.insert_text.rstrip("\n"))
        new_content = "\n".join(lines)
        if not new_content.endswith("\n"):
            new_content += "\n"
        self._write(doc.path, new_content, content_sha256=doc.content_sha256)
        return f"The file {command.path} has been edited."

    def tool_delete(self, command: DeleteInput) -> str:
        doc_path = self.doc_path(command.path)
        if doc_path == self.root:
            raise ToolError("Cannot delete the /memories directory itself")
        if not self.repo.exists(self.owner, doc_path):
            raise ToolError(f"The path {command.path} does not exist")
        self.repo.delete(
            self.owner,
            doc_path,
            recursive=True,
            provenance=self.provenance,
        )
        return f"Successfully deleted {command.path}"

    def tool_rename(self, command: RenameInput) -> str:
        old_path = self.doc_path(command.old_path)
        new_path = self.doc_path(command.new_path)
        if old_path == self.root:
            raise ToolError("Cannot rename the /memories directory itself")
        if new_path == self.root or self.repo.exists(self.owner, new_path):
            raise ToolError(f"The destination {command.new_path} already exists")
        if not self.repo.exists(self.owner, old_path):
            raise ToolError(f"The path {command.old_path} does not exist")
        self._check_parent_is_dir(command.new_path, new_path)
        self.repo.move(
            self.owner,
            old_path,
            new_path,
            provenance=self.provenance,
        )
        return f"Successfully renamed {command.old_path} to {command.new_path}"


class DoctreeMemoryTool(BetaAbstractMemoryTool):
    """`BetaAbstractMemoryTool` over `repo`: `/memories` is `root` (default `~/memory`) of `owner`.

    Each change is written as `actor` (default: the agent itself), with `session_id` and
    `run_id` when given, so the history says who remembered what, and when. Every command
    goes through the one tool layer (`MemoryCommands`): `run(input)` returns a `ToolResult`
    and never raises; the SDK's entry points (`call`, `view`, `create`, ...) raise only the
    SDK's `ToolError`, which its tool runner turns into an error result for the model.
    """

    def __init__(
        self,
        repo: DocumentsRepository,
        owner: str,
        *,
        root: str = "~/memory",
        actor: Actor | None = None,
        session_id: str | None = None,
        run_id: int | None = None,
        **kwargs: Any,
    ):
        super().__init__(**kwargs)
        self.repo = repo
        self.owner = owner
        self.actor = actor or Actor("agent", owner)
        self.session_id = session_id
        self.run_id = run_id
        self.commands = MemoryCommands(
            repo, owner, root=root, actor=self.actor, session_id=session_id, run_id=run_id
        )
        self.root = self.commands.root
        self._lock = threading.Lock()

    def doc_path(self, path: object) -> str:
        """The document path for a `/memories/...` path; ToolError for anything else."""
        return self.commands.doc_path(path)

    def run(self, input: object) -> ToolResult:
        """One command (the tool's JSON input) as a result; never raises."""
        name = input.get("command") if isinstance(input, dict) else None
        if not isinstance(name, str):
            return ToolResult("Missing or invalid `command` in the memory tool input", True)
        with self._lock:
            return self.commands.call(name, input)

    def _result(self, input: object) -> str:
        result = self.run(input)
        if result.is_error:
            raise ToolError(result.content)
        return result.content

    def call(self, input: object) -> str:
        return self._result(input)

    def execute(self, command: Any) -> str:
        return self._result(_as_input(command))

    def view(self, command: BetaMemoryTool20250818ViewCommand) -> str:
        return self._result(_as_input(command))

    def create(self, command: BetaMemoryTool20250818CreateCommand) -> str:
        return self._result(_as_input(command))

    def str_replace(self, command: BetaMemoryTool20250818StrReplaceCommand) -> str:
        return self._result(_as_input(command))

    def insert(self, command: BetaMemoryTool20250818InsertCommand) -> str:
        return self._result(_as_input(command))

    def delete(self, command: BetaMemoryTool20250818DeleteCommand) -> str:
        return self._result(_as_input(command))

    def rename(self, command: BetaMemoryTool20250818RenameCommand) -> str:
        return self._result(_as_input(command))

    def clear_all_memory(self) -> str:
        """Delete everything under the root (as versions: the history keeps it), in one
        transaction; a failure is a ToolError and deletes nothing."""

        def clear() -> str:
            with self.repo.transaction():
                for child in (
                    self.repo.children(self.owner, self.root)
                    if self.repo.exists(self.owner, self.root)
                    else []
                ):
                    self.repo.delete(
                        self.owner,
                        child.path,
                        recursive=True,
                        provenance=self.commands.provenance,
                    )
            return "All memory cleared"

        with self._lock:
            result = self.commands.guarded(clear)
        if result.is_error:
            raise ToolError(result.content)
        return result.content


class AsyncDoctreeMemoryTool(BetaAsyncAbstractMemoryTool):
    """The same tool for `AsyncAnthropic`: each command runs `DoctreeMemoryTool` in a worker
    thread, so the event loop never waits on SQLite."""

    def __init__(self, repo: DocumentsRepository, owner: str, **kwargs: Any):
        cache_control = kwargs.pop("cache_control", None)
        super().__init__(cache_control=cache_control)
        self.sync = DoctreeMemoryTool(repo, owner, **kwargs)

    async def call(self, input: object) -> str:
        import anyio.to_thread

        result = await anyio.to_thread.run_sync(self.sync.run, input)
        if result.is_error:
            raise ToolError(result.content)
        return result.content

    async def _run(self, fn, command: Any) -> str:
        import anyio.to_thread

        return await anyio.to_thread.run_sync(fn, command)

    async def view(self, command: BetaMemoryTool20250818ViewCommand) -> str:
        return await self._run(self.sync.view, command)

    async def create(self, command: BetaMemoryTool20250818CreateCommand) -> str:
        return await self._run(self.sync.create, command)

    async def str_replace(self, command: BetaMemoryTool20250818StrReplaceCommand) -> str:
        return await self._run(self.sync.str_replace, command)

    async def insert(self, command: BetaMemoryTool20250818InsertCommand) -> str:
        return await self._run(self.sync.insert, command)

    async def delete(self, command: BetaMemoryTool20250818DeleteCommand) -> str:
        return await self._run(self.sync.delete, command)

    async def rename(self, command: BetaMemoryTool20250818RenameCommand) -> str:
        return await self._run(self.sync.rename, command)

    async def clear_all_memory(self) -> str:
        import anyio.to_thread

        return await anyio.to_thread.run_sync(self.sync.clear_all_memory)


def _as_input(command: Any) -> object:
    """An SDK command object (or a dict) as the JSON input it stands for."""
    if isinstance(command, dict):
        return command
    dump = getattr(command, "model_dump", None)
    return dump(exclude_none=True) if dump is not None else command
