"""Search: `Search.search` (`DocumentsRepository.search`), its syntax and its snippets.

Words any of which may match (stopwords dropped), `apol*` for a prefix, `"a phrase"` that
must occur, `-word` (or `-"a phrase"`) to exclude, read into an FTS5 query; and the
snippet of each hit, cut from its body here in one pass rather than by a backend (FTS5's
own snippet() takes time in the square of a body's size, and PostgreSQL's ts_headline
cuts otherwise), so that every backend shows the same snippet for the same hit.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from doctree import stopwords
from doctree.errors import UserError
from doctree.store.core import Part
from doctree.store.model import SearchHit, check_int
from doctree.store.paths import HOME, normalize_path, subtree_bounds, validate_owner

FTS_TOKEN = re.compile(r"[\w]+", re.UNICODE)
"""A word as the full-text index sees one (unicode61: letters and digits)."""
STOPWORDS = stopwords.SEARCH  # see doctree.stopwords for why these words

SNIPPET_TOKENS = 16  # words in a snippet
_SPLIT = re.compile(r"([\w]+)", re.UNICODE)  # FTS_TOKEN, kept by re.split
# The same split of a text that is all ASCII (its word characters are [A-Za-z0-9_] either
# way), two to three times faster: the engine tests a character against a set instead of
# looking up its Unicode category. (Written as the set itself: a tenth faster again than
# `\w` with re.ASCII, the same parts.)
_SPLIT_ASCII = re.compile(r"([A-Za-z0-9_]+)")
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


def plain_words(text: str | None) -> list[str]:
    """The words of free text that a plain query looks for: every word, stopwords dropped
    unless nothing else is left (see `fts_query`)."""
    words = list(dict.fromkeys(w for w in FTS_TOKEN.findall(text or "") if w))
    content = [w for w in words if w.casefold() not in STOPWORDS]
    return content or words


def fts_query(text: str) -> str:
    """Turn free text into an FTS5 query: each word quoted, any word may match (BM25 ranks).

    Stopwords are dropped, so a question ("what did Alice say about the garden?") is matched
    on its content words rather than by nearly every document; a query of nothing but
    stopwords keeps them all, so it still finds what contains them.
    """
    return " OR ".join(f'"{w}"' for w in plain_words(text))


def plain_search(text: str) -> SearchQuery:
    """The words of `fts_query(text)` as a `SearchQuery`, to mark them in a snippet."""
    return SearchQuery(text or "", terms=[(w, False) for w in plain_words(text)])


_SUFFIXES = ("ing", "ed", "es", "s", "ly")


def _plain(word: str) -> str:
    """A word with case and diacritics folded."""
    word = word.casefold()
    if not word.isascii():
        word = unicodedata.normalize("NFKD", word)
        word = "".join(c for c in word if not unicodedata.combining(c))
    return word


def _fold(word: str) -> str:
    """A word as the index compares it, near enough to mark it in a snippet: case and
    diacritics folded, common suffixes off (`running`, `runs` and `run` fold alike). What is
    left is always the start of the word with case and diacritics folded."""
    word = _plain(word)
    for suffix in _SUFFIXES:
        if len(word) > len(suffix) + 2 and word.endswith(suffix):
            word = word[: -len(suffix)]
            if suffix in ("ing", "ed") and word[-1] == word[-2] and word[-1] not in "lsz":
                word = word[:-1]  # running -> runn -> run
            break
    if len(word) > 3 and word.endswith("e"):
        word = word[:-1]  # like, likes, liked
    return word


@lru_cache(maxsize=64)
def _terms(
    terms: tuple[tuple[str, bool], ...],
) -> tuple[frozenset[str], tuple[str, ...], tuple[str, ...]]:
    """A query's terms made ready to match words: the folded words, the prefixes, and what
    a word that matches must start with once folded (either of them: a folded word is the
    start of the word with case and diacritics folded, see `_fold`)."""
    exact = frozenset(_fold(w) for w, prefix in terms if not prefix)
    prefixes = tuple(_plain(w) for w, prefix in terms if prefix)
    return exact, prefixes, (*exact, *prefixes)


def _matches(words: Iterable[str], query: SearchQuery) -> dict[str, str]:
    """Which of these (distinct) words are search terms: word -> the term it matches."""
    if not query.terms:
        return {}
    exact, prefixes, starts = _terms(tuple(query.terms))
    # An ASCII word is folded by `lower()` (`_plain`): one that does not start with a term
    # so folded matches none, and the test of that, in C, leaves most words out. (It was a
    # regular expression of the terms, compiled for each new query: 45 us, as much as
    # a snippet.)
    words = [w for w in words if not w.isascii() or w.lower().startswith(starts)]
    return _terms_of(words, exact, prefixes)


def _terms_of(
    words: Iterable[str], exact: frozenset[str], prefixes: tuple[str, ...]
) -> dict[str, str]:
    """Which of these (distinct) words are search terms (`_terms`' `exact` and `prefixes`):
    word -> the term it matches; the test itself, for every word given."""
    found: dict[str, str] = {}
    for word in words:
        plain = _plain(word)
        if prefixes and plain.startswith(prefixes):
            found[word] = next(p for p in prefixes if plain.startswith(p))
        elif (folded := _fold(word)) in exact:
            found[word] = folded
    return found


_WORD_ASCII = re.compile(r"[A-Za-z0-9_]+")
_WORD_CHARS_LOWER = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_")


def _ascii_matches(body: str, query: SearchQuery) -> dict[str, str]:
    """`_matches` of the words of an ASCII `body`, found from where the query's folded terms
    occur in it rather than by looking at each of its words: a word that matches starts
    with a term once lowered (see `_matches`), so it is one of the words that start where a
    term occurs in the lowered body. Those (a few) are then tested as `_matches` tests
    them: the same words, the same terms."""
    if not query.terms:
        return {}
    exact, prefixes, starts = _terms(tuple(query.terms))
    if "" in starts:  # (no term folds to nothing; were one to, every word would start with it)
        return _matches(set(_WORD_ASCII.findall(body)), query)
    low = body.lower()
    candidates: set[str] = set()
    for term in starts:
        at = low.find(term)
        while at >= 0:
            if at == 0 or low[at - 1] not in _WORD_CHARS_LOWER:
                word = _WORD_ASCII.match(body, at)
                if word is not None:
                    candidates.add(word.group())
            at = low.find(term, at + 1)
    return _terms_of(candidates, exact, prefixes) if candidates else {}


def snippet_of(body: str | None, query: SearchQuery, size: int = SNIPPET_TOKENS) -> str:
    """The snippet of a search hit: the window of `size` words of `body` that holds the most
    distinct search terms (then the most of them), the terms centred in it and marked in
    [brackets], ' … ' where the body goes on, on one line. Its cost grows with the body's
    size and no faster (each word is looked at once); every backend's search hits get their
    snippets from here, so they are the same on all of them."""
    if not body:
        return ""
    # text between words, a word, text between words, ...
    parts = (_SPLIT_ASCII if body.isascii() else _SPLIT).split(body)
    words = parts[1::2]
    n = len(words)
    if n == 0:
        return ""
    match = _ascii_matches(body, query) if body.isascii() else _matches(set(words), query)
    hits = [i for i, w in enumerate(words) if w in match] if match else []
    # The best window starts at a hit: slide its start over the hits, its end follows.
    start, best_score, first, last = 0, (0, 0), 0, -1
    counts: dict[str, int] = {}
    distinct = end = 0
    for j, i in enumerate(hits):
        while end < len(hits) and hits[end] < i + size:
            term = match[words[hits[end]]]
            counts[term] = counts.get(term, 0) + 1
            distinct += counts[term] == 1
            end += 1
        if (distinct, end - j) > best_score:
            best_score, first, last = (distinct, end - j), i, hits[end - 1]
        term = match[words[i]]
        counts[term] -= 1
        distinct -= counts[term] == 0
    if last >= 0:  # centre the terms: as many words before them as after
        start = max(0, min(first - (size - (last - first + 1)) // 2, n - size))
    stop = min(start + size, n)
    out = []
    for k in range(start, stop):
        if k > start or k == 0:  # from the start of the body: what comes before its first word
            out.append(parts[2 * k])
        out.append(f"[{words[k]}]" if words[k] in match else words[k])
    if stop == n:
        out.append(parts[-1])  # and to its end: what follows its last word (a full stop)
    text = " ".join("".join(out).split())
    return ("… " if start > 0 else "") + text + (" …" if stop < n else "")


class Search(Part):
    """The full-text search of a repository."""

    def search(
        self,
        owner: str,
        query: str,
        *,
        under: str = HOME,
        limit: int = 10,
        snippets: bool = True,
    ) -> list[SearchHit]:
        """Full-text search over current titles, bodies and paths, best (BM25) first.

        The query is read by `parse_search`: any of its words may match (stopwords
        dropped), `word*` matches a prefix, `"a phrase"` must occur as written, `-word`
        excludes. `snippets=False` leaves each hit's snippet empty, for callers that only rank.
        """

        owner, under = validate_owner(owner), normalize_path(under)
        limit = check_int(limit, "limit", minimum=1)
        parsed = parse_search(query)
        match = parsed.fts()
        if not match:
            return []
        params: list[Any] = []
        scope = ""
        if under != HOME:
            lo, hi = subtree_bounds(under)
            scope = " AND (d.path = ? OR (d.path >= ? AND d.path < ?))"
            params += [under, lo, hi]
        rows = self.dialect.search_documents(
            self.conn, match, owner, scope, params, limit, bodies=snippets
        )
        # Snippets are cut here, the same on every backend (see `snippet_of`).
        return [
            SearchHit(
                doc_id,
                path,
                title,
                snippet_of(body, parsed) if snippets else "",
                score,
                version,
                updated_at,
            )
            for doc_id, path, title, version, updated_at, score, body in rows
        ]
