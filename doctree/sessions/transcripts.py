"""Transcripts: a session's history records as one markdown document, and back.

The worker hands the memory agent a transcript; fixture transcripts are the same markdown, so
a fixture replays through exactly the path a live session takes. The format is documented in
`docs/transcripts.md`; `parse_transcript(format_transcript(...))` gives back what went in.
"""

from __future__ import annotations

import functools
import gc
import json
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from doctree.errors import DoctreeError, UserError

#: Record kinds as stored in `session_history.kind`.
KINDS = ("user", "assistant", "system", "tool_call", "tool_result")
# The largest transcript file read (replay): a day of conversation is well under it.
MAX_TRANSCRIPT_BYTES = 10_000_000
TEXT_KINDS = ("user", "assistant", "system")
TOOL_KINDS = ("tool_call", "tool_result")
#: How each kind is written in a message heading.
HEADING_KIND = {
    "user": "user",
    "assistant": "assistant",
    "system": "system",
    "tool_call": "tool call",
    "tool_result": "tool result",
}
_KIND_OF_HEADING = {v: k for k, v in HEADING_KIND.items()} | {k: k for k in KINDS}
HEADER_FIELDS = ("agent", "session", "started", "ended")
SEPARATOR = "\u00b7"  # the middle dot in '## user · 2026-11-20T09:00:00Z'
#: Fence info strings that mark a text message whose content is stored exactly.
VERBATIM = "verbatim"
JSON_VERBATIM = "json-verbatim"

_TITLE = re.compile(r"Transcript of session (\S+)")
_HEADING = re.compile(r"(?P<kind>[a-z_]+(?: [a-z]+)?)\s+" + SEPARATOR + r"\s+(?P<time>\S+)")
_FIELD = re.compile(r"(?P<key>[a-z_ ]+?):\s*(?P<value>.*)")


class TranscriptError(UserError):
    """A transcript that does not follow the format: names the source, the line and the rule."""

    def __init__(self, source: str, line: int | None, reason: str):
        self.source, self.line, self.reason = source, line, reason
        where = f"{source}:{line}" if line is not None else source
        super().__init__(f"transcript {where}: {reason}")


@dataclass(frozen=True)
class Message:
    """One record of a session: `content` is a str for text kinds, a dict for tool kinds."""

    kind: str
    time: str
    content: str | dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "time": self.time, "content": self.content}


@dataclass(frozen=True)
class Transcript:
    """A parsed transcript: its owner (the agent whose conversation it is, the header's
    `agent:` line), the session and its messages in order."""

    owner: str
    session_id: str
    started: str | None = None
    ended: str | None = None
    messages: tuple[Message, ...] = field(default_factory=tuple)

    def format(self) -> str:
        """This transcript as markdown."""
        return format_transcript(
            self.messages,
            owner=self.owner,
            session_id=self.session_id,
            started=self.started,
            ended=self.ended,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "owner": self.owner,
            "session_id": self.session_id,
            "started": self.started,
            "ended": self.ended,
            "messages": [m.to_dict() for m in self.messages],
        }


@functools.cache
def markdown_parser():
    """The markdown-it parser transcripts are read with (block structure only), made once."""
    from markdown_it import MarkdownIt

    # Only the block structure is read (headings, lists, fences, their lines); inline
    # content is never looked into, so the inline parser (most of the time) is off.
    return MarkdownIt("commonmark").disable("inline")


_NO_SPACE = re.compile(r"\S+")


def check_time(value: object, source: str = "<format>", line: int | None = None) -> str:
    """Return `value` if it is an ISO 8601 time (e.g. 2026-11-20T09:00:00Z), else raise."""
    if not isinstance(value, str) or not _NO_SPACE.fullmatch(value):
        raise TranscriptError(
            source, line, f"time {value!r}: use ISO 8601 without spaces, e.g. 2026-11-20T09:00:00Z"
        )
    try:
        datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise TranscriptError(
            source, line, f"time {value!r}: use ISO 8601, e.g. 2026-11-20T09:00:00Z"
        ) from None
    return value


def _check_header_value(name: str, value: object) -> str:
    if not isinstance(value, str) or not value or any(c.isspace() for c in value):
        raise TranscriptError(
            "<format>", None, f"{name} {value!r}: must be a non-empty string without whitespace"
        )
    return value


