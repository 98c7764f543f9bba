"""The package's import graph: no cycles between modules, the CLI at the top, no private names
borrowed across modules, no private modules of other packages, every dependency used."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "doctree"

# distribution name -> import name, where they differ
IMPORT_NAMES = {
    "markdown-it-py": "markdown_it",
    "pyyaml": "yaml",
    "linkify-it-py": "linkify_it",
    "mdit-py-plugins": "mdit_py_plugins",
    "python-dateutil": "dateutil",
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports(path: Path, name: str) -> list[tuple[str, list[str]]]:
    """(imported module, names taken from it) for every import in the file, at any depth
    (an import hidden inside a function is still an edge)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(a.name, []) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            out.append((base, [a.name for a in node.names]))
    return out


def graph() -> dict[str, set[str]]:
    """Edges between doctree modules. `from doctree.x import y` where y is a submodule is an
    edge to doctree.x.y; otherwise to doctree.x."""
    mods = modules()
    edges: dict[str, set[str]] = {m: set() for m in mods}
    for name, path in mods.items():
        for target, names in imports(path, name):
            if not target.startswith("doctree"):
                continue
            subs = [f"{target}.{n}" for n in names if f"{target}.{n}" in mods]
            for t in subs or [target]:
                if t in mods and t != name:
                    edges[name].add(t)
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_the_cycle_finder_finds_a_cycle_hidden_in_a_function(tmp_path):
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
    f = tmp_path / "m.py"
    f.write_text("def late():\n    from doctree.memory import budgets\n")
    assert imports(f, "doctree.memory.m") == [("doctree.memory", ["budgets"])]


def test_no_import_cycles_between_doctree_modules():
    edges = graph()
    assert "doctree.store.db" in edges["doctree.store.documents"]
    assert cycles(edges) == []


# The floors, bottom to top (docs/architecture.md). A module may import its own floor and
# the floors below, never one above, at module level or inside a function. The ground
# modules (errors, arguments, ...) are below every floor.
FLOORS = [
    ("errors", "arguments", "stopwords", "words", "timeutil", "resources", "patterncache"),
    ("store",),
    ("sessions",),
    ("llm",),
    ("memory",),
    ("interop",),
    ("agent",),
    ("worker",),
    ("cli", "console", "help_text", "web", "compose", "engine", "logs", "__main__", ""),
]


def floor(module: str) -> int:
    """The floor of a doctree module: the index in FLOORS of its first segment below
    `doctree` (`doctree` itself, the package's lazy front door, is at the top)."""
    top = module.split(".")[1] if "." in module else ""
    for i, names in enumerate(FLOORS):
        if top in names:
            return i
    raise AssertionError(f"{module}: no floor; add its package to FLOORS and the architecture")


def upward_imports(edges: dict[str, set[str]]) -> list[str]:
    return sorted(
        f"{name} -> {target}"
        for name, targets in edges.items()
        for target in targets
        if floor(target) > floor(name)
    )


def test_the_floor_check_catches_an_upward_import_hidden_in_a_function(tmp_path):
    f = tmp_path / "m.py"
    f.write_text("def late():\n    from doctree.worker import worker\n")
    edges = {"doctree.store.m": {t for t, _ in imports(f, "doctree.store.m")}}
    assert upward_imports(edges) == ["doctree.store.m -> doctree.worker"]
    assert upward_imports({"doctree.worker.w": {"doctree.store.db"}}) == []


def test_every_package_has_a_floor_and_no_import_runs_upward():
    edges = graph()
    for name in edges:
        floor(name)
    assert upward_imports(edges) == []


def test_nothing_below_the_cli_imports_it():
    offenders = [
        f"{name} -> {target}"
        for name, targets in graph().items()
        for target in targets
        if (target == "doctree.cli" or target.startswith("doctree.cli."))
        # the console entry point hands every command line it does not serve to the CLI
        and not (name.startswith("doctree.cli") or name in ("doctree.__main__", "doctree.console"))
    ]
    assert offenders == []


#: The one reader of the `re` module's own parser: the offline agent's test in front of its
#: patterns reads each pattern as `re.compile` does (it falls back to running the pattern
#: when the parser's shape is not the one it knows).
READS_PATTERNS = {
    ("doctree.agent.offline.prefilter", "re._parser"),
    ("doctree.agent.offline.prefilter", "re._constants"),
    # the patterns kept per install are rebuilt by `re`'s own constructor (doctree.patterncache)
    ("doctree.patterncache", "_sre"),
    # `doctree read` opens SQLite with the C core the `sqlite3` package wraps (its classes are
    # the package's), without the package's date adapters and their imports
    ("doctree.store.db", "_sqlite3"),
}


def test_no_module_takes_a_private_name_from_another():
    offenders = []
    for name, path in modules().items():
        for target, names in imports(path, name):
            if target.startswith("doctree") and target != name:
                offenders += [f"{name}: {target}.{n}" for n in names if n.startswith("_")]
            offenders += [
                f"{name}: {target}"
                for part in target.split(".")
                if part.startswith("_")
                and part not in ("__future__", "__main__")
                and (name, target) not in READS_PATTERNS
            ]
    assert offenders == []


def test_every_declared_dependency_is_imported_and_pinned_to_a_major_version_that_has_it():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    imported = {
        target.split(".")[0]
        for name, path in modules().items()
        for target, _ in imports(path, name)
    }
    # a package whose files are read, found by `importlib.util.find_spec("name")`, is used too
    imported |= {
        m.group(1)
        for path in modules().values()
        for m in re.finditer(r"find_spec\(\s*\"(\w+)\"", path.read_text(encoding="utf-8"))
    }
    unused = []
    for spec in project["dependencies"]:
        dist = re.match(r"[A-Za-z0-9_.-]+", spec).group(0).lower()
        if IMPORT_NAMES.get(dist, dist.replace("-", "_")) not in imported:
            unused.append(dist)
    assert unused == []
    # doctree.interop.mcp_server imports mcp.server.mcpserver, which mcp 1.x does not have
    mcp = next(s for s in project["dependencies"] if s.startswith("mcp"))
    assert ">=2" in mcp and "<3" in mcp
