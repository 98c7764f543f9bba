"""The document tools the memory agent works through, confined to one agent's `~/memory`.

`MemoryTools` offers `document_read`, `document_write`, `document_search`, `document_edit`,
`document_move` and `document_delete` as Anthropic tool schemas, and executes tool calls.
There is no owner in any schema: the owner is always the source agent, and every path must
normalise to the memory root or below. A call outside it, malformed input or a failed
precondition becomes a `ToolResult` with `is_error=True` that the model can act on, and
writes nothing. Results hold no timestamps or ids that vary between runs, so a recorded
conversation replays byte for byte on a fresh tree.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from doctree.errors import ConflictError, DoctreeError, NotFoundError, PathError
from doctree.store.documents import Actor, Document, DocumentsRepository
from doctree.store.paths import is_under, normalize_path

DEFAULT_ROOT = "~/memory"
MAX_SEARCH_LIMIT = 50
RECALLED_IN_SEARCH = 3  # verbatim passages of past sessions after the pages found


@dataclass(frozen=True)
class ToolResult:
    """What a tool call returns to the model: text, and whether it is an error."""

    content: str
    is_error: bool = False


@dataclass
class ToolCallRecord:
    """One executed call, kept for the run's summary."""

    name: str
    input: dict[str, Any]
    is_error: bool
    changed: list[str] = field(default_factory=list)


# -- inputs (validated with pydantic; unknown fields are errors) ----------------------------


class _Input(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class ReadInput(_Input):
    path: str
    version: int | None = Field(default=None, ge=1)


class WriteInput(_Input):
    path: str
    body: str
    title: str | None = None
    links: list[str] | None = None
    expected_version: int | None = Field(default=None, ge=0)


class SearchInput(_Input):
    query: str = Field(min_length=1)
    under: str | None = None
    limit: int = Field(default=10, ge=1, le=MAX_SEARCH_LIMIT)


class EditInput(_Input):
    path: str
    old_string: str = Field(min_length=1)
    new_string: str
    replace_all: bool = False
    expected_version: int | None = Field(default=None, ge=1)


class MoveInput(_Input):
    path: str
    new_path: str
    expected_version: int | None = Field(default=None, ge=1)


class DeleteInput(_Input):
    path: str
    recursive: bool = False
    expected_version: int | None = Field(default=None, ge=1)


_PATH_HELP = (
    "Path of the document, e.g. '~/memory/people/alice'. Every path starts with '~/memory'; "
    "segments are lowercase slugs (letters, digits, '-', '_', '.')."
)

TOOL_SCHEMAS: dict[str, dict[str, Any]] = {
    "document_read": {
        "description": (
            "Read one memory document: its title, version number, body with line numbers, "
            "its children (the pages below it) and its backlinks (pages that link to it). "
            "Read '~/memory' first to see the top of the tree. Read a page before you change "
            "it, and pass the version you read as expected_version when you write it."
        ),
        "input_schema": {
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": _PATH_HELP},
                "version": {
                    "type": "integer",
                    "minimum": 1,
                    "description": "Read this earlier version instead of the current one.",
                },
            },
            "required": ["path"],
            "additionalProperties": False,
        },
    },
    "document_write": {
        "description": (
            "Create a document, or replace the whole body of an existing one. Missing parent "
            "pages are created empty. The body is markdown; link other pages with "
            "[[~/memory/...]] and cite the session each fact came from. Use expected_version "
            "(the version you read; 0 = the page must not exist yet) so that a concurrent "
            "change is not overwritten: on a conflict nothing is written and you get the "
            "current version to read again. Writing the same body again changes nothing."
        ),
        "input_schema": {
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": _PATH_HELP},
                "body": {"type": "string", "description": "The full markdown body."},
                "title": {
                    "type": "string",
                    "description": "Title; by default the first '# heading' of the body.",
                },
                "links": {
                    "type": "array",
                    "items": {"type": "string"},
                    "description": "Paths under '~/memory' this page relates to (declared links).",
                },
                "expected_version": {
                    "type": "integer",
                    "minimum": 0,
                    "description": "Write only if the page is at this version (0: does not exist).",
                },
            },
            "required": ["path", "body"],
            "additionalProperties": False,
        },
    },
    "document_search": {
        "description": (
            "Full-text search over the memory pages (titles, bodies and paths), best match "
            "first, with a snippet where [brackets] mark the matching words; then the few "
            "passages of past sessions that best match, word for word, each cited by session, "
            "time and speaker. Use it to find where a person, project or fact is already "
            "recorded before creating a new page."
        ),
        "input_schema": {
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "Words to look for."},
                "under": {
                    "type": "string",
                    "description": "Only search at or below this path (default '~/memory').",
                },
                "limit": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": MAX_SEARCH_LIMIT,
                    "description": "At most this many results (default 10).",
                },
            },
            "required": ["query"],
            "additionalProperties": False,
        },
    },
    "document_edit": {
        "description": (
            "Replace an exact string in a page's body: cheaper than rewriting the page. "
            "old_string must occur exactly once (include surrounding words to make it unique) "
            "unless replace_all is true. Copy old_string from document_read output without the "
            "line-number prefix. Use it to correct a fact where it is recorded."
        ),
        "input_schema": {
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": _PATH_HELP},
                "old_string": {"type": "string", "description": "The exact text to replace."},
                "new_string": {"type": "string", "description": "The text to put in its place."},
                "replace_all": {
                    "type": "boolean",
                    "description": "Replace every occurrence (default false).",
                },
                "expected_version": {
                    "type": "integer",
                    "minimum": 1,
                    "description": "Edit only if the page is at this version.",
                },
            },
            "required": ["path", "old_string", "new_string"],
            "additionalProperties": False,
        },
    },
    "document_move": {
        "description": (
            "Move (rename) a page and everything below it to a new path under '~/memory', "
            "e.g. to archive it under '~/memory/archive/2026-W47/'. Links to it keep working. "
            "The new path must not exist yet."
        ),
        "input_schema": {
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": _PATH_HELP},
                "new_path": {"type": "string", "description": "Where to move it."},
                "expected_version": {
                    "type": "integer",
                    "minimum": 1,
                    "description": "Move only if the page is at this version.",
                },
            },
            "required": ["path", "new_path"],
            "additionalProperties": False,
        },
    },
    "document_delete": {
        "description": (
            "Delete a page that is wrong or redundant (its history is kept and it can be "
            "restored by a person). A page with children needs recursive true. Prefer "
            "correcting or moving to the archive over deleting. '~/memory' itself cannot be "
            "deleted."
        ),
        "input_schema": {
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": _PATH_HELP},
                "recursive": {
                    "type": "boolean",
                    "description": "Also delete every page below it (default false).",
                },
                "expected_version": {
                    "type": "integer",
                    "minimum": 1,
                    "description": "Delete only if the page is at this version.",
                },
            },
            "required": ["path"],
            "additionalProperties": False,
        },
    },
}

