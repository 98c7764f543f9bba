"""The offline memory agent: deterministic, rule-based, no model.

It reads a transcript the way the worker hands it over and keeps what a person would want to
find again, through the same document tools a model-backed memory agent gets
(`doctree.interop.tools.MemoryTools`): it reads every page before it changes it and writes only
below `~/memory`. What it writes, in the tiered layout of the design:

- `~/memory/archive/<YYYY-Www>/<session>`: a page per session with its key lines;
- `~/memory/people/<name>`, `~/memory/projects/<name>`, `~/memory/topics/<name>`: the
  people, projects and things named, each fact citing the session it came from;
- `~/memory/corrections`: the user's explicit preferences ("I prefer", "don't", "always")
  and corrections ("actually, X, not Y"), which are also applied where the old fact is
  recorded, by an exact-string edit;
- `~/memory/decisions`, `~/memory/notes`: decisions ("we decided", "let's go with") outside
  any project, and things to remember ("remember that") that have no page of their own;
- `~/memory/active`: upcoming dates (relative dates made absolute from the message time)
  and recent decisions; dates that have passed move to the archive week;
- `~/memory/patterns`: people, projects and topics that keep coming up.

Only what the user says counts as a fact: assistant text, tool output, quoted (`>`) and
fenced text are context. Instructions inside a transcript are data: the agent never
derives a path from them, never deletes or moves anything, and lists text that addresses
the memory system on the session page as ignored. Same transcript and same tree in, same
calls out: no clock, no randomness.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any, Protocol

from doctree.sessions.transcripts import Transcript, parse_transcript
from doctree.store.paths import slugify

ROOT = "~/memory"
MAX_KEY_LINES = 40
MAX_FACTS_PER_ENTITY = 8
MAX_RECENT_DECISIONS = 10
MAX_RECENT_SESSIONS = 10
TOP_LEVEL = (
    "active", "corrections", "decisions", "notes", "patterns", "people", "projects", "topics",
    "archive",
)  # fmt: skip
CORRECTIONS_INTRO = "Corrections of earlier facts, and the user's preferences."

# -- the tools interface (doctree.interop.tools.MemoryTools) ------------------------------------------


class _Result(Protocol):
    content: str
    is_error: bool


class ToolsLike(Protocol):
    def call(self, name: str, input: dict) -> _Result: ...


@dataclass
class RunSummary:
    """What one offline run did: its tool calls, the pages it changed, and notes for people."""

    source_agent: str
    session_id: str
    backend: str = "offline"
    stop_reason: str = "end_turn"
    turns: int = 0
    tool_calls: int = 0
    tool_errors: int = 0
    changed: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)

    def __str__(self) -> str:
        notes = "".join(f"; {n}" for n in self.notes)
        return (
            f"offline run for session {self.session_id} of {self.source_agent}: "
            f"{self.tool_calls} tool calls ({self.tool_errors} errors), "
            f"{len(self.changed)} pages changed{notes}"
        )


class OfflineAgentError(Exception):
    """A tool answered in a way the offline agent cannot work with (a bug, not bad input)."""


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
    rf"|(?P<wd>(?:(?P<mod>this|next|last|coming)\s+)?(?P<day>{_WEEKDAY_RE}))"
    r")\b",
    re.I,
)
_RECURRING_AFTER = re.compile(r"\s*(?:s\b|mornings|afternoons|evenings|nights)", re.I)

_NAME = r"(?:(?:Dr|Mr|Mrs|Ms|Prof)\.?\s+)?[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?"
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
    "Back", "Quick", "Note", "Notes", "Remember", "Actually", "Correction", "Slack", "Zoom",
    "Teams", "Google", "Postgres", "Kafka", "Python", "Team", "Everyone", "All",
}  # fmt: skip
_PROJECTS = (
    re.compile(r"\bproject\s+(?P<name>[A-Z][\w-]+)"),
    re.compile(r"\bthe\s+(?P<name>[A-Za-z][\w-]+)\s+(?:project|repo|repository|codebase)\b"),
    re.compile(r"\b(?P<name>[A-Z][\w-]+)\s+project\b"),
)
_NOT_PROJECTS = {"this", "that", "the", "a", "new", "side", "my", "our", "old", "same", "whole"}
TOPICS = {
    "postgres": "Postgres", "postgresql": "Postgres", "mysql": "MySQL", "kafka": "Kafka",
    "pytest": "pytest", "k6": "k6", "openapi": "OpenAPI", "graphql": "GraphQL",
    "sso": "SSO", "logrotate": "logrotate", "pgloader": "pgloader", "docker": "Docker",
    "kubernetes": "Kubernetes", "redis": "Redis", "sqlite": "SQLite", "rust": "Rust",
    "typescript": "TypeScript", "react": "React", "terraform": "Terraform",
}  # fmt: skip
_TOPIC_RE = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, TOPICS)) + r")(?![\w-])", re.I)

_PREFERENCE = re.compile(
    r"\b(?:i|we)\s+(?:really\s+|much\s+|strongly\s+|always\s+)?"
    r"(?:prefer|like|love|hate|dislike|can't stand|don't like|do not like)\b"
    r"|\bi(?:'m|\s+am)\s+(?:a\s+)?(?:vegetarian|vegan|allergic|lactose|gluten)"
    r"|\bmy\s+favou?rite\b"
    r"|^(?:(?:and|also|but|so|please|oh),?\s+)*(?:don't|do not|never|always|avoid)\b",
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
    r"in\s+fact)\b",
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
_STOPWORDS = {
    "the", "and", "that", "this", "with", "from", "have", "will", "about", "actually", "not",
    "was", "were", "is", "are", "been", "for", "but", "also", "just", "only", "then", "than",
    "they", "their", "there", "into", "onto", "after", "before", "again", "really", "because",
}  # fmt: skip


@dataclass
class Sentence:
    """One sentence the user said, with what the rules found in it."""

    time: str
    text: str  # relative dates annotated with their absolute date
    kinds: list[str] = field(default_factory=list)
    dates: list[tuple[str, date]] = field(default_factory=list)  # (phrase, date) resolved
    when: date | None = None  # the first date it names, relative or absolute
    people: list[str] = field(default_factory=list)  # person names as written
    projects: list[str] = field(default_factory=list)
    topics: list[str] = field(default_factory=list)
    relation: tuple[str, str] | None = None  # (relation, name)
    correction: tuple[str, str, str] | None = None  # (statement, old, new)


@dataclass
class Analysis:
    """Everything the rules found in one transcript, before any page is touched."""

    transcript: Transcript
    sentences: list[Sentence]
    counts: Counter
    tools: Counter
    tool_errors: int
    ignored: list[str]  # text addressed to the memory system, quoted as data
    not_acted: list[str]  # requests to forget or delete, left for a person


def message_date(time: str) -> date:
    """The UTC calendar date of an ISO 8601 message time."""
    dt = datetime.fromisoformat(time.replace("Z", "+00:00"))
    if dt.tzinfo is not None:
        dt = dt.astimezone(UTC)
    return dt.date()


def iso_week(d: date) -> str:
    """`2026-W47`: the ISO week a date falls in, the archive's unit."""
    y, w, _ = d.isocalendar()
    return f"{y}-W{w:02d}"


