"""Token budgets for an agent's working context: a summary, facts, and recent entries.

Every agent has a token limit. When its context (summary + facts + buffer of recent entries)
reaches 80% of the limit, the older entries are compressed into the summary and removed from
the buffer, keeping the last 3 verbatim. If the context is still over the limit, a second pass
compresses the summary itself. After at most 2 passes, a logged fallback trims the oldest
part of the summary. Each agent is handled on its own: one agent's compression (or failure)
never touches another's context.

Why 80%: compressing before the limit is reached leaves room for the next turn's entries, so
an agent never has to compress in the middle of a turn.

Flow for one agent (`BudgetManager.fit`):

    total >= 80% of limit? ── no ──> done (0 passes)
        │ yes
    pass 1: entries[:-3] ──summarize──> summary; buffer = entries[-3:]
    total > limit and passes < 2? ── yes ──> pass 2: shorten the summary
    total > limit? ── yes ──> warning; trim the oldest lines of the summary

Token counts are an offline estimate (about 1.3 tokens a word, or a token per 4 characters,
whichever is more), or the Messages API's token counting when a key is set.
"""

from __future__ import annotations

import copy
import hashlib
import logging
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from doctree.memory.lines import KEY_WORDS, estimate_tokens, extract_lines, normal_key
from doctree.store.model import Provenance

log = logging.getLogger("doctree.memory.budgets")

COMPRESSION_THRESHOLD = 0.8
RETAIN_AFTER_COMPRESSION = 3
MAX_COMPRESSION_PASSES = 2
DEFAULT_MODEL = "claude-haiku-4-5"


class TokenCounter(Protocol):
    name: str

    def count(self, text: str) -> int: ...


class EstimatedTokenCounter:
    """Counts tokens offline with `estimate_tokens`."""

    name = "estimate"

    def count(self, text: str) -> int:
        return estimate_tokens(text)


class SdkTokenCounter:
    """Counts tokens with the Messages API (`client.messages.count_tokens`), caching by text."""

    name = "sdk"

    def __init__(self, client: Any = None, model: str = DEFAULT_MODEL):
        self.model = model
        self._client = client
        self._cache: dict[str, int] = {}

    @property
    def client(self) -> Any:
        if self._client is None:
            from doctree.llm.client import anthropic_client

            self._client = anthropic_client()
        return self._client

    def count(self, text: str) -> int:
        if not text:
            return 0
        key = hashlib.sha256(text.encode("utf-8")).hexdigest()
        if key not in self._cache:
            result = self.client.messages.count_tokens(
                model=self.model, messages=[{"role": "user", "content": text}]
            )
            self._cache[key] = int(result.input_tokens)
        return self._cache[key]


def token_counter(model: str = DEFAULT_MODEL, client: Any = None) -> TokenCounter:
    """The SDK's counter when ANTHROPIC_API_KEY is set (or a client is given), else the
    offline estimate."""
    if client is not None or os.environ.get("ANTHROPIC_API_KEY"):
        return SdkTokenCounter(client, model)
    return EstimatedTokenCounter()


# -- working context ----------------------------------------------------------------------


@dataclass
class WorkingContext:
    """One agent's working context: a long-term summary, facts, and recent entries
    (oldest first)."""

    agent: str
    token_limit: int
    summary: str = ""
    facts: list[str] = field(default_factory=list)
    buffer: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not isinstance(self.token_limit, int) or self.token_limit <= 0:
            raise ValueError(
                f"token_limit {self.token_limit!r} of agent {self.agent!r}: must be a positive "
                "whole number of tokens"
            )


class Summarizer(Protocol):
    """Compresses text: merges entries into a summary, and shortens a summary."""

    def summarize(self, summary: str, entries: Sequence[str]) -> str: ...

    def shorten(self, summary: str, target_tokens: int) -> str: ...


