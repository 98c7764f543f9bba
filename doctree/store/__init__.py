"""The store: documents, versions, references, paths, search, runs, leases and the database.

`DocumentsRepository` is the entry point; `doctree.store.db` opens and migrates the database.
Names are imported on first use, so importing one light module of the package (such as
`doctree.store.paths`) does not load the whole store.
"""

from __future__ import annotations

TYPE_CHECKING = False  # (typing is not imported at run time: `doctree read` would pay for it)
if TYPE_CHECKING:
    from typing import Any

__all__ = ["Actor", "DocumentsRepository", "Provenance"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from importlib import import_module  # (not at start-up: it imports warnings)

        return getattr(import_module("doctree.store.documents"), name)
    raise AttributeError(f"module 'doctree.store' has no attribute {name!r}")
