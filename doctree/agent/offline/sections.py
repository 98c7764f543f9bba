"""Sections: a pasted text's headings in capitals say what the lines below them are about.

A newsletter, a notice or a report pasted as plain text heads each part with a line in
capitals ("YEAR 4 (Rowan class)", "WHOLE SCHOOL") and writes the lines below without
saying it again: "Swimming moves to Thursday afternoons from 16 January." alone is nobody's
swimming. `read_sections` says each sentence under such a heading with it, in brackets, as
pasted notes say a list item with its markdown heading ("… from 16 January (Year 4, Rowan
class)."), and drops the heading line itself. When the user's own words tie the heading to
someone ("Rory in Year 4 (Rowan class)"), the heading names them too ("(Rory — Year 4,
Rowan class)"), so the lines land with the one they concern. A line in capitals with nothing
under it, or a heading the sentence already names, adds nothing.
"""

from __future__ import annotations

import re

from doctree.agent.offline.language import NAME_WORD, NOT_NAMES
from doctree.agent.offline.prefilter import gate_patterns

#: A heading: a few words, its letters mostly capitals, ending no sentence.
_HEADING = re.compile(r"[A-Z0-9][^.!?:;]{1,60}")
#: Where a sentence ends in a line: not after a short abbreviation ("No. 1", "St. Ives").
#: Headings over lines a text needs to be read in sections.
MIN_HEADINGS = 2
_SENTENCE = re.compile(
    r"(?<![A-Z][a-z]\.)(?<!\b[A-Z]\.)(?<![A-Z][a-z][a-z]\.)(?<=[.!?])\s+(?=[A-Z\"'(])"
)


def is_heading(line: str) -> bool:
    """Whether a line is a heading in capitals: eight words at most, no sentence's end, and
    its capitals outside brackets at least three, all its letters there capitals."""
    said = line.strip()
    if not _HEADING.fullmatch(said) or len(said.split()) > 8:
        return False
    outside = re.sub(r"\([^)]*\)", "", said)
    letters = [c for c in outside if c.isalpha()]
    return len(letters) >= 3 and all(c.isupper() for c in letters)


def _written(heading: str) -> str:
    """A heading as a name is written, its brackets a part of it: "YEAR 4 (Rowan class)" is
    "Year 4, Rowan class", "ALL CLASSES" "All Classes"."""
    split = heading.split()
    words = [
        w.capitalize()
        if w.isupper()
        and (len(w) > 3 or len(split) > 1 and w.isalpha() and re.search("[AEIOU]", w))
        else w  # "PTA" alone, "NHS", "KS2": as written
        for w in split
    ]
    return re.sub(r"\s*\(([^)]*)\)", r", \1", " ".join(words)).strip(" ,")


def _tied(heading: str, text: str) -> str | None:
    """The name the user's own words tie `heading` to: "Rory in Year 4 (Rowan class)",
    "Bea (Year 6, Oak class)", "Ada - Year 1"."""
    words = re.escape(heading.strip()).replace(r"\ ", r"\s+")
    m = re.search(
        rf"(?-i:(?P<name>{NAME_WORD}))[ \t]+(?:is[ \t]+)?(?:in[ \t]+|[-–—(][ \t]*)?{words}",
        text,
        re.I,
    )
    if m is None or m.group("name") in NOT_NAMES:
        return None
    return m.group("name")


def read_sections(text: str) -> str:
    """`text` with each sentence under a heading in capitals (`is_heading`) said with it,
    the heading line dropped; text with fewer than `MIN_HEADINGS` headings over lines (a
    shout, "I AM SO CROSS", or a title alone), fenced or quoted lines, as it is."""
    lines = text.split("\n")
    heads = sum(
        1
        for x, below in zip(lines, lines[1:], strict=False)
        if is_heading(x) and below.strip() and not is_heading(below)
    )
    if heads < MIN_HEADINGS:
        return text  # one line in capitals is a shout or a title, not a text in sections
    out: list[str] = []
    heading: str | None = None
    fenced = False
    for i, line in enumerate(lines):
        if line.strip()[:3] in ("```", "~~~"):
            fenced = not fenced
        below = lines[i + 1] if i + 1 < len(lines) else ""
        if fenced or line.lstrip().startswith((">", "|")):
            out.append(line)
            continue
        if is_heading(line) and below.strip() and not is_heading(below):
            said = _written(line.strip())
            who = _tied(line.strip(), text[: text.find(line)] + text[text.find(line) + len(line) :])
            heading = f"{who} — {said}" if who else said
            continue
        if not line.strip():
            heading = None
        if heading is None or not line.strip():
            out.append(line)
            continue
        out.append(" ".join(_with(s, heading) for s in _SENTENCE.split(line.strip())))
    return "\n".join(out)


def _with(sentence: str, heading: str) -> str:
    """A sentence said with its heading, in brackets before its end, unless it names it."""
    words = re.findall(r"[^\W\d_]{3,}", heading.lower())
    if words and all(w in sentence.lower() for w in words):
        return sentence
    end = sentence[-1] if sentence[-1:] in ".!?" else ""
    return f"{sentence[: len(sentence) - len(end)].rstrip()} ({heading}){end}"


gate_patterns(globals())  # the cheap test in front of every pattern above (prefilter.py)