TOOL_NAMES = tuple(TOOL_SCHEMAS)
_INPUTS: dict[str, type[_Input]] = {
    "document_read": ReadInput,
    "document_write": WriteInput,
    "document_search": SearchInput,
    "document_edit": EditInput,
    "document_move": MoveInput,
    "document_delete": DeleteInput,
}


class ToolInputError(Exception):
    """A tool call the model must fix: the message says what was wrong."""


class MemoryTools:
    """The document tools of one memory agent run: owner, root, session and run are fixed."""

    def __init__(
        self,
        repo: DocumentsRepository,
        source_agent: str,
        *,
        session_id: str | None = None,
        run_id: int | None = None,
        root: str = DEFAULT_ROOT,
        allowed: list[str] | tuple[str, ...] | None = None,
    ):
        from doctree.store.paths import validate_owner

        self.repo = repo
        self.source_agent = validate_owner(source_agent)
        self.session_id = session_id
        self.run_id = run_id
        self.root = normalize_path(root)
        if self.root == "~":
            raise PathError(root, "the memory root must be below the home, e.g. '~/memory'")
        self.actor = Actor("memory-agent", self.source_agent)
        self.allowed = tuple(allowed) if allowed is not None else TOOL_NAMES
        unknown = [n for n in self.allowed if n not in TOOL_SCHEMAS]
        if unknown:
            raise ValueError(f"unknown tools {unknown}; known: {', '.join(TOOL_NAMES)}")
        self.calls: list[ToolCallRecord] = []

    # -- schemas --------------------------------------------------------------------------

    def definitions(self, names: list[str] | tuple[str, ...] | None = None) -> list[dict]:
        """Anthropic tool definitions (name, description, input_schema), in a stable order."""
        wanted = self.allowed if names is None else tuple(names)
        unknown = [n for n in wanted if n not in TOOL_SCHEMAS]
        if unknown:
            raise ValueError(f"unknown tools {unknown}; known: {', '.join(TOOL_NAMES)}")
        return [{"name": n, **json.loads(json.dumps(TOOL_SCHEMAS[n]))} for n in wanted]

    # -- calls ----------------------------------------------------------------------------

    def call(self, name: str, input: dict) -> ToolResult:
        """Execute one tool call; every failure becomes an error result, never an exception."""
        record = ToolCallRecord(name, input if isinstance(input, dict) else {}, False)
        self.calls.append(record)
        try:
            if name not in self.allowed:
                raise ToolInputError(
                    f"unknown tool {name!r}; the tools are: {', '.join(self.allowed)}"
                )
            if not isinstance(input, dict):
                raise ToolInputError(f"{name}: the input must be a JSON object")
            try:
                args = _INPUTS[name].model_validate(input)
            except ValidationError as e:
                raise ToolInputError(_validation_message(name, e)) from None
            content, changed = getattr(self, "_" + name)(args)
            record.changed = changed
            return ToolResult(content)
        except ToolInputError as e:
            record.is_error = True
            return ToolResult(f"error: {e}", is_error=True)
        except ConflictError as e:
            record.is_error = True
            return ToolResult(f"error: {e}; nothing was written", is_error=True)
        except NotFoundError as e:
            record.is_error = True
            return ToolResult(
                f"error: {e}; use document_search or read the parent page to see what exists",
                is_error=True,
            )
        except DoctreeError as e:
            record.is_error = True
            return ToolResult(f"error: {e}; nothing was written", is_error=True)

    # -- confinement ----------------------------------------------------------------------

    def confine(self, path: object, field: str = "path") -> str:
        """Normalise `path` and require it at or below the memory root, else ToolInputError."""
        if not isinstance(path, str):
            raise ToolInputError(f"{field}: must be a string path starting with {self.root!r}")
        try:
            norm = normalize_path(path)
        except PathError as e:
            raise ToolInputError(f"{field}: {e}") from None
        if not is_under(norm, self.root):
            raise ToolInputError(
                f"{field} {path!r}: outside the memory tree; every path must be {self.root!r} "
                f"or below it, e.g. '{self.root}/people/alice'"
            )
        return norm

    def _write_kwargs(self) -> dict[str, Any]:
        return {"actor": self.actor, "session_id": self.session_id, "run_id": self.run_id}

    # -- the tools ------------------------------------------------------------------------

    def _document_read(self, a: ReadInput) -> tuple[str, list[str]]:
        path = self.confine(a.path)
        owner = self.source_agent
        if a.version is None and path == self.root and not self.repo.exists(owner, path):
            return (
                f"{path} does not exist yet: the memory is empty. Create pages with "
                f"document_write, e.g. {path}/active.",
                [],
            )
        doc = self.repo.read(owner, path, version=a.version)
        return render_document(self.repo, doc, current=a.version is None), []

    def _document_write(self, a: WriteInput) -> tuple[str, list[str]]:
        path = self.confine(a.path)
        links = [self.confine(p, "links") for p in a.links] if a.links is not None else None
        before = self.repo.get(self.source_agent, path)
        doc = self.repo.write(
            self.source_agent,
            path,
            a.body,
            title=a.title,
            links=links,
            expected_version=a.expected_version,
            **self._write_kwargs(),
        )
        if before is None:
            return f"created {doc.path} (version {doc.version}, {doc.size} bytes)", [doc.path]
        if doc.version == before.version:
            return f"unchanged {doc.path} (version {doc.version}): same body as before", []
        return f"updated {doc.path} (version {doc.version}, {doc.size} bytes)", [doc.path]

    def _document_search(self, a: SearchInput) -> tuple[str, list[str]]:
        under = self.confine(a.under, "under") if a.under is not None else self.root
        hits = self.repo.search(self.source_agent, a.query, under=under, limit=a.limit)
        said = self._recalled(a.query, RECALLED_IN_SEARCH)
        if not hits and not said:
            return f"no pages under {under} match {a.query!r}", []
        if hits:
            lines = [f"{len(hits)} result(s) for {a.query!r} under {under}:"]
        else:
            lines = [f"no pages under {under} match {a.query!r}"]
        for h in hits:
            lines.append(f"- {h.path} (v{h.version}) {h.title}: {h.snippet}")
        if said:
            lines.append(f"said in past sessions ({len(said)}), word for word:")
            lines.extend(said)
        return "\n".join(lines), []

    def _recalled(self, query: str, n: int) -> list[str]:
        """The verbatim passages of past sessions that best match `query`, one line each,
        cited by session, time and speaker (the second layer of memory)."""
        from doctree.memory.recall import DEFAULT_RECALL, rank
        from doctree.memory.retrieval import parse_query
        from doctree.store.recall import RecallIndex

        hits = rank(
            RecallIndex(self.repo.conn), self.source_agent, parse_query(query), DEFAULT_RECALL
        )
        hits = [h for h in hits if h.session_id != self.session_id]  # the one being read now
        return [f"* session {h.session_id} · {h.time} · {h.speaker}: {h.text}" for h in hits[:n]]

    def _document_edit(self, a: EditInput) -> tuple[str, list[str]]:
        path = self.confine(a.path)
        doc = self.repo.edit(
            self.source_agent,
            path,
            a.old_string,
            a.new_string,
            replace_all=a.replace_all,
            expected_version=a.expected_version,
            **self._write_kwargs(),
        )
        return f"edited {doc.path} (version {doc.version}, {doc.size} bytes)", [doc.path]

    def _document_move(self, a: MoveInput) -> tuple[str, list[str]]:
        path = self.confine(a.path)
        new_path = self.confine(a.new_path, "new_path")
        if path == self.root:
            raise ToolInputError(f"path {path!r}: the memory root cannot be moved")
        if new_path == self.root:
            raise ToolInputError(f"new_path {new_path!r}: the memory root cannot be replaced")
        moved = self.repo.move(
            self.source_agent,
            path,
            new_path,
            expected_version=a.expected_version,
            **self._write_kwargs(),
        )
        paths = [d.path for d in moved]
        return f"moved {path} to {new_path} ({len(moved)} page(s))", paths

    def _document_delete(self, a: DeleteInput) -> tuple[str, list[str]]:
        path = self.confine(a.path)
        if path == self.root:
            raise ToolInputError(f"path {path!r}: the memory root cannot be deleted")
        deleted = self.repo.delete(
            self.source_agent,
            path,
            recursive=a.recursive,
            expected_version=a.expected_version,
            **self._write_kwargs(),
        )
        paths = [d.path for d in deleted]
        return f"deleted {', '.join(paths)}", paths


