"""Loading an agent's memory into a prompt under a size cap.

`load_memories` gives whole documents, most recently changed first (or the most relevant to a
query first), separated by `---`, and stops before the first document that would take the
text past the cap: a document is never cut, so the result may be shorter than the cap.
Relevance is passage retrieval's (`doctree.memory.retrieval.rank_documents`): documents ranked by
their best passages, stopwords ignored.
"""

from __future__ import annotations

from collections.abc import Iterator

from doctree.arguments import checked
from doctree.errors import UserError
from doctree.memory.layout import MEMORY_ROOT
from doctree.store.documents import Document, DocumentsRepository, Version
from doctree.store.paths import is_under, normalize_path, validate_owner

DEFAULT_CAP = 8000
SEPARATOR = "\n\n---\n\n"


def render_document(doc: Document | Version) -> str:
    """One document as it appears in loaded memory: a comment naming its path, then its body.

    The comment tells the reading agent where a fact lives (so it can update it) and is
    invisible when the markdown is rendered.
    """
    return f"<!-- {doc.path} v{doc.version} -->\n{(doc.body or '').strip()}"


def recent_documents(repo: DocumentsRepository, owner: str, under: str) -> Iterator[Document]:
    """The live documents under `under`, most recently changed first.

    Read from the change log newest first, a page at a time, so that loading a few kilobytes
    of memory does not read every document. The first version seen of a document is its
    newest under `under`; it is used only if it is still the document's current version
    (not deleted since, nor moved away).
    """
    seen: set[int] = set()
    limit = 64
    while True:
        versions = repo.log(owner, under, limit=limit)
        candidates: dict[int, int] = {}  # document id -> the version the log shows, in order
        for v in versions:
            if v.document_id in seen:
                continue
            seen.add(v.document_id)
            if v.operation == "deleted" or not (v.body and v.body.strip()):
                continue
            candidates[v.document_id] = v.version
        for doc in repo.read_by_ids(list(candidates)):  # one read for the page's documents
            if not doc.deleted and doc.version == candidates[doc.id]:
                yield doc
        if len(versions) < limit:
            return
        limit *= 8


def iter_documents(
    repo: DocumentsRepository,
    owner: str,
    *,
    query: str | None = None,
    under: str = MEMORY_ROOT,
    relevant: int = 50,
) -> Iterator[Document]:
    """Documents with a non-empty body at or below `under`, in the order they are loaded.

    Without a query: most recently changed first. With one: the `relevant` documents whose
    passages best match it first, best first (`doctree.memory.retrieval.rank_documents`); then the
    rest, most recent first.
    """
    owner, under = validate_owner(owner), normalize_path(under)
    given: set[int] = set()
    if query and query.strip():
        ids = relevant_ids(repo, owner, query, under=under, limit=relevant)
        for doc in repo.read_by_ids(ids):  # one read for all of them
            if not doc.deleted and is_under(doc.path, under) and doc.body.strip():
                given.add(doc.id)
                yield doc
    for doc in recent_documents(repo, owner, under):
        if doc.id not in given:
            yield doc


def relevant_ids(
    repo: DocumentsRepository,
    owner: str,
    query: str,
    *,
    under: str = MEMORY_ROOT,
    limit: int = 50,
    ranking: str = "passages",
) -> list[int]:
    """Ids of the `limit` documents most relevant to `query`, best first.

    `passages` (the default): ranked by their best passages (`rank_documents`). The passage
    index behind it is brought up to date first, a short write (`refresh_passages`). When
    that write is not made (inside a read snapshot, on a read-only database, or the write
    lock not granted within the busy timeout) and the index is behind, the ranking falls
    back to `search`: the store's full-text search (BM25 over whole documents) for the
    query's words without stopwords, which is always current. `search` can also be asked
    for directly.
    """
    from doctree.memory.passages import refresh_passages
    from doctree.memory.query import parse_query
    from doctree.memory.retrieval import rank_documents

    if ranking not in ("passages", "search"):
        raise UserError(f"ranking {ranking!r}: must be 'passages' or 'search'")
    if ranking == "passages" and not refresh_passages(repo, owner):
        ranked = rank_documents(repo, owner, query, under=under, limit=limit, refresh=False)
        return [r.document_id for r in ranked]
    terms = parse_query(query).terms
    if not terms:
        return []
    hits = repo.search(owner, " ".join(terms), under=under, limit=limit, snippets=False)
    return [h.document_id for h in hits]


