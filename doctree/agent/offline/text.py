"""What a transcript says: sentences, dates, names and the kinds of statement the rules find."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta

from doctree import stopwords
from doctree.agent.offline import language as lang
from doctree.agent.offline.language import NAME
from doctree.memory.secrets import mask, secret_location
from doctree.sessions.transcripts import Transcript
from doctree.store.paths import slugify

# -- what a transcript says ---------------------------------------------------------------------

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
MONTHS = (
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
)  # fmt: skip
_MONTH_ABBR = {m[:3]: i + 1 for i, m in enumerate(MONTHS)} | {
    m: i + 1 for i, m in enumerate(MONTHS)
}
_NUMBERS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10,
}  # fmt: skip
_MONTH_RE = r"(?:" + "|".join(MONTHS) + r"|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\b\.?"
_ABSOLUTE = re.compile(
    rf"\b(?P<m1>{_MONTH_RE})\s+(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?\b"
    rf"|\b(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?\s+(?P<m2>{_MONTH_RE})",
    re.I,
)
_WEEKDAY_RE = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
_RELATIVE = re.compile(
    r"\b(?:"
    r"(?P<dat>(?:the\s+)?day\s+after\s+tomorrow)"
    r"|(?P<tomorrow>tomorrow)"
    r"|(?P<yesterday>yesterday)"
    r"|(?P<today>today|tonight|this\s+(?:morning|afternoon|evening))"
    r"|(?P<nextweek>next\s+week)\b(?!end)"
    r"|(?P<lastweek>last\s+week)\b(?!end)"
    r"|(?P<weekend>(?:this|next)\s+weekend)"
    r"|(?P<inn>in\s+(?P<n>\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten)\s+"
    r"(?P<unit>days?|weeks?))"
    rf"|(?P<afternext>(?P<day2>{_WEEKDAY_RE})\s+after\s+next|the\s+week\s+after\s+next)"
    rf"|(?P<dom>(?:(?:on\s+)?{_WEEKDAY_RE},?\s+)?(?:the\s+)?(?P<n2>[1-9]|[12]\d|3[01])"
    rf"(?:st|nd|rd|th)(?:\s+of\s+(?P<thismonth>this|next)\s+month)?(?!\s+(?:of\s+)?{_MONTH_RE}))"
    rf"|(?P<wd>(?:(?P<mod>this|next|last|coming|on)\s+)?(?P<day>{_WEEKDAY_RE}))"
    rf"(?!,?\s+(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)?\b|,?\s+{_MONTH_RE}\s+\d)"
    r")\b",
    re.I,
)
_RECURRING_AFTER = re.compile(r"\s*(?:s\b|mornings|afternoons|evenings|nights)", re.I)

_NAME = NAME
_PERSON_TRIGGER = re.compile(
    r"\b(?:with|met|meet|meeting|call|called|calling|email|emailed|ask|asked|tell|told|"
    r"invite|invited|page|paged|thank|thanked|talked to|talk to|spoke to|spoke with|"
    r"heard from|hear from|visit|visited)\s+"
    rf"(?P<names>{_NAME}(?:(?:,\s*|\s+and\s+){_NAME})*)"
)
_RELATION = re.compile(
    r"\b(?i:my)\s+(?P<rel>(?i:sister|brother|mum|mom|mother|father|dad|wife|husband|partner|"
    r"manager|boss|colleague|friend|son|daughter|dentist|doctor|neighbour|neighbor|cousin))\s+"
    rf"(?P<name>{_NAME})"
)
_NOT_NAMES = {
    *(w.capitalize() for w in WEEKDAYS), *(m.capitalize() for m in MONTHS), "I", "The",
    "We", "It", "This", "That", "These", "Those", "Thanks", "Thank", "Yes", "No", "Sure",
    "Also", "And", "But", "So", "Then", "Today", "Tomorrow", "Tonight", "Yesterday", "Next",
    "Last", "OK", "Ok", "Okay", "Good", "Great", "Please", "Let", "Our", "My", "His", "Her",
    "Their", "You", "Your", "He", "She", "They", "Me", "Us", "Them", "A", "An", "In", "On",
    "At", "For", "If", "When", "Hi", "Hey", "Hello", "Morning", "Evening", "Afternoon",
    "Back", "Quick", "Note", "Notes", "Remember", "Actually", "Correction", "Team",
    "Everyone", "All",
    "Update", "Reminder", "Todo", "Status", "Agenda", "Summary", "Context", "Background",
    "Problem", "Question", "Answer", "Edit", "Rule", "Change", "Plan", "Idea", "Decision",
    "Action", "Big", "Bad", "News", "Hmm", "Aww", "Wow", "Honestly", "Before", "After",
    "Can", "Could", "Would", "Should", "Will", "What", "Why", "How", "Where", "Who", "Not",
    "Just", "Still", "Anyway", "Btw", "Fyi", "Ps", "Dear", "Cheers", "Regards", "Congrats",
}  # fmt: skip
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

_PREFERENCE = re.compile(
    r"\b(?:i|we)\s+(?:really\s+|much\s+|strongly\s+|always\s+)?"
    r"(?:prefer|like|love|hate|dislike|can't stand|don't like|do not like)\b"
    r"|\bi(?:'m|\s+am)\s+(?:a\s+)?(?:vegetarian|vegan|allergic|lactose|gluten)"
    r"|\bmy\s+favou?rite\b"
    r"|^(?:(?:and|also|but|so|please|oh),?\s+)*(?:don't|do not|never|always|avoid)\b"
    r"|\bi\s+(?:can't|cannot|can\s+not|won't|don't)\s+(?:do|make|attend|eat|drink|work|travel|"
    r"fly|drive|take|join|meet)\b"
    r"|\bi(?:'ve|\s+have)?\s+(?:switched|changed)\s+to\b|\bi(?:'ve|\s+have)?\s+(?:gave\s+up|given\s+up|"
    r"quit|stopped)\b",
    re.I,
)
#: How things are set up ("we use Linear for tickets"): kept in notes when nothing else holds it.
_SETUP = re.compile(
    r"\b(?:we|i)\s+(?:use|are\s+using|run|host|deploy\s+(?:to|on)|work\s+with|switched\s+to|"
    r"moved\s+to|pay\s+for|subscribe\s+to)\b|\bour\s+[\w-]+\s+(?:is|are|runs|lives)\b",
    re.I,
)
_DECISION = re.compile(
    r"\bwe(?:'ve|\s+have)?\s+(?:decided|agreed|chose|settled\s+on)\b"
    r"|\bwe're\s+going\s+with\b|\blet's\s+(?:go\s+with|use|book|pick|choose)\b"
    r"|\bdecision:",
    re.I,
)
_REMEMBER = re.compile(r"\bremember\s+(?:that\s+)?|\bnote\s+that\b|\bkeep\s+in\s+mind\b", re.I)
_CORRECTION_HEAD = re.compile(
    r"\b(?:actually|correction|to\s+correct|i\s+was\s+wrong|i\s+meant|my\s+mistake|sorry|"
    r"in\s+fact|change\s+of\s+plans?|scratch\s+that|update|turns\s+out|wait)\b",
    re.I,
)
_NOT_CLAUSE = re.compile(r",?\s+not\s+(?P<old>[^,.;:!?()—–]+)")
_FORGET = re.compile(
    r"\b(?:forget|delete|erase|remove)\b[^.]*\b(?:about|page|memory|notes?)\b", re.I
)
_ADDRESSED = re.compile(
    r"memory[\s_-]agent|ignore\s+(?:all\s+)?(?:previous|prior|your|earlier)\s+instructions"
    r"|system\s+prompt|document_(?:read|write|edit|move|delete|search)|\.\./|~/\.\.|/etc/"
    r"|home\s+of\s+agent|delete\s+everything|recursive\s*=\s*true",
    re.I,
)
_ABBREVIATIONS = ("Dr.", "Mr.", "Mrs.", "Ms.", "Prof.", "e.g.", "i.e.", "vs.", "St.", "etc.")
IGNORED_WORDS = stopwords.FILLER


@dataclass
class Sentence:
    """One sentence said in the session, with what the rules found in it."""

    time: str
    text: str  # as said, relative dates annotated with their absolute date
    kinds: list[str] = field(default_factory=list)
    dates: list[tuple[str, date]] = field(default_factory=list)  # (phrase, date) resolved
    when: date | None = None  # the first date it names, relative or absolute
    people: list[str] = field(default_factory=list)  # person names as written, subject first
    projects: list[str] = field(default_factory=list)
    topics: list[str] = field(default_factory=list)
    relation: tuple[str, str] | None = None  # (relation, name)
    correction: tuple[str, str, str] | None = None  # (statement, old, new)
    speaker: str = "the user"  # who said it: the user, a named speaker, or the assistant
    statement: str = ""  # the text as a statement about its subject, in the third person
    subject: str | None = None  # the person the sentence is about, when it names one
    others: dict[str, list[str]] = field(default_factory=dict)  # organisations/places/pets
    roles: list[tuple[str, str]] = field(default_factory=list)  # (name, role)
    secrets: list[str] = field(default_factory=list)  # kinds of secret withheld from it
    raw: str = ""  # the sentence as said, corrections said with it applied
    replaces: list[Sentence] = field(default_factory=list)  # earlier ones it corrects


@dataclass
class Analysis:
    """Everything the rules found in one transcript, before any page is touched."""

    transcript: Transcript
    sentences: list[Sentence]
    counts: Counter
    tools: Counter
    tool_errors: int
    ignored: list[str]  # text addressed to the memory system, quoted as data
    forget: list[str] = field(default_factory=list)  # what to forget from earlier sessions
    forgotten: int = 0  # statements of this session left out on request
    #: requests not acted on: (what was said, why not)
    not_acted: list[tuple[str, str]] = field(default_factory=list)
    opening: str | None = None  # what the session was about, in the user's first words


def message_date(time: str) -> date:
    """The UTC calendar date of an ISO 8601 message time."""
    dt = datetime.fromisoformat(time.replace("Z", "+00:00"))
    if dt.tzinfo is not None:
        dt = dt.astimezone(UTC)
    return dt.date()


def _next_weekday(ref: date, wd: int, *, include_today: bool = False) -> date:
    delta = (wd - ref.weekday()) % 7
    if delta == 0 and not include_today:
        delta = 7
    return ref + timedelta(days=delta)


def resolve_relative(
    text: str, ref: date, *, past: bool = False
) -> tuple[str, list[tuple[str, date]]]:
    """Annotate relative dates in `text` with the absolute date they mean, said on `ref`.

    `tomorrow` -> `tomorrow (2026-11-17)`. Rules: a bare or `this`/`on` weekday is the next
    such day after `ref`; `next <weekday>` is that day in the following (ISO, Monday-first)
    week; `last <weekday>` the latest one before `ref`; `<weekday> after next` a week after the
    coming one. In a sentence about the past (`past`), a bare or `on` weekday is the latest
    such day before `ref`, unless it follows "for", "to", "until" or "by". Recurring forms (`Fridays`,
    `Friday afternoons`, `every Friday`) are left alone.
    """
    found: list[tuple[str, date]] = []
    out: list[str] = []
    pos = 0
    for m in _RELATIVE.finditer(text):
        phrase = m.group(0)
        d: date | None = None
        label = None
        if m.group("dat"):
            d = ref + timedelta(days=2)
        elif m.group("tomorrow"):
            d = ref + timedelta(days=1)
        elif m.group("yesterday"):
            d = ref - timedelta(days=1)
        elif m.group("today"):
            d = ref
        elif m.group("nextweek"):
            d = ref - timedelta(days=ref.weekday()) + timedelta(days=7)
            label = f"week of {d.isoformat()}"
        elif m.group("lastweek"):
            d = ref - timedelta(days=ref.weekday()) - timedelta(days=7)
            label = f"week of {d.isoformat()}"
        elif m.group("weekend"):
            monday = ref - timedelta(days=ref.weekday())
            if phrase.lower().startswith("next"):
                monday += timedelta(days=7)
            d = monday + timedelta(days=5)
            label = f"weekend of {d.isoformat()}"
        elif m.group("inn"):
            n = m.group("n").lower()
            count = int(n) if n.isdigit() else _NUMBERS[n]
            unit = 7 if m.group("unit").lower().startswith("week") else 1
            d = ref + timedelta(days=count * unit)
        elif m.group("afternext"):
            if m.group("day2"):
                d = _next_weekday(ref, WEEKDAYS.index(m.group("day2").lower())) + timedelta(days=7)
            else:
                d = ref - timedelta(days=ref.weekday()) + timedelta(days=14)
                label = f"week of {d.isoformat()}"
        elif m.group("dom"):
            if re.search(rf"\b{_MONTH_RE}\s*$", text[: m.start()], re.I):
                continue  # "April 30th": a month-day date, found by `absolute_dates`
            # "the 14th", "Friday the 19th": the day of the month wins over a weekday
            d = _day_of_month(
                ref, int(m.group("n2")), past=past, month=(m.group("thismonth") or "").lower()
            )
        elif m.group("wd"):
            before = text[: m.start()].lower()
            after = text[m.end() :]
            if _RECURRING_AFTER.match(after) or re.search(r"\b(?:every|each)\s+$", before):
                continue
            if not m.group("day")[0].isupper():
                continue  # weekday names are capitalised; 'friday' inside code is not a date
            wd = WEEKDAYS.index(m.group("day").lower())
            mod = (m.group("mod") or "").lower()
            if mod == "next":
                monday = ref - timedelta(days=ref.weekday()) + timedelta(days=7)
                d = monday + timedelta(days=wd)
            elif mod == "last":
                d = ref - timedelta(days=((ref.weekday() - wd) % 7) or 7)
            elif mod == "this":
                d = _next_weekday(ref, wd, include_today=True)
            elif past and not re.search(r"\b(?:for|to|until|till|by|before|from)\s+$", before):
                d = ref - timedelta(days=((ref.weekday() - wd) % 7) or 7)
            else:
                d = _next_weekday(ref, wd)
        if d is None:
            continue
        end = m.end()
        if text[end : end + 2] in ("'s", "’s"):
            end += 2  # "today's run (2026-11-20)", not "today (2026-11-20)'s run"
        found.append((phrase, d))
        out.append(text[pos:end])
        out.append(f" ({label or d.isoformat()})")
        pos = end
    out.append(text[pos:])
    return "".join(out), found


def _day_of_month(ref: date, day: int, *, past: bool, month: str = "") -> date | None:
    """The date a bare day of the month means said on `ref`: the next one to come (the
    latest one gone in a sentence about the past); "of this/next month" fixes the month."""
    first = ref.replace(day=1)
    months = [first]
    if month == "next" or not month:
        months.append((first + timedelta(days=32)).replace(day=1))
    if past and not month:
        months.insert(0, (first - timedelta(days=1)).replace(day=1))
    if month == "next":
        months = months[1:]
    candidates = []
    for m in months:
        try:
            candidates.append(m.replace(day=day))
        except ValueError:
            continue
    if month:
        return candidates[0] if candidates else None
    if past:
        gone = [d for d in candidates if d <= ref]
        return gone[-1] if gone else None
    coming = [d for d in candidates if d >= ref]
    return coming[0] if coming else None


def absolute_dates(text: str, ref: date, *, past: bool | None = None) -> list[tuple[str, date]]:
    """Month-day dates (`December 3`, `3 December`) with their year: in a sentence about the
    past the latest such day up to `ref`, in one about what is coming the next from `ref`;
    when the tense is not known (`past` None), the year that puts them nearest `ref`."""
    found = []
    for m in _ABSOLUTE.finditer(text):
        month = (m.group("m1") or m.group("m2")).lower().rstrip(".")
        day = int(m.group("d1") or m.group("d2"))
        num = _MONTH_ABBR.get(month) or _MONTH_ABBR.get(month[:3])
        if num is None:
            continue
        try:
            d = date(ref.year, num, day)
        except ValueError:
            continue
        if past is True and d > ref:
            d = date(ref.year - 1, num, day) if not (num == 2 and day == 29) else d
        elif past is False and d < ref - timedelta(days=7):
            # a week of slack: "the talk on March 3" said on March 5 is still this year's
            d = date(ref.year + 1, num, day) if not (num == 2 and day == 29) else d
        elif past is not None:
            pass
        elif d < ref - timedelta(days=183):
            d = date(ref.year + 1, num, day)
        elif d > ref + timedelta(days=183):
            d = date(ref.year - 1, num, day)
        found.append((m.group(0), d))
    return found


def user_sentences(text: str) -> tuple[list[str], list[str]]:
    """Split a user message into the user's own sentences and the quoted or fenced rest.

    Quoted (`>`) and fenced text is what someone pasted: context, not the user's word.
    """
    own: list[str] = []
    quoted: list[str] = []
    para: list[str] = []
    in_fence = False

    def flush() -> None:
        if para:
            own.extend(split_sentences(" ".join(para)))
            para.clear()

    for raw in text.split("\n"):
        line = raw.strip()
        if line.startswith("```") or line.startswith("~~~"):
            flush()
            in_fence = not in_fence
            continue
        if in_fence:
            quoted.append(line)
            continue
        if line.startswith(">"):
            flush()
            quoted.append(line.lstrip("> ").strip())
            continue
        if not line:
            flush()
            continue
        item = re.match(r"(?:[-*+]|\d+[.)])\s+(.*)", line)
        if item:
            flush()
            para.append(item.group(1))
            flush()
            continue
        para.append(line)
    flush()
    return [s for s in own if s], quoted


#: A line that introduces someone else's words below it: "my colleague pasted this:",
#: "Ana wrote:", "here's the message:".
_PASTE_INTRO = re.compile(
    r"\b(?:pasted|pasting|paste|forwarded|forwarding|wrote|writes|said|says|sent|posted|"
    r"copied|quoting|message|email|text|reads|reply|replied)\b[^:]{0,60}:\s*$",
    re.I,
)


def pasted_sentences(text: str) -> set[str]:
    """The sentences of a message below a line that introduces someone else's words ("my
    colleague pasted this:", "Ana wrote:"): kept as what was said, never a request."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if _PASTE_INTRO.search(line.strip()):
            return set(user_sentences("\n".join(lines[i + 1 :]))[0])
    return set()


