"""A pasted record about someone else: its lines are about the one its opening line names.

A form, a referral, a report card or a clinical handover is pasted as a run of labelled
lines, and only the first of them names whose record it is: "Patient: Biscuit, 4, beagle"
then "Allergy: chicken", "Meds: 5mg prednisolone daily". Read alone, "Allergy: chicken" has
no subject, and a line with none is the user's, so the dog's allergy would be filed as the
user's own. `read_subject` says each such line with the name its record opens on
("Biscuit: Allergy: chicken."), so that it lands on their page and never among the user's
preferences or health.

The record is a run of three or more labelled lines ("Label: value", "Label - value", a
bullet or a quote mark before it allowed), with no blank line between them. Its opening
line names its subject: under a label that says whose record it is ("Patient", "Client",
"Pupil", "Name", "Re") or a section's letter or number ("S -", "1."), its value opens on a
name, one person alone ("Tomasz and Ewa Nowak" names two: nothing changes). A sentence that
says its own subject (opens on a name, a pronoun or a possessive), or already names the
record's subject, is left as said. When the name is the user's own (one they go by, or one
the message says is theirs: "I'm …", "my name is …"), the record is the user's, as it was.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from doctree.agent.offline.language import NAME_WORD, NOT_NAMES, TITLE
from doctree.agent.offline.prefilter import gate_patterns

#: The fewest labelled lines a record has.
MIN_LINES = 3
#: A labelled line: an optional bullet or quote mark and bold, a label of one to three words,
#: a colon or a dash with a space either side, its value.
_LABELLED = re.compile(
    r"^(?P<lead>\s*(?:>\s*)?(?:[-*+•]\s+|\d{1,2}[.)]\s+)?)(?:\*\*)?"
    r"(?P<label>[^\W_][\w'’/.&-]*(?:\s+[\w'’/.&-]+){0,2}?)(?:\*\*)?"
    r"\s*(?::|\s[-–—])\s+(?P<value>\S.*?)\s*$"
)
#: A label that says whose record it is, in the languages the agent reads.
_WHOSE = re.compile(
    r"(?:(?:full\s+|pet['’]?s\s+|child['’]?s\s+|patient['’]?s\s+)?name|patient|client|pupil"
    r"|student|tenant|resident|child|member|applicant|candidate|customer|service\s+user"
    r"|subject|re|regarding|pet|animal|nom|name\s+des\s+kindes|nombre|nome|paciente"
    r"|patient\(e\)|élève|alumno|aluno|schüler(?:in)?|mieter(?:in)?|locataire|inquilino)",
    re.I,
)
#: A record's opening line under a label that says whose record it is, other than a bare
#: "Name" (a form of the user's own opens on one as often): "Patient: Biscuit Fenwick, 6",
#: "Client - Ada Moss": the name it opens on is someone's, a person of their own.
RECORD_OF = re.compile(
    r"^\W{0,3}(?:\d{1,2}[.)]\s+)?(?P<label>(?i:(?!(?:full\s+)?name\b)" + _WHOSE.pattern + r"))"
    rf"\s*(?::|\s[-–—])\s+(?P<name>(?:{TITLE})?{NAME_WORD}(?:\s+{NAME_WORD}){{0,2}})"
    r"(?=\s*(?:[,(;.]|$))(?!\s*(?:and|&|\+|/|with)\s)"
)
#: A section's letter or number: "S", "B", "1", "2a", "IV".
_SECTION = re.compile(r"[A-Z]|\d{1,2}[a-z]?|[IVX]{1,4}")
#: A thing named by a word and its number, a record's opening label: "EP 47", "Job 112",
#: "Flat 3B", "Lot #14".
_NUMBERED = re.compile(r"[^\W\d_]{2,12}\.?\s*#?\d{1,4}[A-Za-z]?")
#: The name a record's opening value opens on: a title allowed, one to three name words, then
#: its end, a comma, a bracket, a semicolon or a full stop.
_OPENING = re.compile(
    rf"^(?P<name>(?:{TITLE})?{NAME_WORD}(?:\s+{NAME_WORD}){{0,2}})(?P<after>\s*(?:[,(;.]|$).*)$"
)
#: A second person beside the first: "Ewa and Piotr", "Ewa & Piotr", "Ewa / Piotr".
_TWO = re.compile(r"^\s*(?:and|&|\+|/|with)\s+\S", re.I)
#: A sentence that says its own subject: a pronoun, a possessive, a name.
_OWN_SUBJECT = re.compile(
    r"^(?:I|I['’]m|I['’]ve|I['’]ll|I['’]d|me|my|we|our|he|she|they|his|her|their|it|its|you|your"
    r"|this|that|there)\b",
    re.I,
)
#: Where a sentence ends in a line: not after a short abbreviation ("Dr. Ng", "St. Ives").
_SENTENCE = re.compile(
    r"(?<![A-Z][a-z]\.)(?<!\b[A-Z]\.)(?<![A-Z][a-z][a-z]\.)(?<=[.!?])\s+(?=[A-Z\"'(])"
)


def _form_line(line: str) -> bool:
    """Whether `line` is a form's labelled line: its label written as a form's is, opening
    on a capital or a figure ("Allergy:", "ALLERGY:", "S -"); a lowercase key ("pupil:",
    "slot:") is a file's (YAML, a config), not a form's."""
    m = _LABELLED.match(line)
    return m is not None and not m.group("label")[:1].islower()


def _subject(line: str) -> str | None:
    """The one person a record's opening `line` names, or None."""
    m = _LABELLED.match(line)
    if m is None:
        return None
    label = m.group("label").strip()
    if _NUMBERED.fullmatch(label):
        return label  # "EP 47 — …": the record is the numbered thing's
    if not (_WHOSE.fullmatch(label) or _SECTION.fullmatch(label)):
        return None
    o = _OPENING.match(m.group("value"))
    if o is None or _TWO.match(o.group("after")):
        return None
    name = o.group("name")
    if any(w in NOT_NAMES for w in name.split()[:1]):
        return None
    return name


