"""Erasing: the one service every door calls to take text out of an agent's memory.

- `forget(repo, owner, pattern)`: a text (or a regular expression) everywhere the owner's
  memory keeps it.
- `redact(repo, owner, path, span)`: a span of one document, and wherever the sessions
  kept it.
- `redact_version(repo, owner, path, version)`: the whole content of one version, the
  explicit choice when a version must go entirely.
- `withhold(repo, owner, session_ids, said)`: sentences a user asked not to be kept ("…
  don't keep that", "off the record: …", or later "scrap what I told you last Monday about
  the flat"), out of the messages of those sessions they were said in, in the history and
  the recall record, so that no later search or reading of memory brings them back.

`forget` and `redact` remove exactly the matched text and nothing around it, in one write
transaction (so nothing written meanwhile escapes it):

- a document whose current body holds the match gets a new current version (operation
  `redacted`) with each match replaced by a visible marker (`[forgotten]`, `[redacted]`);
- every older version that holds it is rewritten in place with only the match replaced:
  every other byte of its body stays, and its digest and size become those of the
  rewritten body;
- titles have the match replaced by the marker, in every version; a path segment holding
  it has the matched part replaced by `forgotten-<id>` (`redacted-<id>`), a slug named
  after the document at that segment, in every version, declared link and reference, and
  in every path written in a text (a link in a body); a plain text also matches its slug
  there ("Ana Lima" in `ana-lima`);
- the sessions' history (the owner's conversations and its memory agent's), the errors of
  its runs, and the recall record (each passage's text and the context it is indexed with)
  get the same replacement;
- the indexes built from them are cleaned (the passages of the documents touched dropped,
  to be cut again; the full-text indexes merged), and when the transaction has ended the
  database is vacuumed (SQLite: VACUUM and a WAL checkpoint; PostgreSQL: VACUUM of every
  table that holds text) so that no freed page or dead row keeps a copy.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from doctree.errors import NotFoundError, UserError
from doctree.store.documents import Actor, Document, DocumentsRepository, Provenance, Version
from doctree.store.paths import HOME, depth_of, is_under, normalize_path, validate_owner

FORGOTTEN = "[forgotten]"  # what `forget` puts where the text was
REDACTED = "[redacted]"  # what `redact` puts where the span was
EXAMPLES = 6  # lines shown in a preview


@dataclass
class Example:
    """A line that holds the match: where it is, the line, and the matched spans in it."""

    where: str
    line: str
    spans: list[tuple[int, int]]

    def to_dict(self) -> dict[str, Any]:
        return {"where": self.where, "line": self.line, "spans": [list(s) for s in self.spans]}


@dataclass
class EraseHit:
    """One document holding the match: the versions whose body was (or, on a dry run,
    would be) rewritten, the version that records it, and whether its path or title held
    it (rewritten in place)."""

    document_id: int
    path: str
    versions: list[int]
    deleted: bool
    renamed: bool = False  # a path segment or title held the match
    new_version: int | None = None  # the `redacted` version made (dry run: would be made)

    def to_dict(self) -> dict[str, Any]:
        return self.__dict__.copy()


@dataclass
class EraseReport:
    pattern: str
    dry_run: bool
    marker: str = FORGOTTEN
    hits: list[EraseHit] = field(default_factory=list)
    history_records: int = 0  # session history records rewritten (dry run: that match)
    recall_passages: int = 0  # passages of the recall record whose text was rewritten
    recall_contexts: int = 0  # index entries whose neighbour context was rewritten
    runs: int = 0  # runs whose error was rewritten
    last_version_id: int = 0  # every version with an id up to this one was searched
    file_vacuumed: bool = False  # the database was vacuumed after the transaction
    note: str | None = None
    examples: list[Example] = field(default_factory=list)
    #: (a dry run of a plain text) the longer words of the documents that hold the text and
    #: are left as they are ("Annual" for "Ann"), with how many times each occurs
    inside_words: list[tuple[str, int]] = field(default_factory=list)

    @property
    def rewritten(self) -> int:
        """How many stored versions were (dry run: would be) rewritten."""
        return sum(len(h.versions) for h in self.hits)

    @property
    def changes_anything(self) -> bool:
        return bool(self.hits or self.history_records or self.recall_passages or self.runs)

    def to_dict(self) -> dict[str, Any]:
        return {
            "pattern": self.pattern,
            "dry_run": self.dry_run,
            "marker": self.marker,
            "rewritten_versions": self.rewritten,
            "new_versions": sum(1 for h in self.hits if h.new_version is not None),
            "renamed_documents": sum(1 for h in self.hits if h.renamed),
            "history_records": self.history_records,
            "recall_passages": self.recall_passages,
            "recall_contexts": self.recall_contexts,
            "runs": self.runs,
            "last_version_id": self.last_version_id,
            "file_vacuumed": self.file_vacuumed,
            "note": self.note,
            "inside_words": [{"word": w, "count": n} for w, n in self.inside_words],
            "documents": [h.to_dict() for h in self.hits],
            "examples": [e.to_dict() for e in self.examples],
        }


def compile_pattern(
    pattern: str, *, regex: bool = False, ignore_case: bool = False, whole_words: bool = False
) -> re.Pattern:
    """A pattern to match stored text: plain text unless `regex`. `whole_words` (a plain
    text only): an end of it that is a letter or a digit does not match inside a longer
    word (`_plain`)."""
    if not isinstance(pattern, str) or not pattern:
        raise UserError("pattern '': must not be empty (it would match every version)")
    if not regex and pattern.isspace():
        raise UserError(
            f"pattern {pattern!r}: only white space (it would match between every two words)"
        )
    flags = re.IGNORECASE if ignore_case else 0
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # FutureWarning on syntax that may change meaning
            compiled = re.compile(pattern if regex else _plain(pattern, whole_words), flags)
    except (re.error, RecursionError, OverflowError) as e:
        raise UserError(f"pattern {pattern!r}: not a valid regular expression ({e})") from None
    if compiled.fullmatch(""):
        raise UserError(f"pattern {pattern!r}: matches the empty text (it would match everywhere)")
    return compiled


def _plain(text: str, whole_words: bool = False) -> str:
    """A plain text as a pattern: its characters as they are, but each run of white space
    matching any run of white space, so "Dr Ana Lima" also finds the name where a line
    break, two spaces or a no-break space stands between its words (a wrapped line, a
    pasted e-mail): the same words, said the same way.

    `whole_words`: an end of the text that is a letter or a digit matches only where the
    stored text's word ends there too, so forgetting "Ann" leaves "Annual" and "Joanna" (a
    person forgets a name, not three letters) and takes "Ann's" and "Ann-Marie"'s "Ann", as
    a path segment's slug is matched (`_path_pattern`). A script written without spaces
    between its words (Chinese, Japanese, Thai, Korean's particles) has no such end: there
    the text matches inside a run of letters, as before."""
    out = "".join(
        r"\s+" if part.isspace() else re.escape(part) for part in _SPACES.split(text) if part
    )
    if not whole_words or not text.strip():
        return out
    first, last = text.strip()[0], text.strip()[-1]
    if _SPACED_WORD.match(first):
        out = rf"(?<![^\W_{_UNSPACED}])" + out
    if _SPACED_WORD.match(last):
        out += rf"(?![^\W_{_UNSPACED}])"
    return out


_SPACES = re.compile(r"(\s+)")
#: Letters of the scripts written without spaces between words (or, in Korean, with a word's
#: particles joined to it): Thai, Lao, Tibetan, Myanmar, Khmer, kana, bopomofo, the CJK
#: ideographs, Hangul.
_UNSPACED = (
    "\u0e00-\u0eff\u0f00-\u0fff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u3100-\u312f"
    "\u3400-\u4dbf\u4e00-\u9fff\u1100-\u11ff\uac00-\ud7af\uf900-\ufaff"
)
#: A letter or digit of a script that puts spaces between words.
_SPACED_WORD = re.compile(rf"[^\W_{_UNSPACED}]")


def _path_pattern(pattern: re.Pattern, plain: str | None) -> re.Pattern:
    """What a path segment holds of the erased text: the pattern itself, and for a plain
    text of words also its slug, the form a page named after it has ("Dr Ana Lima" is the
    segment `dr-ana-lima`, "Lucía" is `lucia`), as whole hyphen-separated words of the
    segment in any case, so a forgotten name leaves no page path spelling it. A text with
    other symbols ("C++") has no slug of its own: the slug would name something else."""
    if plain is None or re.search(r"[^\w\s.'’-]", plain):
        return pattern  # "C++", "AT&T": a slug would drop what tells it apart ("c", "at-t")
    import unicodedata

    from doctree.store.paths import slugify

    folded = "".join(
        c for c in unicodedata.normalize("NFKD", plain) if not unicodedata.combining(c)
    )
    slugs = {slugify(plain), slugify(folded)} - {"untitled", ""}
    slugs = {s for s in slugs if s != plain and any(c.isalnum() for c in s)}
    if not slugs:
        return pattern
    alternatives = "|".join(re.escape(s) for s in sorted(slugs, key=len, reverse=True))
    return re.compile(
        rf"{pattern.pattern}|(?i:(?<![^\W_])(?:{alternatives})(?![^\W_]))",
        pattern.flags & re.IGNORECASE,
    )


#: A path of the tree written in a text: a link's target, a path a run's summary names.
_PATH_IN_TEXT = re.compile(r"~(?:/[\w][\w.\-]*)+")


def _body_holds(body: str, pattern: re.Pattern, path_pattern: re.Pattern) -> bool:
    """Whether a body holds the match, or a path (a link) that names it."""
    if pattern.search(body):
        return True
    if path_pattern is pattern or "~/" not in body:
        return False
    return any(path_pattern.search(m.group(0)) for m in _PATH_IN_TEXT.finditer(body))


def _names_match(v: Version, pattern: re.Pattern, path_pattern: re.Pattern) -> bool:
    """Whether a version's path, declared links (as paths) or title hold the match."""
    if pattern.search(v.title or ""):
        return True
    return any(path_pattern.search(p) for p in (v.path, *v.links))


def _texts(v: Version) -> tuple[str, ...]:
    """The name-like texts of a version: its path, title and declared links."""
    return (v.path, v.title or "", *v.links)


def _documents_under(repo: DocumentsRepository, owner: str, under: str) -> list[int]:
    return list(dict.fromkeys(v.document_id for v in repo.log(owner, under, limit=None)))


def _scan(
    repo: DocumentsRepository,
    pattern: re.Pattern,
    path_pattern: re.Pattern,
    doc_ids: list[int],
    loose: re.Pattern | None = None,
    inside: dict[str, int] | None = None,
) -> tuple[dict[int, list[Version]], dict[int, list[Version]]]:
    """(versions whose body matches, every version of documents whose path, title or links
    ever matched), by document id. With `loose` (the plain text found anywhere), `inside`
    counts the longer words that hold it where `pattern` (its whole words) does not match
    (`_inside_words`), in the same reading of the versions."""
    bodies: dict[int, list[Version]] = {}
    names: dict[int, list[Version]] = {}
    for versions in _histories(repo, doc_ids):
        doc_id = versions[0].document_id
        for v in versions:
            if v.body is not None and _body_holds(v.body, pattern, path_pattern):
                bodies.setdefault(doc_id, []).append(v)
            if loose is not None and inside is not None and v.body:
                _inside_words(v.body, pattern, loose, inside)
        # The current path, title and links are the last version's.
        if any(_names_match(v, pattern, path_pattern) for v in versions):
            names[doc_id] = versions
    return bodies, names


def _inside_words(
    body: str, pattern: re.Pattern, loose: re.Pattern, counts: dict[str, int]
) -> None:
    """Count in `counts` the longer words of `body` that hold a plain text (`loose` finds it
    anywhere) where `pattern` (its whole words) does not match: what a preview shows as
    left ("Annual", "Joanna" for "Ann"), so a text glued to another word is seen and can be
    erased with a pattern that says so."""
    if not loose.search(body):
        return
    whole = {m.start() for m in pattern.finditer(body)}
    for m in loose.finditer(body):
        if m.start() in whole:
            continue
        a, b = m.start(), m.end()
        while a > 0 and (body[a - 1].isalnum() or body[a - 1] == "_"):
            a -= 1
        while b < len(body) and (body[b].isalnum() or body[b] == "_"):
            b += 1
        counts[body[a:b]] = counts.get(body[a:b], 0) + 1


#: How many longer words a preview lists.
_INSIDE_WORDS_SHOWN = 12


def _histories(repo: DocumentsRepository, doc_ids: list[int]) -> Iterator[list[Version]]:
    """Every version of each of these documents, oldest first, one list per document: in
    one stream of the owner's history when they are many, else document by document."""
    if len(doc_ids) > 20:
        wanted = set(doc_ids)
        owner = repo.read_by_id(doc_ids[0]).owner
        current: list[Version] = []
        for v in repo.iter_versions(owner):
            if v.document_id not in wanted:
                continue
            if current and current[0].document_id != v.document_id:
                yield current
                current = []
            current.append(v)
        if current:
            yield current
        return
    for doc_id in doc_ids:
        doc = repo.read_by_id(doc_id)
        yield [repo.version(doc_id, n) for n in range(1, doc.version + 1)]


def _examples(text: str, pattern: re.Pattern, where: str, out: list[Example]) -> None:
    """Add the lines of `text` that hold the match to `out`, up to `EXAMPLES` in all."""
    for line in text.splitlines():
        if len(out) >= EXAMPLES:
            return
        spans = [m.span() for m in pattern.finditer(line) if m.end() > m.start()]
        if spans:
            out.append(Example(where, line, spans))


class _PathMap:
    """A path with the matched part of every segment that holds the pattern replaced by
    `<word>-<id>`, after the document at that segment (so the result is a slug, and a
    document and its descendants stay one subtree). Segments of `under` itself are kept
    (the tree above it is out of reach)."""

    def __init__(
        self, repo: DocumentsRepository, owner: str, pattern: re.Pattern, under: str, word: str
    ):
        self.repo, self.owner, self.pattern, self.word = repo, owner, pattern, word
        self.under, self.keep = under, depth_of(under)
        self.names: dict[str, str] = {}

    def __call__(self, path: str) -> str:
        if not self.pattern.search(path):
            return path
        segments = path.split("/")
        bounds, pos = [], 0
        for seg in segments:
            bounds.append((pos, pos + len(seg)))
            pos += len(seg) + 1
        parts: dict[int, list[tuple[int, int]]] = {}
        for m in self.pattern.finditer(path):
            end = max(m.end(), m.start() + 1)
            for i, (a, b) in enumerate(bounds):
                if a < end and m.start() < b:
                    parts.setdefault(i, []).append((max(m.start(), a) - a, min(end, b) - a))
        keep = self.keep if is_under(path, self.under) else 0
        out = []
        for i, seg in enumerate(segments):
            if i not in parts or i <= keep:
                out.append(seg)
                continue
            name = self._name("/".join(segments[: i + 1]))
            new, last = [], 0
            for a, b in sorted(parts[i]):
                if a < last:
                    a = last
                new.append(seg[last:a])
                if b > a or not new[-1:]:
                    new.append(name)
                last = max(last, b)
            new.append(seg[last:])
            out.append("".join(new))
        return "/".join(out)

    def _name(self, prefix: str) -> str:
        if prefix not in self.names:
            try:
                doc_id = self.repo.history(self.owner, prefix)[0].document_id
                self.names[prefix] = f"{self.word}-{doc_id}"
            except (NotFoundError, UserError):
                self.names[prefix] = self.word
        return self.names[prefix]


def forget(
    repo: DocumentsRepository,
    owner: str,
    pattern: str,
    *,
    under: str = HOME,
    regex: bool = False,
    ignore_case: bool = False,
    dry_run: bool = False,
    actor: Actor | None = None,
    vacuum_file: bool = True,
) -> EraseReport:
    """Erase every match of `pattern` from the documents that ever lived under `under`
    and from `owner`'s sessions (history, runs, recall record), replacing it by
    `[forgotten]` (see the module docstring). `vacuum_file` then vacuums the database
    (skipped inside a caller's transaction). `dry_run` reports and changes nothing."""
    owner, under = validate_owner(owner), normalize_path(under)
    compiled = compile_pattern(pattern, regex=regex, ignore_case=ignore_case, whole_words=True)
    return _run(
        repo,
        owner,
        compiled,
        pattern,
        lambda: _documents_under(repo, owner, under),
        under=under,
        marker=FORGOTTEN,
        dry_run=dry_run,
        actor=actor,
        vacuum_file=vacuum_file,
        literal=None if regex or ignore_case else pattern,
        plain=None if regex else pattern,
        loose=None if regex else compile_pattern(pattern, ignore_case=ignore_case),
    )


def redact(
    repo: DocumentsRepository,
    owner: str,
    path: str,
    span: str,
    *,
    regex: bool = False,
    ignore_case: bool = False,
    dry_run: bool = False,
    actor: Actor | None = None,
    vacuum_file: bool = True,
) -> EraseReport:
    """Erase `span` (plain text unless `regex`) from every version of the document at
    `path` (the live one, else the one last deleted there), and from `owner`'s sessions
    where it was said (history, runs, recall record), replacing it by `[redacted]`. Other
    documents are left as they are: `forget` reaches every document."""
    owner, path = validate_owner(owner), normalize_path(path)
    compiled = compile_pattern(span, regex=regex, ignore_case=ignore_case)
    doc_id = repo.history(owner, path)[0].document_id
    return _run(
        repo,
        owner,
        compiled,
        span,
        lambda: [doc_id],
        under=path,
        marker=REDACTED,
        dry_run=dry_run,
        actor=actor,
        vacuum_file=vacuum_file,
        literal=None if regex or ignore_case else span,
        plain=None if regex else span,
    )


def _run(
    repo: DocumentsRepository,
    owner: str,
    pattern: re.Pattern,
    text: str,
    documents: Callable[[], list[int]],
    *,
    under: str,
    marker: str,
    dry_run: bool,
    actor: Actor | None,
    vacuum_file: bool,
    literal: str | None,
    plain: str | None,
    loose: re.Pattern | None = None,
) -> EraseReport:
    from doctree.memory import recall
    from doctree.sessions.repository import SessionsRepository
    from doctree.store.passages import PassageIndex
    from doctree.store.runs import Runs

    report = EraseReport(text, dry_run, marker)
    path_pattern = _path_pattern(pattern, plain)
    path_map = _PathMap(repo, owner, path_pattern, under, marker.strip("[]"))

    def text_map(value: str) -> str:
        """The match replaced by the marker, and a path written in the text (a link's
        target, a run's summary) renamed as the document it names is, so a link still
        leads to its page and no path keeps the erased words."""
        if "~/" in value and path_pattern.search(value):
            value = _PATH_IN_TEXT.sub(lambda m: path_map(m.group(0)), value)
        return pattern.sub(marker, value)

    if dry_run:  # the preview counts the records handed over since the last catch-up too
        recall.refresh_recall(repo, owner)
    with repo.snapshot() if dry_run else repo.transaction():
        if not dry_run:  # the records handed over are in the record before it is erased
            recall.catch_up_recall(repo.conn, owner)
        report.last_version_id = repo.max_version_id()
        doc_ids = documents()
        inside: dict[str, int] = {}
        looking = (
            loose if dry_run and loose is not None and loose.pattern != pattern.pattern else None
        )
        bodies, names = _scan(repo, pattern, path_pattern, doc_ids, looking, inside)
        # Name every segment before any document is renamed: the names come from the ids of
        # the documents at the old paths.
        for versions in names.values():
            doc = repo.read_by_id(versions[0].document_id)
            for t in {doc.path, *doc.links, *(p for v in versions for p in (v.path, *v.links))}:
                path_map(t)
        removed = {literal} if literal else set()
        plan: dict[int, tuple[list[int], bool]] = {}
        for doc_id, versions in bodies.items():
            doc = repo.read_by_id(doc_id)
            for v in versions:
                removed.update(m.group(0) for m in pattern.finditer(v.body or ""))
            current = _body_holds(doc.body, pattern, path_pattern)
            plan[doc_id] = ([v.version for v in versions], current)
            latest = versions[-1]
            _examples(latest.body or "", pattern, f"{doc.path} v{latest.version}", report.examples)
        for versions in names.values():
            for v in versions:
                for t in _texts(v):
                    removed.update(m.group(0) for m in pattern.finditer(t))
        sessions = SessionsRepository(repo.conn)
        runs = Runs(repo.conn)
        if dry_run:
            report.history_records = sessions.scrub(owner, text_map, dry_run=True)
            report.runs = runs.scrub(owner, text_map, dry_run=True)
            scrubbed = recall.scrub(repo.conn, owner, pattern, marker, dry_run=True)
            report.recall_passages, report.recall_contexts, said = scrubbed
            for where, line in said:
                _examples(line, pattern, where, report.examples)
            report.hits = _hits(
                repo,
                sorted({*bodies, *names}),
                plan,
                names,
                lambda doc: doc.version + 1 if plan.get(doc.id, ([], False))[1] else None,
            )
            report.inside_words = sorted(inside.items(), key=lambda x: (-x[1], x[0]))[
                :_INSIDE_WORDS_SHOWN
            ]
            return report
        made: dict[int, int | None] = {}
        for doc_id in bodies:
            _, added = repo.replace_text(doc_id, text_map, provenance=Provenance(actor))
            made[doc_id] = added.version if added else None

        def current_map(path: str) -> str:
            """A current path is renamed only below `under`, where the documents above it
            are renamed alike; elsewhere its parent, out of reach, keeps its name."""
            return path_map(path) if is_under(path, under) else path

        for doc_id in names:
            repo.scrub_paths(doc_id, path_map, text_map, current_map)
        linked = repo.scrub_links(owner, path_map)
        report.history_records = sessions.scrub(owner, text_map)
        report.runs = runs.scrub(owner, text_map)
        report.recall_passages, report.recall_contexts, _ = recall.scrub(
            repo.conn, owner, pattern, marker, removed=sorted(removed)
        )
        passages = PassageIndex(repo)
        passages.drop(sorted({*bodies, *names, *linked}))
        passages.optimize()
        repo.optimize_search_index()
        report.hits = _hits(
            repo, sorted({*bodies, *names}), plan, names, lambda doc: made.get(doc.id)
        )
    if vacuum_file:
        _vacuum(repo, report)
    return report


def _hits(
    repo: DocumentsRepository,
    doc_ids: list[int],
    plan: dict[int, tuple[list[int], bool]],
    renamed: dict[int, list[Version]],
    new_version: Callable[[Document], int | None],
) -> list[EraseHit]:
    """What an erasure did (or would do) to each of these documents, as they are now."""
    hits = []
    for doc_id in doc_ids:
        doc = repo.read_by_id(doc_id)
        versions = plan.get(doc_id, ([], False))[0]
        hits.append(
            EraseHit(
                doc_id,
                doc.path,
                versions,
                doc.deleted,
                renamed=doc_id in renamed,
                new_version=new_version(doc),
            )
        )
    return hits


def _vacuum(repo: DocumentsRepository, report: EraseReport) -> None:
    """Vacuum the database so that no freed page, WAL frame or dead row keeps a copy."""
    if repo.conn.in_transaction:
        report.note = "the database was not vacuumed: a transaction is open"
        return
    from doctree.store.db import vacuum_file

    report.file_vacuumed, report.note = vacuum_file(repo.conn)


def redact_version(
    repo: DocumentsRepository,
    owner: str,
    path: str,
    version: int,
    *,
    actor: Actor | None = None,
    vacuum_file: bool = True,
) -> tuple[Version, int]:
    """Erase the whole content of one version of the document at `path` (the live one,
    else the one last deleted there): its body and title go, the fact of the change stays,
    and a `redacted` version records who erased it (redacting the current version empties
    the document). In the same transaction, the passages of the recall record that hold
    one of its sentences (five words or more) are erased. Returns the `redacted` version
    and how many passages were erased."""
    document_id = repo.read(validate_owner(owner), path, version=version).id
    return redact_version_by_id(repo, document_id, version, actor=actor, vacuum_file=vacuum_file)


def redact_version_by_id(
    repo: DocumentsRepository,
    document_id: int,
    version: int,
    *,
    actor: Actor | None = None,
    vacuum_file: bool = True,
) -> tuple[Version, int]:
    """`redact_version` of a document found by id: it reaches any document, also a
    deleted one whose path another document has taken since."""
    doc = repo.read_by_id(document_id)
    body = repo.version(document_id, version).body or ""
    from doctree.memory.recall import erase_sources

    with repo.transaction():
        v = repo.erase_version_by_id(document_id, version, provenance=Provenance(actor))
        erased = erase_sources(repo.conn, doc.owner, body)
    if vacuum_file and not repo.conn.in_transaction:
        from doctree.store.db import vacuum_file as vacuum

        vacuum(repo.conn)
    return v, erased


def _said_pattern(said: list[str]) -> re.Pattern[str] | None:
    """One pattern of the sentences `said`, each as its words in order with any spacing
    between them (a sentence is matched as it was said, not a word of it alone)."""
    alts = sorted(
        {r"\s+".join(map(re.escape, t.split())) for t in said if len(t.split()) >= 1},
        key=len,
        reverse=True,
    )
    return re.compile("|".join(alts)) if alts else None


def _cut(pattern: re.Pattern[str], text: str) -> str:
    """`text` without each match of `pattern`, tidied only where a match was taken out: the
    spaces either side of it become one (none before a stop that follows it, none at the
    start or end of a line or of the text). The rest of the text, a pasted block's
    indentation and spacing included, stays byte for byte."""
    out: list[str] = []
    at = 0
    for m in pattern.finditer(text):
        before = text[at : m.start()]
        kept = before.rstrip(" \t")
        gap = before[len(kept) :]
        rest = text[m.end() :]
        if not rest.strip():  # the text ends here: nothing is left to join
            out = ["".join([*out, kept]).rstrip()]
            at = len(text)
            break
        after = len(text) - len(rest.lstrip(" \t"))
        if not "".join(out) and not kept:  # the text starts here: no blank line left
            after = len(text) - len(rest.lstrip())
        nxt = text[after : after + 1]
        line_start = not kept and (not out or out[-1].endswith("\n")) or kept.endswith("\n")
        out.append(kept)
        if nxt not in ("", "\n") and nxt not in ".,;:!?" and not line_start and gap:
            out.append(" ")  # between two sentences of a line: one space, as between any
        at = after
    else:
        if not out:
            return text
    out.append(text[at:])
    return "".join(out)


#: A message's heading in a transcript's markdown: "## user · 2031-04-02T10:00:00Z".
_HEADING = re.compile(r"^## (?P<kind>[\w-]+) · (?P<time>\S+)[ \t]*$", re.M)

#: What a sentence taken back is given as: the sentence alone (taken out wherever the
#: session's record holds it), or (the time of the message it was said in, the sentence).
Said = str | tuple[str, str]


class _Maps:
    """The rewrite of each text of a session's record: a sentence given with the time of its
    message is taken out of that message, and of the assistant's reply right after it that
    repeats it whole; one given alone, out of every message."""

    def __init__(self, said: Sequence[Said]):
        self.everywhere = [x for x in said if isinstance(x, str)]
        self.at: dict[str, list[str]] = {}
        for x in said:
            if not isinstance(x, str):
                self.at.setdefault(x[0], []).append(x[1])
        self._patterns: dict[tuple[str, ...], re.Pattern[str] | None] = {}

    def map_for(self, kind: str, time: str, before: str | None) -> Callable[[str], str]:
        """The rewrite of a message of `kind` said at `time`; `before` is the time of the
        user's message just before it, when it is the assistant's reply to it."""
        said = [*self.everywhere, *self.at.get(time, [])]
        if kind == "assistant" and before is not None:
            said += self.at.get(before, [])
        key = tuple(sorted(set(said)))
        if key not in self._patterns:
            self._patterns[key] = _said_pattern(list(key))
        pattern = self._patterns[key]
        if pattern is None:
            return lambda text: text
        return lambda text: _cut(pattern, text)

    def records(self, rows: Iterable[tuple[str, str]]) -> Iterator[Callable[[str], str]]:
        """The rewrite of each message of `rows` (kind, time), in the order said."""
        before: str | None = None
        last: tuple[str, str] | None = None
        for kind, time in rows:
            if last is not None and (kind, time) != last:  # not another piece of the same
                before = last[1] if last[0] == "user" else None
            last = (kind, time)
            yield self.sectioned(self.map_for(kind, time, before))

    def anywhere(self, text: str) -> str:
        """`text` without any of the sentences, wherever it holds one: for the text a
        passage is indexed with, which mixes its neighbours' messages."""
        pattern = _said_pattern([*self.everywhere, *(x for xs in self.at.values() for x in xs)])
        return text if pattern is None else _cut(pattern, text)

    def sectioned(self, plain: Callable[[str], str]) -> Callable[[str], str]:
        """`plain` for a message's own text; a text holding a transcript (the copy a run
        was given) is rewritten message by message, each by its own heading."""

        def rewrite(text: str) -> str:
            heads = list(_HEADING.finditer(text))
            if not heads:
                return plain(text)
            out = [text[: heads[0].start()]]
            before: str | None = None
            for i, h in enumerate(heads):
                end = heads[i + 1].start() if i + 1 < len(heads) else len(text)
                body = text[h.end() : end]
                kind, time = h["kind"], h["time"]
                out.append(h.group(0) + self.map_for(kind, time, before)(body))
                before = time if kind == "user" else None
            return "".join(out)

        return rewrite


def withhold(
    repo: DocumentsRepository, owner: str, session_ids: list[str], said: Sequence[Said]
) -> tuple[int, int]:
    """Take the sentences `said` (sentences a user asked, in one of `session_ids`, not to be
    kept; each with the time of the message it was said in, or alone) out of those sessions'
    history records and their passages in the recall record, in one write transaction: a
    whole sentence is removed from the message it was said in (and from the assistant's
    reply right after it that repeats it whole; a sentence given alone, from every message),
    and nothing around it. Returns (history records, recall passages) changed. Other
    sessions are not touched: the same words said elsewhere were not taken back."""
    from doctree.memory import recall
    from doctree.sessions.repository import SessionsRepository
    from doctree.store.backends import write_transaction

    maps = _Maps(said)
    if not said or not session_ids:
        return 0, 0
    with write_transaction(repo.conn):
        records = SessionsRepository(repo.conn).scrub_sessions(session_ids, maps.records)
        passages = sum(
            recall.scrub_session(repo.conn, owner, sid, maps.records, maps.anywhere)
            for sid in session_ids
        )
    return records, passages


def said_removed(text: str, said: Sequence[Said]) -> str:
    """`text`, a transcript, without the sentences `said` (as `withhold` takes them out of a
    session's record: each out of the message it was said in): what a model-backed memory
    agent is given of a transcript whose user took those sentences back."""
    maps = _Maps(said)
    return maps.sectioned(maps.anywhere)(text)
