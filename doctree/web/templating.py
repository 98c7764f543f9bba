"""The inspector's templates (`doctree/web/templates/`) and stylesheet (`doctree/web/static/`).

Jinja2 with autoescaping on for every template: a value from the store or the request is
text wherever a template puts it. The helpers of `doctree.web.html` are the templates'
globals; `markdown` (a body rendered by markdown-it with raw HTML off) is the one value
inserted as markup.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import jinja2
from starlette.templating import Jinja2Templates

from doctree.interop.render import human_size
from doctree.web import html

STATIC = Path(__file__).parent / "static"
"""The stylesheet, served at `/static/`."""
NAV = (
    ("/", "Activity"),
    ("/tree", "Tree"),
    ("/search", "Search"),
    ("/runs", "Runs"),
    ("/sessions", "Sessions"),
)
"""The links of every page's header."""


@cache
def templates() -> Jinja2Templates:
    """The templates, loaded once from the package (they ship in the wheel)."""
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("doctree.web", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals.update(
        NAV=NAV,
        diff_lines=html.diff_lines,
        doc_url=html.doc_url,
        human_size=human_size,
        moment=html.moment,
        pretty=html.pretty,
        session_url=html.session_url,
        snippet=html.snippet,
        url=html.url,
    )
    env.filters["markdown"] = html.render_markdown
    return Jinja2Templates(env=env)


def render(name: str, **context: object) -> str:
    """A template rendered outside a request (the pages refusing one)."""
    return templates().get_template(name).render(**context)