def render_document(repo: DocumentsRepository, doc: Document, *, current: bool = True) -> str:
    """A document as the model sees it: header, numbered body, children, backlinks."""
    lines = [
        f"path: {doc.path}",
        f"title: {doc.title}",
        f"version: {doc.version}" + ("" if current else " (an earlier version)"),
    ]
    if doc.links:
        lines.append("links: " + ", ".join(doc.links))
    body_lines = doc.body.split("\n") if doc.body else []
    if body_lines and body_lines[-1] == "":
        body_lines.pop()
    lines.append(f"--- body ({len(body_lines)} lines) ---")
    width = len(str(len(body_lines))) if body_lines else 1
    lines.extend(f"{i:>{width}}\t{text}" for i, text in enumerate(body_lines, 1))
    if not body_lines:
        lines.append("(empty)")
    if current:
        children = repo.children(doc.owner, doc.path)
        lines.append(f"--- children ({len(children)}) ---")
        lines.extend(f"{c.path}  {c.title}  (v{c.version}, {c.size} bytes)" for c in children)
        backlinks = repo.backlinks(doc.owner, doc.path)
        lines.append(f"--- backlinks ({len(backlinks)}) ---")
        seen = dict.fromkeys(f"{r.source_path} ({r.kind})" for r in backlinks)
        lines.extend(seen)
    return "\n".join(lines)


def _validation_message(name: str, e: ValidationError) -> str:
    problems = []
    for err in e.errors():
        loc = ".".join(str(p) for p in err["loc"]) or "input"
        if err["type"] == "extra_forbidden":
            allowed = ", ".join(_INPUTS[name].model_fields)
            problems.append(f"{loc}: unknown field (the fields are: {allowed})")
        else:
            problems.append(f"{loc}: {err['msg']}")
    return f"{name}: invalid input: " + "; ".join(problems)
