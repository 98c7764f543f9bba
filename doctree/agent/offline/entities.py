"""Names, and what kind of thing each names: a person, a project, a topic (a tool or
technology), an organisation, a place or a pet.

`find_entities` finds the names in a sentence and types them, registering what it learns
(a nickname, a name that is no person) in the session's `Directory`. A
name used as a service is used ("passwords in Bitwarden") is an organisation, not a
person; a name already known as one kind stays that kind.
"""

from __future__ import annotations

import re

from doctree import stopwords
from doctree.agent.offline import language as lang
from doctree.agent.offline.directory import Directory, is_title, person_slug
from doctree.agent.offline.language import NAME, NOT_NAMES
from doctree.agent.offline.lexicon import common_word
from doctree.agent.offline.model import Sentence
from doctree.agent.offline.prefilter import gate_patterns, none_can_match
from doctree.agent.offline.subject import RECORD_OF

_PERSON_TRIGGER = re.compile(
    r"\b(?P<trigger>with|met|meet|meeting|call|called|calling|email|emailed|ask|asked|tell|told|"
    r"invite|invited|page|paged|thank|thanked|talked to|talk to|spoke to|spoke with|"
    r"heard from|hear from|visit|visited|(?i:ping)|pinged|texted|messaged|remind|reminded|"
    # a diary's past tense opening a sentence: "Spoke to Ngozi about the flat." (not an
    # imperative: "Visit Scotland" may be a firm)
    r"(?:Met|Called|Emailed|Asked|Told|Invited|Thanked|Talked to|Spoke to|Spoke with|"
    r"Heard from|Visited|Pinged|Texted|Messaged|Reminded))\s+"
    rf"(?P<names>{NAME}(?:(?:,\s*|\s+and\s+){NAME})*)"
)
#: Who someone is to the user or to another person: "my flatmate", "Priya (my flatmate)".
_WHO_TO_THE_USER = (
    "sister|brother|mum|mom|mother|father|dad|wife|husband|partner|manager|boss|colleague|"
    "friend|son|daughter|dentist|doctor|neighbour|neighbor|cousin|landlord|landlady|"
    "fianc[eé]e?|girlfriend|boyfriend|flatmate|roommate|housemate|aunt|uncle|niece|nephew|"
    "grandma|grandpa|grandmother|grandfather|granddaughter|grandson|stepmother|stepfather|"
    "stepson|stepdaughter|mate|pal|bestie|best\\s+friend"
)
_RELATION = re.compile(
    r"\b(?i:my|our)\s+(?P<rel>" + lang.kin_word(_WHO_TO_THE_USER) + r")\s+"
    r"(?:(?:is|was)\s+(?:(?i:called|named)\s+)?|(?i:is\s+called|is\s+named),?\s+)?"
    rf"(?P<name>{NAME})"
)
#: A name followed by who they are in brackets: "Kit (my nephew, 9)", "Priya (Desmond's
#: wife)", as a pasted list or table names people.
_BRACKETED_KIN = re.compile(
    rf"(?P<name>{NAME})\s*\(\s*(?:(?P<my>(?i:my|our))|(?P<owner>{NAME})(?:'s|’s))\s+"
    r"(?P<rel>" + lang.kin_word(_WHO_TO_THE_USER) + r")(?!['’]s)"
)
_PROJECTS = (
    re.compile(r"\bproject\s+(?P<name>[A-Z][\w-]+)"),
    re.compile(r"\bthe\s+(?P<name>[A-Za-z][\w-]+)\s+(?:project|repo|repository|codebase)\b"),
    re.compile(r"\b(?P<name>[A-Z][\w-]+)\s+project\b"),
)
_NOT_PROJECTS = {"this", "that", "the", "a", "new", "side", "my", "our", "old", "same", "whole"}
#: A tool or technology: a name said with what kind of technical thing it is ("the Kafka
#: cluster", "a Postgres database", "our Redis cache", "pgloader 3.6"), or the name a system
#: moves to or from ("migrate from MySQL to Postgres").
_TECH_NOUN = (
    r"(?:cluster|database|db|queue|server|instance|config|library|package|pipeline|dashboard|"
    r"api|sdk|cli|plugin|extension|container|bucket|schema|broker|replica|cache|backend|"
    r"frontend|framework|runtime|driver|module|integration|cron|daemon|repo|repository)"
)
_TECH = (
    re.compile(
        rf"(?<![\w/.-])(?P<name>(?-i:[A-Z][A-Za-z0-9+#]*[A-Za-z0-9+#]|[a-z][a-z0-9]*\d[a-z0-9]*|"
        rf"[a-z]{{3,}}))\s+(?:\d[\d.]*\s+)?{_TECH_NOUN}\b",
        re.I,
    ),
    re.compile(r"(?<![\w/.-])(?P<name>[A-Za-z][\w+#-]*[A-Za-z0-9+#])\s+v?\d+\.\d+(?:\.\d+)?\b"),
    re.compile(
        r"\b(?:migrat\w*|mov\w*|switch\w*|port\w*)\s+(?:\w+\s+){0,4}?from\s+"
        r"(?P<name>(?-i:[A-Z][A-Za-z0-9+#]+))\s+to\s+(?P<name2>(?-i:[A-Z][A-Za-z0-9+#]+))",
        re.I,
    ),
)


