"""HTML for the inspector: the page layout, markdown rendering, diffs, small helpers.

Server-rendered strings; every value from the store goes through `esc` (or markdown-it with
raw HTML off), so a document body can never inject markup or script into a page.
"""

from __future__ import annotations

import re
from html import escape
from urllib.parse import quote, urlencode

from markdown_it import MarkdownIt

from doctree.interop.render import human_size

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
button.danger{background:#b3261e;color:#fff;border:0;padding:.35em .9em;border-radius:4px}
.error{background:#fff;border-left:4px solid #b3261e;padding:.6em 1em}
.notice{background:#fff;border-left:4px solid #1a7f37;padding:.6em 1em}
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
    """`/doc/~/memory/x`, `/history/~/memory/x`, ...: a page about the document at `path`."""
    return url(f"/{kind}/" + quote(path, safe="/~"), **params)


def layout(title: str, body: str, *, owner: str, db: str = "") -> str:
    nav = "".join(
        f'<a href="{href}">{label}</a>'
        for href, label in (
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
        f"<main>{body}</main></body></html>"
    )


_WIKI = re.compile(r"\[\[([^\[\]|#\n]+)(?:#[^\[\]|\n]*)?(?:\|([^\[\]\n]*))?\]\]")
_md = MarkdownIt("commonmark", {"html": False, "linkify": False})


def _wiki_to_link(m: re.Match[str]) -> str:
    target = m.group(1).strip()
    label = (m.group(2) or target).strip().replace("]", "")
    return f"[{label}](<{target}>)"


def render_markdown(body: str) -> str:
    """A document body as HTML: raw HTML off; `~/...` links and [[wiki]] links go to the
    inspector's page of the target."""
    tokens = _md.parse(_WIKI.sub(_wiki_to_link, body))
    for tok in tokens:
        for child in tok.children or []:
            if child.type == "link_open":
                href = str(child.attrGet("href") or "")
                if href.startswith("~"):
                    child.attrSet("href", doc_url("doc", href.split("#", 1)[0]))
    return _md.renderer.render(tokens, _md.options, {})


def render_diff(text: str) -> str:
    """A unified diff as a coloured <pre>."""
    if not text:
        return "<p class=muted>no differences</p>"
    out = []
    for line in text.splitlines():
        cls = ""
        if line.startswith("@@"):
            cls = "hunk"
        elif line.startswith("+") and not line.startswith("+++"):
            cls = "add"
        elif line.startswith("-") and not line.startswith("---"):
            cls = "del"
        out.append(f'<span class="{cls}">{esc(line)}</span>' if cls else esc(line))
    return '<pre class="diff">' + "\n".join(out) + "</pre>"


def badge(text: str) -> str:
    return f'<span class="badge {esc(text)}">{esc(text)}</span>'


def table(headers: list[str], rows: list[str], *, numeric: set[int] | None = None) -> str:
    numeric = numeric or set()
    head = "".join(
        f"<th{' class=n' if i in numeric else ''}>{esc(h)}</th>" for i, h in enumerate(headers)
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
