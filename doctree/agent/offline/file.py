"""File: the one page each fact of a session goes to.

A fact about a person goes to that person's page, a project's fact to the project, a
finding of the assistant to the project being worked on (or, outside any project, to the
organisation or place it names); the user's own preferences,
rules, decisions outside any project and plain notes go to the list pages (`corrections`,
`decisions`, `notes`). An organisation, place or pet gets a page once something is said
about it; named in passing, it is only told apart from the people. Touches no page.
"""

from __future__ import annotations

import re

from doctree.agent.offline import language as lang
from doctree.agent.offline.directory import OTHER_KINDS, Directory
from doctree.agent.offline.language import filler
from doctree.agent.offline.model import Analysis, Filing, Home, Sentence
from doctree.store.paths import slugify

#: The kinds of page a name can have, each a folder below the memory root.
ENTITY_KINDS = ("people", "projects", "topics", *OTHER_KINDS)


def file_facts(
    analysis: Analysis, directory: Directory, listings: dict[str, dict[str, str]]
) -> Filing:
    """Where each fact of `analysis` goes, given the pages memory lists (`listings`: kind
    -> slug -> title)."""
    sentences = analysis.sentences
    projects = sorted({p for s in sentences for p in s.projects})
    session_project = projects[0] if len(projects) == 1 else None
    facts = [s for s in sentences if worth_a_line(s)]
    homes = {id(s): home(s, directory, session_project) for s in facts}
    touched: dict[str, set[str]] = {kind: set() for kind in ENTITY_KINDS}
    for s in sentences:
        for n in s.people:
            touched["people"].add(directory.person(n))
        touched["projects"].update(s.projects)
        touched["topics"].update(slugify(tp) for tp in s.topics)
    with_home = {h for h in homes.values() if h}
    passing = {
        (kind, directory.other(kind, n))
        for s in sentences
        for kind, names in s.others.items()
        for n in names
        if (kind, directory.other(kind, n)) not in with_home
        and directory.other(kind, n) not in listings.get(kind, {})
    }
    for s in sentences:
        for kind, names in s.others.items():
            touched[kind].update(
                slug
                for slug in (directory.other(kind, n) for n in names)
                if (kind, slug) not in passing
            )
    slots = {
        id(s): slot
        for s in facts
        if homes[id(s)] is None and not s.correction and (slot := list_slot(s))
    }
    return Filing(
        analysis=analysis,
        directory=directory,
        facts=facts,
        homes=homes,
        slots=slots,
        touched=touched,
        passing=passing,
        projects=projects,
        session_project=session_project,
        topic_titles={slugify(tp): tp for s in sentences for tp in s.topics},
        listed_topics=listings.get("topics", {}),
    )


#: A question that asks the assistant to recall or look up something ("whats Farah's job
#: again?", "What was the name of his physio?", "When is my dentist appointment?"): the
#: question opens on its question word and stops, no clause of its own telling anything.
_ASKS_ONLY = re.compile(
    r"^\W*(?:(?:so|and|ok|okay|hey|sorry|quick\s+one|remind\s+me)[,:\s]+)*"
    r"(?:what|whats|what['’]s|when|whens|when['’]s|where|where['’]s|who|who['’]s|which|how)\b"
    r"(?![^?]*\b(?:if|since|because|given|as\s+i|now\s+that|when\s+i|when\s+we)\b)"
    r"[^\d?]*\?\s*$",
    re.I,
)


def worth_a_line(s: Sentence) -> bool:
    """A sentence of some kind, or one about someone or something that says more than a
    few words; a few words are a fact when the user says them of someone ("Teddy is six").
    A question that only asks (`_ASKS_ONLY`) is none: what it asks is not what it tells."""
    if s.speaker == "the user" and _ASKS_ONLY.match(s.raw or s.text):
        return False
    return bool(
        s.kinds or s.people or s.others or (s.projects and len(s.text.split()) >= 6)
    ) and not (filler(s.text) and not s.kinds and not (s.speaker == "the user" and s.subject))


