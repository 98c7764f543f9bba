"""doctree: a versioned document-tree store for agent memory, and the memory agent that writes it.

    from doctree import DocumentsRepository, Engine, load_memories

Names are imported on first use, so `import doctree` (and the CLI) stays fast.
"""

from __future__ import annotations

# typing is not imported at run time: `doctree --help` (doctree.console) would pay for it.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_EXPORTS = {
    "Actor": "doctree.store.documents",
    "Provenance": "doctree.store.documents",
    "DocumentsRepository": "doctree.store.documents",
    "Engine": "doctree.engine",
    "Settings": "doctree.compose",
    "SessionsRepository": "doctree.sessions.repository",
    "MemoryWorker": "doctree.worker.worker",
    "MemoryAgentRuntime": "doctree.agent.runtime",
    "load_memories": "doctree.memory.context",
    "load_context": "doctree.memory.context",
    "Compactor": "doctree.memory.compaction",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        from importlib import import_module  # (not at start-up: it imports warnings)

        return getattr(import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'doctree' has no attribute {name!r}")
