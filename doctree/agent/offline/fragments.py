"""One thought typed over many short messages: "so", "the dentist", "moved it", "to the 9th",
"at 3", the assistant answering "ok" or nothing between them.

Read one by one, no such message states anything and nothing would be kept. `joined` reads a
run of consecutive short user messages (at most one bare acknowledgement of the assistant
between two of them) as the sentences they make together: a message goes on the sentence
before it unless it opens a new one, which it does when the sentence before is whole (it
has a verb and does not end on a word that wants another: "is", "the", "my", or the assistant
acknowledged it and the message opens on "and", "also") and the message starts as a
sentence starts: after a stop, on a capitalised word of function ("The", "So"),
on a subject of its own ("I'm", "we", "my brother says", "Tom is"), or on "and", "also",
"oh" before a subject or a thing ("and my brother", "also the car"). "it", "they", "that"
after "so" or "and" point back at the sentence before, and go on it ("so it's Jonah").
Each sentence of two messages or more becomes one user message at the time of its first; a
message alone stays as it was, and so does every other message.

Never joined: a message of more than `MAX_WORDS` words, of more than one line, that ends on
a stop or a question mark, gives a labelled value ("School: St Brendan's") or a list's item,
holds a secret or its marker, or asks something of memory or
puts something right ("forget that", "don't save that", "no, the 10th", "*Maeve"): each is
read alone, as said. Another speaker's message, or an assistant's message that is more than
a bare acknowledgement, ends a run.

Each message keeps its own time and words in the session's record: `unjoined` puts what the
agent takes out of the record (a sentence the user took back) onto the messages it was typed
in, each only the words of it that message holds.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from doctree.memory.secrets import mask
from doctree.sessions.transcripts import Message, Transcript
from doctree.stopwords import ENGLISH

#: The most words a message may have to be joined to its neighbours.
MAX_WORDS = 6
#: The most words of an assistant's message that only acknowledges ("Noted.", "Got it, ok.").
_ACK_WORDS = 4

#: What a message that is read alone asks or puts right: memory requests, corrections.
_ALONE = re.compile(
    r"\b(?:forget|delete|erase|remove|scratch|strike|ignore|never\s*mind|nvm|undo|"
    r"take\s+(?:that|it|this)\s+back|off\s+the\s+record|between\s+(?:us|you\s+and\s+me)|"
    r"(?:don'?t|do\s+not|dont|never)\s+(?:save|keep|write|store|note|record|put|remember)|"
    r"(?:save|keep|note|write)\s+(?:that|this|it)(?:\s+down)?\s*$)"
    r"|^\W*(?:no|nope|nah|sorry|soz|actually|correction|i\s+mean|i\s+meant|meant|wait|oops|"
    r"make\s+(?:that|it)|not\s)\b"
    r"|^\s*\*|\*\s*$",
    re.I,
)
#: Words that only open or carry talk: a message of them goes on the next one.
_OPENERS = {
    "and", "also", "oh", "so", "but", "plus", "btw", "anyway", "right", "ok", "okay", "well",
    "then", "um", "umm", "erm", "uh", "ah", "yeah", "yes", "hmm", "oh,", "ps",
}  # fmt: skip
#: Subjects that name something new: a message opening on one starts its own sentence.
_OWN_SUBJECT = re.compile(
    r"^(?:i|i'm|i’m|im|i've|i’ve|ive|i'll|i’ll|i'd|i’d|we|we're|we’re|we've|we’ve|we'll|"
    r"you|you're|you’re|you've|you’ve)$",
    re.I,
)
#: Subjects that point back at what was just said: "it", "they", "that".
_BACK = re.compile(
    r"^(?:it|it's|it’s|its|they|they're|they’re|they've|they’ve|they'll|that|that's|that’s|"
    r"this|there|there's|there’s|he|he's|he’s|she|she's|she’s)$",
    re.I,
)
_DETERMINERS = {"my", "our", "your", "his", "her", "their", "the", "a", "an", "this", "that"}
#: A word a sentence cannot end on: it wants the next message ("my pin is", "moved it to").
_DANGLING = (
    {"is", "are", "was", "were", "am", "be", "been", "has", "have", "had", "will", "would",
     "can", "could", "should", "to", "of", "for", "in", "on", "at", "by", "with", "from",
     "into", "until", "till", "about", "the", "a", "an", "my", "our", "your", "his", "her",
     "their", "its", "and", "or", "but", "so", "because", "than", "as", "that", "which",
     "who", "it's", "i'm", "we're", "they're", "you're", "he's", "she's", "there's", "is's"}
    | _OPENERS
)  # fmt: skip
#: A verb of a sentence: the closed words and the shapes of English verbs.
_VERB = re.compile(
    r"\b(?:is|are|was|were|am|be|been|has|have|had|do|does|did|can|could|will|would|should|"
    r"must|may|might|need|needs|got|get|gets|go|goes|went|says|said|wants?|moved?|left|"
    r"made|makes|took|takes|came|comes|sold|bought|told|sent|spent|lent|paid|gave|broke|fell|"
    r"ran|won|lost|met|kept|found|saw|brought|thought|felt|wrote|drove|flew|rang|began|chose|"
    r"put|set|let|quit|shut|[a-z]{2,}(?:ed|ing))\b|'s\s+(?:a|an|the|\d|on|at|in|"
    r"now|not|been|going|getting|moving)\b|'(?:re|m|ve|ll|d)\b|n't\b",
    re.I,
)
#: Words a message goes on the sentence before with, after "and" too ("and at 3", "and then").
_GOES_ON = {
    "at", "on", "in", "to", "for", "from", "by", "with", "until", "till", "before", "after",
    "around", "about", "then", "not", "too", "again", "also", "only", "just", "maybe",
    "probably", "that's", "thats",
}  # fmt: skip
_WORD = re.compile(r"[\w'’:-]+")


@dataclass(frozen=True)
class _Piece:
    """One message of a sentence: its time and its text, where its text begins in the
    sentence, and the acknowledgement said just before it, if any."""

    time: str
    text: str
    start: int
    ack: Message | None


@dataclass(frozen=True)
class _Sentence:
    """The sentence of two messages or more, as read, with its messages."""

    text: str
    pieces: tuple[_Piece, ...]


def _words(text: str) -> list[str]:
    return text.split()


def is_fragment(text: str) -> bool:
    """Whether a user's message may be joined to its neighbours (the module docstring)."""
    text = text.strip()
    words = _words(text)
    if not words or len(words) > MAX_WORDS or "\n" in text:
        return False
    if text.endswith((".", "?", "…")) or re.search(r"[.!?]\s+\S", text):
        return False  # a sentence of its own, or two
    if "[secret:" in text or mask(text)[1]:
        return False
    if re.search(r"[:;]\s|:$|\s[-–—]\s", text) or text.startswith(("-", "*", ">", "#", "|")):
        return False  # "Dentist - Dr Okafor", "Phone:", a list's item: a line of its own
    return not _ALONE.search(text)


