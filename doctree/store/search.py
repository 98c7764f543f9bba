"""Search syntax and snippets: what `DocumentsRepository.search` makes of a query.

Words any of which may match (stopwords dropped), `apol*` for a prefix, `"a phrase"` that
must occur, `-word` (or `-"a phrase"`) to exclude, read into an FTS5 query; and the
snippet of a large body, cut in one pass over it (FTS5's own snippet() takes time in the
square of a body's size).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from doctree import stopwords
from doctree.errors import UserError

FTS_TOKEN = re.compile(r"[\w]+", re.UNICODE)
"""A word as the full-text index sees one (unicode61: letters and digits)."""
STOPWORDS = stopwords.SEARCH  # see doctree.stopwords for why these words

SQL_SNIPPET_BYTES = 16_384  # bodies up to this size get FTS5's own snippet
SNIPPET_TOKENS = 16
_SEARCH_TOKEN = re.compile(r'(-?)"([^"]*)"?|(-?)([^\s"]+)')


@dataclass
class SearchQuery:
    """A search as written: words any of which may match, prefixes (`apol*`), phrases that
    must occur (`"green tea"`), and words or phrases that must not (`-kafka`)."""

    text: str
    words: list[str] = field(default_factory=list)  # an FTS5 phrase each: '"tea"', '"apol"*'
    phrases: list[str] = field(default_factory=list)
    excluded: list[str] = field(default_factory=list)
    terms: list[tuple[str, bool]] = field(default_factory=list)  # (word, prefix) to mark

    def fts(self) -> str:
        """The FTS5 query: phrases required, words optional (they rank), exclusions NOT'd."""
        if not self.words and not self.phrases:
            if self.excluded:
                raise UserError(
                    f"search {self.text!r}: give at least one word to look for, "
                    "not only words to exclude"
                )
            return ""
        if self.phrases:
            query = " AND ".join(self.phrases)
            if self.words:  # always true once the phrases match; there to rank by the words
                query = f"({query}) AND ({' OR '.join([*self.phrases, *self.words])})"
        else:
            query = " OR ".join(self.words)
        if self.excluded:
            query = f"({query})" + "".join(f" NOT {e}" for e in self.excluded)
        return query


def _fts_phrase(parts: list[str], prefix: bool = False) -> str:
    return '"' + " ".join(parts) + '"' + ("*" if prefix else "")


def parse_search(text: str) -> SearchQuery:
    """Read a search as `SearchQuery` describes. Punctuation inside a word makes a phrase of
    its parts (`sk-abc` is "sk abc"); stopwords are dropped from the optional words unless
    nothing else is left."""
    q = SearchQuery(text or "")
    plain: list[tuple[str, bool]] = []
    for m in _SEARCH_TOKEN.finditer(q.text):
        if m.group(2) is not None:  # "a phrase"
            negate, raw, quoted = m.group(1), m.group(2), True
        else:
            negate, raw, quoted = m.group(3), m.group(4), False
        prefix = not quoted and raw.endswith("*")
        parts = FTS_TOKEN.findall(raw)
        if not parts:
            continue
        if negate:
            q.excluded.append(_fts_phrase(parts, prefix))
        elif quoted or len(parts) > 1:
            q.phrases.append(_fts_phrase(parts, prefix))
            q.terms += [(p, False) for p in parts[:-1]] + [(parts[-1], prefix)]
        else:
            plain.append((parts[0], prefix))
    plain = list(dict.fromkeys(plain))
    content = [(w, p) for w, p in plain if p or w.casefold() not in STOPWORDS]
    chosen = content or ([] if q.phrases else plain)
    q.words = [_fts_phrase([w], p) for w, p in chosen]
    q.terms += chosen
    return q


def _fold(word: str) -> str:
    """A word as the index compares it: case and diacritics folded, common suffixes off."""
    word = unicodedata.normalize("NFKD", word.casefold())
    word = "".join(c for c in word if not unicodedata.combining(c))
    for suffix in ("ing", "ed", "es", "s", "ly"):
        if len(word) > len(suffix) + 2 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def long_snippet(body: str | None, query: SearchQuery, size: int = SNIPPET_TOKENS) -> str:
    """A snippet of a large body in one pass over it: the window of `size` words holding the
    most distinct search terms, the terms in [brackets], ' … ' where the body goes on."""
    if not body:
        return ""
    exact = {_fold(w) for w, prefix in query.terms if not prefix}
    prefixes = tuple(w.casefold() for w, prefix in query.terms if prefix)
    tokens = []  # (start, end, matched term or None)
    for m in FTS_TOKEN.finditer(body):
        word = m.group(0)
        term = None
        if prefixes and word.casefold().startswith(prefixes):
            term = word.casefold()
        elif exact and (folded := _fold(word)) in exact:
            term = folded
        tokens.append((m.start(), m.end(), term))
    if not tokens:
        return ""
    best, best_score, counts, distinct = 0, -1, {}, 0
    for i, (_, _, term) in enumerate(tokens):  # slide a window of `size` tokens
        if term is not None:
            counts[term] = counts.get(term, 0) + 1
            distinct += counts[term] == 1
        if i >= size:
            old = tokens[i - size][2]
            if old is not None:
                counts[old] -= 1
                distinct -= counts[old] == 0
        if i >= size - 1 or i == len(tokens) - 1:
            start = max(0, i - size + 1)
            if distinct > best_score:
                best, best_score = start, distinct
    window = tokens[best : best + size]
    out, pos = [], window[0][0]
    for start, end, term in window:
        out.append(body[pos:start])
        out.append(f"[{body[start:end]}]" if term is not None else body[start:end])
        pos = end
    text = "".join(out)
    lead = " … " if best > 0 else ""
    tail = " … " if best + size < len(tokens) else ""
    return (lead + text + tail).strip()
