"""Retrieval: the passages of an owner's documents most relevant to a query, within a budget.

Documents are cut into passages (a transcript turn, a list item, a paragraph), each indexed
with the context around it (its neighbours and headings), its speaker and the dates it
speaks of — relative dates ("yesterday", "last year") resolved against the document's own
date — so that a question finds the turn that holds the answer and the session it belongs
to. A query is read for more than its words: stopwords and question words drop out, word
pairs count as phrases, names of speakers boost what those speakers said, dates in the query
match passages about those dates, and "when" questions prefer passages that carry a time.
A document where several passages match lends that weight to each of them (or, if asked,
the store's own document search does); recency breaks near ties. The context is assembled greedily within a word budget,
grouped by document in document order, each group headed by the document's path and date.
"""

from __future__ import annotations

import calendar
import logging
import math
import re
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date, timedelta

from doctree import stopwords
from doctree.errors import UserError
from doctree.memory.layout import MEMORY_ROOT
from doctree.store.documents import DocumentsRepository
from doctree.store.passages import PassageHit, PassageIndex, PassageRow
from doctree.store.paths import name_of, normalize_path, validate_owner
from doctree.store.references import split_frontmatter

DEFAULT_UNDER = MEMORY_ROOT

log = logging.getLogger("doctree.memory.retrieval")

# -- words -------------------------------------------------------------------------------

_WORD = re.compile(r"[\w]+(?:'[\w]+)?", re.UNICODE)

ENGLISH_STOPWORDS = stopwords.ENGLISH
STOPWORDS = stopwords.QUERY

_TEMPORAL_QUERY = re.compile(
    r"^\s*when\b|\bhow long\b|\bwhat (?:year|month|day|date|time)\b|\bwhich (?:year|month|day)\b"
    r"|\bhow many (?:years|months|weeks|days)\b|\bsince when\b",
    re.I,
)


def words(text: str) -> int:
    """Words as the budget counts them: whitespace-separated pieces."""
    return len(text.split())


# -- dates -------------------------------------------------------------------------------

_MONTHS = {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
_MONTHS.update({name.lower(): i for i, name in enumerate(calendar.month_abbr) if name})
_MONTHS["sept"] = 9
_MONTH_RE = "|".join(sorted(_MONTHS, key=len, reverse=True))
_WEEKDAYS = {name.lower(): i for i, name in enumerate(calendar.day_name)}
_NUMBERS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "couple of": 2,
    "a couple of": 2,
    "few": 3,
    "a few": 3,
    "several": 3,
}
_NUM_RE = r"\d{1,2}|" + "|".join(sorted(map(re.escape, _NUMBERS), key=len, reverse=True))

_ISO_DATE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_DAY_MONTH_YEAR = re.compile(
    rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+({_MONTH_RE})\.?,?\s+(\d{{4}})\b", re.I
)
_MONTH_DAY_YEAR = re.compile(
    rf"\b({_MONTH_RE})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b", re.I
)
_MONTH_YEAR = re.compile(rf"\b({_MONTH_RE})\.?,?\s+(\d{{4}})\b", re.I)
_DAY_MONTH = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH_RE})\b", re.I)
_MONTH_DAY = re.compile(rf"\b({_MONTH_RE})\s+(\d{{1,2}})(?:st|nd|rd|th)?\b(?!\s*\d)", re.I)
_LONE_MONTH = re.compile(
    r"\b(?:in|since|during|early|late|mid|last|next|this|of)\s+(january|february|march|april|"
    r"june|july|august|september|october|november|december)\b",
    re.I,
)
_YEAR = re.compile(r"\b(19[5-9]\d|20[0-4]\d)\b")
_RELATIVE = re.compile(
    rf"\b(?P<simple>yesterday|today|tonight|tomorrow|last night|this morning|this weekend"
    rf"|last weekend|next weekend|last week|this week|next week|last month|this month"
    rf"|next month|last year|this year|next year|recently|the other day)\b"
    rf"|\b(?P<n>{_NUM_RE})\s+(?P<unit>days?|weeks?|weekends?|months?|years?)\s+(?P<dir>ago|before|back|later|from now)\b"
    rf"|\b(?P<wdir>last|this|next|on|past)\s+(?P<weekday>monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b",
    re.I,
)


