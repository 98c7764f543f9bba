"""Passages: documents cut into the pieces retrieval ranks (a transcript turn, a list item,
a paragraph), each indexed with its surroundings (its neighbours and headings), its
speaker and the dates it speaks of, and the passage index kept up to date with the
documents. Budgets count words (`words`).
"""

from __future__ import annotations

import logging
import re
import sqlite3
from dataclasses import dataclass
from datetime import date

from doctree.memory.dates import date_tokens, day_tokens, has_time_expression, parse_date
from doctree.memory.lines import HEADING_LINE
from doctree.memory.meaning import keep_vectors
from doctree.store.documents import DocumentsRepository
from doctree.store.passages import PassageIndex, PassageRow
from doctree.store.passages import clip_words as clip_words  # recall's too
from doctree.store.references import split_frontmatter

log = logging.getLogger("doctree.memory.passages")


def words(text: str) -> int:
    """Words as the budget counts them: whitespace-separated pieces."""
    return len(text.split())


_LIST_ITEM = re.compile(r"^\s{0,3}(?:[-*+]|\d{1,3}[.)])\s+")
_TURN = re.compile(
    r"^\s{0,3}(?:[-*+]\s+)?(?:\*\*(?P<b>[^*\n]{1,60})\*\*|(?P<p>[A-Z][\w.'-]*(?: [A-Z][\w.'-]*){0,2}))"
    r"\s*(?:\[[^\]\n]{1,40}\]|\([^)\n]{1,40}\))?\s*:\s"
)
_MESSAGE_HEADING = re.compile(r"^(user|assistant|system|tool call|tool result)\s+\u00b7\s+\S+$")
_BULLET = re.compile(r"^\s{0,3}[-*+]\s+")
_FENCE = re.compile(r"^\s{0,3}(```|~~~)")
MAX_PASSAGE_WORDS = 120


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
    message_level = 0  # that heading's level: a deeper heading is part of the message

    def flush() -> None:
        if buf:
            text = "\n".join(buf).strip()
            if text:
                m = _TURN.match(buf[0])
                if m:  # a turn's bullet carries nothing; the budget should not pay for it
                    text = _BULLET.sub("", text, count=1)
                # A message's speaker is its heading's: a label opening one of its lines
                # ("**Finish**: ...", "Note: ...") is part of what was said, not a name
                speaker = section_speaker[0] or ((m["b"] or m["p"]).strip() if m else None)
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
        h = HEADING_LINE.match(line)
        if h:
            flush()
            level = len(h[1])
            while levels and levels[-1] >= level:
                levels.pop()
                headings.pop()
            levels.append(level)
            headings.append(h[2])
            said = _MESSAGE_HEADING.match(h[2])
            if said:
                section_speaker[0], message_level = said[1], level
            elif level <= message_level:  # a heading of the document's own: no message's
                section_speaker[0], message_level = None, 0
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
    for candidate in (title, next(iter(HEADING_LINE.findall(text)), ("", ""))[1], path):
        if d := parse_date(candidate):
            return d
    return None


def cut_document(path: str, title: str, body: str) -> list[PassageRow]:
    """Cut a document into passages, each with its speaker (for transcript turns) and its
    date tokens; the index adds its surroundings (its title, headings and neighbours,
    `doctree.store.passages.surroundings_of`)."""
    _, text = split_frontmatter(body) if body.startswith("---") else ({}, body)
    day = document_date(path, title, body)
    blocks = _blocks(text)
    day_toks = day_tokens(day) if day else []
    rows = []
    for i, b in enumerate(blocks):
        toks = list(dict.fromkeys([*day_toks, *date_tokens(b.text, day)]))
        rows.append(
            PassageRow(
                seq=i,
                text=b.text,
                words=words(b.text),
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
            index.replace(doc.id, owner, doc.version, doc.path, rows, title=doc.title)
            stored += 1
        keep_vectors(repo.conn, "passages", owner)
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
