"""The names memory knows, each with the slug of its page: the people, projects,
organisations, places and pets it has pages for, and those a session adds as it is read."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date

from doctree.agent.offline import language as lang
from doctree.agent.offline.memo import SIZE, remembered_up_to
from doctree.store.paths import slugify


@remembered_up_to(SIZE, shared=True)
def is_title(name: str) -> bool:
    """Whether `name` starts with a title ("Dr. Okafor"): a title names a person. Cached:
    every name known is asked again for each sentence read."""
    return bool(re.match(lang.TITLE, name))


@remembered_up_to(SIZE, shared=True)
def person_slug(name: str) -> str:
    """Slug of a page: 'Dr. Okafor' -> 'dr-okafor', 'Priya Raman' -> 'priya-raman', 'Lucía' -> 'lucia'.
    Cached: a session names the same few people thousands of times."""
    return slugify(lang.ascii_slug_text(name).replace(".", ""))


OTHER_KINDS = ("organisations", "places", "pets")


class Directory:
    """The people, projects, organisations, places and pets known before and during a run."""

    def __init__(
        self,
        people: dict[str, str],
        projects: dict[str, str],
        others: dict[str, dict[str, str]] | None = None,
    ):
        #: bumped on every change of what the directory holds: what is worked out from it
        #: (the words of every name it knows) is kept by the version it was read at
        self.version = 0
        self.people = dict(people)  # slug -> display name
        self.projects = dict(projects)
        self.others = {k: dict((others or {}).get(k, {})) for k in OTHER_KINDS}
        self.not_people: set[str] = set()  # names spoken of as no person is (a deity)
        self.aliases: dict[str, str] = {}  # a nickname introduced in the session -> slug
        self.kin: set[str] = set()  # people known as the user's family ("my sister Anna")
        #: whether a page known before the run is of the user's family (read when asked)
        self.kin_page: Callable[[str], bool] = lambda slug: False
        self._remembered_dates: list[tuple[str, date]] = []
        #: the roles the people pages known before the run give: (whose, role) -> slugs
        #: ("the user", "wife") -> {"dana"}; read when a role said alone is first looked up
        self.roles_known: Callable[[], dict[tuple[str, str], set[str]]] = dict
        #: whether a current line of memory from an earlier session holds a word (a code, a
        #: name no page has): read only when a recap names what this session did not say
        self.in_memory: Callable[[str], bool] = lambda word: False

    @property
    def remembered_dates(self) -> list[tuple[str, date]]:
        """The upcoming dates memory holds from earlier sessions, each with its line (lower
        case): what a date said here may count from ("the Tuesday after cardiology")."""
        return self._remembered_dates

    @remembered_dates.setter
    def remembered_dates(self, dates: list[tuple[str, date]]) -> None:
        self._remembered_dates = list(dates)
        self.version += 1

    def not_a_person(self, name: str) -> None:
        """`name` is spoken of as no person is (a deity, a brand)."""
        if name not in self.not_people:
            self.not_people.add(name)
            self.version += 1

    def add_kin(self, slug: str) -> None:
        """The person of `slug` is one of the user's family."""
        if slug not in self.kin:
            self.kin.add(slug)
            self.version += 1

    def is_kin(self, slug: str) -> bool:
        """Whether the person of `slug` is known as one of the user's family."""
        return slug in self.kin or self.kin_page(slug)

    def alias(self, nick: str, name: str) -> None:
        """`nick` is what `name` is called ("Theodore — we call him Teddy")."""
        slug = self.person(name)
        if person_slug(nick) != slug and self.aliases.get(nick) != slug:
            self.aliases[nick] = slug
            self.version += 1

    def kind_of(self, name: str) -> str | None:
        """'organisations', 'places' or 'pets' for a name known as one, else None."""
        found = self._known_other(name)
        return found[0] if found else None

    def _known_other(self, name: str) -> tuple[str, str] | None:
        """(kind, slug) of the organisation, place or pet `name` names: by its own name, or
        by the first word of one known by a longer name and of no other ("Fernhill" for
        Fernhill Animal Rescue), unless a person is known by that word."""
        slug = person_slug(name)
        for kind in OTHER_KINDS:
            if slug in self.others[kind]:
                return kind, slug
        if " " in name.strip() or not slug or slug in self.people:
            return None
        longer = [(k, s) for k in OTHER_KINDS for s in self.others[k] if s.startswith(slug + "-")]
        return longer[0] if len(longer) == 1 else None

    def other(self, kind: str, name: str) -> str:
        if (found := self._known_other(name)) is not None:
            return found[1]
        slug = person_slug(name)
        self.others[kind][slug] = name
        self.version += 1
        return slug

    def person(self, name: str) -> str:
        """The slug of the page for `name`, reusing a page known by its full name, or by the
        first name alone when exactly one known person has it. A full name is not joined to
        one of the user's family known only by their first name ("my sister Anna" is not
        "Anna Berg from accounts"): two pages are a smaller harm than one person's facts on
        another's."""
        if name in self.aliases:
            return self.aliases[name]
        slug = person_slug(name)
        if slug in self.people:
            return slug
        first = person_slug(name.split()[0]) if not is_title(name) else None
        if first and first in self.people and not (" " in name.strip() and self.is_kin(first)):
            return first  # a full name is not the user's sister known by her first name
        matches = sorted(s for s in self.people if first and s.startswith(first + "-"))
        if len(matches) == 1 and " " not in name.strip():
            return matches[0]
        self.people[slug] = name
        self.version += 1
        return slug

    def known_person_names(self) -> dict[str, str]:
        """Name forms to look for in text (full and first names) -> slug."""
        forms: dict[str, str] = {}
        for slug, name in self.people.items():
            forms[name] = slug
            if not is_title(name) and " " in name:
                forms.setdefault(name.split()[0], slug)
        forms.update(self.aliases)
        return forms

    def project(self, name: str) -> str:
        slug = slugify(name)
        if slug not in self.projects:
            self.projects[slug] = name[:1].upper() + name[1:]
            self.version += 1
        return slug