def _next_weekday(ref: date, wd: int, *, include_today: bool = False) -> date:
    delta = (wd - ref.weekday()) % 7
    if delta == 0 and not include_today:
        delta = 7
    return ref + timedelta(days=delta)


def resolve_relative(text: str, ref: date) -> tuple[str, list[tuple[str, date]]]:
    """Annotate relative dates in `text` with the absolute date they mean, said on `ref`.

    `tomorrow` -> `tomorrow (2026-11-17)`. Rules: a bare or `this`/`on` weekday is the next
    such day after `ref`; `next <weekday>` is that day in the following (ISO, Monday-first)
    week; `last <weekday>` the latest one before `ref`. Recurring forms (`Fridays`,
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


def absolute_dates(text: str, ref: date) -> list[tuple[str, date]]:
    """Month-day dates (`December 3`, `3 December`) with the year that puts them nearest `ref`."""
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
        if d < ref - timedelta(days=183):
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


def split_sentences(paragraph: str) -> list[str]:
    """Sentences of a paragraph; abbreviations such as `Dr.` do not end one."""
    parts = re.split(r"(?<=[.!?])\s+(?=[\"'(A-Z0-9`])", paragraph.strip())
    out: list[str] = []
    for p in parts:
        if out and out[-1].endswith(_ABBREVIATIONS):
            out[-1] += " " + p
        else:
            out.append(p)
    return [s.strip() for s in out if s.strip()]


def _names_in(group: str) -> list[str]:
    names = re.findall(_NAME, group)
    return [n for n in names if n.split()[0].rstrip(".") not in _NOT_NAMES or _title(n)]


def _title(name: str) -> bool:
    return bool(re.match(r"(?:Dr|Mr|Mrs|Ms|Prof)\.?\s", name))


def _clean_name(name: str) -> str | None:
    words = name.split()
    if _title(name):
        return name if len(words) >= 2 else None
    # 'Priya Raman' keeps both words; 'Bob Thanks' drops a trailing non-name
    words = [w for w in words if w not in _NOT_NAMES]
    return " ".join(words) or None


def person_slug(name: str) -> str:
    """Slug of a person's page: 'Dr. Okafor' -> 'dr-okafor', 'Priya Raman' -> 'priya-raman'."""
    return slugify(name.replace(".", ""))


class Directory:
    """The people and projects known before and during a run: names to page slugs."""

    def __init__(self, people: dict[str, str], projects: dict[str, str]):
        self.people = dict(people)  # slug -> display name
        self.projects = dict(projects)

    def person(self, name: str) -> str:
        """The slug of the page for `name`, reusing a page known by first or full name."""
        slug = person_slug(name)
        if slug in self.people:
            return slug
        first = person_slug(name.split()[0]) if not _title(name) else None
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
            if not _title(name) and " " in name:
                forms.setdefault(name.split()[0], slug)
        return forms

    def project(self, name: str) -> str:
        slug = slugify(name)
        self.projects.setdefault(slug, name[:1].upper() + name[1:])
        return slug


def analyse(transcript: Transcript, directory: Directory) -> Analysis:
    """Apply the rules to every message of `transcript`; touches no page."""
    counts: Counter = Counter(m.kind for m in transcript.messages)
    tools: Counter = Counter()
    tool_errors = 0
    ignored: list[str] = []
    not_acted: list[str] = []
    sentences: list[Sentence] = []
    for m in transcript.messages:
        if m.kind == "tool_call" and isinstance(m.content, dict):
            tools[str(m.content.get("name", "?"))] += 1
        if m.kind == "tool_result" and isinstance(m.content, dict):
            if m.content.get("is_error"):
                tool_errors += 1
            text = m.content.get("content")
            if isinstance(text, str):
                ignored.extend(_addressed(text))
        if m.kind != "user" or not isinstance(m.content, str):
            continue
        ref = message_date(m.time)
        own, quoted = user_sentences(m.content)
        ignored.extend(_addressed("\n".join(quoted)))
        for raw in own:
            if _ADDRESSED.search(raw):
                ignored.append(raw)
                continue
            if _FORGET.search(raw):
                not_acted.append(raw)
                continue
            sentences.append(_sentence(m.time, raw, ref, directory))
    _link_known(sentences, directory)
    return Analysis(transcript, sentences, counts, tools, tool_errors, ignored, not_acted)