def parse_date(text: str) -> date | None:
    """The first full date in `text`: `2023-05-08`, `8 May, 2023`, `May 8, 2023`, or None."""
    if not text:
        return None
    found: list[tuple[int, date]] = []
    for m in _ISO_DATE.finditer(text):
        d = _safe_date(int(m[1]), int(m[2]), int(m[3]))
        if d:
            found.append((m.start(), d))
    for m in _DAY_MONTH_YEAR.finditer(text):
        d = _safe_date(int(m[3]), _MONTHS[m[2].lower()], int(m[1]))
        if d:
            found.append((m.start(), d))
    for m in _MONTH_DAY_YEAR.finditer(text):
        d = _safe_date(int(m[3]), _MONTHS[m[1].lower()], int(m[2]))
        if d:
            found.append((m.start(), d))
    return min(found)[1] if found else None


def _safe_date(y: int, m: int, d: int) -> date | None:
    try:
        return date(y, m, d)
    except ValueError:
        return None


def _shift_months(d: date, months: int) -> date:
    y, m = divmod(d.year * 12 + d.month - 1 + months, 12)
    return date(y, m + 1, min(d.day, calendar.monthrange(y, m + 1)[1]))


def _day_tokens(d: date) -> list[str]:
    return [f"d{d:%Y%m%d}", f"m{d:%Y%m}", f"y{d:%Y}"]


def _month_tokens(d: date) -> list[str]:
    return [f"m{d:%Y%m}", f"y{d:%Y}"]


def date_tokens(text: str, anchor: date | None) -> list[str]:
    """Normalised date tokens for what `text` speaks of: `d20230507 m202305 y2023`.

    Absolute dates are taken as written (a day or month without a year takes the anchor's
    year); relative ones ("yesterday", "two weeks ago", "last Friday", "last year") are
    resolved against `anchor`, the date the text was written, and dropped without one.
    """
    out: list[str] = []
    spans: list[tuple[int, int]] = []

    def take(m: re.Match[str], toks: list[str]) -> None:
        spans.append(m.span())
        out.extend(toks)

    def free(m: re.Match[str]) -> bool:
        return not any(a <= m.start() < b or a < m.end() <= b for a, b in spans)

    for m in _ISO_DATE.finditer(text):
        if d := _safe_date(int(m[1]), int(m[2]), int(m[3])):
            take(m, _day_tokens(d))
    for m in _DAY_MONTH_YEAR.finditer(text):
        if free(m) and (d := _safe_date(int(m[3]), _MONTHS[m[2].lower()], int(m[1]))):
            take(m, _day_tokens(d))
    for m in _MONTH_DAY_YEAR.finditer(text):
        if free(m) and (d := _safe_date(int(m[3]), _MONTHS[m[1].lower()], int(m[2]))):
            take(m, _day_tokens(d))
    for m in _MONTH_YEAR.finditer(text):
        if free(m):
            take(m, _month_tokens(date(int(m[2]), _MONTHS[m[1].lower()], 1)))
    if anchor is not None:
        for m in _DAY_MONTH.finditer(text):
            if free(m) and (d := _safe_date(anchor.year, _MONTHS[m[2].lower()], int(m[1]))):
                take(m, _day_tokens(d))
        for m in _MONTH_DAY.finditer(text):
            if free(m) and (d := _safe_date(anchor.year, _MONTHS[m[1].lower()], int(m[2]))):
                take(m, _day_tokens(d))
        for m in _LONE_MONTH.finditer(text):
            if free(m):
                take(m, _month_tokens(date(anchor.year, _MONTHS[m[1].lower()], 1)))
        for m in _RELATIVE.finditer(text):
            if free(m):
                out.extend(_relative_tokens(m, anchor))
    for m in _YEAR.finditer(text):
        if free(m):
            out.append(f"y{m[1]}")
    return list(dict.fromkeys(out))


