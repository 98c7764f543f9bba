"""What a transcript says: sentences, dates, names and the kinds of statement the rules find."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta

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
