"""The names the user goes by: a nick in a chat log ("I'm wren in there"), or the name the
assistant calls them by ("Got it, Devika.") when they write of themselves in the third
person. Such a name is the user's, never a person of its own: it is remembered on the
user's own page (`<root>/user`) the first time it is known and read from there in every
later session, where the user's lines under that nick are the user's own and the name
written as a subject means the user."""

from __future__ import annotations

import re
from collections.abc import Callable
from collections.abc import Set as AbstractSet

from doctree import stopwords
from doctree.agent.offline import language as lang
from doctree.agent.offline.blocks import own_nicks
from doctree.agent.offline.pages import Page
from doctree.sessions.transcripts import Transcript

PAGE = "user"
TITLE = "The user"
_SECTION = "Names"
#: The one page line of a name: "- wren: the user's nick in chat logs (…)".
_LINE = re.compile(r"^- (?P<name>[^:\s]{1,40}): the user's (?P<what>nick|name)\b")
#: The assistant speaking to the user by name: "Got all of those, Devika.", "Thanks, Ana!",
#: "Hi Ana,", "Morning Ana." — a name said as a greeting or after a comma that ends a clause.
_ACK = (
    r"(?:got|thanks|thank\s+you|sure|of\s+course|okay|ok|noted|done|great|no\s+problem|"
    r"will\s+do|sounds\s+good|understood|all\s+set|good\s+luck|congrat\w*|sorry|welcome|"
    r"hi|hello|hey|morning|evening|good\s+(?:morning|evening|afternoon)|welcome\s+back)"
)
#: Prepositions: a name after one is what the assistant speaks of, not whom it speaks to.
_ON = ("on", "to", "in", "at", "of", "for", "with", "about", "from", "by", "over")
_ADDRESSED = re.compile(
    rf"(?:^|(?<=[.!?]\s))(?i:{_ACK})(?:\s+[\w'’]+){{0,5}}?,?\s+"
    # never the object of a preposition: "Congratulations on Pip.", "Good luck with Ana."
    + "".join(rf"(?<!\b{p}\s)" for p in _ON)
    + rf"(?P<name>{lang.NAME_WORD})"
    r"\s*(?:[.!?,:](?:\s|$)|$)",
    re.M,
)


def said_names(transcript: Transcript, people: AbstractSet[str] = frozenset()) -> dict[str, str]:
    """The names this transcript says are the user's: name -> "nick" or "name". A name the
    assistant calls the user by counts only when it is no one memory knows (`people`, page
    slugs) and the user never speaks of it as of someone else ("email Marco", "with Marco")."""
    found: dict[str, str] = {}
    said = "\n".join(
        m.content for m in transcript.messages if m.kind == "user" and isinstance(m.content, str)
    )
    for m in transcript.messages:
        if not isinstance(m.content, str):
            continue
        if m.kind == "user":
            for nick in own_nicks(m.content):
                found.setdefault(nick, "nick")
        elif m.kind == "assistant":
            # a draft the assistant writes ("Hi Marco, …" in a quote or fence) is no greeting
            own = re.sub(r"(?ms)^\s*(```|~~~).*?^\s*\1|^>.*$", "", m.content)
            for a in _ADDRESSED.finditer(own):
                name = a.group("name")
                if name in lang.NOT_NAMES or name.lower() in _NOT_ADDRESSED:
                    continue
                if name.lower() in people or _someone_else(name, said):
                    continue
                found.setdefault(name, "name")
    return found


def _someone_else(name: str, said: str) -> bool:
    """Whether the user's text speaks of `name` as of another person: after a word that
    points to someone ("to Marco", "with Marco", "my friend Marco", "ask Marco"), before
    who they are to someone ("Marco, my son", "Marco (our lodger)"), or as who wrote a
    message the user did not ("that was Marco", "Marco grabbed my phone")."""
    if re.search(
        rf"\b{re.escape(name)}(?:,|\s*\()\s*(?:my|our|his|her|their)\s+[a-z]"
        rf"|\bthat\s+(?:was|were)\s+{re.escape(name)}\b"
        rf"|\b{re.escape(name)}\s+(?:grabbed|took|had|borrowed|got\s+hold\s+of)\s+"
        r"(?:my|the|our)\s+(?:phone|laptop|tablet|ipad|keyboard|computer)",
        said,
        re.I,
    ):
        return True
    return (
        re.search(
            r"\b(?:to|with|for|from|and|or|tell|ask|asked|email|emailed|call|called|text|"
            r"texted|meet|met|told|see|saw|invite|invited|cc|dear|hi|hey|"
            # "my Marco", "my brother Marco", "our new neighbour Marco"
            r"(?:my|our|his|her|their)(?:\s+[a-z][\w'’-]*){0,2})\s+"
            rf"{re.escape(name)}\b",
            said,
            re.I,
        )
        is not None
    )


#: A message opening on who is writing it: "hi its mia", "Hello, this is Tomasz", "Jonah here".
_WRITING = re.compile(
    r"^\W*(?:(?:hi|hello|hey|hiya)\W+)?(?:(?:it'?s|it’s|its|this\s+is|this\s+is\s+actually)\s+"
    r"(?P<name>[A-Za-z][a-z]{1,20})\b(?!\s+(?:here|again|agen)?\s*[a-z]+ing\b)"
    r"|(?P<here>[A-Z][a-z]{1,20})\s+here\b)",
    re.I,
)