def _addressed(text: str) -> list[str]:
    """Sentences of `text` that address the memory system (quoted later as ignored data)."""
    out = []
    for para in re.split(r"\n\s*\n", text):
        for s in split_sentences(" ".join(line.strip() for line in para.split("\n"))):
            if _ADDRESSED.search(s):
                out.append(s)
    return out


def _sentence(time: str, raw: str, ref: date, directory: Directory) -> Sentence:
    text, rel = resolve_relative(raw, ref)
    s = Sentence(time=time, text=text, dates=rel)
    abs_dates = absolute_dates(raw, ref)
    all_dates = sorted(rel + abs_dates, key=lambda pd: raw.lower().find(pd[0].lower()))
    if all_dates:
        s.when = all_dates[0][1]
    s.correction = _correction(raw)
    if s.correction:
        s.kinds.append("correction")
    else:
        if _DECISION.search(raw):
            s.kinds.append("decision")
        if _REMEMBER.search(raw):
            s.kinds.append("remember")
        if _PREFERENCE.search(raw) and not (rel and not re.search(r"prefer|like|love", raw, re.I)):
            s.kinds.append("preference")
        if s.when is not None and s.when > ref and len(raw.split()) >= 5:
            s.kinds.append("date")
    for m in _PERSON_TRIGGER.finditer(raw):
        for name in _names_in(m.group("names")):
            if (clean := _clean_name(name)) and clean not in s.people:
                s.people.append(clean)
    if (r := _RELATION.search(raw)) and (clean := _clean_name(r.group("name"))):
        s.relation = (r.group("rel").lower(), clean)
        if clean not in s.people:
            s.people.append(clean)
    for m in (m for pattern in _PROJECTS for m in pattern.finditer(raw)):
        name = m.group("name")
        if name.lower() not in _NOT_PROJECTS and name not in _NOT_NAMES:
            slug = directory.project(name)
            if slug not in s.projects:
                s.projects.append(slug)
    for m in _TOPIC_RE.finditer(raw):
        topic = TOPICS[m.group(1).lower()]
        if topic not in s.topics:
            s.topics.append(topic)
    return s


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
            if named and not any(form in p or p in form for p in s.people):
                s.people.append(form)
        for form, slug in project_forms.items():
            if slug not in s.projects and re.search(
                rf"(?<![\w-]){re.escape(form)}(?![\w-])", s.text, re.I
            ):
                s.projects.append(slug)


def _value_kind(value: str) -> str:
    if _ABSOLUTE.fullmatch(value.strip()):
        return "date"
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
    kind = _value_kind(rest)
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


# -- pages --------------------------------------------------------------------------------------


@dataclass
class Page:
    """A memory page as sections of lines: the heading, the text before any section, sections."""

    title: str
    intro: list[str] = field(default_factory=list)
    sections: dict[str, list[str]] = field(default_factory=dict)

    @classmethod
    def parse(cls, body: str, default_title: str) -> Page:
        lines = body.split("\n")
        title = default_title
        if lines and lines[0].startswith("# "):
            title = lines[0][2:].strip()
            lines = lines[1:]
        page = cls(title)
        current: list[str] = page.intro
        for line in lines:
            if line.startswith("## "):
                current = page.sections.setdefault(line[3:].strip(), [])
                continue
            current.append(line)
        for section in [page.intro, *page.sections.values()]:
            while section and not section[-1].strip():
                section.pop()
            while section and not section[0].strip():
                section.pop(0)
        return page

    def add(self, section: str, line: str, *, key: str | None = None) -> bool:
        """Append `line` to `section` unless a line there already holds `key` (default: line)."""
        lines = self.sections.setdefault(section, [])
        probe = key if key is not None else line
        if any(probe in existing for existing in lines):
            return False
        lines.append(line)
        return True

    def render(self) -> str:
        out = [f"# {self.title}", ""]
        if self.intro:
            out += [*self.intro, ""]
        for name, lines in self.sections.items():
            if not lines:
                continue
            out += [f"## {name}", "", *lines, ""]
        return "\n".join(out).rstrip("\n") + "\n"


@dataclass
class Read:
    """A page as `document_read` returned it."""

    path: str
    version: int
    body: str
    children: list[tuple[str, str]]  # (path, title)


def parse_read(content: str) -> Read:
    """Parse `document_read` output (header, numbered body, children) back into its parts."""
    path, version = "", 0
    body: list[str] = []
    children: list[tuple[str, str]] = []
    section = "header"
    for line in content.split("\n"):
        if line.startswith("--- body ("):
            section = "body"
            continue
        if line.startswith("--- children ("):
            section = "children"
            continue
        if line.startswith("--- backlinks ("):
            section = "backlinks"
            continue
        if section == "header":
            if line.startswith("path: "):
                path = line[6:]
            elif line.startswith("version: "):
                version = int(line[9:].split()[0])
        elif section == "body":
            m = re.match(r"\s*\d+\t(.*)", line)
            if m:
                body.append(m.group(1))
        elif section == "children" and line.strip():
            child, _, rest = line.partition("  ")
            title = re.sub(r"\s+\(v\d+, \d+ bytes\)$", "", rest).strip()
            children.append((child.strip(), title))
    return Read(path, version, "\n".join(body) + ("\n" if body else ""), children)


