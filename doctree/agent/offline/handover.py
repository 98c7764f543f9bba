"""A note the user wrote for another reader, pasted as a quote: read as the user's own text.

Instructions for a house-sitter, a babysitter or a colleague covering, a message to a
landlord, a handover: the user says it is theirs ("the note I'm leaving for the sitter",
"here's what I wrote to my landlord", "mon mot pour la nounou") and quotes it (`>`). Its "I"
and "we" are the user; its "you" is its reader; its lines ("feed her at 7", "the stopcock is
under the sink") are facts about the user's own home, pets, people and routines. Such a block
is opened, as a fenced note is (`blocks.py`): its quote marks, greeting and sign-off dropped,
its lines read as the user's. A quoted block that someone else wrote ("the note the sitter
left me", "Ana wrote:") is never the user's, and stays what `segment.py` makes of it.
"""

from __future__ import annotations

import re

from doctree.agent.offline.language import NAME
from doctree.agent.offline.prefilter import gate_patterns

#: The user as a note's writer: a first-person subject, then a verb of writing or leaving a
#: note, in the languages the agent reads: "I'm leaving for Lena", "I wrote to the landlord",
#: "we've put together", "j'ai écrit", "ich habe … geschrieben", "he escrito", "escrevi".
_I_WROTE = re.compile(
    r"\b(?:I|I'm|I['’]m|I am|I've|I['’]ve|I have|I'll|I['’]ll|I will|I just|we|we're|we['’]re"
    r"|we've|we['’]ve|we have|we just)\s+(?:just\s+|already\s+|finally\s+|quickly\s+)?"
    r"(?:wrote|written|write|writing|left|leaving|leave|sent|sending|send|drafted|drafting"
    r"|typed|typing|put\s+together|putting\s+together|prepared|preparing|jotted|scribbled"
    r"|printed|stuck|pinned)\b"
    r"|\bmy\s+(?:[\w-]+\s+)?(?:note|notes|message|letter|e-?mail|text|instructions|handover"
    r"|hand-over|brief|list|reply|answer)\s+(?:for|to)\b"
    r"|\b(?:j['’]ai|je|nous\s+avons|on\s+a)\s+(?:écrit|laissé|laisse|envoyé|envoie|rédigé"
    r"|préparé)\b|\bmon\s+(?:mot|message|courrier|mail)\s+(?:pour|à)\b"
    r"|\b(?:ich|wir)\b[^.!?\n]{0,40}?\b(?:geschrieben|hinterlassen|hinterlasse|geschickt"
    r"|schicke|schreibe|schrieb|vorbereitet)\b"
    r"|\bmeine?\s+(?:Notiz|Nachricht|Zettel|Übergabe|Mail|Brief)\s+(?:für|an)\b"
    r"|\b(?:he|hemos)\s+(?:escrito|dejado|enviado|preparado)\b|\b(?:le\s+)?(?:escribí|dejé"
    r"|envié)\b|\bmi\s+(?:nota|mensaje|carta|correo)\s+(?:para|a)\b"
    r"|\b(?:escrevi|deixei|mandei|enviei)\b|\bminha\s+(?:nota|mensagem|carta)\s+(?:para|ao?)\b",
    re.I,
)
#: Someone else as the writer, in the same line: "the note the sitter left me", "what Ana
#: sent us", "a letter from the council", "I got this from my landlord".
_OTHER_WROTE = re.compile(
    r"\b(?:wrote|sent|left|texted|emailed|e-mailed|forwarded|gave|passed)\s+(?:me|us)\b"
    r"|\b(?:from|by|von|de\s+la|de\s+mi|del)\s+(?:my|our|the|his|her|their|mon|ma|meinem"
    r"|meiner|der|dem|mi)\b"
    rf"|\bfrom\s+{NAME}|\b(?:got|received|forwarding|forwarded|copied|came)\b"
    r"|\b(?:m['’]a|nous\s+a)\s+(?:écrit|laissé|envoyé)\b|\bhat\s+mir\b|\bme\s+(?:escribió"
    r"|dejó|mandó|envió)\b",
    re.I,
)
#: The greeting a note opens with, and a line of thanks after it: "Hi Lena! Thank you SO
#: much.", "Dear Mr Hale,", "Bonjour Inès,", "Hallo Jonas,", "Hola Marta:".
_GREETING = re.compile(
    r"^(?:(?:Hi|Hello|Hey|Hiya|Dear|Morning|Bonjour|Salut|Chère?|Hallo|Hi|Liebe[rs]?|Lieber"
    r"|Hola|Querid[oa]s?|Olá|Oi|Cara?o?)\b[^!,.:;\n—–]{0,40}[!,.:;—–]+\s*)"
    r"(?:(?:Thank\s+you|Thanks|Merci|Danke|Gracias|Obrigad[oa])\b[^.!?\n]{0,60}[.!?]+\s*)?",
    re.I,
)
#: A closing line: "x", "xx", "Love, Sam", "Thanks! Tess", "Cheers — J", "Bisous", "LG Anna".
_SIGN_OFF = re.compile(
    r"^(?:[xX]{1,4}|(?:(?:with\s+)?love|lots\s+of\s+love|thanks(?:\s+again)?|thank\s+you|cheers"
    r"|best(?:\s+wishes)?|kind\s+regards|regards|see\s+you(?:\s+soon)?|bisous|merci|danke|LG"
    r"|liebe\s+Grüße|viele\s+Grüße|besos|un\s+abrazo|gracias|beijos|obrigad[oa])"
    r"(?:[\s,!.—–-]+[\w.]+){0,2}?)[\s,!.xX]*$",
    re.I,
)
#: A heading of the note that says nothing by itself: "The basics:", "Important:".
_HEADING = re.compile(r"^[^\s:]+(?:\s+[^\s:]+){0,2}\s*:$")