def _as_message(m: Any) -> Message:
    """Accept a Message, a history record (kind/time/content attributes) or a dict."""
    if isinstance(m, Message):
        return m
    if isinstance(m, dict):
        return Message(m["kind"], m["time"], m["content"])
    return Message(m.kind, m.time, m.content)


def format_transcript(
    messages: Iterable[Any],
    *,
    owner: str,
    session_id: str,
    started: str | None = None,
    ended: str | None = None,
) -> str:
    """Format records (Message, history records or dicts with kind/time/content) as markdown.

    `started` and `ended` default to the first and last message times. Text content is
    written as plain markdown when it reads back identically, otherwise in a `verbatim`
    fence (or, for text no fence can hold, a `json-verbatim` fence with a JSON string).
    """
    msgs = [_as_message(m) for m in messages]
    _check_header_value("agent", owner)
    _check_header_value("session", session_id)
    if started is None and msgs:
        started = msgs[0].time
    if ended is None and msgs:
        ended = msgs[-1].time
    out = [f"# Transcript of session {session_id}", ""]
    out.append(f"- agent: {owner}")
    out.append(f"- session: {session_id}")
    if started is not None:
        out.append(f"- started: {check_time(started)}")
    if ended is not None:
        out.append(f"- ended: {check_time(ended)}")
    for m in msgs:
        out.append("")
        out.append(_format_message(m))
    return "\n".join(out) + "\n"


def transcript_of(
    messages: Iterable[Any],
    *,
    owner: str,
    session_id: str,
    started: str | None = None,
    ended: str | None = None,
) -> Transcript:
    """The `Transcript` that `format_transcript` of the same records parses back to, built
    without formatting or parsing: the worker hands it to the memory agent beside the
    markdown, so a run never parses what it was given as records."""
    msgs = tuple(_as_message(m) for m in messages)
    if started is None and msgs:
        started = msgs[0].time
    if ended is None and msgs:
        ended = msgs[-1].time
    return Transcript(
        owner=owner, session_id=session_id, started=started, ended=ended, messages=msgs
    )


def _format_message(m: Message) -> str:
    if m.kind not in KINDS:
        raise TranscriptError("<format>", None, f"kind {m.kind!r}: must be one of {list(KINDS)}")
    heading = f"## {HEADING_KIND[m.kind]} {SEPARATOR} {check_time(m.time)}"
    if m.kind in TOOL_KINDS:
        if not isinstance(m.content, dict):
            raise TranscriptError(
                "<format>", None, f"a {HEADING_KIND[m.kind]} message needs a dict as content"
            )
        return f"{heading}\n\n```json\n{json.dumps(m.content, ensure_ascii=False)}\n```"
    if not isinstance(m.content, str):
        raise TranscriptError("<format>", None, f"a {m.kind} message needs a str as content")
    if plainly_safe(m.content):
        return f"{heading}\n\n{m.content}" if m.content else heading
    md = markdown_parser()  # (made, and markdown-it imported, only for such text)
    for body in _text_candidates(m.content):
        section = f"{heading}\n\n{body}" if body else heading
        if _reads_back(section, m, md):
            return section
    raise AssertionError("unreachable: the json-verbatim form always reads back")


def plainly_safe(text: str) -> bool:
    """A cheap sufficient test that text reads back verbatim as plain markdown: no line could
    open a heading, a fence or an HTML block, no surrounding blank lines, no CR or NUL.
    Text that fails it is checked by parsing (see `_reads_back`)."""
    if text == "":
        return True
    if "\r" in text or "\x00" in text:
        return False
    if "\n" not in text:  # one line (most messages): the same tests, without the split
        start = text.lstrip(" \t")
        return start != "" and start[:1] not in _OPENERS
    lines = text.split("\n")
    if _is_blank(lines[0]) or _is_blank(lines[-1]):
        return False
    return not any(line.lstrip(" \t")[:1] in _OPENERS for line in lines)


_OPENERS = ("#", "`", "~", "<")


def _text_candidates(text: str) -> Iterable[str]:
    yield text
    ticks = "`" * max(3, _longest_run(text, "`") + 1)
    yield f"{ticks}{VERBATIM}\n{text}\n{ticks}"
    yield f"```{JSON_VERBATIM}\n{json.dumps(text, ensure_ascii=True)}\n```"


def _longest_run(text: str, char: str) -> int:
    runs = re.findall(re.escape(char) + "+", text)
    return max((len(r) for r in runs), default=0)


