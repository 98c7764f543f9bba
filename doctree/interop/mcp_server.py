"""An MCP server over the document tree: read, write, edit, search, history, diff, backlinks,
show, context, blame and search_history, for any MCP-capable client (Claude Desktop, Claude
Code, ...), over stdio, or over streamable HTTP from `doctree serve --mcp` (doctree.web).

The tools sit on the one tool layer (`doctree.interop.toolkit`) that the memory agent's tools
and the memory-tool backend share: every path, declared links included, is confined to one
subtree of one owner's home (`--under`, default `~`); the input schemas are generated from
pydantic models; every change is a version recorded with the server's actor. A bad call is a
tool error of one line naming the bad input, never an exception.
"""

from __future__ import annotations

import json
import re
import threading
from typing import Any, Literal

from pydantic import Field

from doctree.arguments import MAX_NUMBER
from doctree.interop.toolkit import (
    Scope,
    ToolInput,
    ToolInputError,
    ToolResult,
    ToolSet,
    ToolSpec,
    check_text,
)
from doctree.memory.retrieval import search_documents
from doctree.store.documents import Actor, DocumentsRepository, Provenance
from doctree.store.paths import HOME, is_under

MEMORY_ROOT = "~/memory"

SERVER_INSTRUCTIONS = """\
doctree is a versioned tree of markdown documents (agent memory). Paths start at the home '~'
(for example ~/memory/people/alice); segments are slugs (letters, digits, '-', '_', '.').
Every node can have a body and children at once. Every change makes a new version; nothing is
lost. Start with `show` to see the tree, `search` to find documents, `read` to open one.
To change a document safely, pass the `content_sha256` (or `expected_version`) you read: the
write is refused if someone changed the document since. Markdown links and [[~/path]] wiki
links to other documents become references, listed by `backlinks`."""

_PATH_HELP = "Document path starting at the home '~', e.g. '~/memory/people/alice'."
_EXPECTED_HELP = (
    "Only change the document if it is at this version (0: only if it does not exist yet). "
    "Take it from `read`."
)
_SHA_HELP = (
    "Only change the document if its current body has this sha256 (hex), as returned by "
    "`read`. Protects against overwriting a concurrent change."
)


def _expected_version() -> Any:
    return Field(default=None, ge=0, le=MAX_NUMBER, description=_EXPECTED_HELP)


def _sha() -> Any:
    return Field(default=None, max_length=64, description=_SHA_HELP)


class ReadInput(ToolInput):
    path: str = Field(description=_PATH_HELP)
    version: int | None = Field(
        default=None, ge=1, le=MAX_NUMBER, description="Version number to read."
    )


class WriteInput(ToolInput):
    path: str = Field(description=_PATH_HELP)
    body: str = Field(description="The full markdown body.")
    links: list[str] | None = Field(
        default=None,
        description="Paths this document declares links to, inside the served subtree "
        "(replaces the declared list; omit to keep it).",
    )
    expected_version: int | None = _expected_version()
    content_sha256: str | None = _sha()


class EditInput(ToolInput):
    path: str = Field(description=_PATH_HELP)
    old: str = Field(min_length=1, description="Exact text to find (not a regex).")
    new: str = Field(description="Replacement text.")
    replace_all: bool = Field(default=False, description="Replace every occurrence.")
    expected_version: int | None = _expected_version()
    content_sha256: str | None = _sha()


class SearchInput(ToolInput):
    query: str = Field(min_length=1, description="Words to search for.")
    under: str | None = Field(default=None, description="Only documents at or below this path.")
    limit: int = Field(default=10, ge=1, le=100, description="Maximum hits.")
    mode: Literal["lexical", "semantic", "hybrid"] | None = Field(
        default=None,
        description="lexical: by words (BM25); semantic: by meaning (the passage nearest "
        "the query); hybrid: both rankings fused. Default: the server's (hybrid unless "
        "DOCTREE_RETRIEVAL says otherwise).",
    )


class PathInput(ToolInput):
    path: str = Field(description=_PATH_HELP)


class DiffInput(ToolInput):
    path: str = Field(description=_PATH_HELP)
    from_version: int | None = Field(
        default=None, ge=0, le=MAX_NUMBER, description="Older version (0: empty)."
    )
    to_version: int | None = Field(default=None, ge=1, le=MAX_NUMBER, description="Newer version.")


class ShowInput(ToolInput):
    path: str | None = Field(default=None, description="Where to start, e.g. '~/memory'.")
    depth: int | None = Field(default=None, ge=0, le=1000, description="Levels below the path.")


