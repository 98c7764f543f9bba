"""A message someone else wrote, introduced in the user's own line ("My landlord wrote: I'm
selling the flat in spring", "Ana texted me: my train is late"): its "I" and "my" are its
writer's, never the user's. The message is put in quotation marks, as the user would have
pasted it, so that it is read as said by its writer and never turned into the user's own
facts ("the user is selling the flat")."""

from __future__ import annotations

import re

#: Someone other than the user saying or writing something, up to the colon that opens it:
#: "My landlord wrote:", "Noor texted me:", "The school emailed this morning:", "Sam's
#: message said:". The user's own "I wrote:" is no one else's.
_INTRODUCED = re.compile(
    r"^(?P<intro>(?!\s*(?:I|we|I've|I'd|we've)\b)[^:\n\"“”]{1,80}?\b"
    r"(?:wrote|writes|texted|texts|messaged|emailed|e-mailed|mailed|replied|replies|answered|"
    r"said|says|posted|sent|DMed|dm'd|whatsapped|put|"
    # the same verbs in the other languages the agent reads
    r"écrit|dit|répondu|envoyé|schrieb|schreibt|geschrieben|sagte|sagt|antwortete|"
    r"escribió|escribe|dijo|dice|contestó|mandó|escreveu|escreve|disse|respondeu|mandou|"
    r"scritto|scrisse|detto|risposto|schreef|schrijft|zei|zegt|appte|antwoordde)"
    r"[^:.!?\n\"“”]{0,30}?)"
    r"\s*:\s*(?P<message>[^\s\"“'‘>].*)$",
    re.M,
)
#: What is a message in first person, not a note of the user's ("The note said: pay by
#: Friday" holds no "I"): a first-person word of its writer.
_FIRST_PERSON = re.compile(
    r"\b(?:I|I'm|I've|I'll|I'd|me|my|mine|we|our|us|je|j'|mon|ma|mes|nous|ich|mein|meine|wir|"
    r"yo|mi|mis|nosotros|eu|meu|minha|nós|io|mio|mia|noi|ik|mijn|wij)\b",
    re.I,
)


def quote_introduced(text: str) -> str:
    """`text` with each message someone else wrote, introduced in a line of the user's,
    put in quotation marks: "Ana texted me: I'm late" -> 'Ana texted me: “I'm late”'."""

    def quoted(m: re.Match) -> str:
        message = m.group("message").rstrip()
        if not _FIRST_PERSON.search(message):
            return m.group(0)  # nobody's "I" to mistake for the user's
        return f"{m.group('intro')}: “{message}”"

    return _INTRODUCED.sub(quoted, text)