def _reads_back(section: str, m: Message, md: Any) -> bool:
    """Whether `section`, followed by another message, parses back to exactly `m`.

    The following sentinel message proves the section leaves the parser at the top level
    (no unclosed fence or HTML block swallowing the next heading).
    """
    probe = f"# Transcript of session s\n\n- agent: a\n- session: s\n\n{section}\n\n## user {SEPARATOR} {m.time}\n\nx\n"
    try:
        t = parse_transcript(probe, source="<probe>", _md=md)
    except TranscriptError:
        return False
    return len(t.messages) == 2 and t.messages[0] == m and t.messages[1].content == "x"


def parse_transcript(text: str, source: str = "<transcript>", *, _md: Any = None) -> Transcript:
    """Parse a markdown transcript; raise TranscriptError naming the source, line and reason.

    A transcript in the shape `format_transcript` writes (plain text, fences opened by
    backticks at the start of a line and closed, nothing else that opens a block) is read
    line by line; any other (and any error) is read by markdown-it, which decides."""
    if not isinstance(text, str):
        raise TranscriptError(source, None, "a transcript must be text")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if _md is None and "\x00" not in text and (plain := _read_plain(lines)) is not None:
        return plain
    with _no_cycle_collection():
        tokens = (_md or markdown_parser()).parse(text)
    top = [t for t in tokens if t.level == 0]
    # Each token's position, found once: looking it up per message (list.index) made
    # parsing quadratic in the number of messages.
    position = {id(t): n for n, t in enumerate(tokens)}

    i = 0
    # The title: '# Transcript of session <id>'.
    if not top:
        raise TranscriptError(source, 1, "empty: expected '# Transcript of session <id>'")
    first = top[0]
    line = first.map[0] + 1 if first.map else 1
    if not (first.type == "heading_open" and first.markup == "#"):
        raise TranscriptError(
            source, line, "a transcript must start with '# Transcript of session <id>'"
        )
    title = _inline_after(tokens, first, position)
    m = _TITLE.fullmatch(title)
    if not m:
        raise TranscriptError(
            source, line, f"title {title!r}: expected 'Transcript of session <id>'"
        )
    title_session = m.group(1)
    i = 2  # heading_open, heading_close (the inline token is at level 1)

    # The header fields: a bullet list of 'key: value'.
    fields: dict[str, str] = {}
    if i < len(top) and top[i].type == "bullet_list_open":
        list_open = top[i]
        list_line = list_open.map[0] + 1
        j = position[id(list_open)] + 1
        while tokens[j].type != "bullet_list_close" or tokens[j].level != 0:
            tok = tokens[j]
            if tok.type == "inline" and tok.level == 3:
                item_line = tok.map[0] + 1 if tok.map else list_line
                fm = _FIELD.fullmatch(tok.content.strip())
                if not fm:
                    raise TranscriptError(
                        source, item_line, f"header line {tok.content!r}: expected 'key: value'"
                    )
                key, value = fm.group("key"), fm.group("value").strip()
                if key not in HEADER_FIELDS:
                    raise TranscriptError(
                        source,
                        item_line,
                        f"unknown header field {key!r}: expected one of {list(HEADER_FIELDS)}",
                    )
                if key in fields:
                    raise TranscriptError(source, item_line, f"header field {key!r} given twice")
                if key in ("started", "ended"):
                    check_time(value, source, item_line)
                fields[key] = value
            j += 1
        i += 1
        while i < len(top) and top[i].type != "bullet_list_close":
            i += 1
        i += 1
    else:
        list_line = line
    for key in ("agent", "session"):
        if not fields.get(key):
            raise TranscriptError(
                source, list_line, f"header field '{key}' is missing (a list item '- {key}: ...')"
            )
    if fields["session"] != title_session:
        raise TranscriptError(
            source,
            list_line,
            f"session {fields['session']!r} in the header differs from {title_session!r} "
            "in the title",
        )

    # The messages: each an ATX '## <kind> · <time>' heading and the lines up to the next.
    headings: list[tuple[int, Any]] = []
    for k in range(i, len(top)):
        tok = top[k]
        if tok.type != "heading_open" or tok.markup not in ("#", "##"):
            if not headings and tok.type not in ("heading_close",):
                raise TranscriptError(
                    source,
                    tok.map[0] + 1 if tok.map else None,
                    f"text before the first message: expected '## <kind> {SEPARATOR} <time>'",
                )
            continue
        hline = tok.map[0] + 1
        if tok.markup == "#":
            raise TranscriptError(source, hline, "a second '# ' title: a transcript has one title")
        headings.append((k, tok))

    messages: list[Message] = []
    for n, (k, tok) in enumerate(headings):
        hline = tok.map[0] + 1
        heading_text = _inline_after(tokens, tok, position)
        hm = _HEADING.fullmatch(heading_text)
        if not hm or hm.group("kind") not in _KIND_OF_HEADING:
            raise TranscriptError(
                source,
                hline,
                f"heading {heading_text!r}: expected '<kind> {SEPARATOR} <time>' with kind one "
                f"of {[HEADING_KIND[x] for x in KINDS]}",
            )
        kind = _KIND_OF_HEADING[hm.group("kind")]
        time = check_time(hm.group("time"), source, hline)
        end_k = headings[n + 1][0] if n + 1 < len(headings) else len(top)
        body_tokens = [t for t in top[k + 2 : end_k] if t.type != "heading_close"]
        start_line = tok.map[1]
        end_line = headings[n + 1][1].map[0] if n + 1 < len(headings) else len(lines)
        body_lines = lines[start_line:end_line]
        content = _section_content(kind, body_tokens, body_lines, source, hline)
        messages.append(Message(kind, time, content))

    return _transcript(fields, messages)


@contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """The cyclic garbage collector paused (if it runs) for the duration: markdown-it makes
    some eight tokens a message, none in a reference cycle, and each collection the
    allocations set off walks every object of the process (a quarter of the parse of a
    long transcript). Objects freed meanwhile are freed as usual; cycles wait for the next
    collection."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


# -- the line-by-line reading of the formatter's shape -------------------------------------

_FAST_HEADING = re.compile(
    r"## (?P<kind>[a-z_]+(?: [a-z]+)?) " + SEPARATOR + r" (?P<time>[0-9A-Za-z:.+\-]+)"
)
_FAST_FIELD = re.compile(r"- (?P<key>[a-z]+): (?P<value>\S+)")
_FENCE_OPEN = re.compile(r"(?P<ticks>```+)(?P<info>[^`\\&]*)")


def _may_open_block(line: str) -> bool:
    """Whether `line` (not a backtick fence at its start) may open a block the
    line-by-line reading does not follow: after less than four columns of indentation, an
    HTML block, a tilde fence, a heading, or a backtick fence not at the line's start.
    Indentation with a tab is not measured: such a line is left to markdown-it."""
    stripped = line.lstrip(" \t")
    if not stripped or stripped[0] not in "<~#`":
        return False
    indent = line[: len(line) - len(stripped)]
    if "\t" in indent:
        return True
    if len(indent) >= 4:  # indented code, or a paragraph's continuation
        return False
    if stripped[0] == "`":
        return stripped.startswith("```")
    if stripped[0] == "~":
        return stripped.startswith("~~~")
    return True


@functools.cache
def _closer(ticks: int) -> re.Pattern[str]:
    """A line closing a fence opened by `ticks` backticks."""
    return re.compile(r" {0,3}`{" + str(ticks) + r",}[ \t]*")


def _transcript(fields: dict[str, str], messages: list[Message]) -> Transcript:
    """The transcript of a header's fields and its messages, as either reader found them."""
    return Transcript(
        owner=fields["agent"],
        session_id=fields["session"],
        started=fields.get("started"),
        ended=fields.get("ended"),
        messages=tuple(messages),
    )


class _Declined(DoctreeError):
    """The text is not in the formatter's shape: markdown-it reads it."""


def _read_plain(lines: list[str]) -> Transcript | None:
    """The transcript of `lines` (without NUL) when they are in the shape
    `format_transcript` writes, read line by line, the same as markdown-it reads it: a
    line `## ` at the start is a message's heading wherever no fence is open (no list or
    quote goes on past it), fences open and close by the CommonMark rules, and text is
    kept as its lines. None for any other shape, and for any error (markdown-it then
    reads it and names the error)."""
    try:
        return _read_plain_lines(lines)
    except (_Declined, UserError, ValueError):
        return None


