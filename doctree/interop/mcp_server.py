"""An MCP server over the document tree: read, write, edit, search, history, diff, backlinks,
show and context, for any MCP-capable client (Claude Desktop, Claude Code, ...), over stdio.

The tools are thin shells over `DocumentsRepository`. Every path is confined to one subtree
of one owner's home (`--under`, default `~`); every change is a version recorded with the
server's actor. Errors are returned to the client as tool errors naming the bad input.
"""

from __future__ import annotations

import threading
from typing import Annotated, Any

from pydantic import Field

from doctree.errors import DoctreeError, PathError
from doctree.store.documents import Actor, DocumentsRepository
from doctree.store.paths import HOME, is_under, normalize_path

SERVER_INSTRUCTIONS = """\
doctree is a versioned tree of markdown documents (agent memory). Paths start at the home '~'
(for example ~/memory/people/alice); segments are slugs (letters, digits, '-', '_', '.').
Every node can have a body and children at once. Every change makes a new version; nothing is
lost. Start with `show` to see the tree, `search` to find documents, `read` to open one.
To change a document safely, pass the `content_sha256` (or `expected_version`) you read: the
write is refused if someone changed the document since. Markdown links and [[~/path]] wiki
links to other documents become references, listed by `backlinks`."""

PathArg = Annotated[
    str,
    Field(description="Document path starting at the home '~', e.g. '~/memory/people/alice'."),
]
ExpectedVersion = Annotated[
    int | None,
    Field(
        description="Only change the document if it is at this version (0: only if it does "
        "not exist yet). Take it from `read`.",
        ge=0,
    ),
]
ContentSha = Annotated[
    str | None,
    Field(
        description="Only change the document if its current body has this sha256 (hex), "
        "as returned by `read`. Protects against overwriting a concurrent change.",
    ),
]