def is_own_note_intro(text: str) -> bool:
    """Whether `text`, the user's lines just above a quoted block, says the user wrote the
    block for someone to read ("the note I'm leaving for the sitter", "my message to the
    landlord"), and names no one else as its writer."""
    return bool(_I_WROTE.search(text)) and not _OTHER_WROTE.search(text)


def note_lines(block: list[str]) -> list[str]:
    """The lines of a note the user wrote (its quote marks already dropped), without its
    greeting, its line of thanks, its sign-off and its bare headings."""
    lines = [x.strip() for x in block]
    while lines and not lines[0]:
        lines.pop(0)
    if lines:
        lines[0] = _GREETING.sub("", lines[0], count=1).strip()
    while lines and (not lines[-1] or _SIGN_OFF.fullmatch(lines[-1])):
        lines.pop()
    if lines and lines[-1]:  # "… by Saturday. x": a sign-off after the last sentence
        lines[-1] = re.sub(r"(?<=[.!?])\s+[xX]{1,4}$", "", lines[-1])
    return [x for x in lines if not _HEADING.fullmatch(x)]


def open_own_notes(text: str) -> str:
    """`text` (a user message) with each quoted (`>`) block the lines above it say the user
    wrote for another reader opened: its lines read as the user's own (`note_lines`). A
    quoted block anyone else wrote stays quoted."""
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        if not lines[i].lstrip().startswith(">"):
            out.append(lines[i])
            i += 1
            continue
        end = i
        while end < len(lines) and lines[end].lstrip().startswith(">"):
            end += 1
        block = [re.sub(r"^\s*>\s?", "", x) for x in lines[i:end]]
        if is_own_note_intro(_intro(out)) and not _quotes_another(block):
            out.extend(["", *note_lines(block), ""])
        else:
            out.extend(lines[i:end])
        i = end
    return "\n".join(out)


def _intro(above: list[str]) -> str:
    """The paragraph just above a quoted block: its introducing line or lines."""
    para: list[str] = []
    for line in reversed(above):
        if not line.strip():
            if para:
                break
            continue
        if line.lstrip().startswith(">"):
            break
        para.insert(0, line.strip())
    return " ".join(para)[-400:]


def _quotes_another(block: list[str]) -> bool:
    """Whether a quoted block is a mail or a message of someone else's itself: it opens on a
    mail header or holds an "Ana wrote:" line of its own."""
    head = next((x for x in block if x.strip()), "")
    return bool(
        re.match(r"\s*(?:From|De|Von|Subject|Objet|Betreff|Asunto|Date)\s*:", head)
        or any(
            re.search(r"\b(?:wrote|a écrit|schrieb|escribió|escreveu)\s*:\s*$", x) for x in block
        )
    )


gate_patterns(globals())  # the cheap test in front of every pattern above (prefilter.py)
