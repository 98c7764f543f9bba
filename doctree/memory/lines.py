"""Lines of memory text: which lines of a markdown text are worth keeping, when two lines say
the same thing, and how many tokens a text is (offline). Shared by compaction, the working
context's summaries (budgets) and the weekly tiers."""

from __future__ import annotations

import math
import re

from doctree.store.references import split_frontmatter

HEADING_LINE = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
"""A markdown heading line: group 1 its `#` marks (the level), group 2 its text."""

TOKENS_PER_WORD = 1.3
CHARS_PER_TOKEN = 4


def estimate_tokens(text: str) -> int:
    """An offline token estimate: ~1.3 tokens a word, at least one token per 4 characters."""
    if not text:
        return 0
    return max(
        math.ceil(len(text.split()) * TOKENS_PER_WORD), math.ceil(len(text) / CHARS_PER_TOKEN)
    )


_BULLET = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(\[])")
KEY_WORDS = re.compile(
    r"\b(decid\w*|decision|prefer\w*|always|never|must|remember|pattern\w*|correct\w*|"
    r"actually|deadline|due|important|todo|agreed|plan\w*|goal\w*|lives?|works?|moved|"
    r"likes?|dislikes?|allerg\w*|birthday|\d{4}-\d{2}-\d{2})\b",
    re.I,
)
_CHATTER = re.compile(
    r"^(hi|hello|hey|thanks|thank you|ok|okay|sure|great|cool|bye|good (morning|evening|night))"
    r"\b|\?$",
    re.I,
)
_NORMAL = re.compile(r"[^\w]+", re.UNICODE)


def normal_key(line: str) -> str:
    """A line reduced to its lowercased words: what makes two lines the same."""
    return _NORMAL.sub(" ", line.lower()).strip()


def extract_lines(text: str) -> list[tuple[int, str]]:
    """The lines worth keeping from a markdown text, as (priority, '- line') pairs.

    Priority 1: list items and sentences carrying a fact, decision, preference or date;
    priority 2: the first sentence of other paragraphs. Headings, code blocks, rules and
    comments are dropped. Deterministic: the same text always gives the same lines.
    """
    if text.startswith("---"):
        _, text = split_frontmatter(text)
    out: list[tuple[int, str]] = []
    paragraph: list[str] = []
    in_code = False

    def flush() -> None:
        if not paragraph:
            return
        sentences = _SENTENCE.split(" ".join(s.strip() for s in paragraph))
        for i, s in enumerate(sentences):
            s = s.strip()
            if not s:
                continue
            if KEY_WORDS.search(s):
                out.append((1, "- " + s))
            elif i == 0 and not _CHATTER.search(s):
                out.append((2, "- " + s))
        paragraph.clear()

    for raw in text.splitlines():
        line = raw.rstrip()
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            flush()
            in_code = not in_code
            continue
        if in_code:
            continue
        if not stripped or stripped.startswith(("#", "<!--", "|")) or set(stripped) <= set("-*_= "):
            flush()
            continue
        if _BULLET.match(line):
            flush()
            item = _BULLET.sub("", line).strip()
            if item:
                out.append((1, "- " + item))
            continue
        if stripped.startswith(">"):
            stripped = stripped.lstrip("> ").strip()
            if not stripped:
                continue
        paragraph.append(stripped)
    flush()
    return out
