"""The store: documents, versions, references, paths, search, runs, leases and the database.

`DocumentsRepository` is the entry point; `doctree.store.db` opens and migrates the database.
Names are imported on first use, so importing one light module of the package (such as
`doctree.store.paths`) does not load the whole store.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

__all__ = ["Actor", "DocumentsRepository", "Provenance"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        return getattr(import_module("doctree.store.documents"), name)
    raise AttributeError(f"module 'doctree.store' has no attribute {name!r}")