def is_acknowledgement(message: Message) -> bool:
    """An assistant's message that only acknowledges ("Noted.", "ok", "Got it."): no
    question, no figure, a few words."""
    if message.kind != "assistant" or not isinstance(message.content, str):
        return False
    text = message.content.strip()
    return (
        len(_words(text)) <= _ACK_WORDS
        and "?" not in text
        and not re.search(r"\d", text)
        and "\n" not in text
    )


def _whole(sentence: str) -> bool:
    """Whether `sentence` could end here: it has a verb and its last word wants no other."""
    words = [w.lower().strip(",;:") for w in _words(sentence)]
    if not words or words[-1] in _DANGLING:
        return False
    return bool(_VERB.search(sentence))


def _opens(text: str) -> tuple[bool, bool]:
    """How a message starts: (it opens a sentence of its own, it points back at the one
    before)."""
    words = _words(text)
    first = words[0]
    if first[:1].isupper() and first.lower() in ENGLISH and first.lower() not in ("i", "i'm"):
        return True, False  # "The car", "So it's", "My brother": a capitalised word of function
    opened = False
    while words and words[0].lower().strip(",") in _OPENERS:
        words, opened = words[1:], True
    if not words:
        return False, False
    head = words[0].lower().strip(",")
    if _BACK.match(head):
        return False, True
    if _OWN_SUBJECT.match(head):
        return True, False
    if opened:  # "and my brother", "also the car", "and physio": a thing of its own
        return head not in _GOES_ON and not _VERB.fullmatch(head), False
    # "the car needs an MOT", "Tom is off": a subject and its verb
    subject = head in _DETERMINERS or (words[0][:1].isupper() and head not in ENGLISH)
    return subject and len(words) > 1 and bool(_VERB.search(" ".join(words[1:]))), False


def _glue(before: str, text: str, back: bool) -> str:
    """How the message goes on the sentence before: a clause pointing back after a comma."""
    if not re.search(r"\w", text):
        return ""  # "!!": a mark of the sentence before
    if before.endswith((",", ":", ";", "-", "—")) or not back or not _whole(before):
        return " "
    return ", "


def _runs(messages: Sequence[Message]) -> list[list[tuple[int, Message | None]]]:
    """The runs of fragments: each a list of (index of the message, the acknowledgement
    between it and the fragment before, if any)."""
    runs: list[list[tuple[int, Message | None]]] = []
    run: list[tuple[int, Message | None]] = []
    ack: Message | None = None
    for i, m in enumerate(messages):
        if m.kind == "user" and isinstance(m.content, str) and is_fragment(m.content):
            run.append((i, ack if run else None))
            ack = None
            continue
        if run and ack is None and is_acknowledgement(m):
            ack = m
            continue
        if len(run) > 1:
            runs.append(run)
        run, ack = [], None
    if len(run) > 1:
        runs.append(run)
    return runs