def _relative_tokens(m: re.Match[str], anchor: date) -> list[str]:
    if m["simple"]:
        s = m["simple"].lower()
        if s in ("yesterday", "last night"):
            return _day_tokens(anchor - timedelta(days=1))
        if s in ("today", "tonight", "this morning", "recently", "the other day"):
            return _day_tokens(anchor)
        if s == "tomorrow":
            return _day_tokens(anchor + timedelta(days=1))
        if s in ("last week", "last weekend"):
            return _day_tokens(anchor - timedelta(days=7))[1:]
        if s in ("this week", "this weekend"):
            return _month_tokens(anchor)
        if s in ("next week", "next weekend"):
            return _month_tokens(anchor + timedelta(days=7))
        if s == "last month":
            return _month_tokens(_shift_months(anchor, -1))
        if s == "this month":
            return _month_tokens(anchor)
        if s == "next month":
            return _month_tokens(_shift_months(anchor, 1))
        if s == "last year":
            return [f"y{anchor.year - 1}"]
        if s == "this year":
            return [f"y{anchor.year}"]
        if s == "next year":
            return [f"y{anchor.year + 1}"]
        return []
    if m["unit"]:
        raw = m["n"].lower()
        n = int(raw) if raw.isdigit() else _NUMBERS.get(raw, 1)
        sign = 1 if m["dir"].lower() in ("later", "from now") else -1
        unit = m["unit"].lower().rstrip("s")
        if unit == "day":
            return _day_tokens(anchor + timedelta(days=sign * n))
        if unit in ("week", "weekend"):
            return _month_tokens(anchor + timedelta(days=sign * 7 * n))
        if unit == "month":
            return _month_tokens(_shift_months(anchor, sign * n))
        return [f"y{anchor.year + sign * n}"]
    wd = _WEEKDAYS[m["weekday"].lower()]
    back = (anchor.weekday() - wd) % 7 or 7
    if m["wdir"].lower() == "next":
        return _day_tokens(anchor + timedelta(days=(wd - anchor.weekday()) % 7 or 7))
    return _day_tokens(anchor - timedelta(days=back))


_TIME_ANY = re.compile(
    "|".join(
        f"(?:{p.pattern})"
        for p in (_RELATIVE, _YEAR, _DAY_MONTH, _MONTH_DAY, _LONE_MONTH, _ISO_DATE)
    ),
    re.I,
)


def has_time_expression(text: str) -> bool:
    """Whether a passage says when something happened (a date, a year or a relative time)."""
    return _TIME_ANY.search(text) is not None


# -- passages ------------------------------------------------------------------------------

_HEADING_LINE = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_LIST_ITEM = re.compile(r"^\s{0,3}(?:[-*+]|\d{1,3}[.)])\s+")
_TURN = re.compile(
    r"^\s{0,3}(?:[-*+]\s+)?(?:\*\*(?P<b>[^*\n]{1,60})\*\*|(?P<p>[A-Z][\w.'-]*(?: [A-Z][\w.'-]*){0,2}))"
    r"\s*(?:\[[^\]\n]{1,40}\]|\([^)\n]{1,40}\))?\s*:\s"
)
_MESSAGE_HEADING = re.compile(r"^(user|assistant|system|tool call|tool result)\s+\u00b7\s+\S+$")
_BULLET = re.compile(r"^\s{0,3}[-*+]\s+")
_FENCE = re.compile(r"^\s{0,3}(```|~~~)")
MAX_PASSAGE_WORDS = 120
CONTEXT_WORDS = 60


@dataclass
class _Block:
    text: str
    heading: str
    speaker: str | None


def _blocks(body: str) -> list[_Block]:
    """Split a markdown body into passages: list items, turns, paragraphs, code blocks."""
    blocks: list[_Block] = []
    headings: list[str] = []
    levels: list[int] = []
    buf: list[str] = []
    in_fence = False
    section_speaker: list[str | None] = [None]  # who speaks under a `## user · <time>` heading

    def flush() -> None:
        if buf:
            text = "\n".join(buf).strip()
            if text:
                m = _TURN.match(buf[0])
                if m:  # a turn's bullet carries nothing; the budget should not pay for it
                    text = _BULLET.sub("", text, count=1)
                speaker = (m["b"] or m["p"]).strip() if m else section_speaker[0]
                blocks.append(_Block(text, " / ".join(headings), speaker))
            buf.clear()

    for line in body.splitlines():
        if _FENCE.match(line):
            if not in_fence:
                flush()
            buf.append(line)
            in_fence = not in_fence
            if not in_fence:
                flush()
            continue
        if in_fence:
            buf.append(line)
            continue
        if not line.strip():
            flush()
            continue
        h = _HEADING_LINE.match(line)
        if h:
            flush()
            level = len(h[1])
            while levels and levels[-1] >= level:
                levels.pop()
                headings.pop()
            levels.append(level)
            headings.append(h[2])
            said = _MESSAGE_HEADING.match(h[2])
            section_speaker[0] = said[1] if said else None
            continue
        if _LIST_ITEM.match(line) or _TURN.match(line):
            flush()
        buf.append(line)
    flush()
    out: list[_Block] = []
    for b in blocks:
        out.extend(_split_long(b))
    return out


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def _split_long(b: _Block) -> list[_Block]:
    if words(b.text) <= MAX_PASSAGE_WORDS or b.text.lstrip().startswith(("```", "~~~")):
        return [b]
    pieces: list[str] = []
    cur: list[str] = []
    for sentence in _SENTENCE_END.split(b.text):
        if cur and words(" ".join(cur)) + words(sentence) > MAX_PASSAGE_WORDS:
            pieces.append(" ".join(cur))
            cur = []
        cur.append(sentence)
    if cur:
        pieces.append(" ".join(cur))
    return [_Block(p, b.heading, b.speaker) for p in pieces]


