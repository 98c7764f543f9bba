"""The one tool layer under the three doors to the tree: the memory agent's tools
(`doctree.interop.tools`), the MCP server (`doctree.interop.mcp_server`) and the Anthropic
memory-tool backend (`doctree.interop.memory_tool`).

Written once here, for all three:

- `Scope`: every path a caller names is normalised and must be at or below one subtree of one
  owner's home — paths, `under`, `new_path` and every declared link alike;
- `ToolInput`: a call's input is a pydantic model (unknown fields refused, strict types,
  integers bounded by `MAX_NUMBER`); its JSON schema is generated from the model, with the
  descriptions on the fields (`input_schema`);
- `ToolSet.call`: validation, the refusal of text that is not UTF-8 (lone surrogates), and the
  conversion of every failure into an error result of one line. A surface never raises into
  its caller: a bad call is an error result the caller can act on, and writes nothing. The
  one exception is a call the database could not serve (a lock held past the busy timeout,
  a server gone) on a surface that says so (`RAISE_UNAVAILABLE`: the memory agent's tools),
  which raises `DatabaseUnavailableError`, so a run fails and is tried again rather than
  ending as if its write were made.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, ValidationError

from doctree.arguments import MAX_NUMBER
from doctree.errors import DatabaseUnavailableError, DoctreeError, PathError, UserError
from doctree.store.backends import is_unavailable
from doctree.store.paths import is_under, is_utf8_text, normalize_path
from doctree.store.secrets import mask

log = logging.getLogger("doctree.interop.toolkit")


class ToolInputError(UserError):
    """A tool call the caller must fix: the message says what was wrong."""


@dataclass(frozen=True)
class ToolResult:
    """What a tool call returns: text, and whether it is an error."""

    content: str
    is_error: bool = False


class ToolInput(BaseModel):
    """Base of every tool's input model: unknown fields are errors, types are strict."""

    model_config = ConfigDict(extra="forbid", strict=True)


@dataclass(frozen=True)
class ToolSpec:
    """One tool: its name, what the caller reads about it, and its input model."""

    name: str
    description: str
    input: type[ToolInput]

    def definition(self) -> dict[str, Any]:
        """The tool as an Anthropic (and MCP) definition: name, description, input_schema."""
        return {
            "name": self.name,
            "description": self.description,
            "input_schema": input_schema(self.input),
        }


# -- schemas -------------------------------------------------------------------------------