# -- the agent ----------------------------------------------------------------------------------


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def _printable(text: str) -> str:
    """Control characters (NUL included) shown as U+FFFD: a page body holds text only."""
    return _CONTROL.sub("\ufffd", text)


def _quote(text: str, limit: int = 200) -> str:
    """Text as an inline code span: shown, never a link, never markup."""
    text = " ".join(_printable(text).split()).replace("`", "'")
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return f"`{text}`"


def _neutral(text: str) -> str:
    """The user's words made safe to copy into a page: no wiki links, no line breaks."""
    text = _printable(text).replace("[[", "[ [").replace("]]", "] ]")
    return " ".join(text.split("\n"))


class OfflineMemoryAgent:
    """A deterministic memory agent: the rules above, applied through the document tools."""

    backend = "offline"
    model = "offline-rules-1"

    def __init__(self, root: str = ROOT):
        self.root = root

    def run(
        self,
        transcript_text: str,
        tools: ToolsLike,
        *,
        source: str = "<transcript>",
        parsed: Transcript | None = None,
    ) -> RunSummary:
        """Read `transcript_text` (or `parsed`, the same transcript already parsed), read the
        memory it touches, write what it learnt."""
        transcript = (
            parsed if parsed is not None else parse_transcript(transcript_text, source=source)
        )
        return _Run(self.root, transcript, tools).execute()