class ContextInput(ToolInput):
    """The arguments `context` takes at every door (`doctree context`, this tool, the
    `recall` prompt, `doctree.memory.context.load_context`)."""

    query: str | None = Field(default=None, description="What the memory is needed for, in words.")
    cap: int | None = Field(
        default=None,
        ge=0,
        le=MAX_NUMBER,
        description="Whole documents, at most this many characters (default 8000).",
    )
    words: int | None = Field(
        default=None,
        ge=0,
        le=MAX_NUMBER,
        description="Passage mode (needs `query`; not with `cap`): only the passages most "
        "relevant to the query, at most this many words, headers included.",
    )
    under: str | None = Field(
        default=None,
        description="Only memory at or below this path (default '~/memory', or the served "
        "subtree when it lies below it).",
    )


class BlameInput(ToolInput):
    path: str = Field(description=_PATH_HELP)
    version: int | None = Field(
        default=None, ge=1, le=MAX_NUMBER, description="Version to blame (default: current)."
    )


class SearchHistoryInput(ToolInput):
    query: str = Field(min_length=1, description="Words to search for.")
    at: str | None = Field(default=None, description="A time, e.g. 2026-11-20T09:00:00Z.")
    all_versions: bool = Field(
        default=False, description="Search every version, not one point in time."
    )
    under: str | None = Field(default=None, description="Only documents at or below this path.")
    limit: int = Field(default=10, ge=1, le=100, description="Maximum hits.")


TOOL_SPECS: dict[str, ToolSpec] = {
    spec.name: spec
    for spec in (
        ToolSpec(
            "read",
            "Read one document: its metadata (path, title, version, content_sha256, links, "
            "children) then, after a '---' line, its markdown body. Give `version` to read an "
            "earlier version (see `history`).",
            ReadInput,
        ),
        ToolSpec(
            "write",
            "Create or replace the whole body of a document. Missing parent documents are "
            "created empty. Writing the same body again makes no new version. Prefer `edit` "
            "for small changes. Pass `content_sha256` or `expected_version` from `read` to "
            "refuse the write if the document changed meanwhile.",
            WriteInput,
        ),
        ToolSpec(
            "edit",
            "Replace an exact string in a document's body with another. `old` must occur "
            "exactly once (include surrounding text to make it unique) unless `replace_all`.",
            EditInput,
        ),
        ToolSpec(
            "search",
            "Full-text search (BM25) over current titles, bodies and paths; any word may "
            "match, best first. Returns path, title, version and a snippet with [matches].",
            SearchInput,
        ),
        ToolSpec(
            "history",
            "Every version of a document, oldest first: number, time, operation (created, "
            "modified, moved, deleted, restored, redacted), path, size and actor.",
            PathInput,
        ),
        ToolSpec(
            "diff",
            "Unified diff of a document between two versions (default: the previous version "
            "against the current one).",
            DiffInput,
        ),
        ToolSpec(
            "backlinks",
            "Documents whose current version references this one (declared links, markdown "
            "links and [[wiki]] links to its path).",
            PathInput,
        ),
        ToolSpec(
            "show",
            "The tree at a path (default: the whole served tree) with each document's title, "
            "version and size. Use it first to see what exists.",
            ShowInput,
        ),
        ToolSpec(
            "blame",
            "Who wrote each line of a document: every line of its current body (or of "
            "`version`) with the version, time, actor, session and run that introduced it. "
            "Follows the document across moves; restored lines keep their first author.",
            BlameInput,
        ),
        ToolSpec(
            "search_history",
            "Search the past: the tree as it was at a time (`at`, ISO 8601), or the text of "
            "every version ever written (`all_versions`, deleted documents included; with "
            "`at`, versions up to then). Each hit names the document, version, time and actor.",
            SearchHistoryInput,
        ),
        ToolSpec(
            "context",
            "Memory for a prompt: whole documents, the most relevant to `query` first (or the "
            "most recently changed when no query is given), separated by '---' lines, within "
            "`cap` characters. A document is never cut: one that would pass the cap ends the "
            "list. With a query, what was said about it in past sessions follows the pages, "
            "word for word, under '# Said in sessions', each session headed by its id and "
            "date. Passage mode (`words` with `query`): only the passages most relevant to "
            "the query, at most `words` words. Use it at the start of a task to recall what "
            "is known.",
            ContextInput,
        ),
    )
}


