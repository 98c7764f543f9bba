"""Memory pages as the offline agent edits them: sections of lines, parsed and rendered."""

from __future__ import annotations

import re
from dataclasses import dataclass, field


@dataclass
class Page:
    """A memory page as sections of lines: the heading, the text before any section, sections."""

    title: str
    intro: list[str] = field(default_factory=list)
    sections: dict[str, list[str]] = field(default_factory=dict)

    @classmethod
    def parse(cls, body: str, default_title: str) -> Page:
        lines = body.split("\n")
        title = default_title
        if lines and lines[0].startswith("# "):
            title = lines[0][2:].strip()
            lines = lines[1:]
        page = cls(title)
        current: list[str] = page.intro
        for line in lines:
            if line.startswith("## "):
                current = page.sections.setdefault(line[3:].strip(), [])
                continue
            current.append(line)
        for section in [page.intro, *page.sections.values()]:
            while section and not section[-1].strip():
                section.pop()
            while section and not section[0].strip():
                section.pop(0)
        return page

    def add(self, section: str, line: str, *, key: str | None = None) -> bool:
        """Append `line` to `section` unless a line there already holds `key` (default: line)."""
        lines = self.sections.setdefault(section, [])
        probe = key if key is not None else line
        if any(probe in existing for existing in lines):
            return False
        lines.append(line)
        return True

    def render(self) -> str:
        out = [f"# {self.title}", ""]
        if self.intro:
            out += [*self.intro, ""]
        for name, lines in self.sections.items():
            if not lines:
                continue
            out += [f"## {name}", "", *lines, ""]
        return "\n".join(out).rstrip("\n") + "\n"


@dataclass
class Read:
    """A page as `document_read` returned it."""

    path: str
    version: int
    body: str
    children: list[tuple[str, str]]  # (path, title)


def parse_read(content: str) -> Read:
    """Parse `document_read` output (header, numbered body, children) back into its parts."""
    path, version = "", 0
    body: list[str] = []
    children: list[tuple[str, str]] = []
    section = "header"
    for line in content.split("\n"):
        if line.startswith("--- body ("):
            section = "body"
            continue
        if line.startswith("--- children ("):
            section = "children"
            continue
        if line.startswith("--- backlinks ("):
            section = "backlinks"
            continue
        if section == "header":
            if line.startswith("path: "):
                path = line[6:]
            elif line.startswith("version: "):
                version = int(line[9:].split()[0])
        elif section == "body":
            m = re.match(r"\s*\d+\t(.*)", line)
            if m:
                body.append(m.group(1))
        elif section == "children" and line.strip():
            child, _, rest = line.partition("  ")
            title = re.sub(r"\s+\(v\d+, \d+ bytes\)$", "", rest).strip()
            children.append((child.strip(), title))
    return Read(path, version, "\n".join(body) + ("\n" if body else ""), children)


# -- the agent ----------------------------------------------------------------------------------


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def _printable(text: str) -> str:
    """Control characters (NUL included) shown as U+FFFD: a page body holds text only."""
    return _CONTROL.sub("\ufffd", text)


#: Where a sentence ends: not after a title ("Dr. Osei").
_SENTENCE_END = re.compile(r"(?<!\bDr)(?<!\bMr)(?<!\bMrs)(?<!\bMs)(?<!\bSt)[.!?](?=\s)")


def quote(text: str, limit: int = 200) -> str:
    """Text as an inline code span: shown, never a link, never markup. Text over `limit`
    is cut after its last whole sentence that fits, when one does: a sentence cut short can
    say half of a change ("swap him from the beef to t…")."""
    text = " ".join(_printable(text).split()).replace("`", "'")
    if len(text) > limit:
        cut = text[: limit - 1]
        ends = [m.end() for m in _SENTENCE_END.finditer(cut)]
        text = (cut[: ends[-1]] + " …") if ends else cut + "…"
    return f"`{text}`"


def neutral(text: str) -> str:
    """The user's words made safe to copy into a page: no wiki links, no line breaks."""
    text = _printable(text).replace("[[", "[ [").replace("]]", "] ]")
    return " ".join(text.split("\n"))
