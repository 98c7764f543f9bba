"""A session's referents by role: who "the wife", "Dad" or "her eldest" is.

People are often named once with who they are ("my wife Sal", "Sal, the wife", "the wife
(Dana, for the record)", "our eldest, Jonah", "Dad (Brian)", "my sister Grace's husband Tom",
"Grace's eldest, Tobi") and then spoken of by that role alone ("the wife passed!", "Dad's
guides are bought", "her eldest has got his halls sorted"). Each naming is remembered as a
referent: whose (the user, or the person named or meant before the possessive) and which role,
with the person it names. A later mention by the role alone means that person when exactly
one person is known in that role, from this session or from memory (the "Relation: the
user's …" and "Role: Grace's …" lines of the people pages): the line goes on that person's
page with the name written in brackets after the role, as said ("The wife (Dana) passed!",
"Dad's (Gordon's) guides are bought"). The words stay the user's own, so a later change or a
forget said the same way still finds the line, and the name in it lets a forget of the person
find it too.

A wrong person is worse than none, so nothing is resolved when unsure: two people in one
role ("my sister" of two sisters), a role never given a name, a role said as a predicate ("I'm
the eldest") or of something ("the eldest of three"), and a possessive pronoun ("her eldest",
"his mum") unless exactly one person or animal of that pronoun (or of none known) was named in
the last sentences: a pet named near a person is a second candidate.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from doctree.agent.offline import language as lang
from doctree.agent.offline.directory import Directory, person_slug
from doctree.agent.offline.language import NAME_WORD, NOT_NAMES
from doctree.agent.offline.model import Sentence
from doctree.agent.offline.prefilter import gate_patterns

#: The user, as the owner of a role ("my wife", "the eldest", "Dad").
USER = "the user"
#: How many sentences back a possessive pronoun may look for its owner.
WINDOW = 3

#: One word for each role, whichever word says it: "mom", "mam", "mother" are "mum".
_SAME_ROLE = {
    "mom": "mum", "mam": "mum", "mother": "mum", "ma": "mum", "father": "dad", "da": "dad",
    "missus": "wife", "hubby": "husband", "oldest": "eldest", "gran": "grandma",
    "granny": "grandma", "nan": "grandma", "nana": "grandma", "grandmother": "grandma",
    "grandad": "grandpa", "granddad": "grandpa", "grandfather": "grandpa",
}  # fmt: skip
#: Roles said in a familiar word, written on a page in the plain one a reader or a search
#: looks for.
_PLAIN_ROLE = {"missus": "wife", "hubby": "husband"}
_GENDER_OF = {"missus": "f", "hubby": "m", "mam": "f", "ma": "f", "da": "m", "gran": "f"}

#: Roles a person has to someone: family, and the few others said the same way.
_KIN_ROLES = (
    r"sister|brother|mum|mom|mam|mother|father|dad|wife|husband|missus|hubby|partner|son|"
    r"daughter|aunt|auntie|uncle|niece|nephew|cousin|grandma|grandpa|grandmother|grandfather|"
    r"gran|granny|nan|nana|grandad|granddad|grandson|granddaughter|girlfriend|boyfriend|"
    r"fianc[eé]e?|eldest|oldest|youngest|middle\s+one|little\s+one|stepmum|stepdad|"
    r"flatmate|housemate|roommate|boss|manager"
)
_ROLE = rf"(?P<rel>{lang.kin_word(_KIN_ROLES)})"
#: Roles "the" gives the user's own ("the wife", "the eldest"); "the sister" is anyone's.
_THE_ROLES = {
    "wife", "husband", "missus", "hubby", "eldest", "oldest", "youngest", "middle one",
    "little one",
}  # fmt: skip
#: Parents and grandparents said as a name ("Dad", "Mum"), capitalised: the user's.
_PARENT = r"(?P<rel>Mum|Mom|Mam|Dad|Nan|Nana|Gran|Granny|Grandma|Grandpa|Grandad)"
_PARENT_NAMES = {"Mum", "Mom", "Mam", "Dad", "Nan", "Nana", "Gran", "Granny", "Grandma", "Grandpa",
                 "Grandad"}  # fmt: skip
#: What may sit between a role and the name it gives: "(", ", ", " ", "is", "is called",
#: ", who everyone calls".
_GIVES = (
    r"(?:\s*\(\s*|,\s*|\s+(?:(?:is|was)\s+(?:called\s+|named\s+)?)?)"
    r"(?:(?:who\s+(?:\w+\s+){0,2}calls?(?:\s+(?:him|her|them))?|called|named|known\s+as)\s+)?"
)
_NAME = rf"(?P<name>{NAME_WORD}(?:\s+{NAME_WORD})?)"
#: What must follow a name set off by a comma or a bracket, so it is the role's own name and
#: not the subject of what follows ("my sister, Orla is her baby" names no sister).
_ENDS = r"(?=\s*(?:[,;:.!?)]|$|\s[-–—]\s|\s+and\s))"

#: A role with the name it gives: "my wife Sal", "the wife (Dana", "our eldest, Jonah,",
#: "Grace's husband is Femi", "his mum, who everyone calls Mama Bola".
_GIVEN = re.compile(
    rf"(?<![\w'’])(?P<whose>[Mm]y|[Oo]ur|[Tt]he|[Hh]is|[Hh]er|[Tt]heir|(?P<owner>{NAME_WORD})['’]s)\s+"
    rf"{_ROLE}(?P<gives>{_GIVES}){_NAME}"
)
#: A name with the role after it: "Sal, the wife", "Jonah (our eldest)", "Femi, her husband",
#: "Tobias is my husband".
_NAME_THEN_ROLE = re.compile(
    rf"(?<![\w'’]){_NAME}(?:,\s*|\s*\(\s*|\s+(?:is|was|['’]s)\s+)"
    rf"(?P<whose>my|our|the|his|her|their)\s+{_ROLE}"
    rf"(?![\w'’-])(?=\s*[,;:.!?)]|\s*$)"
)
#: What may come before a role that opens a sentence: nothing, a conjunction, or the role
#: whose the role is ("My sister Grace's husband, Tom, …").
_OPENS = re.compile(
    rf"\W*(?:(?:and|but|so|also|plus|oh)\W+)*(?:(?:my|our|the|his|her)\s+{_ROLE.replace('rel', 'rel0')}\s+)?",
    re.I,
)
#: A parent said as a name with theirs: "Dad (Gordon)", "Mum, Helen,", "Gordon (Dad)".
_PARENT_GIVEN = re.compile(
    rf"(?<![\w'’]){_PARENT}(?:\s*\(\s*|,\s*){_NAME}{_ENDS}"
    rf"|(?<![\w'’]){_NAME.replace('name', 'name2')}\s*\(\s*{_PARENT.replace('rel', 'rel2')}\s*\)"
)
#: A role said alone, and whose it is: "the wife", "my sister", "Grace's husband", "her eldest".
_MENTION = re.compile(
    rf"(?<![\w'’])(?P<whose>[Mm]y|[Oo]ur|[Tt]he|[Hh]is|[Hh]er|(?P<owner>{NAME_WORD})['’]s)\s+"
    rf"{_ROLE}(?P<poss>['’]s)?(?![\w-])"
)
#: A parent said as a name alone: "Dad's guides", "Mum rang".
_PARENT_ALONE = re.compile(rf"(?<![\w'’-]){_PARENT}(?P<poss>['’]s)?(?![\w'’-])")
#: A role that says what someone is, not who is meant ("I'm the eldest", "she was my boss"),
#: or of something ("the eldest of three", "my sister in Leeds" of two sisters).
_PREDICATE = re.compile(
    r"(?:\b(?:am|is|are|was|were|be|been|being|become|became|as)|['’](?:m|s|re))\s+$", re.I
)
_OF_AFTER = re.compile(r"\s+(?:of|in|at|from|who|that)\b|\s+[A-Z]")
#: Words after a parent's name that make it a title or a word, not the parent ("Nana Joan").
_NOT_AFTER_PARENT = re.compile(rf"\s+{NAME_WORD}")


def role_of(rel: str) -> str:
    """One word for a role, however it is said: "Mom" is "mum", "the missus" the wife."""
    rel = re.sub(r"\s+", " ", rel.lower())
    return _SAME_ROLE.get(rel, rel)


def gender_of(rel: str) -> str | None:
    """'f' or 'm' for a role that tells it."""
    low = re.sub(r"\s+", " ", rel.lower())
    return _GENDER_OF.get(low) or lang.kin_gender(role_of(low))


@dataclass
class Referents:
    """The people a session named by a role, and the last sentences' candidates for "his"
    and "her"."""

    #: (whose: "the user" or a person's slug, role) -> the slugs named in that role
    roles: dict[tuple[str, str], set[str]] = field(default_factory=dict)
    #: slug -> the name as written
    names: dict[str, str] = field(default_factory=dict)
    #: the last sentences: the people named in each (slugs) and whether an animal was
    recent: list[tuple[list[str], bool]] = field(default_factory=list)
    #: the roles memory knows, read once when first asked (`Directory.roles_known`)
    known: dict[tuple[str, str], set[str]] | None = None
    #: the sentence read last, whose people count once the pronoun rules have read it
    last: Sentence | None = None

    def seen(self, directory: Directory) -> None:
        """The sentence read last joins the last sentences, with every person it names."""
        if self.last is None:
            return
        s, self.last = self.last, None
        named = [directory.person(n) for n in s.people if n not in (USER, s.speaker)]
        pet = bool(s.others.get("pets")) or bool(lang.PET_NOUN.search(s.raw or s.text))
        self.recent.append((named, pet))
        del self.recent[:-WINDOW]

    def rivals(
        self, one: str, others: list[str], want: str, gender: dict[str, str], directory: Directory
    ) -> bool:
        """Whether someone else of gender `want` besides `one` was named in the last
        sentences (their gender known from the session or from memory's pages), so that
        "she" could mean either."""
        near = {k for named, _ in self.recent[-WINDOW:] for k in named}
        return any(
            k in near and (gender.get(k) or self.gender_known(k, directory)) == want
            for k in others
            if k != one
        )

    def gender_known(self, slug: str, directory: Directory) -> str | None:
        """'f' or 'm' for a person memory's pages give a role that tells it ("the user's
        sister", "Grace's husband")."""
        if self.known is None:
            self.known = directory.roles_known()
        for (_, rel), slugs in self.known.items():
            if slug in slugs and (g := gender_of(rel)) is not None:
                return g
        return None

    def add(self, whose: str, rel: str, slug: str, name: str) -> None:
        self.roles.setdefault((whose, role_of(rel)), set()).add(slug)
        self.names.setdefault(slug, name)

    def who(self, whose: str, rel: str, directory: Directory) -> str | None:
        """The one person known in role `rel` of `whose`, or None: none, or more than one."""
        key = (whose, role_of(rel))
        if self.known is None:
            self.known = directory.roles_known()
        found = self.roles.get(key, set()) | self.known.get(key, set())
        return next(iter(found)) if len(found) == 1 else None


def roles_on_page(slug: str, body: str) -> list[tuple[str, str]]:
    """(whose, role) a person's page says they are: "- Relation: the user's wife" is the
    user's wife, "- Role: Grace's eldest" Grace's eldest."""
    out = []
    for m in re.finditer(r"^- Relation: the user's (?P<rel>[\w -]+?)(?: \(|$)", body, re.M):
        out.append((USER, role_of(m.group("rel"))))
    for m in re.finditer(
        rf"^- Role: (?P<owner>{NAME_WORD}(?:\s+{NAME_WORD})?)'s (?P<rel>[\w -]+?)(?: \(|$)",
        body,
        re.M,
    ):
        out.append((person_slug(m.group("owner")), role_of(m.group("rel"))))
    return out


def by_role(
    s: Sentence,
    raw: str,
    referents: Referents,
    directory: Directory,
    gender: dict[str, str],
) -> str:
    """Read the roles of sentence `s` (`raw` as said): remember each person it names with a
    role, and put each person it means by a role alone on it, with the name in brackets in
    its text. `gender` is the session's known genders by slug, which a role that tells one
    adds to. Returns `raw` with each role resolved replaced by the name, for the pronoun
    rules that read it next (so "The wife has her test" is Dana's, and "her" is Dana)."""
    referents.seen(directory)
    referents.last = s
    if not _could_say_a_role(raw):
        return raw
    spans: list[tuple[int, int]] = []  # the introductions: no mention inside them
    for m in _overlapping(_GIVEN, raw):
        comma = m.group("gives").strip() == ","
        if comma and not _ends_at(raw, m.end()):
            continue  # "my sister, Orla is her baby": Orla is not the sister
        if _the_not_users(m):
            continue
        name = _a_name(m.group("name"), directory)
        whose = _whose(m, raw, s, referents, directory, gender)
        if name is not None and whose is not None:
            _introduce(s, whose, m.group("rel"), name, referents, directory, gender)
            spans.append(m.span())
            if _OPENS.fullmatch(raw[: m.start()]) and m.group("gives").strip() in (",", "("):
                s.subject = name  # "Grace's eldest, Tobi, got into Leeds": Tobi did
                s.people.remove(name)
                s.people.insert(0, name)
    for m in _NAME_THEN_ROLE.finditer(raw):
        name = _a_name(m.group("name"), directory)
        whose = _whose(m, raw, s, referents, directory, gender)
        if name is not None and whose is not None and not _the_not_users(m):
            _introduce(s, whose, m.group("rel"), name, referents, directory, gender)
            spans.append(m.span())
    for m in _PARENT_GIVEN.finditer(raw):
        rel, given = m.group("rel") or m.group("rel2"), m.group("name") or m.group("name2")
        if (name := _a_name(given, directory)) is not None:
            _introduce(
                s, _speaker(s, referents, directory), rel, name, referents, directory, gender
            )
            spans.append(m.span())
    # the mentions by a role alone, each resolved where exactly one person fits
    found: list[tuple[re.Match, str]] = []
    for m in [*_overlapping(_MENTION, raw), *_PARENT_ALONE.finditer(raw)]:
        if any(a <= m.start() < b for a, b in spans) or _not_a_reference(m, raw):
            continue
        if _the_not_users(m):
            continue
        whose = _whose(m, raw, s, referents, directory, gender)
        slug = referents.who(whose, m.group("rel"), directory) if whose else None
        if slug is not None and slug != whose:
            found.append((m, slug))
    out = raw
    for m, slug in sorted(found, key=lambda x: -x[0].start()):
        name = referents.names.get(slug) or directory.people.get(slug) or slug
        poss = m.group("poss") or ""
        s.text = _with_name(s.text, m.group(0), name, poss)
        out = out[: m.start()] + name + poss + out[m.end() :]
        if name not in s.people:
            s.people.append(name)
        if (g := gender_of(m.group("rel"))) is not None:
            gender.setdefault(slug, g)
    if found:  # the person named first is who the sentence is about, as for names said
        s.people.sort(key=lambda n: out.find(n) if n in out else len(out))
    return out


def _overlapping(pattern: re.Pattern, raw: str) -> list[re.Match]:
    """Every match of `pattern` in `raw`, overlapping ones too: "my sister Grace's husband
    Tom" names Grace (the user's sister) and Tom (Grace's husband)."""
    out, at = [], 0
    while (m := pattern.search(raw, at)) is not None:
        out.append(m)
        at = m.start() + 1
    return out


def _the_not_users(m: re.Match) -> bool:
    """Whether a role after "the" is anyone's rather than the user's ("the sister" of a
    story; "the wife", "the eldest" are the user's)."""
    whose = m.groupdict().get("whose") or ""
    return whose.lower() == "the" and role_of(m.group("rel")) not in _THE_ROLES


def _could_say_a_role(raw: str) -> bool:
    """A cheap test: whether `raw` holds a role word at all (most sentences hold none)."""
    return _ANY_ROLE.search(raw) is not None


_ANY_ROLE = re.compile(rf"(?<![\w'’-]){lang.kin_word(_KIN_ROLES)}|{_PARENT.replace('rel', 'rel0')}")


def _a_name(name: str, directory: Directory) -> str | None:
    """The name a role gives, or None when it is no person's: a word like "And", a day, a
    month, or a name memory knows as a place, a firm or a pet."""
    words = [w for w in name.split() if w not in NOT_NAMES]
    if not words or words[0] != name.split()[0]:
        return None
    low = words[-1].lower()
    if low in lang.WEEKDAYS or low in lang.MONTHS or words[0].lower() in lang.WEEKDAYS:
        words = words[:1] if len(words) > 1 and words[0].lower() not in lang.WEEKDAYS else []
    clean = " ".join(words)
    if not clean or directory.kind_of(clean) or clean in directory.not_people:
        return None
    return clean


def _ends_at(raw: str, end: int) -> bool:
    return bool(re.match(_ENDS, raw[end:]))


def _not_a_reference(m: re.Match, raw: str) -> bool:
    """Whether a role said alone names nobody in particular: said as what someone is ("I'm
    the eldest"), of something ("the eldest of three"), or a title before a name ("Nana
    Joan", "my sister Grace" is an introduction)."""
    before, after = raw[: m.start()], raw[m.end() :]
    if m.group("poss"):
        return False  # "it's the wife's birthday": whose, never what someone is
    if _PREDICATE.search(before):
        return True
    if "owner" not in m.groupdict():  # a parent's name: "Dad", "Mum"
        if _NOT_AFTER_PARENT.match(after):
            return True  # "Nana Joan": a title
        return bool(re.search(r"(?:[Mm]y|[Oo]ur|[Hh]is|[Hh]er|[Tt]heir|[Yy]our|['’]s)\s+$", before))
    return bool(_OF_AFTER.match(after))


def _whose(
    m: re.Match,
    raw: str,
    s: Sentence,
    referents: Referents,
    directory: Directory,
    gender: dict[str, str],
) -> str | None:
    """Whose role a match says: the user's ("my", "our", "the", "Dad"), a named person's
    ("Grace's"), or the one person a "his" or "her" can mean; None when unsure."""
    groups = m.groupdict()
    said = (groups.get("whose") or "my").lower()  # "Dad" is "my dad"
    if said in ("my", "our", "the"):
        return _speaker(s, referents, directory)
    if groups.get("owner"):
        owner = m.group("owner")
        if owner in NOT_NAMES or directory.kind_of(owner) or owner in _PARENT_NAMES:
            return None
        known = directory.known_person_names()
        slug = directory.person(owner) if owner in known else person_slug(owner)
        referents.names.setdefault(slug, owner)  # "Grace's": whose role it is, as written
        return slug
    if said == "their":
        return None  # a couple's, or anyone's: never sure
    want = "m" if said == "his" else "f"
    return _one_candidate(want, raw[: m.start()], s, referents, directory, gender)


def _speaker(s: Sentence, referents: Referents, directory: Directory) -> str:
    """Whose "my" is: the user's, or a named speaker's ("Anna: my husband Tom …")."""
    if s.speaker in (USER, "the assistant"):
        return USER
    slug = directory.person(s.speaker)
    referents.names.setdefault(slug, s.speaker)
    return slug


def _one_candidate(
    want: str,
    before: str,
    s: Sentence,
    referents: Referents,
    directory: Directory,
    gender: dict[str, str],
) -> str | None:
    """The one person of gender `want` (or of none known) named in the last sentences or
    earlier in this one; None when there are two, none, or an animal besides."""
    here = [directory.person(n) for n in s.people if n != USER and n in before]
    animal = bool(s.others.get("pets")) or bool(lang.PET_NOUN.search(before))
    slugs: list[str] = list(here)
    for named, pet in referents.recent[-WINDOW:]:
        slugs += named
        animal = animal or pet
    fits = {
        k for k in slugs if (gender.get(k) or referents.gender_known(k, directory)) in (want, None)
    }
    if len(fits) != 1 or animal:
        return None
    return next(iter(fits))


def _introduce(
    s: Sentence,
    whose: str,
    rel: str,
    name: str,
    referents: Referents,
    directory: Directory,
    gender: dict[str, str],
) -> None:
    """`name` is `whose`'s `rel`: remembered for later mentions, and said on the sentence so
    the person's page records it (a "Relation" line for the user's, a "Role" line else)."""
    slug = directory.person(name)
    if slug == whose:
        return
    referents.add(whose, rel, slug, name)
    if (g := gender_of(rel)) is not None:
        gender.setdefault(slug, g)
    if name not in s.people and not any(name in p for p in s.people):
        s.people.append(name)
    said = re.sub(r"\s+", " ", rel.lower())
    said = _PLAIN_ROLE.get(said, said)  # "the missus": the page says "wife"
    if whose == USER:
        if s.relation is None:
            s.relation = (said, name)
    else:
        owner = referents.names.get(whose) or directory.people.get(whose) or whose
        role = (name, f"{owner}'s {said}")
        if role not in s.roles and not any(n == name for n, _ in s.roles):
            s.roles.append(role)


def _with_name(text: str, said: str, name: str, poss: str) -> str:
    """`text` with `name` in brackets after the role `said` ("The wife (Dana) passed!",
    "Dad's (Gordon's) guides"), where it says it first without one."""
    at = re.search(rf"(?<![\w'’]){re.escape(said)}(?![\w'’-])(?!\s*\()", text)
    if at is None:
        return text
    bracket = f" ({name}{poss})"
    return text[: at.end()] + bracket + text[at.end() :]


def known_roles(
    people: dict[str, str], read: Callable[[str], str | None]
) -> dict[tuple[str, str], set[str]]:
    """The roles memory's people pages give their people: (whose, role) -> slugs. `read`
    gives a page's body by its slug."""
    out: dict[tuple[str, str], set[str]] = {}
    for slug in people:
        body = read(slug)
        if body and ("- Relation: " in body or "- Role: " in body):
            for key in roles_on_page(slug, body):
                out.setdefault(key, set()).add(slug)
    return out


gate_patterns(globals())  # the cheap test in front of every pattern above (prefilter.py)


def said_by_role(body: str, name: str) -> list[tuple[str, str, str]]:
    """The lines of a person's page written of a sentence that meant them by a role alone
    ("The wife (Dana) passed!"): (session id, its page, the sentence without the name), so
    that forgetting the person takes the other lines written of that sentence too (the
    session's opening quote, its line on `active`), which never name them."""
    out = []
    for ln in body.splitlines():
        said = re.sub(rf" \({re.escape(name)}(?:['’]s)?\)", "", ln)
        cite = re.search(r"\(\[\[(?P<path>[^\]|]+)\|(?P<sid>[^\]]+)\]\]\)", ln)
        if said != ln and ln.startswith("- ") and cite is not None:
            text = re.sub(r"^- (?:\d{4}-\d\d-\d\d: )?", "", said[: said.rfind(" ([[")])
            out.append((cite.group("sid"), cite.group("path"), text))
    return out
