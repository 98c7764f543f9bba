"""What the inspector's templates show, as data: the URLs of its pages, times in words, pagers,
search snippets with their matches, a unified diff as lines with the changed words marked,
session records as readable text, and a document body rendered from markdown.

The markup itself is the templates' (`doctree/web/templates/`, autoescaped). The one piece of
HTML made here is a body rendered by markdown-it with raw HTML off (`render_markdown`): it is
the only value the templates insert unescaped, marked safe there and nowhere else.
"""

from __future__ import annotations

import contextlib
import difflib
import json
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from urllib.parse import quote, unquote, urlencode

import linkify_it
from markdown_it import MarkdownIt
from markupsafe import Markup
from mdit_py_plugins.tasklists import tasklists_plugin

from doctree.interop.render import human_size
from doctree.store.references import WIKI_LINK

__all__ = [
    "DiffLine",
    "Moment",
    "Pager",
    "diff_lines",
    "doc_url",
    "human_size",
    "moment",
    "pager",
    "pretty",
    "render_markdown",
    "session_url",
    "snippet",
    "url",
]


def url(base: str, **params: object) -> str:
    """A URL with its query parameters (None values left out)."""
    q = {k: v for k, v in params.items() if v is not None and v != ""}
    return base + ("?" + urlencode(q) if q else "")


def doc_url(kind: str, path: str, **params: object) -> str:
    """`/doc/~/memory/x`, `/history/~/memory/x`, ...: a page about the document at `path`
    (each segment percent-encoded once, as UTF-8)."""
    return url(f"/{kind}/" + quote(path, safe="/~"), **params)


def session_url(session_id: str) -> str:
    """`/sessions/ID`, the id percent-encoded whole (a `/`, `?`, `#` or `%` in it too)."""
    return "/sessions/" + quote(session_id, safe="")


# -- times ----------------------------------------------------------------------------------


def _parse(iso: str) -> datetime | None:
    try:
        t = datetime.fromisoformat(iso.replace("Z", "+00:00"))
    except ValueError:
        return None
    return t if t.tzinfo else t.replace(tzinfo=UTC)