class DoctreeTools:
    """The tool implementations, confined to `under` in `owner`'s home; usable without MCP."""

    def __init__(
        self,
        repo: DocumentsRepository,
        owner: str,
        *,
        under: str = HOME,
        actor: Actor | None = None,
    ):
        self.repo = repo
        self.owner = owner
        self.under = normalize_path(under)
        self.actor = actor or Actor("agent", owner)

    def path(self, path: str) -> str:
        """Normalise a path from the client and refuse one outside the served subtree."""
        path = normalize_path(path)
        if not is_under(path, self.under):
            raise PathError(path, f"outside the served subtree {self.under!r}")
        return path

    def read(self, path: str, version: int | None = None) -> str:
        doc = self.repo.read(self.owner, self.path(path), version=version)
        children = (
            [c.path for c in self.repo.children(self.owner, doc.path)]
            if version is None and not doc.deleted
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

    def write(
        self,
        path: str,
        body: str,
        links: list[str] | None = None,
        expected_version: int | None = None,
        content_sha256: str | None = None,
    ) -> str:
        before = self.repo.get(self.owner, self.path(path))
        doc = self.repo.write(
            self.owner,
            self.path(path),
            body,
            links=links,
            expected_version=expected_version,
            content_sha256=content_sha256,
            actor=self.actor,
        )
        if before is not None and before.version == doc.version:
            return f"{doc.path} unchanged (version {doc.version}, sha256 {doc.content_sha256})"
        verb = "created" if before is None else "wrote"
        return f"{verb} {doc.path} version {doc.version} (sha256 {doc.content_sha256})"

    def edit(
        self,
        path: str,
        old: str,
        new: str,
        replace_all: bool = False,
        expected_version: int | None = None,
        content_sha256: str | None = None,
    ) -> str:
        doc = self.repo.edit(
            self.owner,
            self.path(path),
            old,
            new,
            replace_all=replace_all,
            expected_version=expected_version,
            content_sha256=content_sha256,
            actor=self.actor,
        )
        return f"edited {doc.path} version {doc.version} (sha256 {doc.content_sha256})"

    def search(self, query: str, under: str | None = None, limit: int = 10) -> str:
        scope = self.path(under) if under else self.under
        hits = self.repo.search(self.owner, query, under=scope, limit=limit)
        if not hits:
            return f"no documents under {scope} match {query!r}"
        return "\n".join(
            f"{h.path}  (title: {h.title}; version {h.version})\n    {' '.join(h.snippet.split())}"
            for h in hits
        )

    def history(self, path: str) -> str:
        lines = []
        for v in self.repo.history(self.owner, self.path(path)):
            extra = " [redacted]" if v.redacted else ""
            extra += f" session {v.session_id}" if v.session_id else ""
            extra += f" run {v.run_id}" if v.run_id is not None else ""
            lines.append(
                f"v{v.version} {v.created_at} {v.operation} {v.path} {v.size} bytes "
                f"by {v.actor}{extra}"
            )
        return "\n".join(lines)

    def diff(
        self, path: str, from_version: int | None = None, to_version: int | None = None
    ) -> str:
        text = self.repo.diff(self.owner, self.path(path), from_version, to_version)
        return text or "no differences"

    def backlinks(self, path: str) -> str:
        path = self.path(path)
        refs = self.repo.backlinks(self.owner, path)
        if not refs:
            return f"no documents reference {path}"
        return "\n".join(f"{r.source_path} ({r.kind} reference)" for r in refs)

    def show(self, path: str | None = None, depth: int | None = None) -> str:
        from doctree.interop.render import render_tree

        path = self.path(path) if path else self.under
        roots = self.repo.tree(self.owner, path, depth=depth)
        if not roots:
            return f"{path} is empty"
        return "\n".join(render_tree(roots, home=path == HOME))

    def context(self, query: str | None = None, cap: int = 8000) -> str:
        from doctree.memory.context import load_memories

        text = load_memories(self.repo, self.owner, cap=cap, query=query, under=self.under)
        if not text:
            return f"no memory under {self.under} fits within {cap} characters"
        return text


def build_server(tools: DoctreeTools) -> Any:
    """The MCP server exposing `tools`; doctree errors become tool errors with their message."""
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError

    server = MCPServer("doctree", instructions=SERVER_INSTRUCTIONS)
    lock = threading.Lock()  # sync tools run in worker threads; one connection, one at a time

    def call(fn, *args: Any, **kwargs: Any) -> str:
        try:
            with lock:
                return fn(*args, **kwargs)
        except DoctreeError as e:
            raise ToolError(str(e)) from None

    @server.tool(
        description="Read one document: its metadata (path, title, version, content_sha256, "
        "links, children) then, after a '---' line, its markdown body. Give `version` to read "
        "an earlier version (see `history`).",
        structured_output=False,
    )
    def read(
        path: PathArg,
        version: Annotated[int | None, Field(description="Version number to read.", ge=1)] = None,
    ) -> str:
        return call(tools.read, path, version)

    @server.tool(
        description="Create or replace the whole body of a document. Missing parent documents "
        "are created empty. Writing the same body again makes no new version. Prefer `edit` "
        "for small changes. Pass `content_sha256` or `expected_version` from `read` to refuse "
        "the write if the document changed meanwhile.",
        structured_output=False,
    )
    def write(
        path: PathArg,
        body: Annotated[str, Field(description="The full markdown body.")],
        links: Annotated[
            list[str] | None,
            Field(
                description="Paths this document declares links to (replaces the declared "
                "list; omit to keep it)."
            ),
        ] = None,
        expected_version: ExpectedVersion = None,
        content_sha256: ContentSha = None,
    ) -> str:
        return call(tools.write, path, body, links, expected_version, content_sha256)

    @server.tool(
        description="Replace an exact string in a document's body with another. `old` must "
        "occur exactly once (include surrounding text to make it unique) unless `replace_all`.",
        structured_output=False,
    )
    def edit(
        path: PathArg,
        old: Annotated[str, Field(description="Exact text to find (not a regex).")],
        new: Annotated[str, Field(description="Replacement text.")],
        replace_all: Annotated[bool, Field(description="Replace every occurrence.")] = False,
        expected_version: ExpectedVersion = None,
        content_sha256: ContentSha = None,
    ) -> str:
        return call(tools.edit, path, old, new, replace_all, expected_version, content_sha256)

    @server.tool(
        description="Full-text search (BM25) over current titles, bodies and paths; any word "
        "may match, best first. Returns path, title, version and a snippet with [matches].",
        structured_output=False,
    )
    def search(
        query: Annotated[str, Field(description="Words to search for.")],
        under: Annotated[
            str | None, Field(description="Only documents at or below this path.")
        ] = None,
        limit: Annotated[int, Field(description="Maximum hits.", ge=1, le=100)] = 10,
    ) -> str:
        return call(tools.search, query, under, limit)

    @server.tool(
        description="Every version of a document, oldest first: number, time, operation "
        "(created, modified, moved, deleted, restored, redacted), path, size and actor.",
        structured_output=False,
    )
    def history(path: PathArg) -> str:
        return call(tools.history, path)

    @server.tool(
        description="Unified diff of a document between two versions (default: the previous "
        "version against the current one).",
        structured_output=False,
    )
    def diff(
        path: PathArg,
        from_version: Annotated[
            int | None, Field(description="Older version (0: empty).", ge=0)
        ] = None,
        to_version: Annotated[int | None, Field(description="Newer version.", ge=1)] = None,
    ) -> str:
        return call(tools.diff, path, from_version, to_version)

    @server.tool(
        description="Documents whose current version references this one (declared links, "
        "markdown links and [[wiki]] links to its path).",
        structured_output=False,
    )
    def backlinks(path: PathArg) -> str:
        return call(tools.backlinks, path)

    @server.tool(
        description="The tree at a path (default: the whole served tree) with each document's "
        "title, version and size. Use it first to see what exists.",
        structured_output=False,
    )
    def show(
        path: Annotated[str | None, Field(description="Where to start, e.g. '~/memory'.")] = None,
        depth: Annotated[int | None, Field(description="Levels below the path.", ge=0)] = None,
    ) -> str:
        return call(tools.show, path, depth)

    @server.tool(
        description="Memory for a prompt: whole documents, the most relevant to `query` first "
        "(or the most recently changed when no query is given), separated by '---' lines, "
        "within `cap` characters. A document is never cut: one that would pass the cap ends "
        "the list. With a query, what was said about it in past sessions follows the pages, "
        "word for word, under '# Said in sessions', each session headed by its id and date. "
        "Use it at the start of a task to recall what is known.",
        structured_output=False,
    )
    def context(
        query: Annotated[
            str | None, Field(description="What the memory is needed for, in words.")
        ] = None,
        cap: Annotated[
            int, Field(description="Maximum characters returned.", ge=100, le=200_000)
        ] = 8000,
    ) -> str:
        return call(tools.context, query, cap)

    return server


def serve_stdio(
    repo: DocumentsRepository, owner: str, *, under: str = HOME, actor: Actor | None = None
) -> None:
    """Run the MCP server on stdin/stdout until the client closes the stream."""
    build_server(DoctreeTools(repo, owner, under=under, actor=actor)).run("stdio")
