"""HTML for the inspector: the page layout, markdown rendering, diffs, small helpers.

Server-rendered strings; every value from the store goes through `esc` (or markdown-it with
raw HTML off), so a document body can never inject markup or script into a page.
"""

from __future__ import annotations

import contextlib
import difflib
import json
import re
from datetime import UTC, datetime
from html import escape
from urllib.parse import quote, unquote, urlencode

import linkify_it
from markdown_it import MarkdownIt
from mdit_py_plugins.tasklists import tasklists_plugin

from doctree.interop.render import human_size
from doctree.store.references import WIKI_LINK

__all__ = ["esc", "human_size", "doc_url", "url", "layout", "render_markdown", "render_diff"]

CSS = (
    """
body{font:15px/1.45 system-ui,sans-serif;margin:0;color:#1d232a;background:#fafafa}
header{background:#22303c;color:#fff;padding:.5em 1.2em;display:flex;gap:1.4em;align-items:center}
header a{color:#dde6ee;text-decoration:none}header a:hover{color:#fff}
header .who{margin-left:auto;font-size:.85em;color:#9fb3c4}
main{padding:1em 1.6em;max-width:1200px}
h1{font-size:1.4em;margin:.3em 0 .6em}h2{font-size:1.15em;margin:1.3em 0 .4em}
table{border-collapse:collapse;width:100%;background:#fff}
th,td{text-align:left;padding:.25em .6em;border-bottom:1px solid #e3e6e8;vertical-align:top}
th{background:#eef1f3;font-weight:600}td.n{text-align:right;white-space:nowrap}
code,pre,.mono{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.9em}
pre{background:#fff;border:1px solid #e3e6e8;padding:.7em;overflow:auto}
.doc{background:#fff;border:1px solid #e3e6e8;padding:.4em 1.2em}
.meta{color:#5b6770;font-size:.9em}.muted{color:#8a959d}
.diff .add{background:#e6ffec}.diff .del{background:#ffebe9}.diff .hunk{color:#0a58ca}
.blame td{padding:0 .5em;border:0}.blame tr.first td{border-top:1px solid #e3e6e8}
.blame .src{white-space:pre-wrap;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.9em}
.badge{display:inline-block;padding:0 .45em;border-radius:.6em;font-size:.8em;background:#e3e6e8}
.badge.failing,.badge.failed{background:#ffd8d3}.badge.pending,.badge.running{background:#fff1c2}
.badge.processed,.badge.completed{background:#d3f5dc}.badge.reverted{background:#e0dcff}
form.inline{display:inline}input,select,button{font:inherit;padding:.15em .4em}
a.button{display:inline-block;background:#b3261e;color:#fff;padding:.3em .9em;border-radius:4px;text-decoration:none}
button.danger{background:#b3261e;color:#fff;border:0;padding:.35em .9em;border-radius:4px}
.error{background:#fff;border-left:4px solid #b3261e;padding:.6em 1em}
.notice{background:#fff;border-left:4px solid #1a7f37;padding:.6em 1em}
pre.diff,.src,pre.wrap{white-space:pre-wrap;overflow-wrap:anywhere}
.diff ins{background:#abf2bc;text-decoration:none}.diff del{background:#ffc0ba;text-decoration:none}
mark{background:#fff3a3;padding:0 .1em}
.ta-left{text-align:left}.ta-center{text-align:center}.ta-right{text-align:right}
.prov{background:#fff;border:1px solid #e3e6e8;padding:.3em .8em;font-size:.9em}
.run{background:#fff;border:1px solid #e3e6e8;margin:0 0 1.2em;padding:.2em 1em .6em}
.run h2{margin:.4em 0}.run h3{font-size:1em;margin:.8em 0 .2em}
.pager{margin:.6em 0}.pager a,.pager strong{margin-right:.6em}
.tools{margin:.2em 0}.wide{overflow-x:auto;max-width:100%}
.layout{display:flex;gap:1.4em;align-items:flex-start}.layout>.content{flex:1;min-width:0}
nav.side{width:15em;flex:none;font-size:.9em;background:#fff;border:1px solid #e3e6e8;padding:.3em .6em}
nav.side ul{list-style:none;margin:0;padding-left:.9em}nav.side>ul{padding-left:0}
nav.side .here{font-weight:700}
#drawer,label.drawer{display:none}
main img{max-width:100%}
@media (max-width:700px){
main{padding:.6em .7em}header{flex-wrap:wrap;gap:.2em .9em;padding:.4em .7em}
header .who{margin-left:0;width:100%}
.layout{display:block}label.drawer{display:inline-block;margin:.2em 0 .4em;padding:.2em .6em;
border:1px solid #c9d1d7;background:#fff;border-radius:4px;cursor:pointer}
nav.side{display:none;width:auto}#drawer:checked~nav.side{display:block}
table{display:block;overflow-x:auto}input{max-width:100%}
}
"""
    + "".join(f"td.l{n}{{padding-left:{0.6 + 1.3 * n:.1f}em}}" for n in range(21))
    + "\n"
)
"""The inspector's one stylesheet, inline in every page and allowed by its hash in the
Content-Security-Policy (`doctree.web.security`); no page has a style attribute. `td.lN`
indents a row of the tree N levels (a path has at most 20 segments)."""