def document_date(path: str, title: str, body: str) -> date | None:
    """The date a document speaks from: frontmatter `date:`, else its title, first heading
    or path."""
    meta, text = split_frontmatter(body) if body.startswith("---") else ({}, body)
    value = meta.get("date") if isinstance(meta, dict) else None
    if isinstance(value, date):
        return value
    if isinstance(value, str) and (d := parse_date(value)):
        return d
    for candidate in (title, next(iter(_HEADING_LINE.findall(text)), ("", ""))[1], path):
        if d := parse_date(candidate):
            return d
    return None


def day_tokens(d: date) -> list[str]:
    """The date tokens of one day (`d20230508 m202305 y2023`), as passages are indexed."""
    return _day_tokens(d)


def clip_words(text: str, n: int) -> str:
    """The first `n` words of `text`, joined by single spaces."""
    return _clip(text, n)


def _clip(text: str, n: int) -> str:
    parts = text.split()
    return " ".join(parts[:n])


def cut_document(path: str, title: str, body: str) -> list[PassageRow]:
    """Cut a document into passages, each with its neighbours and headings as context,
    its speaker (for transcript turns) and its date tokens."""
    _, text = split_frontmatter(body) if body.startswith("---") else ({}, body)
    day = document_date(path, title, body)
    blocks = _blocks(text)
    day_toks = _day_tokens(day) if day else []
    rows = []
    for i, b in enumerate(blocks):
        before = blocks[i - 1].text if i > 0 else ""
        after = blocks[i + 1].text if i + 1 < len(blocks) else ""
        context = " ".join(
            x
            for x in (title, b.heading, _clip(before, CONTEXT_WORDS), _clip(after, CONTEXT_WORDS))
            if x
        )
        toks = list(dict.fromkeys([*day_toks, *date_tokens(b.text, day)]))
        rows.append(
            PassageRow(
                seq=i,
                text=b.text,
                words=words(b.text),
                context=context,
                speaker=b.speaker,
                day=day.isoformat() if day else None,
                dates=" ".join(toks),
                heading=b.heading,
                timed=has_time_expression(b.text),
            )
        )
    return rows


def sync_passages(repo: DocumentsRepository, owner: str) -> int:
    """Bring the owner's passage index up to date with the current documents.

    Returns how many documents were (re)cut into passages. Cheap when nothing changed: one query.
    Documents are read and cut before the write transaction begins, so the write lock is
    held only for the inserts. A document changed, renamed or deleted meanwhile is left
    out (it stays stale for the next call), so text erased meanwhile is never stored.
    """
    index = PassageIndex(repo)
    fresh, gone = index.stale(owner)
    if not fresh and not gone:
        return 0
    cut = []
    for s in fresh:
        doc = repo.read_by_id(s.document_id)
        if not doc.deleted:
            cut.append((doc, cut_document(doc.path, doc.title, doc.body)))
    stored = 0
    with repo.transaction():
        index.drop(gone)
        for doc, rows in cut:
            # What was read may have changed since (a write, or an erasure that rewrote its
            # path or title in place): then it stays stale, and no old text is stored.
            now = repo.read_by_id(doc.id)
            if (now.version, now.path, now.title, now.deleted) != (
                doc.version,
                doc.path,
                doc.title,
                False,
            ):
                continue
            index.replace(doc.id, owner, doc.version, doc.path, rows)
            stored += 1
    return stored