#: Kin words a family uses as names ("Mum wants the lemon cake"): someone, wherever they stand.
_KIN_AS_NAME = lang.FEMALE_RELATIONS | lang.MALE_RELATIONS | {"mam", "gran", "nanna", "pops"}
_LEADING_VERB = re.compile(r"(?:Met|Meeting|Asked|Ask|Told|Tell|Called|Call)\s+")
#: A verb opening a sentence before a name, no part of it: "Remember Tadgh's birthday".
_OPENING_VERB = re.compile(r"Remember|Remind|Note|Met|Meeting|Asked|Ask|Told|Tell|Called|Call")

#: A sentence about a journey: there "X from Y" is a way of travelling and where it leaves
#: from ("the 7:40 easyJet from Luton", "National Express from Victoria"), not a person and
#: where they come from, unless X is already known as a person.
_TRAVEL = re.compile(
    r"\b(?:fly|flies|flying|flew|flight|flights|airline|airport|train|trains|coach|bus|"
    r"ferry|departs?|departing|departure|boarding|layover|return\s+leg)\b",
    re.I,
)


def _code_word(text: str, word: str) -> bool:
    """Whether `word` is written as a name of a program: in backticks, or all lowercase
    where a plain word would not be (before a version number)."""
    return bool(re.search(rf"`{re.escape(word)}`|\b{re.escape(word)}\s+\d", text))


def _names_in(group: str) -> list[str]:
    names = re.findall(NAME, group)
    return [n for n in names if n.split()[0].rstrip(".") not in NOT_NAMES or is_title(n)]


def _clean_name(name: str) -> str | None:
    words = name.split()
    if is_title(name):
        # "Mrs Dorothy Quinn" is Dorothy Quinn, the page her full name's ("Dr. Osei" keeps
        # the title: it is all there is besides the surname)
        return " ".join(words[1:]) if len(words) >= 3 else name if len(words) >= 2 else None
    # 'Priya Raman' keeps both words; 'Bob Thanks' drops a trailing non-name
    words = [w for w in words if w not in NOT_NAMES]
    if len(words) >= 2 and lang.KIN_TITLE.match(" ".join(words[:2])):
        words = words[1:]  # "Aunt Mira" is Mira
    return " ".join(words) or None


#: "in Spanish", "in English": a language, not a place.
_LANGUAGE = re.compile(r"(?:ish|ese|French|Dutch|Greek|Thai|Hindi|Swahili|Latin)$")


