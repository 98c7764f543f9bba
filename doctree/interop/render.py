"""Plain-text rendering of documents for people: sizes and the tree with its branches."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from doctree.store.model import TreeNode


def human_size(n: int) -> str:
    if n < 1024:
        return f"{n} B"
    if n < 1024 * 1024:
        return f"{n / 1024:.1f} KB"
    return f"{n / 1024 / 1024:.1f} MB"


def render_tree(
    roots: list[TreeNode], *, home: bool, dim: Callable[[str], str] | None = None
) -> list[str]:
    """Tree lines: name, title, version and size of every node, with box-drawing branches.

    A document without a title of its own (no '# heading', so its title is its name) shows
    its name in parentheses, passed through `dim` (the CLI dims it on a terminal), so the
    title column is never blank."""
    from doctree.store.documents import gc_paused

    with gc_paused():  # one line per node: see gc_paused
        return _render_tree(roots, home=home, dim=dim or (lambda text: text))


def _render_tree(roots: list[TreeNode], *, home: bool, dim: Callable[[str], str]) -> list[str]:
    rows: list[tuple[str, TreeNode | None]] = []

    def walk(node: TreeNode, prefix: str, last: bool, top: bool) -> None:
        name = node.path if top else node.path.rsplit("/", 1)[-1]
        branch = "" if top else ("└── " if last else "├── ")
        rows.append((prefix + branch + name, node))
        child_prefix = prefix if top else prefix + ("    " if last else "│   ")
        for i, c in enumerate(node.children):
            walk(c, child_prefix, i == len(node.children) - 1, False)

    if home:
        rows.append(("~", None))
        for i, r in enumerate(roots):
            walk(r, "", i == len(roots) - 1, False)
    else:
        for r in roots:
            walk(r, "", True, True)
    width = min(max((len(label) for label, _ in rows), default=0), 60)
    lines = []
    for label, node in rows:
        if node is None:
            lines.append(label)
            continue
        name = node.path.rsplit("/", 1)[-1]
        untitled = not node.title.strip() or node.title == name
        title = f"({name})" if untitled else node.title
        title = (title[:40] + "…") if len(title) > 41 else title
        shown = dim(f"{title:<41}") if untitled else f"{title:<41}"
        lines.append(f"{label:<{width}}  {shown}  v{node.version:<4} {human_size(node.size):>8}")
    return lines