class DoctreeTools(ToolSet):
    """The MCP tools, confined to `under` in `owner`'s home; usable without MCP:
    `tools.call("read", {"path": ...})` returns a `ToolResult`, never raises."""

    SPECS = TOOL_SPECS

    def __init__(
        self,
        repo: DocumentsRepository,
        owner: str,
        *,
        under: str = HOME,
        actor: Actor | None = None,
    ):
        super().__init__(Scope(owner, under, noun="the served subtree"))
        self.repo = repo
        self.owner = owner
        self.under = self.scope.root
        self.actor = actor or Actor("agent", owner)

    def path(self, path: object, field: str = "path") -> str:
        """Normalise a path from the client and refuse one outside the served subtree."""
        return self.scope.path(path, field)

    def tool_read(self, a: ReadInput) -> str:
        doc = self.repo.read(self.owner, self.path(a.path), version=a.version)
        children = (
            [c.path for c in self.repo.children(self.owner, doc.path)]
            if a.version is None and not doc.deleted
            else []
        )
        head = [
            f"path: {doc.path}",
            f"title: {doc.title}",
            f"version: {doc.version}",
            f"content_sha256: {doc.content_sha256}",
            f"updated: {doc.updated_at}",
            f"size: {doc.size} bytes",
        ]
        if doc.links:
            head.append("links: " + ", ".join(doc.links))
        if children:
            head.append("children: " + ", ".join(children))
        return "\n".join(head) + "\n---\n" + doc.body

    def tool_write(self, a: WriteInput) -> str:
        path = self.path(a.path)
        links = self.scope.paths(a.links, "links") if a.links is not None else None
        before = self.repo.get(self.owner, path)
        doc = self.repo.write(
            self.owner,
            path,
            a.body,
            links=links,
            expected_version=a.expected_version,
            content_sha256=a.content_sha256,
            provenance=Provenance(self.actor),
        )
        if before is not None and before.version == doc.version:
            return f"{doc.path} unchanged (version {doc.version}, sha256 {doc.content_sha256})"
        verb = "created" if before is None else "wrote"
        return f"{verb} {doc.path} version {doc.version} (sha256 {doc.content_sha256})"

    def tool_edit(self, a: EditInput) -> str:
        doc = self.repo.edit(
            self.owner,
            self.path(a.path),
            a.old,
            a.new,
            replace_all=a.replace_all,
            expected_version=a.expected_version,
            content_sha256=a.content_sha256,
            provenance=Provenance(self.actor),
        )
        return f"edited {doc.path} version {doc.version} (sha256 {doc.content_sha256})"

    def tool_search(self, a: SearchInput) -> str:
        scope = self.path(a.under, "under") if a.under is not None else self.under
        hits = search_documents(
            self.repo, self.owner, a.query, mode=a.mode, under=scope, limit=a.limit
        )
        if not hits:
            return f"no documents under {scope} match {a.query!r}"
        return "\n".join(
            f"{h.path}  (title: {h.title}; version {h.version})\n    {' '.join(h.snippet.split())}"
            for h in hits
        )

    def tool_history(self, a: PathInput) -> str:
        lines = []
        for v in self.repo.history(self.owner, self.path(a.path)):
            extra = f" [{v.erasure}]" if v.erasure else ""
            extra += f" session {v.session_id}" if v.session_id else ""
            extra += f" run {v.run_id}" if v.run_id is not None else ""
            lines.append(
                f"v{v.version} {v.created_at} {v.operation} {v.path} {v.size} bytes "
                f"by {v.actor}{extra}"
            )
        return "\n".join(lines)

    def tool_diff(self, a: DiffInput) -> str:
        text = self.repo.diff(self.owner, self.path(a.path), a.from_version, a.to_version)
        return text or "no differences"

    def tool_backlinks(self, a: PathInput) -> str:
        path = self.path(a.path)
        refs = self.repo.backlinks(self.owner, path)
        if not refs:
            return f"no documents reference {path}"
        return "\n".join(f"{r.source_path} ({r.kind} reference)" for r in refs)

    def tool_show(self, a: ShowInput) -> str:
        from doctree.interop.render import render_tree

        path = self.path(a.path) if a.path is not None else self.under
        roots = self.repo.tree(self.owner, path, depth=a.depth)
        if not roots:
            return f"{path} is empty"
        return "\n".join(render_tree(roots, home=path == HOME))

    def tool_blame(self, a: BlameInput) -> str:
        from doctree.store.blame import blame

        result = blame(self.repo, self.owner, self.path(a.path), version=a.version)
        out = [f"{result.path} version {result.version}"]
        for line in result.lines:
            o = line.origin
            extra = f" session {o.session_id}" if o.session_id else ""
            extra += f" run {o.run_id}" if o.run_id is not None else ""
            out.append(f"v{o.version} {o.created_at} {o.actor}{extra} | {line.text}")
        return "\n".join(out)

    def tool_search_history(self, a: SearchHistoryInput) -> str:
        from doctree.store.timetravel import search_at, search_versions

        scope = self.path(a.under, "under") if a.under is not None else self.under
        if a.all_versions:
            hits = search_versions(
                self.repo, self.owner, a.query, under=scope, until=a.at, limit=a.limit
            )
        elif a.at:
            hits = search_at(self.repo, self.owner, a.query, a.at, under=scope, limit=a.limit)
        else:
            raise ToolInputError("search_history: give `at` (a time), `all_versions`, or both")
        if not hits:
            return f"no versions under {scope} match {a.query!r}"
        lines = []
        for h in hits:
            now = " (deleted now)" if h.deleted else ""
            if not h.deleted and h.current_path != h.path:
                now = f" (now at {h.current_path})"
            lines.append(
                f"{h.path} version {h.version}{now}  {h.created_at} by {h.actor}"
                f"\n    {' '.join(h.snippet.split())}"
            )
        return "\n".join(lines)

    def context_root(self) -> str:
        """Where `context` looks by default: `~/memory` as the CLI does, or the served
        subtree when it lies below `~/memory` (or elsewhere)."""
        return MEMORY_ROOT if is_under(MEMORY_ROOT, self.under) else self.under

    def tool_context(self, a: ContextInput) -> str:
        from doctree.memory.context import DEFAULT_CAP, load_context

        under = self.path(a.under, "under") if a.under is not None else self.context_root()
        text = load_context(
            self.repo, self.owner, query=a.query, cap=a.cap, words=a.words, under=under
        )
        if text:
            return text
        if a.words is not None:
            return f"no passages under {under} match {a.query!r}"
        return f"no memory under {under} fits within {DEFAULT_CAP if a.cap is None else a.cap} characters"