def find_entities(
    s: Sentence, raw: str, directory: Directory, *, speaker: str | None = None
) -> None:
    """People, projects, topics, organisations, places and pets named in `raw`. `speaker`
    names who said it when it is someone other than the user (a participant of a thread):
    their "my husband Tom" makes Tom the speaker's husband, never the user's."""
    others: dict[str, list[str]] = {}
    # whose "my" is: None for the user's own, else the named speaker's
    whose = speaker if speaker not in (None, "the user", "the assistant") else None

    def related(rel: str, name: str) -> None:
        """`name` is the speaker's `rel` ("my sister Clara"): a relation of the user's, a
        role of a named speaker's."""
        if whose is None:
            s.relation = (rel, name)
        elif not any(n == name for n, _ in s.roles):
            s.roles.append((name, f"{whose}'s {rel}"))

    name: str | None  # a name found, or None where a pattern's group is empty

    def other(kind: str, name: str) -> None:
        name = _clean_name(name) or ""
        if not name or name in NOT_NAMES or name.split()[0] in NOT_NAMES:
            return
        if kind == "places" and (
            directory.kind_of(name)
            or person_slug(name) in directory.people
            or _LANGUAGE.search(name)
        ):
            return
        directory.other(kind, name)
        known = directory.kind_of(name) or kind
        if name not in others.setdefault(known, []):
            others[known].append(name)

    for pattern in () if none_can_match(lang.ORGS, raw) else lang.ORGS:
        for m in pattern.finditer(raw):
            other("organisations", m.group("name"))
    for pattern in () if none_can_match(lang.SERVICE, raw) else lang.SERVICE:
        for m in pattern.finditer(raw):
            for name in _names_in(m.group("names")):
                if _TITLE.fullmatch(name):
                    continue  # "note: Mr Hartley spoke with Mr Quinn": a title, someone's
                if person_slug(name) not in directory.people:
                    other("organisations", name)
    for pattern in () if none_can_match(lang.NOT_PERSON, raw) else lang.NOT_PERSON:
        for m in pattern.finditer(raw):
            if (name := _clean_name(m.group("name"))) and person_slug(name) not in directory.people:
                directory.not_a_person(name)
    for pattern in () if none_can_match(lang.PETS, raw) else lang.PETS:
        for m in pattern.finditer(raw):
            other("pets", m.group("name"))
    for pattern in () if none_can_match(lang.PLACES, raw) else lang.PLACES:
        for m in pattern.finditer(raw):
            if lang.PERSON_TO.search(raw[: m.start("name")]):
                continue
            if raw[m.end("name") : m.end("name") + 1].isalnum():
                continue  # part of a word ("Thursda" of "in Thursday's release"), not a name
            if re.match(r"(?:in|at)\s", m.group(0)) and re.match(
                r"\s*(?:'s|’s)", raw[m.end("name") :]
            ):
                continue
            other("places", m.group("name"))
    # names already known as something other than a person stay what they are
    for word in re.findall(NAME, raw):
        if (kind := directory.kind_of(word)) and word not in others.get(kind, []):
            others.setdefault(kind, []).append(word)
    s.others = others
    not_people = {n for names in others.values() for n in names}

    def person(name: str | None) -> None:
        clean = _clean_name(name) if name else None
        if not clean or clean in not_people or directory.kind_of(clean):
            return
        if clean in directory.not_people or clean.split()[0] in directory.not_people:
            return
        if any(lang.names_day(phrase, clean) for phrase, _ in s.dates):
            return  # "our Easter", "Diwali at Gran's": a day the sentence read as a date
        if clean.split()[0] in not_people or clean.lower() in _NOT_PROJECTS:
            return
        if _inside_names(clean, not_people, raw):
            return  # "with Hargreaves & Lowe": the firm, not a person called Hargreaves
        if any(clean == directory.projects.get(p) for p in directory.projects):
            return
        if (
            " " not in clean
            and re.match(rf"[\W_]*{re.escape(clean)}\b", raw)
            and person_slug(clean) not in directory.people
            and clean.lower() not in _KIN_AS_NAME
            and common_word(clean)
        ):
            return  # "Football has been cancelled": a word whose capital opens a sentence
        if re.search(
            rf"{re.escape(clean)}(?:\.(?:com|org|net|io|co|app|ai)\b|['’]s\s+(?:app|website|site))",
            raw,
        ):
            return  # "Booking.com", "Expedia's app": a service, not a person
        if clean not in s.people:
            s.people.append(clean)

    for m in re.finditer(rf"{lang.TITLE}{lang.NAME_WORD}", raw):
        # "Dr. Osei": a title names a person; "Mrs Dorothy Quinn" is Dorothy Quinn
        person(_with_surname(m.group(0), raw[m.end() :]))
    for pattern in lang.NICKNAME:
        for m in pattern.finditer(raw):
            full = _clean_name(m.group("full"))
            if full and _inside_names(full, not_people, raw[: m.end("full")]):
                # "Gareth Pryce of Pryce & Son (everyone calls him Gaz)": the nickname is
                # the person's named before the firm, not the firm's last word
                of = re.search(rf"(?P<name>{NAME})\s+(?:of|from|at)\s+\S[^()]*$", raw[: m.start()])
                full = _clean_name(of.group("name")) if of else None
            if full and m.group("nick") not in NOT_NAMES:
                directory.alias(m.group("nick"), full)
                person(full)
    for m in lang.QUOTED_NICKNAME.finditer(raw):
        full = f"{m.group('first')} {m.group('last')}"
        if m.group("first") not in NOT_NAMES and m.group("nick") not in NOT_NAMES:
            directory.alias(m.group("nick"), full)  # `Ellis "Boots" Morgan`
            person(full)
    for m in lang.KIN.finditer(raw):
        if m.group("name") and m.group("name") not in NOT_NAMES:
            name = _with_surname(m.group("name"), raw[m.end("name") :])
            person(name)
            if m.group(0).lower().startswith(("my ", "our ")) and whose is None:
                directory.add_kin(directory.person(name))
    known = directory.known_person_names()
    for m in _PERSON_TRIGGER.finditer(raw):
        before = raw[: m.start("names")]
        if _NOT_WITH_PERSON.search(before):
            continue  # "we're going with Dagster": a choice, not a person
        for name in _names_in(m.group("names")):
            if m.group("trigger") == "with" and not _person_with(name, before, raw, known):
                continue  # "we deploy it with Ansible": a tool, unless it is someone
            person(name)
    for m in lang.KIN_TITLE.finditer(raw):
        if m.group("name") not in NOT_NAMES:
            person(m.group("name"))  # "Uncle Desmond": Desmond, a person
    for m in _BRACKETED_KIN.finditer(raw):
        if (clean := _clean_name(m.group("name"))) and clean.split()[0] not in NOT_NAMES:
            if m.group("my") and not s.relation:
                related(m.group("rel").lower(), clean)
            elif m.group("owner"):
                s.roles.append((clean, f"{m.group('owner')}'s {m.group('rel').lower()}"))
            person(clean)
    if (r := _RELATION.search(raw)) and (clean := _clean_name(r.group("name"))):
        related(r.group("rel").lower(), clean)
        person(clean)
    for pattern in (lang.ROLE_IS, lang.ROLE_DOES):
        for m in pattern.finditer(raw):
            name = _clean_name(m.group("name"))
            if name and name not in not_people and name.split()[0] not in NOT_NAMES:
                role = re.sub(r"^(?:our|the|my|their|a|an)\s+", "", m.group("role").strip())
                s.roles.append((name, role))
                person(name)
    for m in lang.ROLE_APPOSITIVE.finditer(raw):
        name = _clean_name(m.group("name"))
        if name and name not in not_people and name.split()[0] not in NOT_NAMES:
            s.roles.append((name, m.group("role").lower()))
            person(name)
    for m in lang.NAME_THEN_ROLE.finditer(raw):
        name = _clean_name(m.group("name"))
        if name and name not in not_people and name.split()[0] not in NOT_NAMES:
            s.roles.append((name, m.group("role").lower()))
            person(name)
    if (record := RECORD_OF.match(raw)) and record.group("name").split()[0] not in NOT_NAMES:
        person(record.group("name"))  # "Patient: Biscuit Fenwick, 6": whose record it is
    owned = lang.OWNED_ROLE.match(raw)
    name = _clean_name(owned.group("name")) if owned else None
    if name and name not in not_people and name.split()[0] not in NOT_NAMES:
        person(name)  # "His new boss, Dana Kowalski, …": whose boss is read with "his"
    travel = _TRAVEL.search(raw) is not None
    for m in lang.FROM.finditer(raw):
        # "Met Odile from Brightline" opening a sentence: the verb is no part of the name
        led = re.match(r"\s*(?:met|with|ask|asked|tell|told|call|called)\s+", m.group(0), re.I)
        name = m.group("name")
        if led is None and (verb := _LEADING_VERB.match(name)) and name[verb.end() :]:
            name, led = name[verb.end() :], verb
        if travel and not led and name not in directory.known_person_names():
            continue  # "we fly back on the 3rd, Vueling from Gatwick": a carrier and its airport
        first = name.split()[0].lower()
        if m.group("group") and (
            first in lang.NOT_FROM_GROUP or first in stopwords.ENGLISH or first.endswith("ing")
        ):
            continue  # "Home from work by six": a word, not someone from work
        if name.split()[0] not in NOT_NAMES and not lang.SENT_THING.fullmatch(name.split()[0]):
            person(name)
    for m in lang.SUBJECT.finditer(raw):
        words = m.group("name").split()
        if m.group("body") and words[0].lower() in _KIN_AS_NAME:
            continue  # "Dad's hip": the one the kin word names, found as such elsewhere
        if len(words) == 2 and _OPENING_VERB.fullmatch(words[0]) and words[1] not in NOT_NAMES:
            words = words[1:]  # "Remember Tadgh's fiancée …": the name is Tadgh
        if words[0] not in NOT_NAMES:
            person(" ".join(words))
    known = directory.known_person_names()
    for form in sorted(known, key=len, reverse=True):
        if (
            form in raw
            and (said := _said_alone(form, raw, known, directory)) is not None
            and not any(form in p or p in form for p in s.people)
        ):
            person(said)
    typed = _LOWERCASE_SUBJECT.match(raw)  # "malik asked about next weekend"
    if typed and typed.group("name") not in stopwords.ENGLISH:
        name = typed.group("name").capitalize()
        if name in known and name not in s.people and not directory.kind_of(name):
            person(name)
            if name in s.people:  # the page's line says the name as the page does
                s.text = re.sub(rf"\b{typed.group('name')}\b", name, s.text, count=1)
    for m in (m for pattern in _PROJECTS for m in pattern.finditer(raw)):
        name = m.group("name")
        if name.lower() not in _NOT_PROJECTS and name not in NOT_NAMES:
            slug = directory.project(name)
            if slug not in s.projects:
                s.projects.append(slug)
    for pattern in _TECH:
        for m in pattern.finditer(raw):
            for name in (m.group("name"), m.groupdict().get("name2")):
                if not name or name.lower() in stopwords.ENGLISH or name in NOT_NAMES:
                    continue
                if name[:1].islower() and not re.search(r"\d", name) and not _code_word(raw, name):
                    continue  # "the staging database": an ordinary word, not a name
                if name not in s.topics and name not in s.people:
                    s.topics.append(name)
    s.people = [p for p in s.people if p not in s.topics]  # a technology is no person
    # the person named first is who the sentence is about
    s.people.sort(key=lambda n: raw.find(n) if n in raw else len(raw))


