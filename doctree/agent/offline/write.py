"""Write: the filed facts of a session merged into the pages memory already holds.

Every page is read before it is changed (`PageIO.update`); a fact goes in once, a changed
preference or corrected value moves what it replaces under the page's "Past" heading,
dated; a correction edits the line that states the old value wherever it stands; a request
to forget deletes the page of what is forgotten and the lines that say it. Pages are
written top down, so that a new page's parents already list it when it is created.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from datetime import date, timedelta

from doctree import stopwords
from doctree.agent.offline import anchored, shifts, supersession
from doctree.agent.offline import language as lang
from doctree.agent.offline.clauses import forget_clause, names_any
from doctree.agent.offline.directory import OTHER_KINDS, is_title
from doctree.agent.offline.earlier import Earlier
from doctree.agent.offline.enumerations import entry_keys, switched
from doctree.agent.offline.file import ENTITY_KINDS, named_pages, planned_top_level
from doctree.agent.offline.forms import said_forms, says_sum
from doctree.agent.offline.language import content_words, mentions
from doctree.agent.offline.model import EarlierForget, Filing, Sentence
from doctree.agent.offline.pageio import PageIO, RunSummary, ToolsLike
from doctree.agent.offline.pages import Page, neutral, quote
from doctree.agent.offline.referents import said_by_role
from doctree.agent.offline.referred import Referred, ThingTest, referred, values
from doctree.agent.offline.resolve import (
    absolute_dates,
    capitalised_names,
    change_cue,
    changed_by,
    changes_value,
    counted_dates,
    holds_value,
    is_time,
    message_date,
    recounts,
    restates_line,
    reversal_cue,
    reverses,
    same_subject,
    status_changed,
    swapped_of,
    value_kind,
    value_span,
    values_contrasted,
    values_swapped,
)
from doctree.agent.offline.segment import record_shape, same_list, segment
from doctree.memory.layout import CORRECTIONS, MEMORY_ROOT, TIER_PAGES
from doctree.memory.secrets import mask
from doctree.sessions.transcripts import Transcript
from doctree.store.paths import slugify
from doctree.timeutil import iso_week

ROOT = MEMORY_ROOT
MAX_KEY_LINES = 40
#: Of what one speaker of a chat said in a session with no kind of fact found in it (small
#: talk, "we make a great team"), at most this many lines go on their page: the record of
#: the session keeps every word; a fact of a kind (a date, a preference, a statement…) is
#: never cut.
MAX_PLAIN_LINES = 20
MAX_RECENT_DECISIONS = 10
MAX_RECENT_SESSIONS = 10
TOP_LEVEL = (
    "active", "corrections", "decisions", "notes", "patterns", "people", "projects",
    "organisations", "places", "pets", "topics", "archive",
)  # fmt: skip
CORRECTIONS_INTRO = TIER_PAGES[CORRECTIONS][1]
SECTION_ORDER = (
    "Facts", "Findings", "Decisions", "Dates", "Preferences", "Mentions", "Past", "Related",
    "Sessions",
)  # fmt: skip
ENTITY_INTRO = {
    "people": "A person named in conversations of agent {agent}.",
    "projects": "A project in conversations of agent {agent}.",
    "topics": "A tool or technology that came up in conversation.",
    "organisations": "An organisation (a company, a team, an institution) named in conversation.",
    "places": "A place named in conversation.",
    "pets": "An animal named in conversation.",
}
#: The sections of a page that list sessions and pages rather than say something.
_LISTS = ("Sessions", "Recent sessions", "Related")


def _topic_query(text: str) -> set[str]:
    """Words to search memory with for what `text` changes: what it is about and the units
    of its quantities."""
    words = {w.lower() for w in re.findall(r"\b[A-Za-z][A-Za-z]+\b", text)}
    versions = {m.group(0).lower() for m in supersession.VERSION.finditer(text)}  # "0.5.0"
    return (words - set(stopwords.SEARCH) - {"now", "instead"}) | versions


#: "… instead of the white metro", "… rather than Caspar": the thing set aside, named after.
_INSTEAD_OF_THING = re.compile(
    r"\b(?:instead\s+of|rather\s+than|in\s+place\s+of)\s+(?P<old>[^,.;:!?()—–]{2,60}?)"
    r"\s*(?:[,.;:!?()—–]|$|\s+(?:and|but|because|as|so|since)\b)",
    re.I,
)


def _named_apart(text: str, fits: set[str]) -> set[str]:
    """Of several lines whose value `text` could replace ("bisoprolol 2.5 mg" and
    "donepezil 10 mg" when the new value is "1.25 mg"), the one that alone shares a word of
    what `text` is about ("the bisoprolol"); all of them when none or several do."""
    if len(fits) < 2:
        return fits
    words = _topic_query(text)
    apart = [
        f
        for f in fits
        if (words & _topic_query(f)) - {w for g in fits if g != f for w in _topic_query(g)}
    ]
    return set(apart) if len(apart) == 1 else fits


#: Someone or something said to go to another value: "Chidi goes to Kestrel", "Ana is moving
#: to Blue", and after it "and Ben to Red".
_MOVES_TO = re.compile(
    r"\b(?P<who>[A-Z][\w'’-]+)\s+(?:now\s+)?(?:goes|moves|is\s+moving|is\s+going|switches|"
    r"transfers|is\s+switching|has\s+moved|moved)\s+(?:over\s+)?to\s+(?P<to>[A-Z][\w'’-]+)"
)
_AND_TO = re.compile(
    r"(?<=[\w'’-])\s+to\s+[A-Z][\w'’-]+,?\s+and\s+(?P<who>[A-Z][\w'’-]+)\s+to\s+"
    r"(?P<to>[A-Z][\w'’-]+)"
)
#: An item taken off a list: "take oat milk off the shopping list", "removed the bin bags
#: from my list".
_ITEM_OFF = re.compile(
    r"\b(?:take|took|taken|taking|cross|crossed|strike|struck|remove|removed|removing|"
    r"delete|deleted|drop|dropped)\s+(?:the\s+)?(?P<item>[\w'’-]+(?:\s+[\w'’-]+){0,2}?)\s+"
    r"(?:off|from)\s+(?:the|our|my|this|that)\s+(?P<list>(?:[\w-]+\s+){0,2}?"
    r"(?:list|rota|roster|order|basket|agenda))\b",
    re.I,
)


def _without_item(said: str, item: str) -> str | None:
    """`said` with `item` cut from the items it lists ("Add oat milk and batteries to the
    list" -> "Add batteries to the list"), or None when it lists no other beside it."""
    it = re.escape(item)
    for pattern in (rf"(?<![\w-]){it},\s+", rf",\s+{it}(?![\w-])", rf"(?<![\w-]){it}\s+and\s+"):
        cut = re.sub(pattern, "", said, count=1, flags=re.I)
        if cut != said:
            return cut
    cut = re.sub(rf"(?:,\s+|\s+)and\s+{it}(?![\w-])", "", said, count=1, flags=re.I)
    return cut if cut != said else None


def _said(line: str) -> str:
    """What a fact line says, without its date and its citation."""
    return line.split(": ", 1)[-1].rsplit(" ([[", 1)[0]


#: A date a line is written with after the phrase that said it: " (2032-06-12)".
#: The most values a line may give and still have one of them edited in place when a later
#: statement replaces it: a line giving more reads out a whole plan (a journey, a call sheet),
#: and goes under Past whole.
_ANNOTATED = re.compile(r" \(\d{4}-\d{2}-\d{2}(?: to \d{4}-\d{2}-\d{2})?\)")


def _same_record(said: str, s: Sentence) -> bool:
    """Whether a record a page holds (`said`) says what the record `s` pasted again says:
    the same as said or as written, the dates written after their phrases aside."""
    plain = _ANNOTATED.sub("", said).strip()
    return any(_ANNOTATED.sub("", x or "").strip() == plain for x in (s.raw, s.statement, s.text))


def _other_record(said: str, s: Sentence) -> bool:
    """Whether a record a page holds (`said`) and the record `s` are two records of one list
    (the same labels, another key): the one never replaces the other, in a later session as
    in the one that pasted them ("out: Sat 12 Jun" and "back: Thu 17 Jun" of one trip)."""
    old, new = record_shape(said), record_shape(s.raw or "")
    return old is not None and new is not None and old[1] == new[1] and old[0] != new[0]


class Writer(PageIO):
    """The pages of one session's run: read before filing, written after it."""

    def __init__(
        self,
        root: str,
        transcript: Transcript,
        tools: ToolsLike,
        earlier: Callable[[str], Transcript | None] | None = None,
    ):
        super().__init__(root, tools, RunSummary(transcript.owner, transcript.session_id, turns=1))
        self.t = transcript
        # an earlier session's transcript by its id (its record), when the caller has them: a
        # request to forget what it said finds the thing through all it was called there
        self.earlier = earlier
        first = transcript.started or (transcript.messages[0].time if transcript.messages else None)
        self.start_time = first or "1970-01-01T00:00:00Z"
        self.day = message_date(self.start_time)
        self.unfound = 0  # things asked to be forgotten that nothing says (see `write`)
        # lines a dry forget found, by (thing, persons), before anything is written
        self._dry: dict[tuple[str, tuple[str, ...]], int] = {}
        self.week = iso_week(self.day)
        self.session_path = f"{root}/archive/{self.week}/{slugify(transcript.session_id)}"
        self.cite = f"[[{self.session_path}|{transcript.session_id}]]"
        # what earlier lines said that this run replaced -> the sentence that replaced it
        self.superseded: dict[str, Sentence] = {}
        # of those, a line that named a value since said to be wrong -> (old value, new value):
        # edited in its place rather than replaced whole, as it may say more than that value
        self.value_edits: dict[str, tuple[str, str]] = {}
        # of those, a line whose one value a later value for the same thing replaced ->
        # what the line says with the new value in place
        self.line_edits: dict[str, tuple[str, str]] = {}
        # of those, a record of a list pasted again without it: it goes, nothing in its place
        self.unlisted: set[str] = set()
        self._held_words: dict[str, bool] = {}  # `holds_word`, asked once per word

    def mark_moved_anchors(self, sentences: list[Sentence]) -> None:
        """A current line of an earlier session with a date counted from an event ("the
        Tuesday after cardiology (2028-04-25)") whose event a sentence of this session moves
        ("cardiology has moved to Friday the 28th") is marked where it stands, its date kept:
        "(2028-04-25; counted from cardiology, which moved to 2028-04-28 on 2028-04-19)".
        The new day is not worked out: the thing may stay where it was, and a person reads
        the mark."""
        for s in sentences:
            text = s.raw or s.text
            if s.speaker != "the user" or not anchored.may_move(text):
                continue
            days = [date.fromisoformat(d) for d in re.findall(r"\((\d{4}-\d{2}-\d{2})\)", s.text)]
            query = " ".join(sorted(_topic_query(text)))
            if not days or not query:
                continue
            for path in self._found_pages(query):
                self._mark_moved_on(path, text, days, s)

    def _mark_moved_on(self, path: str, text: str, days: list[date], s: Sentence) -> None:
        page = self.read(path, fresh=True)
        if page is None:
            return
        for section, lines in Page.parse(page.body, "").sections.items():
            if section in ("Past", "Sessions", "Recent sessions", "Related"):
                continue
            for ln in lines:
                if self.session_path in ln or " — past: " in ln or "which moved to" in ln:
                    continue
                marked = ln
                for anchor, iso in anchored.counted_from(_said(ln)):
                    moved = anchored.moved_anchor(anchor, text, [("", d) for d in days])
                    if moved is None or moved.isoformat() == iso:
                        continue
                    marked = marked.replace(
                        f"({iso})",
                        f"({iso}; counted from {anchor}, which moved to {moved.isoformat()}"
                        f" on {s.time[:10]})",
                        1,
                    )
                if marked == ln:
                    continue
                r = self.call(
                    "document_edit", {"path": path, "old_string": ln, "new_string": marked}
                )
                if not r.is_error and path not in self.summary.changed:
                    self.summary.changed.append(path)

    def upcoming(self) -> list[tuple[str, date]]:
        """The upcoming dates of earlier sessions (`active`'s Upcoming lines), each as its
        line in lower case and its day: what a date said in this session may count from."""
        page = self.read(f"{self.root}/active")
        if page is None:
            return []
        out = []
        for ln in Page.parse(page.body, "").sections.get("Upcoming", []):
            if (m := re.match(r"- (\d{4}-\d{2}-\d{2})\b[^:]*: ", ln)) is not None:
                try:
                    out.append((ln[m.end() :].lower(), date.fromisoformat(m.group(1))))
                except ValueError:
                    continue
        return out

    def read_known(self) -> dict[str, dict[str, str]]:
        """The pages memory lists by kind (kind -> slug -> title), and where this session's
        page is: what the stages before writing need to know of the tree."""
        root = self.read(self.root)
        listings: dict[str, dict[str, str]] = {}
        for kind in ENTITY_KINDS:
            if kind == "topics" and not root:
                continue
            index = self.read(f"{self.root}/{kind}") if root else None
            listings[kind] = {
                p.rsplit("/", 1)[1]: title for p, title in (index.children if index else [])
            }
        if root:
            self.read(f"{self.root}/archive")
        self.find_session_page()
        return listings

    def write(self, filing: Filing) -> RunSummary:
        """Write every page `filing` names, top down, and say what was left out."""
        a = filing.analysis
        self.filing = filing
        # the pages this run names; writing a correction or a fact may add one
        self.touched = {kind: set(slugs) for kind, slugs in filing.touched.items()}

        # Top down, so that a new page's parents already list it when it is created.
        self.write_indexes(planned_top_level(filing))
        self._dry = {}
        kept_whole = self._said_together([w for w in a.forget if w not in a.forget_concerning])
        forgetting = {
            what: (
                a.forget_concerning.get(what, ()),
                what in a.forget_of_whom,
                self._going_on(what, a.forget_concerning.get(what, ()))
                if what not in a.forget_of_whom
                else frozenset(),
            )
            for what in dict.fromkeys(a.forget)
            if what not in kept_whole
        }
        # a thing to forget that nothing of this session or of memory says in its words ("the
        # bit about her operation" of a line that says "surgery"): nothing is removed, and
        # the session page does not say that it was
        self.unfound = sum(
            what not in a.forget_found and not self._dry_forget(what, persons, of_whom, also)
            for what, (persons, of_whom, also) in forgetting.items()
        )
        self.write_session_page(filing.projects)
        self.write_entities()
        self.write_lists()
        self.supersede_elsewhere()
        self.relisted_elsewhere()
        self.refielded_elsewhere()
        for said, by in list(self.superseded.items()):
            if _other_record(said, by) and said not in self.unlisted:
                del self.superseded[said]  # a record of the same list, keyed otherwise
        self.write_active()
        self.retire_superseded()
        self.apply_corrections([s for s in a.sentences if s.correction])
        self.mark_moved_anchors(a.sentences)
        for what, (persons, of_whom, also) in forgetting.items():
            self.forget(what, persons, of_whom, sentences=also)
        for request in a.forget_earlier:
            self.forget_earlier(request)
        if self.write_patterns():
            self.write_root({"patterns"})
        if a.ignored:
            self.summary.notes.append(
                f"ignored {len(a.ignored)} passage(s) addressed to the memory system"
            )
        if a.forgotten:
            self.summary.notes.append(
                f"forgot {a.forgotten} statement(s) of this session on request (not written; "
                "the sentences taken back leave the session's history and recall record)"
            )
        secrets = sum(len(s.secrets) for s in a.sentences)
        if secrets:
            self.summary.notes.append(
                f"withheld {secrets} secret(s): memory holds a placeholder and where it is kept"
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
        """A fact as a page line: the day it was said, what it says, the session it cites."""
        text = neutral(s.statement or s.text)
        if "proposal" in s.kinds and "accepted" in s.kinds:
            text = f"Proposed by the assistant and taken up by the user: {text}"
        elif "finding" in s.kinds and "accepted" in s.kinds:
            text = f"Found by the assistant and accepted by the user: {text}"
        elif "finding" in s.kinds:  # what a tool returned; the user went on without a word on it
            text = f"Found by the assistant, not confirmed by the user: {text}"
        return f"- {s.time[:10]}: {text} ({self.cite})"

    def write_session_page(self, projects: list[str]) -> None:
        t = self.t
        a = self.filing.analysis
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
        opening = mask(a.opening)[0] if a.opening else None
        # A fact with a page of its own is linked from here; the rest is listed here.
        key = [
            s
            for s in self.filing.facts
            if self.filing.home(s) is None and "secret" not in s.kinds and not s.correction
            and self.filing.slot(s) is None and "date" not in s.kinds
        ]  # fmt: skip

        def change(page: Page) -> None:
            page.intro = page.intro or [
                f"- agent: {t.owner}",
                f"- session: {t.session_id}",
                f"- date: {self.day.isoformat()} ({self.day.strftime('%A')}, week {self.week})",
                f"- week: [[{self.root}/archive/{self.week}]]",
            ]
            if opening and not page.sections.get("Opening"):
                page.add("Opening", f"- {quote(opening, 240)}")
            page.add("Records", record)
            for s in key[:MAX_KEY_LINES]:
                page.add(
                    "Key lines",
                    f"- {s.time[11:16]} {neutral(s.statement or s.text)}",
                    key=neutral(s.statement or s.text),
                )
            if len(key) > MAX_KEY_LINES:
                page.add(
                    "Key lines",
                    f"- … and {len(key) - MAX_KEY_LINES} more key lines",
                    key="more key lines",
                )
            if not self.filing.facts and not page.sections.get("Key lines"):
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
                    f"- {quote(text)} — addressed to the memory system; kept as data, not followed",
                )
            for text, why in a.not_acted:
                page.add("Not acted on", f"- {quote(text)} — {why}")
            if a.forgotten:
                page.add(
                    "Forgotten on request",
                    f"- {a.forgotten} statement(s) left out of memory, as the user asked",
                    key="left out of memory",
                )
            if n := len(a.forget) - self.unfound:  # what was forgotten is not named again here
                page.add(
                    "Forgotten on request",
                    f"- {n} subject{'s' if n != 1 else ''} removed from current memory, "
                    "as the user asked",
                    key="removed from current memory",
                )
            if self.unfound:  # nor what was asked and not found
                page.add(
                    "Not acted on",
                    f"- {self.unfound} request(s) to forget a thing memory does not say in those "
                    "words (not named here); nothing was removed — ask again with the words "
                    "it was said in, or use `doctree forget`",
                    key="memory does not say in those words",
                )
            links = [f"{self.root}/projects/{p}" for p in projects]
            links += [
                f"{self.root}/people/{self.filing.directory.person(n)}"
                for n in sorted({n for s in a.sentences for n in s.people})
            ]
            for kind in OTHER_KINDS:
                links += [
                    f"{self.root}/{kind}/{slug}" for slug in sorted(self.touched.get(kind, ()))
                ]
            links += [
                f"{self.root}/topics/{slugify(tp)}"
                for tp in sorted({tp for s in a.sentences for tp in s.topics})
            ]
            for link in dict.fromkeys(links):
                page.add("Pages", f"- [[{link}]]")

        self.update(self.session_path, f"Session {t.session_id}", change)

    def write_entities(self) -> None:
        """Each page named in the session: its own facts, links to pages that name it."""
        own: dict[tuple[str, str], list[Sentence]] = {}
        named: dict[tuple[str, str], list[Sentence]] = {}
        for s in self.filing.analysis.sentences:
            for key in named_pages(self.filing, s):
                named.setdefault(key, []).append(s)
        for s in self.filing.facts:
            if (home := self.filing.home(s)) is not None:
                own.setdefault(home, []).append(s)
                named.setdefault(home, [])
        for kind, slug in sorted(named):
            self.write_entity(kind, slug, own.get((kind, slug), []), named[(kind, slug)])

    def _path(self, kind: str, slug: str) -> str:
        return f"{self.root}/{kind}/{slug}"

    def title_of(self, kind: str, slug: str) -> str:
        if kind == "people":
            return self.filing.directory.people.get(slug, slug)
        if kind == "projects":
            return self.filing.directory.projects.get(slug, slug)
        if kind == "topics":
            return self.filing.topic_titles.get(slug, slug)
        return self.filing.directory.others[kind].get(slug, slug)

    def who(self, slug: str, sentences: list[Sentence]) -> str | None:
        """A person's one-line "who is this", from what the session said of them."""
        for s in sentences:
            if s.relation and self.filing.directory.person(s.relation[1]) == slug:
                return f"the user's {s.relation[0]}"
        for s in sentences:
            for name, role in s.roles:
                if self.filing.directory.person(name) == slug:
                    return role
        for s in sentences:
            speaking = s.speaker not in ("the user", "the assistant")
            if speaking and self.filing.directory.person(s.speaker) == slug:
                return f"a participant in conversations of agent {self.t.owner}"
        return None

    def write_entity(
        self, kind: str, slug: str, own: list[Sentence], named: list[Sentence]
    ) -> None:
        path = self._path(kind, slug)
        title = self.title_of(kind, slug)
        self.touched.setdefault(kind, set()).add(slug)
        who = self.who(slug, named) if kind == "people" else None
        first_seen = f"first named on {self.day.isoformat()} ({self.cite})"

        def change(page: Page) -> None:
            intro = page.intro[0] if page.intro else ""
            generic = not intro or intro.startswith(
                ("A person named", f"{page.title}: first named")
            )
            if kind == "people" and (who or not intro) and (generic or who):
                line = f"{page.title}: {who or first_seen}."
                if who and not generic and who not in intro:
                    line = f"{intro.rstrip('.')}; {who}."
                elif who and not generic:
                    line = intro
                page.intro = [line]
            elif not page.intro:
                page.intro = [ENTITY_INTRO[kind].format(agent=self.t.owner)]
            if kind == "people":
                for s in named:
                    self._person_details(page, slug, s)
            for s in _facts_of(own):
                section = (
                    "Decisions" if "decision" in s.kinds
                    else "Findings" if "finding" in s.kinds
                    else "Dates" if "date" in s.kinds and kind == "projects"
                    else "Preferences" if "preference" in s.kinds and kind != "people"
                    else "Facts"
                )  # fmt: skip
                self.add_fact(page, section, s)
            links = []
            for s in own + named:
                home = self.filing.home(s)
                if home and home != (kind, slug):
                    links.append(self._path(*home))
                elif home is None and (listed := self.filing.list_page(s)):
                    links.append(f"{self.root}/{listed}")
                for key in named_pages(self.filing, s):
                    if key != (kind, slug) and key[0] != "topics":
                        links.append(self._path(*key))
            if self.filing.session_project and kind != "projects":
                links.append(self._path("projects", self.filing.session_project))
            for link in dict.fromkeys(links):
                if link != path:
                    page.add("Related", f"- [[{link}]]")
            page.add("Sessions", f"- {self.day.isoformat()}: {self.cite}", key=self.session_path)
            _order_sections(page)

        self.update(path, title, change)

    def _person_details(self, page: Page, slug: str, s: Sentence) -> None:
        if s.relation and self.filing.directory.person(s.relation[1]) == slug:
            page.add(
                "Facts",
                f"- Relation: the user's {s.relation[0]} ({self.cite})",
                key=f"Relation: the user's {s.relation[0]}",
            )
        for name, role in s.roles:
            if self.filing.directory.person(name) == slug:
                page.add("Facts", f"- Role: {role} ({self.cite})", key=f"Role: {role}")
        for nick, target in self.filing.directory.aliases.items():
            if target == slug and nick in s.text:
                page.add(
                    "Facts", f"- Also called: {nick} ({self.cite})", key=f"Also called: {nick}"
                )
        for n in s.people:
            full = " " in n and not is_title(n) and n != page.title
            if full and self.filing.directory.person(n) == slug:
                page.add("Facts", f"- Full name: {n} ({self.cite})", key=f"Full name: {n}")

    def add_fact(self, page: Page, section: str, s: Sentence) -> None:
        """Add a fact; a changed preference or reversed decision moves the one it replaces
        to the page's "Past" section, dated, so the page tells what holds now."""
        line = self.line(s)
        key = neutral(s.statement or s.text)
        for old in s.replaces:  # corrected later in the same session
            page.add(
                "Past",
                f"{self.line(old)} — past: corrected on {s.time[:10]}",
                key=neutral(old.statement or old.text),
            )
        if s.supersedes:
            page.sections.setdefault(section, [])  # what holds now, before what held
        for old in s.supersedes:  # a later value for it said in the same session
            page.add(
                "Past",
                f"{self.line(old)} — past: replaced on {s.time[:10]}",
                key=neutral(old.statement or old.text),
            )
        if any(key in existing for existing in page.sections.get(section, [])):
            return
        if "change" in s.kinds:
            words = content_words(s.statement or s.text)
            lines = page.sections.get(section, [])
            replaced = []
            for earlier in list(lines):
                if self.session_path in earlier:
                    continue  # said in this session too
                earlier_words = content_words(_said(earlier))
                shared = words & earlier_words
                if len(shared) >= 2 or (shared and len(earlier_words) <= 3):
                    replaced.append(earlier)
            if not replaced and (frame := lang.liking_frame(neutral(s.statement or s.text))):
                # No word in common ("prefers green tea" -> "prefers coffee now"): the one
                # earlier liking of the same person with the same verb is replaced (with
                # several, which one is unknown, and all stay).
                same = [
                    earlier
                    for earlier in lines
                    if self.session_path not in earlier
                    and lang.liking_frame(_said(earlier)) == frame
                ]
                replaced = same if len(same) == 1 else []
            for earlier in replaced:
                lines.remove(earlier)
                page.add(
                    "Past",
                    f"{earlier} — past: replaced on {s.time[:10]} ({self.cite})",
                    key=earlier,
                )
        page.add(section, line, key=key)

    def supersede_elsewhere(self) -> None:
        """A value said to have changed ("he's down to 29.5 kg", "we fly on the 18th
        instead") replaces the one current line of memory that gave it before, whatever page
        holds it: the weight a vet's page noted, the date `active` lists. Only when exactly
        one line of an earlier session fits (`changes_value`); `retire_superseded` then moves
        it under "Past" wherever it stands."""
        for s in self.filing.facts:
            if s.switches:
                self._switched_elsewhere(s)
            text = s.statement or s.text
            named = values_contrasted(s.raw or text)  # "46,200, not 48,200": the old one named
            swapped = named is None and (named := values_swapped(s.raw or text)) is not None
            # a word swapped ("from the beef to the risotto") is a value of the people named
            whose = [p for p in s.people if p != "the user"] if swapped else []
            if swapped and (of := swapped_of(s.raw or text)):
                # the one moved, when said: "Nadia's moved me from goal attack to …"
                moved = [p for p in s.people if p.lower() in of.lower()]
                if not moved and re.fullmatch(r"(?i)me|us|the\s+user", of):
                    moved = ["the user"]
                whose = moved or whose
            if s.correction:
                self._corrected_subject(s)
            if s.replaces or s.correction:
                continue
            taken_back = bool(reversal_cue(s.raw or text))
            if named is None and not s.replaces and not s.correction:
                self._item_taken_off(s)
                self._record_cell_moved(s)
                self._next_again(s)
                self._status_elsewhere(s)
                self._recounted_elsewhere(s)
                self._replaced_thing_elsewhere(s)
            if named is None and not (change_cue(text) or change_cue(s.raw or "") or taken_back):
                self._later_value_elsewhere(s)
                continue
            if any(by is s for by in self.superseded.values()):
                # it replaced a line of its own page already ("the rent is up to £1,200"
                # of "my rent is £1,150"): another line it could mean ("the garage rent is
                # £90") is not replaced as well
                continue
            query = " ".join(sorted(_topic_query(text) | ({named[1]} if named else set())))
            if not query:
                continue
            said_lines = {
                _said(ln)
                for ln in self._current_lines(query)
                if re.match(r"- \d{4}-\d{2}-\d{2}\b", ln)
            }
            if named:
                fits = {
                    x
                    for x in said_lines
                    if holds_value(x, named[1])
                    and not holds_value(x, named[0])
                    and (not whose or any(p.lower() in x.lower() for p in whose))
                }
            else:
                # what is called off ("NOT going up to 100 mg after all") is the line that
                # names it, before any line whose value merely differs (the 50 mg dose)
                off = {x for x in said_lines if taken_back and reverses(s, x)}
                fits = off or {x for x in said_lines if changes_value(s, x) and _held_before(s, x)}
            fits = _named_apart(text, fits)
            if len(fits) > 1 and not named:
                fits = self._each_clause(s, fits)
            if len(fits) == 1:
                said = fits.pop()
                self.superseded.setdefault(said, s)
                if named and self.superseded[said] is s:
                    self.value_edits[said] = (named[1], named[0])
                elif self.superseded[said] is s and not taken_back:
                    self._edited_in_place(s, said, text)
            self._later_value_elsewhere(s)  # another clause may change another line
        for s in self.filing.facts:
            if not (s.replaces or s.correction):
                # after every value said outright has replaced its line: a move by a count
                # reads the date that holds now
                self._shifted_elsewhere(s)
        for s in self.filing.facts:
            if s.replaces or s.correction:
                continue
            self._ended_elsewhere(s)
            for old in s.supersedes:
                # "Thursday's rehearsal is off. We're doing Saturday instead": what the
                # sentence it replaced in the session ended, it ends, and stands in its place
                self._ended_elsewhere(s, old.statement or old.text)

    def _switched_elsewhere(self, s: Sentence) -> None:
        """ "Go with the other one" on a choice of two an earlier session recorded ("Swimming:
        the user chose A, instead of B."): the one current line of it the sentence names is
        edited to the other option, the old line under Past (`enumerations.switched`)."""
        text = s.raw or s.text
        fits = {
            said: new
            for ln in self._current_lines("chose instead")
            if (new := switched(said := _said(ln), text)) is not None
        }
        if len(fits) == 1:
            said, new = fits.popitem()
            self.superseded.setdefault(said, s)
            if self.superseded[said] is s:
                self.line_edits[said] = (new, "choice")

    def _ended_elsewhere(self, s: Sentence, said_instead: str = "") -> None:
        """A status changed (`supersession.ends`: a debt paid, a task done, a plan called
        off or fallen through), a role or a task passed to someone else
        (`supersession.takes_role`, `supersession.passes_task`) replaces the one current
        line of an earlier session that stated what it ends or who held the role; nothing
        moves when none or several fit. `said_instead`: the text to read in place of `s`'s
        own."""
        if not said_instead and any(by is s for by in self.superseded.values()):
            return
        text = said_instead or s.statement or s.text
        if not supersession.may_end(text):
            return  # no search for a statement that ends nothing
        query = " ".join(sorted(_topic_query(text)))
        if not query:
            return
        lines = [
            _said(ln) for ln in self._current_lines(query) if re.match(r"- \d{4}-\d{2}-\d{2}\b", ln)
        ]
        task = supersession.task_words(text) - set(stopwords.SEARCH)
        for fit in (supersession.ends, supersession.takes_role, supersession.passes_task):
            if fit is supersession.passes_task and task:
                # the task's own words find its line ("feeding Mittens"), the rest of what
                # was said with it aside
                lines = [
                    _said(ln)
                    for ln in self._current_lines(" ".join(sorted(task)))
                    if re.match(r"- \d{4}-\d{2}-\d{2}\b", ln)
                ]
            fits = {said for said in lines if fit(text, said)}
            if len(fits) == 1:
                self.superseded.setdefault(fits.pop(), s)
                return
            if fit is supersession.takes_role and len(fits) > 1:
                # the one holder said in more than one line ("her key worker is Ana" and a
                # finding that names Ana as her key worker): each of them passed
                held = {supersession.passed_from(text, said) for said in fits}
                if frozenset.intersection(*held):
                    for said in fits:
                        self.superseded.setdefault(said, s)
                    return

    def _later_value_elsewhere(self, s: Sentence) -> None:
        """A later value for the same thing (`supersession`): the one current line of an
        earlier session that gave the thing a value of the same type that differs is
        replaced, its value edited in place when it can be, so that the rest of what the
        line says stays current."""
        done = {line for line, by in self.superseded.items() if by is s}
        text = s.statement or s.text
        before = self._sentence_before(s)
        query = " ".join(sorted(_topic_query(f"{text} {before}")))
        if not query or not supersession.values(text, bare=True):
            return
        if done and sum(1 for c in supersession.claims(text, before=before) if not c.inert) < 2:
            return  # its one clause replaced a line already: nothing more to search for
        found: dict[str, list[supersession.Replacement]] = {}
        for ln in self._current_lines(query):
            if not re.match(r"- \d{4}-\d{2}-\d{2}\b", ln):
                continue
            said = _said(ln)
            if said in self.superseded and said not in done:
                self._edited_again(s, said, text, before)
                continue
            if not _held_before(s, said):
                continue
            reps = supersession.replacements(
                text, said, before=before, said_on=message_date(s.time)
            )
            if reps:
                found.setdefault(said, []).extend(reps)
        # what `s` replaced already is its clause's: another line that clause could mean ("the
        # garage rent is £90" beside "my rent is £1,150") is not replaced as well
        taken = {r.clause for line in done for r in found.get(line, [])}
        if done and not taken:
            return  # which clause replaced it is unknown
        for rep in supersession.chosen(found):
            if rep.line in done or rep.clause in taken:
                continue
            self.superseded.setdefault(rep.line, s)
            if len(supersession.values(rep.line)) > supersession.EDITED_MOST:
                continue  # a whole plan read out: one value edited would leave the rest stale
            edited = supersession.edit(rep.line, rep, text)
            if edited is not None and edited != rep.line:
                self.line_edits[rep.line] = (edited, rep.kind)

    def _edited_in_place(self, s: Sentence, said: str, text: str) -> None:
        """The line `s` replaces with a word of change ("Kemi's wedding has moved to 21
        June" of "… getting married on 14 June in Lagos") with its one value of the type
        edited in place, when it can be (`supersession.edit`): the rest of what it says (in
        Lagos) stays current beside the new statement, the line as it was under Past."""
        if len(supersession.values(said)) != 1:
            return  # the line's other values may be what a later change is of: not copied
        reps = supersession.replacements(
            text, said, before=self._sentence_before(s), said_on=message_date(s.time)
        )
        fits = supersession.chosen({said: reps}) if reps else []
        if len(fits) != 1 or not fits[0].cued:
            return  # the word of change is of another clause: which value moved is unsure
        if fits[0].kind == "date" and fits[0].old.norm < message_date(s.time).isoformat():
            return  # a day gone by is when something happened, never to be made another
        edited = supersession.edit(said, fits[0], text)
        if edited is not None and edited != said and supersession.says_all_figures(edited, text):
            self.line_edits[said] = (edited, fits[0].kind)

    def _edited_again(self, s: Sentence, said: str, text: str, before: str) -> None:
        """A line another statement of this session edited already (one of its two dates
        moved: "Monday 12 May: the tiler, so the bathroom is done by Friday 16 May") whose
        other value `s` replaces: that value is edited too, in the edited line, so that what
        stands in its place says both new values. Only when one value of it fits."""
        edited = self.line_edits.get(said)
        if edited is None or self.superseded.get(said) is s:
            return
        reps = supersession.replacements(
            text, edited[0], before=before, said_on=message_date(s.time)
        )
        fits = supersession.chosen({edited[0]: reps})
        if len(fits) != 1:
            return
        again = supersession.edit(edited[0], fits[0], text)
        if again is not None and again != edited[0]:
            self.line_edits[said] = (again, edited[1])

    def _shifted_elsewhere(self, s: Sentence) -> None:
        """A date moved by a count ("pushed back a week", `shifts.shifted_line`): the one
        current line of an earlier session it moves goes under Past, its date edited to the
        new one in place, so that the rest of what it says stays current."""
        if any(by is s for by in self.superseded.values()):
            return
        text = s.statement or s.text
        if not shifts.shifts(text):
            return  # no search for a statement that moves nothing by a count
        lines: dict[str, None] = {}
        for ln in self._current_lines(" ".join(sorted(_topic_query(text)))):
            if re.match(r"- \d{4}-\d{2}-\d{2}\b", ln):
                lines.setdefault(_said(ln))
        # what is still to come, whatever word it was named by ("the op" of "the surgery")
        page = self.read(f"{self.root}/active")
        for ln in Page.parse(page.body if page else "", "").sections.get("Upcoming", []):
            if self.session_path not in ln and " — past: " not in ln:
                lines.setdefault(_said(ln))
        said = [ln for ln in lines if ln not in self.superseded]
        for i, old, new in shifts.shifted_lines(text, said, message_date(s.time)):
            line = said[i]
            olds = [
                v
                for v in supersession.values(line)
                if v.kind == "date" and v.norm == old.isoformat()
            ]
            self.superseded.setdefault(line, s)
            if not olds or self.superseded[line] is not s:
                continue
            new_value = supersession.Value("date", new.isoformat(), 0, 0)
            rep = supersession.Replacement(line, "date", olds[0], new_value, 1, False)
            edited = supersession.edit(line, rep, "")
            if edited is not None and edited != line:
                self.line_edits[line] = (edited, "date")

    def _item_taken_off(self, s: Sentence) -> None:
        """An item said to be taken off a list ("take the oat milk off the shopping list"):
        the one current line of an earlier session that names the item and the list goes
        under Past, the item cut from it in place when it names others beside it ("oat milk
        and batteries" keeps "batteries"); nothing moves when no line or several fit."""
        text = s.raw or s.statement or s.text
        for m in _ITEM_OFF.finditer(text):
            item, listed = m.group("item"), m.group("list")
            words = _topic_query(f"{item} {listed}")
            if not words or not _topic_query(item):
                continue
            fits = {
                said
                for ln in self._current_lines(" ".join(sorted(words)))
                if re.match(r"- \d{4}-\d{2}-\d{2}\b", ln)
                and supersession.names_thing(said := _said(ln), item)
                and supersession.names_thing(said, listed.split()[-1])
            }
            if len(fits) != 1:
                continue
            said = fits.pop()
            self.superseded.setdefault(said, s)
            if self.superseded[said] is s and (cut := _without_item(said, item)) is not None:
                self.line_edits[said] = (cut, "item")

    def _next_again(self, s: Sentence) -> None:
        """The next of a series said again once the day given before has come ("next check
        Monday 22 March" said on the day of "Next check Monday 8 March",
        `supersession.next_again`): the one current line of an earlier session that gave
        the next before goes under Past."""
        text = s.statement or s.text
        if not re.search(r"\bnext\b", text, re.I) or "(" not in text:
            return
        said_on = message_date(s.time)
        fits = {
            said
            for ln in self._current_lines(" ".join(sorted(_topic_query(text))))
            if re.match(r"- \d{4}-\d{2}-\d{2}\b", ln)
            and supersession.next_again(text, said := _said(ln), said_on)
        }
        if len(fits) == 1:
            self.superseded.setdefault(fits.pop(), s)

    def _record_cell_moved(self, s: Sentence) -> None:
        """A value of a pasted record said to go elsewhere ("Chidi goes to Kestrel and Arjun
        to Otter", of rows "…, child: Chidi; group: Otter."): the one current record of an
        earlier session that holds the first name in a cell, and in another cell a value of
        the column the second name is a value of in the other records, has that cell edited
        to it, the old record under Past. Nothing moves when no record or several fit."""
        text = s.raw or s.statement or s.text
        if not _MOVES_TO.search(text) or "?" in text:
            return
        pairs = [(m.group("who"), m.group("to")) for m in _MOVES_TO.finditer(text)]
        pairs += [(m.group("who"), m.group("to")) for m in _AND_TO.finditer(text)]
        for who, to in pairs:
            records: dict[str, dict[str, str]] = {}
            for ln in self._current_lines(f"{who} {to}"):
                shape = record_shape(said := _said(ln))
                if shape is not None and re.match(r"- \d{4}-\d{2}-\d{2}\b", ln):
                    records[said] = shape[2]
            holding = [said for said, cells in records.items() if who in cells.values()]
            if len(holding) != 1:
                continue
            said = holding[0]
            cells = records[said]
            columns = [
                label
                for label, value in cells.items()
                if value not in (who, to)
                and any(other.get(label) == to for o, other in records.items() if o != said)
            ]
            if len(columns) != 1:
                continue  # which cell goes is unsure
            old = cells[columns[0]]
            self.superseded.setdefault(said, s)
            if self.superseded[said] is s:
                cell = re.search(
                    rf"\b{re.escape(columns[0])}:\s*({re.escape(old)})(?=[;.]|$)", said, re.I
                )
                edited = said if cell is None else said[: cell.start(1)] + to + said[cell.end(1) :]
                if edited != said:
                    self.line_edits[said] = (edited, "cell")

    def _sentence_before(self, s: Sentence) -> str:
        """The sentence said just before `s` by the same speaker, for an "it" of `s`: the
        one it replaced in the session, when it did ("the MOT was booked for the 12th" of
        "so it's now the 19th instead")."""
        if s.supersedes:
            return s.supersedes[-1].statement or s.supersedes[-1].text
        said = self.filing.analysis.sentences
        for i, x in enumerate(said):
            if x is s:
                for y in reversed(said[:i]):
                    if y.speaker == s.speaker:
                        return y.statement or y.text
                return ""
        return ""

    def _each_clause(self, s: Sentence, fits: set[str]) -> set[str]:
        """Of several lines one sentence could replace, those a clause of it names alone
        ("Front squat's up to 75 kg and incline press to 45 kg now": the squat line and
        the press line, each by its own clause), each marked replaced; the lines as they were when no
        clause names one line alone (which is meant is unknown, and all stay)."""
        by_clause: dict[str, set[str]] = {}
        for line in fits:
            for clause in changed_by(s, line) - {""}:
                by_clause.setdefault(clause, set()).add(line)
        alone = {next(iter(lines)) for lines in by_clause.values() if len(lines) == 1}
        if not alone:
            return fits
        for line in alone:
            self.superseded.setdefault(line, s)
        return set()

    def relisted_elsewhere(self) -> None:
        """A block of records pasted again in a later session (the same columns, keyed the
        same way, sharing a key with the block an earlier session pasted): the earlier
        session's records whose values changed are replaced by the new ones, and those whose
        key is no longer there go under "Past" wherever they stand."""
        blocks: dict[frozenset[str], dict[str, Sentence]] = {}
        for s in self.filing.facts:
            if s.raw and (shape := record_shape(s.raw)) is not None:
                blocks.setdefault(shape[1], {})[shape[0]] = s
            for name in s.unlists:  # "take Marcus off the rota": his records go
                records: dict[str, str] = {}  # record -> its key
                for ln in self._current_lines(name):
                    record = record_shape(_said(ln))
                    if record is not None and (
                        record[0] == name or name.split()[0] == record[0].split()[0] == name
                    ):
                        records[_said(ln)] = record[0]
                if len(set(records.values())) == 1:  # two people of that name: neither
                    for said in records:
                        self.superseded.setdefault(said, s)
                        self.unlisted.add(said)
        for labels, now in blocks.items():
            if len(now) < 2:
                continue
            words = sorted({w for label in labels for w in re.findall(r"[^\W\d_]{3,}", label)})
            if not words:
                continue
            r = self.call(
                "document_search", {"query": " ".join(words), "under": self.root, "limit": 50}
            )
            if r.is_error:
                continue
            earlier: dict[str, dict[str, str]] = {}  # the session cited -> key -> record
            for found in r.content.split("\n")[1:]:
                m = re.match(r"- (\S+) \(v\d+\)", found)
                if m is None or m.group(1).startswith(f"{self.root}/archive"):
                    continue
                page = self.read(m.group(1))
                for section, lines in Page.parse(page.body if page else "", "").sections.items():
                    if section in ("Past", "Sessions", "Recent sessions", "Related"):
                        continue
                    for ln in lines:
                        cited = re.search(r"\(\[\[([^|\]]+)", ln)
                        said = _said(ln)
                        shape = record_shape(said)
                        if cited is None or shape is None or shape[1] != labels:
                            continue
                        if self.session_path in ln or " — past: " in ln:
                            continue
                        earlier.setdefault(cited.group(1), {})[shape[0]] = said
            sharing = [
                path for path, records in earlier.items() if same_list(set(records), set(now))
            ]
            if not sharing:
                continue
            last = max(sharing)  # the latest session's block: archive paths sort by week
            for key, said in earlier[last].items():
                if key in now:
                    if not _same_record(said, now[key]):
                        self.superseded.setdefault(said, now[key])  # its values changed
                    continue
                self.superseded.setdefault(said, next(iter(now.values())))
                self.unlisted.add(said)

    def refielded_elsewhere(self) -> None:
        """A field of a document pasted again with another value ("Loft conversion, party
        wall surveyor: Marta Kowalczyk." after "… surveyor: Felix Amadi."): the current
        lines of earlier sessions that gave the same field of the same document (the same
        key and the one same label, `record_shape`) another value go under Past."""
        for s in self.filing.facts:
            shape = record_shape(s.raw) if s.raw else None
            if shape is None or len(shape[1]) != 1:
                continue
            key, labels, _ = shape
            label = next(iter(labels))
            query = " ".join(sorted(_topic_query(f"{key} {label}")))
            for ln in self._current_lines(query):
                if not re.match(r"- \d{4}-\d{2}-\d{2}\b", ln):
                    continue
                old = record_shape(said := _said(ln))
                if old is None or old[0] != key or old[1] != labels:
                    continue
                if not _same_record(said, s):
                    self.superseded.setdefault(said, s)

    def _replaced_thing_elsewhere(self, s: Sentence) -> None:
        """A thing said to be chosen instead of another ("we're going with the green zellige
        instead of the white metro", "Lowri rather than Caspar") replaces the one current
        line of an earlier session that names the other thing, whatever page holds it; when
        no line or several do, nothing moves."""
        text = s.raw or s.statement or s.text
        m = _INSTEAD_OF_THING.search(text)
        if m is None and (lacked := supersession.lacked_instead(text)) is not None:
            # "they had no oat milk so I got soya instead": the line that gave the thing lacking
            lines = [
                _said(ln)
                for ln in self._current_lines(" ".join(sorted(_topic_query(lacked))))
                if re.match(r"- \d{4}-\d{2}-\d{2}\b", ln)
            ]
            found = supersession.lacked_line(text, lines)
            if found is not None:
                self.superseded.setdefault(lines[found], s)
                return
        if m is None:
            if re.search(r"\binstead\b", text, re.I):
                self._entry_replaced(text, s)
                if not any(by is s for by in self.superseded.values()):
                    self._person_instead(text, s)
            return
        old = re.sub(
            r"^(?:the|a|an|my|our|his|her|their)\s+", "", m.group("old").strip(), flags=re.I
        )
        if not old or not (_topic_query(old) - {"one", "ones"}):
            return
        words = _topic_query(old)  # in any order: "white metro" is "Metro white gloss"
        fits = {
            _said(ln)
            for ln in self._current_lines(" ".join(sorted(words)))
            if re.match(r"- \d{4}-\d{2}-\d{2}\b", ln) and words <= _topic_query(_said(ln))
        }
        if len(fits) > 1:
            # "Ana's bringing a flan instead of the soup" where a pasted list's row keyed by
            # Ana gave the soup and another line names it too: the row of the one named
            names = {re.sub(r"['’]s?$", "", n) for n in capitalised_names(text)}
            keyed = {
                said
                for said in fits
                if (shape := record_shape(said)) is not None
                and names & set(re.findall(r"[A-Z][\w’'-]+", shape[0]))
            }
            fits = keyed if len(keyed) == 1 else fits
        if len(fits) == 1:
            self.superseded.setdefault(fits.pop(), s)

    def _entry_replaced(self, text: str, s: Sentence) -> None:
        """A person's thing said to be another one instead ("Oliver's gone off Lego, so he's
        getting a Raspberry Pi kit instead") replaces the one current line of an earlier
        session's list keyed by that person ("Oliver ... Lego Technic crane ... £40",
        `enumerations.entry_keys`); when no line or several are keyed so, nothing moves."""
        keys = {re.sub(r"['’]s?$", "", n) for n in capitalised_names(text)}  # "Oliver's"
        fits = {
            _said(ln)
            for key in keys
            for ln in self._current_lines(key)
            if re.match(r"- \d{4}-\d{2}-\d{2}\b", ln) and key in entry_keys(_said(ln))
        }
        if len(fits) == 1:
            self.superseded.setdefault(fits.pop(), s)

    def _person_instead(self, text: str, s: Sentence) -> None:
        """Someone said to do a thing instead of another person the sentence names ("Ada's
        off sick, so Ben is running the stall instead"): the one current line of an earlier
        session that names the other person and the thing, and not the one doing it now,
        goes under Past; nothing moves when no line or several fit."""
        at = re.search(r"\binstead\b(?!\s+of\b)", text, re.I)
        if at is None:
            return
        clauses = re.split(r"[,;:.]\s|\s(?:so|and|but)\s", text[: at.start()])
        clause = clauses[-1] if clauses else ""
        names = {re.sub(r"['’]s$", "", n) for n in capitalised_names(text)}
        now = {n for n in names if _names(n, clause)}
        before = names - now
        thing = (
            supersession.thing_words(clause)
            - {w.lower() for w in names}
            - {lang.stem(w.lower()) for w in names}
        )
        if len(now) != 1 or len(before) != 1 or not thing:
            return  # who replaced whom is unsure
        old = next(iter(before))
        fits = {
            said
            for ln in self._current_lines(old)
            if re.match(r"- \d{4}-\d{2}-\d{2}\b", ln)
            and _names(old, said := _said(ln))
            and not any(_names(n, said) for n in now)
            and supersession._same(thing, supersession.thing_words(said))
        }
        if len(fits) == 1:
            self.superseded.setdefault(fits.pop(), s)

    def _recounted_elsewhere(self, s: Sentence) -> None:
        """A date counted again from the same thing in the same words ("two weeks before the
        deadline") that comes out another day, because the thing moved, replaces the one
        current line of an earlier session that counted it before."""
        text = s.statement or s.text
        if "(" not in text or not counted_dates(text):
            return  # no date counted from a thing: nothing to search for
        fits = {
            _said(ln)
            for ln in self._current_lines(" ".join(sorted(_topic_query(text))))
            if re.match(r"- \d{4}-\d{2}-\d{2}\b", ln) and recounts(text, _said(ln))
        }
        if len(fits) == 1:
            self.superseded.setdefault(fits.pop(), s)

    def _corrected_subject(self, s: Sentence) -> None:
        """A correction of a thing ("the team dinner was at Kohl, not Olive & Fig") replaces
        the one current line of an earlier session about the same thing that neither value
        is on ("The team dinner is on Thursday"), whatever page holds it: what is current of
        it is then the correction. Lines with the old value are `apply_corrections`' work;
        nothing moves when two lines could be meant."""
        assert s.correction is not None
        statement, old, new = s.correction
        text = s.statement or s.text
        fits = {
            _said(ln)
            for ln in self._current_lines(" ".join(sorted(_topic_query(statement))))
            if re.match(r"- \d{4}-\d{2}-\d{2}\b", ln)
            and old not in ln
            and new not in ln
            and same_subject(text, _said(ln))
        }
        if len(fits) == 1:
            self.superseded.setdefault(fits.pop(), s)

    def _found_pages(self, query: str) -> Iterator[str]:
        """The paths of the pages a search for `query` finds under the root, archive pages
        left out (nothing for an empty query or a failed search)."""
        if not query.strip():
            return
        r = self.call("document_search", {"query": query, "under": self.root, "limit": 20})
        if r.is_error:
            return
        for found in r.content.split("\n")[1:]:
            m = re.match(r"- (\S+) \(v\d+\)", found)
            if m is not None and not m.group(1).startswith(f"{self.root}/archive"):
                yield m.group(1)

    def _current_lines(self, query: str) -> Iterator[str]:
        """The current lines of earlier sessions on the pages a search for `query` finds
        (archive pages left out; not the lines under Past, Sessions, Recent sessions or
        Related, nor a line already past or of this session)."""
        for path in self._found_pages(query):
            page = self.read(path)
            if page is None:
                continue
            for section, lines in Page.parse(page.body, "").sections.items():
                if section in ("Past", "Sessions", "Recent sessions", "Related"):
                    continue
                for ln in lines:
                    if self.session_path not in ln and " — past: " not in ln:
                        yield ln

    def holds_word(self, word: str) -> bool:
        """Whether a current line of an earlier session holds `word` as a word of its own
        (a booking code, a name no page has): what a recap may name from memory."""
        if len(word) < 3 or not re.search(r"\w", word):
            return False
        if word not in self._held_words:
            self._held_words[word] = any(
                _names(word, _said(ln)) for ln in self._current_lines(word)
            )
        return self._held_words[word]

    def _status_elsewhere(self, s: Sentence) -> None:
        """A record whose state `s` says changed ("Moorcroft paid the £850" of a pasted
        invoice with "status: overdue") has its status edited in place, the old line under
        Past; only when exactly one current line fits."""
        text = s.raw or s.statement or s.text
        query = " ".join(sorted(capitalised_names(text)))
        if not query:
            return
        fits: dict[str, tuple[str, str]] = {}
        for ln in self._current_lines(query):
            if change := status_changed(text, _said(ln)):
                fits[_said(ln)] = (change[1], change[0])
        if len(fits) == 1:
            said, edit = fits.popitem()
            self.superseded.setdefault(said, s)
            if self.superseded[said] is s:
                self.value_edits[said] = edit

    def restated(self, line: str, new: Sentence, *, dated: bool = True) -> str:
        """What stands in place of `line`, which `new` superseded: the line with its value
        edited when `new` named the value it replaces ("the van now comes at 7:30 instead of
        8am": the line that said 8am says 7:30, whatever else it says), else `new`'s line.
        `dated`: the line's day becomes this session's (not on `active`, where it is the day
        of what is coming)."""
        if (edited := self.line_edits.get(_said(line))) is not None:
            head = line.split(": ", 1)[0] if ": " in line else f"- {line[2:12]}"
            if dated:
                head = f"- {self.day.isoformat()}"
            elif edited[1] == "date" and (day := re.search(r"\d{4}-\d{2}-\d{2}", edited[0])):
                head = f"- {day.group(0)}{head[12:]}"  # the day of what is coming moved
            return f"{head}: {edited[0]} ({self.cite})"
        edit = self.value_edits.get(_said(line))
        if edit is None:
            return self.line(new)
        old, value = edit
        span = value_span(line, old)
        if span is None:
            return self.line(new)
        if re.fullmatch(r"\d+ [A-Za-z]+", old):  # a count with what it counts: the number
            value = value.split(" ")[0]
        fixed = line[: span[0]] + value + line[span[1] :]
        fixed = fixed.rsplit(" ([[", 1)[0] + f" ({self.cite})"
        if dated:
            fixed = re.sub(r"^- \d{4}-\d{2}-\d{2}:", f"- {self.day.isoformat()}:", fixed)
        return fixed

    def retire_superseded(self) -> None:
        """What this run replaced on one page (an upcoming date said again with another
        value) goes under "Past" on every other current page that still states it, and the
        statement that replaced it takes its place there, so no page keeps the old value as
        current and none loses the fact."""
        for said, new in sorted(self.superseded.items(), key=lambda kv: kv[0]):
            r = self.call("document_search", {"query": said[:200], "under": self.root, "limit": 20})
            if r.is_error:
                continue
            paths = [
                m.group(1)
                for line in r.content.split("\n")[1:]
                if (m := re.match(r"- (\S+) \(v\d+\)", line))
                and not m.group(1).startswith(f"{self.root}/archive")
                and m.group(1) != f"{self.root}/active"
            ]
            for path in dict.fromkeys(paths):
                page = self.read(path)
                if page is None or said not in page.body:
                    continue

                def change(page: Page, said=said, new=new) -> None:
                    for section, lines in list(page.sections.items()):
                        if section == "Past":
                            continue
                        for line in [ln for ln in lines if _said(ln) == said]:
                            if self.session_path in line or " — past: " in line:
                                continue
                            now = self.restated(line, new)
                            if said in self.unlisted:
                                lines.remove(line)  # no longer listed: nothing in its place
                                page.add(
                                    "Past",
                                    f"{line} — past: no longer listed on "
                                    f"{self.day.isoformat()} ({self.cite})",
                                    key=line,
                                )
                                continue
                            if any(now in held for held in page.sections.values()):
                                lines.remove(line)  # the page states the new value already
                            else:
                                lines[lines.index(line)] = now
                            page.add(
                                "Past",
                                f"{line} — past: replaced on {self.day.isoformat()} ({self.cite})",
                                key=line,
                            )
                    if "Sessions" in page.sections:
                        page.add(
                            "Sessions",
                            f"- {self.day.isoformat()}: {self.cite}",
                            key=self.session_path,
                        )
                    _order_sections(page)

                self.update(path, path.rsplit("/", 1)[1], change)

    def write_lists(self) -> None:
        titles = {"corrections": "Corrections", "decisions": "Decisions", "notes": "Notes"}
        for name, items in self.filing.lists().items():

            def change(page: Page, name=name, items=items) -> None:
                if not page.intro and name == "corrections":
                    page.intro = [CORRECTIONS_INTRO]
                for section, s in items:
                    self.add_fact(page, section, s)

            self.update(f"{self.root}/{name}", titles[name], change)

    def forget(
        self,
        what: str,
        persons: tuple[str, ...] = (),
        of_whom: bool = False,
        *,
        sessions: dict[str, str] | None = None,
        sentences: Iterable[tuple[str, str]] = (),
        dry: bool = False,
    ) -> int:
        """Forget `what` in current memory: the page of the person or thing it names is
        deleted (a tombstone: its history stays and reverting this run restores it), and
        every line that says it or links to that page is removed from the pages that hold
        one. With `persons` ("the stuff about Ravi and the stairlift money"), only the
        lines that say the thing as it concerns them go (a person's page counts as naming
        them), and no page is deleted for it: Ravi's other lines stay. With `sessions`
        (session id -> its page), only the lines said in those sessions go, and no page is
        deleted for its name. `sentences` (session id, sentence) refer to the thing
        without saying it (`referred.py`): the lines of that session written of them go
        too. The sessions the lines found cite are kept in `cited`. Each change is a
        document write of this run, so `doctree revert --run` puts it back. `dry`: nothing
        is written. The lines removed (or that would be) are counted."""
        self.cited: set[str] = set()
        self.apart: tuple[str, str] | None = None
        self.pair: tuple[str, tuple[str, str]] | None = None
        self.rival: tuple[str, tuple[str, str]] | None = None
        # a thing of a person's named by a short word ("Priya's dad"): that word, as it
        # concerns them
        words = lang.thing_words(what) if persons else lang.forget_words(what)
        # "forget my old number": only the values memory holds as past (Past, "— past:")
        old = lang.OLD_VALUE.search(what) is not None
        datum = lang.own_datum(what)
        if old:
            words -= content_words(" ".join(lang.OLD_VALUE.findall(what)))
        if not words:
            return 0
        # the names it says must all be in a line ("the Harrogate visit" is not every visit)
        named = {w.lower() for w in re.findall(r"\b[A-Z][\w'’-]*", what)} & words
        gone = [] if persons or sessions is not None else self._pages_named(what)
        if sessions and not persons:
            # "forget what I said yesterday about Lina": her page goes when all it holds was
            # said in those sessions (every session it links is one of them)
            gone = [p for p in self._pages_named(what) if self._only_from(p, sessions)]
        links = tuple(f"[[{p}]]" for p in gone) + tuple(f"[[{p}|" for p in gone)
        # "forget what I said yesterday about Lina", her page kept for what else it holds (a
        # line written by hand, another day's): the lines that day said there go
        own_pages = set()
        if sessions and not persons:
            own_pages = {p for p in self._pages_named(what) if p not in gone}
        sentences = tuple(sentences)
        pages_of = {page: sid for sid, page in (sessions or {}).items()}
        # a person's lines that named them by a role alone ("The wife (Dana) passed!"): the
        # other lines written of those sentences (a session's opening quote) go with them
        by_role = [x for p in gone if "/people/" in p for x in self._said_by_role(p)]
        sentences += tuple((sid, text) for sid, _, text in by_role)
        pages_of |= {page: sid for sid, page, _ in by_role}
        for path in gone if not dry else ():
            r = self.call("document_delete", {"path": path})
            if not r.is_error:
                self.absent.add(path)
                self.summary.changed.append(path)
        r = self.call(
            "document_search",
            {"query": " ".join(sorted(words)), "under": self.root, "limit": 50},
        )
        paths = [f"{self.root}/{n}" for n in ("corrections", "decisions", "notes", "active")]
        paths += [f"{self.root}/patterns", self.session_path]
        paths += sorted({p.rsplit("/", 1)[0] for p in gone})  # the listings that link them
        known = self.filing.directory.known_person_names()
        paths += [f"{self.root}/people/{known[p]}" for p in persons if p in known]
        if not r.is_error:
            paths += [m.group(1) for m in re.finditer(r"^- (\S+) \(v\d+\)", r.content, re.M)]
        for word in lang.datum_said_by(datum[0]) if datum is not None else ():
            # the pages that say it without its word ("I live at …", "my mobile is …")
            r = self.call("document_search", {"query": word, "under": self.root, "limit": 50})
            if not r.is_error:
                paths += [m.group(1) for m in re.finditer(r"^- (\S+) \(v\d+\)", r.content, re.M)]
        if sessions is not None:
            paths += self._pages_of(sessions)
        paths += [page for _, page, _ in by_role]
        # what the request names beyond the people it names ("the sleepwalking" of "Ines and the
        # sleepwalking"): a line that says it in a clause of its own loses that clause only
        thing = words - named - {w for p in persons for w in content_words(p)}
        if any("/people/" in p for p in gone):
            thing = set()  # a person forgotten whole: every line of them goes
        # one word asked ("the van"): a line that says it only as part of another thing's
        # name ("the van depot") is that other thing when memory also says the word of its
        # own (said only so, the request means it)
        compound_apart = False
        # "forget the car park": a line must say the two words together (a short word the
        # request names the thing by is not among its words)
        pair = None
        if len(words) == 1 and not named and not persons and datum is None:
            one = next(iter(words))
            if (before := lang.named_with(what, one)) is not None and before not in words:
                pair = (before, one)
        # "forget the beer garden": "our garden", "the herb garden" are other gardens
        rival = (
            lang.compound_named(what, words) if not named and not persons and not datum else None
        )
        if len(words) == 1 and not named and not persons and pair is None and datum is None:
            one = next(iter(words))
            for path in dict.fromkeys(paths):
                page = self.read(path) if path not in gone else None
                if page is not None and any(
                    ln.startswith("- ")
                    and not self._session_line(ln)
                    and mentions(said_forms(ln), words)
                    and not lang.only_compounded(ln, one)
                    and not lang.only_headed(ln, one)
                    for ln in page.body.split("\n")
                ):
                    compound_apart = True
                    break
        # what `_referred` reads the earlier conversations with: the same other thing apart
        self.apart = (what, next(iter(words))) if compound_apart else None
        self.pair = (what, pair) if pair is not None else None
        self.rival = (what, rival) if rival is not None else None
        removed = 0
        emptied: list[str] = []
        said_on: set[str] = set()
        for path in dict.fromkeys(paths):
            if path in gone:
                continue
            current = self.read(path)
            if current is None:
                continue
            title = Page.parse(current.body, path).title
            edits: dict[str, str | None] = {}
            past = False
            for ln in current.body.split("\n"):
                if ln.startswith("#"):
                    past = ln.lstrip("#").strip().lower().startswith("past")
                if not ln.startswith("- "):
                    continue
                if (
                    old
                    and not past
                    and " — past: " not in ln
                    and not lang.OLD_VALUE.search(ln)
                    and not self._session_line(ln)
                ):
                    continue  # the value that holds now stays (a session's quote goes)
                if (
                    sessions is not None
                    and not self._said_in(ln, path, sessions)
                    and not (links and any(x in ln for x in links))
                ):
                    continue  # said in another conversation than the one named
                told = said_forms(ln)  # "lent" says "the loan", "Kim told me …" her news
                if persons and of_whom:  # "forget that she sleepwalks": hers, not another's
                    said = mentions(told, words) and names_any(f"{ln} {title}", persons)
                elif persons:  # the other forms only beside the person ("Omar lent me …")
                    said = lang.concerns(f"{ln} {title}", words, persons) or (
                        names_any(f"{ln} {title}", persons)
                        and (
                            lang.concerns(f"{told} {title}", words, persons)
                            or says_sum(ln, words)  # "Omar and the money": "owes me £300"
                        )
                    )
                else:
                    said = mentions(told, words)
                    if datum is not None:  # "my address": the user's, not the venue's
                        # ("I live at …", "my mobile is …" say it without the word)
                        said = lang.own_datum_said(ln, datum, "/people/" in path)
                    if pair is not None:
                        said = said and lang.says_with(ln, *pair)  # "the car park" only
                    if rival is not None:
                        said = said and not lang.another_than(ln, *rival)
                    if compound_apart:
                        # "forget the van": not "the van depot", another thing
                        one = next(iter(words))
                        said = said and not lang.only_compounded(ln, one)
                        said = said and not lang.only_headed(ln, one)  # "the car park"
                    if (head := self.filing.analysis.forget_head.get(what)) is not None:
                        said = said and mentions(told, {head})  # the thing named whole
                said = said and named <= lang.named_words(f"{ln} {title}" if of_whom else ln)
                if path in own_pages and not self._session_line(ln):
                    said = True  # on the page of the one named: every line there is of them
                cite = _cited(ln) or pages_of.get(path)  # a session page's own lines
                if said and cite is not None:
                    self.cited.add(cite)
                said = said or any(sid == cite and _line_of(ln, x) for sid, x in sentences)
                if not said and not (links and any(x in ln for x in links)):
                    continue
                if (where := re.search(r"\[\[([^\]|]+)\|", ln)) is not None:
                    said_on.add(where.group(1))  # the session page of the line removed
                if self._session_line(ln):  # a recent session keeps its link, not its words
                    edits[ln] = ln.split(" `", 1)[0] if " `" in ln else None
                elif thing and not (links and any(x in ln for x in links)):
                    edits[ln] = forget_clause(ln, thing)
                elif what in self.filing.analysis.forget_name_only and not (
                    links and any(x in ln for x in links)
                ):
                    # "I don't want his name kept": the rest of a line stays when it stands
                    # without the name ("…about a boy in her class, Ansel Pike.")
                    edits[ln] = lang.without_name(ln, what)
                else:
                    edits[ln] = None
            edits = {k: v for k, v in edits.items() if v != k}
            if not edits:
                continue
            if dry:
                removed += len(edits)
                continue

            # a role removed from a person's page leaves its intro ("Lina Roe: new physio.")
            roles = [
                m.group(1)
                for ln, v in edits.items()
                if v is None and (m := re.match(r"- Role: (.+?)(?: \(\[\[|$)", ln))
            ]

            def change(page: Page, edits=edits, roles=roles, path=path) -> None:
                for section in [page.intro, *page.sections.values()]:
                    section[:] = [
                        edits.get(ln, ln) for ln in section if ln not in edits or edits[ln]
                    ]
                page.sections = {k: v for k, v in page.sections.items() if v}
                if "/people/" in path and any(r in x for r in roles for x in page.intro):
                    page.intro = [ENTITY_INTRO["people"].format(agent=self.t.owner)]

            self.update(path, Page.parse(current.body, path).title, change)
            removed += len(edits)
            if self._delete_if_emptied(path):
                emptied.append(path)
        for path in emptied:  # the listing that linked an emptied page links it no more
            self._unlist(path)
        if not dry and (emptied or gone):
            # the pages of the sessions that said the lines removed link them no more
            for session in sorted(said_on - set(emptied) - set(gone)):
                self._unlink_from(session, [*emptied, *gone])
        if not dry:
            self.summary.notes.append(
                f"forgot {removed} line(s) and {len(gone)} page(s) from current memory on "
                "request (earlier versions keep them until `doctree forget` erases them)"
            )
        return removed

    def forget_earlier(self, request: EarlierForget) -> None:
        """Forget what an earlier conversation said ("scrap what I told you last Monday about
        the boat"): the lines of its sessions that say the thing (every line of them, when
        the request named none), nothing of any other session. When no session or more than
        one fits "last time", or the sessions said nothing of a thing asked, nothing is
        removed and the session page says so."""
        sessions = self._sessions_of(request.earlier)
        why = None
        found = {t: self._referred(t, request.persons, sessions) for t in request.things}
        if not sessions and self.day in request.earlier.days and self.filing.analysis.forgotten:
            return  # "forget everything I said today" said in today's one conversation: done here
        if not sessions:
            why = f"no earlier conversation found for '{request.earlier.phrase}'"
        elif request.things:
            said = {
                t: tuple((sid, x) for sid, r in found[t].items() for x in r.said)
                for t in request.things
            }
            if any(
                not self.forget(t, request.persons, sessions=sessions, sentences=said[t], dry=True)
                for t in request.things
            ):
                why = f"the conversation of '{request.earlier.phrase}' said nothing of it"
            else:
                for t in request.things:
                    self.forget(t, request.persons, sessions=sessions, sentences=said[t])
                # what the conversation said of it leaves its record too
                for by_session in found.values():
                    for sid, r in by_session.items():
                        taken = self.summary.withheld_earlier.setdefault(sid, [])
                        taken += [x for x in r.at if x not in taken]
        else:
            removed = self._forget_said_in(sessions)
            # everything that conversation said leaves its record too
            whole = self._all_said(sessions)
            for sid, lines in whole.items():
                into = self.summary.withheld_earlier.setdefault(sid, [])
                have = set(into)
                into += [x for x in dict.fromkeys(lines) if x not in have]
            if not removed and not whole:
                why = f"nothing said in the conversation of '{request.earlier.phrase}' is kept"
        line = (
            ("Not acted on", f"- {quote(request.request)} — {why}; nothing was removed")
            if why
            else (
                "Forgotten on request",
                "- what an earlier conversation said was removed from current memory, "
                "as the user asked",
            )
        )
        if why:
            self.summary.notes.append(f"a request to forget was not applied: {why}")
        self.update(
            self.session_path,
            f"Session {self.t.session_id}",
            lambda page: page.add(line[0], line[1], key=line[1]),
        )

    def _all_said(self, sessions: dict[str, str]) -> dict[str, list[tuple[str, str]]]:
        """Every sentence the user and the assistant said in each of `sessions`, with the time
        of its message, read from its transcript when the caller gave a way to read it:
        what a forget of everything a conversation said takes out of its record."""
        out: dict[str, list[tuple[str, str]]] = {}
        if self.earlier is None:
            return out
        for sid in sessions:
            transcript = self.earlier(sid)
            if transcript is None:
                continue
            said = [
                (turn.time, raw)
                for turn in segment(transcript).turns
                if turn.kind in ("user", "assistant")
                for raw in turn.sentences
            ]
            if said:
                out[sid] = said
        return out

    def _referred(
        self, thing: str, persons: tuple[str, ...], sessions: dict[str, str]
    ) -> dict[str, Referred]:
        """What each of `sessions` said of `thing` (`referred.py`), read from its transcript
        when the caller gave a way to read it; nothing otherwise."""
        if self.earlier is None:
            return {}
        apart: tuple[str, str] | None = getattr(self, "apart", None)
        one = apart[1] if apart is not None and apart[0] == thing and not persons else None
        pair: tuple[str, tuple[str, str]] | None = getattr(self, "pair", None)
        two = pair[1] if pair is not None and pair[0] == thing and not persons else None
        rival: tuple[str, tuple[str, str]] | None = getattr(self, "rival", None)
        other = rival[1] if rival is not None and rival[0] == thing and not persons else None
        says = ThingTest(content_words(thing), persons, apart=one, pair=two, rival=other)
        out = {}
        for sid in sessions:
            transcript = self.earlier(sid)
            if transcript is None:
                continue
            written = {m.time: m.content for m in transcript.messages if isinstance(m.content, str)}
            r = referred(segment(transcript).turns, says, written)
            if r.said or r.restating:
                out[sid] = r
        return out

    def _dry_forget(
        self,
        what: str,
        persons: tuple[str, ...],
        of_whom: bool,
        also: frozenset[tuple[str, str]],
    ) -> int:
        """The lines `forget` would remove, before anything is written: the count of
        `_going_on`'s dry forget of the same thing when this one asks the same (no sentences
        besides, not only of whom), else a dry forget of its own."""
        if not of_whom and not also and (what, persons) in self._dry:
            return self._dry[(what, persons)]
        return self.forget(what, persons, of_whom, sentences=also, dry=True)

    def _going_on(self, thing: str, persons: tuple[str, ...]) -> frozenset[tuple[str, str]]:
        """The sentences of the earlier sessions whose lines say `thing` that refer to it
        without saying it (`referred.py`: the rest of its note, what goes on from it, what
        the assistant's restatement of it named), each with its session: what a forget
        that names no conversation takes besides the lines that say it. Nothing when the
        earlier sessions cannot be read."""
        if self.earlier is None:
            return frozenset()
        self._dry[(thing, persons)] = self.forget(thing, persons, dry=True)
        cited = {sid: "" for sid in sorted(self.cited) if sid != self.t.session_id}
        if not cited:
            # no line says it in the request's words (a recap's reading of it stands in
            # for what the user said): the conversations of the last two weeks are read
            cited = {sid: "" for sid in self._recent_sessions(2)}
        found = self._referred(thing, persons, cited)
        # the user's sentences, and the assistant's restatements of them: a line read from
        # a recap says the thing in the assistant's words
        return frozenset((sid, x) for sid, r in found.items() for x in [*r.said, *r.restating])

    def _recent_sessions(self, weeks: int) -> list[str]:
        """The sessions listed in the archive's latest `weeks` weeks up to this one, this
        one left out."""
        return [
            sid
            for week in self._weeks_listed()[:weeks]
            for _, sid, _ in self._week_sessions(week)
            if sid != self.t.session_id
        ]

    def _weeks_listed(self) -> list[str]:
        """The archive's weeks up to this one, the latest first."""
        archive = self.read(f"{self.root}/archive")
        children = archive.children if archive is not None else []
        listed = sorted((p.rsplit("/", 1)[1] for p, _ in children), reverse=True)
        return [w for w in listed if w <= self.week]

    def _week_sessions(self, week: str) -> list[tuple[str, str, str]]:
        """The sessions a week's archive page lists: (day, session id, session page)."""
        page = self.read(f"{self.root}/archive/{week}")
        if page is None:
            return []
        return [
            (day, sid, path)
            for day, path, sid in re.findall(
                r"^- (\d{4}-\d\d-\d\d): \[\[([^|\]]+)\|([^\]]+)\]\]", page.body, re.M
            )
        ]

    def _sessions_of(self, earlier: Earlier) -> dict[str, str]:
        """The sessions (id -> page) of the days an earlier conversation is named by, this
        one left out; for "last time", the one session before this one (none when two were
        had on its day: which came last is not known)."""
        found: list[tuple[str, str, str]] = []  # (day, id, page)
        days = {d.isoformat() for d in earlier.days}
        weeks = sorted({iso_week(d) for d in earlier.days}, reverse=True)
        if earlier.last:
            weeks = self._weeks_listed()[:8]
        for week in weeks:
            for day, sid, path in self._week_sessions(week):
                if sid != self.t.session_id and (day in days or earlier.last):
                    found.append((day, sid, path))
            if earlier.last and any(day <= self.day.isoformat() for day, _, _ in found):
                break
        if earlier.last:
            before = [f for f in found if f[0] <= self.day.isoformat()]
            latest = max((f[0] for f in before), default=None)
            found = [f for f in before if f[0] == latest]
            if len(found) != 1:
                return {}
        return {sid: path for _, sid, path in found}

    def _pages_of(self, sessions: dict[str, str]) -> list[str]:
        """The session pages, their week pages (which keep the dates that passed) and every
        page they link: where their lines can be."""
        out = list(sessions.values())
        out += [p.rsplit("/", 1)[0] for p in sessions.values()]
        for path in sessions.values():
            if (page := self.read(path)) is not None:
                out += re.findall(r"^- \[\[(~/[^\]|]+)\]\]$", page.body, re.M)
        return out

    def _said_in(self, line: str, path: str, sessions: dict[str, str]) -> bool:
        """Whether a page line was said in one of `sessions`: the first session it cites (a
        line under Past cites the one that replaced it after its own), or any line of their
        own pages."""
        if path in sessions.values():
            return True
        cited = re.search(r"\[\[[^\]|]+\|([^\]]+)\]\]", line)
        return cited is not None and cited.group(1) in sessions

    def _forget_said_in(self, sessions: dict[str, str]) -> int:
        """Remove every line said in `sessions` from current memory (their pages keep their
        records: when, how many messages; the pages they name keep the link to them). The
        lines removed are counted."""
        paths = [f"{self.root}/{n}" for n in ("corrections", "decisions", "notes", "active")]
        paths += self._pages_of(sessions)
        removed = 0
        emptied: list[str] = []
        for path in dict.fromkeys(paths):
            current = self.read(path)
            if current is None:
                continue
            page = Page.parse(current.body, path)
            own = path in sessions.values()
            drop = {
                ln
                for name, lines in page.sections.items()
                if (name in ("Opening", "Key lines") if own else name not in _LINKS_ONLY)
                for ln in lines
                if ln.startswith("- ") and (own or self._said_in(ln, path, sessions))
                and not self._session_line(ln)
            }  # fmt: skip
            strip = {
                ln: ln.split(" `", 1)[0]
                for lines in page.sections.values()
                for ln in lines
                if self._session_line(ln) and " `" in ln and self._said_in(ln, path, sessions)
            }
            if not drop and not strip:
                continue

            def change(p: Page, drop=drop, strip=strip) -> None:
                for section in p.sections.values():
                    section[:] = [strip.get(ln, ln) for ln in section if ln not in drop]
                p.sections = {k: v for k, v in p.sections.items() if v}

            self.update(path, page.title, change)
            removed += len(drop) + len(strip)
            if self._delete_if_emptied(path):
                emptied.append(path)
        for path in emptied:
            self._unlist(path)
        if removed:
            self.summary.notes.append(
                f"forgot {removed} line(s) of an earlier conversation from current memory on "
                "request (earlier versions keep them until `doctree forget` erases them)"
            )
        return removed

    def _delete_if_emptied(self, path: str) -> bool:
        """Delete the entity page at `path` (a person, project, thing) when a forget has left
        nothing said of it, only its links: the page goes, its history keeps it. True when
        it was deleted."""
        if path.split("/")[-2:-1] == [] or path.split("/")[-2] not in ENTITY_KINDS:
            return False
        left = self.read(path)
        kept = Page.parse(left.body, path).sections if left else {}
        if left is None or any(v for k, v in kept.items() if k not in _LINKS_ONLY):
            return False
        r = self.call("document_delete", {"path": path})
        if r.is_error:
            return False
        self.absent.add(path)
        self.summary.changed.append(path)
        return True

    def _unlink_from(self, path: str, deleted: list[str]) -> None:
        """A page's lines that only link a page deleted ("- [[~/memory/people/ines]]") go;
        a line saying more stays."""
        if (page := self.read(path)) is None:
            return
        alone = {f"- [[{p}]]" for p in deleted}
        if not any(ln.strip() in alone for ln in page.body.split("\n")):
            return

        def unlink(page: Page) -> None:
            for section in [page.intro, *page.sections.values()]:
                section[:] = [ln for ln in section if ln.strip() not in alone]
            page.sections = {k: v for k, v in page.sections.items() if v}

        self.update(path, Page.parse(page.body, path).title, unlink)

    def _unlist(self, path: str) -> None:
        """The listing that linked a page deleted links it no more."""
        marks = (f"[[{path}]]", f"[[{path}|")
        parent = path.rsplit("/", 1)[0]
        if (listing := self.read(parent)) is None:
            return

        def unlink(page: Page) -> None:
            for section in [page.intro, *page.sections.values()]:
                section[:] = [ln for ln in section if not any(m in ln for m in marks)]
            page.sections = {k: v for k, v in page.sections.items() if v}

        self.update(parent, Page.parse(listing.body, parent).title, unlink)

    def _said_together(self, targets: list[str]) -> set[str]:
        """The people of one request ("what I told you about Noor and Lev") not to forget
        whole: when everything memory says of one of them (Lev) is said with another (Noor),
        the request is about the two together, so the lines of Lev go and Noor's other lines
        (her visit, her job) stay. When each has lines of their own, each is forgotten
        whole, as asked."""
        people = [t for t in targets if re.fullmatch(lang.NAME, t) and t not in lang.NOT_NAMES]
        if len(people) < 2:
            return set()
        said = {t: self._fact_lines_of(t) for t in people}
        kept: set[str] = set()
        for y in people:
            others = [x for x in people if x != y]
            if not said[y] or not all(any(_names(x, ln) for x in others) for ln in said[y]):
                continue
            # y is said of only with the others: each other keeps the lines without y
            kept |= {x for x in others if any(not _names(y, ln) for ln in said[x])}
        return kept

    def _fact_lines_of(self, name: str) -> list[str]:
        """The fact lines of current pages (session pages left out) that say something of the
        person `name`: the lines that name them, and those of their own page (each given
        with the page's title, which names them)."""
        r = self.call("document_search", {"query": name, "under": self.root, "limit": 50})
        paths = [] if r.is_error else re.findall(r"^- (\S+) \(v\d+\)", r.content, re.M)
        own = self.filing.directory.known_person_names().get(name)
        if own:
            paths.append(f"{self.root}/people/{own}")
        out = []
        for path in dict.fromkeys(paths):
            if "/archive/" in path or (current := self.read(path)) is None:
                continue
            page = Page.parse(current.body, path)
            on_page = own is not None and path == f"{self.root}/people/{own}"
            for section, lines in page.sections.items():
                if section in _LINKS_ONLY:
                    continue
                for ln in lines:
                    if not re.match(r"- \d{4}-\d\d-\d\d: ", ln) or self._session_line(ln):
                        continue  # a label ("Relation: …") says who, not what was said
                    if on_page or _names(name, ln):
                        out.append(f"{ln} {page.title}")
        return out

    def _said_by_role(self, path: str) -> list[tuple[str, str, str]]:
        """(session id, its page, sentence) of the lines of the person's page at `path` that
        named them by a role alone (`referents.said_by_role`)."""
        page = self.read(path)
        return said_by_role(page.body, Page.parse(page.body, path).title) if page else []

    def _only_from(self, path: str, sessions: dict[str, str]) -> bool:
        """Whether the page at `path` holds only what `sessions` said: it links a session's
        page, every session page it links is one of theirs, and every line it says (not its
        lists of sessions and related pages) links one: a line written by hand, linking no
        session, is no session's to take."""
        page = self.read(path)
        if page is None:
            return False
        archive = f"{self.root}/archive/"

        def sessions_of(text: str) -> set[str]:
            return {
                m.group(1)
                for m in re.finditer(r"\[\[([^\]|]+)(?:\|[^\]]*)?\]\]", text)
                if m.group(1).startswith(archive) and m.group(1).count("/") > archive.count("/")
            }

        linked = sessions_of(page.body)
        if not linked or not linked <= set(sessions.values()):
            return False
        parsed = Page.parse(page.body, path)
        return all(
            sessions_of(ln)
            for name, section in parsed.sections.items()
            if name not in _LISTS
            for ln in section
            if ln.startswith("- ")
        )

    def _pages_named(self, what: str) -> list[str]:
        """The pages of the people, projects and things `what` names: "Jonas" is the page
        of Jonas Berg when he is the only Jonas known."""
        d = self.filing.directory
        out = []
        people = d.known_person_names()
        if what in people:
            out.append(f"{self.root}/people/{people[what]}")
        slug = slugify(lang.ascii_slug_text(what))
        if slug in d.projects:
            out.append(f"{self.root}/projects/{slug}")
        for kind in OTHER_KINDS:
            if slug in d.others[kind]:
                out.append(f"{self.root}/{kind}/{slug}")
        if slug in self.filing.topic_titles or slug in self.filing.listed_topics:
            out.append(f"{self.root}/topics/{slug}")
        # A name forgotten goes with the things named after it: "the Tessel interview" is
        # the page of Tessel Labs too (the name as a whole word of the page's title).
        names = [n for n in re.findall(lang.NAME_WORD, what) if n not in lang.NOT_NAMES]
        titled = {"projects": d.projects, **{k: d.others[k] for k in OTHER_KINDS}}
        titled["topics"] = {**self.filing.listed_topics, **self.filing.topic_titles}
        for kind, titles in titled.items():
            for page_slug, title in sorted(titles.items()):
                if any(re.search(rf"(?<!\w){re.escape(n)}(?!\w)", title) for n in names):
                    out.append(f"{self.root}/{kind}/{page_slug}")
        return [p for p in dict.fromkeys(out) if p != self.root]

    def write_active(self) -> None:
        # (what replaced a line whole: a line edited in place stays, edited)
        replacing = {
            id(by)
            for said, by in self.superseded.items()
            if said not in self.line_edits and said not in self.value_edits
        }
        upcoming = [
            s
            for s in self.filing.facts
            if s.when is not None
            and (
                "date" in s.kinds
                # an accepted finding that replaced a dated line: its day is the one coming
                or ({"finding", "accepted"} <= set(s.kinds) and id(s) in replacing)
            )
        ]
        decisions = [s for s in self.filing.facts if "decision" in s.kinds]
        path = f"{self.root}/active"
        past: dict[str, list[str]] = {}
        opening = mask(self.filing.analysis.opening)[0] if self.filing.analysis.opening else None
        session_line = f"- {self.day.isoformat()}: {self.cite}" + (
            f" {quote(opening, 120)}" if opening else ""
        )

        def change(page: Page) -> None:
            if not page.intro:
                page.intro = [
                    "What is current: upcoming dates, recent decisions and recent sessions. "
                    "Dates that have passed move to the archive week."
                ]
            lines = page.sections.setdefault("Upcoming", [])
            for s in upcoming:
                if s.replaces:
                    continue
                fits = [  # said again with another value, days later: the earlier one is past
                    line
                    for line in lines
                    if self.session_path not in line
                    and (day := re.match(r"- (\d{4}-\d{2}-\d{2})\b", line))
                    and restates_line(s, _said(line), date.fromisoformat(day.group(1)))
                ]
                if len(fits) == 1:
                    self.superseded[_said(fits[0])] = s
            for s in upcoming:
                assert s.when is not None  # kept above only when it has a date
                where = self._where(s)
                page.add(
                    "Upcoming",
                    f"- {s.when.isoformat()}{where}: {neutral(s.statement)} ({self.cite})",
                    key=neutral(s.statement),
                )
            keep = []
            for line in lines:
                if line.startswith("- past"):
                    continue  # superseded: its page and the corrections log keep it
                if _said(line) in self.superseded and self.session_path not in line:
                    page.add("Past", f"{line} — past: replaced on {self.day.isoformat()}")
                    edited = self.line_edits.get(_said(line))
                    moved = edited is not None and edited[1] == "date"
                    if _said(line) in self.value_edits or (
                        # a value of the line edited in place; a day moved is on the line
                        # of what replaced it already
                        edited is not None
                        and not (moved and self.superseded[_said(line)] in upcoming)
                    ):  # the rest of the line still holds
                        keep.append(self.restated(line, self.superseded[_said(line)], dated=False))
                    continue  # said again with another value in this session
                m = re.match(r"- (\d{4}-\d{2}-\d{2})", line)
                if m and date.fromisoformat(m.group(1)) < self.day:
                    past.setdefault(iso_week(date.fromisoformat(m.group(1))), []).append(line)
                else:
                    keep.append(line)
            page.sections["Upcoming"] = sorted(keep, key=lambda x: x[:12])
            for s in upcoming:  # a date said again differently: the earlier one is past
                for old in s.replaces:
                    page.add(
                        "Past",
                        f"{self.line(old)} — past: corrected on {s.time[:10]}",
                        key=neutral(old.statement or old.text),
                    )
            if "Past" in page.sections:
                page.sections["Past"] = page.sections["Past"][-MAX_RECENT_DECISIONS:]
            for s in decisions:
                page.add(
                    "Recent decisions",
                    self.line(s)[:-1] + f"{self._where(s)})",
                    key=neutral(s.statement),
                )
            recent = page.sections.get("Recent decisions", [])
            page.sections["Recent decisions"] = recent[-MAX_RECENT_DECISIONS:]
            page.add("Recent sessions", session_line, key=self.session_path)
            page.sections["Recent sessions"] = [
                _without_stale(line, self.superseded) for line in page.sections["Recent sessions"]
            ]
            sessions = sorted(page.sections["Recent sessions"], key=lambda x: x[:12])
            page.sections["Recent sessions"] = sessions[-MAX_RECENT_SESSIONS:]
            if "Past" in page.sections:  # what is current first
                page.sections["Past"] = page.sections.pop("Past")

        self.update(path, "Active", change)
        for week, lines in sorted(past.items()):
            self.update(
                f"{self.root}/archive/{week}",
                f"Week {week}",
                lambda page, lines=lines: [page.add("Dates that passed", ln) for ln in lines],
            )

    def _where(self, s: Sentence) -> str:
        targets = s.projects or (
            [self.filing.session_project] if self.filing.session_project else []
        )
        return "".join(f" [[{self.root}/projects/{p}]]" for p in targets)

    def apply_corrections(self, corrections: list[Sentence]) -> None:
        for s in corrections:
            if s.correction is None:
                continue
            statement, old, new = s.correction
            subjects = {self.filing.directory.person(n) for n in s.people} | set(s.projects)
            if self.filing.session_project:
                subjects.add(self.filing.session_project)
            edited = self._correct(old, new, statement, subjects, s)
            active = f"{self.root}/active"
            swapped = value_kind(old) in ("date", "number") and active in edited
            if s.when is not None and s.when > self.day and not swapped:
                self.update(  # the corrected date is the one coming up
                    active,
                    "Active",
                    lambda page, s=s: page.add(
                        "Upcoming",
                        f"- {s.when.isoformat()}{self._where(s)}: {neutral(s.statement)} "
                        f"({self.cite})",
                        key=neutral(s.statement),
                    ),
                )
            where = ", ".join(f"[[{p}]]" for p in edited) if edited else None
            record = (
                f"- {s.time[:10]}: {neutral(s.statement)} — “{old}” → “{new}”; "
                + (f"corrected in {where}" if where else f"no page held “{old}”; recorded here")
                + f" ({self.cite})"
            )

            def change(page: Page, record=record, s=s) -> None:
                if not page.intro:
                    page.intro = [CORRECTIONS_INTRO]
                page.add("Corrections", record, key=neutral(s.statement))

            self.update(f"{self.root}/corrections", "Corrections", change)
            for name in s.people:
                slug = self.filing.directory.person(name)
                path = f"{self.root}/people/{slug}"
                if path not in edited:
                    self.touched["people"].add(slug)
                    self.update(
                        path,
                        self.filing.directory.people.get(slug, slug),
                        lambda page, s=s: page.add("Facts", self.line(s), key=neutral(s.statement)),
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
            kind = "projects" if slug in self.filing.directory.projects else "people"
            paths.append(f"{self.root}/{kind}/{slug}")
        for line in r.content.split("\n")[1:]:
            m = re.match(r"- (\S+) \(v\d+\)", line)
            if m:
                paths.append(m.group(1))
        skip = (f"{self.root}/archive", f"{self.root}/corrections")
        paths = sorted(p for p in dict.fromkeys(paths) if not p.startswith(skip))
        words = {
            w.lower() for w in re.findall(r"[^\W\d_]{4,}", statement)
            if w.lower() not in stopwords.FILLER and w not in old and w not in new
        }  # fmt: skip
        # a number or code the correction names the thing by ("033 is wrong: …" of the row
        # of invoice INV-2027-033)
        codes = [
            re.compile(rf"(?<![\w]){re.escape(c)}(?![\w])")
            for c in re.findall(r"(?<![\w£$€.,])[A-Za-z0-9-]*\d[A-Za-z0-9-]*", statement)
            if len(c) >= 3 and c not in old and c not in new
        ]
        old_iso = _iso(old, s)
        new_iso = _iso(new, s)
        stated_value = _stated(old, new)
        lone = self._lone_time(old, new, paths)
        edited = []
        stated: set[str] = set()  # pages that got the new value's line
        moved: dict[str, list[str]] = {}  # page -> the old lines it keeps under "Past"
        for path in paths:
            page = self.read(path)
            if page is None:
                continue
            on_subject = path.rsplit("/", 1)[1] in subjects
            for line in page.body.split("\n"):
                if not stated_value.search(line) or "(corrected " in line:
                    continue
                if not line.startswith("- ") or self._session_line(line):
                    continue  # a session's opening is a record of what was said then
                if self.session_path in line and re.search(
                    rf"(?<![\w]){re.escape(new)}(?![\w])", line
                ):
                    continue  # said in this session with the new value already
                relevant = (
                    on_subject
                    or value_kind(old) == "name"
                    or (value_kind(old) == "weekday" and self.session_path in line)
                    or any(w in line.lower() for w in words)
                    or any(c.search(line) for c in codes)
                    or (lone is not None and _said(line) == lone)
                )
                if not relevant:
                    continue
                if line.startswith("- past") or " — past: " in line:
                    continue
                now = self.line(s)
                if value_kind(old) in ("name", "weekday"):
                    # A name replaced keeps its own reasons: the old line moves under "Past",
                    # and the correction, with its own reasons, takes its place.
                    fixed = ""
                    if neutral(s.statement) not in page.body and path not in stated:
                        fixed = now
                        stated.add(path)
                else:
                    fixed = stated_value.sub(lambda m: new + (m.group("meridian") or ""), line)
                    if old_iso and new_iso:
                        fixed = fixed.replace(old_iso, new_iso)
                    fixed = fixed.rsplit(" ([[", 1)[0] + f" ({self.cite})"
                    if path != f"{self.root}/active":  # said, as it stands now, on this day
                        fixed = re.sub(r"^- \d{4}-\d{2}-\d{2}:", f"- {s.time[:10]}:", fixed)
                past_line = f"{line} — past: corrected on {s.time[:10]}: “{new}”, not “{old}”"
                if not fixed:
                    line += "\n"  # the line goes; the page keeps its other lines as they are
                if path == f"{self.root}/active" and value_kind(old) in ("name", "weekday"):
                    # what is current lists the new value only (an upcoming date is added apart)
                    upcoming = s.when is not None and s.when > self.day
                    line, fixed = line + "\n", "" if upcoming else now + "\n"
                r = self.call(
                    "document_edit", {"path": path, "old_string": line, "new_string": fixed}
                )
                if r.is_error:
                    self.summary.notes.append(
                        f"{path}: correction not applied: {r.content.removeprefix('error: ')}"
                    )
                    continue
                if path != f"{self.root}/active":
                    moved.setdefault(path, []).append(past_line)
                if path not in edited:
                    edited.append(path)
                if path not in self.summary.changed:
                    self.summary.changed.append(path)
        for path, lines in moved.items():
            self.update(
                path,
                path.rsplit("/", 1)[1],
                lambda page, lines=lines: _add_past(page, lines),
            )
        return edited

    def _lone_time(self, old: str, new: str, paths: list[str]) -> str | None:
        """The one statement of this session that gives the time of day `old` ("… at noon"),
        which a correction giving another time without naming the thing ("the vicar can
        only do 3pm now, not noon") corrects; None when `old` is no time, or several
        statements give it (which is meant is unknown, and all stay). A statement that
        gives the new time as well ("noon became 1:30pm") is said of the change already."""
        if not is_time(old):
            return None
        said = set()
        for path in paths:
            page = self.read(path)
            for line in page.body.split("\n") if page else []:
                if (
                    line.startswith("- ")
                    and self.session_path in line
                    and " — past: " not in line
                    and not self._session_line(line)
                    and re.search(rf"(?<![\w]){re.escape(old)}(?![\w])", _said(line))
                    and not re.search(rf"(?<![\w]){re.escape(new)}(?![\w])", _said(line))
                ):
                    said.add(_said(line))
        return said.pop() if len(said) == 1 else None

    def _session_line(self, line: str) -> bool:
        return bool(
            re.match(r"- \d{4}-\d{2}-\d{2}: \[\[" + re.escape(f"{self.root}/archive/"), line)
        )

    def write_patterns(self) -> bool:
        """List the people, projects and topics of this run named in two sessions or more."""
        rows = []
        for kind in ENTITY_KINDS:
            for slug in sorted(self.touched.get(kind, ())):
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
        for kind in ENTITY_KINDS:
            title = kind.capitalize()
            if not self.touched.get(kind):
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
                    f"Memory of agent {self.t.owner}, kept by its memory agent. "
                    "Every fact cites the session it came from.",
                ]
            known = [f"- [[{self.root}/{name}]]" for name in TOP_LEVEL if name in children]
            others = [f"- [[{self.root}/{c}]]" for c in sorted(children) if c not in TOP_LEVEL]
            page.sections["Contents"] = known + others

        self.update(self.root, "Memory", change)


#: The sections of an entity page that say nothing of it on their own.
_LINKS_ONLY = {"Related", "Sessions"}


def _held_before(s: Sentence, line: str) -> bool:
    """Whether an earlier session's `line` may be what `s` replaces, when `s` replaced a line
    of its own session already: a line that held a value the replaced one held (the MOT's
    day said again before it moved), or any, when the replaced one said a change itself or
    `s` names the value it replaces; never another line of the same kind of value ("so it's £43,500 now" of an offer, not
    of a saving said weeks before)."""
    if (
        not s.supersedes
        or any(supersession.CHANGE.search(old.raw or old.text) for old in s.supersedes)
        or supersession.names_old_value(s.statement or s.text)
    ):
        # what it replaced said a change itself ("push it to the 27th"), or it names the
        # value it replaces ("from 6 May to 20 May"): that value is what is looked for
        return True
    held = {
        (v.kind, v.norm)
        for old in s.supersedes
        for v in supersession.values(old.statement or old.text)
    }
    return any((v.kind, v.norm) in held for v in supersession.values(line))


def _names(name: str, line: str) -> bool:
    """Whether `line` names `name` as a whole word."""
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", line) is not None


def _without_stale(line: str, superseded: dict[str, Sentence]) -> str:
    """A recent session's line without the sentences of its quoted opening that state what
    was replaced since ("… weighed him at 31 kg …" once "down to 29.5 kg" was said): the list
    of sessions must not show an old value as if it held."""
    m = re.match(r"(?P<head>.*?)\s`(?P<said>.*)`$", line)
    if m is None or not superseded:
        return line
    pieces = re.split(r"(?<=[a-z]{3}[.!?])\s+", m.group("said"))  # not after "Dr."

    def stale(piece: str) -> bool:
        text = piece.rstrip("…").strip()
        return len(text) >= 20 and any(
            old.startswith(text) or text.startswith(old.rstrip(".")) for old in superseded
        )

    keep = [p for p in pieces if not stale(p)]
    if len(keep) == len(pieces):
        return line
    return f"{m.group('head')} `{' '.join(keep)}`" if keep else m.group("head")


def _cited(line: str) -> str | None:
    """The session a page line cites first: where it was said."""
    m = re.search(r"\[\[[^\]|]+\|([^\]]+)\]\]", line)
    return m.group(1) if m else None


#: A date a fact line adds after a day said in words: " (2030-03-02)".
_ADDED_DATE = re.compile(r"\s*\(\d{4}-\d\d-\d\d\)")


def _line_of(line: str, sentence: str) -> bool:
    """Whether a page's fact line is the one written of a user's `sentence`: its numbers
    all in the line, and most of its words (the line may say "the user" for "I" and add
    the dates it resolved)."""
    m = re.match(r"- (?:\d{4}-\d\d-\d\d: )?(.*?)(?: \(\[\[[^\]]*\]\]\))?$", line)
    if m is None:
        return False
    body = _ADDED_DATE.sub("", m.group(1))
    numbers = {v for v in values(sentence) if v.isdigit()}
    if not numbers <= values(body):
        return False
    words = content_words(sentence)
    return len(words) >= 2 and len(words & content_words(body)) * 5 >= len(words) * 4


def _add_past(page: Page, lines: list[str]) -> None:
    """Put `lines` under the page's "Past" heading, sections in their usual order."""
    for ln in lines:
        page.add("Past", ln)
    _order_sections(page)


def _order_sections(page: Page) -> None:
    """Current facts first, then what they replaced ("Past"), then links and sessions; a
    section this order does not name ("How things are set up") is current too: it keeps its
    place among the current ones, before "Past"."""
    order = {name: float(i) for i, name in enumerate(SECTION_ORDER)}
    current = order["Past"] - 0.5
    page.sections = dict(sorted(page.sections.items(), key=lambda kv: order.get(kv[0], current)))


def _iso(value: str, s: Sentence) -> str | None:
    found = absolute_dates(value, message_date(s.time))
    return found[0][1].isoformat() if found else None


def _stated(old: str, new: str) -> re.Pattern[str]:
    """Where a line states the value `old` that a correction replaces with `new`. An hour
    corrected to a time ("5:30 not 6") is the hour of a time ("load in 6pm", "at 6:00"),
    never a day of the month ("sat 6 nov"); its am or pm is kept (group `meridian`)."""
    if re.fullmatch(r"\d{1,2}", old) and re.fullmatch(r"\d{1,2}[:.]\d{2}", new):
        return re.compile(
            rf"(?<![\w:.]){re.escape(old)}(?:(?P<meridian>\s*[ap]\.?m\b\.?)|[:.]00\b"
            rf"|(?!\w)(?!\s+(?:{'|'.join(_MONTH_WORDS)})\b)(?![:.]\d))",
            re.I,
        )
    return re.compile(rf"(?<![\w]){re.escape(old)}(?![\w])(?P<meridian>)")


_MONTH_WORDS = (
    "jan", "january", "feb", "february", "mar", "march", "apr", "april", "may", "jun", "june",
    "jul", "july", "aug", "august", "sep", "sept", "september", "oct", "october", "nov",
    "november", "dec", "december",
)  # fmt: skip


def _facts_of(own: list[Sentence]) -> list[Sentence]:
    """The lines a page gets of the sentences filed on it: every fact of a kind; of what a
    chat's speaker said with no kind found in it, no question that holds no figure or name
    ("How's that going?": it asks, it states nothing) and at most `MAX_PLAIN_LINES`."""
    out: list[Sentence] = []
    plain = 0
    for s in own:
        if not s.kinds:
            if s.text.rstrip().endswith("?") and not lang.SPECIFIC.search(s.text):
                continue  # a question holding no figure or name: nothing said of anyone
            plain += 1
            if plain > MAX_PLAIN_LINES:
                continue
        out.append(s)
    return out
