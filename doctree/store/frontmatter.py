"""YAML frontmatter: a leading block between `---` lines. One parser for document bodies,
exported files and agent definitions, guarded against nesting the YAML parser cannot take."""

from __future__ import annotations

import re

FRONTMATTER = re.compile(r"\A---[ \t]*\n(.*?\n)---[ \t]*(?:\n|\Z)", re.S)
MAX_FRONTMATTER_DEPTH = 100
TOO_DEEP = f"frontmatter nested too deep (more than {MAX_FRONTMATTER_DEPTH} levels)"


def frontmatter_block(text: str) -> tuple[str, str] | None:
    """(the YAML text, what follows the block), or None when `text` does not open with one."""
    m = FRONTMATTER.match(text)
    return (m.group(1), text[m.end() :]) if m else None


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
    block = frontmatter_block(body)
    if block is None:
        return None
    import yaml

    try:
        load_frontmatter(block[0])
    except ValueError as e:
        return str(e)
    except yaml.YAMLError:
        return None  # not YAML: the block is body text
    return None


def read_frontmatter(text: str) -> tuple[dict | None, str]:
    """(mapping, rest) when `text` opens with a frontmatter block holding a YAML mapping;
    (None, text) otherwise (no block, invalid YAML, nested too deep, or not a mapping)."""
    block = frontmatter_block(text)
    if block is None:
        return None, text
    import yaml

    try:
        data = load_frontmatter(block[0])
    except (yaml.YAMLError, ValueError):
        return None, text
    return (data, block[1]) if isinstance(data, dict) else (None, text)


def split_frontmatter(body: str) -> tuple[dict, str]:
    """Split a leading YAML frontmatter block off `body`; ({}, body) when there is none."""
    meta, rest = read_frontmatter(body)
    return (meta, rest) if meta is not None else ({}, body)
