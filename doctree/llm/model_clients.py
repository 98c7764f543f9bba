"""The model-client seam: one tool loop (`doctree.agent.runtime`), one client per wire format.

The loop speaks in `ModelTurn`s (what the model said, the tool calls it made, why it stopped,
the usage) and `ToolOutcome`s (the result of each call); a client turns them into requests of
its API and keeps the conversation in that API's shape:

- `AnthropicModel`: the Messages API, laid out for the prompt cache (tool definitions, then
  the system prompt, then the transcript, each ending in a `cache_control` breakpoint, then
  the growing conversation with a breakpoint on its newest block), so every request after
  the first repeats the previous one's prefix.
- `OpenAIModel`: chat completions with tool calls, for any OpenAI-compatible server (Ollama,
  llama.cpp's server, vLLM, LM Studio, OpenAI). Arguments that are not a JSON object become a
  tool error for the model, and the conversation is kept inside the model's context window:
  older tool results are elided first, and a prompt that cannot fit is refused up front.
"""

from __future__ import annotations

import copy
import json
import math
import re
from dataclasses import dataclass, field
from typing import Any, Protocol

from doctree.errors import DoctreeError, UserError
from doctree.llm.definitions import AgentDefinition, Pricing
from doctree.store.runs import Usage

CACHE = {"type": "ephemeral"}

#: Bytes of prompt counted as one token when no tokenizer of the served model is at hand.
#: English prose runs near 4 bytes a token and JSON near 3; 3 errs on the side of room.
BYTES_PER_TOKEN = 3
#: Tokens a run needs beyond the fixed prompt and the reply: the transcript and the first
#: tool results. A window without this much room is refused before any run.
WORKING_ROOM = 1536
#: Of that room, what a transcript split to fit leaves for tool results beside each part.
RESULTS_ROOM = 1024
CUT = (
    "\n[cut to fit the context window: {n} more characters; read less at a time, e.g. "
    "search for what you need]"
)
ELIDED = "[elided to fit the context window: {n} characters; call the tool again if you need it]"


class ContextWindowError(DoctreeError):
    """The conversation cannot fit the model's context window, even with old results elided."""


@dataclass
class ToolCall:
    """One tool call of a turn. `problem` says why it cannot be run (arguments that are not
    a JSON object); the loop then answers it with an error result instead of running it."""

    id: str
    name: str
    input: Any
    problem: str | None = None


@dataclass
class ModelTurn:
    """One response of the model, in the loop's terms.

    `blocks` are what the model said as the memory agent's session records them (`text` and
    `tool_use` blocks); `stop` is `end_turn` (or `stop_sequence`), `tool_use`, `max_tokens`
    or what else the server said.
    """

    blocks: list[dict[str, Any]]
    calls: list[ToolCall]
    stop: str
    usage: Usage

    @property
    def text(self) -> str:
        return "\n".join(b["text"] for b in self.blocks if b["type"] == "text")


@dataclass
class ToolOutcome:
    """The answer to one tool call."""

    call_id: str
    content: str
    is_error: bool


class ModelChat(Protocol):
    """One run's conversation with the model, kept in the client's wire format."""

    def send(self) -> ModelTurn:
        """Send the conversation; the reply is added to it and returned."""
        ...

    def answer(self, outcomes: list[ToolOutcome], note: str | None = None) -> None:
        """Add the results of the last turn's calls and, if given, a note to the model (a
        correction after a misbehaving turn)."""
        ...


class ModelClient(Protocol):
    """A model backend of the memory agent's tool loop."""

    backend: str
    model: str
    #: Whether a reply without any tool call before the run has called one is a misbehaviour
    #: to correct (small local models answer in prose); a frontier model's word is final.
    insists_on_tools: bool

    def chat(
        self, system_prompt: str, tool_definitions: list[dict[str, Any]], user_message: str
    ) -> ModelChat: ...

    def cost(self, usage: Usage) -> float: ...

    def transcript_room(
        self, system_prompt: str, tool_definitions: list[dict[str, Any]]
    ) -> int | None:
        """Bytes of the first user message that leave the run room to work in its context
        window, or None when the window is no constraint (the transcript is never split)."""
        ...

    def close(self) -> None: ...