_UNWRITABLE = ("SQLITE_READONLY", "SQLITE_BUSY", "SQLITE_LOCKED")


def refresh_passages(repo: DocumentsRepository, owner: str) -> frozenset[int]:
    """Bring the passage index up to date if it may be written now; return the ids of the
    documents whose passages are not current (empty when the index is up to date).

    The update is a short write of its own when no transaction is open, and joins the
    caller's write transaction (`repo.transaction()`) when one is. It is not made inside a
    read transaction (`repo.snapshot()`, or one the caller began on a shared connection):
    that would turn the reader into a writer holding the lock until its owner ends it.
    Nor can it be made on a read-only database or connection (`mode=ro`, `PRAGMA
    query_only`), or when another connection keeps the write lock past the busy timeout.
    Then the index is left as it was, a warning is logged, and the documents it is behind
    on are returned, so that a caller can leave their stale passages out (`retrieve`) or
    rank another way (`load_memories`).
    """
    reason = "inside a read transaction"
    if not repo.conn.in_transaction or repo.in_write_transaction:
        try:
            sync_passages(repo, owner)
            return frozenset()
        except sqlite3.OperationalError as e:
            if not getattr(e, "sqlite_errorname", "").startswith(_UNWRITABLE):
                raise
            reason = str(e)
    fresh, gone = PassageIndex(repo).stale(owner)
    if fresh or gone:
        log.warning(
            "passage index of %r not updated (%s): %d document(s) behind",
            owner,
            reason,
            len(fresh) + len(gone),
        )
    return frozenset([s.document_id for s in fresh] + gone)


# -- queries -----------------------------------------------------------------------------


@dataclass
class Query:
    """A query read for its parts: content terms, phrases, names, dates, temporal intent."""

    text: str
    terms: list[str]
    phrases: list[str]
    names: list[str]
    entities: list[str]
    dates: list[str]
    temporal: bool

    def fts(self) -> str:
        """The FTS5 expression: any term, phrase or date token may match; BM25 ranks."""
        parts = [f'"{t}"' for t in self.terms]
        parts += [f'"{p}"' for p in self.phrases]
        parts += [f'dates : "{d}"' for d in self.dates]
        return " OR ".join(parts)


def parse_query(text: str, speakers: Sequence[str] = ()) -> Query:
    """Read a natural-language query: drop stopwords, keep word pairs as phrases, recognise
    speaker names and dates, and notice whether it asks when."""
    if not isinstance(text, str):
        raise UserError(f"query {text!r}: must be text")
    known = {s.lower(): s for s in speakers}
    for s in speakers:
        for part in s.split():
            known.setdefault(part.lower(), s)
    raw = _WORD.findall(text)
    terms: list[str] = []
    names: list[str] = []
    entities: list[str] = []
    phrases: list[str] = []
    prev: str | None = None
    for i, w in enumerate(raw):
        base = w.lower()
        if base.endswith("'s"):
            base = base[:-2]
        if base in STOPWORDS or len(base) < 2:
            prev = None
            continue
        if base in known:
            names.append(known[base])
        elif w[0].isupper() and i > 0:  # a proper name that is not a speaker: an entity
            entities.append(base)
        terms.append(base)
        if prev is not None:
            phrases.append(f"{prev} {base}")
        prev = base
    return Query(
        text=text,
        terms=list(dict.fromkeys(terms)),
        phrases=list(dict.fromkeys(phrases)),
        names=list(dict.fromkeys(names)),
        entities=list(dict.fromkeys(entities)),
        dates=date_tokens(text, None),
        temporal=bool(_TEMPORAL_QUERY.search(text)),
    )


_FIRST_PERSON = re.compile(r"\b(?:i|me|my|mine|myself|i'm|i've|i'd)\b", re.I)
_SAID = (
    r"(?:said|told|mentioned|recommended|suggested|gave|provided|listed|shared|explained|"
    r"described|wrote|showed|proposed|named|offered|advised|answered|replied)"
)
_SAY = (
    r"(?:say|tell|mention|recommend|suggest|give|provide|list|share|explain|describe|write|"
    r"show|propose|name|offer|advise|answer|reply)"
)
_ASKS_WHAT_WAS_SAID = re.compile(
    rf"\byou\s+(?:\w+\s+){{0,2}}?{_SAID}\b|\bdid\s+you\s+(?:\w+\s+)?{_SAY}\b|\bremind\s+me\b",
    re.I,
)


