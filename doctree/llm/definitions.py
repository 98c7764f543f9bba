"""Agent definitions as data: one markdown file per agent in `agents/`, YAML frontmatter.

A definition names the model, the tools, the limits of one run, the prompt file and whether
the agent's own sessions are exempt from invalidation. It is read at run time, so changing
`agents/memory-agent.md` changes the next run without touching code.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from doctree.errors import UserError
from doctree.resources import resource_dir, resource_path
from doctree.store.frontmatter import frontmatter_block

# The memory tools a definition may name. The tool layer (`doctree.interop.tools`) implements
# exactly these, one input model each; tests/test_tools.py checks that the two agree.
TOOL_NAMES = (
    "document_read",
    "document_write",
    "document_search",
    "document_edit",
    "document_move",
    "document_delete",
)


class Pricing(BaseModel):
    """USD per million tokens of each kind."""

    model_config = ConfigDict(extra="forbid")

    input: float = Field(ge=0)
    output: float = Field(ge=0)
    cache_write: float = Field(ge=0)
    cache_read: float = Field(ge=0)

    def cost(
        self, input_tokens: int, output_tokens: int, cache_write_tokens: int, cache_read_tokens: int
    ) -> float:
        """Cost in USD of the given token counts."""
        return (
            input_tokens * self.input
            + output_tokens * self.output
            + cache_write_tokens * self.cache_write
            + cache_read_tokens * self.cache_read
        ) / 1_000_000


FREE = Pricing(input=0, output=0, cache_write=0, cache_read=0)


class OpenAISettings(BaseModel):
    """The `openai:` block of a definition: the agent on an OpenAI-compatible server
    (`--backend openai`). A local server (Ollama, llama.cpp) costs nothing by default."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    model: str | None = Field(default=None, min_length=1)
    context_window: int = Field(default=8192, ge=512)
    max_response_tokens: int = Field(default=1024, ge=64)
    pricing: Pricing = FREE


class AgentDefinition(BaseModel):
    """The frontmatter of `agents/<name>.md`, validated."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1)
    description: str = ""
    model: str = Field(min_length=1)
    prompt: str = Field(min_length=1)
    tools: list[str]
    max_turns: int = Field(ge=1)
    max_tokens: int = Field(ge=1)
    max_response_tokens: int = Field(default=4096, ge=1)
    max_budget_usd: float = Field(gt=0)
    pricing: Pricing
    invalidation: Literal["exempt", "normal"] = "normal"
    openai: OpenAISettings = OpenAISettings()
    source: str = ""  # the file it was read from (set by the loader)

    @field_validator("tools")
    @classmethod
    def _known_tools(cls, tools: list[str]) -> list[str]:
        unknown = [t for t in tools if t not in TOOL_NAMES]
        if unknown:
            raise ValueError(
                f"unknown tools {unknown}; a definition may name only {', '.join(TOOL_NAMES)}"
            )
        return tools

    def system_prompt(self) -> str:
        """The text of the prompt file this definition names."""
        path = resource_path(self.prompt)
        try:
            return path.read_text(encoding="utf-8")
        except OSError as e:
            raise UserError(
                f"agent {self.name!r}: prompt file {self.prompt!r} cannot be read ({e.strerror})"
            ) from None


def parse_definition(text: str, source: str = "<definition>") -> AgentDefinition:
    """Parse a definition file's text: YAML frontmatter between `---` lines, then free text."""
    if not text.startswith("---"):
        raise UserError(f"agent definition {source}: must start with YAML frontmatter ('---')")
    block = frontmatter_block(text)
    if block is None:
        raise UserError(f"agent definition {source}: frontmatter is not closed by a '---' line")
    try:
        meta = yaml.safe_load(block[0])
    except yaml.YAMLError as e:
        raise UserError(f"agent definition {source}: frontmatter is not valid YAML ({e})") from None
    if not isinstance(meta, dict):
        raise UserError(f"agent definition {source}: frontmatter must be a mapping")
    try:
        return AgentDefinition(**meta, source=source)
    except ValidationError as e:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc'])}: {err['msg']}" for err in e.errors()
        )
        raise UserError(f"agent definition {source}: {problems}") from None


def definition_path(name: str) -> Path:
    return resource_dir("agents") / f"{name}.md"


def load_definition(name: str = "memory-agent") -> AgentDefinition:
    """Read `agents/<name>.md` (from the checkout or the installed wheel)."""
    path = definition_path(name)
    if not path.is_file():
        known = ", ".join(sorted(p.stem for p in resource_dir("agents").glob("*.md")))
        raise UserError(f"agent definition {name!r}: no file {path.name} (known: {known})")
    return parse_definition(path.read_text(encoding="utf-8"), source=str(path))