def split_sentences(paragraph: str) -> list[str]:
    """Sentences of a paragraph; abbreviations such as `Dr.` do not end one."""
    parts = re.split(r"(?<=[.!?])\s+(?=[\"'(A-Za-z0-9`])", paragraph.strip())
    out: list[str] = []
    for p in parts:
        if out and out[-1].endswith(_ABBREVIATIONS):
            out[-1] += " " + p
        else:
            out.append(p)
    return [s.strip() for s in out if s.strip()]


def _code_word(text: str, word: str) -> bool:
    """Whether `word` is written as a name of a program: in backticks, or all lowercase
    where a plain word would not be (before a version number)."""
    return bool(re.search(rf"`{re.escape(word)}`|\b{re.escape(word)}\s+\d", text))


def _names_in(group: str) -> list[str]:
    names = re.findall(_NAME, group)
    return [n for n in names if n.split()[0].rstrip(".") not in _NOT_NAMES or is_title(n)]


def is_title(name: str) -> bool:
    return bool(re.match(r"(?:Dr|Mr|Mrs|Ms|Prof)\.?\s", name))


def _clean_name(name: str) -> str | None:
    words = name.split()
    if is_title(name):
        return name if len(words) >= 2 else None
    # 'Priya Raman' keeps both words; 'Bob Thanks' drops a trailing non-name
    words = [w for w in words if w not in _NOT_NAMES]
    return " ".join(words) or None