def addressed(query: str) -> str | None:
    """Whose words a query asks about in a chat with an assistant: the assistant's when it
    asks what was said to the user ("what did you suggest", "you mentioned", "remind me"),
    the user's when it otherwise speaks of "I" or "my" (a request, "can you recommend…
    for my trip", asks about the user), else None. Turns are told apart by their speaker
    (`user`, `assistant`)."""
    if _ASKS_WHAT_WAS_SAID.search(query):
        return "assistant"
    if _FIRST_PERSON.search(query):
        return "user"
    return None


# -- retrieval ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Settings:
    """Weights of the ranking; the defaults were tuned on LoCoMo's development split."""

    text_weight: float = 1.0
    context_weight: float = 0.3
    speaker_weight: float = 0.0
    dates_weight: float = 1.0
    speaker_boost: float = 1.0
    temporal_boost: float = 0.3
    entity_boost: float = 0.0
    document_weight: float = 0.3
    document_prior: str = "passages"  # or "store": the store's document search (slower)
    document_passages: int = 3
    recency_weight: float = 0.05
    length_exponent: float = 0.0
    candidates: int = 300
    feedback_terms: int = 0
    feedback_passages: int = 5
    feedback_weight: float = 0.3
    neighbours: int = 0
    headers: bool = True
    name_boost: float = 1.0  # rank_documents only: a document named for the query
    skip_bare: bool = True  # leave out passages that are only links, dates and labels
    person_boost: float = 2.0  # see `addressed`: the user's turns, or the assistant's


DEFAULT_SETTINGS = Settings()


@dataclass
class Passage:
    """One passage in a context, traceable to its document and position."""

    document_id: int
    path: str
    seq: int
    text: str
    words: int
    score: float
    speaker: str | None = None
    day: str | None = None
    version: int | None = None

    def to_dict(self) -> dict[str, object]:
        return self.__dict__.copy()


@dataclass
class Context:
    """What `retrieve` assembled: the text to hand a model and the passages it holds."""

    query: str
    budget_words: int
    text: str = ""
    passages: list[Passage] = field(default_factory=list)
    left_out: int = 0
    """Documents not searched: changed since they were indexed, and the index could not be
    updated (a read-only database); see `refresh_passages`."""

    @property
    def words(self) -> int:
        return words(self.text)

    def __str__(self) -> str:
        return self.text


def retrieve(
    repo: DocumentsRepository,
    owner: str,
    query: str,
    *,
    budget_words: int,
    under: str = DEFAULT_UNDER,
    settings: Settings = DEFAULT_SETTINGS,
) -> Context:
    """The passages of `owner`'s documents under `under` most relevant to `query`, as one
    context of at most `budget_words` words (headers included), grouped by document."""
    owner, under = validate_owner(owner), normalize_path(under)
    if not isinstance(budget_words, int) or budget_words < 0:
        raise UserError(f"budget_words {budget_words!r}: must be a whole number >= 0")
    behind = refresh_passages(repo, owner)
    index = PassageIndex(repo)
    q = parse_query(query, index.speakers(owner))
    ctx = Context(query=query, budget_words=budget_words, left_out=len(behind))
    match = q.fts()
    if not match or budget_words == 0:
        return ctx
    s = settings
    hits = _search(index, owner, under, match, s, behind)
    if not hits:
        return ctx
    if s.feedback_terms:
        hits = _with_feedback(index, owner, under, q, hits, s)
    ranked = _rank(repo, owner, under, q, hits, s)
    _pack(ctx, index, ranked, s)
    versions: dict[int, int] = {}
    for p in ctx.passages:
        if p.document_id not in versions:
            versions[p.document_id] = repo.read_by_id(p.document_id).version
        p.version = versions[p.document_id]
    return ctx


