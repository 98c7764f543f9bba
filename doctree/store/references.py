"""References a body makes: markdown links and `[[...]]` wiki links to `~/...` paths,
plus the `links:` list of a YAML frontmatter block. Parsed with markdown-it-py, so links
inside code spans and code blocks are not references."""

from __future__ import annotations

import re
from functools import cache

from doctree.errors import PathError
from doctree.store.paths import normalize_path

_WIKI = re.compile(r"\[\[([^\[\]|#]+)(?:#[^\[\]|]*)?(?:\|[^\[\]]*)?\]\]")
_FRONTMATTER = re.compile(r"\A---[ \t]*\n(.*?\n)---[ \t]*(?:\n|\Z)", re.S)


@cache
def _parser():
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark")


MAX_FRONTMATTER_DEPTH = 100
TOO_DEEP = f"frontmatter nested too deep (more than {MAX_FRONTMATTER_DEPTH} levels)"


def _flow_depth(text: str) -> int:
    """The deepest nesting of YAML flow collections ('[', '{') in `text`; linear, and
    cheap enough to run before the YAML parser, whose recursion a deep one would exhaust."""
    depth = deepest = 0
    for c in text:
        if c in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
        elif c in "]}" and depth:
            depth -= 1
    return deepest


def load_frontmatter(text: str) -> object:
    """The YAML of a frontmatter block; raises ValueError(TOO_DEEP) for a nesting the
    parser cannot take, yaml.YAMLError for text that is not YAML."""
    import yaml

    if _flow_depth(text) > MAX_FRONTMATTER_DEPTH:
        raise ValueError(TOO_DEEP)
    try:
        return yaml.safe_load(text)
    except RecursionError:
        raise ValueError(TOO_DEEP) from None


def frontmatter_problem(body: str) -> str | None:
    """Why the body's frontmatter cannot be read (it is nested too deep), or None."""
    m = _FRONTMATTER.match(body)
    if not m:
        return None
    import yaml

    try:
        load_frontmatter(m.group(1))
    except ValueError as e:
        return str(e)
    except yaml.YAMLError:
        return None  # not YAML: the block is body text
    return None


def split_frontmatter(body: str) -> tuple[dict, str]:
    """Split a leading YAML frontmatter block off `body`; ({}, body) when there is none
    (or when it is not YAML, or nested too deep to read)."""
    m = _FRONTMATTER.match(body)
    if not m:
        return {}, body
    import yaml

    try:
        data = load_frontmatter(m.group(1))
    except (yaml.YAMLError, ValueError):
        return {}, body
    if not isinstance(data, dict):
        return {}, body
    return data, body[m.end() :]


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
                for m in _WIKI.finditer(tok.content):
                    if target := _clean_target(m.group(1)):
                        found.append(target)
    return found