def person_slug(name: str) -> str:
    """Slug of a page: 'Dr. Okafor' -> 'dr-okafor', 'Priya Raman' -> 'priya-raman', 'Lucía' -> 'lucia'."""
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
        self.people = dict(people)  # slug -> display name
        self.projects = dict(projects)
        self.others = {k: dict((others or {}).get(k, {})) for k in OTHER_KINDS}
        self.not_people: set[str] = set()  # names spoken of as no person is (a deity)
        self.aliases: dict[str, str] = {}  # a nickname introduced in the session -> slug

    def alias(self, nick: str, name: str) -> None:
        """`nick` is what `name` is called ("Theodore — we call him Teddy")."""
        slug = self.person(name)
        if person_slug(nick) != slug:
            self.aliases[nick] = slug

    def kind_of(self, name: str) -> str | None:
        """'organisations', 'places' or 'pets' for a name known as one, else None."""
        slug = person_slug(name)
        for kind in OTHER_KINDS:
            if slug in self.others[kind]:
                return kind
        return None

    def other(self, kind: str, name: str) -> str:
        slug = person_slug(name)
        if self.kind_of(name) is None:
            self.others[kind][slug] = name
        return slug

    def person(self, name: str) -> str:
        """The slug of the page for `name`, reusing a page known by first or full name."""
        if name in self.aliases:
            return self.aliases[name]
        slug = person_slug(name)
        if slug in self.people:
            return slug
        first = person_slug(name.split()[0]) if not is_title(name) else None
        if first and first in self.people:
            return first
        matches = sorted(s for s in self.people if first and s.startswith(first + "-"))
        if len(matches) == 1:
            return matches[0]
        self.people[slug] = name
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
        self.projects.setdefault(slug, name[:1].upper() + name[1:])
        return slug


