"""References a body makes: markdown links and `[[...]]` wiki links to `~/...` paths,
plus the `links:` list of a YAML frontmatter block. Parsed with markdown-it-py, so links
inside code spans and code blocks are not references."""

from __future__ import annotations

import re
from functools import cache

from doctree.errors import PathError
from doctree.store.frontmatter import split_frontmatter
from doctree.store.paths import normalize_path

__all__ = ["WIKI_LINK", "body_links", "declared_links", "split_frontmatter"]

WIKI_LINK = re.compile(r"\[\[([^\[\]|#]+)(?:#[^\[\]|]*)?(?:\|([^\[\]]*))?\]\]")
"""A `[[target]]`, `[[target#heading]]` or `[[target|label]]` wiki link; group 1 is the
target, group 2 the label (None without one)."""


@cache
def _parser():
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark")


def _clean_target(raw: str) -> str | None:
    raw = raw.strip()
    if raw.startswith("<") and raw.endswith(">"):
        raw = raw[1:-1]
    raw = raw.split("#", 1)[0].split("?", 1)[0]
    if raw.endswith(".md"):
        raw = raw[:-3]
    if not raw.startswith("~"):
        return None
    try:
        return normalize_path(raw)
    except PathError:
        return None


def declared_links(body: str) -> list[str]:
    """Paths listed under `links:` in the body's frontmatter (invalid ones are ignored)."""
    meta, _ = split_frontmatter(body)
    links = meta.get("links") or []
    if isinstance(links, str):
        links = [links]
    out = []
    for item in links if isinstance(links, list) else []:
        if isinstance(item, str) and (target := _clean_target(item)):
            out.append(target)
    return out


def body_links(body: str) -> list[str]:
    """Targets of markdown links and wiki links to `~/...` paths, in order, deduplicated."""
    if "~" not in body:  # cheap exit: only `~/...` targets count
        return []
    _, text = split_frontmatter(body) if body.startswith("---") else ({}, body)
    found = _simple_links(text)
    if found is None:
        found = _markdown_links(text)
    return list(dict.fromkeys(found))


# Plain prose with inline links is parsed by one regex; anything where markdown's block or
# inline structure could change what is a link (code, HTML, escapes, entities, indentation,
# reference definitions, images, nested brackets) goes to markdown-it. The two agree on
# every body the regex accepts (tests/test_references.py checks it with hypothesis).
_NEEDS_PARSER = re.compile(r"[`<\\&\t]|~~~|    |\]:|!\[")
_PARSER_MARKS = ("`", "<", "\\", "&", "\t", "~~~", "    ", "]:", "![")  # the same, for `in`
_SIMPLE = re.compile(
    r"(?P<link>\[[^\[\]\n]*\]\([ ]*(?P<dest>[^\s()]*)(?:[ ]+(?:\"[^\"\n]*\"|'[^'\n]*'))?[ ]*\))"
    r"|(?P<wiki>\[\[(?P<target>[^\[\]|#\n]+)(?:#[^\[\]|\n]*)?(?:\|[^\[\]\n]*)?\]\])"
)


def _simple_links(text: str) -> list[str] | None:
    """Link targets found by regex, or None when the text needs the markdown parser."""
    if "[" not in text:
        return []
    if any(mark in text for mark in _PARSER_MARKS):
        return None
    from urllib.parse import unquote

    found: list[str] = []
    links = 0
    pos = text.find("[")
    while pos != -1:  # a match starts at a '[': jump between them (finditer is much slower)
        m = _SIMPLE.match(text, pos)
        if m is None:
            pos = text.find("[", pos + 1)
            continue
        pos = text.find("[", m.end())
        if m.group("link"):
            links += 1
            target = _clean_target(unquote(m.group("dest")))
        else:
            if "_" in m.group("wiki") or "*" in m.group("wiki"):
                return None  # emphasis could split the wiki link
            target = _clean_target(m.group("target"))
        if target:
            found.append(target)
    if links != text.count("]("):
        return None  # some `](` is not a simple inline link: let the parser decide
    return found


def _markdown_links(text: str) -> list[str]:
    """Link targets as markdown-it sees them (the reference behaviour)."""
    from urllib.parse import unquote

    found: list[str] = []
    for block in _parser().parse(text):
        if block.type != "inline" or not block.children:
            continue
        for tok in block.children:
            if tok.type == "link_open":
                href = unquote(str(tok.attrs.get("href", "")))
                if target := _clean_target(href):
                    found.append(target)
            elif tok.type == "text" and "[[" in tok.content:
                for m in WIKI_LINK.finditer(tok.content):
                    if target := _clean_target(m.group(1)):
                        found.append(target)
    return found