def relative(iso: str, now: datetime | None = None) -> str:
    """How long ago (or ahead) `iso` is, in words: 'just now', '5 minutes ago', 'in 2 days'."""
    t = _parse(iso)
    if t is None:
        return ""
    seconds = ((now or datetime.now(UTC)) - t).total_seconds()
    ahead, s = seconds < 0, abs(seconds)
    if s < 45:
        return "just now"
    for size, unit in (
        (31536000, "year"),
        (2592000, "month"),
        (86400, "day"),
        (3600, "hour"),
        (60, "minute"),
    ):
        if s >= size:
            n = round(s / size) if size < 86400 else int(s // size)
            words = f"{n} {unit}{'s' if n != 1 else ''}"
            return f"in {words}" if ahead else f"{words} ago"
    return "just now"


@dataclass(frozen=True)
class Moment:
    """A stored time as every page shows it: `2026-11-20 09:00 UTC` and how long ago."""

    iso: str
    shown: str
    ago: str


def moment(iso: str, now: datetime | None = None) -> Moment | None:
    """`iso` as a `Moment` (None: not a time, shown as stored)."""
    t = _parse(iso)
    if t is None:
        return None
    return Moment(iso, t.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC"), relative(iso, now))


# -- pagers ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Pager:
    """'21–40 of 312', with the URLs of the first, previous, next and last pages (None where
    there is none); `more` is '+' when the total is a cap."""

    first: int
    last: int
    total: int
    first_url: str | None = None
    prev_url: str | None = None
    next_url: str | None = None
    last_url: str | None = None
    more: str = ""


def pager(
    base: str, page: int, per: int, total: int, *, more: bool = False, **params: object
) -> Pager | None:
    """Page `page` of `total` items, `per` a page (None: nothing to page)."""
    if total == 0:
        return None
    pages = max(1, -(-total // per))
    earlier = page > 1
    later = page < pages
    return Pager(
        first=(page - 1) * per + 1,
        last=min(page * per, total),
        total=total,
        first_url=url(base, page=1, **params) if earlier else None,
        prev_url=url(base, page=page - 1, **params) if earlier else None,
        next_url=url(base, page=page + 1, **params) if later else None,
        last_url=url(base, page=pages, **params) if later else None,
        more="+" if more else "",
    )


# -- text -----------------------------------------------------------------------------------


def pretty(content: object) -> str:
    """A session record's content as readable text: text as is (newlines kept), anything
    structured (a tool call, its result) as indented JSON."""
    if isinstance(content, str):
        text = content
        stripped = text.strip()
        if stripped[:1] in "{[" and stripped:
            with contextlib.suppress(ValueError):
                text = json.dumps(json.loads(stripped), indent=2, ensure_ascii=False)
        return text
    return json.dumps(content, indent=2, ensure_ascii=False, default=str)


_MARKED = re.compile(r"(?<!\[)\[(\w[\w'’-]*)\](?![\](])")
_MD_LINK = re.compile(r"\[([^\[\]]*)\]\([^()\s]*\)")
_MD_NOISE = re.compile(r"\[\[|\]\]|(?:^|\s)#{1,6}\s|\*\*|__|`|(?:^|\s)[-*+]\s|^---$")
_MARK = re.compile(r"\x00(\d+)\x01")


def snippet(text: str) -> list[tuple[str, bool]]:
    """A search snippet as (text, matched) pieces: the words the search matched (marked
    `[word]` by the store) apart, markdown syntax (headings, emphasis, link brackets) taken
    out."""
    text = " ".join(text.split())
    marks: list[str] = []

    def keep(m: re.Match[str]) -> str:
        marks.append(m.group(1))
        return f"\x00{len(marks) - 1}\x01"

    text = _MARKED.sub(keep, text)
    text = _MD_LINK.sub(r"\1", text)
    text = " ".join(_MD_NOISE.sub(" ", text).split())
    pieces: list[tuple[str, bool]] = []
    at = 0
    for m in _MARK.finditer(text):
        if m.start() > at:
            pieces.append((text[at : m.start()], False))
        pieces.append((marks[int(m.group(1))], True))
        at = m.end()
    if at < len(text):
        pieces.append((text[at:], False))
    return pieces


# -- markdown -------------------------------------------------------------------------------

_md = MarkdownIt("gfm-like", {"html": False, "linkify": True, "typographer": False}).use(
    tasklists_plugin
)
_md.linkify = linkify_it.LinkifyIt()  # the autolink engine, named so a missing install fails here
"""GitHub-flavoured markdown: tables, strikethrough, task lists, autolinks; raw HTML off."""


def _wiki_to_link(m: re.Match[str]) -> str:
    target = m.group(1).strip()
    label = (m.group(2) or target).strip().replace("]", "")
    return f"[{label}](<{target}>)"


def render_markdown(body: str) -> Markup:
    """A document body as HTML: raw HTML off (a tag in the body is text), `~/...` links and
    [[wiki]] links to the inspector's page of the target. markdown-it escapes every piece of
    text and attribute it writes, and refuses `javascript:` and other unsafe link schemes,
    so its output is the one value the templates take as markup."""
    tokens = _md.parse(WIKI_LINK.sub(_wiki_to_link, body))
    for tok in tokens:
        style = str(tok.attrGet("style") or "")
        if tok.type in ("th_open", "td_open") and style.startswith("text-align:"):
            # a table column's alignment as a class: the CSP allows no style attribute
            tok.attrs.pop("style", None)
            tok.attrSet("class", "ta-" + style.split(":", 1)[1].strip())
        for child in tok.children or []:
            if child.type == "link_open":
                href = str(child.attrGet("href") or "")
                if href.startswith("~"):
                    # markdown-it has percent-encoded the link already: decode it once, so
                    # that doc_url encodes it once (`zoë`, not `zo%25C3%25AB`)
                    child.attrSet("href", doc_url("doc", unquote(href.split("#", 1)[0])))
    return Markup(_md.renderer.render(tokens, _md.options, {}))


# -- diffs ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class DiffLine:
    """One line of a unified diff: `kind` 'hunk', 'del', 'add' or '' (context, headers), and
    its text as (text, changed) pieces; on a removed or added line paired with one on the
    other side, the changed pieces are the words only that side has."""

    kind: str
    pieces: list[tuple[str, bool]] = field(default_factory=list)


_WORDS = re.compile(r"\s+|\w+|[^\w\s]")


def _word_diff(old: str, new: str) -> tuple[list[tuple[str, bool]], list[tuple[str, bool]]]:
    """Two changed lines as pieces, the words only one of them has marked changed."""
    a, b = _WORDS.findall(old), _WORDS.findall(new)
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    left: list[tuple[str, bool]] = []
    right: list[tuple[str, bool]] = []
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        x, y = "".join(a[i1:i2]), "".join(b[j1:j2])
        if op == "equal":
            left.append((x, False))
            right.append((y, False))
        else:
            if x:
                left.append((x, True))
            if y:
                right.append((y, True))
    return left, right


def diff_lines(text: str) -> list[DiffLine]:
    """A unified diff as lines to colour: where a run of removed lines is followed by as many
    added ones, the words that changed are marked."""
    lines = text.splitlines()
    out: list[DiffLine] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("@@"):
            out.append(DiffLine("hunk", [(line, False)]))
        elif line.startswith("-") and not line.startswith("---"):
            j = i
            while j < len(lines) and lines[j].startswith("-") and not lines[j].startswith("---"):
                j += 1
            k = j
            while k < len(lines) and lines[k].startswith("+") and not lines[k].startswith("+++"):
                k += 1
            dels, adds = lines[i:j], lines[j:k]
            if len(dels) == len(adds):
                pairs = [_word_diff(d[1:], a[1:]) for d, a in zip(dels, adds, strict=True)]
                out += [DiffLine("del", [("-", False), *x]) for x, _ in pairs]
                out += [DiffLine("add", [("+", False), *y]) for _, y in pairs]
            else:
                out += [DiffLine("del", [(d, False)]) for d in dels]
                out += [DiffLine("add", [(a, False)]) for a in adds]
            i = k
            continue
        elif line.startswith("+") and not line.startswith("+++"):
            out.append(DiffLine("add", [(line, False)]))
        else:
            out.append(DiffLine("", [(line, False)]))
        i += 1
    return out