class _Run:
    def __init__(self, root: str, transcript: Transcript, tools: ToolsLike):
        self.root = root
        self.t = transcript
        self.tools = tools
        self.summary = RunSummary(transcript.agent, transcript.session_id, turns=1)
        first = transcript.started or (transcript.messages[0].time if transcript.messages else None)
        self.start_time = first or "1970-01-01T00:00:00Z"
        self.day = message_date(self.start_time)
        self.week = iso_week(self.day)
        self.session_path = f"{root}/archive/{self.week}/{slugify(transcript.session_id)}"
        self.cite = f"[[{self.session_path}|{transcript.session_id}]]"
        self.touched: dict[str, set[str]] = {"people": set(), "projects": set(), "topics": set()}
        # What reads showed: a page's children, and pages known not to exist. They spare
        # reading pages that cannot be there; a write or a conflict refreshes them.
        self.listing: dict[str, set[str]] = {}
        self.absent: set[str] = set()

    # -- tool plumbing --

    def call(self, name: str, input: dict) -> _Result:
        self.summary.tool_calls += 1
        result = self.tools.call(name, input)
        if result.is_error:
            self.summary.tool_errors += 1
        return result

    def _known_absent(self, path: str) -> bool:
        probe = path
        while probe.count("/") >= 1:
            parent = probe.rsplit("/", 1)[0]
            if probe in self.absent:
                return True
            if parent in self.listing and probe not in self.listing[parent]:
                return True
            probe = parent
        return False

    def read(self, path: str, *, fresh: bool = False) -> Read | None:
        """`document_read`, parsed; None when the page does not exist."""
        if not fresh and self._known_absent(path):
            return None
        r = self.call("document_read", {"path": path})
        if r.is_error:
            if "not found" in r.content or "does not exist" in r.content:
                self.absent.add(path)
                return None
            raise OfflineAgentError(f"document_read {path}: {r.content}")
        if not r.content.startswith("path: "):
            self.absent.add(path)  # the memory root, before anything was written
            return None
        page = parse_read(r.content)
        self.listing[path] = {child for child, _ in page.children}
        return page

    def _written(self, path: str, *, created: bool) -> None:
        """After a write: the page and the parents the store created exist, with these children."""
        chain = [path]
        while chain[-1].count("/") >= 2:
            chain.append(chain[-1].rsplit("/", 1)[0])
        new = [created if p == path else self._known_absent(p) for p in chain]
        child = None
        for probe, was_new in zip(chain, new, strict=True):
            self.absent.discard(probe)
            if was_new:
                self.listing[probe] = {child} if child else set()
            parent = probe.rsplit("/", 1)[0]
            if parent in self.listing:
                self.listing[parent].add(probe)
            child = probe

    def update(self, path: str, title: str, change) -> Page:
        """Read `path`, let `change(page)` edit it, write it back if it changed (version-checked)."""
        for attempt in range(3):
            current = self.read(path, fresh=attempt > 0)
            page = Page.parse(current.body, title) if current and current.body else Page(title)
            change(page)
            body = page.render()
            if current is not None and body == current.body:
                return page
            r = self.call(
                "document_write",
                {"path": path, "body": body, "expected_version": current.version if current else 0},
            )
            if not r.is_error:
                self._written(path, created=current is None)
                if path not in self.summary.changed:
                    self.summary.changed.append(path)
                return page
            if "conflict" not in r.content:
                # A page the store refuses (e.g. over its size limit) is left as it is and
                # reported, so that one page never blocks the session's other pages.
                self.summary.notes.append(
                    f"{path} not written: {r.content.removeprefix('error: ')}"
                )
                return page
        raise OfflineAgentError(f"document_write {path}: still conflicting after 3 attempts")

    # -- the run --

    def execute(self) -> RunSummary:
        root = self.read(self.root)
        people_index = self.read(f"{self.root}/people") if root else None
        project_index = self.read(f"{self.root}/projects") if root else None
        if root:
            self.read(f"{self.root}/topics")
            self.read(f"{self.root}/archive")
        self.find_session_page()
        directory = Directory(
            {
                p.rsplit("/", 1)[1]: title
                for p, title in (people_index.children if people_index else [])
            },
            {
                p.rsplit("/", 1)[1]: title
                for p, title in (project_index.children if project_index else [])
            },
        )
        a = analyse(self.t, directory)
        self.directory = directory
        self.analysis = a
        session_projects = sorted({p for s in a.sentences for p in s.projects})
        self.session_project = session_projects[0] if len(session_projects) == 1 else None
        # A sentence naming a project is about it, if it says more than the name.
        facts = [
            s
            for s in a.sentences
            if s.kinds or s.people or (s.projects and len(s.text.split()) >= 6)
        ]
        self.touched = {
            "people": {directory.person(n) for s in a.sentences for n in s.people},
            "projects": {p for s in a.sentences for p in s.projects},
            "topics": {slugify(tp) for s in a.sentences for tp in s.topics},
        }

        # Top down, so that a new page's parents already list it when it is created.
        self.write_indexes(self.planned_top_level(a.sentences))
        self.write_session_page(a, session_projects)
        self.write_entities(facts)
        self.write_topic_pages(a.sentences)
        self.write_lists(a.sentences)
        self.write_active(a.sentences)
        self.apply_corrections([s for s in a.sentences if s.correction])
        if self.write_patterns():
            self.write_root({"patterns"})
        if a.ignored:
            self.summary.notes.append(
                f"ignored {len(a.ignored)} passage(s) addressed to the memory system"
            )
        if a.not_acted:
            self.summary.notes.append(
                f"{len(a.not_acted)} request(s) to forget or delete left for a person"
            )
        return self.summary

    def find_session_page(self) -> None:
        """A session handed over in parts keeps one page: look in this week and the last."""
        slug = slugify(self.t.session_id)
        for day in (self.day, self.day - timedelta(days=7)):
            week_page = f"{self.root}/archive/{iso_week(day)}"
            if self.read(week_page) is not None and f"{week_page}/{slug}" in self.listing.get(
                week_page, set()
            ):
                self.week = iso_week(day)
                self.session_path = f"{week_page}/{slug}"
                self.cite = f"[[{self.session_path}|{self.t.session_id}]]"
                return

    def line(self, s: Sentence) -> str:
        return f"- {s.time[:10]}: {_neutral(s.text)} ({self.cite})"

    def write_session_page(self, a: Analysis, projects: list[str]) -> None:
        t = self.t
        msgs = t.messages
        first = msgs[0].time if msgs else self.start_time
        last = msgs[-1].time if msgs else (t.ended or self.start_time)
        kinds = ", ".join(
            f"{a.counts[k]} {k.replace('_', ' ')}{'s' if a.counts[k] != 1 and k.startswith('tool') else ''}"
            for k in ("user", "assistant", "system", "tool_call", "tool_result")
            if a.counts[k]
        )
        tools = ", ".join(f"{name} ×{n}" for name, n in sorted(a.tools.items()))
        record = f"- {first} – {last}: {len(msgs)} messages ({kinds or 'none'})"
        if tools:
            record += f"; tools: {tools} ({a.tool_errors} error{'s' if a.tool_errors != 1 else ''})"
        opening = _opening(t)
        key = [s for s in a.sentences if s.kinds or s.people or s.relation]

        def change(page: Page) -> None:
            page.intro = page.intro or [
                f"- agent: {t.agent}",
                f"- session: {t.session_id}",
                f"- date: {self.day.isoformat()} ({self.day.strftime('%A')}, week {self.week})",
                f"- week: [[{self.root}/archive/{self.week}]]",
            ]
            if opening and not page.sections.get("Opening"):
                page.add("Opening", f"- {_quote(opening, 240)}")
            page.add("Records", record)
            for s in key[:MAX_KEY_LINES]:
                label = ", ".join(s.kinds) or "named"
                page.add(
                    "Key lines",
                    f"- {s.time[11:16]} [{label}] {_neutral(s.text)}",
                    key=_neutral(s.text),
                )
            if len(key) > MAX_KEY_LINES:
                page.add(
                    "Key lines",
                    f"- … and {len(key) - MAX_KEY_LINES} more key lines",
                    key="more key lines",
                )
            if not key and not page.sections.get("Key lines"):
                page.add(
                    "Key lines",
                    "- Nothing durable: no preference, decision, correction, date, person or project was named.",
                )
            resolved: dict[tuple[str, date], str] = {}
            for s in a.sentences:
                for phrase, d in s.dates:
                    resolved.setdefault((phrase.lower(), d), phrase)
            for (_, d), phrase in sorted(resolved.items(), key=lambda x: (x[0][1], x[0][0])):
                page.add(
                    "Dates resolved",
                    f"- “{phrase}” → {d.isoformat()} ({d.strftime('%a')})",
                    key=f"“{phrase}” → {d.isoformat()}",
                )
            for text in a.ignored:
                page.add(
                    "Ignored instructions",
                    f"- {_quote(text)} — addressed to the memory system; kept as data, not followed",
                )
            for text in a.not_acted:
                page.add(
                    "Not acted on",
                    f"- {_quote(text)} — the offline agent never deletes; a person can `doctree rm` a page",
                )
            links = [f"{self.root}/projects/{p}" for p in projects]
            links += [
                f"{self.root}/people/{self.directory.person(n)}"
                for n in sorted({n for s in a.sentences for n in s.people})
            ]
            links += [
                f"{self.root}/topics/{slugify(tp)}"
                for tp in sorted({tp for s in a.sentences for tp in s.topics})
            ]
            for link in dict.fromkeys(links):
                page.add("Pages", f"- [[{link}]]")

        self.update(self.session_path, f"Session {t.session_id}", change)

    def write_entities(self, facts: list[Sentence]) -> None:
        people: dict[str, list[Sentence]] = {}
        projects: dict[str, list[Sentence]] = {}
        for s in facts:
            if s.correction:
                continue
            for name in s.people:
                people.setdefault(self.directory.person(name), []).append(s)
            targets = list(s.projects)
            if not targets and self.session_project:  # a session about one project
                targets = [self.session_project]
            for p in targets:
                projects.setdefault(p, []).append(s)
        for s in self.analysis.sentences:  # a project named only in passing still gets its session
            for p in s.projects:
                projects.setdefault(p, [])
        for slug in sorted(people):
            self.write_person(slug, people[slug])
        for slug in sorted(projects):
            self.write_project(slug, projects[slug])

    def _related(self, sentences: list[Sentence], own: str) -> list[str]:
        links = []
        for s in sentences:
            for p in s.projects:
                links.append(f"{self.root}/projects/{p}")
            for n in s.people:
                links.append(f"{self.root}/people/{self.directory.person(n)}")
        if self.session_project:
            links.append(f"{self.root}/projects/{self.session_project}")
        return [x for x in dict.fromkeys(links) if x != own]

    def write_person(self, slug: str, sentences: list[Sentence]) -> None:
        path = f"{self.root}/people/{slug}"
        name = self.directory.people.get(slug, slug)
        self.touched["people"].add(slug)

        def change(page: Page) -> None:
            if not page.intro:
                page.intro = [f"A person named in conversations of agent {self.t.agent}."]
            for s in sentences:
                if s.relation and self.directory.person(s.relation[1]) == slug:
                    page.add(
                        "Facts",
                        f"- Relation: the user's {s.relation[0]} ({self.cite})",
                        key=f"Relation: the user's {s.relation[0]}",
                    )
                full = [
                    n
                    for n in s.people
                    if " " in n and not _title(n) and self.directory.person(n) == slug
                ]
                for n in full:
                    if n != page.title:
                        page.add("Facts", f"- Full name: {n} ({self.cite})", key=f"Full name: {n}")
            for s in sentences[:MAX_FACTS_PER_ENTITY]:
                page.add("Facts", self.line(s), key=_neutral(s.text))
            for link in self._related(sentences, path):
                page.add("Related", f"- [[{link}]]")
            page.add("Sessions", f"- {self.day.isoformat()}: {self.cite}", key=self.session_path)

        self.update(path, name, change)

    def write_project(self, slug: str, sentences: list[Sentence]) -> None:
        path = f"{self.root}/projects/{slug}"
        name = self.directory.projects.get(slug, slug)
        self.touched["projects"].add(slug)

        def change(page: Page) -> None:
            if not page.intro:
                page.intro = [f"A project in conversations of agent {self.t.agent}."]
            for s in sentences[: MAX_FACTS_PER_ENTITY * 2]:
                section = (
                    "Decisions" if "decision" in s.kinds
                    else "Dates" if "date" in s.kinds
                    else "Preferences" if "preference" in s.kinds
                    else "Facts"
                )  # fmt: skip
                page.add(section, self.line(s), key=_neutral(s.text))
            for link in self._related(sentences, path):
                page.add("Related", f"- [[{link}]]")
            page.add("Sessions", f"- {self.day.isoformat()}: {self.cite}", key=self.session_path)

        self.update(path, name, change)

    def write_topic_pages(self, sentences: list[Sentence]) -> None:
        topics: dict[str, list[Sentence]] = {}
        for s in sentences:
            for tp in s.topics:
                topics.setdefault(tp, []).append(s)
        for topic in sorted(topics):
            slug = slugify(topic)
            path = f"{self.root}/topics/{slug}"
            self.touched["topics"].add(slug)
            chosen = topics[topic][:3]

            def change(page: Page, chosen=chosen, path=path) -> None:
                if not page.intro:
                    page.intro = ["A tool or technology that came up in conversation."]
                for s in chosen:
                    page.add("Mentions", self.line(s), key=_neutral(s.text))
                for link in self._related(chosen, path):
                    page.add("Related", f"- [[{link}]]")
                page.add(
                    "Sessions", f"- {self.day.isoformat()}: {self.cite}", key=self.session_path
                )

            self.update(path, topic, change)

    def lists(self, sentences: list[Sentence]) -> tuple[list[Sentence], ...]:
        """Preferences, decisions outside any project, and notes with no page of their own."""
        prefs = [s for s in sentences if "preference" in s.kinds]
        decisions = [s for s in sentences if "decision" in s.kinds]
        notes = [
            s
            for s in sentences
            if "remember" in s.kinds and not s.people and not s.projects and not self.session_project
        ]  # fmt: skip
        decisions_alone = [s for s in decisions if not s.projects and not self.session_project]
        return prefs, decisions_alone, notes

    def planned_top_level(self, sentences: list[Sentence]) -> set[str]:
        """The pages right below the root this run will write."""
        prefs, decisions_alone, notes = self.lists(sentences)
        names = {"active", "archive"} | {kind for kind, slugs in self.touched.items() if slugs}
        if prefs or any(s.correction for s in sentences):
            names.add("corrections")
        if decisions_alone:
            names.add("decisions")
        if notes:
            names.add("notes")
        return names

    def write_lists(self, sentences: list[Sentence]) -> None:
        prefs, decisions_alone, notes = self.lists(sentences)
        if prefs:
            self.update(
                f"{self.root}/corrections",
                "Corrections",
                lambda page: self._add_preferences(page, prefs),
            )
        if decisions_alone:
            self.update(
                f"{self.root}/decisions",
                "Decisions",
                lambda page: [
                    page.add("Outside any project", self.line(s), key=_neutral(s.text))
                    for s in decisions_alone
                ],
            )
        if notes:
            self.update(
                f"{self.root}/notes",
                "Notes",
                lambda page: [
                    page.add("To remember", self.line(s), key=_neutral(s.text)) for s in notes
                ],
            )

    def _add_preferences(self, page: Page, prefs: list[Sentence]) -> None:
        if not page.intro:
            page.intro = [CORRECTIONS_INTRO]
        for s in prefs:
            page.add("Preferences", self.line(s), key=_neutral(s.text))

    def write_active(self, sentences: list[Sentence]) -> None:
        upcoming = [s for s in sentences if "date" in s.kinds and s.when is not None]
        decisions = [s for s in sentences if "decision" in s.kinds]
        path = f"{self.root}/active"
        past: dict[str, list[str]] = {}
        opening = _opening(self.t)
        session_line = f"- {self.day.isoformat()}: {self.cite}" + (
            f" {_quote(opening, 120)}" if opening else ""
        )

        def change(page: Page) -> None:
            if not page.intro:
                page.intro = [
                    "What is current: upcoming dates, recent decisions and recent sessions. "
                    "Dates that have passed move to the archive week."
                ]
            lines = page.sections.setdefault("Upcoming", [])
            for s in upcoming:
                where = self._where(s)
                page.add(
                    "Upcoming",
                    f"- {s.when.isoformat()}{where}: {_neutral(s.text)} ({self.cite})",
                    key=_neutral(s.text),
                )
            keep = []
            for line in lines:
                m = re.match(r"- (\d{4}-\d{2}-\d{2})", line)
                if m and date.fromisoformat(m.group(1)) < self.day:
                    past.setdefault(iso_week(date.fromisoformat(m.group(1))), []).append(line)
                else:
                    keep.append(line)
            page.sections["Upcoming"] = sorted(keep, key=lambda x: x[:12])
            for s in decisions:
                page.add(
                    "Recent decisions",
                    self.line(s)[:-1] + f"{self._where(s)})",
                    key=_neutral(s.text),
                )
            recent = page.sections.get("Recent decisions", [])
            page.sections["Recent decisions"] = recent[-MAX_RECENT_DECISIONS:]
            page.add("Recent sessions", session_line, key=self.session_path)
            sessions = sorted(page.sections["Recent sessions"], key=lambda x: x[:12])
            page.sections["Recent sessions"] = sessions[-MAX_RECENT_SESSIONS:]

        self.update(path, "Active", change)
        for week, lines in sorted(past.items()):
            self.update(
                f"{self.root}/archive/{week}",
                f"Week {week}",
                lambda page, lines=lines: [page.add("Dates that passed", ln) for ln in lines],
            )

    def _where(self, s: Sentence) -> str:
        targets = s.projects or ([self.session_project] if self.session_project else [])
        return "".join(f" [[{self.root}/projects/{p}]]" for p in targets)

    def apply_corrections(self, corrections: list[Sentence]) -> None:
        for s in corrections:
            statement, old, new = s.correction
            subjects = {self.directory.person(n) for n in s.people} | set(s.projects)
            if self.session_project:
                subjects.add(self.session_project)
            edited = self._correct(old, new, statement, subjects, s)
            where = ", ".join(f"[[{p}]]" for p in edited) if edited else None
            record = (
                f"- {s.time[:10]}: {_neutral(s.text)} — “{old}” → “{new}”; "
                + (f"corrected in {where}" if where else f"no page held “{old}”; recorded here")
                + f" ({self.cite})"
            )

            def change(page: Page, record=record, s=s) -> None:
                if not page.intro:
                    page.intro = [CORRECTIONS_INTRO]
                page.add("Corrections", record, key=_neutral(s.text))

            self.update(f"{self.root}/corrections", "Corrections", change)
            for name in s.people:
                slug = self.directory.person(name)
                path = f"{self.root}/people/{slug}"
                if path not in edited:
                    self.touched["people"].add(slug)
                    self.update(
                        path,
                        self.directory.people.get(slug, slug),
                        lambda page, s=s: page.add("Facts", self.line(s), key=_neutral(s.text)),
                    )

    def _correct(
        self, old: str, new: str, statement: str, subjects: set[str], s: Sentence
    ) -> list[str]:
        """Edit every line that states `old` in a current page (not the archive) to say `new`."""
        r = self.call("document_search", {"query": old, "under": self.root, "limit": 50})
        if r.is_error:
            return []
        # Search ranks pages by any of the words; the pages that most likely hold the fact
        # are read whatever their rank.
        paths = [f"{self.root}/{name}" for name in ("active", "decisions", "notes")]
        for slug in sorted(subjects):
            kind = "projects" if slug in self.directory.projects else "people"
            paths.append(f"{self.root}/{kind}/{slug}")
        for line in r.content.split("\n")[1:]:
            m = re.match(r"- (\S+) \(v\d+\)", line)
            if m:
                paths.append(m.group(1))
        skip = (f"{self.root}/archive", f"{self.root}/corrections")
        paths = sorted(p for p in dict.fromkeys(paths) if not p.startswith(skip))
        words = {
            w.lower() for w in re.findall(r"[A-Za-z]{4,}", statement)
            if w.lower() not in _STOPWORDS and w not in old and w not in new
        }  # fmt: skip
        old_iso = _iso(old, s)
        new_iso = _iso(new, s)
        edited = []
        for path in paths:
            page = self.read(path)
            if page is None:
                continue
            on_subject = path.rsplit("/", 1)[1] in subjects
            for line in page.body.split("\n"):
                if (
                    not re.search(rf"(?<![\w]){re.escape(old)}(?![\w])", line)
                    or "(corrected " in line
                ):
                    continue
                if not line.startswith("- ") or self._session_line(line):
                    continue  # a session's opening is a record of what was said then
                relevant = (
                    on_subject
                    or _value_kind(old) == "name"
                    or any(w in line.lower() for w in words)
                )
                if not relevant:
                    continue
                fixed = re.sub(rf"(?<![\w]){re.escape(old)}(?![\w])", new, line)
                if old_iso and new_iso:
                    fixed = fixed.replace(old_iso, new_iso)
                fixed += f" (corrected {s.time[:10]}: was “{old}”, {self.cite})"
                r = self.call(
                    "document_edit", {"path": path, "old_string": line, "new_string": fixed}
                )
                if r.is_error:
                    self.summary.notes.append(
                        f"{path}: correction not applied: {r.content.removeprefix('error: ')}"
                    )
                    continue
                if path not in edited:
                    edited.append(path)
                if path not in self.summary.changed:
                    self.summary.changed.append(path)
        return edited

    def _session_line(self, line: str) -> bool:
        return bool(
            re.match(r"- \d{4}-\d{2}-\d{2}: \[\[" + re.escape(f"{self.root}/archive/"), line)
        )

    def write_patterns(self) -> bool:
        """List the people, projects and topics of this run named in two sessions or more."""
        rows = []
        for kind in ("people", "projects", "topics"):
            for slug in sorted(self.touched[kind]):
                current = self.read(f"{self.root}/{kind}/{slug}")
                if current is None:
                    continue
                page = Page.parse(current.body, slug)
                n = len(page.sections.get("Sessions", []))
                if n >= 2:
                    rows.append((f"{self.root}/{kind}/{slug}", n))
        if not rows:
            return False

        def change(page: Page) -> None:
            if not page.intro:
                page.intro = ["Recurring: who and what comes up in more than one session."]
            lines = page.sections.setdefault("Recurring", [])
            for path, n in rows:
                entry = f"- [[{path}]]: named in {n} sessions, latest {self.day.isoformat()}"
                lines[:] = [ln for ln in lines if not ln.startswith(f"- [[{path}]]:")] + [entry]
            lines.sort()

        self.update(f"{self.root}/patterns", "Patterns", change)
        return True

    def write_indexes(self, top_level: set[str]) -> None:
        """The root, the archive, the week and the people/projects/topics listings."""
        self.write_root(top_level)
        archive = self.read(f"{self.root}/archive")
        weeks = {p for p, _ in (archive.children if archive else [])} | {
            f"{self.root}/archive/{self.week}"
        }
        self.update(
            f"{self.root}/archive",
            "Archive",
            lambda page: page.sections.__setitem__(
                "Weeks", [f"- [[{w}]]" for w in sorted(weeks, reverse=True)]
            ),
        )
        self.update(
            f"{self.root}/archive/{self.week}",
            f"Week {self.week}",
            lambda page: page.add(
                "Sessions", f"- {self.day.isoformat()}: {self.cite}", key=self.session_path
            ),
        )
        for kind, title in (("people", "People"), ("projects", "Projects"), ("topics", "Topics")):
            if not self.touched[kind]:
                continue
            listing = self.read(f"{self.root}/{kind}")
            names = dict(listing.children) if listing else {}

            def change(page: Page, kind=kind, names=names) -> None:
                entries = {p.rsplit("/", 1)[1] for p in names} | self.touched[kind]
                page.sections["Pages"] = [
                    f"- [[{self.root}/{kind}/{slug}]]" for slug in sorted(entries)
                ]

            self.update(f"{self.root}/{kind}", title, change)

    def write_root(self, top_level: set[str]) -> None:
        """The root page: what lies right below it, existing and about to be written."""
        root = self.read(self.root)
        children = {p.rsplit("/", 1)[1] for p, _ in (root.children if root else [])} | top_level

        def change(page: Page) -> None:
            if not page.intro:
                page.intro = [
                    f"Memory of agent {self.t.agent}, kept by its memory agent. "
                    "Every fact cites the session it came from.",
                ]
            known = [f"- [[{self.root}/{name}]]" for name in TOP_LEVEL if name in children]
            others = [f"- [[{self.root}/{c}]]" for c in sorted(children) if c not in TOP_LEVEL]
            page.sections["Contents"] = known + others

        self.update(self.root, "Memory", change)


def _opening(t: Transcript) -> str | None:
    """The first user message's first sentences: what the session was about."""
    for m in t.messages:
        if m.kind == "user" and isinstance(m.content, str):
            own, _ = user_sentences(m.content)
            text = ""
            for sentence in own:
                text = f"{text} {sentence}".strip()
                if len(text) > 60:
                    break
            if text:
                return text
    return None


def _iso(value: str, s: Sentence) -> str | None:
    found = absolute_dates(value, message_date(s.time))
    return found[0][1].isoformat() if found else None