#: A sentence typed in lower case that opens on a name and a verb only a person does:
#: "malik asked about next weekend", "priya says I'm allowed". The name is someone only
#: when memory or the session knows a person by it written with its capital.
_LOWERCASE_SUBJECT = re.compile(
    r"(?:(?:oh|and|so|but|ok|also|plus|then),?\s+)*(?P<name>[a-z][a-z'’-]{2,})\s+"
    r"(?:asked|asks|says|said|thinks|thought|told|tells|texted|messaged|rang|phoned|called|"
    r"replied|wrote|wants|wanted|reckons|reckoned|agreed|invited|suggested|promised|offered|"
    r"mentioned|admitted|apologi[sz]ed|laughed|cried|loves|loved|hates|hated)\b"
)


#: What one does in someone's company: "lunch with Ana", "kickoff for Apollo with Priya", "I
#: paired with Bertil", said within a few words before "with".
_IN_COMPANY_WITH = re.compile(
    r"\b(?:lunch|dinner|breakfast|brunch|coffee|tea|drinks?|beers?|meeting|meetings|call|calls|"
    r"chat|talk|sync|1:1|one-on-one|catch-?up|kick-?off|stand-?up|review|retro|workshop|demo|"
    r"onboarding|date|walk|hike|hiking|trip|holiday|vacation|party|game|session|interview|"
    r"appointment|chatted|talked|spoke|met|meet|paired|pairing|hung\s+out|hanging\s+out|"
    r"went\s+out|caught\s+up|catch\s+up|played|playing|lives?|living|stayed|staying|"
    r"travel(?:l)?(?:ed|ing)|married|engaged|dating|argued|fought|friends|together|"
    r"arguing|sat|collaborat\w+|worked\s+closely|"
    r"(?:go|goes|going|went)\s+\w+ing|"
    r"(?:go|goes|going|went|come|comes|coming|came)\s+(?:to|out|for|on|over|round|home|back)\b)"
    r"(?:\s+(?!with\b)[\w'-]+){0,4}\s+with\s*$",
    re.I,
)


