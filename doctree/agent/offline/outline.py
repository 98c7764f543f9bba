"""Outlines: nested bullets whose leaves hold only values, each read with the path above it.

An outliner's export ("- Porto trip" / "  - Stay" / "    - Casa Ribeira" / "      - ref
CR-80442") says what a value is about by where it sits, not by its own words: "ref CR-80442"
alone is nobody's reference. Each item whose children include bare values (a few words with
no verb of their own: "3 nights", "check-in 15:00", "my cousin") is read as one line that
names its path and lists them: "Porto trip › Stay › Casa Ribeira: 3 nights; check-in 15:00;
ref CR-80442." Such a line is a record of the list its top item heads, keyed by the path below
it (`shape`), so the outline pasted again is the same list again: an item no longer there is
no longer listed, a value changed replaces the line that held the old one. A child that is a sentence of its own stays one, said with its path in
brackets when it does not name it; an item that is no heading (a sentence with children)
stays a statement too. A flat list, or nested items none of which holds a bare value, is
left as it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from doctree.agent.offline.language import has_verb
from doctree.agent.offline.prefilter import gate_patterns

#: A list item with its indent: "    - ref CR-80442", "  2. Stay", "\t* Jo".
_ITEM = re.compile(r"^(?P<indent>[ \t]*)(?:[-*+•◦▪]|\d{1,2}[.)])[ \t]+(?P<text>\S.*?)\s*$")
#: What joins the steps of a path in the line an outline is read as.
SEP = " › "
#: An outline's line read back: "Porto trip › Stay › Casa Ribeira: 3 nights; ref CR-80442.".
_LINE = re.compile(
    rf"(?P<path>[^:\n›]{{1,60}}(?:{SEP}[^:\n›]{{1,60}})+): (?P<values>\S.*?)\.?",
)
#: The most words a bare value holds; a value this short may hold a verb ("chain oiled").
VALUE_WORDS, SHORT_VALUE_WORDS = 6, 3


@dataclass
class _Node:
    text: str
    indent: int
    children: list[_Node] = field(default_factory=list)


def _indent(said: str) -> int:
    return len(said.replace("\t", "    "))


def is_value(text: str) -> bool:
    """Whether an item is a bare value, not a sentence: no sentence's end, and three words
    at most ("Dale Hughes", "Quinta do Rio", "chain oiled") or a few more (`VALUE_WORDS`)
    with no verb ("MOT due 14 March", "lunch on the Sunday")."""
    words = text.split()
    return (
        0 < len(words) <= VALUE_WORDS
        and not re.search(r"[.!?]\s*$", text)
        and (len(words) <= SHORT_VALUE_WORDS or not has_verb(text))
    )


def _heading(text: str) -> bool:
    """Whether an item with children is only a heading over them: a line that ends on a
    colon, or a few words that end no sentence ("Quinta do Rio", "Book flights")."""
    return text.rstrip().endswith(":") or (
        len(text.split()) <= VALUE_WORDS and not re.search(r"[.!?]\s*$", text)
    )


def _tree(items: list[tuple[int, str]]) -> list[_Node]:
    roots: list[_Node] = []
    stack: list[_Node] = []
    for indent, text in items:
        node = _Node(text, indent)
        while stack and stack[-1].indent >= indent:
            stack.pop()
        (stack[-1].children if stack else roots).append(node)
        stack.append(node)
    return roots


def _read(node: _Node, path: list[str], out: list[str]) -> None:
    here = [*path, node.text.strip().rstrip(":.").strip()]
    if not node.children:
        out.append(node.text if not path else _with_path(node.text, path))
        return
    values = [c.text.rstrip(";,.") for c in node.children if not c.children and is_value(c.text)]
    if values:
        out.append(f"{SEP.join(here)}: {'; '.join(values)}.")
    elif not _heading(node.text):  # a sentence over other sentences: kept as said
        out.append(_with_path(node.text, path) if path else node.text)
    for child in node.children:
        if child.children or not is_value(child.text):
            _read(child, here, out)


def _with_path(text: str, path: list[str]) -> str:
    """A sentence of the outline said with the path it sits under, when it names none of it."""
    said = " ".join(path).lower()
    words = re.findall(r"[^\W\d_]{3,}", said)
    if any(w in text.lower() for w in words):
        return text
    return f"{text.rstrip('.')} ({SEP.join(path)}){'.' if text.endswith('.') else ''}"


def read_outline(lines: list[str]) -> list[str] | None:
    """The lines of one list of items (`lines`, blank lines and all) read as an outline,
    each bare value with the path above it; None when it is no outline: a flat list, or
    nested items whose leaves hold no bare value."""
    items = [(m.group("indent"), m.group("text")) for ln in lines if (m := _ITEM.match(ln))]
    if len(items) < 3 or len(items) != sum(1 for ln in lines if ln.strip()):
        return None
    roots = _tree([(_indent(i), t) for i, t in items])
    if not any(n.children for n in roots):
        return None
    if not any(not c.children and is_value(c.text) for n in _walk(roots) for c in n.children):
        return None
    out: list[str] = []
    for root in roots:
        _read(root, [], out)
    return out


def _walk(nodes: list[_Node]) -> list[_Node]:
    out = []
    for n in nodes:
        out.append(n)
        out.extend(_walk(n.children))
    return out


def outlines(lines: list[str]) -> dict[int, tuple[int, list[str]]]:
    """Each outline among `lines` (a run of list items, nested, outside any fence): its
    first line's index -> (the index after its last line, the lines it is read as)."""
    found: dict[int, tuple[int, list[str]]] = {}
    i = 0
    fenced = False
    while i < len(lines):
        if lines[i].strip()[:3] in ("```", "~~~"):
            fenced = not fenced
        if fenced or not _ITEM.match(lines[i]):
            i += 1
            continue
        end = i + 1  # (line i is an item: matched just above)
        while end < len(lines) and _ITEM.match(lines[end]):
            end += 1
        if (read := read_outline(lines[i:end])) is not None:
            found[i] = (end, read)
        i = end
    return found


def shape(line: str) -> tuple[str, frozenset[str], dict[str, str]] | None:
    """An outline's line as a record of the list its top item heads: the path below the top
    item its key, the top item the one label, its values the cell ("Porto trip › Stay › Casa
    Ribeira: 3 nights; ref CR-80442." -> ("Stay › Casa Ribeira", {"porto trip"}, ...)), so
    the outline pasted again is the same list, whichever of its items changed; None for any
    other line."""
    m = _LINE.fullmatch(line.strip())
    if m is None:
        return None
    top, *below = m.group("path").split(SEP)
    label = top.strip().lower()
    return SEP.join(below).strip(), frozenset({label}), {label: m.group("values").strip()}


gate_patterns(globals())  # the cheap test in front of every pattern above (prefilter.py)