_SPEAKER = re.compile(rf"^\s*(?:\[[^\]\n]{{1,20}}\]\s*)?(?P<name>{_NAME}):\s+")
_ITEM_LABEL = re.compile(rf"^(?P<name>{_NAME})\s*(?::|\s[-–—])\s+")
_FIRST_PERSON = re.compile(r"\b(?:I|me|my|mine|myself|I'm|I've|I'll|I'd)\b")


def _speaker(text: str, *, chat: bool) -> tuple[str | None, str]:
    """A message that starts with its speaker ("[D1:3] Caroline: ..."): (name, the rest)."""
    m = _SPEAKER.match(text)
    if m and (chat or text.lstrip().startswith("[")) and m.group("name") not in _NOT_NAMES:
        return m.group("name"), text[m.end() :]
    return None, text


def analyse(transcript: Transcript, directory: Directory) -> Analysis:
    """Apply the rules to every message of `transcript`; touches no page."""
    counts: Counter = Counter(m.kind for m in transcript.messages)
    chat = counts["assistant"] == 0  # people talking to each other, no assistant
    tools: Counter = Counter()
    tool_errors = 0
    ignored: list[str] = []
    a = Analysis(transcript, [], counts, tools, 0, ignored)
    pending: list[Sentence] = []  # what the assistant just said, kept if the user accepts it
    previous: list[Sentence] = []  # the last user message's sentences: what "forget that" means
    context = _Context(directory)
    dropped: list[str] = []  # what the user asked to forget
    # the assistant's message answers the user's question from a tool's result
    after_tool = from_tool = asked = False
    for m in transcript.messages:
        if m.kind == "user" and isinstance(m.content, str):
            asked = m.content.rstrip().endswith("?")
        if m.kind != "assistant":
            after_tool = asked and (
                m.kind == "tool_result" or (after_tool and m.kind == "tool_call")
            )
        if m.kind == "tool_call" and isinstance(m.content, dict):
            tools[str(m.content.get("name", "?"))] += 1
        if m.kind == "tool_result" and isinstance(m.content, dict):
            if m.content.get("is_error"):
                tool_errors += 1
            text = m.content.get("content")
            if isinstance(text, str):
                ignored.extend(_addressed(text))
        if not isinstance(m.content, str) or m.kind not in ("user", "assistant"):
            continue
        ref = message_date(m.time)
        if m.kind == "assistant":
            pending = _findings(m.time, m.content, ref, directory, from_tool=after_tool)
            from_tool = after_tool
            continue
        speaker, content = _speaker(m.content, chat=chat)
        own, quoted = user_sentences(content)
        pasted = pasted_sentences(content)
        ignored.extend(_addressed("\n".join(quoted)))
        if (
            pending and own and (lang.accepts(own[0]) or (from_tool and not lang.rejects(own[0])))
        ):  # accepted, or what a tool returned and the user did not turn down
            a.sentences.extend(pending)
        pending = []
        current: list[Sentence] = []
        for raw in own:
            if _ADDRESSED.search(raw):
                ignored.append(raw)
                continue
            request = lang.forget_request(raw)
            if request is not None and (speaker or _ITEM_LABEL.match(raw) or raw in pasted):
                # a participant's line in a thread or a pasted note: not the user's request
                a.not_acted.append((raw, "said by someone else; nothing was removed"))
                continue
            if request is not None:
                later = own[own.index(raw) + 1 :]
                if any(lang.WITHDRAWN.search(x) for x in [raw, *later]):
                    a.not_acted.append((raw, "withdrawn as it was made; nothing was removed"))
                    continue
                what = request[1]
                if what is None:  # "forget that": the statements just made
                    targets = [*previous, *current]  # this message so far, and the last one
                    previous.clear()
                    current.clear()
                    for t in targets:
                        if t in a.sentences:
                            a.sentences.remove(t)
                            a.forgotten += 1
                            dropped.append(t.text)
                else:
                    for target in lang.forget_targets(what):
                        a.forget.append(target)
                        words = content_words(target)
                        for t in [t for t in a.sentences if words and mentions(t.text, words)]:
                            a.sentences.remove(t)
                            a.forgotten += 1
                            dropped.append(t.text)
                continue
            label, body = speaker, raw
            item = _ITEM_LABEL.match(raw)  # pasted notes: "Wei: finished the export"
            name = item.group("name") if item else None
            if name and name not in _NOT_NAMES and not directory.kind_of(name):
                label = name
            if again := lang.said_again(body):  # "Thursday — no, sorry, Friday"
                body = again[0]
            if (made := lang.MAKE_THAT.match(body)) and (
                earlier := _fix_last(a.sentences, made.group("new"), speaker=label)
            ):
                i, fixed = earlier  # "Actually make that three": the last value said changes
                old = a.sentences[i]
                new = _sentence(old.time, fixed, message_date(old.time), directory, context)
                new.speaker, new.subject = old.speaker, new.subject or old.subject
                a.sentences[i] = new
                if old in current:
                    current[current.index(old)] = new
                continue
            s = _sentence(m.time, body, ref, directory, context, speaker=label)
            if lang.CORRECTS_EARLIER.match(body) and not s.correction:
                s.replaces = _corrected_earlier(s, a.sentences)
                for old in s.replaces:
                    a.sentences.remove(old)
                    if old in current:
                        current.remove(old)
                if s.replaces and "statement" not in s.kinds and not s.kinds:
                    s.kinds.append("statement")
            a.sentences.append(s)
            current.append(s)
        previous = current
    a.tool_errors = tool_errors
    # the opening: the first words kept (corrections applied), until past 60 characters
    said = [x for x in a.sentences if x.speaker != "the assistant" and x.raw]
    if said:
        text = ""
        for x in said:
            if x.time != said[0].time:
                break
            text = f"{text} {x.raw}".strip()
            if len(text) > 60:
                break
        a.opening = text
    if a.opening and any(d.split(" (")[0][:40] in a.opening for d in dropped):
        a.opening = None  # the session began with what the user asked to forget
    _link_known(a.sentences, directory)
    for s in a.sentences:
        s.statement = s.statement or _statement(s)
    return a