class ExtractiveSummarizer:
    """The offline summarizer: keeps list items and sentences carrying names, facts,
    decisions, relationships, goals and dates; drops repetition. Deterministic."""

    def summarize(self, summary: str, entries: Sequence[str]) -> str:
        lines = [ln for ln in summary.splitlines() if ln.strip()]
        seen = {normal_key(ln) for ln in lines}
        for entry in entries:
            for _, line in extract_lines(entry):
                key = normal_key(line)
                if key and key not in seen:
                    seen.add(key)
                    lines.append(line)
        return "\n".join(lines)

    def shorten(self, summary: str, target_tokens: int) -> str:
        """Keep only lines carrying a key word or a name (a capitalised word past the first)."""

        def strong(line: str) -> bool:
            words = line.lstrip("-*+ ").split()
            return bool(KEY_WORDS.search(line)) or any(w[:1].isupper() for w in words[1:])

        return "\n".join(ln for ln in summary.splitlines() if ln.strip() and strong(ln))


class ModelSummarizer:
    """Summarizes with one Messages API call per compression (the compaction agent's model,
    prompt and dollar limit)."""

    def __init__(self, client: Any = None, definition: Any = None):
        from doctree.memory.compaction import AnthropicCondenser

        self.agent = AnthropicCondenser(client, definition)

    def summarize(self, summary: str, entries: Sequence[str]) -> str:
        text = f"<summary>\n{summary}\n</summary>\n" + "\n".join(
            f"<entry>\n{e}\n</entry>" for e in entries
        )
        return self.agent.ask(
            "Merge these entries into the running summary. Keep names, facts, decisions, "
            "relationships and goals; drop chatter. Reply with the new summary only.\n\n" + text,
            what="summary compression",
        )

    def shorten(self, summary: str, target_tokens: int) -> str:
        return self.agent.ask(
            f"Shorten this summary to at most {target_tokens} tokens. Keep names, facts, "
            "decisions, relationships and goals. Reply with the summary only.\n\n" + summary,
            what="summary shortening",
            max_tokens=max(64, target_tokens),
        )


@dataclass
class FitReport:
    """What `BudgetManager.fit` did for one agent."""

    agent: str
    limit: int
    tokens_before: int
    tokens_after: int = 0
    passes: int = 0
    compressed_entries: int = 0
    trimmed_lines: int = 0
    over_limit: bool = False
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return self.__dict__.copy()


