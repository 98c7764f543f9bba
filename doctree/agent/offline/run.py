"""One run of the offline memory agent: what it writes where, page by page."""

from __future__ import annotations

import re
from datetime import date, timedelta

from doctree.agent.offline.pageio import PageIO, RunSummary, ToolsLike
from doctree.agent.offline.pages import Page, _neutral, _quote
from doctree.agent.offline.text import (
    _STOPWORDS,
    Analysis,
    Directory,
    Sentence,
    _title,
    _value_kind,
    absolute_dates,
    analyse,
    iso_week,
    message_date,
    user_sentences,
)
from doctree.sessions.transcripts import Transcript
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


class Run(PageIO):
    """One transcript handed over: analysed once, then written page by page, top down."""

    def __init__(self, root: str, transcript: Transcript, tools: ToolsLike):
        super().__init__(root, tools, RunSummary(transcript.agent, transcript.session_id, turns=1))
        self.t = transcript
        first = transcript.started or (transcript.messages[0].time if transcript.messages else None)
        self.start_time = first or "1970-01-01T00:00:00Z"
        self.day = message_date(self.start_time)
        self.week = iso_week(self.day)
        self.session_path = f"{root}/archive/{self.week}/{slugify(transcript.session_id)}"
        self.cite = f"[[{self.session_path}|{transcript.session_id}]]"
        self.touched: dict[str, set[str]] = {"people": set(), "projects": set(), "topics": set()}

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