@checked
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
    is ever cut. With a query, the second layer follows the pages within the same cap: the
    verbatim passages of past sessions most relevant to it (`doctree.memory.recall`), under
    `# Said in sessions`, each session headed by its id and date, each passage quoted as data
    after its time and speaker: when there are any, the
    pages take at most three quarters of the cap and the passages what the pages leave. The empty string when there is nothing to load.
    """
    docs, said = memories(repo, owner, cap=cap, query=query, under=under)
    return SEPARATOR.join([*(render_document(d) for d in docs), *([said] if said else [])])


@checked
def memories(
    repo: DocumentsRepository,
    owner: str,
    cap: int = DEFAULT_CAP,
    query: str | None = None,
    under: str = MEMORY_ROOT,
) -> tuple[list[Document], str]:
    """What `load_memories` loads: the documents, in order, and the recall section ('' when
    none); for callers that want the documents' paths and versions (`doctree context`)."""
    from doctree.memory.recall import has_recall

    docs_cap = cap
    if query and isinstance(cap, int) and cap > 0 and has_recall(repo, owner, query):
        docs_cap = cap * 3 // 4
    docs = select_memories(repo, owner, cap=docs_cap, query=query, under=under)
    used = sum(len(render_document(d)) + len(SEPARATOR) for d in docs)
    said = ""
    if docs_cap != cap:
        shown = "\n".join(render_document(d) for d in docs)
        said = recalled(repo, owner, cap=cap - used, query=query, shown=shown)
    return docs, said


def recalled(
    repo: DocumentsRepository, owner: str, *, cap: int, query: str | None, shown: str = ""
) -> str:
    """The recall section `load_memories` adds for a query: verbatim passages within `cap`
    characters, headed `# Said in sessions`; empty without a query or a match. A passage
    that `shown` (the pages loaded before it) repeats is left out."""
    from doctree.memory.recall import recall, recall_section

    if not query or not query.strip() or not isinstance(cap, int) or cap <= 0:
        return ""
    budget = cap - len(recall_section(""))
    said = recall(repo, validate_owner(owner), query, budget=budget, measure=len, shown=shown)
    return recall_section(said.text) if said.text else ""


@checked
def select_memories(
    repo: DocumentsRepository,
    owner: str,
    cap: int = DEFAULT_CAP,
    query: str | None = None,
    under: str = MEMORY_ROOT,
) -> list[Document]:
    """The documents `load_memories` loads, in its order (for callers that want their paths
    and versions, such as `doctree context --json`)."""
    if not isinstance(cap, int) or cap < 0:
        raise UserError(f"cap {cap!r}: must be a whole number of characters, 0 or more")
    docs: list[Document] = []
    length = 0
    for doc in iter_documents(repo, owner, query=query, under=under):
        extra = len(render_document(doc)) + (len(SEPARATOR) if docs else 0)
        if length + extra > cap:
            break
        docs.append(doc)
        length += extra
    return docs


def total_size(repo: DocumentsRepository, owner: str, under: str = MEMORY_ROOT) -> int:
    """Bytes of body in every live document of `owner` at or below `under` (0 when none)."""
    return repo.total_size(owner, under)


# -- one argument set for every door ---------------------------------------------------------


def check_context_args(
    *, query: str | None, cap: int | None, words: int | None, flag: str = ""
) -> None:
    """Refuse a combination of `context` arguments that has no meaning, naming the arguments
    as the door calls them (`flag='--'` for the CLI): `cap` loads whole documents, `words`
    passages, and passages are chosen by `query`."""
    if words is not None and cap is not None:
        raise UserError(
            f"{flag}cap {cap} and {flag}words {words}: give one; {flag}cap loads whole "
            f"documents, {flag}words passages"
        )
    if words is not None and not (query or "").strip():
        raise UserError(f"{flag}words {words}: passage mode needs {flag}query to choose passages")


def load_context(
    repo: DocumentsRepository,
    owner: str,
    *,
    query: str | None = None,
    cap: int | None = None,
    words: int | None = None,
    under: str = MEMORY_ROOT,
) -> str:
    """Memory for a prompt, with the one argument set `context` takes at every door (the
    CLI's `doctree context`, the MCP `context` tool and prompt, and this library):

    - whole documents (default): `load_memories` within `cap` characters (default 8000);
    - passages (`words`, needs `query`): the passages of the pages most relevant to the
      query, then the verbatim passages of past sessions, within `words` words
      (`doctree.memory.recall.blend`).
    """
    check_context_args(query=query, cap=cap, words=words)
    if words is not None:
        from doctree.memory.recall import blend

        ctx, _ = blend(repo, owner, query or "", budget_words=words, under=under)
        return ctx.text
    return load_memories(
        repo, owner, cap=DEFAULT_CAP if cap is None else cap, query=query, under=under
    )