def esc(value: object) -> str:
    return escape("" if value is None else str(value), quote=True)


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


def session_link(session_id: str) -> str:
    return f'<a href="{session_url(session_id)}">{esc(session_id)}</a>'


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


def when(iso: str | None, now: datetime | None = None) -> str:
    """A time as every page shows it: `2026-11-20 09:00 UTC` and how long ago, the exact
    stored value in the tooltip."""
    if not iso:
        return "-"
    t = _parse(iso)
    if t is None:
        return esc(iso)
    shown = t.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")
    return (
        f'<time datetime="{esc(iso)}" title="{esc(iso)}">{shown}</time>'
        f" <span class=muted>({relative(iso, now)})</span>"
    )


def pager(base: str, page: int, per: int, total: int, **params: object) -> str:
    """'21–40 of 312' with links to the pages before and after (and the first and last)."""
    if total == 0:
        return ""
    pages = max(1, -(-total // per))
    first, last = (page - 1) * per + 1, min(page * per, total)
    links = []
    if page > 1:
        links.append(f'<a href="{esc(url(base, page=1, **params))}">« first</a>')
        links.append(f'<a href="{esc(url(base, page=page - 1, **params))}" rel=prev>‹ newer</a>')
    links.append(f"<strong>{first}–{last} of {total}</strong>")
    if page < pages:
        links.append(f'<a href="{esc(url(base, page=page + 1, **params))}" rel=next>older ›</a>')
        links.append(f'<a href="{esc(url(base, page=pages, **params))}">last »</a>')
    return f"<p class=pager>{''.join(links)}</p>"


def pretty(content: object) -> str:
    """A session record's content as readable text: text as is (newlines kept), anything
    structured (a tool call, its result) as indented JSON."""
    if isinstance(content, str):
        text = content
        stripped = text.strip()
        if stripped[:1] in "{[" and stripped:
            with contextlib.suppress(ValueError):
                text = json.dumps(json.loads(stripped), indent=2, ensure_ascii=False)
    else:
        text = json.dumps(content, indent=2, ensure_ascii=False, default=str)
    return f"<pre class=wrap>{esc(text)}</pre>"


_MARKED = re.compile(r"(?<!\[)\[(\w[\w'’-]*)\](?![\](])")
_MD_LINK = re.compile(r"\[([^\[\]]*)\]\([^()\s]*\)")
_MD_NOISE = re.compile(r"\[\[|\]\]|(?:^|\s)#{1,6}\s|\*\*|__|`|(?:^|\s)[-*+]\s|^---$")


def snippet(text: str) -> str:
    """A search snippet as HTML: the words the search matched (marked `[word]` by the store)
    highlighted, markdown syntax (headings, emphasis, link brackets) taken out."""
    text = " ".join(text.split())
    marks: list[str] = []

    def keep(m: re.Match[str]) -> str:
        marks.append(m.group(1))
        return f"\x00{len(marks) - 1}\x01"

    text = _MARKED.sub(keep, text)
    text = _MD_LINK.sub(r"\1", text)
    text = _MD_NOISE.sub(" ", text)
    html = esc(" ".join(text.split()))
    return re.sub(r"\x00(\d+)\x01", lambda m: f"<mark>{esc(marks[int(m.group(1))])}</mark>", html)


def layout(title: str, body: str, *, owner: str, db: str = "", side: str = "") -> str:
    """A whole page. `side`: the tree beside the page (a drawer behind a button at phone
    width, opened by a checkbox and CSS: the pages run no script)."""
    nav = "".join(
        f'<a href="{href}">{label}</a>'
        for href, label in (
            ("/", "Activity"),
            ("/tree", "Tree"),
            ("/search", "Search"),
            ("/runs", "Runs"),
            ("/sessions", "Sessions"),
        )
    )
    return (
        "<!doctype html><html lang=en><head><meta charset=utf-8>"
        '<meta name=viewport content="width=device-width,initial-scale=1">'
        f"<title>{esc(title)} · doctree</title><style>{CSS}</style></head><body>"
        f"<header><strong>doctree</strong>{nav}<span class=who>agent {esc(owner)}"
        f"{' · ' + esc(db) if db else ''}</span></header>"
        f"<main>{_with_side(body, side)}</main></body></html>"
    )


def _with_side(body: str, side: str) -> str:
    if not side:
        return body
    return (
        "<div class=layout><input type=checkbox id=drawer>"
        "<label for=drawer class=drawer>☰ Tree</label>"
        f'<nav class=side aria-label="the tree">{side}</nav><div class=content>{body}</div></div>'
    )


_md = MarkdownIt("gfm-like", {"html": False, "linkify": True, "typographer": False}).use(
    tasklists_plugin
)
_md.linkify = linkify_it.LinkifyIt()  # the autolink engine, named so a missing install fails here
"""GitHub-flavoured markdown: tables, strikethrough, task lists, autolinks; raw HTML off."""


def _wiki_to_link(m: re.Match[str]) -> str:
    target = m.group(1).strip()
    label = (m.group(2) or target).strip().replace("]", "")
    return f"[{label}](<{target}>)"


def render_markdown(body: str) -> str:
    """A document body as HTML: raw HTML off; `~/...` links and [[wiki]] links go to the
    inspector's page of the target."""
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
    return _md.renderer.render(tokens, _md.options, {})


_WORDS = re.compile(r"\s+|\w+|[^\w\s]")


def _word_diff(old: str, new: str) -> tuple[str, str]:
    """Two changed lines as HTML, the words only one of them has in <del> / <ins>."""
    a, b = _WORDS.findall(old), _WORDS.findall(new)
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    left, right = [], []
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        x, y = esc("".join(a[i1:i2])), esc("".join(b[j1:j2]))
        if op == "equal":
            left.append(x)
            right.append(y)
        else:
            if x:
                left.append(f"<del>{x}</del>")
            if y:
                right.append(f"<ins>{y}</ins>")
    return "".join(left), "".join(right)


def render_diff(text: str) -> str:
    """A unified diff as a coloured <pre>: lines wrap rather than clip, and where a run of
    removed lines is followed by as many added ones, the words that changed are marked."""
    if not text:
        return "<p class=muted>no differences</p>"
    lines = text.splitlines()
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("@@"):
            out.append(f'<span class="hunk">{esc(line)}</span>')
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
                out += [f'<span class="del">-{x}</span>' for x, _ in pairs]
                out += [f'<span class="add">+{y}</span>' for _, y in pairs]
            else:
                out += [f'<span class="del">{esc(d)}</span>' for d in dels]
                out += [f'<span class="add">{esc(a)}</span>' for a in adds]
            i = k
            continue
        elif line.startswith("+") and not line.startswith("+++"):
            out.append(f'<span class="add">{esc(line)}</span>')
        else:
            out.append(esc(line))
        i += 1
    return '<pre class="diff">' + "\n".join(out) + "</pre>"


def badge(text: str) -> str:
    return f'<span class="badge {esc(text)}">{esc(text)}</span>'


def table(headers: list[str], rows: list[str], *, numeric: set[int] | None = None) -> str:
    numeric = numeric or set()
    head = "".join(
        f"<th{' class=n' if i in numeric else ''}>{esc(h)}</th>" for i, h in enumerate(headers)
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
