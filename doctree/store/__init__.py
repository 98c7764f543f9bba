"""The store: documents, versions, references, paths, search, runs, leases and the database.

`DocumentsRepository` is the entry point; `doctree.store.db` opens and migrates the database.
"""

from doctree.store.documents import Actor, DocumentsRepository, Provenance

__all__ = ["Actor", "DocumentsRepository", "Provenance"]
