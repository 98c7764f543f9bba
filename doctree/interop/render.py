"""Plain-text rendering of documents for people: sizes and the tree with its branches."""

from __future__ import annotations


def human_size(n: int) -> str:
    if n < 1024:
        return f"{n} B"
    if n < 1024 * 1024:
        return f"{n / 1024:.1f} KB"
    return f"{n / 1024 / 1024:.1f} MB"


def render_tree(roots, *, home: bool) -> list[str]:
    """Tree lines: name, title, version and size of every node, with box-drawing branches."""
    from doctree.store.documents import gc_paused

    with gc_paused():  # one line per node: see gc_paused
        return _render_tree(roots, home=home)


def _render_tree(roots, *, home: bool) -> list[str]:
    rows: list[tuple[str, object]] = []

    def walk(node, prefix: str, last: bool, top: bool) -> None:
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
        title = node.title if node.title != node.path.rsplit("/", 1)[-1] else ""
        title = (title[:40] + "…") if len(title) > 41 else title
        lines.append(
            f"{label:<{width}}  {title:<41}  v{node.version:<4} {human_size(node.size):>8}"
        )
    return lines