def estimate_tokens(text: str) -> int:
    """Tokens of `text` at `BYTES_PER_TOKEN` bytes a token (rounded up)."""
    return math.ceil(len(text.encode("utf-8", "replace")) / BYTES_PER_TOKEN)


# -- Anthropic: the Messages API ------------------------------------------------------------


def with_cache_markers(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A copy of the conversation with breakpoints on the transcript and the newest block."""
    out = copy.deepcopy(messages)
    marked = {0}
    if len(out) > 1 and out[-1]["role"] == "user":
        marked.add(len(out) - 1)
    for i in marked:
        content = out[i]["content"]
        if isinstance(content, list) and content:
            content[-1]["cache_control"] = dict(CACHE)
    return out


def _block_param(block: Any) -> dict[str, Any]:
    """An SDK response content block as the request parameter that echoes it back."""
    kind = getattr(block, "type", None)
    if kind == "text":
        return {"type": "text", "text": block.text}
    if kind == "tool_use":
        return {"type": "tool_use", "id": block.id, "name": block.name, "input": block.input}
    return block.to_dict()


def utf8_safe(value: Any) -> Any:
    """`value` with every lone surrogate in its strings replaced by U+FFFD."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
        return value
    if isinstance(value, dict):
        return {utf8_safe(k): utf8_safe(v) for k, v in value.items()}
    if isinstance(value, list):
        return [utf8_safe(v) for v in value]
    return value


def _anthropic_usage(response: Any) -> Usage:
    u = getattr(response, "usage", None)
    if u is None:  # a response without usage counts nothing rather than failing the run
        return Usage()
    return Usage(
        input_tokens=getattr(u, "input_tokens", None) or 0,
        output_tokens=getattr(u, "output_tokens", None) or 0,
        cache_read_tokens=getattr(u, "cache_read_input_tokens", None) or 0,
        cache_write_tokens=getattr(u, "cache_creation_input_tokens", None) or 0,
    )


class AnthropicChat:
    """A run's conversation on the Messages API, with its cache breakpoints."""

    def __init__(
        self,
        model: AnthropicModel,
        system_prompt: str,
        tool_definitions: list[dict[str, Any]],
        user_message: str,
    ):
        self.model = model
        self.system = [{"type": "text", "text": system_prompt, "cache_control": dict(CACHE)}]
        self.tools = copy.deepcopy(tool_definitions)
        if self.tools:
            self.tools[-1]["cache_control"] = dict(CACHE)
        self.messages: list[dict[str, Any]] = [
            {"role": "user", "content": [{"type": "text", "text": user_message}]}
        ]

    def send(self) -> ModelTurn:
        d = self.model.definition
        response = self.model.sdk.messages.create(
            model=d.model,
            max_tokens=d.max_response_tokens,
            system=self.system,
            tools=self.tools,
            messages=with_cache_markers(self.messages),
        )
        said = [_block_param(b) for b in response.content]
        # Echoed back as sent, except text that is not UTF-8 (a lone surrogate from a JSON
        # escape), which no request can carry: U+FFFD in its place. The tool call itself
        # gets the input as the model gave it, and refuses it with an error result.
        content = utf8_safe(said)
        self.messages.append({"role": "assistant", "content": content})
        calls = [ToolCall(b["id"], b["name"], b["input"]) for b in said if b["type"] == "tool_use"]
        return ModelTurn(content, calls, str(response.stop_reason), _anthropic_usage(response))

    def answer(self, outcomes: list[ToolOutcome], note: str | None = None) -> None:
        content: list[dict[str, Any]] = [
            {
                "type": "tool_result",
                "tool_use_id": o.call_id,
                "content": o.content,
                "is_error": o.is_error,
            }
            for o in outcomes
        ]
        if note:
            content.append({"type": "text", "text": note})
        self.messages.append({"role": "user", "content": content})


class AnthropicModel:
    """The Messages API through the `anthropic` SDK (also the replay backend's client)."""

    insists_on_tools = False

    def __init__(self, sdk: Any, definition: AgentDefinition, backend: str = "anthropic"):
        self.sdk = sdk
        self.definition = definition
        self.backend = backend
        self.model = definition.model

    def chat(
        self, system_prompt: str, tool_definitions: list[dict[str, Any]], user_message: str
    ) -> AnthropicChat:
        return AnthropicChat(self, system_prompt, tool_definitions, user_message)

    def cost(self, usage: Usage) -> float:
        return self.definition.pricing.cost(
            usage.input_tokens,
            usage.output_tokens,
            usage.cache_write_tokens,
            usage.cache_read_tokens,
        )

    def transcript_room(
        self, system_prompt: str, tool_definitions: list[dict[str, Any]]
    ) -> int | None:
        return None

    def close(self) -> None:
        self.sdk.close()


# -- OpenAI-compatible: chat completions with tool calls --------------------------------------


@dataclass(frozen=True)
class PromptBudget:
    """What the memory agent's prompt needs of a context window, in estimated tokens."""

    system: int
    tools: int
    reply: int
    room: int = WORKING_ROOM

    @property
    def total(self) -> int:
        return self.system + self.tools + self.reply + self.room

    def describe(self) -> str:
        return (
            f"{self.total:,} tokens (system prompt {self.system:,} + tool definitions "
            f"{self.tools:,} + reply {self.reply:,} + room for the transcript and tool results "
            f"{self.room:,})"
        )


def openai_tools(tool_definitions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tool definitions as chat-completions `function` tools."""
    return [
        {
            "type": "function",
            "function": {
                "name": t["name"],
                "description": t.get("description", ""),
                "parameters": t["input_schema"],
            },
        }
        for t in tool_definitions
    ]


def prompt_budget(
    system_prompt: str, tool_definitions: list[dict[str, Any]], reply_tokens: int
) -> PromptBudget:
    """The budget a chat-completions run of this prompt needs."""
    return PromptBudget(
        system=estimate_tokens(system_prompt),
        tools=estimate_tokens(json.dumps(openai_tools(tool_definitions), ensure_ascii=False)),
        reply=reply_tokens,
    )


def _arguments(name: str, raw: Any) -> tuple[Any, str | None]:
    """The parsed arguments of a call, or None and why they cannot be used."""
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return {}, None
    if isinstance(raw, dict):
        return raw, None
    try:
        value = json.loads(raw)
    except (TypeError, ValueError) as e:
        return None, (
            f"error: the arguments of {name} are not valid JSON ({e}); nothing was run. "
            "Call the tool again with one JSON object as its arguments."
        )
    if not isinstance(value, dict):
        return None, (
            f"error: the arguments of {name} must be one JSON object, not "
            f"{type(value).__name__}; nothing was run."
        )
    return value, None


def _shortened(arguments: str) -> str:
    """A call's JSON arguments with every long string value replaced by a note of its size
    (still one JSON object, so servers that parse the history accept it)."""
    try:
        value = json.loads(arguments)
    except ValueError:
        return arguments
    if not isinstance(value, dict):
        return arguments
    short = {
        k: (f"[elided: {len(v)} characters]" if isinstance(v, str) and len(v) > 120 else v)
        for k, v in value.items()
    }
    return json.dumps(short, ensure_ascii=False)


def _openai_usage(response: Any) -> Usage:
    """Usage as the server reports it: prompt tokens (less those it served from its cache),
    completion tokens and cached prompt tokens. A server that reports none counts nothing."""
    u = getattr(response, "usage", None)
    if u is None:
        return Usage()
    prompt = getattr(u, "prompt_tokens", None) or 0
    details = getattr(u, "prompt_tokens_details", None)
    cached = (getattr(details, "cached_tokens", None) or 0) if details is not None else 0
    return Usage(
        input_tokens=max(prompt - cached, 0),
        output_tokens=getattr(u, "completion_tokens", None) or 0,
        cache_read_tokens=cached,
    )


@dataclass
class OpenAIChat:
    """A run's conversation as chat-completions messages, kept inside the context window."""

    model: OpenAIModel
    tools: list[dict[str, Any]]
    messages: list[dict[str, Any]]
    turns: int = 0
    ids: set[str] = field(default_factory=set)

    def _tokens(self) -> int:
        text = json.dumps(self.messages, ensure_ascii=False) + json.dumps(
            self.tools, ensure_ascii=False
        )
        return estimate_tokens(text)

    def fit(self) -> None:
        """Make the next request fit the window: elide the oldest tool results and the long
        arguments of old calls (the model keeps seeing every call it made, so it does not
        repeat itself), then cut the newest results; raise ContextWindowError if even that
        cannot make room."""
        window = self.model.context_window
        need = self._tokens() + self.model.max_response_tokens
        if need <= window:
            return
        last_assistant = max(
            (i for i, m in enumerate(self.messages) if m["role"] == "assistant"), default=-1
        )
        for m in self.messages[:last_assistant]:
            if m["role"] == "tool" and not m["content"].startswith("[elided"):
                m["content"] = ELIDED.format(n=len(m["content"]))
            elif m["role"] == "assistant" and m.get("tool_calls"):
                for c in m["tool_calls"]:  # what an old call wrote is in memory now
                    c["function"]["arguments"] = _shortened(c["function"]["arguments"])
            else:
                continue
            need = self._tokens() + self.model.max_response_tokens
            if need <= window:
                return
        # Still too long: cut the newest results (the largest first) down to what fits.
        newest = [m for m in self.messages[last_assistant + 1 :] if m["role"] == "tool"]
        for m in sorted(newest, key=lambda m: -len(m["content"])):
            text = original = m["content"]
            while need > window:
                keep = len(text) - (need - window) * BYTES_PER_TOKEN - len(CUT) - 64
                if keep < 200:
                    break
                text = text[:keep]
                m["content"] = text + CUT.format(n=len(original) - len(text))
                need = self._tokens() + self.model.max_response_tokens
            if need <= window:
                return
        raise ContextWindowError(
            f"model {self.model.model!r}: the conversation needs about {need:,} tokens, more "
            f"than its context window of {window:,} (a record of the transcript too long "
            "to cut, or a reply too large: use a model with a larger window, --context-window)"
        )

    def send(self) -> ModelTurn:
        self.fit()
        self.turns += 1
        response = self.model.sdk.chat.completions.create(
            model=self.model.model,
            messages=self.messages,
            tools=self.tools,
            max_tokens=self.model.max_response_tokens,
        )
        usage = _openai_usage(response)
        if not response.choices:
            raise DoctreeError(f"model {self.model.model!r}: the response has no choices")
        choice = response.choices[0]
        message = choice.message
        text = message.content or ""
        blocks: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
        calls: list[ToolCall] = []
        echoed: list[dict[str, Any]] = []
        for i, tc in enumerate(message.tool_calls or []):
            function = getattr(tc, "function", None)
            name = str(getattr(function, "name", None) or "")
            raw = getattr(function, "arguments", None)
            call_id = getattr(tc, "id", None) or f"call_{self.turns}_{i}"
            if call_id in self.ids:  # some servers number calls per reply, or repeat ids
                call_id = f"{call_id}_{self.turns}_{i}"
            self.ids.add(call_id)
            args, problem = _arguments(name, raw)
            calls.append(ToolCall(call_id, name, args, problem))
            blocks.append(
                {"type": "tool_use", "id": call_id, "name": name, "input": raw if problem else args}
            )
            # Arguments that are not JSON are echoed as a JSON object holding the text, since
            # some servers parse the history's arguments and would refuse the next request.
            arguments = raw if problem is None else json.dumps({"invalid_arguments": str(raw)})
            echoed.append(
                {
                    "id": call_id,
                    "type": "function",
                    "function": {"name": name, "arguments": arguments or "{}"},
                }
            )
        said: dict[str, Any] = {"role": "assistant", "content": text or None}
        if echoed:
            said["tool_calls"] = echoed
        self.messages.append(utf8_safe(said))
        stop = {"stop": "end_turn", "length": "max_tokens", "tool_calls": "tool_use"}.get(
            str(choice.finish_reason), str(choice.finish_reason)
        )
        if calls and stop == "end_turn":
            stop = "tool_use"  # some servers say "stop" after tool calls
        return ModelTurn(utf8_safe(blocks), calls, stop, usage)

    def answer(self, outcomes: list[ToolOutcome], note: str | None = None) -> None:
        for o in outcomes:
            self.messages.append({"role": "tool", "tool_call_id": o.call_id, "content": o.content})
        if note:
            self.messages.append({"role": "user", "content": note})


class OpenAIModel:
    """Chat completions with tool calls through the `openai` SDK, on any compatible server."""

    backend = "openai"
    insists_on_tools = True

    def __init__(
        self,
        sdk: Any,
        model: str,
        *,
        context_window: int,
        max_response_tokens: int,
        pricing: Pricing,
    ):
        self.sdk = sdk
        self.model = model
        self.context_window = context_window
        self.max_response_tokens = max_response_tokens
        self.pricing = pricing

    def check_window(self, system_prompt: str, tool_definitions: list[dict[str, Any]]) -> None:
        """Refuse a model whose context window cannot hold the prompt and a little room."""
        budget = prompt_budget(system_prompt, tool_definitions, self.max_response_tokens)
        if budget.total > self.context_window:
            raise UserError(
                f"model {self.model!r}: a context window of {self.context_window:,} tokens "
                f"cannot hold the memory agent's prompt, which needs {budget.describe()}; "
                "use a model (or a server setting) with a larger window and give it with "
                "--context-window"
            )

    def transcript_room(
        self, system_prompt: str, tool_definitions: list[dict[str, Any]]
    ) -> int | None:
        budget = prompt_budget(system_prompt, tool_definitions, self.max_response_tokens)
        fixed = budget.system + budget.tools + budget.reply
        return max(self.context_window - fixed - RESULTS_ROOM, 0) * BYTES_PER_TOKEN

    def chat(
        self, system_prompt: str, tool_definitions: list[dict[str, Any]], user_message: str
    ) -> OpenAIChat:
        return OpenAIChat(
            self,
            openai_tools(tool_definitions),
            [
                {"role": "system", "content": system_prompt},
                {"role": "user", "content": user_message},
            ],
        )

    def cost(self, usage: Usage) -> float:
        return self.pricing.cost(
            usage.input_tokens,
            usage.output_tokens,
            usage.cache_write_tokens,
            usage.cache_read_tokens,
        )

    def close(self) -> None:
        self.sdk.close()


# -- misbehaviour a tool loop corrects --------------------------------------------------------

_TEXT_CALL_MARKERS = re.compile(
    r"<tool_call>|<function[=>]|\[TOOL_CALLS\]|<\|python_tag\|>|<\|tool_call"
)
_ARGUMENTS_KEY = re.compile(r"\"(?:arguments|parameters)\"\s*:")


def text_tool_call(text: str, tool_names: list[str]) -> str | None:
    """Why `text` looks like a tool call written as plain text, or None.

    Small models often print a call (`<tool_call>{"name": ...}`, a JSON object with
    `arguments`, `document_read(path=...)`) instead of making it through the API.
    """
    if not text:
        return None
    marker = _TEXT_CALL_MARKERS.search(text)
    if marker:
        return f"it holds {marker.group(0).strip()!r}"
    for name in tool_names:
        if (
            re.search(rf"\b{re.escape(name)}\s*\(", text)
            or re.search(rf"\"name\"\s*:\s*\"{re.escape(name)}\"", text)
            or (name in text and _ARGUMENTS_KEY.search(text))
        ):
            return f"it names the tool {name} as text"
    return None