class BudgetManager:
    """Keeps working contexts within their token limits (see the module docstring)."""

    def __init__(
        self,
        counter: TokenCounter | None = None,
        summarizer: Summarizer | None = None,
        *,
        threshold: float = COMPRESSION_THRESHOLD,
        retain: int = RETAIN_AFTER_COMPRESSION,
        max_passes: int = MAX_COMPRESSION_PASSES,
    ):
        self.counter = counter or EstimatedTokenCounter()
        self.summarizer = summarizer or ExtractiveSummarizer()
        self.threshold, self.retain, self.max_passes = threshold, retain, max_passes

    # -- counting --

    def summary_tokens(self, ctx: WorkingContext) -> int:
        return self.counter.count(ctx.summary)

    def facts_tokens(self, ctx: WorkingContext) -> int:
        return sum(self.counter.count(f) for f in ctx.facts)

    def buffer_tokens(self, ctx: WorkingContext) -> int:
        return sum(self.counter.count(e) for e in ctx.buffer)

    def total_tokens(self, ctx: WorkingContext) -> int:
        """Summary + facts + buffer: the whole working context."""
        return self.summary_tokens(ctx) + self.facts_tokens(ctx) + self.buffer_tokens(ctx)

    def is_near_limit(self, ctx: WorkingContext) -> bool:
        """At or past the compression threshold (80% of the limit by default)."""
        return self.total_tokens(ctx) >= ctx.token_limit * self.threshold

    def is_over_limit(self, ctx: WorkingContext) -> bool:
        return self.total_tokens(ctx) > ctx.token_limit

    # -- compressing --

    def compress_buffer(self, ctx: WorkingContext) -> int:
        """Merge all but the last `retain` entries into the summary; returns how many."""
        if len(ctx.buffer) <= self.retain:
            return 0
        cut = len(ctx.buffer) - self.retain
        old, ctx.buffer = ctx.buffer[:cut], ctx.buffer[cut:]
        ctx.summary = self.summarizer.summarize(ctx.summary, old)
        return cut

    def compress_summary(self, ctx: WorkingContext) -> None:
        """Shorten the summary toward what is left of the limit after facts and buffer."""
        room = ctx.token_limit - self.facts_tokens(ctx) - self.buffer_tokens(ctx)
        ctx.summary = self.summarizer.shorten(ctx.summary, max(room, 0))

    def trim_summary(self, ctx: WorkingContext) -> int:
        """The fallback: drop the oldest lines of the summary until the context fits (or the
        summary is empty). Returns how many lines were dropped."""
        lines = ctx.summary.splitlines()
        dropped = 0
        while lines and self.is_over_limit(ctx):
            lines.pop(0)
            dropped += 1
            ctx.summary = "\n".join(lines)
        return dropped

    def fit(self, ctx: WorkingContext) -> FitReport:
        """Bring one agent's context within its limit. `ctx` changes only on success."""
        work = copy.deepcopy(ctx)
        report = FitReport(ctx.agent, ctx.token_limit, self.total_tokens(work))
        if self.is_near_limit(work):
            while report.passes < self.max_passes:
                report.passes += 1
                if report.passes == 1:
                    report.compressed_entries = self.compress_buffer(work)
                else:
                    self.compress_summary(work)
                if not self.is_over_limit(work):
                    break
            if self.is_over_limit(work):
                log.warning(
                    "agent %s: context still %d tokens over its limit of %d after %d "
                    "compression passes; trimming the oldest part of the summary",
                    ctx.agent,
                    self.total_tokens(work) - ctx.token_limit,
                    ctx.token_limit,
                    report.passes,
                )
                report.trimmed_lines = self.trim_summary(work)
                if self.is_over_limit(work):
                    log.warning(
                        "agent %s: facts and the last %d entries alone take %d tokens, over "
                        "the limit of %d",
                        ctx.agent,
                        len(work.buffer),
                        self.total_tokens(work),
                        ctx.token_limit,
                    )
        report.tokens_after = self.total_tokens(work)
        report.over_limit = report.tokens_after > ctx.token_limit
        ctx.summary, ctx.facts, ctx.buffer = work.summary, work.facts, work.buffer
        return report

    def manage(self, contexts: Iterable[WorkingContext]) -> dict[str, FitReport]:
        """Check and compress every agent's context, each independently: a failure for one
        agent is logged and reported, leaves that context as it was, and never stops the
        others."""
        reports: dict[str, FitReport] = {}
        for ctx in contexts:
            try:
                reports[ctx.agent] = self.fit(ctx)
            except Exception as e:
                log.warning(
                    "agent %s: compression failed, context left as it was: %s", ctx.agent, e
                )
                total = self.total_tokens(ctx)
                reports[ctx.agent] = FitReport(
                    ctx.agent,
                    ctx.token_limit,
                    total,
                    total,
                    over_limit=total > ctx.token_limit,
                    error=f"{type(e).__name__}: {e}",
                )
        return reports


# -- working context as documents -----------------------------------------------------------

CONTEXT_ROOT = "~/context"
ENTRY_MARK = "<!-- entry -->"


def load_working_context(
    repo: Any, agent: str, token_limit: int, root: str = CONTEXT_ROOT
) -> WorkingContext:
    """An agent's working context from its documents `<root>/summary`, `<root>/facts` (one
    `- fact` a line) and `<root>/buffer` (entries separated by `<!-- entry -->` lines)."""

    def body(name: str) -> str:
        doc = repo.get(agent, f"{root}/{name}")
        return doc.body if doc else ""

    facts = [ln[2:].strip() for ln in body("facts").splitlines() if ln.startswith("- ")]
    entries = [e.strip() for e in body("buffer").split(ENTRY_MARK) if e.strip()]
    return WorkingContext(agent, token_limit, body("summary").strip(), facts, entries)


def save_working_context(repo: Any, ctx: WorkingContext, root: str = CONTEXT_ROOT) -> None:
    """Write the context back as versioned documents (unchanged parts make no new version)."""
    from doctree.store.documents import Actor

    actor = Actor("system", "budgets")
    with repo.transaction():
        repo.write(
            ctx.agent, f"{root}/summary", ctx.summary, title="Summary", provenance=Provenance(actor)
        )
        repo.write(
            ctx.agent,
            f"{root}/facts",
            "".join(f"- {f}\n" for f in ctx.facts),
            title="Facts",
            provenance=Provenance(actor),
        )
        buffer = "".join(f"{ENTRY_MARK}\n{e}\n" for e in ctx.buffer)
        repo.write(
            ctx.agent,
            f"{root}/buffer",
            buffer,
            title="Recent entries",
            provenance=Provenance(actor),
        )