def _search(
    index: PassageIndex,
    owner: str,
    under: str,
    match: str,
    s: Settings,
    behind: frozenset[int] = frozenset(),
) -> list[PassageHit]:
    hits = index.search(
        owner,
        match,
        under=under,
        limit=s.candidates,
        weights=(s.text_weight, s.context_weight, s.speaker_weight, s.dates_weight),
    )
    if behind:
        hits = [h for h in hits if h.document_id not in behind]
    return hits


@dataclass(frozen=True)
class RankedDocument:
    """A document and how relevant its best passages make it to a query."""

    document_id: int
    path: str
    score: float


def rank_documents(
    repo: DocumentsRepository,
    owner: str,
    query: str,
    *,
    under: str = DEFAULT_UNDER,
    limit: int = 50,
    settings: Settings = DEFAULT_SETTINGS,
    refresh: bool = True,
) -> list[RankedDocument]:
    """`owner`'s documents under `under` most relevant to `query`, best first: for callers
    that load whole documents (`load_memories(query=...)`) rather than passages.

    Each document is scored by the sum of its best passages as `retrieve` ranks them, so
    stopwords and question words never make a document relevant; a document named for
    the query (every word of its path's last segment is a query term, as `projects/apollo`
    for "when is the Apollo launch") counts `1 + name_boost` times, since in a tree of
    pages a page named for a subject is the page about it. With `refresh=False` the passage
    index is taken as it is (the caller brought it up to date, see `refresh_passages`);
    otherwise documents the index is behind on and cannot be updated for are left out.
    """
    owner, under = validate_owner(owner), normalize_path(under)
    behind = refresh_passages(repo, owner) if refresh else frozenset()
    index = PassageIndex(repo)
    q = parse_query(query, index.speakers(owner))
    match = q.fts()
    if not match:
        return []
    s = settings
    hits = _search(index, owner, under, match, s, behind)
    if not hits:
        return []
    per_doc: dict[int, list[float]] = {}
    paths: dict[int, str] = {}
    for score, h in _rank(repo, owner, under, q, hits, s):
        per_doc.setdefault(h.document_id, []).append(score)
        paths[h.document_id] = h.path
    terms = {_plain(t) for t in q.terms}
    ranked = []
    for d, xs in per_doc.items():
        score = sum(xs[: s.document_passages])
        if s.name_boost and _named_for(paths[d], terms):
            score *= 1 + s.name_boost
        ranked.append(RankedDocument(d, paths[d], score))
    ranked.sort(key=lambda r: (-r.score, r.path))
    return ranked[:limit]


def _plain(word: str) -> str:
    """A word without a plural `s`, so that `projects` and `project` meet."""
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def _named_for(path: str, terms: set[str]) -> bool:
    """Whether every word of the path's last segment is one of the query's terms."""
    name = [w for w in re.split(r"[-_.]+", name_of(path).lower()) if w]
    return bool(name) and all(_plain(w) in terms for w in name)


def _feedback_terms(q: Query, hits: Sequence[PassageHit], n: int) -> list[str]:
    """Words that several of the best passages share and the query lacks."""
    have = set(q.terms)
    seen: dict[str, int] = {}
    for h in hits:
        for w in {w.lower() for w in _WORD.findall(h.text)}:
            if len(w) > 2 and w.isalpha() and w not in STOPWORDS and w not in have:
                seen[w] = seen.get(w, 0) + 1
    shared = [w for w, k in seen.items() if k >= 2]
    shared.sort(key=lambda w: -seen[w])
    return shared[:n]


def _with_feedback(
    index: PassageIndex, owner: str, under: str, q: Query, hits: list[PassageHit], s: Settings
) -> list[PassageHit]:
    """Pseudo-relevance feedback: search again with the words the best passages share, and
    add that score, scaled down, to the first."""
    extra = _feedback_terms(q, hits[: s.feedback_passages], s.feedback_terms)
    if not extra:
        return hits
    more = index.search(
        owner,
        " OR ".join(f'"{t}"' for t in extra),
        under=under,
        limit=s.candidates,
        weights=(s.text_weight, s.context_weight, s.speaker_weight, s.dates_weight),
    )
    if not more:
        return hits
    scale = s.feedback_weight * hits[0].score / (more[0].score or 1.0)
    merged = {h.id: h for h in hits}
    for m in more:
        base = merged.get(m.id)
        merged[m.id] = replace(m, score=(base.score if base else 0.0) + scale * m.score)
    return sorted(merged.values(), key=lambda h: -h.score)