def _read_plain_lines(lines: list[str]) -> Transcript:
    if not lines[0].startswith("# "):
        raise _Declined
    title = lines[0][2:].strip()
    m = _TITLE.fullmatch(title)
    if not m or title.endswith("#"):
        raise _Declined
    n, fields = 1, {}
    while n < len(lines) and not lines[n].startswith("## "):
        line = lines[n]
        if line:
            fm = _FAST_FIELD.fullmatch(line)
            if not fm or fm["key"] not in HEADER_FIELDS or fm["key"] in fields:
                raise _Declined
            fields[fm["key"]] = fm["value"]
        n += 1
    if set(fields) < {"agent", "session"} or fields["session"] != m.group(1):
        raise _Declined
    for key in ("started", "ended"):
        if key in fields:
            check_time(fields[key])
    messages: list[Message] = []
    while n < len(lines):
        hm = _FAST_HEADING.fullmatch(lines[n])
        if not hm or hm["kind"] not in _KIND_OF_HEADING:
            raise _Declined
        kind, time = _KIND_OF_HEADING[hm["kind"]], check_time(hm["time"])
        n += 1
        body: list[str] = []
        fences: list[tuple[str, str]] = []  # (info, content) of each fence in the body
        while n < len(lines) and not lines[n].startswith("## "):
            line = lines[n]
            n += 1
            if not line.startswith("```"):
                if _may_open_block(line):
                    raise _Declined
                body.append(line)
                continue
            opened = _FENCE_OPEN.fullmatch(line)
            if not opened:
                raise _Declined
            closer = _closer(len(opened["ticks"]))
            inside: list[str] = []
            while n < len(lines) and not closer.fullmatch(lines[n]):
                inside.append(lines[n])
                n += 1
            if n == len(lines):  # unclosed: it runs to the end
                raise _Declined
            n += 1
            fences.append((opened["info"].strip(), "".join(x + "\n" for x in inside)))
            body.append("\x00")  # where the fence was
        while body and _is_blank(body[-1]):
            body.pop()
        while body and _is_blank(body[0]):
            body.pop(0)
        messages.append(Message(kind, time, _plain_content(kind, body, fences)))
    return _transcript(fields, messages)


def _plain_content(
    kind: str, body: list[str], fences: list[tuple[str, str]]
) -> str | dict[str, Any]:
    """A message's content from its body lines (a fence stands as one NUL line)."""
    if fences and body != ["\x00"]:
        raise _Declined  # a fence beside other lines: markdown-it decides what it is
    info, content = fences[0] if fences else ("", "")
    if kind in TOOL_KINDS:
        if not fences or info != "json":
            raise _Declined
        value = json.loads(content)
        if not isinstance(value, dict):
            raise _Declined
        return value
    if fences and info == VERBATIM:
        return content[:-1] if content.endswith("\n") else content
    if fences and info == JSON_VERBATIM:
        value = json.loads(content)
        if not isinstance(value, str):
            raise _Declined
        return value
    if fences:
        raise _Declined
    return "\n".join(body)


def _inline_after(tokens: list[Any], opening: Any, position: dict[int, int]) -> str:
    idx = position[id(opening)]
    return tokens[idx + 1].content.strip() if idx + 1 < len(tokens) else ""


def _is_blank(line: str) -> bool:
    return line.strip(" \t") == ""


def _fenced_json(source: str, fence: Any, label: str, kind: type, described: str) -> Any:
    """The JSON value inside a fenced block, which must be of `kind`."""
    line = fence.map[0] + 1
    try:
        value = json.loads(fence.content)
    except json.JSONDecodeError as e:
        raise TranscriptError(
            source, line + e.lineno, f"{label} content is not valid JSON: {e.msg}"
        ) from None
    if not isinstance(value, kind):
        raise TranscriptError(source, line, f"{label} content must be {described}")
    return value


def _section_content(
    kind: str, body_tokens: list[Any], body_lines: list[str], source: str, hline: int
) -> str | dict[str, Any]:
    single_fence = (
        body_tokens[0] if len(body_tokens) == 1 and body_tokens[0].type == "fence" else None
    )
    if kind in TOOL_KINDS:
        label = HEADING_KIND[kind]
        if single_fence is None or single_fence.info.strip() != "json":
            raise TranscriptError(
                source, hline, f"a {label} message must be one ```json fenced block"
            )
        return _fenced_json(source, single_fence, label, dict, "a JSON object")
    if single_fence is not None and single_fence.info.strip() == VERBATIM:
        content = single_fence.content
        return content[:-1] if content.endswith("\n") else content
    if single_fence is not None and single_fence.info.strip() == JSON_VERBATIM:
        return _fenced_json(source, single_fence, JSON_VERBATIM, str, "a JSON string")
    start, end = 0, len(body_lines)
    while start < end and _is_blank(body_lines[start]):
        start += 1
    while end > start and _is_blank(body_lines[end - 1]):
        end -= 1
    return "\n".join(body_lines[start:end])