def _with_surname(first: str, after: str) -> str:
    """The whole name a relation's first name begins: "my sister Ottilie Brandt" is Ottilie
    Brandt, the family member, not a sister "Ottilie" and someone else of that full name.
    A following capitalised word that is no name (a weekday, a month, a word like "And")
    leaves the first name alone."""
    surname = re.match(rf"\s+({lang.NAME_WORD})\b", after)
    if surname is None:
        return first
    last = surname.group(1)
    if last in NOT_NAMES or last.lower() in lang.WEEKDAYS or last.lower() in lang.MONTHS:
        return first
    if last.lower() in stopwords.ENGLISH:
        return first
    return f"{first} {last}"


def _said_alone(form: str, raw: str, known: dict[str, str], directory: Directory) -> str | None:
    """The name `raw` says a known name `form` by: the form itself, or a full name of
    someone else when the form is the first name of one of the user's family followed by a
    surname memory does not know them by ("Anna Berg" when "Anna" is the user's sister: two
    people, not one). None when `raw` does not say it as a word."""
    for m in re.finditer(rf"(?<![\w-]){re.escape(form)}(?![\w-])", raw):
        surname = re.match(rf"\s+({lang.NAME_WORD})\b", raw[m.end() :])
        if surname is None or " " in form or not directory.is_kin(known[form]):
            return form
        full = f"{form} {surname.group(1)}"
        last = surname.group(1)
        if full in known or last in NOT_NAMES or last.lower() in lang.WEEKDAYS:
            return form
        if last.lower() in lang.MONTHS or last.lower() in stopwords.ENGLISH:
            return form
        return full
    return None