def _fix_last(
    sentences: list[Sentence], new: str, *, speaker: str | None
) -> tuple[int, str] | None:
    """(index, corrected text) of the latest sentence by the same speaker that holds a
    value of the sort of `new`, with that value replaced."""
    who = speaker or "the user"
    for i in range(len(sentences) - 1, max(-1, len(sentences) - 4), -1):
        s = sentences[i]
        if s.speaker != who or not s.raw:
            continue
        if fixed := lang.replace_last_value(s.raw, new.strip()):
            return i, fixed[0]
    return None


def _corrected_earlier(s: Sentence, sentences: list[Sentence]) -> list[Sentence]:
    """The earlier sentences of the session that `s` ("Correction on the cake: it's
    vanilla") corrects: by the same speaker, sharing the subject it names, or two words."""
    m = re.match(r"\W*(?:correction|i\s+was\s+wrong)\s+(?:on|about|to)\s+([^:,]+)", s.raw, re.I)
    named = content_words(m.group(1)) if m else set()
    words = content_words(s.raw) - {"correction", "actually", "update", "plan", "plans", "wrong"}
    out = []
    for old in reversed(sentences):
        if old.speaker != s.speaker or not old.raw:
            continue
        have = content_words(old.raw)
        if (named and named <= have) or (not named and len(words & have) >= 2):
            out.append(old)
            break  # the latest one it can mean
    return out


def content_words(text: str) -> set[str]:
    """The words that say what `text` is about: names, and longer words that are not filler."""
    return {
        w.lower()
        for w in re.findall(r"[\w'-]{3,}", text)
        if (len(w) >= 4 or w[:1].isupper()) and w.lower() not in IGNORED_WORDS
        and w.lower() not in _GENERIC
    }  # fmt: skip


_GENERIC = {
    "time", "thing", "things", "stuff", "what", "said", "about", "that", "this", "anything",
    "everything", "prefer", "prefers", "like", "likes", "rather", "want", "wants", "decided",
    "going", "instead", "anymore", "user", "team", "changed", "change", "mind", "minds", "now",
    "would", "have", "after", "last", "first", "when", "book", "flights",
}  # fmt: skip


