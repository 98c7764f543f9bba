"""Scripts: a conversation the user wrote up as lines of speakers ("Receptionist: …", "Me: …").

A phone call or a meeting written as a script opens each line on who spoke. Read as plain
lines, a label is taken for what the line is about and the "I" of the other side for the
user's. A block is a script when four lines or more in a row each open on a short label (a
name or a role), two labels or more take turns, and one of them is the user ("Me", "I",
"Myself"): the user's lines are the user's own words, every other line is its speaker's. What
the other side offers and the user's next line turns down ("I'm at work then, anything
later?", "no, that's no good") is no fact; a "yes" the other side gives to the user's
question is said with the question ("Yes, that's £9 on top" to "Can he have his nails
clipped?").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from doctree.agent.offline.language import MAIL_HEADER
from doctree.agent.offline.prefilter import gate_patterns

#: A line of a script: a label of one to three words, the first capitalised, then a colon.
_LINE = re.compile(
    r"^\s*(?:[-*]\s+)?(?P<label>[A-Z][\w'’.-]*(?:\s+[A-Za-z][\w'’.-]*){0,2})\s*:\s+(?P<text>\S.*)$"
)
#: The labels that are the user.
_USER = frozenset({"me", "i", "myself", "user", "the user"})
#: A reply that turns down what was offered: "no", "I can't", "I'm at work then", "he's at
#: school then", "anything later?", "anything after 3?", "that doesn't work", "not then".
_TURNED_DOWN = re.compile(
    r"^\W*(?:no\b|nope\b|nah\b|not\s+(?:then|that|really)\b)"
    r"|\b(?:I|we)\s+(?:can't|cannot|can\s+not|won't\s+be\s+able)\b"
    r"|\b(?:I'm|I\s+am|we're|we\s+are|he's|he\s+is|she's|she\s+is|they're|they\s+are)\s+"
    r"(?:at\s+(?:work|school|college)|busy|away|out|working|not\s+free|on\s+holiday)\b"
    r"|\b(?:anything|something|any\s+\w+)\s+(?:later|earlier|sooner|else|after|before)\b"
    r"|\b(?:doesn't|does\s+not|won't|wouldn't)\s+(?:work|suit|do)\b|\bno\s+good\b",
    re.I,
)
#: A reply that says yes: "Yes, …", "Yeah", "Sure", "Of course", "We can".
_YES = re.compile(r"^\W*(?:yes|yeah|yep|sure|of\s+course|certainly|absolutely|we\s+can)\b", re.I)
#: Script lines in a row that make a script; label changes that make them take turns.
MIN_LINES, MIN_TURNS = 4, 2


@dataclass
class ScriptLine:
    """A line of a script as it is to be read: its speaker (None: the user) and its text;
    `asked`: the user's question a "yes" of it answers."""

    speaker: str | None
    text: str
    asked: str | None = None


def _label(m: re.Match[str]) -> str:
    return " ".join(m.group("label").split())


def read_script(lines: list[str]) -> list[ScriptLine] | None:
    """The lines of a script (`lines`, each opening on its speaker), each with the user's
    lines as the user's own, what the user turned down left out; None when they are no
    script: fewer than `MIN_LINES` lines, labels that do not take turns, none of them the
    user, or a mail's header among them."""
    found = [m for ln in lines if (m := _LINE.match(ln))]
    if len(found) < MIN_LINES or len(found) != len(lines):
        return None
    labels = [_label(m) for m in found]
    if any(MAIL_HEADER.fullmatch(x) for x in labels) or not any(x.lower() in _USER for x in labels):
        return None
    turns = sum(1 for a, b in zip(labels, labels[1:], strict=False) if a != b)
    if len(set(labels)) < 2 or turns < MIN_TURNS:
        return None
    out: list[ScriptLine] = []
    for i, (m, label) in enumerate(zip(found, labels, strict=True)):
        text = m.group("text").strip()
        if label.lower() in _USER:
            out.append(ScriptLine(None, text))
            continue
        reply = next(
            (found[j].group("text") for j in range(i + 1, len(found)) if labels[j] != label),
            None,
        )
        replier = next((labels[j] for j in range(i + 1, len(found)) if labels[j] != label), "")
        if reply is not None and replier.lower() in _USER and _TURNED_DOWN.search(reply):
            continue  # offered and turned down: no fact
        before = out[-1] if out else None
        asked = None
        if before is not None and before.speaker is None and _YES.match(text):
            question = re.findall(r"[^.!?]*\?", before.text)
            asked = question[-1].strip() if question else None
        out.append(ScriptLine(label, text, asked))
    return out


def scripts(lines: list[str]) -> dict[int, tuple[int, list[ScriptLine]]]:
    """Each script among `lines` (a run of lines, each opening on its speaker, outside any
    fence): its first line's index -> (the index after its last line, its lines as read)."""
    found: dict[int, tuple[int, list[ScriptLine]]] = {}
    i = 0
    fenced = False
    while i < len(lines):
        if lines[i].strip()[:3] in ("```", "~~~"):
            fenced = not fenced
        if fenced or not _LINE.match(lines[i]):
            i += 1
            continue
        end = i
        while end < len(lines) and _LINE.match(lines[end]):
            end += 1
        if (read := read_script(lines[i:end])) is not None:
            found[i] = (end, read)
        i = end
    return found


gate_patterns(globals())  # the cheap test in front of every pattern above (prefilter.py)
