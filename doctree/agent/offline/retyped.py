"""A word the user types again to put right the message before: "*Maeve", "Maeve*", "*£60
sorry, fat fingers", "I meant Maeve", "sorry, autocorrect: Hale not Kale".

Such a message says no fact of its own: it replaces one word (or a few) of the user's message
right before it, the one it corrects (an assistant's bare acknowledgement between the two,
"Noted.", does not part them). Which word is read by spelling: of that message's
words (as many together as the correction has), the one closest to it by edit distance, at
most half its letters apart, and half only when both open on one letter ("thirsty" for
"Thursday", "Mauve" for "Maeve", "Cobham" for "Cobden"); a figure only for a figure of the
same shape ("£50" for "£60", "8" for "9"); the later one when two are as close; an explicit "X not Y" names the word itself. When no word is close enough, or the
message already says the correction as typed, nothing changes. `retyped` hands back the
transcript with the corrected words in place and the correcting messages left out, so the
facts are read from what the user meant and the wrong word is never kept.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from doctree.sessions.transcripts import Message, Transcript

#: The most of a word's letters the word it corrects may differ by.
MAX_DISTANCE = 0.5
#: Words a correcting message may hold beside the correction ("sorry, fat fingers").
_MAX_REST = 6
_WORDS = r"[^\s*,;!?]+(?:\s+[^\s*,;!?]+){0,2}"
#: What may follow a correction: an apology, a word on the typo ("fat fingers", "autocorrect").
_REST = r"(?P<rest>(?:\s*[,;.!:-]|\s+(?=(?:sorry|soz|oops|typo|auto-?correct|fat|my\s+bad|lol|ugh|damn|i\s+mean)\b)).*)?"
_STARRED = (
    re.compile(rf"^\s*\*\s*(?P<fix>{_WORDS}?)\s*{_REST}$", re.I),
    re.compile(rf"^\s*(?P<fix>{_WORDS}?)\*\s*{_REST}$", re.I),
)
_SORRY = r"(?:(?:sorry|soz|oops|argh|ugh|whoops|typo|(?:stupid\s+|damn\s+)?auto-?correct(?:ed)?)[,!.:;\s-]+)*"
#: "I meant Maeve", "sorry, meant Thursday"; "autocorrect: Hale not Kale", "I meant Hale, not Kale".
_MEANT = re.compile(
    rf"^\W*{_SORRY}(?:i\s+)?meant\s+(?P<fix>{_WORDS}?)(?:\s*,?\s+not\s+(?P<wrong>{_WORDS}?))?"
    rf"\s*{_REST}$",
    re.I,
)
_NOT = re.compile(
    rf"^\W*(?:\*\s*)?{_SORRY}(?P<fix>{_WORDS}?)\s*,?\s+not\s+(?P<wrong>{_WORDS}?)"
    r"\s*[.!]?\s*$",
    re.I,
)
#: A word or a figure as said: "O'Neill", "£1,150", "9.15", "Maya" of "Maya's".
_TOKEN = re.compile(r"[£$€]?\w(?:[\w.,-]*\w|['’](?!s\b)\w+)*")


@dataclass(frozen=True)
class Correction:
    """A correcting message read: the words meant, and the wrong words when it names them."""

    fix: str
    wrong: str | None = None


def correction(text: str) -> Correction | None:
    """The correction a user's message makes, when that is all it says ("*Maeve" ->
    Maeve; "autocorrect: Hale not Kale" -> Hale for Kale); None for any other message."""
    text = text.strip()
    if not text or "\n" in text or len(text.split()) > _MAX_REST + 3:
        return None
    starred = text.startswith("*") or re.search(r"\w\*(?:\s|$)", text) is not None
    if starred and text.startswith("*") and re.search(r"\w\*", text):
        return None  # "*sigh*", "*really*": emphasis, not a correction
    patterns = [_MEANT]
    if starred or _SORRY_WORD.match(text):
        patterns.append(_NOT)  # "*Hale not Kale", "sorry, autocorrect: Hale not Kale"
    if starred:
        patterns += _STARRED
    for pattern in patterns:
        m = pattern.match(text)
        if m is None:
            continue
        fix = m["fix"].strip(" .'\"")
        rest = (m.groupdict().get("rest") or "").strip()
        if not fix or len(rest.split()) > _MAX_REST or re.search(r"\d", rest):
            continue
        wrong = (m.groupdict().get("wrong") or "").strip(" .'\"") or None
        if fix.lower() in _NOT_A_WORD:
            return None
        return Correction(fix, wrong)
    return None


#: What a message opening on an apology needs before "X not Y" is read as a correction.
_SORRY_WORD = re.compile(
    r"^\W*(?:sorry|soz|oops|whoops|typo|(?:stupid\s+|damn\s+)?auto-?correct)", re.I
)
#: Corrections that are words of the conversation, not a word put right ("*sigh").
_NOT_A_WORD = {"sigh", "shrug", "facepalm", "cough", "sorry", "oops", "yes", "no", "ok"}


def distance(a: str, b: str) -> int:
    """The edit distance of two strings: the fewest letters inserted, removed or replaced
    that make one the other."""
    if len(a) < len(b):
        a, b = b, a
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (ca != cb))
    return row[len(b)]


def corrected_span(text: str, fix: Correction) -> tuple[int, int] | None:
    """Where in `text` (the message before) is the word a correction puts right: the span of
    as many words as the correction has, closest to it in spelling (`MAX_DISTANCE`), the
    latest of equally close ones; None when none is close enough or `text` says it as typed."""
    tokens = list(_TOKEN.finditer(text))
    wanted = fix.fix.lower()
    if fix.wrong is not None:  # "Hale not Kale": the word named
        spans = [
            m.span() for m in re.finditer(rf"(?<![\w£$€]){re.escape(fix.wrong)}(?!\w)", text, re.I)
        ]
        return spans[-1] if spans else None
    n = len(fix.fix.split())
    figure = bool(re.search(r"\d", wanted))
    best: tuple[float, int, tuple[int, int]] | None = None
    for i in range(len(tokens) - n + 1):
        start, end = tokens[i].start(), tokens[i + n - 1].end()
        said = text[start:end].lower()
        if said == wanted:
            return None  # already said as typed: nothing to put right
        if bool(re.search(r"\d", said)) != figure:
            continue
        score = distance(said, wanted) / max(len(said), len(wanted))
        if figure:  # a figure for a figure of the same shape: "£50" for "£60", "8" for "9"
            close = _shape(said) == _shape(wanted)
        else:  # half the letters apart only for words that open alike ("Cobham", "Cobden")
            close = len(said) > 1 and (
                score < MAX_DISTANCE or (score == MAX_DISTANCE and said[0] == wanted[0])
            )
        if close and (best is None or (score, -i) <= (best[0], -best[1])):
            best = (score, i, (start, end))
    return best[2] if best is not None else None


def _shape(figure: str) -> str:
    """A figure with its digits made alike: "£50" and "£60" have one shape, "£5" another."""
    return re.sub(r"\d", "0", figure)


#: The most words of an assistant's reply a correction may follow and still put right the
#: user's message before it ("Noted.", "Got it, thanks!").
_ACK_WORDS = 4


def _corrected_at(out: list[Message]) -> int | None:
    """Where the user's message a correction puts right is in `out`: the last message, or
    the user's message before an assistant's bare acknowledgement of it ("*8pm" after
    "leaving do 7pm" and "Noted."): a reply of a few words, no question, no figure, which
    the correction did not answer. None when there is none."""
    if not out:
        return None
    last = out[-1]
    if last.kind == "user":
        return len(out) - 1
    text = last.content.strip() if isinstance(last.content, str) else ""
    if (
        last.kind == "assistant"
        and len(out) >= 2
        and out[-2].kind == "user"
        and text
        and len(text.split()) <= _ACK_WORDS
        and "?" not in text
        and "\n" not in text
        and not re.search(r"\d", text)
    ):
        return len(out) - 2
    return None


def retyped(transcript: Transcript) -> tuple[Transcript, dict[str, list[tuple[str, str]]]]:
    """The transcript with each correcting message's word put in place in the user's message
    right before it, and the correcting message left out; with, by the time of each message
    changed, the (meant, as said) words put in, so what was said can be found again. The
    transcript as it was when it holds no correction."""
    messages = list(transcript.messages)
    changed: dict[str, list[tuple[str, str]]] = {}
    out: list[Message] = []
    for m in messages:
        fix = (
            correction(m.content)
            if m.kind == "user" and isinstance(m.content, str) and m.content.strip()
            else None
        )
        at = _corrected_at(out) if fix is not None else None
        before = out[at] if at is not None else None
        if (
            fix is not None
            and at is not None
            and before is not None
            and before.kind == "user"
            and isinstance(before.content, str)
            and (span := corrected_span(before.content, fix)) is not None
        ):
            text = before.content
            changed.setdefault(before.time, []).append((fix.fix, text[span[0] : span[1]]))
            out[at] = replace(before, content=text[: span[0]] + fix.fix + text[span[1] :])
            continue
        out.append(m)
    if not changed:
        return transcript, {}
    return replace(transcript, messages=tuple(out)), changed


def as_said(time: str, sentence: str, changed: dict[str, list[tuple[str, str]]]) -> str:
    """A sentence of the corrected message of `time` as it was said, the corrections taken
    out again ("Maeve is picking them up" -> "Mauve is picking them up")."""
    for fix, said in reversed(changed.get(time, [])):
        if fix in sentence:
            sentence = sentence.replace(fix, said, 1)
    return sentence