def home(s: Sentence, directory: Directory, session_project: str | None) -> Home | None:
    """The one page a fact lives on: (kind, slug), or None for the lists
    (corrections, decisions, notes). Other pages it names link to that page."""
    if "secret" in s.kinds or s.correction or "unsure-subject" in s.kinds:
        return None
    if "finding" in s.kinds:
        target = s.projects[0] if s.projects else session_project
        if target:
            return "projects", target
        for kind in ("organisations", "places"):  # a shop's policy goes on the shop's page
            if s.others.get(kind):
                return kind, directory.other(kind, s.others[kind][0])
        return None
    if s.subject:
        return "people", directory.person(s.subject)
    users_own = s.speaker == "the user" and lang.FIRST_PERSON.search(s.text)
    if users_own and {"preference", "rule"} & set(s.kinds):
        return None
    if s.people and not (users_own and "health" in s.kinds):
        return "people", directory.person(s.people[0])
    if s.projects:
        return "projects", s.projects[0]
    if {"preference", "rule", "decision", "remember"} & set(s.kinds):
        return ("projects", session_project) if session_project else None
    if session_project and len(s.text.split()) >= 6:
        return "projects", session_project
    for kind in ("organisations", "pets", "places"):
        if s.others.get(kind):
            return kind, directory.other(kind, s.others[kind][0])
    if s.topics:
        return "topics", slugify(s.topics[0])
    return None


#: A sentence opening on someone else's pronoun: "She loves sushi", "His knee is worse".
_SOMEONE_ELSES = re.compile(r"\W*(?:she|he|his|her)\b(?!['’]s\s+(?:me|us)\b)", re.I)


def list_slot(s: Sentence) -> tuple[str, str] | None:
    """(list page, section) for a fact with no page of its own, or None."""
    kinds = set(s.kinds)
    if "secret" in kinds:
        return "notes", "Secrets (placeholders only)"
    if "finding" in kinds:
        return "notes", "Findings"
    if "rule" in kinds:
        return "corrections", "Rules"
    if kinds & {"preference", "health"} and not (
        s.speaker == "the user"
        and not s.people
        and _SOMEONE_ELSES.match(s.text)
        and not lang.FIRST_PERSON.search(s.text)
    ):
        # (not "She is having knee surgery" with nobody sure to be "she": someone else's,
        # kept as said on the notes, never read as the user's own)
        return "corrections", "Preferences"
    if "decision" in kinds:
        return "decisions", "Outside any project"
    if "remember" in kinds:
        return "notes", "To remember"
    if "setup" in kinds:
        return "notes", "How things are set up"
    if kinds - _NO_LINE_OF_THEIR_OWN:
        # a statement, a dated fact, or one of any other kind with no page of its own (someone
        # leaving whose name was not read as a person's): `active` lists it while it is to
        # come, and the notes keep it once its day has passed. A fact the reading kept is
        # never dropped for want of a page.
        return "notes", "Facts"
    return None


#: Kinds that only qualify another kind of the same sentence (its finding was accepted, its
#: preference changed) and give it no line by themselves.
_NO_LINE_OF_THEIR_OWN = frozenset({"accepted", "change"})


def named_pages(filing: Filing, s: Sentence) -> list[Home]:
    """The pages `s` names (people, projects, topics and the rest), those named in passing
    left out."""
    d = filing.directory
    keys = [("people", d.person(n)) for n in s.people]
    keys += [("projects", p) for p in s.projects]
    keys += [("topics", slugify(tp)) for tp in s.topics]
    for kind, names in s.others.items():
        keys += [(kind, d.other(kind, n)) for n in names]
    return [k for k in dict.fromkeys(keys) if k not in filing.passing]


def planned_top_level(filing: Filing) -> set[str]:
    """The pages right below the root this run will write."""
    names = {"active", "archive"} | {kind for kind, slugs in filing.touched.items() if slugs}
    names |= set(filing.lists())
    if any(s.correction for s in filing.analysis.sentences):
        names.add("corrections")
    return names
