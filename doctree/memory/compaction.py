"""Compaction: condensing a memory subtree that has grown past its budget into one document.

A pass works on a snapshot. It records every live document of the subtree with its version,
hands their bodies to a condenser (the compaction agent on the Messages API, or an extractive,
deterministic condenser offline), then in one transaction writes the condensed document
(`<subtree>/compacted`, re-compacting an earlier one together with the new documents) and
retires — deletes, leaving tombstones whose history stays readable — only the documents that
are still at their snapshot version. A document written while the model was thinking is kept.
The condensed document links to every source it absorbed.

What a pass may take is limited: pages written by hand (a version with content by a person or
by the agent itself: actor kind `user` or `agent`, which is also what `import` records) are
left alone unless asked for (`include_hand_written`), and are reported as skipped; the memory
root `~/memory` (and the home `~`) is compacted only when asked for by name
(`whole_memory`), or by the policy the worker's hook follows. A pass is one run of the
compaction agent, so `revert_run` of that run puts every condensed source back and removes
the condensed page.

One compaction per owner runs at a time across processes (the lease `compaction:<owner>`);
the lease is released on failure too. A failure is logged, changes nothing, and the next
trigger simply tries again.
"""

from __future__ import annotations

import logging
import os
import re
import sqlite3
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from doctree.errors import ConflictError, DatabaseUnavailableError, DoctreeError, UserError
from doctree.llm.backends import parse_backend
from doctree.memory.layout import ACTIVE, CORRECTIONS, MEMORY_ROOT, PATTERNS
from doctree.memory.lines import HEADING_LINE, estimate_tokens, normal_key
from doctree.store.backends import describe
from doctree.store.documents import Actor, Document, DocumentsRepository, Provenance
from doctree.store.leases import Leases, new_holder
from doctree.store.paths import HOME, normalize_path, validate_owner
from doctree.store.references import split_frontmatter

log = logging.getLogger("doctree.memory.compaction")

DEFAULT_THRESHOLD = 24_000
DEFAULT_UNDER = MEMORY_ROOT
BUDGET_SHARE = 0.5  # the condensed document aims at half the threshold...
DEFAULT_BUDGET = 6_000  # ...and at most this, to fit load_memories' default cap of 8,000
NEW_SHARE = 0.25  # a pass needs new material worth a quarter of the threshold
GAIN_SHARE = 0.75  # a threshold-driven pass writes only if it shrinks what it replaces to this
DEFAULT_KEEP: tuple[str, ...] = (ACTIVE, PATTERNS, CORRECTIONS)
CONDENSED_NAME = "compacted"
CONDENSED_TITLE = "Compacted memory"
LEASE_TTL = 600.0
COMPACTION_ACTOR = Actor("system", "compaction")
AGENT_NAME = "compaction-agent"
SOURCES_HEADING = "## Sources"


class CompactionError(DoctreeError):
    """A compaction pass could not produce a condensed document; nothing was changed."""


# -- policy ------------------------------------------------------------------------------