def _is_users(name: str, text: str, names: Collection[str]) -> bool:
    """Whether `name` is the user's own: one they go by, or one `text` says is theirs."""
    words = [w for w in name.split() if w not in ("Dr", "Mr", "Mrs", "Ms", "Mx")]
    if any(w in names for w in words) or name in names:
        return True
    first = re.escape(words[0]) if words else re.escape(name)
    return bool(
        re.search(
            rf"\b(?:I['’]m|I\s+am|my\s+name\s+is|my\s+name['’]s|this\s+is)\s+{first}\b"
            rf"|\b{first}\s+\((?:me|myself|that['’]s\s+me)\)",
            text,
            re.I,
        )
    )


def _names_someone(words: str, text: str) -> bool:
    """Whether `words` (the opening of a sentence or a value) open on a person: a title and
    a name, two name words, or one name word `text` also writes after a small word
    ("daughter Marta", "with Marta"), as a name is and a capitalised first word is not."""
    if _OWN_SUBJECT.match(words):
        return True
    m = re.match(rf"(?P<title>{TITLE})?(?P<w>{NAME_WORD})(?P<w2>\s+{NAME_WORD})?\b", words)
    if m is None or m.group("w") in NOT_NAMES:
        return False
    if m.group("title") or m.group("w2") and m.group("w2").strip() not in NOT_NAMES:
        return True
    return bool(re.search(rf"\b[a-z]+[ \t]+{re.escape(m.group('w'))}\b", text))


def _said_with(sentence: str, name: str, text: str) -> str:
    """`sentence` said with `name` as its subject, unless it says its own or names `name`."""
    words = [w for w in name.split() if len(w) > 2]
    if any(re.search(rf"\b{re.escape(w)}\b", sentence) for w in words):
        return sentence
    if _names_someone(sentence, text):
        return sentence
    return f"{name}: {sentence}"


def read_subject(text: str, names: Collection[str] = ()) -> str:
    """`text` with each line of a pasted record about someone (a run of `MIN_LINES` or more
    labelled lines whose opening line names one person) said with that person's name; text
    with no such record, or a record of the user's own, as it is."""
    if text.count("\n") < MIN_LINES - 1:
        return text
    lines = text.split("\n")
    out = list(lines)
    i = 0
    while i < len(lines):
        j = i
        while j < len(lines) and lines[j].strip() and _form_line(lines[j]):
            j += 1
        if j - i < MIN_LINES:
            i = max(j, i + 1)
            continue
        name = _subject(lines[i])
        if name is not None and _NUMBERED.fullmatch(name):
            labels = [_LABELLED.match(x) for x in lines[i + 1 : j]]
            if any(x and re.search(r"\d", x.group("label")) for x in labels):
                name = None  # "Day 1: …", "Day 2: …": a list of numbered things, no record
        if name is not None and not _is_users(name, text, names):
            for k in range(i, j):
                m = _LABELLED.match(lines[k])
                assert m is not None
                if k > i and _names_someone(m.group("value"), text):
                    continue  # "Next of kin: Ewa Nowak": a line about someone else
                lead = m.group("lead")
                body = lines[k][len(lead) :]
                said = _SENTENCE.split(body.strip())
                if k == i:
                    said = said[:1] + [_said_with(s, name, text) for s in said[1:]]
                else:
                    said = [_said_with(s, name, text) for s in said]
                out[k] = lead + " ".join(said)
        i = j
    return "\n".join(out)


gate_patterns(globals())  # the cheap test in front of every pattern above (prefilter.py)
