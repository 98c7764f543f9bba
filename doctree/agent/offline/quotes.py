"""Quotes: the labelled values of a quoted (`>`) letter, e-mail or notice, read as what it holds.

A letter the user pastes with `>` on each line often sets its particulars out one to a line
("Policy number: HL-12-345", "Reference: 88/2031", "Contact: desk@example.org", "Due date: 14
March"). Such a line is a record a person would note whatever the rest of the letter says: it
is read as a statement of its own, never run into the sentence around it. A label that names
a secret (a password, a PIN, a token) gives no statement.
"""

from __future__ import annotations

import re

#: "Policy number: HL-12-345", "Due date - 14 March", "Contact e-mail: a@b.org": a label of at
#: most five words opening on a capital, then its value.
_FIELD = re.compile(
    r"^(?P<label>[A-ZÀ-ÖØ-Þ][^\W\d_'’./&()-]*(?:[^\W\d]|['’./&()-])*"
    r"(?:[ \t]+(?:[^\W\d]|['’./&()#-])+){0,4}?)[ \t]*(?::|[ \t]-[ \t])"
    r"[ \t]*(?P<value>\S.{0,118}?)[ \t]*$"
)
#: A value worth a line: it holds a digit, an address, or a code of capitals and digits.
_NOTED_VALUE = re.compile(r"\d|[\w.+-]+@[\w-]+\.\w|\b[A-Z]{2,}[-/]\w")
#: A label that names a secret: its value is never stated.
_SECRET_LABEL = re.compile(
    r"\b(?:pass(?:word|code|phrase)?|pin|token|secret|key|otp|cvv|cvc|security\s+code)\b", re.I
)
#: A label that is a mail's own header or a greeting, read elsewhere.
_NOT_LABEL = re.compile(
    r"^(?:From|To|Cc|Bcc|Sent|Date|Subject|Reply-To|Dear|Hi|Hello|Re|Fwd?|Note|PS|P\.S\.)$",
    re.I,
)


def quoted_field(line: str) -> str | None:
    """`line` of a quoted letter as a statement of its own when it sets out one labelled value
    a person would note, of at most eight words ("Claim number: CLM-1" is "Claim number:
    CLM-1."); None for any other line, a sentence that merely holds a colon, or a value named
    as a secret."""
    m = _FIELD.match(line.strip())
    if m is None:
        return None
    label, value = m.group("label").strip(), m.group("value").strip()
    if _NOT_LABEL.match(label) or _SECRET_LABEL.search(label):
        return None
    if re.fullmatch(r"\d{1,2}", label) or not _NOTED_VALUE.search(value):
        return None  # "10:00" is a time, not a label; "Status: open" says nothing to note
    if len(value.split()) > 8 or re.search(r"[.!?]\s+[A-ZÀ-ÖØ-Þ]", value):
        return None  # a sentence after a colon ("In other news: the library …"), not a value
    return f"{label}: {value.rstrip('.;,')}."


def quoted_fields(lines: list[str]) -> tuple[list[str], list[str]]:
    """The statements of the labelled lines of a quoted block (`quoted_field`), and its other
    lines as they are, in order."""
    fields: list[str] = []
    rest: list[str] = []
    for line in lines:
        if (field := quoted_field(line)) is not None:
            fields.append(field)
        else:
            rest.append(line)
    return fields, rest