def _parse_thresholds(text: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for item in filter(None, (p.strip() for p in text.split(","))):
        owner, sep, value = item.partition("=")
        if not sep or not value.strip().isdigit():
            raise UserError(
                f"DOCTREE_COMPACTION_THRESHOLDS item {item!r}: use OWNER=BYTES, e.g. main=40000"
            )
        out[validate_owner(owner.strip())] = int(value)
    return out


@dataclass
class CompactionPolicy:
    """When and what to compact: a size threshold in bytes (one default, overridable per
    owner) for the subtree `under`, and `keep`: subtrees a pass never absorbs or retires (by
    default the tier pages the memory agent keeps current: active, patterns, corrections).
    Environment: DOCTREE_COMPACTION_THRESHOLD (bytes), DOCTREE_COMPACTION_THRESHOLDS
    (`owner=bytes,owner=bytes`) and DOCTREE_COMPACTION_KEEP (comma-separated paths)."""

    threshold: int = DEFAULT_THRESHOLD
    thresholds: dict[str, int] = field(default_factory=dict)
    under: str = DEFAULT_UNDER
    keep: tuple[str, ...] = DEFAULT_KEEP
    budget: int = DEFAULT_BUDGET

    def threshold_for(self, owner: str) -> int:
        return self.thresholds.get(owner, self.threshold)

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> CompactionPolicy:
        env = os.environ if environ is None else environ
        threshold = DEFAULT_THRESHOLD
        if raw := env.get("DOCTREE_COMPACTION_THRESHOLD"):
            if not raw.strip().isdigit():
                raise UserError(f"DOCTREE_COMPACTION_THRESHOLD {raw!r}: must be a number of bytes")
            threshold = int(raw)
        keep = DEFAULT_KEEP
        if (raw_keep := env.get("DOCTREE_COMPACTION_KEEP")) is not None:
            keep = tuple(normalize_path(p.strip()) for p in raw_keep.split(",") if p.strip())
        return cls(
            threshold, _parse_thresholds(env.get("DOCTREE_COMPACTION_THRESHOLDS", "")), keep=keep
        )

    def budget_for(self, owner: str) -> int:
        """Bytes the condensed text should stay within: half the owner's threshold, and at
        most `budget` (by default small enough for the condensed document, with its Sources
        section, to fit the default cap of `load_memories`)."""
        return max(1024, min(int(self.threshold_for(owner) * BUDGET_SHARE), self.budget))

    def keeps(self, path: str) -> bool:
        return any(path == k or path.startswith(k + "/") for k in self.keep)


# -- the snapshot and the result ------------------------------------------------------------


@dataclass(frozen=True)
class SourceDocument:
    """A document as the pass saw it when it started."""

    id: int
    path: str
    title: str
    body: str
    version: int

    @classmethod
    def of(cls, doc: Document) -> SourceDocument:
        return cls(doc.id, doc.path, doc.title, doc.body, doc.version)


@dataclass
class CompactionResult:
    """What a pass did. status: compacted, skipped (another holder has the lease),
    below-threshold, nothing (too little to condense), no-gain (a threshold-driven pass whose
    condensed text would save less than a quarter: nothing written) or failed. `retired`: the sources
    condensed and deleted; `kept`: sources changed during the pass (left as they are);
    `skipped`: pages written by hand, neither condensed nor retired; `run_id`: the pass's
    run (`revert_run` of it puts the pass back)."""

    owner: str
    under: str
    status: str
    backend: str = ""
    size_before: int = 0
    size_after: int = 0
    condensed_path: str | None = None
    condensed_version: int | None = None
    retired: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # written by hand, left alone
    error: str | None = None
    seconds: float = 0.0
    run_id: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return self.__dict__.copy()


# -- condensers ------------------------------------------------------------------------------


class Condenser(Protocol):
    """Turns the snapshot into condensed markdown (without the Sources section)."""

    name: str

    def condense(
        self,
        sources: Sequence[SourceDocument],
        *,
        previous: SourceDocument | None,
        under: str,
        budget_bytes: int | None = None,
    ) -> str: ...


def strip_sources(body: str) -> str:
    """The body of a condensed document without its Sources section."""
    head, sep, _ = body.partition("\n" + SOURCES_HEADING + "\n")
    return head.rstrip() if sep else body.rstrip()


def _sections(body: str) -> list[tuple[str, list[str]]]:
    """Split an earlier condensed body into (heading, lines) sections: every line but its
    title and its Sources section, blank lines included (they separate blocks)."""
    sections: list[tuple[str, list[str]]] = [("", [])]
    for i, line in enumerate(strip_sources(body).splitlines()):
        if i == 0 and line.startswith("# "):
            continue
        if line.startswith("## "):
            sections.append((line, []))
        else:
            sections[-1][1].append(line)
    return [(h, lines) for h, lines in sections if any(ln.strip() for ln in lines)]


_LINK = re.compile(r"\[\[[^\]]*\]\]|\]\([^)]*\)")
_LINK_TOKEN = re.compile(r"\[\[[^\]]*\]\]|\[[^\]]*\]\([^)]*\)")
_ALSO = re.compile(r"\(also \[\[[^\]]*\]\]\)")  # what a repeat adds to the line it repeats
_FENCE = ("```", "~~~")


def line_key(line: str) -> str:
    """What makes two lines the same line for compaction: their words and punctuation-free
    text once their links are set aside (a list marker or heading level does not count).
    Empty for a line that is only links or punctuation."""
    return normal_key(_LINK.sub(" ", _ALSO.sub(" ", line)))


def link_tokens(line: str) -> list[str]:
    """The `[[wiki]]` and `[text](target)` links of a line, in order."""
    return _LINK_TOKEN.findall(line)


def _fence_after(open_fence: str | None, line: str) -> str | None:
    """The open code fence after a fence line: it closes one opened by the same marker."""
    marker = line.strip()[:3]
    if open_fence is None:
        return marker
    return None if marker == open_fence else open_fence


def source_lines(body: str, title: str) -> list[str]:
    """The lines of a source as the condensed document keeps them: every line of the body but
    a YAML frontmatter block and a first `# heading` equal to the title (the section's own
    heading names the source); headings are moved two levels down, below the section's."""
    if body.startswith("---"):
        _, body = split_frontmatter(body)
    lines = body.splitlines()
    first = next((i for i, ln in enumerate(lines) if ln.strip()), None)
    if first is not None:
        heading = HEADING_LINE.match(lines[first])
        if heading and len(heading[1]) == 1 and normal_key(heading[2]) == normal_key(title):
            lines = lines[first + 1 :]
    out: list[str] = []
    in_code: str | None = None
    for line in lines:
        if line.strip().startswith(_FENCE):
            in_code = _fence_after(in_code, line)
        elif not in_code and (m := HEADING_LINE.match(line)):
            line = "#" * min(len(m.group(1)) + 2, 6) + line[len(m.group(1)) :]
        out.append(line.rstrip())
    return out


class ExtractiveCondenser:
    """The offline condenser: lossless. It keeps every line of every source, grouped by
    source (each section headed by a link to it), and drops only repeats: a line equal to
    one kept before (`line_key`: the same words once links, list markers and punctuation are
    set aside) goes, and the kept line takes the links it lacked, plus `(also [[source]])`
    when it was kept under another source, so a fact stays tied to every page that said it
    (a repeat shorter than what it would add to the kept line simply stays where it is).
    Headings, code blocks and table rows are never dropped. Deterministic, no model.

    It keeps everything even past `budget_bytes` (a model condenser can shorten; this one
    only removes repetition), so a fact is never lost to the condensed text.
    """

    name = "offline"

    def __init__(self, budget_bytes: int | None = None, title: str | None = None):
        self.budget_bytes = budget_bytes
        self.title = title

    def condense(
        self,
        sources: Sequence[SourceDocument],
        *,
        previous: SourceDocument | None,
        under: str,
        budget_bytes: int | None = None,
    ) -> str:
        order: list[str] = []
        sections: dict[str, list[str]] = {}
        kept_at: dict[str, tuple[str, int]] = {}  # line key -> (heading, index)

        def add(heading: str, lines: Sequence[str], link: str | None) -> None:
            out = sections.setdefault(heading, [])
            if heading not in order:
                order.append(heading)
            in_code: str | None = None  # the open code fence's marker
            for line in lines:
                fence = line.strip().startswith(_FENCE)
                structural = in_code or fence or not line.strip() or HEADING_LINE.match(line)
                if fence:
                    in_code = _fence_after(in_code, line)
                if structural or line.lstrip().startswith("|"):
                    out.append(line)
                    continue
                key = line_key(line) or normal_key(line)
                if not key:
                    out.append(line)
                    continue
                if key not in kept_at:
                    kept_at[key] = (heading, len(out))
                    out.append(line)
                    continue
                # A repeat: the kept line takes the links it lacks, and (when it is kept
                # under another source) a link to this source, so no page loses the fact;
                # unless that costs more than the line itself, which then simply stays.
                where, i = kept_at[key]
                kept = sections[where][i]
                added = "".join(f" {t}" for t in link_tokens(line) if t not in kept)
                if where != heading and link and link not in kept:
                    added += f" (also {link})"
                if len(added) >= len(line.strip()):
                    out.append(line)
                    continue
                sections[where][i] += added
            if in_code:  # a source's unclosed code block ends with it
                out.append(in_code)

        if previous is not None:
            for heading, lines in _sections(previous.body):
                found = re.search(r"\[\[[^\]]*\]\]", heading)
                add(heading, lines, found.group(0) if found else None)
        for src in sorted(sources, key=lambda s: s.path):
            add(
                f"## {src.title} ([[{src.path}]])",
                source_lines(src.body, src.title),
                f"[[{src.path}]]",
            )

        parts = [f"# {self.title or f'{CONDENSED_TITLE}: {under}'}"]
        for heading in order:
            text = _tidy(sections[heading])
            if text:
                parts.append(f"{heading}\n\n{text}" if heading else text)
        return "\n\n".join(parts) + "\n"


def _tidy(lines: Sequence[str]) -> str:
    """Lines joined, without leading, trailing or repeated blank lines."""
    out: list[str] = []
    for line in lines:
        if line.strip() or (out and out[-1].strip()):
            out.append(line if line.strip() else "")
    return "\n".join(out).strip("\n")


def _size(text: str) -> int:
    return len(text.encode("utf-8"))


def format_sources(sources: Sequence[SourceDocument], under: str) -> str:
    """The user message of the compaction agent: every document of the subtree, in full."""
    size = sum(len(s.body.encode("utf-8")) for s in sources)
    parts = [
        f"Condense the memory subtree {under}: {len(sources)} documents, {size} bytes.",
        "Here is every current document of it:",
    ]
    for s in sources:
        parts.append(
            f'<document path="{s.path}" version="{s.version}" title="{s.title}">\n'
            f"{s.body.strip()}\n</document>"
        )
    return "\n\n".join(parts)


class AnthropicCondenser:
    """The compaction agent on the Messages API: one turn, no tools, a dollar limit.

    Its definition is `agents/compaction-agent.md`. Before the request is sent its cost is
    estimated (input tokens plus `max_tokens` of output at the definition's prices):
    `max_tokens` is lowered to fit `max_budget_usd`, and the request is refused when even the
    input alone would cost more.
    """

    name = "anthropic"

    def __init__(self, client: Any = None, definition: Any = None):
        if definition is None:
            from doctree.llm.definitions import load_definition

            definition = load_definition(AGENT_NAME)
        self.definition = definition
        self._client = client
        self.last_usage: dict[str, int] = {}
        self.last_cost_usd = 0.0

    @property
    def client(self) -> Any:
        if self._client is None:
            from doctree.llm.client import anthropic_client

            self._client = anthropic_client()
        return self._client

    def cost(self, input_tokens: int, output_tokens: int) -> float:
        return self.definition.pricing.cost(input_tokens, output_tokens, 0, 0)

    def ask(self, user: str, *, what: str, max_tokens: int | None = None) -> str:
        """One request with the agent's system prompt; returns the text of the answer."""
        d = self.definition
        system = d.system_prompt()
        input_tokens = estimate_tokens(system) + estimate_tokens(user)
        max_tokens = min(max_tokens or d.max_response_tokens, d.max_response_tokens)
        while max_tokens > 256 and self.cost(input_tokens, max_tokens) > d.max_budget_usd:
            max_tokens //= 2
        if input_tokens + max_tokens > d.max_tokens:
            raise CompactionError(
                f"{what}: about {input_tokens} input tokens plus {max_tokens} of output are over "
                f"max_tokens {d.max_tokens} of {d.name}; compact a smaller subtree"
            )
        estimate = self.cost(input_tokens, max_tokens)
        if estimate > d.max_budget_usd:
            raise CompactionError(
                f"{what}: about {input_tokens} input tokens would cost ${estimate:.3f}, over "
                f"max_budget_usd {d.max_budget_usd} of {d.name}; compact a smaller subtree or "
                "raise the limit"
            )
        response = self.client.messages.create(
            model=d.model,
            max_tokens=max_tokens,
            system=system,
            messages=[{"role": "user", "content": user}],
        )
        usage = response.usage
        self.last_usage = {"input_tokens": usage.input_tokens, "output_tokens": usage.output_tokens}
        self.last_cost_usd = self.cost(usage.input_tokens, usage.output_tokens)
        if response.stop_reason == "max_tokens":
            raise CompactionError(
                f"{what}: the answer was cut off at max_tokens {max_tokens}; nothing was changed"
            )
        text = "".join(getattr(b, "text", "") for b in response.content).strip()
        if not text:
            raise CompactionError(f"{what}: the model returned no text")
        return text

    def condense(
        self,
        sources: Sequence[SourceDocument],
        *,
        previous: SourceDocument | None,
        under: str,
        budget_bytes: int | None = None,
    ) -> str:
        docs = list(sources) if previous is None else [previous, *sources]
        user = format_sources(docs, under)
        if budget_bytes:
            user += f"\n\nKeep the condensed document under {budget_bytes:,} bytes."
        text = self.ask(user, what=f"compaction of {under}")
        if not text.startswith("#"):
            text = f"# {CONDENSED_TITLE}: {under}\n\n{text}"
        return text + "\n"


def condenser_for(backend: str = "auto", **kwargs: Any) -> Condenser:
    """`offline`, `anthropic`, or `auto` (the one rule of `doctree.llm.backends`: anthropic
    when ANTHROPIC_API_KEY is set, else offline)."""
    try:
        name = parse_backend(backend).name
    except UserError:
        name = None
    if name == "offline":
        return ExtractiveCondenser(**kwargs)
    if name == "anthropic":
        return AnthropicCondenser(**kwargs)
    raise UserError(f"compaction backend {backend!r}: must be one of auto, offline, anthropic")


# -- the pass --------------------------------------------------------------------------------


def condensed_path(under: str) -> str:
    under = normalize_path(under)
    return f"{HOME}/{CONDENSED_NAME}" if under == HOME else f"{under}/{CONDENSED_NAME}"


def sources_section(
    sources: Sequence[SourceDocument], previous: SourceDocument | None, path: str
) -> str:
    lines = [
        SOURCES_HEADING,
        "",
        f"Condensed from {len(sources)} document{'s' if len(sources) != 1 else ''}; each is retired with its history kept "
        "(`doctree history PATH`).",
        "",
    ]
    lines += [
        f"- [[{s.path}]] (version {s.version})" for s in sorted(sources, key=lambda s: s.path)
    ]
    if previous is not None:
        lines.append(
            f"- earlier compactions: version {previous.version} of [[{path}]] and its sources"
        )
    return "\n".join(lines) + "\n"


MEMORY_ROOTS = (HOME, MEMORY_ROOT)
HAND_KINDS = ("user", "agent")  # actor kinds of pages written by hand (import records these)
CONTENT_OPERATIONS = ("created", "modified")


def check_scope(under: str, *, whole_memory: bool) -> None:
    """Refuse to compact the memory root or the home unless asked for by `whole_memory`."""
    under = normalize_path(under)
    if under in MEMORY_ROOTS and not whole_memory:
        raise UserError(
            f"compact {under}: that is the whole memory (every page below it would be condensed "
            f"into {condensed_path(under)}); name a subtree such as {MEMORY_ROOT}/archive, or "
            "ask for the whole memory explicitly (--whole-memory)"
        )


def hand_written(repo: DocumentsRepository, owner: str, under: str) -> set[int]:
    """Ids of the documents at or below `under` written by hand: one of their versions put
    content there (created or modified, with a body) by an actor of kind `user` or `agent`
    (a person through the CLI or the inspector, an import, the agent itself through MCP or
    the memory tool). Restores, moves and implicit empty parents do not count."""
    found: set[int] = set()
    for v in repo.iter_versions(owner, under):
        if (
            v.document_id not in found
            and v.actor_kind in HAND_KINDS
            and v.operation in CONTENT_OPERATIONS
            and (v.body or "").strip()
        ):
            found.add(v.document_id)
    return found


class Compactor:
    """Runs compaction passes over one database.

    `after_handle` is the worker's hook (called after each successful memory-agent run): it
    compacts the job's owner's memory when its subtree is over the threshold, and never raises.
    """

    def __init__(
        self,
        repo: DocumentsRepository,
        *,
        condenser: Condenser | str = "auto",
        policy: CompactionPolicy | None = None,
        lease_ttl: float = LEASE_TTL,
    ):
        self.repo = repo
        self.condenser = condenser_for(condenser) if isinstance(condenser, str) else condenser
        self.policy = policy or CompactionPolicy.from_env()
        self.lease_ttl = lease_ttl
        self.leases = Leases(repo.conn)

    def maybe_compact(
        self, owner: str, under: str | None = None, *, include_hand_written: bool = False
    ) -> CompactionResult:
        """Compact `under` (default: the policy's subtree, which may be the memory root) if
        it is over the owner's threshold."""
        under = normalize_path(under or self.policy.under)
        size = self.repo.total_size(owner, under)
        threshold = self.policy.threshold_for(owner)
        if size <= threshold or self.new_material(owner, under) < threshold * NEW_SHARE:
            return CompactionResult(
                owner, under, "below-threshold", size_before=size, size_after=size
            )
        # The policy (or the caller's --if-over) chose this subtree, the root included.
        return self.compact(
            owner,
            under,
            include_hand_written=include_hand_written,
            whole_memory=True,
            only_if_smaller=True,
        )

    def new_material(self, owner: str, under: str) -> int:
        """Bytes a pass would fold in: the subtree but its condensed document and the kept
        pages. Past the threshold, a pass runs only when this is a quarter of it, so a
        condensed document near the threshold is not re-condensed after every store."""
        size = self.repo.total_size(owner, under)
        condensed = self.repo.get(owner, condensed_path(under))
        size -= condensed.size if condensed else 0
        for k in self.policy.keep:
            if k == under or k.startswith(under + "/"):
                size -= self.repo.total_size(owner, k)
        return size

    def after_handle(self, job: Any) -> None:
        """The worker hook: `MemoryWorker(..., after_handle=compactor.after_handle)`."""
        session = getattr(job, "session_id", "?")
        try:
            self.maybe_compact(job.owner)
        except DatabaseUnavailableError as e:  # the server went away: the next session retries
            log.warning("compaction after session %s skipped: %s", session, e)
        except Exception:  # the hook must never fail the session
            log.exception("compaction after session %s failed", session)

    def compact(
        self,
        owner: str,
        under: str | None = None,
        *,
        include_hand_written: bool = False,
        whole_memory: bool = False,
        only_if_smaller: bool = False,
    ) -> CompactionResult:
        """One pass over `under` now, whatever its size. Never raises for a failed pass: the
        result says `failed` with the error, and every document is left as it was.
        `only_if_smaller` (the threshold-driven pass): a condensed text larger than
        `GAIN_SHARE` (3/4) of what it would replace changes nothing (status `no-gain`): the
        memory agent writes retired pages anew, so a pass that saves little only repeats them.

        Pages written by hand are skipped (and listed in `skipped`) unless
        `include_hand_written`. The memory root `~/memory` or the home `~` as `under` is
        refused (UserError) unless `whole_memory`: every page of the memory would go into
        one."""
        owner = validate_owner(owner)
        under = normalize_path(under or self.policy.under)
        check_scope(under, whole_memory=whole_memory)
        started = time.monotonic()
        name = f"compaction:{owner}"
        with self.leases.held(name, self.lease_ttl, new_holder("compaction")) as ok:
            if not ok:
                log.info(
                    "compaction of %s for %s skipped: %s holds %s",
                    under,
                    owner,
                    self.leases.holder(name),
                    name,
                )
                result = CompactionResult(owner, under, "skipped", self.condenser.name)
            else:
                try:
                    result = self._pass(owner, under, include_hand_written, only_if_smaller)
                except Exception as e:
                    log.warning(
                        "compaction of %s for %s failed, nothing changed: %s",
                        under,
                        owner,
                        e,
                        exc_info=not isinstance(e, DoctreeError),
                    )
                    size = self.repo.total_size(owner, under)
                    result = CompactionResult(
                        owner,
                        under,
                        "failed",
                        self.condenser.name,
                        size,
                        size,
                        error=f"{type(e).__name__}: {e}",
                    )
        result.seconds = time.monotonic() - started
        return result

    def snapshot(
        self, owner: str, under: str, *, include_hand_written: bool = False
    ) -> tuple[list[SourceDocument], SourceDocument | None, list[str]]:
        """Every live document strictly below `under` at its current version, but those the
        policy keeps and (unless `include_hand_written`) those written by hand; the earlier
        condensed document separately; and the paths of the hand-written pages left out.
        A document with a descendant that stays (kept or written by hand) stays too, since
        it could not be retired."""
        target = condensed_path(under)
        # A kept subtree at or above `under` was asked for by name: it is compacted.
        keep = [k for k in self.policy.keep if not (k == under or under.startswith(k + "/"))]
        docs = [
            d
            for d in self.repo.documents(owner, under)
            if d.path != under and not any(d.path == k or d.path.startswith(k + "/") for k in keep)
        ]
        by_hand = set() if include_hand_written else hand_written(self.repo, owner, under)
        skipped = sorted(d.path for d in docs if d.id in by_hand and d.path != target)
        taken = {d.id for d in docs}
        others = (d.path for d in self.repo.documents(owner, under) if d.id not in taken)
        staying = [*skipped, *others]
        # The condensed document is the pass's own, edited or not: folded in again, whole.
        sources = [
            SourceDocument.of(d)
            for d in docs
            if (d.id not in by_hand or d.path == target)
            and not any(p.startswith(d.path + "/") for p in staying)
        ]
        previous = next((d for d in sources if d.path == target), None)
        return [d for d in sources if d.path != target], previous, skipped

    def _pass(
        self, owner: str, under: str, include_hand_written: bool, only_if_smaller: bool = False
    ) -> CompactionResult:
        target = condensed_path(under)
        size_before = self.repo.total_size(owner, under)
        snapshot, previous, skipped = self.snapshot(
            owner, under, include_hand_written=include_hand_written
        )
        if skipped:
            log.info(
                "compaction of %s for %s leaves %d page(s) written by hand: %s",
                under,
                owner,
                len(skipped),
                ", ".join(skipped),
            )
        with_body = [s for s in snapshot if s.body.strip()]
        if len(with_body) + (previous is not None) < 2:
            return CompactionResult(
                owner,
                under,
                "nothing",
                self.condenser.name,
                size_before,
                size_before,
                skipped=skipped,
            )
        run_id = self._start_run(owner)
        try:
            earlier = replace(previous, body=strip_sources(previous.body)) if previous else None
            condensed = self.condenser.condense(
                with_body, previous=earlier, under=under, budget_bytes=self.policy.budget_for(owner)
            )
            self._record_usage(run_id)
            body = condensed.rstrip() + "\n\n" + sources_section(with_body, previous, target)
            replaced = sum(_size(s.body) for s in snapshot) + (
                _size(previous.body) if previous else 0
            )
            if only_if_smaller and _size(body) > replaced * GAIN_SHARE:
                self._finish_run(run_id, "completed", stop_reason="no_gain")
                log.info(
                    "compaction of %s for %s changes nothing: %d bytes condensed from %d",
                    under,
                    owner,
                    _size(body),
                    replaced,
                )
                return CompactionResult(
                    owner,
                    under,
                    "no-gain",
                    self.condenser.name,
                    size_before,
                    size_before,
                    skipped=skipped,
                    run_id=run_id,
                )
            retired: list[str] = []
            kept: list[str] = []
            with self.repo.transaction():
                try:
                    doc = self.repo.write(
                        owner,
                        target,
                        body,
                        title=CONDENSED_TITLE,
                        links=sorted({s.path for s in with_body}),
                        expected_version=previous.version if previous else 0,
                        provenance=Provenance(COMPACTION_ACTOR, run=run_id),
                    )
                except ConflictError as e:
                    raise CompactionError(
                        f"{target} changed while compaction ran; nothing was changed ({e})"
                    ) from e
                # Deepest first, so a parent goes after its children.
                for src in sorted(snapshot, key=lambda s: (-s.path.count("/"), s.path)):
                    if self._retire(owner, src, run_id):
                        retired.append(src.path)
                    else:
                        kept.append(src.path)
        except Exception as e:
            self._finish_run(run_id, "failed", f"{type(e).__name__}: {e}")
            raise
        self._finish_run(run_id, "completed")
        return CompactionResult(
            owner,
            under,
            "compacted",
            self.condenser.name,
            size_before,
            self.repo.total_size(owner, under),
            target,
            doc.version,
            sorted(retired),
            sorted(kept),
            skipped,
            run_id=run_id,
        )

    # A pass is recorded as a run of the compaction agent (doctree.store.runs) when that module and
    # its table are there, so `doctree log --run N` shows what the pass changed.

    def _start_run(self, owner: str) -> int | None:
        try:
            from doctree.store.runs import Runs

            model = getattr(getattr(self.condenser, "definition", None), "model", "extractive")
            return Runs(self.repo.conn).start(
                definition=AGENT_NAME, owner=owner, backend=self.condenser.name, model=model
            )
        except (ImportError, sqlite3.Error):
            return None

    def _record_usage(self, run_id: int | None) -> None:
        usage = getattr(self.condenser, "last_usage", None)
        if run_id is None or not usage:
            return
        from doctree.store.runs import Runs, Usage

        Runs(self.repo.conn).record_turn(
            run_id,
            Usage(usage["input_tokens"], usage["output_tokens"]),
            getattr(self.condenser, "last_cost_usd", 0.0),
        )

    def _finish_run(
        self,
        run_id: int | None,
        status: str,
        error: str | None = None,
        stop_reason: str | None = None,
    ) -> None:
        if run_id is None:
            return
        from doctree.store.runs import Runs

        reason = stop_reason or ("end_turn" if not error else "error")
        try:
            Runs(self.repo.conn).finish(run_id, status, reason, error)
        except sqlite3.Error:
            log.warning("compaction run %s could not be finished", run_id, exc_info=True)

    def _retire(self, owner: str, src: SourceDocument, run_id: int | None = None) -> bool:
        """Delete `src` if it is still the same document at its snapshot version."""
        current = self.repo.get(owner, src.path)
        if current is None or current.id != src.id or current.version != src.version:
            return False
        try:
            self.repo.delete(
                owner,
                src.path,
                expected_version=src.version,
                provenance=Provenance(COMPACTION_ACTOR, run=run_id),
            )
        except UserError:  # a child written during the pass keeps its parent alive
            return False
        return True


def compact(
    repo: DocumentsRepository,
    owner: str,
    under: str,
    *,
    backend: str = "auto",
    include_hand_written: bool = False,
    whole_memory: bool = False,
) -> CompactionResult:
    """Compact `under` of `owner` now (see `Compactor.compact`)."""
    return Compactor(repo, condenser=backend).compact(
        owner, under, include_hand_written=include_hand_written, whole_memory=whole_memory
    )


def compaction_hook(
    db: DocumentsRepository | str | os.PathLike[str],
    *,
    backend: str = "auto",
    policy: CompactionPolicy | None = None,
) -> Callable[[Any], None]:
    """An `after_handle` hook for `MemoryWorker`: compacts the job's agent past its threshold.

    Given a database path, the hook opens its own connection in the thread that first calls
    it (the worker's), so it never shares a transaction with anyone else.
    """
    if isinstance(db, DocumentsRepository):
        return Compactor(db, condenser=backend, policy=policy).after_handle
    compactor: list[Compactor] = []

    def hook(job: Any) -> None:
        try:
            if not compactor:
                from doctree.store.db import connect

                # The database exists (the worker opened it): never make a new one here.
                repo = DocumentsRepository(connect(db, create=False))
                compactor.append(Compactor(repo, condenser=backend, policy=policy))
        except DoctreeError as e:  # a server restarting (the next job opens it), a file gone
            log.warning("compaction hook: cannot open %s: %s", describe(db), e)
            return
        except Exception:
            log.exception("compaction hook: cannot open %s", describe(db))
            return
        compactor[0].after_handle(job)

    return hook