def mentions(text: str, words: set[str]) -> bool:
    """Whether `text` holds at least half of `words` (and one at least)."""
    have = {w.lower() for w in re.findall(r"[\w'-]{3,}", text)}
    hits = len(words & have)
    return hits >= max(1, (len(words) + 1) // 2)


#: An assistant's acknowledgement or echo of what the user said: not a finding of its own.
_ECHO = re.compile(
    r"(?:noted|got\s+it|done|sure|ok(?:ay)?|thanks|thank\s+you|great|here(?:'s|\s+is)|"
    r"sounds|understood|will\s+do|happy\s+to|let\s+me|i've|i\s+have|i'll|i\s+will|"
    r"congratulations|sorry)\b",
    re.I,
)


def _findings(
    time: str, text: str, ref: date, directory: Directory, *, from_tool: bool = False
) -> list[Sentence]:
    """What an assistant's message found or proposed: kept if the user's reply accepts it.
    Right after a tool's result, what it says of that result with something specific in it
    (a number, a name, a code) is a finding too."""
    own, _ = user_sentences(text)
    own = [r for r in own if not r.endswith("?") or r is own[-1]]
    said = [r for r in own if not r.endswith("?") and not _ECHO.match(r)]
    chosen = [r for r in said if lang.FINDING.search(r)][:3]
    if not chosen and from_tool:
        chosen = [r for r in said if lang.worth_keeping(r) and lang.SPECIFIC.search(r)][:3]
    if not chosen and own and lang.OFFER.search(own[-1]):
        # "Then settle should sum integer cents ... Shall I make both changes?"
        chosen = [r for r in said if len(r.split()) >= 6][-2:]
    out = []
    for raw in chosen:
        clean, found = mask(raw)
        dated, rel = resolve_relative(clean, ref)
        s = Sentence(time=time, text=dated, dates=rel, speaker="the assistant", kinds=["finding"])
        _entities(s, clean, directory)
        s.statement = _statement(s)
        out.append(s)
    return out


class _Context:
    """What the sentences so far named: who "he", "she" and "it" can be."""

    def __init__(self, directory: Directory):
        self.directory = directory
        self.gender: dict[str, str] = {}
        self.last: list[str] = []  # people named (page slugs), latest last
        self.form: dict[str, str] = {}  # slug -> the name as it was last written
        self.pet_last = False  # the latest thing named is an animal


def _referent(context: _Context, gender: str, *, exclude: set[str]) -> str | None:
    """Who "he" or "she" means, or None when unsure: the latest person known to be of that
    gender, unless someone whose gender is unknown was named after them; someone of unknown
    gender only when nobody else could be meant. A wrong person is worse than none."""
    recent = [k for k in reversed(context.last) if k not in exclude]
    fits = [k for k in recent if context.gender.get(k) in (gender, None)]
    if not fits:
        return None
    if context.gender.get(fits[0]) == gender or len(fits) == 1:
        return fits[0]
    return None


def _sentence(
    time: str,
    raw: str,
    ref: date,
    directory: Directory,
    context: _Context | None = None,
    *,
    speaker: str | None = None,
) -> Sentence:
    clean, found = mask(raw)
    text, rel = resolve_relative(clean, ref, past=lang.past_tense(clean))
    s = Sentence(time=time, text=text, dates=rel, speaker=speaker or "the user", raw=clean)
    if found:
        kinds = ", ".join(dict.fromkeys(x.kind for x in found))
        where = secret_location(raw)
        s.secrets = [x.kind for x in found]
        s.kinds.append("secret")
        statement = _statement(s).rstrip(".")
        s.statement = (
            f"{statement} (a secret, {kinds}, was shared here and is not kept"
            + (
                f"; {s.speaker} said it is kept {where.rstrip('.')}"
                if where and where not in statement
                else ""
            )
            + ")."
        )
    abs_dates = absolute_dates(clean, ref, past=lang.past_tense(clean))
    all_dates = sorted(rel + abs_dates, key=lambda pd: clean.lower().find(pd[0].lower()))
    if all_dates:
        s.when = all_dates[0][1]
    s.correction = _correction(clean)
    if s.correction:
        s.kinds.append("correction")
    else:
        if _DECISION.search(clean):
            s.kinds.append("decision")
        if _REMEMBER.search(clean):
            s.kinds.append("remember")
        said_of_someone = lang.THIRD_PREFERENCE.search(clean) and not _FIRST_PERSON.search(clean)
        if (
            _PREFERENCE.search(clean)
            and not (rel and not re.search(r"prefer|like|love", clean, re.I))
            or re.search(r"\b(?:i'd|i\s+would)\s+rather\b", clean, re.I)
            or said_of_someone
        ):
            s.kinds.append("preference")
        if lang.RULE.search(clean) and "preference" not in s.kinds:
            s.kinds.append("rule")
        if lang.HEALTH.search(clean):
            s.kinds.append("health")
        if _SETUP.search(clean) and not s.kinds:
            s.kinds.append("setup")
        if lang.LEAVING.search(clean):
            s.kinds.append("leaving")
        if s.when is not None and s.when > ref and len(clean.split()) >= 5:
            s.kinds.append("date")
        if not s.kinds and not speaker and lang.worth_keeping(clean):
            s.kinds.append("statement")  # said plainly, no trigger word: kept as said
    if lang.CHANGE.search(clean) and ({"preference", "decision"} & set(s.kinds)):
        s.kinds.append("change")
    _entities(s, clean, directory)
    if speaker and speaker != "the user":
        directory.person(speaker)
        if _FIRST_PERSON.search(clean) or not s.people:
            s.subject = speaker
        if speaker not in s.people:
            s.people.insert(0 if s.subject == speaker else len(s.people), speaker)
    if context is not None:
        _resolve_pronouns(s, clean, context)
    if s.roles or s.relation:
        s.kinds.append("role")
    return s


#: "in Spanish", "in English": a language, not a place.
_LANGUAGE = re.compile(r"(?:ish|ese|French|Dutch|Greek|Thai|Hindi|Swahili|Latin)$")


def _entities(s: Sentence, raw: str, directory: Directory) -> None:
    """People, projects, topics, organisations, places and pets named in `raw`."""
    others: dict[str, list[str]] = {}

    def other(kind: str, name: str) -> None:
        name = _clean_name(name) or ""
        if not name or name in _NOT_NAMES or name.split()[0] in _NOT_NAMES:
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

    for pattern in lang.ORGS:
        for m in pattern.finditer(raw):
            other("organisations", m.group("name"))
    for pattern in lang.SERVICE:
        for m in pattern.finditer(raw):
            for name in _names_in(m.group("names")):
                if person_slug(name) not in directory.people:
                    other("organisations", name)
    for pattern in lang.NOT_PERSON:
        for m in pattern.finditer(raw):
            if (name := _clean_name(m.group("name"))) and person_slug(name) not in directory.people:
                directory.not_people.add(name)
    for pattern in lang.PETS:
        for m in pattern.finditer(raw):
            other("pets", m.group("name"))
    for pattern in lang.PLACES:
        for m in pattern.finditer(raw):
            if lang.PERSON_TO.search(raw[: m.start("name")]):
                continue
            if re.match(r"(?:in|at)\s", m.group(0)) and re.match(
                r"\s*(?:'s|’s)", raw[m.end("name") :]
            ):
                continue
            other("places", m.group("name"))
    # names already known as something other than a person stay what they are
    for word in re.findall(_NAME, raw):
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
        if clean.split()[0] in not_people or clean.lower() in _NOT_PROJECTS:
            return
        if any(clean == directory.projects.get(p) for p in directory.projects):
            return
        if re.search(
            rf"{re.escape(clean)}(?:\.(?:com|org|net|io|co|app|ai)\b|['’]s\s+(?:app|website|site))",
            raw,
        ):
            return  # "Booking.com", "Expedia's app": a service, not a person
        if clean not in s.people:
            s.people.append(clean)

    for m in re.finditer(rf"{lang.TITLE}{lang.NAME_WORD}", raw):
        person(m.group(0))  # "Dr. Osei": a title names a person
    for pattern in lang.NICKNAME:
        for m in pattern.finditer(raw):
            full = _clean_name(m.group("full"))
            if full and m.group("nick") not in _NOT_NAMES:
                directory.alias(m.group("nick"), full)
                person(full)
    for m in lang.KIN.finditer(raw):
        if m.group("name") and m.group("name") not in _NOT_NAMES:
            person(m.group("name"))
    for m in _PERSON_TRIGGER.finditer(raw):
        if _NOT_WITH_PERSON.search(raw[: m.start("names")]):
            continue  # "we're going with Dagster": a choice, not a person
        for name in _names_in(m.group("names")):
            person(name)
    if (r := _RELATION.search(raw)) and (clean := _clean_name(r.group("name"))):
        s.relation = (r.group("rel").lower(), clean)
        person(clean)
    for pattern in (lang.ROLE_IS, lang.ROLE_DOES):
        for m in pattern.finditer(raw):
            name = _clean_name(m.group("name"))
            if name and name not in not_people and name.split()[0] not in _NOT_NAMES:
                role = re.sub(r"^(?:our|the|my|their|a|an)\s+", "", m.group("role").strip())
                s.roles.append((name, role))
                person(name)
    for m in lang.FROM.finditer(raw):
        if m.group("name").split()[0] not in _NOT_NAMES:
            person(m.group("name"))
    for m in lang.SUBJECT.finditer(raw):
        if m.group("name").split()[0] not in _NOT_NAMES:
            person(m.group("name"))
    for form in sorted(directory.known_person_names(), key=len, reverse=True):
        if re.search(rf"(?<![\w-]){re.escape(form)}(?![\w-])", raw) and not any(
            form in p or p in form for p in s.people
        ):
            person(form)
    for m in (m for pattern in _PROJECTS for m in pattern.finditer(raw)):
        name = m.group("name")
        if name.lower() not in _NOT_PROJECTS and name not in _NOT_NAMES:
            slug = directory.project(name)
            if slug not in s.projects:
                s.projects.append(slug)
    for pattern in _TECH:
        for m in pattern.finditer(raw):
            for name in (m.group("name"), m.groupdict().get("name2")):
                if not name or name.lower() in stopwords.ENGLISH or name in _NOT_NAMES:
                    continue
                if name[:1].islower() and not re.search(r"\d", name) and not _code_word(raw, name):
                    continue  # "the staging database": an ordinary word, not a name
                if name not in s.topics and name not in s.people:
                    s.topics.append(name)
    s.people = [p for p in s.people if p not in s.topics]  # a technology is no person
    # the person named first is who the sentence is about
    s.people.sort(key=lambda n: raw.find(n) if n in raw else len(raw))


_NOT_WITH_PERSON = re.compile(
    r"\b(?:go|going|goes|went|stick|sticking|stay|staying|settle|settled|along|done|fine|ok|"
    r"okay|happy|familiar|compatible|integrates?|integrated|works?|working|built|deal|dealing|"
    r"replaced?|replaces|experience|experiment\w*|start|started|starting|run|running)\s+with\s*$",
    re.I,
)


def _resolve_pronouns(s: Sentence, raw: str, context: _Context) -> None:
    """'Her birthday is March 14' after 'my sister Maya': the sentence is about Maya."""
    directory = context.directory
    if s.relation and (g := lang.kin_gender(s.relation[0])):
        context.gender[directory.person(s.relation[1])] = g
    gender = lang.pronoun_gender(raw)
    if s.others.get("pets") or (lang.PET_NOUN.search(raw) and not s.people):
        context.pet_last = True
    if (m := lang.PET_NAMED.search(raw)) and context.pet_last:
        name = m.group("name")
        directory.other("pets", name)
        s.others.setdefault("pets", []).append(name)
        if name in s.people:
            s.people.remove(name)
        return
    named = [n for n in s.people if n != s.speaker]
    key = {n: directory.person(n) for n in named}
    # kin words: "my sister Farah", "her son Theodore" tell a gender; "my brother" without a
    # name is someone too, whom a later "he" may mean
    unnamed: list[str] = []
    for m in lang.KIN.finditer(raw):
        g = lang.kin_gender(m.group("rel"))
        if m.group("name") and m.group("name") in key:
            if g:
                context.gender.setdefault(key[m.group("name")], g)
        elif not m.group("name") and m.group("whose").lower() == "my":
            who = f"the user's {m.group('rel').lower()}"
            unnamed.append(who)
            if g:
                context.gender[who] = g
    for pattern in lang.NICKNAME:
        for m in pattern.finditer(raw):
            if (full := m.group("full")) in key and (g := lang.pronoun_gender(m.group(0))):
                context.gender.setdefault(key[full], g)
    lead_kin = re.match(r"\s*(?:his|her)\s+\w+\s+(?P<name>\S+)", raw, re.I)
    about_kin = bool(lead_kin and lang.KIN.match(raw.strip()) and len(set(key.values())) == 1)
    if gender and (not named or about_kin) and not context.pet_last and not unnamed:
        ref = _referent(context, gender, exclude=set(key.values()))
        if ref is not None:
            context.gender.setdefault(ref, gender)
            form = context.form.get(ref, ref)
            if ref in directory.people or ref in directory.aliases.values():
                s.people.insert(0, form)
                if not about_kin:
                    s.subject = form
                else:  # "Her son Theodore ...": about Theodore, who is Farah's son
                    kin = lang.KIN.match(raw.strip())
                    name = kin.group("name") if kin else None
                    if name and name in key:
                        s.subject = name
                        s.roles.append((name, f"{form}'s {kin.group('rel').lower()}"))
            s.text = lang.resolve_pronoun(s.text, form[:1].upper() + form[1:])
    elif gender and len(named) == 1 and key[named[0]] not in context.gender:
        context.gender[key[named[0]]] = gender
    for n in named:
        context.form[key[n]] = n
    for k in [*(key[n] for n in named), *unnamed]:
        if k in context.last:
            context.last.remove(k)
        context.last.append(k)
    if named:
        context.pet_last = bool(s.others.get("pets")) or (
            bool(lang.PET_NOUN.search(raw))
            and raw.find(named[-1]) < lang.PET_NOUN.search(raw).start()
        )
    if s.subject is None and s.people:
        first = s.people[0]
        if (
            first != "the user"
            and re.search(rf"(?:^|[,;:]\s*|\b(?:and|but|so|that)\s+){re.escape(first)}\b", raw)
            or s.relation
            or s.roles
        ):
            s.subject = first


def _statement(s: Sentence) -> str:
    """The sentence as a statement about its subject, third person, dates made absolute."""
    text = re.sub(
        r"^(?:(?:and|also|oh|so|but|plus|btw|fyi|please|quick\s+note|anyway|yes|ok|okay|sure|then|"
        r"actually|in\s+fact|correction(?:\s+(?:on|about|to))?)"
        r"[,:]?\s+)*"
        r"(?:(?:remember|note|keep\s+in\s+mind)(?:\s+that)?[,:]?\s+)?",
        "",
        s.text,
        flags=re.I,
    )
    if s.speaker == "the assistant":
        return lang.assistant_third_person(text)
    return lang.third_person(text, s.speaker)


def _addressed(text: str) -> list[str]:
    """Sentences of `text` that address the memory system (quoted later as ignored data)."""
    out = []
    for para in re.split(r"\n\s*\n", text):
        for s in split_sentences(" ".join(line.strip() for line in para.split("\n"))):
            if _ADDRESSED.search(s):
                out.append(s)
    return out


def _link_known(sentences: list[Sentence], directory: Directory) -> None:
    """Register the people named by a rule, then find known names anywhere in the sentences."""
    for s in sentences:
        for name in s.people:
            directory.person(name)
    forms = directory.known_person_names()
    project_forms = {name.lower(): slug for slug, name in directory.projects.items()}
    for s in sentences:
        for form in sorted(forms, key=len, reverse=True):
            named = re.search(rf"(?<![\w-]){re.escape(form)}(?![\w-])", s.text)
            if any(form in names for names in s.others.values()) or directory.kind_of(form):
                continue
            if named and not any(form in p or p in form for p in s.people):
                s.people.append(form)
        for form, slug in project_forms.items():
            if slug not in s.projects and re.search(
                rf"(?<![\w-]){re.escape(form)}(?![\w-])", s.text, re.I
            ):
                s.projects.append(slug)


def value_kind(value: str) -> str:
    if _ABSOLUTE.fullmatch(value.strip()):
        return "date"
    if re.fullmatch(_WEEKDAY_RE, value.strip(), re.I):
        return "weekday"
    if re.fullmatch(r"[\d.,:]+\s*\w*", value.strip()):
        return "number"
    if value[:1].isupper():
        return "name"
    return "text"


def _values(text: str, kind: str) -> list[tuple[int, str]]:
    """Values of one kind in `text`, with their positions: dates, numbers or capitalised names."""
    if kind == "date":
        return [(m.start(), m.group(0)) for m in _ABSOLUTE.finditer(text)]
    if kind == "number":
        return [(m.start(), m.group(0)) for m in re.finditer(r"\d[\d.,:]*", text)]
    if kind == "weekday":
        return [(m.start(), m.group(0)) for m in re.finditer(_WEEKDAY_RE, text, re.I)]
    pattern = r"[A-Z][\w'-]*(?:\s+(?:&|and|of|de|van|von)\s+[A-Z][\w'-]*|\s+[A-Z][\w'-]*)*"
    out = []
    for m in re.finditer(pattern, text):
        words = m.group(0).split()
        if words[0] in _NOT_NAMES and len(words) == 1:
            continue
        out.append((m.start(), m.group(0)))
    return out


def _correction(raw: str) -> tuple[str, str, str] | None:
    """(statement, old, new) for 'X, not Y' sentences where Y is a name, date or number."""
    m = _NOT_CLAUSE.search(raw)
    if not m:
        return None
    rest = m.group("old").strip()
    kind = value_kind(rest)
    if kind == "text":
        return None
    olds = [v for pos, v in _values(rest, kind) if pos == 0]
    if not olds:
        return None
    old = olds[0].strip()
    head = raw[: m.start()]
    markers = list(_CORRECTION_HEAD.finditer(head))
    marker = markers[-1] if markers else None
    head = head[head.rfind(":") + 1 :] if marker is None else head
    if marker is not None:  # "his flat is actually in X" -> "his flat is in X"
        head = head[: marker.start()].rstrip(" ,") + " " + head[marker.end() :].lstrip(" ,:")
    statement = head.strip(" ,:;—–-")
    for _ in range(2):  # "And also, ..." -> "..."
        statement = re.sub(r"^(?:and|also|but|so|oh|no|well)\b[ ,]*", "", statement, flags=re.I)
    if not statement:
        return None
    candidates = [v for _, v in _values(statement, kind) if v != old]
    if not candidates:
        return None
    if marker is None and kind != "date":
        return None  # "we use Postgres, not MySQL" contrasts; only a date contrast corrects unasked
    new = candidates[-1].strip()
    if new.split()[0] in ("Actually", "Correction") and len(new.split()) > 1:
        new = " ".join(new.split()[1:])
    return statement[:1].upper() + statement[1:], old, new