def server_version() -> str:
    """The installed doctree's version, as the server reports it to clients."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("doctree")
    except PackageNotFoundError:
        return "0+unknown"


def build_server(tools: DoctreeTools) -> Any:
    """The MCP server exposing `tools`: the schemas come from their input models, and every
    call returns a result (an error result of one line for a bad call), never an exception."""
    import anyio.to_thread
    from mcp import types
    from mcp.server.lowlevel import Server

    lock = threading.Lock()  # calls run in worker threads; one connection, one at a time

    def run(name: str, arguments: object) -> ToolResult:
        with lock:
            return tools.call(name, arguments)

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(
            tools=[
                types.Tool(
                    name=d["name"], description=d["description"], input_schema=d["input_schema"]
                )
                for d in tools.definitions()
            ]
        )

    async def call_tool(ctx: Any, params: Any) -> types.CallToolResult:
        arguments = params.arguments if params.arguments is not None else {}
        if isinstance(arguments, dict) and _INVALID in arguments:
            result = ToolResult(str(arguments[_INVALID]), is_error=True)
        else:
            result = await anyio.to_thread.run_sync(run, params.name, arguments)
            await changes.published(params.name, arguments, result)
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=result.content)],
            is_error=result.is_error,
        )

    async def locked(fn: Any, *args: Any) -> Any:
        def call() -> Any:
            with lock:
                return fn(*args)

        return await anyio.to_thread.run_sync(call)

    from doctree.interop.mcp_resources import ChangeEvents, server_handlers

    changes = ChangeEvents(tools)
    return Server(
        "doctree",
        version=server_version(),
        instructions=SERVER_INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        **server_handlers(tools, locked),
        on_subscriptions_listen=changes.listen_handler,
    )


# A tools/call whose input holds text that is not UTF-8 (a JSON "\ud800" escape) is refused
# by the SDK's JSON parser without any answer, so the client would wait forever: the line is
# rewritten so that the call reaches `call_tool` carrying only this marker and the refusal.
_INVALID = "\x00doctree: invalid input"


def _checked_line(line: str) -> str:
    """The JSON-RPC line as received, or, for a tools/call holding text that is not UTF-8,
    the same call with its arguments replaced by the marker and the refusal naming the field."""
    if "\\u" not in line:  # a lone surrogate can only arrive as a \u escape
        return line
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):
        return line
    params = message.get("params") if isinstance(message, dict) else None
    if message.get("method") != "tools/call" or not isinstance(params, dict):
        return line
    try:
        check_text(params.get("name"), "name")
        check_text(params.get("arguments"))
    except ToolInputError as e:
        if not isinstance(params.get("name"), str) or not _utf8(params["name"]):
            params["name"] = "invalid"
        params["arguments"] = {_INVALID: str(e)}
        return json.dumps(message) + "\n"
    return line


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


MAX_JSON_DEPTH = 100
"""The deepest nesting of arrays and objects a JSON-RPC line may have (the tools' inputs are a
few levels deep; the JSON parsers recurse, so a line 10,000 levels deep is refused first)."""

_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"')
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")


def json_depth(text: str) -> int:
    """The deepest nesting of `[`/`{` in JSON text, brackets inside strings left out; linear."""
    depth = deepest = 0
    for c in _NOT_BRACKETS.sub("", _STRINGS.sub("", text)):
        if c in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def admit_line(line: str) -> tuple[str, Any]:
    """(the line to hand to the SDK, None), or (line, the JSON-RPC error answering it) for a
    line the SDK cannot take: nested deeper than `MAX_JSON_DEPTH` (invalid request, -32600),
    not JSON (parse error, -32700), or not a JSON-RPC 2.0 message (invalid request). The id
    is the line's own when it has a readable one; a tools/call holding text that is not
    UTF-8 is first rewritten by `_checked_line` into a call that gets an error result."""
    from mcp import types
    from pydantic import ValidationError

    def error(code: int, message: str, id: object = None) -> tuple[str, Any]:
        ok_id = id if isinstance(id, str | int) and not isinstance(id, bool) else None
        data = types.ErrorData(code=code, message=message)
        return line, types.JSONRPCError(jsonrpc="2.0", id=ok_id, error=data)

    if ("[" in line or "{" in line) and (depth := json_depth(line)) > MAX_JSON_DEPTH:
        return error(
            types.INVALID_REQUEST,
            f"invalid request: JSON nested {depth} levels deep; at most {MAX_JSON_DEPTH}",
        )
    line = _checked_line(line)
    try:
        types.jsonrpc_message_adapter.validate_json(line, by_name=False)
        return line, None
    except ValidationError:
        pass
    try:
        message = json.loads(line)
    except (ValueError, RecursionError) as e:
        return error(types.PARSE_ERROR, f"parse error: the line is not JSON ({str(e)[:80]})")
    id = message.get("id") if isinstance(message, dict) else None
    return error(
        types.INVALID_REQUEST,
        "invalid request: not a JSON-RPC 2.0 request, notification or response (an object "
        'with "jsonrpc": "2.0", a method or a result, params as an object, UTF-8 text)',
        id,
    )


class _CheckedLines:
    """stdin for the SDK's stdio transport: each line through `admit_line`, and a line the
    SDK cannot parse answered here with a JSON-RPC error (the SDK would drop it unanswered,
    leaving the client waiting) instead of being passed on."""

    def __init__(self, inner: Any):
        self.inner = inner
        self.write_stream: Any = None
        self.ready: Any = None

    def __aiter__(self) -> Any:
        return self._lines()

    async def _lines(self) -> Any:
        from mcp.shared.message import SessionMessage

        async for line in self.inner:
            if not line.strip():
                continue  # an empty line is no message
            line, refusal = admit_line(line)
            if refusal is None:
                yield line
                continue
            await self.ready.wait()
            await self.write_stream.send(SessionMessage(refusal))


async def _serve_stdio(server: Any) -> None:
    import io
    import sys

    import anyio
    from mcp.server.stdio import stdio_server

    raw = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace")
    stdin = _CheckedLines(anyio.wrap_file(raw))
    stdin.ready = anyio.Event()
    # The SDK types stdin as anyio.AsyncFile[str] but only iterates its lines, as this does.
    async with stdio_server(stdin=stdin) as (read_stream, write_stream):  # type: ignore[arg-type]
        stdin.write_stream = write_stream
        stdin.ready.set()
        await server.run(read_stream, write_stream, server.create_initialization_options())


def serve_stdio(
    repo: DocumentsRepository, owner: str, *, under: str = HOME, actor: Actor | None = None
) -> None:
    """Run the MCP server on stdin/stdout until the client closes the stream."""
    import anyio

    anyio.run(_serve_stdio, build_server(DoctreeTools(repo, owner, under=under, actor=actor)))
