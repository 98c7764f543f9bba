"""A line that gives a thing's value under its label: "Guesthouse: Tŷ Gwyn", "Dentist - Dr
Okafor", "School: St Brendan's", "Flight number: BA 2490".

It has no verb, so the keep filter (`language.worth_keeping`) drops it, though it says what
a person wants to find again. `labelled_value` reads it when the label is a common noun of
one to three words (not a person memory knows, not a field of a mail's header, not a word
for a credential: the secret detector has masked what it knows by then, and a value it
missed under "Token:" or "PIN:" is still nothing to keep) and the value is specific and
short: a proper name, a figure, a date or a code, without a verb. A heading (nothing after
the colon), a form's empty field ("N/A", "none", "-", "TBC"), a link or a sentence after the
label is none. The line is kept as "Label: Value".
"""

from __future__ import annotations

import re
from collections.abc import Collection

from doctree.agent.offline import language as lang
from doctree.agent.offline.prefilter import gate_patterns

#: The most words of a value (more is a sentence, read as one).
_MAX_VALUE_WORDS = 6
#: "Label: Value" or "Label - Value" (a dash with a space either side).
_LINE = re.compile(
    r"^\W{0,2}(?P<label>[^\W\d_][\w'’ -]{0,40}?)\s*(?::|\s[-–—])\s+(?P<value>\S.*?)\s*[.!]?$"
)
#: A wide gap before the next "Label:" of a line that sets fields side by side.
_NEXT_FIELD = re.compile(
    r"\s{3,}(?=[^\W\d_][\w'’() -]{0,30}?:\s)"
    # the gap lost on the way ("Mr P. Varga Tenant(s): …"): a capitalised label of one word
    r"|\s+(?=[A-Z][a-z]+(?:\(s\))?:\s)"
)
#: Words for a credential or a private number: a value under one is never kept as a label's.
_CREDENTIAL = re.compile(
    r"\b(?:pass(?:word|code|phrase)?|pwd|pin|token|secret|key|api|otp|login|username|user\s*name|"
    r"credentials?|cvv|cvc|card|iban|account\s*(?:number|no|\#)|sort\s+code|code|combination|ssn|"
    r"social\s+security|licen[cs]e\s+key|recovery|seed)\b",
    re.I,
)
#: What a form says of a field it leaves empty.
_EMPTY = re.compile(
    r"^(?:n/?a|none|nil|null|-+|—|–|\?+|tbc|tbd|tba|unknown|not\s+applicable|same|see\s+above|"
    r"x+|_+|\.+)$",
    re.I,
)


def labelled_value(text: str, people: Collection[str] = ()) -> tuple[str, str] | None:
    """The (label, value) a line gives (the module docstring), or None. `people`: the names
    of the persons memory knows, never a label."""
    m = _LINE.match(text.strip())
    if m is None:
        return None
    label, value = m.group("label").strip(), m.group("value").strip()
    words = label.split()
    if not 1 <= len(words) <= 3 or any(w[:1].isupper() for w in words[1:]):
        return None  # "Flight number", "dentist"; not "Ana Rossi" nor a sentence
    if label in people or words[0] in people or lang.MAIL_HEADER.fullmatch(label):
        return None
    if _CREDENTIAL.search(label) or "[secret:" in value:
        return None
    if _EMPTY.match(value) or "://" in value or value.startswith(("www.", "@")):
        return None
    # "Owner: Ms J. Hart    Agent(s): Dale & Co": fields set side by side on one line, each
    # value measured on its own
    for field in _NEXT_FIELD.split(value):
        if len(field.split()) > _MAX_VALUE_WORDS or lang.has_verb(re.sub(r"['’]s\b", "", field)):
            return None
    if not any(_specific(w) for w in value.split()):
        return None  # "Tŷ Gwyn", "BA 2490", "3 March"; not "yes", "the usual"
    return label, value.rstrip(".!")


def _specific(word: str) -> bool:
    """A word of a name (capitalised), a figure or a code (a digit), a month or a weekday."""
    bare = word.strip(".,;:()\"'’")
    return (
        bare[:1].isupper()
        or any(c.isdigit() for c in bare)
        or bare.lower() in lang.MONTHS
        or bare.lower() in lang.WEEKDAYS
    )


def as_line(text: str) -> str:
    """A labelled value's line as the page says it: "Dentist - Dr Okafor" -> "Dentist: Dr
    Okafor"."""
    m = _LINE.match(text.strip())
    return text if m is None else f"{m.group('label').strip()}: {m.group('value').strip()}"


gate_patterns(globals())  # the cheap test in front of every pattern above (prefilter.py)