def input_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The JSON schema of a tool's input model, in the plain form a model reads best:
    no titles, and an optional field (`X | None = None`) shown as its type `X`, since
    leaving it out is how a caller says "none"."""
    schema = model.model_json_schema()
    out: dict[str, Any] = {"type": "object", "properties": {}}
    required = set(schema.get("required", []))
    for name, prop in schema.get("properties", {}).items():
        out["properties"][name] = _plain(prop)
    if required:
        out["required"] = [n for n in schema["properties"] if n in required]
    out["additionalProperties"] = False
    return out


def _plain(prop: dict[str, Any]) -> dict[str, Any]:
    prop = {k: v for k, v in prop.items() if k != "title"}
    options = prop.get("anyOf")
    if options is not None:
        kept = [o for o in options if o.get("type") != "null"]
        if len(kept) == 1:
            del prop["anyOf"]
            prop = {**{k: v for k, v in kept[0].items() if k != "title"}, **prop}
    if prop.get("default", ...) is None:
        del prop["default"]
    if "items" in prop and isinstance(prop["items"], dict):
        prop["items"] = _plain(prop["items"])
    # the description first, as a reader expects it
    order = ["type", "items", "minimum", "maximum", "minLength", "maxLength", "description"]
    return {k: prop[k] for k in order if k in prop} | {
        k: v for k, v in prop.items() if k not in order
    }


# -- confinement -----------------------------------------------------------------------------


class Scope:
    """One subtree (`root`) of one owner's home: every path a caller names must be in it.

    `noun` names the subtree in refusals ("the memory tree", "the served subtree").
    """

    def __init__(self, owner: str, root: str, *, noun: str = "the served subtree"):
        self.owner = owner
        self.root = normalize_path(root)
        self.noun = noun

    def path(self, value: object, field: str = "path") -> str:
        """Normalise `value` and require it at or below the root, else ToolInputError."""
        if not isinstance(value, str):
            raise ToolInputError(f"{field}: must be a string path starting with {self.root!r}")
        check_text(value, field)
        try:
            norm = normalize_path(value)
        except PathError as e:
            raise ToolInputError(f"{field}: {e}") from None
        if not is_under(norm, self.root):
            raise ToolInputError(
                f"{field} {value!r}: outside {self.noun} {self.root!r}; every path must be "
                f"{self.root!r} or below it, e.g. '{self._example()}'"
            )
        return norm

    def paths(self, values: Iterable[object], field: str) -> list[str]:
        """`path` for each of a list (declared links): one outside refuses the whole call."""
        return [self.path(v, f"{field}[{i}]") for i, v in enumerate(values)]

    def _example(self) -> str:
        return f"{self.root}/people/alice" if self.root != "~" else "~/memory/people/alice"


# -- text ------------------------------------------------------------------------------------


def check_text(value: object, field: str = "input") -> None:
    """Refuse text that cannot be stored as UTF-8 (a lone surrogate such as JSON "\\ud800"),
    anywhere in `value` (strings, lists, dicts)."""
    stack: list[tuple[object, str]] = [(value, field)]
    while stack:
        v, where = stack.pop()
        if isinstance(v, str):
            try:
                v.encode("utf-8")
            except UnicodeEncodeError as e:
                raise ToolInputError(
                    f"{where}: is not UTF-8 text (a lone surrogate at character {e.start})"
                ) from None
        elif isinstance(v, Mapping):
            for k, item in v.items():
                stack.append((k, where))
                stack.append((item, f"{k}" if where == "input" else f"{where}.{k}"))
        elif isinstance(v, list | tuple):
            stack.extend((item, f"{where}[{i}]") for i, item in enumerate(v))


def one_line(text: str) -> str:
    """An error message on one line (a caller shows it in a status line or a log)."""
    return " ".join(text.split("\n")).replace("\r", " ")


def validation_message(name: str, model: type[BaseModel], e: ValidationError) -> str:
    """A pydantic error as one line naming each bad field and the rule (no links, no input)."""
    problems = []
    for err in e.errors(include_url=False, include_input=False):
        loc = ".".join(str(p) for p in err["loc"]) or "input"
        if err["type"] == "extra_forbidden":
            allowed = ", ".join(model.model_fields)
            problems.append(f"{loc}: unknown field (the fields are: {allowed})")
        else:
            problems.append(f"{loc}: {err['msg']}")
    return f"{name}: invalid input: " + "; ".join(problems)


def unavailable_text(e: BaseException, call: str | None = None) -> str:
    """What a call the database could not serve says (a lock another process held past the
    busy timeout, a server that cannot be reached): nothing of it was stored, and the same
    call may be made again."""
    cause = " ".join(str(e).split()) or type(e).__name__
    if isinstance(e, sqlite3.Error) and not isinstance(e, DatabaseUnavailableError):
        cause += " (another process held it past the busy timeout)"
    head = f"{call}: " if call else ""
    return f"{head}the database is unavailable: {cause}; nothing was written; try again"


def call_label(name: object, input: object) -> str | None:
    """A call as an error names it: the tool, and the path it was given (its secrets
    masked), e.g. `document_write of '~/memory/notes'`."""
    if not isinstance(name, str) or not name.isidentifier():
        return None
    path = input.get("path") if isinstance(input, dict) else None
    if not isinstance(path, str) or not is_utf8_text(path) or len(path) > 200:
        return name
    from doctree.store.secrets import mask

    return f"{name} of {mask(path)[0]!r}"


def unexpected_text(e: BaseException) -> str:
    """The message of a failure no tool anticipates, named plainly; nothing was written
    (each store operation is one transaction)."""
    if isinstance(e, RecursionError):
        return "frontmatter nested too deep (flatten the YAML between the '---' lines)"
    if isinstance(e, UnicodeError):
        return f"text is not UTF-8 ({e})"
    if isinstance(e, OverflowError):
        return f"a number is too large (at most {MAX_NUMBER})"
    if isinstance(e, sqlite3.Error):
        return f"the database failed: {e}"
    log.exception("tool call failed unexpectedly")
    return f"internal error: {type(e).__name__}: {e}"


# -- the tool set ----------------------------------------------------------------------------


class ToolSet:
    """A surface's tools: `SPECS` names them; `tool_<name>(args)` implements each.

    `call(name, input)` validates, confines (in the implementations, through `scope`) and
    turns every failure into an error result through `error_text`, which a surface overrides
    to speak its caller's language.
    """

    SPECS: ClassVar[Mapping[str, ToolSpec]] = {}
    # Error results on one line; a surface that must match another tool's wording (the
    # memory tool quotes the caller's text verbatim, as the SDK's own tool does) opts out.
    ONE_LINE: ClassVar[bool] = True
    # A call the database cannot serve now (`is_unavailable`) is an error result the caller
    # may make again; a surface whose caller would go on without it (a memory agent's run,
    # which would end as if the page were written) raises DatabaseUnavailableError instead.
    RAISE_UNAVAILABLE: ClassVar[bool] = False

    def __init__(self, scope: Scope, allowed: Iterable[str] | None = None):
        self.scope = scope
        self.allowed = tuple(allowed) if allowed is not None else tuple(self.SPECS)
        unknown = [n for n in self.allowed if n not in self.SPECS]
        if unknown:
            raise UserError(f"unknown tools {unknown}; known: {', '.join(self.SPECS)}")

    def definitions(self, names: Iterable[str] | None = None) -> list[dict[str, Any]]:
        """Tool definitions (name, description, input_schema), in a stable order."""
        wanted = self.allowed if names is None else tuple(names)
        unknown = [n for n in wanted if n not in self.SPECS]
        if unknown:
            raise UserError(f"unknown tools {unknown}; known: {', '.join(self.SPECS)}")
        return [self.SPECS[n].definition() for n in wanted]

    def parse(self, name: str, input: object) -> ToolInput:
        """The validated input of a call, or ToolInputError naming what is wrong."""
        if name not in self.allowed:
            raise ToolInputError(f"unknown tool {name!r}; the tools are: {', '.join(self.allowed)}")
        if not isinstance(input, dict):
            raise ToolInputError(f"{name}: the input must be a JSON object")
        check_text(input)
        model = self.SPECS[name].input
        try:
            return model.model_validate(input)
        except ValidationError as e:
            raise ToolInputError(validation_message(name, model, e)) from None

    def call(self, name: str, input: object) -> ToolResult:
        """Execute one tool call; every failure becomes an error result, never an exception."""

        def run() -> str:
            args = self.parse(name, input)
            return getattr(self, "tool_" + name)(args)

        return self.guarded(run, call=call_label(name, input))

    def guarded(self, fn: Callable[[], str], *, call: str | None = None) -> ToolResult:
        """Run `fn`; its text is the result, any failure an error result of one line (`call`
        names it when the database could not serve it)."""
        try:
            return ToolResult(fn())
        except Exception as e:
            if is_unavailable(e):
                text = unavailable_text(e, call)
                if self.RAISE_UNAVAILABLE:
                    raise DatabaseUnavailableError(text) from e
            else:
                text = self.error_text(e)
            # an error that quotes the input ("the text to replace was not found: '…'") goes
            # back to the caller, and often into a model's context and its logs: a secret in
            # it is sent as its marker, as everything doctree writes is
            text = mask(text)[0]
            return ToolResult(one_line(text) if self.ONE_LINE else text, is_error=True)

    def error_text(self, e: Exception) -> str:
        """What the caller reads for a failed call."""
        if isinstance(e, DoctreeError):
            return str(e)
        return unexpected_text(e)
