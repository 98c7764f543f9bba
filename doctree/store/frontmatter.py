"""YAML frontmatter: a leading block between `---` lines. One parser for document bodies,
exported files and agent definitions."""

from __future__ import annotations

import re

FRONTMATTER = re.compile(r"\A---[ \t]*\n(.*?\n)---[ \t]*(?:\n|\Z)", re.S)


def frontmatter_block(text: str) -> tuple[str, str] | None:
    """(the YAML text, what follows the block), or None when `text` does not open with one."""
    m = FRONTMATTER.match(text)
    return (m.group(1), text[m.end() :]) if m else None


def read_frontmatter(text: str) -> tuple[dict | None, str]:
    """(mapping, rest) when `text` opens with a frontmatter block holding a YAML mapping;
    (None, text) otherwise (no block, invalid YAML, or not a mapping)."""
    block = frontmatter_block(text)
    if block is None:
        return None, text
    import yaml

    try:
        data = yaml.safe_load(block[0])
    except yaml.YAMLError:
        return None, text
    return (data, block[1]) if isinstance(data, dict) else (None, text)


def split_frontmatter(body: str) -> tuple[dict, str]:
    """Split a leading YAML frontmatter block off `body`; ({}, body) when there is none."""
    meta, rest = read_frontmatter(body)
    return (meta, rest) if meta is not None else ({}, body)
