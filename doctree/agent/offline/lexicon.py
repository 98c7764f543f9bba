"""Whether a capitalised word that opens a sentence is a word or a name.

At the start of a sentence a capital says nothing: "Football has been cancelled" and "Jade
starts nursery" look alike. A word is taken for a common word, not a person, when an English
word list (web2 and GCIDE, from the `english-words` package) holds it in lower case, the same
list does not hold it as a proper name, and it is not a given name of the US census lists
(the `names` package, MIT: 5,494 given names — "Jade", "Rose", "Will" stay names)."""

from __future__ import annotations

import functools
from importlib import resources

from doctree.words import english, is_word, proper


@functools.cache
def _lists() -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    import names

    given: set[str] = set()
    for name in ("dist.female.first", "dist.male.first"):
        text = resources.files(names).joinpath(name).read_text(encoding="ascii")
        given.update(line.split(maxsplit=1)[0].capitalize() for line in text.splitlines() if line)
    return english(), proper(), frozenset(given)


def common_word(word: str) -> bool:
    """Whether `word` ("Football", "Parking", "Recycling") is an English word, or one's -ing
    form, and no one's name ("Jade", "Omar", "Priya": a given name, a proper name of the
    word list, or no English word)."""
    if not word.isalpha() or not word[:1].isupper():
        return False
    words, proper, given = _lists()
    w = word.capitalize()
    known = word.lower() in words or is_word(word, ("ing",))  # "Recycling": recycle
    return known and w not in proper and w not in given


def title_word(word: str) -> bool:
    """Whether a capitalised `word` after a holiday's name ("Jumbo" of "the Christmas Jumbo",
    "Market") is an English word a title capitalises, not someone's name ("Tom", "Will")."""
    if not word.isalpha() or not word[:1].isupper():
        return False
    _, _, given = _lists()
    return word.capitalize() not in given and is_word(word)


@functools.cache
def _given_by_gender() -> tuple[frozenset[str], frozenset[str]]:
    import names

    out = []
    for name in ("dist.female.first", "dist.male.first"):
        text = resources.files(names).joinpath(name).read_text(encoding="ascii")
        out.append(
            frozenset(ln.split(maxsplit=1)[0].capitalize() for ln in text.splitlines() if ln)
        )
    return out[0], out[1]


def given_gender(word: str) -> str | None:
    """'f' or 'm' when `word` is a given name of one of the census lists only ("Tom" of the
    men's, "Carla" of the women's), None when of both ("Sam") or of neither ("Priya"). It
    only ever rules someone out as whom a pronoun may mean, never reads one into it."""
    female, male = _given_by_gender()
    w = word.capitalize()
    if (w in female) == (w in male):
        return None
    return "f" if w in female else "m"
