"""Fields: a note pasted with its fields written as `key: value`.

A note copied out of a notes app carries fields beside its text: front matter between `---`
lines at its top (`status: quoting`) and inline fields (`architect:: [[Imogen Drury]]`). Each
field says something of what the note is about, its title: "Loft conversion, architect:
Imogen Drury." is one statement, a line of its own however short, so that it lands on the
page of what it names and a later paste of the note with the field changed replaces it. Any
key is read; what the note's file says of itself (its title, its tags: a list) is not a
field of its subject. Links (`[[target|alias]]`) are read as the name they link to, tags
(`#planning`) are left out, a code block inside the note is left out, and the rest of the
note is read line by line under its headings.
"""

from __future__ import annotations

import re

from doctree.agent.offline.blocks import checkbox_line, reads_as_text, under_headings

#: An inline field: "architect:: [[Imogen Drury]]", "planning ref:: 32/00417/HH".
_INLINE = re.compile(r"^\s*(?P<key>[^\W\d_][\w ./&'’()-]{0,40}?)\s*::\s*(?P<value>\S.*?)\s*$")
#: A field of front matter: "status: quoting" (a key without spaces, as a file's metadata is).
_FRONT = re.compile(r"^(?P<key>[^\W\d_][\w-]{0,30}):\s*(?P<value>.*?)\s*$")
#: A link to another note: "[[Imogen Drury]]", "[[Imogen Drury|Imogen]]" (read as its target).
_LINK = re.compile(r"\[\[(?P<target>[^\]|#\n]+)(?:#[^\]|\n]*)?(?:\|[^\]\n]*)?\]\]")
#: A tag: "#planning", "#house/loft" (not a heading's "#", nor "#3" or "no. #41").
_TAG = re.compile(r"(?<![\w&#])#[^\W\d_][\w/-]*")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(?P<title>\S.*?)\s*#*\s*$")
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")


def _plain(text: str) -> str:
    """`text` with its links read as the names they link to and its tags left out."""
    text = _LINK.sub(lambda m: m.group("target").strip(), text)
    return re.sub(r"\s{2,}", " ", _TAG.sub("", text)).rstrip()


def _front_matter(lines: list[str]) -> tuple[list[tuple[str, str]], int] | None:
    """The fields of the front matter `lines` open with, and where the rest begins; None
    when they open with none (a `---` line, `key: value` lines, a `---` line)."""
    start = next((i for i, ln in enumerate(lines) if ln.strip()), None)
    if start is None or lines[start].strip() != "---":
        return None
    end = next((j for j in range(start + 1, len(lines)) if lines[j].strip() == "---"), None)
    if end is None or end == start + 1:
        return None
    fields = []
    for ln in lines[start + 1 : end]:
        if not ln.strip():
            continue
        m = _FRONT.match(ln)
        if m is None:
            if ln.startswith((" ", "\t", "-")):
                continue  # a list's or a mapping's inner line: no field of its own
            return None  # no front matter: some other text between two rules
        fields.append((m.group("key"), m.group("value")))
    return (fields, end + 1) if fields else None


def note_fields(lines: list[str]) -> list[str] | None:
    """The statements of a pasted note that has fields (front matter, or two inline `key::
    value` fields or more): each field as "Title, key: value." and every other line of its
    text as it is, its links read as names, its tags and code blocks left out. None for a
    block that is no such note."""
    front = _front_matter(lines)
    body = lines[front[1] :] if front else lines
    inline = [m for ln in body if (m := _INLINE.match(ln))]
    if front is None and len(inline) < 2:
        return None
    fields: list[tuple[str, str]] = []
    title = ""
    for key, value in front[0] if front else []:
        if key.lower() == "title":
            title = value.strip("'\" ")
        elif value and not value.startswith(("[", "{", "|", ">")):
            fields.append((key, value.strip("'\" ")))  # a list (its tags) is the file's own
    text: list[str] = []
    fence = ""
    inner: list[str] = []
    for ln in body:
        if fence:
            if re.fullmatch(rf"\s*{re.escape(fence[0])}{{{len(fence)},}}\s*", ln):
                if reads_as_text(inner):
                    text.extend(inner)  # a list or notes in a fence: read as the note's
                fence, inner = "", []
            else:
                inner.append(ln)
            continue
        if m := _FENCE.match(ln):
            fence = m.group(1)  # a code block inside the note: a token, a config
            continue
        if m := _INLINE.match(ln):
            fields.append((m.group("key").strip(), m.group("value")))
            continue
        if (h := _HEADING.match(ln)) and not title:
            title = _plain(h.group("title"))
        text.append(ln)
    out = []
    for key, value in fields:
        said = _plain(value).rstrip(".")
        if not said:
            continue
        head = f"{title}, {key}" if title else key[:1].upper() + key[1:]
        out.append(f"{head}: {said}.")
    for ln in under_headings(text):
        if _HEADING.match(ln) or not ln.strip():
            continue
        line = checkbox_line(_plain(ln))
        if line is None:
            continue
        said = re.sub(r"^\s*(?:[-*+]|\d+[.)])\s+", "", line).strip()
        if re.search(r"[^\W\d_]", said):
            out.append(said)
    return out