def _sentences(messages: Sequence[Message], run: list[tuple[int, Message | None]]):
    """The sentences a run of fragments makes: lists of (index, acknowledgement, text)."""
    out: list[list[tuple[int, Message | None, str]]] = []
    current: list[tuple[int, Message | None, str]] = []
    held: list[tuple[int, Message | None, str]] = []  # "and", "oh", "also": read with the next
    said = ""
    for i, ack in run:
        content = messages[i].content
        assert isinstance(content, str)
        text = content.strip()
        if all(w.lower().strip(",") in _OPENERS for w in _words(text)):
            held.append((i, ack, text))
            continue
        unit = " ".join([*(t for _, _, t in held), text])
        opens, _ = _opens(unit)
        if current and said.rstrip().endswith(("!", "?", ".")) and _WORD.search(unit):
            opens = True
        # "the car service due 4 June" / "Noted." / "and the vet …": what the assistant
        # acknowledged is over when "and", "also" opens a thing of its own after it
        acked = (held[0][1] if held else ack) is not None and unit.split()[0].lower() in _OPENERS
        if current and opens and (acked or _whole(said)):
            out.append(current)
            current, said = [], ""
        current += [*held, (i, ack, text)]
        said, held = f"{said} {unit}".strip(), []
    current += held
    if current:
        out.append(current)
    return out


def _joined_sentences(messages: Sequence[Message]) -> dict[int, tuple[_Sentence, list[int]]]:
    """Each sentence of two fragments or more, by the index of its first message, with the
    indexes of all its messages."""
    found: dict[int, tuple[_Sentence, list[int]]] = {}
    for run in _runs(messages):
        for parts in _sentences(messages, run):
            if len(parts) < 2:
                continue
            text, pieces = "", []
            for i, ack, said in parts:
                if text:
                    _, back = _opens(said)
                    text += _glue(text, said, back)
                pieces.append(_Piece(messages[i].time, said, len(text), ack))
                text += said
            found[parts[0][0]] = (_Sentence(text, tuple(pieces)), [i for i, _, _ in parts])
    return found


def joined(transcript: Transcript) -> Transcript:
    """`transcript` with each sentence typed over several short messages as one user
    message at the time of its first (the module docstring); the acknowledgements said
    between them follow it. The transcript itself when there is none."""
    messages = transcript.messages
    found = _joined_sentences(messages)
    if not found:
        return transcript
    inside = {i for _, members in found.values() for i in members[1:]}
    acks = {id(p.ack) for s, _ in found.values() for p in s.pieces[1:] if p.ack is not None}
    out: list[Message] = []
    for i, m in enumerate(messages):
        if i in inside or id(m) in acks:
            continue
        if i in found:
            sentence = found[i][0]
            out.append(Message("user", m.time, sentence.text))
            out += [p.ack for p in sentence.pieces[1:] if p.ack is not None]
            continue
        out.append(m)
    return replace(transcript, messages=tuple(out))


def unjoined(
    said: Iterable[tuple[str, str]], transcript: Transcript | None
) -> list[tuple[str, str]]:
    """`said` (sentences, each with the time of the message read, as `joined` gave them)
    put onto the messages of `transcript` they were typed in: a sentence of joined messages
    becomes the words of it each message holds, at that message's time."""
    said = list(said)
    if transcript is None or not said:
        return said
    by_time = {s.pieces[0].time: s for s, _ in _joined_sentences(transcript.messages).values()}
    if not by_time:
        return said
    out: list[tuple[str, str]] = []
    for time, text in said:
        sentence = by_time.get(time)
        out += [(time, text)] if sentence is None else _onto(sentence, text, time)
    return list(dict.fromkeys(out))


def _onto(sentence: _Sentence, text: str, time: str) -> list[tuple[str, str]]:
    """`text`, said of the joined `sentence`, as the words each of its messages holds."""
    flat = " ".join(text.split())
    at = sentence.text.lower().find(flat.lower().rstrip(".!?"))
    if at >= 0 and flat.strip(".!? "):
        end = at + len(flat.rstrip(".!?"))
        out = []
        for p in sentence.pieces:
            lo, hi = max(at, p.start), min(end, p.start + len(p.text))
            if lo < hi:
                piece = p.text[lo - p.start : hi - p.start].strip(" ,;:")
                if piece:
                    out.append((p.time, piece))
        return out
    # rewritten on the way (a figure said in words, a date given its year): the messages
    # whose words it holds whole
    whole = [(p.time, p.text) for p in sentence.pieces if p.text.lower() in text.lower()]
    return whole or [(time, text)]
