"""Blocks: what a fenced block holds, read from its lines, and checkbox lists.

A fence (```) around a to-do list, a letter or a few notes is only a way of pasting them: such a
block is read as the user's own text. A program, a config or a shell session stays out. What a
block is comes from its content alone: the share of its lines that look like code (braces,
semicolons, assignments, keywords, a prompt) against those that read as sentences or list items.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from doctree.agent.offline.signifiers import journal_key, journal_lines

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
_STAMP = r"(?:\[[^\]\n]{1,20}\]|\(?\d{1,2}:\d{2}(?::\d{2})?\)?)"
#: A line of a chat log: "[21:04] <ana> text", "21:04 <@ana> text", "<ana> text".
_CHAT_LINE = re.compile(
    rf"^\s*(?P<stamp>{_STAMP})?\s*<[@+%~&]?(?P<nick>[^\s<>]{{1,30}})>\s+(?P<text>\S.*)$"
)
#: A chat client's own line: joins, parts, quits, nick changes, day changes, actions.
_CHAT_SYSTEM = re.compile(rf"^\s*(?:{_STAMP})?\s*(?:-->|<--|\*\*\*|-!-|---|\*\s)")
_STRUCK = re.compile(r"~~(?P<text>[^~\n]+)~~")
#: A value struck and replaced in place: "tent: ~~Vango~~ Coleman, from Dad".
_REPLACED = re.compile(
    r"~~(?P<old>[^~\n]+)~~\s*(?!(?:and|or|und|et|y|e|en|i)\s)"
    r"(?P<new>[^~\s,;().!?](?:[^~,;()\n.!?]|\.(?=\d))*)"
)
#: A value struck with what joins it to its list: ", ~~wine~~", "~~wine~~ and ".
_STRUCK_JOINED = re.compile(
    r"(?:,\s*|\s+(?:and|or|&)\s+)~~[^~\n]+~~|~~[^~\n]+~~(?:\s*,|\s+(?:and|or|&)(?=\s))?"
)


def is_code_line(line: str) -> bool:
    """Whether `line` looks like a line of a program, a config or a shell session."""
    return bool(_CODE_LINE.search(line))


def is_prose_line(line: str) -> bool:
    """Whether `line` reads as a sentence or a list item, not as code."""
    if is_code_line(line):
        return False
    if _ITEM.match(line) or _CHAT_LINE.match(line):
        return True
    words = line.split()
    return len(words) >= 3 and sum(bool(_WORD.match(w)) for w in words) * 3 >= len(words) * 2


def reads_as_text(lines: list[str]) -> bool:
    """Whether a fenced block of `lines` holds prose, a list or notes (read as the user's own
    text) rather than code: under a fifth of its lines look like code, and at least half read
    as sentences or list items."""
    body = [x for x in lines if x.strip()]
    if sum(bool(_CHAT_LINE.match(x)) for x in body) >= 2:
        body = [x for x in body if not _CHAT_SYSTEM.match(x)]  # a chat client's own lines
    if not body:
        return False
    code = sum(is_code_line(x) for x in body)
    prose = sum(is_prose_line(x) for x in body)
    return code * 5 < len(body) and prose * 2 >= len(body)


def checkbox_line(line: str) -> str | None:
    """A checkbox item as a list item that says where it stands ("- [x] book the hall" is
    "- book the hall (done)", "- [ ] call Ana" is "- call Ana"), None for a struck item
    ("- ~~call Ana~~", no longer current); a value struck and replaced in place said as the
    one that holds instead of the old ("~~Tuesday~~ Thursday" is "Thursday instead of
    Tuesday"); any other line as it is."""
    m = _CHECKBOX.match(line)
    if m is None and "~~" not in line:
        return line
    text = m.group("text") if m else line
    bare = _STRUCK.sub("", text).strip(" \t-*+.")
    if _STRUCK.search(text) and not re.search(r"\w", re.sub(r"^\d+[.)]", "", bare)):
        return None  # the whole item is struck through
    text = _REPLACED.sub(lambda r: f"{r.group('new').rstrip()} instead of {r.group('old')}", text)
    text = _struck_out(text)
    if m is None:
        return line[: len(line) - len(line.lstrip())] + text
    done = m.group("mark") != " "
    return f"{m.group('lead')}{text}{' (done)' if done else ''}"


def _struck_out(text: str) -> str:
    """`text` with each value struck and not replaced said to be no longer wanted, never
    cut out of the sentence: "bring ~~wine~~" is "bring wine (no longer wanted)", "bring
    cheese, ~~wine~~" is "bring cheese (no longer wanted: wine)"."""
    struck = [m.group("text").strip() for m in _STRUCK.finditer(text)]
    if not struck:
        return text
    left = re.sub(r"\s{2,}", " ", _STRUCK_JOINED.sub("", text))
    left = re.sub(r"\s+([,;.])", r"\1", left).strip(" ,;.")
    if len(re.findall(r"\w+", left)) >= 2:
        return f"{left} (no longer wanted: {', '.join(struck)})"
    plain = re.sub(r"\s{2,}", " ", _STRUCK.sub(lambda m: m.group("text"), text)).strip(" .")
    return f"{plain} (no longer wanted)"


#: The user saying which nick is theirs: "I'm wren in there", "my nick is wren", "I go by
#: wren on IRC".
_OWN_NICK = re.compile(
    r"\b(?:I'?m|I am|I go by|my (?:nick|handle|username|user name)(?:name)?(?: is|'s)?)\s+"
    r"@?(?P<nick>[\w.|-]{1,30})\b(?=\s+(?:in there|there|in (?:the|that) (?:log|channel|chat)"
    r"|on \w+)|\s*[,.;)(]|\s*$)",
    re.I,
)


def own_nicks(text: str) -> set[str]:
    """The nicks `text` says are the user's own, outside any fenced block ("I'm wren in
    there", "my nick is wren")."""
    outside = re.sub(r"(?ms)^\s*(```|~~~).*?^\s*\1", "", text)
    found = set()
    for m in _OWN_NICK.finditer(outside):
        said = outside[max(0, m.start() - 40) : m.end() + 40]
        if m.group(0).lower().startswith(("i'm", "im", "i am")) and not re.search(
            r"\b(?:nick|handle|username|in there|channel|log|chat|IRC|Slack|Discord)\b", said, re.I
        ):
            continue  # "I'm tired": a nick only where the text speaks of one
        found.add(m.group("nick").lower())
    return found


def chat_lines(lines: list[str], own: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """The lines of an opened block; a chat log's (two lines or more in "<nick> text" form)
    each as its writer's ("[21:04] Ana: text"), so that "I" in it is the nick's, never the
    user's; the lines of a nick of `own` are the user's own text. The client's own lines
    (joins, quits, day changes) and the lines of a nick that gives no name are left out."""
    if sum(bool(_CHAT_LINE.match(x)) for x in lines) < 2:
        return [x.strip() for x in lines]
    out: list[str] = []
    for line in lines:
        if (m := _CHAT_LINE.match(line)) is not None and m.group("nick").lower() in own:
            out.append(m.group("text").strip())
        elif m is not None:
            name = re.sub(r"[^A-Za-zÀ-ÿ]", "", m.group("nick"))
            if name:
                stamp = (m.group("stamp") or "").strip("()") or "chat"
                stamp = stamp if stamp.startswith("[") else f"[{stamp}]"
                out.append(f"{stamp} {name[0].upper()}{name[1:].lower()}: {m.group('text')}")
        elif not _CHAT_SYSTEM.match(line):
            out.append(line.strip())
    return out


def unfence_text(
    text: str,
    keep: Callable[[list[str]], bool] | None = None,
    own: frozenset[str] = frozenset(),
) -> str:
    """`text` with each fenced block that reads as text (`reads_as_text`) opened: its fence
    lines dropped, so its lines are read as the message's own. A block `keep` says to keep
    (one read otherwise: a table of records, a message to the memory system) stays fenced. Checkbox items anywhere are rewritten by
    `checkbox_line`; struck items are left out."""
    out: list[str] = []
    lines = text.split("\n")
    mine = own_nicks(text) | own  # `own`: the nicks memory knows are the user's
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
                inner = journal_lines(inner, journal_key(text)) or inner  # "× renew the card"
                out.append("")
                out.extend(chat_lines(inner, mine))
                out.append("")
            else:
                out.extend(lines[i : end + 1])
            i = end + 1
            continue
        out.append(line)
        i += 1
    return "\n".join(x for x in (checkbox_line(y) for y in out) if x is not None)