def _person_with(name: str, before: str, raw: str, known: dict[str, str]) -> bool:
    """Whether the name after "with" is someone: a person known already, said in someone's
    company ("lunch with Ana", "I paired with Bertil"), or spoken of as a person right after
    ("with Ana, who ...", "with Ana and her husband"). A tool or product used with something
    ("we deploy it with Ansible", "encrypted with Restic") has none of these."""
    if name in known or name.split()[0] in known:
        return True
    if _IN_COMPANY_WITH.search(before):
        return True
    after = raw[len(before) :]
    return bool(
        re.match(
            rf"{re.escape(name)}(?:\s[^,.;!?]{{0,30}})?(?:\s+and\s+|,\s*|\s+)"
            r"(?:who|whom|she|he|her|his)\b",
            after,
        )
    )


def _inside_names(name: str, names: set[str], raw: str) -> bool:
    """Whether every place `raw` says `name` is inside one of `names` said there."""
    spans = [
        (m.start(), m.end())
        for n in names
        if n != name
        for m in re.finditer(rf"(?<![\w-]){re.escape(n)}(?![\w-])", raw)
    ]
    said = [m.start() for m in re.finditer(rf"(?<![\w-]){re.escape(name)}(?![\w-])", raw)]
    return bool(said) and all(any(a <= i < b for a, b in spans) for i in said)


_NOT_WITH_PERSON = re.compile(
    r"\b(?:go|going|goes|went|stick|sticking|stay|staying|settle|settled|along|done|fine|ok|"
    r"okay|happy|familiar|compatible|integrates?|integrated|works?|working|built|deal|dealing|"
    r"replaced?|replaces|experience|experiment\w*|start|started|starting|run|running)\s+with\s*$",
    re.I,
)


gate_patterns(globals())  # the cheap test in front of every pattern above (prefilter.py)


#: A title said before someone's name: "Mr", "Mrs", "Dr", "Prof." (never a firm's name).
_TITLE = re.compile(r"(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Sr|Sra|Srta|Mme|Mlle|Herr|Frau)\.?")
