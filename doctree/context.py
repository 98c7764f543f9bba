"""Loading an agent's memory into a prompt under a size cap.

`load_memories` gives whole documents, most recently changed first (or the most relevant to a
query first), separated by `---`, and stops before the first document that would take the
text past the cap: a document is never cut, so the result may be shorter than the cap.
"""

from __future__ import annotations

from doctree.errors import UserError
from doctree.paths import normalize_path, validate_owner
from doctree.store import Document, DocumentsRepository

DEFAULT_CAP = 8000
MEMORY_ROOT = "~/memory"
SEPARATOR = "\n\n---\n\n"


def render_document(doc: Document) -> str:
    """One document as it appears in loaded memory: a comment naming its path, then its body.

    The comment tells the reading agent where a fact lives (so it can update it) and is
    invisible when the markdown is rendered.
    """
    return f"<!-- {doc.path} v{doc.version} -->\n{doc.body.strip()}"


def ranked_documents(
    repo: DocumentsRepository,
    owner: str,
    *,
    query: str | None = None,
    under: str = MEMORY_ROOT,
) -> list[Document]:
    """Documents with a non-empty body at or below `under`, in the order they are loaded.

    Without a query: most recently changed first. With one: documents matching it by BM25
    (full-text search) first, best first; the rest after them, most recent first.
    """
    owner, under = validate_owner(owner), normalize_path(under)
    docs = [d for d in repo.documents(owner, under) if d.body.strip()]
    docs.sort(key=lambda d: (d.updated_at, d.id), reverse=True)
    if not query or not query.strip():
        return docs
    hits = repo.search(owner, query, under=under, limit=max(len(docs), 1))
    rank = {h.document_id: i for i, h in enumerate(hits)}
    matched = sorted((d for d in docs if d.id in rank), key=lambda d: rank[d.id])
    return matched + [d for d in docs if d.id not in rank]


def load_memories(
    repo: DocumentsRepository,
    owner: str,
    cap: int = DEFAULT_CAP,
    query: str | None = None,
    under: str = MEMORY_ROOT,
) -> str:
    """Whole documents of `owner` under `under`, joined by `---`, at most `cap` characters.

    A soft cap: documents are taken in order (recency, or relevance to `query`) until the next
    one would take the text past `cap`; that one and all after it are left out, and no document
    is ever cut. The empty string when there is nothing to load.
    """
    if not isinstance(cap, int) or cap < 0:
        raise UserError(f"cap {cap!r}: must be a whole number of characters, 0 or more")
    parts: list[str] = []
    length = 0
    for doc in ranked_documents(repo, owner, query=query, under=under):
        text = render_document(doc)
        extra = len(text) + (len(SEPARATOR) if parts else 0)
        if length + extra > cap:
            break
        parts.append(text)
        length += extra
    return SEPARATOR.join(parts)


def total_size(repo: DocumentsRepository, owner: str, under: str = MEMORY_ROOT) -> int:
    """Bytes of body in every live document of `owner` at or below `under` (0 when none)."""
    return repo.total_size(owner, under)
