"""OCR text: a letter pasted from a phone scan, its confusable characters put right.

A scanner reads an `l` as `1`, an `O` as `0`, an `m` as `rn`, and leaves a word hyphenated
at a line's end in two. `normalise` puts such text right before it is read, token by token
and only where it is sure: a token that is no word and becomes a known English word (or a
time, or a year) when its confusable characters are swapped; a hyphen at a line's end joined
when the joined word is a word. A number, a code or a reference that is meant to hold digits
("DRM/449120/KT", "0161 555 0193", "B12", "10am") is never a candidate, and a message with
only one such token is left as it is: one odd token is a name or a code more often than a
scan's mistake. An `rn` is read as `m` only in text where a digit was misread too: "modern"
and "return" are words, and a message without a scan's mark is not searched for them.

The known words are those of the `english-words` word lists (web2 and GCIDE), loaded on
first use only, so that a session pasting no scan pays nothing.
"""

from __future__ import annotations

import itertools
import re

from doctree.words import is_word

#: A token that may be a scan's misreading: letters with a `1` or a `0` among them, or `rn`.
_TOKEN = re.compile(r"(?<![\w/.-])[A-Za-z01]*(?:[A-Za-z][01]|[01][A-Za-z])[A-Za-z01]*(?![\w/-])")
_RN = re.compile(r"(?<![\w/.-])[A-Za-z]*rn[A-Za-z]*(?![\w/-])")
#: A time or a year with a letter read for a digit: "1O:45", "l0.30", "2O29".
_TIME = re.compile(r"(?<![\w:.])[0-9OolI]{1,2}[:.][0-9OolI]{2}(?![\w:.])")
_YEAR = re.compile(r"(?<![\w/.-])[12lI][09O][0-9O]{2}(?![\w/-])")
#: A number followed by what counts it: "1st", "10am", "0km" stay as they are.
_COUNTED = re.compile(
    r"\d+(?:st|nd|rd|th|am|pm|[kmshxgdywpvl]|kg|km|mm|cm|ml|mg|kb|mb|gb|hz|ft|lb|oz|mi|mph|kw|kwh)",
    re.I,
)
#: A word hyphenated at a line's end, and the rest of it at the next line's start.
_HYPHENATED = re.compile(r"(?P<head>[A-Za-z01]{2,})-[ \t]*\n[ \t]*(?P<tail>[a-z01][A-Za-z01]*)")
#: The end of a word that a word list may hold as a word of its own, but that never stands
#: after a hyphen: "appoint-" / "ment" is one word.
_BOUND = re.compile(
    r"(?:ment|tion|sion|ness|ity|ance|ence|able|ible|ing|ful|less|ous|ive|ist|ism|ure|ly|"
    r"ed|er|al|ate|ise|ize)s?",
    re.I,
)
#: Endings a word list holds the stem of: "medications", "cancelled", "rebooking".
_SUFFIXES = ("s", "es", "ed", "d", "ing", "'s", "ly", "er")


def known(word: str) -> bool:
    """Whether `word` is an English word, or one with a plural, past or -ing ending."""
    return is_word(word, _SUFFIXES)


def _cased(letter: str, token: str, at: int) -> str:
    """The letter a digit stands for, in the case its neighbours say."""
    letters = [c for c in token if c.isalpha()]
    if letters and all(c.isupper() for c in letters) and len(letters) > 1:
        return letter.upper()
    if at == 0 and letter == "o" and len(token) > 1 and token[1].islower():
        return "O"  # "0ur", "0mar": a capital O starts a word far more often than a small one
    return letter


def _word_for(token: str) -> str | None:
    """The known word `token` is a misreading of, or None: every `1` read as `l`, every `0`
    as `o` (with `rn` as `m` where that is what makes a word)."""
    if known(token) or _COUNTED.fullmatch(token) or sum(c.isalpha() for c in token) < 2:
        return None
    fixed = "".join(
        _cased({"1": "l", "0": "o"}[c], token, i) if c in "01" else c for i, c in enumerate(token)
    )
    if fixed != token and known(fixed):
        return fixed
    spots = [m.start() for m in re.finditer("rn", fixed)]
    for n in range(1, min(len(spots), 3) + 1):
        for chosen in itertools.combinations(spots, n):
            word = fixed
            for at in reversed(chosen):
                word = word[:at] + "m" + word[at + 2 :]
            if known(word):
                return word
    return None


def _digits(token: str) -> str:
    return token.translate(str.maketrans("OolI", "0011"))


def normalise(text: str) -> str:
    """`text` with a scan's misreadings put right, or `text` itself when it holds fewer
    than two: a token that is no word and becomes one when its confusable characters are
    swapped, a time or a year with a letter read for a digit, a word hyphenated across a
    line break joined when the whole is a word (a hyphen that belongs, "well-\\nknown",
    stays)."""
    if "-\n" in text:
        text = _HYPHENATED.sub(_joined, text)
    if not _TOKEN.search(text):
        return text  # no digit among letters: no scan (and no word list loaded)
    changes: dict[tuple[int, int], str] = {}
    for m in _TOKEN.finditer(text):
        if (word := _word_for(m.group())) is not None:
            changes[m.span()] = word
    if not changes:
        return text
    for m in _RN.finditer(text):  # "rn" for "m" only in text a scanner has misread already
        if m.span() not in changes and (word := _word_for(m.group())) is not None:
            changes[m.span()] = word
    for pattern in (_TIME, _YEAR):
        for m in pattern.finditer(text):
            said = m.group()
            if re.search(r"\d", said) and re.search(r"[OolI]", said):
                changes[m.span()] = _digits(said)
    if len(changes) < 2:
        return text
    out, end = [], 0
    for (start, stop), word in sorted(changes.items()):
        if start < end:
            continue
        out.append(text[end:start])
        out.append(word)
        end = stop
    out.append(text[end:])
    return "".join(out)


def _joined(m: re.Match[str]) -> str:
    """A word hyphenated at a line's end as one word, when the whole is a word; two words
    each whole on their own ("well-" / "known", "follow-" / "up") are a compound whose
    hyphen belongs."""
    head, tail = m.group("head"), m.group("tail")
    if len(head) >= 4 and known(head) and known(tail) and not _BOUND.fullmatch(tail):
        return f"{head}-{tail}"
    if known(head + tail) or (_word_for(head + tail) is not None):
        return head + tail
    return m.group()
