"""The document tree as MCP resources, and the `recall` prompt, beside the MCP tools.

Every document of the served subtree is a resource `doctree:///~/memory/people/alice` (its
path after `doctree:///`, percent-encoded where a URI needs it) whose text is the markdown
body; `resources/list` lists them in path order, a page at a time, and the template
`doctree:///{path}` reads any path. The `recall` prompt loads the memory that bears on a
question (`doctree.memory.context.load_context`, the arguments `context` takes everywhere)
and asks it. Reads go through the same confinement as the tools (`DoctreeTools.path`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol
from urllib.parse import quote, unquote

from doctree.errors import DoctreeError, UserError
from doctree.interop.toolkit import ToolInputError, check_text


class DoctreeTools(Protocol):
    """What resources and prompts need of the MCP tools (`doctree.interop.mcp_server`):
    the repository, the owner, the served subtree and its confinement."""

    repo: Any
    owner: str
    under: str

    def path(self, path: object, field: str = "path") -> str: ...

    def context_root(self) -> str: ...


SCHEME = "doctree"
URI_PREFIX = f"{SCHEME}:///"
URI_TEMPLATE = f"{URI_PREFIX}{{path}}"
MIME_TYPE = "text/markdown"
PAGE_SIZE = 500  # resources per resources/list page

RECALL_PROMPT = "recall"
RECALL_DESCRIPTION = (
    "Load what memory holds that bears on a question (the most relevant pages, then what was "
    "said in past sessions), then ask the question."
)


def uri_of(path: str) -> str:
    """The resource URI of a document path: `~/memory/zoë` -> `doctree:///~/memory/zo%C3%AB`."""
    return URI_PREFIX + quote(path, safe="/~")


def path_of(uri: str) -> str:
    """The document path a resource URI names (not yet normalised or confined), else a
    UserError naming the URI and the form it must have."""
    if not isinstance(uri, str) or not uri.startswith(URI_PREFIX):
        raise ToolInputError(
            f"uri {uri!r}: must start with {URI_PREFIX!r}, e.g. {URI_PREFIX}~/memory"
        )
    path = unquote(uri[len(URI_PREFIX) :], errors="strict")
    check_text(path, "uri")
    return path or "~"


@dataclass(frozen=True)
class ResourceEntry:
    """One document as a resource in a listing."""

    uri: str
    name: str  # the document path
    title: str
    size: int
    version: int


class TreeResources:
    """Listing and reading the served subtree as resources (no MCP types here, so the
    behaviour is tested without a server)."""

    def __init__(self, tools: DoctreeTools):
        self.tools = tools

    def entries(self) -> list[ResourceEntry]:
        """Every live document at or below the served subtree, in path order."""
        from doctree.errors import NotFoundError

        try:
            roots = self.tools.repo.tree(self.tools.owner, self.tools.under)
        except NotFoundError:
            return []
        out: list[ResourceEntry] = []
        stack = list(reversed(roots))
        while stack:
            node = stack.pop()
            out.append(
                ResourceEntry(uri_of(node.path), node.path, node.title, node.size, node.version)
            )
            stack.extend(reversed(node.children))
        return out

    def page(self, cursor: str | None) -> tuple[list[ResourceEntry], str | None]:
        """One page of `entries` from `cursor` (an offset the previous page returned)."""
        start = 0
        if cursor:
            if not cursor.isdigit():
                raise ToolInputError(f"cursor {cursor!r}: not a cursor this server returned")
            start = int(cursor)
        entries = self.entries()
        end = start + PAGE_SIZE
        return entries[start:end], (str(end) if end < len(entries) else None)

    def read(self, uri: str) -> str:
        """The body of the document `uri` names, confined to the served subtree."""
        path = self.tools.path(path_of(uri), "uri")
        return self.tools.repo.read(self.tools.owner, path).body


def recall_messages(tools: DoctreeTools, arguments: dict[str, str] | None) -> tuple[str, str]:
    """(description, user message text) of the `recall` prompt for `arguments`
    (`question`, and `words` for passage mode, as in `context`)."""
    from doctree.memory.context import load_context

    arguments = dict(arguments or {})
    question = (arguments.pop("question", None) or "").strip()
    if not question:
        raise ToolInputError("question: is required; give the question memory should answer")
    words_text = arguments.pop("words", None)
    if arguments:
        raise ToolInputError(
            f"unknown argument(s) {', '.join(sorted(arguments))}; known: question, words"
        )
    words: int | None = None
    if words_text not in (None, ""):
        if not str(words_text).strip().isdigit():
            raise ToolInputError(f"words {words_text!r}: must be a whole number of words")
        words = int(str(words_text).strip())
    under = tools.context_root()
    try:
        memory = load_context(tools.repo, tools.owner, query=question, words=words, under=under)
    except DoctreeError as e:
        raise ToolInputError(str(e)) from None
    held = memory if memory else f"(memory under {under} holds nothing on this)"
    text = (
        f"What my memory ({under}) holds that bears on the question:\n\n<memory>\n{held}\n"
        f"</memory>\n\nUsing that memory where it helps, answer: {question}"
    )
    return f"Memory under {under} for: {question}", text


class ChangeEvents:
    """Change notifications over `subscriptions/listen` (the SDK's bus and listen handler):
    a write or edit through this server publishes `ResourceUpdated` for the document's URI,
    and `ResourcesListChanged` when it created a document. Changes made by other processes
    are not pushed; a client re-reads to see them."""

    CHANGING_TOOLS = ("write", "edit")

    def __init__(self, tools: DoctreeTools):
        from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler

        self.tools = tools
        self.bus = InMemorySubscriptionBus()
        self.listen_handler = ListenHandler(self.bus)

    async def published(self, tool: str, arguments: object, result: Any) -> None:
        """Publish what a finished tool call changed (nothing for a failed or reading one)."""
        from mcp.server.subscriptions import ResourcesListChanged, ResourceUpdated

        if tool not in self.CHANGING_TOOLS or result.is_error or not isinstance(arguments, dict):
            return
        if result.content.split(" ", 1)[0] not in ("created", "wrote", "edited"):
            return  # "unchanged": no new version
        try:
            path = self.tools.path(arguments.get("path"))
        except DoctreeError:
            return
        if result.content.startswith("created "):
            await self.bus.publish(ResourcesListChanged())
        await self.bus.publish(ResourceUpdated(uri_of(path)))


def mcp_error(e: Exception) -> Exception:
    """The JSON-RPC error for a failed resource or prompt request: invalid params for bad
    input, resource-not-found (-32002) for a document that does not exist."""
    from mcp import types
    from mcp.shared.exceptions import MCPError

    from doctree.errors import NotFoundError

    if isinstance(e, NotFoundError):
        return MCPError(-32002, f"resource not found: {e}")
    if isinstance(e, UserError):
        return MCPError(types.INVALID_PARAMS, str(e))
    return MCPError(types.INTERNAL_ERROR if hasattr(types, "INTERNAL_ERROR") else -32603, str(e))


def server_handlers(tools: DoctreeTools, locked: Callable[..., Awaitable[Any]]) -> dict[str, Any]:
    """The lowlevel `Server` handlers for resources and prompts, as keyword arguments.
    `locked(fn, *args)` runs `fn` in a worker thread while holding the server's one lock."""
    from mcp import types

    resources = TreeResources(tools)

    async def list_resources(ctx: Any, params: Any) -> types.ListResourcesResult:
        cursor = getattr(params, "cursor", None) if params is not None else None
        try:
            entries, next_cursor = await locked(resources.page, cursor)
        except DoctreeError as e:
            raise mcp_error(e) from None
        return types.ListResourcesResult(
            resources=[
                types.Resource(
                    uri=e.uri,
                    name=e.name,
                    title=e.title or None,
                    description=f"version {e.version}",
                    mime_type=MIME_TYPE,
                    size=e.size,
                )
                for e in entries
            ],
            next_cursor=next_cursor,
        )

    async def list_templates(ctx: Any, params: Any) -> types.ListResourceTemplatesResult:
        return types.ListResourceTemplatesResult(
            resource_templates=[
                types.ResourceTemplate(
                    name="document",
                    title="A document by path",
                    uri_template=URI_TEMPLATE,
                    description="The markdown body of the document at a path starting at "
                    f"the home '~', e.g. {uri_of('~/memory/people/alice')}.",
                    mime_type=MIME_TYPE,
                )
            ]
        )

    async def read_resource(ctx: Any, params: Any) -> types.ReadResourceResult:
        uri = str(params.uri)
        try:
            text = await locked(resources.read, uri)
        except DoctreeError as e:
            raise mcp_error(e) from None
        return types.ReadResourceResult(
            contents=[types.TextResourceContents(uri=uri, mime_type=MIME_TYPE, text=text)]
        )

    async def list_prompts(ctx: Any, params: Any) -> types.ListPromptsResult:
        return types.ListPromptsResult(
            prompts=[
                types.Prompt(
                    name=RECALL_PROMPT,
                    title="Recall from memory",
                    description=RECALL_DESCRIPTION,
                    arguments=[
                        types.PromptArgument(
                            name="question", description="What to answer.", required=True
                        ),
                        types.PromptArgument(
                            name="words",
                            description="Passage mode: at most this many words of the most "
                            "relevant passages (default: whole documents within 8000 "
                            "characters).",
                            required=False,
                        ),
                    ],
                )
            ]
        )

    async def get_prompt(ctx: Any, params: Any) -> types.GetPromptResult:
        if params.name != RECALL_PROMPT:
            raise mcp_error(UserError(f"prompt {params.name!r}: unknown; known: {RECALL_PROMPT}"))
        try:
            description, text = await locked(recall_messages, tools, params.arguments)
        except DoctreeError as e:
            raise mcp_error(e) from None
        return types.GetPromptResult(
            description=description,
            messages=[
                types.PromptMessage(role="user", content=types.TextContent(type="text", text=text))
            ],
        )

    return {
        "on_list_resources": list_resources,
        "on_list_resource_templates": list_templates,
        "on_read_resource": read_resource,
        "on_list_prompts": list_prompts,
        "on_get_prompt": get_prompt,
    }
