"""English words: the `english-words` package's lists (web2 and GCIDE, the package's own
data), read once per process on first use and shared by every reader — the secret
detector (a lower-case password that is no word was made up), the offline agent's repair
of a digit read for a letter, and its test of a sentence's first word for a name. Reading
the lists takes most of a second and some 30 MB: one copy, never one per reader."""

from __future__ import annotations

from functools import cache


@cache
def english() -> frozenset[str]:
    """Every word of the lists, in lower case, letters only."""
    from english_words import get_english_words_set

    return frozenset(get_english_words_set(["web2", "gcide"], lower=True, alpha=True))


@cache
def proper() -> frozenset[str]:
    """The proper names of the web2 list, as it spells them ("Paris", "Jade")."""
    from english_words import get_english_words_set

    cased = get_english_words_set(["web2"], lower=False, alpha=True)
    return frozenset(w for w in cased if w[:1].isupper())


def is_word(word: str, endings: tuple[str, ...] = ()) -> bool:
    """Whether `word` is an English word, in any case, or one with one of `endings` on a
    word of the lists ("cancelled": cancel, the last consonant doubled; "shared": share)."""
    w = word.lower()
    words = english()
    if w in words:
        return True
    for ending in endings:
        stem = w.removesuffix(ending)
        if stem != w and len(stem) >= 3:
            if stem in words or stem + "e" in words:
                return True
            if len(stem) >= 4 and stem[-1] == stem[-2] and stem[:-1] in words:
                return True
    return False
