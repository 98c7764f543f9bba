"""Words spelled out as someone reads them over the phone: letter by letter ("S-A-M-I-R",
"M-O with a fada-R") and in the spelling alphabet with its figures in words ("Kilo Tango
seven seven four Delta", "one one zero"), read as the words and codes they spell ("SAMIR",
"MOR", "KT774D", "110").

The offline agent reads these only to tell what the user said: an assistant that puts the
spelling together ("your booking reference is KT774D") restates the user, it brings in no
name or figure of its own (`recap.py`)."""

from __future__ import annotations

import re
import unicodedata

#: The spelling alphabet (ICAO/NATO), as people say and type it.
_ALPHABET = {
    "alpha": "A", "alfa": "A", "bravo": "B", "charlie": "C", "delta": "D", "echo": "E",
    "foxtrot": "F", "golf": "G", "hotel": "H", "india": "I", "juliet": "J", "juliett": "J",
    "kilo": "K", "lima": "L", "mike": "M", "november": "N", "oscar": "O", "papa": "P",
    "quebec": "Q", "romeo": "R", "sierra": "S", "tango": "T", "uniform": "U", "victor": "V",
    "whiskey": "W", "whisky": "W", "x-ray": "X", "xray": "X", "yankee": "Y", "zulu": "Z",
}  # fmt: skip
_FIGURES = {
    "zero": "0", "nought": "0", "one": "1", "two": "2", "three": "3", "four": "4",
    "five": "5", "six": "6", "seven": "7", "eight": "8", "nine": "9", "niner": "9",
}  # fmt: skip
#: A mark said with a letter: "N-I with a fada", "E with an acute", "A umlaut".
_MARK = r"(?:\s+(?:with\s+an?\s+)?(?:fada|accent|acute|grave|umlaut|cedilla|tilde|circumflex))"
#: Letters one by one, joined by hyphens (three or more, a mark said after any of them).
_LETTERS = re.compile(rf"(?<![\w-])(?:[A-Za-z]{_MARK}?-){{2,}}[A-Za-z]{_MARK}?(?![\w-])")
#: Two letters so joined, with a mark after one ("N-I with a fada"): a word of two letters.
_TWO_MARKED = re.compile(rf"(?<![\w-])[A-Za-z]{_MARK}?-[A-Za-z]{_MARK}(?![\w-])")
_TOKEN = re.compile(r"[A-Za-z][A-Za-z-]*")


def spelled_words(text: str) -> list[str]:
    """The words and codes `text` spells out, in the order said (none when it spells none):
    "S-A-M-I-R" -> "SAMIR"; "Kilo Tango seven seven four Delta" -> "KT774D"; a run of
    figures in words, two or more ("one one zero") -> "110"."""
    out = [
        re.sub(rf"{_MARK}|-", "", m.group(0), flags=re.I).upper()
        for pattern in (_LETTERS, _TWO_MARKED)
        for m in pattern.finditer(text)
    ]
    run: list[tuple[str, bool]] = []  # (what a token spells, whether it is a letter)

    def close() -> None:
        letters = sum(1 for _, letter in run if letter)
        # three or more of the alphabet, letters with figures, or two or more figures: said
        # as a spelling, not words of a sentence that happen to be ("the Hotel Delta", "one
        # of them")
        if letters >= 3 or (len(run) >= 2 and letters < len(run)):
            out.append("".join(s for s, _ in run))
        run.clear()

    for m in _TOKEN.finditer(text):
        word = m.group(0).lower()
        gap = text[m.start() - 2 : m.start()] if m.start() >= 2 else ""
        if run and re.search(r"[.;:!?]", gap):
            close()  # a sentence or a list item ends the spelling
        if word in _ALPHABET:
            run.append((_ALPHABET[word], True))
        elif word in _FIGURES:
            run.append((_FIGURES[word], False))
        elif run:
            close()
    if run:
        close()
    return out


def folded(text: str) -> str:
    """`text` without its accents ("Mór" -> "Mor"): a spelling read letter by letter has none."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
