"""HTML pasted as its source: read as the text a mail program would show.

A user who copies an e-mail's source instead of its text pastes tags, inline styles and
entities (`<tr><td><b>Arrive</b></td><td>Sat&nbsp;23&nbsp;Aug</td></tr>`). Read as it is,
every line is a fact full of markup and no date or amount is found in it. `read_html`
writes such a message as the text it shows, before anything else reads it:

- a table row of two cells is a labelled value (`Arrive: Sat 23 Aug`), a longer row its
  cells joined by commas; a paragraph, heading, list item, row or line break ends a line;
- entities are the characters they stand for (`&pound;150` is `£150`, `&nbsp;` a space);
- what the mail does not show is left out: a hidden preheader (`display:none`), a `<style>`
  or `<script>` block, the `<head>`;
- a value struck out (`<s>`, `<del>`, `<strike>`) is an old value the mail replaced, and is
  left out too: the value beside it is the one that holds;
- a link is its text.

Text outside the markup (the user's own words before and after the paste) stays as it was,
line by line. A fenced block is code and is left alone, as is a message with fewer than
three tags or none of a page's structure (a tag said in passing: "the <br> in the footer",
"<b>bold</b>").
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

#: An HTML tag of the kinds a mail's source is made of.
_TAG = re.compile(
    r"</?(?:html|head|body|meta|title|style|script|table|tbody|thead|tfoot|tr|td|th|p|div|"
    r"span|br|hr|b|strong|em|i|u|s|del|strike|h[1-6]|a|ul|ol|li|font|img|center|blockquote|"
    r"small|sup|sub|section|header|footer|article)\b[^<>]*>",
    re.I,
)
#: Elements that end a line where they open or close.
_BLOCKS = frozenset(
    [
        "p",
        "div",
        "tr",
        "br",
        "hr",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "li",
        "ul",
        "ol",
        "table",
        "tbody",
        "thead",
        "tfoot",
        "blockquote",
        "section",
        "header",
        "footer",
        "article",
        "title",
    ]
)
#: Elements whose content the reader does not see.
_UNSEEN = frozenset(["style", "script", "head"])
#: Elements whose content is an old value, struck out.
_STRUCK = frozenset(["s", "del", "strike"])
#: Elements that have no end tag.
_VOID = frozenset(["br", "hr", "img", "meta", "link", "input"])
_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden|max-height\s*:\s*0", re.I)


class _Row:
    """A table row being read: its cells, the cell open, and whether a cell holds blocks
    (a layout table's row: each cell's lines are lines, not a label and its value)."""

    def __init__(self) -> None:
        self.cells: list[str] = []
        self.cell: list[str] | None = None
        self.layout = False


class _Text(HTMLParser):
    """The text an HTML source shows, a line per block, a row of cells as one line."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.line: list[str] = []
        self.rows: list[_Row] = []  # the rows open, innermost last (tables nest)
        self.hidden: list[str] = []  # the open elements whose content is not shown
        self.depth = 0  # elements open: outside any, the source's own line breaks count

    def _end_line(self) -> None:
        text = " ".join("".join(self.line).split())
        if text:
            self.lines.append(text)
        self.line = []

    def _cell(self) -> list[str] | None:
        return self.rows[-1].cell if self.rows else None

    def _end_cell(self) -> None:
        row = self.rows[-1] if self.rows else None
        if row is not None and row.cell is not None:
            row.cells.append(" ".join("".join(row.cell).split()))
            row.cell = None

    def _end_row(self) -> None:
        if not self.rows:
            return
        self._end_cell()
        row = self.rows.pop()
        cells = [c for c in row.cells if c]
        self._end_line()
        if row.layout:
            self.lines.extend(cells)
        elif len(cells) == 2 and not cells[0].endswith((":", ".")):
            self.lines.append(f"{cells[0]}: {cells[1]}")
        elif cells:
            self.lines.append(", ".join(cells))

    def _break(self) -> None:
        """A block's edge: the line ends, or, inside a cell, the cell's text so far is a
        line of its own and the row is a layout's."""
        cell = self._cell()
        if cell is None:
            self._end_line()
            return
        text = " ".join("".join(cell).split())
        if text:
            self.lines.append(text)
        cell.clear()
        self.rows[-1].layout = True

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in _VOID:
            self.depth += 1
        style = " ".join(v or "" for k, v in attrs if k in ("style", "hidden", "aria-hidden"))
        hidden = tag in _UNSEEN or tag in _STRUCK or any(k == "hidden" for k, _ in attrs)
        if self.hidden or hidden or _HIDDEN_STYLE.search(style):
            if tag not in _VOID:
                self.hidden.append(tag)
            return
        if tag == "tr":
            if self.rows and self.rows[-1].cell is None:
                self._end_row()  # a row left open: the next one ends it
            elif self.rows:
                self._break()  # a table inside a cell
            self._end_line()
            self.rows.append(_Row())
        elif tag in ("td", "th"):
            if not self.rows:
                self._end_line()
                self.rows.append(_Row())
            self._end_cell()
            self.rows[-1].cell = []
        elif tag == "table" or tag in _BLOCKS:
            self._break()

    def handle_endtag(self, tag: str) -> None:
        if tag not in _VOID and self.depth:
            self.depth -= 1
        if self.hidden:
            if tag == self.hidden[-1]:
                self.hidden.pop()
            return
        if tag == "tr":
            self._end_row()
        elif tag in ("td", "th"):
            self._end_cell()
        elif tag == "table":
            if self.rows and self.rows[-1].cell is None and self.rows[-1].cells:
                self._end_row()
            self._break()
        elif tag in _BLOCKS:
            self._break()

    def handle_data(self, data: str) -> None:
        if self.hidden:
            return
        data = data.replace("\u00a0", " ")
        cell = self._cell()
        if cell is not None:
            cell.append(data)
        elif self.depth == 0 and "\n" in data:  # the user's own lines around the paste
            first, *rest = data.split("\n")
            self.line.append(first)
            for part in rest:
                self._end_line()
                self.line.append(part)
        else:
            self.line.append(data)

    def text(self) -> str:
        while self.rows:
            self._end_row()
        self._end_line()
        return "\n\n".join(self.lines)


#: A tag that only a page's or a mail's source has, not a word set in bold said in passing.
_STRUCTURE = re.compile(r"<(?:html|body|table|tr|td|p|div|li|h[1-6])\b[^<>]*>", re.I)


def _is_source(text: str) -> bool:
    """Whether `text` is HTML source: three tags or more, one of them a page's structure."""
    return len(_TAG.findall(text)) >= 3 and _STRUCTURE.search(text) is not None


def read_html(text: str) -> str:
    """`text` with HTML source in it (three tags or more outside fenced blocks, one of them
    a paragraph, a table's or a page's) written as the text it shows (the module
    docstring); any other text as it is."""
    if "<" not in text or not _is_source(text):
        return text
    out: list[str] = []
    part: list[str] = []
    fenced = False

    def flush() -> None:
        chunk = "\n".join(part)
        if _is_source(chunk):
            parser = _Text()
            parser.feed(chunk)
            parser.close()
            chunk = parser.text()
        if part:
            out.append(chunk)
        part.clear()

    for line in text.split("\n"):
        if line.strip()[:3] in ("```", "~~~"):
            if not fenced:
                flush()
            fenced = not fenced
            out.append(line)
        elif fenced:
            out.append(line)
        else:
            part.append(line)
    flush()
    return "\n".join(out)