def _rank(
    repo: DocumentsRepository,
    owner: str,
    under: str,
    q: Query,
    hits: list[PassageHit],
    s: Settings,
) -> list[tuple[float, PassageHit]]:
    top = hits[0].score or 1.0
    doc_prior: dict[int, float] = {}
    if s.document_weight and s.document_prior == "store":
        docs = repo.search(owner, " ".join(q.terms), under=under, limit=20)
        if docs:
            best = docs[0].score or 1.0
            doc_prior = {d.document_id: d.score / best for d in docs}
    elif s.document_weight:
        # A document where several passages match is about the question: the sum of its
        # best few passage scores, relative to the best document's.
        per_doc: dict[int, list[float]] = {}
        for h in hits:
            per_doc.setdefault(h.document_id, []).append(h.score)
        sums = {
            d: sum(sorted(xs, reverse=True)[: s.document_passages]) for d, xs in per_doc.items()
        }
        best = max(sums.values()) or 1.0
        doc_prior = {d: x / best for d, x in sums.items()}
    days = sorted({h.day for h in hits if h.day})
    day_rank = {d: (i + 1) / len(days) for i, d in enumerate(days)}
    names = set(q.names)
    whose = addressed(q.text) if s.person_boost else None
    entity_re = (
        re.compile(r"\b(?:" + "|".join(map(re.escape, q.entities)) + r")", re.I)
        if q.entities and s.entity_boost
        else None
    )
    out = []
    for h in hits:
        score = h.score / top
        if names and h.speaker in names:
            score *= 1 + s.speaker_boost
        elif whose and h.speaker == whose:
            score *= 1 + s.person_boost
        if entity_re is not None and entity_re.search(h.text):
            score *= 1 + s.entity_boost
        if q.temporal and h.timed:
            score *= 1 + s.temporal_boost
        score += s.document_weight * doc_prior.get(h.document_id, 0.0)
        score += s.recency_weight * day_rank.get(h.day or "", 0.0)
        if s.length_exponent:
            score /= math.pow(max(h.words, 5), s.length_exponent)
        out.append((score, h))
    out.sort(key=lambda x: -x[0])
    return out


_LINK = re.compile(r"\[\[[^\]\n]*\]\]|\]\([^)\n]*\)|https?://\S+")
_LABEL_WORD = re.compile(r"[^\W\d_]{2,}")


def bare(text: str) -> bool:
    """Whether a passage holds links and, besides them, nothing but dates and a label
    (`- week: [[...]]`, `- 2023-05-20: [[...|s13]]`): found by a query through a link's
    path, it answers nothing, and would spend the budget."""
    rest = _LINK.sub(" ", text)
    return rest != text and len(_LABEL_WORD.findall(rest)) < 2


def _header(h: PassageHit | Passage) -> str:
    return f"## {h.path} ({h.day})" if h.day else f"## {h.path}"


def _pack(
    ctx: Context, index: PassageIndex, ranked: list[tuple[float, PassageHit]], s: Settings
) -> None:
    budget = ctx.budget_words
    used = 0
    chosen: dict[int, Passage] = {}
    docs: set[int] = set()
    for score, h in ranked:
        if used >= budget:
            break
        if s.skip_bare and bare(h.text):
            continue
        group = [h]
        if s.neighbours:
            group = [
                x for x in index.around(h.document_id, h.seq, s.neighbours, 0) if x.id not in chosen
            ]
        cost = sum(x.words for x in group if x.id not in chosen)
        if s.headers and h.document_id not in docs:
            cost += words(_header(h))
        if cost == 0 or used + cost > budget:
            continue
        used += cost
        docs.add(h.document_id)
        for x in group:
            if x.id not in chosen:
                chosen[x.id] = Passage(
                    x.document_id, x.path, x.seq, x.text, x.words, score, x.speaker, x.day
                )
    passages = sorted(chosen.values(), key=lambda p: (p.day or "", p.path, p.seq))
    lines: list[str] = []
    current: int | None = None
    for p in passages:
        if s.headers and p.document_id != current:
            if lines:
                lines.append("")
            lines.append(_header(p))
            current = p.document_id
        lines.append(p.text)
    ctx.passages = passages
    ctx.text = "\n".join(lines)
