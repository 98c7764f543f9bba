"""Blocks: what a fenced block holds, read from its lines, and checkbox lists.

A fence (```) around a to-do list, a letter or a few notes is only a way of pasting them: such a
block is read as the user's own text. A program, a config or a shell session stays out. What a
block is comes from its content alone: the share of its lines that look like code (braces,
semicolons, assignments, keywords, a prompt) against those that read as sentences or list items.
"""

from __future__ import annotations

import re
from collections.abc import Callable

#: A line that looks like code: a brace or semicolon at its end, an assignment, a call, a
#: keyword that opens a statement, a shell or REPL prompt, a comment marker, a tag.
_CODE_LINE = re.compile(
    r"[{};]\s*$|^\s*[}\])]|^\s*(?:[$%]|>>>|\.\.\.)\s|^\s*#!|^\s*(?://|/\*|\*/|--\s)"
    r"|^\s*[\w.\[\]\"']+\s*(?:[-+*/|&]?=|:=|=>|->)\s*\S"
    r"|^\s*(?:def|class|import|from\s+\S+\s+import|return|function|const|let|var|fn|pub"
    r"|public|private|static|void|int|if\s*\(|for\s*\(|while\s*\(|elif|else:|try:|except"
    r"|package|using|include|SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER)\b"
    r"|^\s*[\w.]+\([^()]*\)\s*[;:]?\s*$|^\s*<[/!?]?[A-Za-z][^>]*>\s*$"
    r"|^\s*[a-z_][\w.-]*:\s*(?:\S+)?\s*$"  # "port: 5432", "services:"
    r"|^\s*[\w./-]*/[\w./-]+(?:\s+-{1,2}\w[\w-]*)+"  # "./run.sh --fast"
)
#: A line that reads as prose: three or more words, most of them plain words.
_WORD = re.compile(r"^[A-Za-zÀ-ÿ][A-Za-zÀ-ÿ'’-]*[,.;:!?]?$")
#: A list item, checkbox or not: "- milk", "1. call Ana", "* [ ] book the hall".
_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+\S")
_CHECKBOX = re.compile(r"^(?P<lead>\s*(?:[-*+]|\d+[.)])\s+)\[(?P<mark>[ xX✓✔])\]\s+(?P<text>.*)$")
_STRUCK = re.compile(r"~~(?P<text>[^~\n]+)~~")


def is_code_line(line: str) -> bool:
    """Whether `line` looks like a line of a program, a config or a shell session."""
    return bool(_CODE_LINE.search(line))


def is_prose_line(line: str) -> bool:
    """Whether `line` reads as a sentence or a list item, not as code."""
    if is_code_line(line):
        return False
    if _ITEM.match(line):
        return True
    words = line.split()
    return len(words) >= 3 and sum(bool(_WORD.match(w)) for w in words) * 3 >= len(words) * 2


def reads_as_text(lines: list[str]) -> bool:
    """Whether a fenced block of `lines` holds prose, a list or notes (read as the user's own
    text) rather than code: under a fifth of its lines look like code, and at least half read
    as sentences or list items."""
    body = [x for x in lines if x.strip()]
    if not body:
        return False
    code = sum(is_code_line(x) for x in body)
    prose = sum(is_prose_line(x) for x in body)
    return code * 5 < len(body) and prose * 2 >= len(body)


def checkbox_line(line: str) -> str | None:
    """A checkbox item as a list item that says where it stands ("- [x] book the hall" is
    "- book the hall (done)", "- [ ] call Ana" is "- call Ana"), None for a struck item
    ("- ~~call Ana~~", no longer current); any other line as it is."""
    m = _CHECKBOX.match(line)
    text = m.group("text") if m else line
    bare = _STRUCK.sub("", text).strip(" \t-*+.")
    if _STRUCK.search(text) and not re.search(r"\w", re.sub(r"^\d+[.)]", "", bare)):
        return None  # the whole item is struck through
    if m is None:
        return line
    text = _STRUCK.sub("", text).strip()
    done = m.group("mark") != " "
    return f"{m.group('lead')}{text}{' (done)' if done else ''}"


def unfence_text(text: str, keep: Callable[[list[str]], bool] | None = None) -> str:
    """`text` with each fenced block that reads as text (`reads_as_text`) opened: its fence
    lines dropped, so its lines are read as the message's own. A block `keep` says to keep
    (one read otherwise: a table of records, a message to the memory system) stays fenced. Checkbox items anywhere are rewritten by
    `checkbox_line`; struck items are left out."""
    out: list[str] = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        fence = line.strip()[:3]
        if fence in ("```", "~~~"):
            end = next((j for j in range(i + 1, len(lines)) if lines[j].strip()[:3] == fence), None)
            if end is None:
                out.extend(lines[i:])
                break
            inner = lines[i + 1 : end]
            if reads_as_text(inner) and not (keep is not None and keep(inner)):
                out.append("")
                out.extend(x.strip() for x in inner)
                out.append("")
            else:
                out.extend(lines[i : end + 1])
            i = end + 1
            continue
        out.append(line)
        i += 1
    return "\n".join(x for x in (checkbox_line(y) for y in out) if x is not None)
