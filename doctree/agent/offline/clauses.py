"""A statement cut at its clauses, so that a request to forget one thing takes that clause
and leaves the others said with it ("Ines is staying at the B&B and she sleepwalks" without the
sleepwalking is "Ines is staying at the B&B.").

A statement is cut at ";", at commas, at "and" / "but" before a new subject, at "but", "so",
"because" and at relative clauses ("…, who …", "…, which …"). A clause that leans on the one
before it ("so …", "because …", "which …", "it …") goes with that one when it goes. What is
left is kept only when it still reads as a statement: three words at least, a subject first
and a verb in it; otherwise nothing is kept, and the caller drops the whole line, since a
line a word short of what was forgotten is worse than no line.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from doctree.agent.offline.forms import said_forms
from doctree.agent.offline.language import NOT_NAMES, content_words, mentions, stem
from doctree.agent.offline.memo import remembered
from doctree.stopwords import ENGLISH

#: Subjects a clause can open with, in the languages the agent reads requests in.
_SUBJECT = (
    r"(?:i|you|he|she|it|we|they|there|this|that|je|tu|il|elle|on|nous|vous|ils|elles|ich|du|"
    r"er|sie|es|wir|ihr|yo|él|ella|nosotros|ellos|ellas|ik|jij|hij|zij|wij|io|lui|lei|noi|"
    r"loro|eu|ele|ela|nós|eles|elas|ja|on|ona|my|oni)"
)
#: Words that join two clauses as equals ("and", "but"), in those languages.
_COORDINATE = r"(?:and|but|yet|or|et|mais|ou|und|aber|oder|y|pero|en|maar|e|ma|mas|ale)"
#: Words that open a clause leaning on the one before it.
_DEPENDENT = (
    r"(?:so|because|since|as|which|who|whom|whose|where|while|whereas|although|though|"
    r"parce\s+que|car|donc|qui|weil|denn|also|porque|así\s+que|omdat|dus|perché|quindi|"
    r"porque|então|bo|więc)"
)
#: A clause that continues the thing said before it: its subject is that thing.
_CONTINUES = re.compile(
    rf"^(?:{_DEPENDENT}|it|its|this|that|these|those|they|their|there|then|he|she|his|her|him)\b",
    re.I,
)
_SEPARATOR = re.compile(
    r"\s*;\s*"
    rf"|,\s+(?={_COORDINATE}\s|{_DEPENDENT}\b)"
    rf"|\s+(?={_COORDINATE}\s+{_SUBJECT}\b)"
    # "… and Ines has booked the B&B": a new clause of a named subject
    r"|\s+(?=(?:and|but)\s+(?-i:[A-Z])[\w-]+(?:['’]s)?\s+(?-i:[a-z]))"
    # "… and the user's gym is Urban Climb", "… but her car was sold": a new clause whose
    # subject is a thing someone has
    r"|\s+(?=(?:and|but)\s+(?:the\s+user['’]s|my|our|his|her|their|the)\s+(?:[\w'’-]+\s+){1,2}?"
    r"(?:is|are|was|were|has|have|had|will)\b)"
    r"|\s+(?=(?:but|because|whereas|although)\s)"
    # "… and the user plays the cello": the user's "I" as a line says it
    r"|\s+(?=(?:and|but)\s+the\s+user\s+(?-i:[a-z]))"
    r"|,\s+",
    re.I,
)
_SENTENCE_BREAK = re.compile(r"[.!?…]\s+\W*[^\W\d_]")
_LEADING_COORDINATE = re.compile(rf"^{_COORDINATE}\s+", re.I)
#: A clause that opens on its verb, the subject said before it: "has offered to …", "will
#: come on the 3rd", "is staying the week".
_PREDICATE = re.compile(
    r"^(?:has|have|had|is|are|was|were|will|would|can|could|should|may|might|must)\s+\w",
    re.I,
)
_RELATIVE = re.compile(r"^(?:who|whom|whose|which|where|qui|que)\b", re.I)
#: Words that are verbs in any statement: the auxiliaries and the commonest verbs.
_AUX = re.compile(
    r"\b(?:is|are|was|were|be|been|am|has|have|had|do|does|did|will|would|can|could|shall|"
    r"should|may|might|must|'s|'re|'m|'ve|'ll|'d|est|sont|était|ont|va|ist|sind|war|hat|"
    r"haben|wird|es|son|está|están|era|tiene|ha|han|is|zijn|heeft|was|è|sono|ha|hanno|é|são|"
    r"tem|foi|jest|są)\b"
    r"|\b[a-z]{2,}(?:s|ed|ing)\b",
    re.I,
)

_PREPOSITION = re.compile(
    r"^(?:on|at|in|for|with|after|before|during|by|from|to|since|until|last|next|this|"
    r"à|au|en|dans|pour|avec|après|avant|am|im|an|mit|nach|vor|für|bei|el|en|con|para|después|"
    r"antes|op|met|na|voor|con|dopo|prima|per|em|com|depois|w|z|po|przed)$",
    re.I,
)


@dataclass
class _Clause:
    joiner: str  # what joined it to the clause before ("" for the first)
    text: str


def clauses(statement: str) -> list[str]:
    """The clauses of `statement`, each as said, its joining words left out."""
    return [c.text for c in _cut(statement.rstrip(" .!?"))]


@remembered
def cut(statement: str) -> list[tuple[str, str]]:
    """The clauses of `statement` as said, each with the words that joined it to the one
    before ("" for the first): joined again, they are the statement."""
    return [(c.joiner, c.text) for c in _cut(statement)]


def _cut(text: str) -> list[_Clause]:
    out: list[_Clause] = []
    start, joiner = 0, ""
    for m in _SEPARATOR.finditer(text):
        if m.start() == 0 or m.end() >= len(text) or _inside_brackets(text, m.start()):
            continue  # "(Ines, not Gran)" is one aside, cut nowhere inside
        piece = text[start : m.start()]
        if piece.strip():
            out.append(_Clause(joiner, piece.strip()))
            start, joiner = m.end(), m.group(0)
    tail = text[start:].strip()
    if tail:
        out.append(_Clause(joiner, tail))
    return out


def _inside_brackets(text: str, at: int) -> bool:
    """Whether position `at` of `text` is inside parentheses, brackets or quotation marks."""
    before = text[:at]
    depth = before.count("(") - before.count(")") + before.count("[") - before.count("]")
    quotes = before.count("“") - before.count("”") + before.count('"') % 2
    return depth > 0 or quotes > 0


def without(statement: str, said: Callable[[str], bool]) -> str | None:
    """`statement` without the clauses `said` holds true of (and those leaning on them), or
    None when no clause alone says it or what is left would not read as a statement."""
    end = statement[len(statement.rstrip(" .!?")) :].strip() or "."
    if _SENTENCE_BREAK.search(statement.rstrip(" .!?")):
        return None  # the sentences after the first go on about what it says
    parts = _cut(statement.rstrip(" .!?"))
    if len(parts) < 2:
        return None
    gone = [said(p.text) for p in parts]
    if not any(gone):
        return None
    for i in range(1, len(parts)):  # a clause leaning on one that goes goes with it
        if gone[i - 1] and not gone[i] and _CONTINUES.match(_bare(parts[i])):
            gone[i] = True
    kept = [(i, p) for i, p in enumerate(parts) if not gone[i]]
    if not kept:
        return None
    if any(
        gone[i] and _PREDICATE.match(parts[i].text.strip()) and all(gone[i:])
        for i in range(1, len(parts))
    ):
        # "…, the delightful Brenda, has offered to stay the week": what goes is the
        # predicate of the subject before it, all of what follows it; the subject says
        # nothing left alone
        return None
    text = ""
    for n, (i, p) in enumerate(kept):
        if n == 0:
            text = _LEADING_COORDINATE.sub("", p.text) if i else p.text
        elif gone[i - 1] and _RELATIVE.match(parts[i - 1].text):
            text += " " + p.text  # "Ines, who sleepwalks, is staying …" -> "Ines is staying …"
        else:
            text += p.joiner + p.text
    text = text.strip(" ,;")
    if not _reads_as_statement(text, kept[0][0] == 0):
        return None
    return text[:1].upper() + text[1:] + end


def _bare(p: _Clause) -> str:
    """The clause with the joining word that opened it ("so it …" when "," joined it)."""
    return (p.joiner.strip(" ,;") + " " + p.text).strip()


def _reads_as_statement(text: str, first_kept: bool) -> bool:
    words = text.split()
    if len(words) < 3:
        return False
    head = words[0]
    opens = (
        first_kept
        or head[:1].isupper()
        or re.match(rf"^{_SUBJECT}$", head, re.I) is not None
        or head.lower() in ("my", "his", "her", "our", "their", "the")
    )
    if not opens:
        return False
    if _AUX.search(" ".join(words[1:])) is not None:
        return True
    # a verb of another language is not told by its form: the subject's own clause of four
    # words or more, not opened by a preposition ("On the day after the party"), is kept
    return first_kept and len(words) >= 4 and not _PREPOSITION.match(head)


#: A page line of a fact: "- 2027-05-03: <statement> ([[session]]) …".
_FACT_LINE = re.compile(r"^(?P<head>- (?:\d{4}-\d\d-\d\d: )?)(?P<body>.+?)(?P<tail> \(\[\[.*)?$")
#: A labelled line ("- Relation: …", "- Role: …"): one fact, never cut.
_LABELLED = re.compile(r"^- [^:\[\d][^:\[]{0,39}: ")


def clause_left(statement: str, thing: set[str]) -> str | None:
    """`statement` without its clauses that say `thing` (content words of what is
    forgotten, in any of their forms) and those leaning on them; None when no clause alone
    says it, what is left would not read as a statement, or a word of `thing` is still in
    it."""
    out = without(statement, lambda c: mentions(said_forms(c), thing))
    if out is None:
        return None
    left = {stem(w) for w in re.findall(r"[^\W_]+", out.lower())}
    return None if left & {stem(w) for w in thing} else out


def forget_clause(line: str, thing: set[str]) -> str | None:
    """A fact line of a page without the clauses of its statement that say `thing`, None
    when the whole line goes (see `clause_left`; a labelled line is never cut)."""
    m = _FACT_LINE.match(line)
    if m is None or _LABELLED.match(line) or "`" in m.group("body"):
        return None  # a quoted opening or code span is cut nowhere
    body = clause_left(m.group("body"), thing)
    return None if body is None else f"{m.group('head')}{body}{m.group('tail') or ''}"


def names_any(text: str, persons: tuple[str, ...]) -> bool:
    """Whether `text` names one of `persons` (every content word of the name in it)."""
    said = {w.lower() for w in re.findall(r"[^\W_]+", text)}
    return any(content_words(p) and content_words(p) <= said for p in persons)


#: A sentence that opens on a pronoun as its subject: "She's in the spare room …".
_OPENS_ON_PRONOUN = re.compile(
    r"^\W*(?:(?:and|but|so|then|also|plus)\s+)?(?:she|he)(?:['’](?:s|ll|d)\b|\s)", re.I
)


def another_subject(sentence: str) -> bool:
    """Whether a sentence that opens on "she" or "he" names someone as the subject of a
    clause of its own ("She's in the spare room and Rosa's booked the inn"): the pronoun is
    not that person, and the sentence says things of two people, so which of its lines is
    whose is not sure."""
    if not _OPENS_ON_PRONOUN.match(sentence):
        return False
    for part in _cut(sentence)[1:]:
        m = re.match(
            r"^(?:(?:and|but|while|whereas)\s+)?(?P<name>(?-i:[A-Z])[\w-]+)(?:['’]s)?\s+[a-z]",
            _bare(part),
        )
        if m and m["name"] not in NOT_NAMES and m["name"].lower() not in ENGLISH:
            return True
    return False