def typed_by_others(
    transcript: Transcript, kin: Callable[[str], bool] | None = None
) -> dict[int, str]:
    """The user's messages written by someone else at the user's keyboard, by their index
    in `transcript.messages`, each with who wrote it: a message opening on a name ("hi its
    mia", "Jonah here") that the user speaks of as someone else ("that was Mia, my
    daughter") or that memory knows as the user's kin (`kin`, given a page slug: a child or
    a partner at the user's phone; any other person of that name may be the user's
    namesake)."""
    said = "\n".join(
        m.content for m in transcript.messages if m.kind == "user" and isinstance(m.content, str)
    )
    out: dict[int, str] = {}
    for i, m in enumerate(transcript.messages):
        if m.kind != "user" or not isinstance(m.content, str):
            continue
        found = _WRITING.match(m.content)
        if found is None:
            continue
        name = (found.group("name") or found.group("here")).capitalize()
        if name.lower() in stopwords.ENGLISH or name in lang.NOT_NAMES:
            continue
        if _someone_else(name, said) or (kin is not None and kin(name.lower())):
            out[i] = name
    return out


#: Words after a comma that are no name: "Yes, Monday.", "Sure, Thursday."
_NOT_ADDRESSED = {
    *lang.WEEKDAYS, *lang.MONTHS, "there", "everyone", "all", "both", "today", "tomorrow",
    "though", "too", "then", "please", "thanks", "sir", "madam", "friend",
}  # fmt: skip


def known_names(body: str | None) -> dict[str, str]:
    """The names the user's page records: name -> "nick" or "name"."""
    out: dict[str, str] = {}
    for line in (body or "").split("\n"):
        if (m := _LINE.match(line)) is not None:
            out[m.group("name")] = m.group("what")
    return out


#: A verb after a subject, in the third person, and its first-person form.
_THIRD = {"is": "am", "was": "was", "has": "have", "does": "do", "isn't": "am not",
          "wasn't": "wasn't", "hasn't": "haven't", "doesn't": "don't", "'s": "'m"}  # fmt: skip


def as_the_user(text: str, names: set[str]) -> str:
    """`text` of the user's with each of the user's own `names` read as the user, in the
    first person as the rest of the user's text is: "Devika is cutting caffeine" -> "I am
    cutting caffeine", "Devika needs a break" -> "I need a break", "Devika's bike" -> "my
    bike", any other "Devika" -> "me"."""
    for name in sorted(names, key=len, reverse=True):
        if not name[:1].isupper():
            continue  # a nick is read in a chat log's lines, not in prose
        # "me (Devika Sharma)": the name said whole, with a surname after it, stays as said
        n = re.escape(name) + r"(?!\s+[A-Z][\w'’-])"

        def subject(m: re.Match) -> str:
            verb = m.group("verb")
            lower = verb.lower()
            if lower in _THIRD:
                said = _THIRD[lower]
            elif lower.endswith("ies") and len(lower) > 4:
                said = verb[:-3] + "y"
            elif re.search(r"(?:ss|sh|ch|x|o)es$", lower):
                said = verb[:-2]
            elif lower.endswith("s") and not lower.endswith("ss"):
                said = verb[:-1]
            else:
                said = verb  # "Devika will", "Devika can"
            return f"{m.group('lead')}I {said}"

        text = re.sub(
            rf"(?<![\w@-]){re.escape(name)}['’]s(?=\s+\w+ing\b)", "I'm", text
        )  # "Devika's going"
        text = re.sub(
            r"(?P<lead>(?:^|(?<=[.!?:;]\s)|(?<=\n)|(?<=,\s)|(?<=\band\s)|(?<=\bbut\s)|"
            rf"(?<=\bso\s))\s*){n}\s+(?P<verb>[a-z][\w'’]*)",
            subject,
            text,
        )
        text = re.sub(rf"(?<![\w@-]){re.escape(name)}['’]s\b", "my", text)
        text = re.sub(rf"(?<![\w@-]){re.escape(name)}(?![\w-])(?!\s+[A-Z][\w'’-])", "me", text)
    # a sentence that now opens with "my" or "me" opens with a capital, as it did
    return re.sub(r"(?:^|(?<=[.!?]\s)|(?<=\n))m(?=y\b|e\b)", "M", text)


def page_lines(names: dict[str, str], cite: str, day: str) -> list[str]:
    """The user's page lines of `names`, first said on `day` in the session `cite` links."""
    what = {"nick": "nick in chat logs", "name": "name, as the assistant calls them"}
    return [
        f"- {n}: the user's {what[k]} (first known {day}, {cite})" for n, k in sorted(names.items())
    ]


def add_names(page: Page, lines: list[str]) -> None:
    """`lines` added to the user's page, each once."""
    if not page.intro:
        page.intro = ["The names the user goes by; none of them is a person of its own."]
    have = page.sections.setdefault(_SECTION, [])
    have.extend(x for x in lines if x not in have)
