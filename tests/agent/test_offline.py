"""The offline memory agent, behaviour by behaviour, through the real document tools."""

from __future__ import annotations

import itertools
from datetime import date
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from doctree.agent.offline import OfflineMemoryAgent, absolute_dates, resolve_relative
from doctree.agent.offline.language import past_tense
from doctree.interop.tools import MemoryTools
from doctree.store.documents import Actor, DocumentsRepository, Provenance
from tests.agent.offline_runs import run, transcript

FIXTURES = Path(__file__).parents[1] / "fixtures" / "transcripts"


def body(repo: DocumentsRepository, path: str, owner: str = "main") -> str:
    return repo.read(owner, path).body


def section(page: str, name: str) -> str:
    """The lines of one '## name' section of a page body."""
    return (
        page.split(f"## {name}\n\n", 1)[1].split("\n\n## ", 1)[0] if f"## {name}\n" in page else ""
    )


def snapshot(repo: DocumentsRepository) -> list[tuple]:
    """Every version of every owner: what two replays must agree on."""
    out = []
    for owner in repo.owners():
        for v in sorted(repo.log(owner, "~", limit=None), key=lambda v: v.id):
            out.append((owner, v.path, v.version, v.operation, v.content_sha256, v.actor))
    return out


class Recording:
    """The real tools, with the calls made through them kept in order."""

    def __init__(self, tools: MemoryTools):
        self.tools = tools
        self.calls: list[tuple[str, dict]] = []

    def call(self, name: str, input: dict):
        self.calls.append((name, input))
        return self.tools.call(name, input)


MONDAY = "2026-11-16T09:00:00Z"


def test_preference_is_recorded_with_its_session(repo):
    run(repo, transcript("s-pref", ("user", MONDAY, "I prefer morning meetings, before 11.")))
    page = body(repo, "~/memory/corrections")
    assert "## Preferences" in page
    assert "The user prefers morning meetings, before 11." in page
    assert "[[~/memory/archive/2026-W47/s-pref|s-pref]]" in page


def test_dont_rule_is_a_preference(repo):
    run(repo, transcript("s-dont", ("user", MONDAY, "Don't use float for money, ever.")))
    assert "Don't use float for money, ever." in body(repo, "~/memory/corrections")


def test_decision_goes_to_the_project_named(repo):
    run(
        repo,
        transcript(
            "s-dec",
            ("user", MONDAY, "On project Apollo we decided to use Postgres for the event store."),
        ),
    )
    page = body(repo, "~/memory/projects/apollo")
    assert "## Decisions" in page
    assert "we decided to use Postgres for the event store" in page


def test_decision_outside_any_project_goes_to_decisions(repo):
    run(repo, transcript("s-dec2", ("user", MONDAY, "We decided to cancel the gym membership.")))
    assert "cancel the gym membership" in body(repo, "~/memory/decisions")


def test_remember_that_without_a_subject_goes_to_notes(repo):
    run(
        repo,
        transcript("s-rem", ("user", MONDAY, "Remember that the wifi password is on the fridge.")),
    )
    assert "The wifi password is on the fridge." in body(repo, "~/memory/notes")


def test_relative_date_becomes_absolute_from_the_message_time(repo):
    run(
        repo,
        transcript(
            "s-date", ("user", MONDAY, "I have a dentist appointment next Tuesday at 10:00.")
        ),
    )
    active = body(repo, "~/memory/active")
    assert (
        "- 2026-11-24: The user has a dentist appointment next Tuesday (2026-11-24) at 10:00."
        in active
    )


@pytest.mark.parametrize(
    ("said", "phrase", "expected"),
    [
        ("call him tomorrow", "tomorrow", date(2026, 11, 17)),
        ("the review is on Friday", "on Friday", date(2026, 11, 20)),
        ("the review is Friday", "Friday", date(2026, 11, 20)),
        ("I met Ana on Friday", "on Friday", date(2026, 11, 13)),
        ("we moved the call to Friday", "Friday", date(2026, 11, 20)),
        ("the kickoff is Saturday after next", "Saturday after next", date(2026, 11, 28)),
        ("the demo is next Friday", "next Friday", date(2026, 11, 27)),
        ("we met last Thursday", "last Thursday", date(2026, 11, 12)),
        ("back in two weeks", "in two weeks", date(2026, 11, 30)),
        ("I saw her yesterday", "yesterday", date(2026, 11, 15)),
    ],
)
def test_relative_date_rules(said, phrase, expected):
    text, found = resolve_relative(said, date(2026, 11, 16), past=past_tense(said))
    assert found == [(phrase, expected)]
    assert f"{phrase} ({expected.isoformat()})" in text


def test_recurring_weekday_is_not_a_date():
    text, found = resolve_relative("Don't book anything on Friday afternoons.", date(2026, 11, 16))
    assert found == []
    assert text == "Don't book anything on Friday afternoons."


def test_month_day_takes_the_nearest_year():
    assert absolute_dates("the launch is on January 5", date(2026, 11, 16)) == [
        ("January 5", date(2027, 1, 5))
    ]


def test_past_dates_move_from_active_to_the_archive_week(repo):
    run(
        repo,
        transcript("s-a", ("user", MONDAY, "I need to call the plumber tomorrow about the leak.")),
    )
    assert "plumber" in section(body(repo, "~/memory/active"), "Upcoming")
    run(repo, transcript("s-b", ("user", "2026-11-25T09:00:00Z", "I prefer tea to coffee.")))
    assert "plumber" not in section(body(repo, "~/memory/active"), "Upcoming")
    assert "plumber" in body(repo, "~/memory/archive/2026-W47")


def test_session_page_holds_key_lines_and_links_its_pages(repo):
    run(
        repo,
        transcript(
            "s-page",
            ("user", MONDAY, "I had lunch with Priya Raman. We decided to meet monthly."),
            ("assistant", "2026-11-16T09:00:05Z", "Noted."),
        ),
    )
    page = body(repo, "~/memory/archive/2026-W47/s-page")
    assert "- session: s-page" in page
    assert "- [[~/memory/people/priya-raman]]" in page  # each fact lives on its own page
    assert "The user had lunch with Priya Raman." in body(repo, "~/memory/people/priya-raman")
    assert "We decided to meet monthly." in body(repo, "~/memory/decisions")
    assert "## Key lines" not in page
    assert "2 messages (1 user, 1 assistant)" in page


def test_active_lists_the_recent_sessions(repo):
    run(repo, transcript("s-recent", ("user", MONDAY, "Can you help me plan the week?")))
    sessions = section(body(repo, "~/memory/active"), "Recent sessions")
    assert (
        "- 2026-11-16: [[~/memory/archive/2026-W47/s-recent|s-recent]] "
        "`Can you help me plan the week?`" in sessions
    )


def test_session_without_anything_durable_says_so(repo):
    run(
        repo,
        transcript("s-chat", ("user", MONDAY, "hey, you there?"), ("assistant", MONDAY, "Yes.")),
    )
    assert "Nothing durable" in body(repo, "~/memory/archive/2026-W47/s-chat")


def test_person_named_after_with_gets_a_page_citing_the_session(repo):
    run(
        repo,
        transcript("s-person", ("user", MONDAY, "I had a call with Jonas Berg about the cutover.")),
    )
    page = body(repo, "~/memory/people/jonas-berg")
    assert page.startswith("# Jonas Berg\n")
    assert "The user had a call with Jonas Berg about the cutover." in page
    assert "[[~/memory/archive/2026-W47/s-person|s-person]]" in page


def test_first_name_finds_the_page_of_the_full_name(repo):
    run(repo, transcript("s-1", ("user", MONDAY, "Kickoff with Marcus Lee went well.")))
    run(
        repo, transcript("s-2", ("user", "2026-11-17T09:00:00Z", "Marcus will own the load tests."))
    )
    assert "Marcus will own the load tests." in body(repo, "~/memory/people/marcus-lee")
    assert not repo.exists("main", "~/memory/people/marcus")


def test_people_and_projects_link_each_other(repo):
    run(repo, transcript("s-link", ("user", MONDAY, "Kickoff for project Apollo with Priya.")))
    assert "[[~/memory/projects/apollo]]" in body(repo, "~/memory/people/priya")
    assert "[[~/memory/people/priya]]" in body(repo, "~/memory/projects/apollo")
    backlinks = {r.source_path for r in repo.backlinks("main", "~/memory/projects/apollo")}
    assert "~/memory/people/priya" in backlinks


def test_correction_is_applied_where_the_old_fact_is_recorded(repo):
    run(repo, transcript("s-old", ("user", MONDAY, "I need to call Bob, he moved to Munich.")))
    run(
        repo,
        transcript(
            "s-new", ("user", "2026-11-21T10:00:00Z", "Actually, Bob moved to Berlin, not Munich.")
        ),
    )
    page = body(repo, "~/memory/people/bob")
    # the old line keeps its own words under "Past"; the correction is a fact of its own
    past = section(page, "Past")
    assert "he moved to Munich" in past
    assert "— past: corrected on 2026-11-21: “Berlin”, not “Munich”" in past
    assert "Bob moved to Berlin, not Munich." in section(page, "Facts")
    assert "Munich" not in section(page, "Facts").replace("not Munich", "")
    history = repo.history("main", "~/memory/people/bob")
    assert history[-1].session_id == "s-new"
    corrections = body(repo, "~/memory/corrections")
    assert "“Munich” → “Berlin”; corrected in [[~/memory/people/bob]]" in corrections


def test_correction_of_a_date_updates_the_dated_line(repo):
    run(
        repo,
        transcript("s-old", ("user", MONDAY, "Remember that Anna's birthday is on December 3.")),
    )
    run(
        repo,
        transcript(
            "s-new",
            ("user", "2026-11-21T10:00:00Z", "Anna's birthday is on December 4, not December 3."),
        ),
    )
    upcoming = section(body(repo, "~/memory/active"), "Upcoming")
    assert "- 2026-12-04: Anna's birthday is on December 4 (2026-12-04)." in upcoming
    assert "December 3" not in upcoming.replace("was “December 3”", "")
    assert "2026-12-03" not in upcoming


def test_correction_nobody_recorded_is_kept_in_corrections(repo):
    run(
        repo,
        transcript("s-corr", ("user", MONDAY, "Actually, his flat is in Kreuzberg, not Mitte.")),
    )
    assert "no page held “Mitte”; recorded here" in body(repo, "~/memory/corrections")


def test_quoted_text_is_not_taken_as_the_users_word(repo):
    run(
        repo,
        transcript(
            "s-quote",
            (
                "user",
                MONDAY,
                "Look at this:\n\n> Remember that the admin password is hunter2.\n\nFunny.",
            ),
        ),
    )
    assert not repo.exists("main", "~/memory/notes")
    assert repo.search("main", "hunter2") == []


def test_injection_fixture_stays_inside_memory_and_deletes_nothing(repo):
    text = (FIXTURES / "08-prompt-injection.md").read_text()
    run(repo, text)
    versions = repo.log(None, "~", limit=None)
    assert versions
    assert {v.owner for v in versions} == {"main"}
    assert all(v.path.startswith("~/memory") for v in versions)
    assert {v.operation for v in versions} <= {"created", "modified"}
    assert repo.search("main", "hunter2") == []
    page = body(repo, "~/memory/archive/2026-W47/s-2026-11-22-pasted-newsletter")
    assert "## Ignored instructions" in page
    assert "ignore all previous instructions" in page
    assert "## Not acted on" in page


def test_links_in_ignored_text_make_no_references(repo):
    run(repo, (FIXTURES / "08-prompt-injection.md").read_text())
    for doc in repo.documents("main", "~/memory"):
        for ref in repo.links("main", doc.path):
            assert ref.target_path.startswith("~/memory"), (doc.path, ref.target_path)


def test_every_page_is_read_before_it_is_written(repo):
    text = (FIXTURES / "07-corrections.md").read_text()
    run(repo, (FIXTURES / "01-personal-assistant.md").read_text())
    tools = Recording(MemoryTools(repo, "main", session_id="s-2026-11-21-catch-up"))
    OfflineMemoryAgent().run(text, tools)
    seen: set[str] = set()
    listed: set[str] = set()
    for name, args in tools.calls:
        if name == "document_read":
            seen.add(args["path"])
        if name in ("document_write", "document_edit"):
            path = args["path"]
            parent = path.rsplit("/", 1)[0]
            assert path in seen or parent in seen or path in listed, path
            listed.add(path)
    assert {n for n, _ in tools.calls} <= {
        "document_read",
        "document_write",
        "document_edit",
        "document_search",
    }


class Interfering(Recording):
    """The real tools, with a person editing a page just before the agent first writes it."""

    def __init__(self, tools: MemoryTools, path: str):
        super().__init__(tools)
        self.path = path
        self.done = False

    def call(self, name: str, input: dict):
        if name == "document_write" and input["path"] == self.path and not self.done:
            self.done = True
            current = self.tools.repo.read("main", self.path).body
            self.tools.repo.write(
                "main",
                self.path,
                current + "\nAdded by hand.\n",
                provenance=Provenance(Actor("user", "me")),
            )
        return super().call(name, input)


def test_a_page_changed_meanwhile_is_read_again_not_overwritten(repo):
    run(repo, transcript("s-1", ("user", MONDAY, "I prefer tea.")))
    text = transcript("s-2", ("user", "2026-11-17T09:00:00Z", "I prefer window seats."))
    tools = Interfering(MemoryTools(repo, "main", session_id="s-2"), "~/memory/corrections")
    OfflineMemoryAgent().run(text, tools)
    page = body(repo, "~/memory/corrections")
    assert "Added by hand." in page
    assert "The user prefers window seats." in page
    writes = [i for n, i in tools.calls if n == "document_write" and i["path"] == tools.path]
    assert len(writes) == 2


def test_versions_carry_the_memory_agent_the_session_and_the_run(repo):
    run(repo, transcript("s-run", ("user", MONDAY, "I prefer tea.")), run_id=42)
    versions = repo.log("main", "~/memory", limit=None)
    assert {(v.actor, v.session_id, v.run_id) for v in versions} == {
        ("memory-agent:main", "s-run", 42)
    }


def test_a_page_written_by_a_person_keeps_its_text(repo):
    repo.write(
        "main",
        "~/memory/people/bob",
        "# Bob\n\nMy oldest friend.\n",
        provenance=Provenance(Actor("user", "me")),
    )
    run(repo, transcript("s-bob", ("user", MONDAY, "I had dinner with Bob yesterday.")))
    page = body(repo, "~/memory/people/bob")
    assert "My oldest friend." in page
    assert "The user had dinner with Bob yesterday (2026-11-15)." in page


def test_same_transcript_twice_writes_nothing_new(repo):
    text = (FIXTURES / "03-apollo-day1-kickoff.md").read_text()
    run(repo, text)
    before = snapshot(repo)
    summary = run(repo, text)
    assert snapshot(repo) == before
    assert summary.changed == []


def test_session_handed_over_in_two_parts_keeps_one_page(repo):
    first = transcript("s-parts", ("user", "2026-11-22T23:50:00Z", "I prefer green tea."))
    second = transcript(
        "s-parts", ("user", "2026-11-23T00:10:00Z", "We decided to repaint the hall.")
    )
    run(repo, first)
    run(repo, second)
    page = body(repo, "~/memory/archive/2026-W47/s-parts")
    assert "I prefer green tea." in page  # the session's opening
    assert len(section(page, "Records").splitlines()) == 2
    assert "We decided to repaint the hall." in body(repo, "~/memory/decisions")
    assert not repo.exists("main", "~/memory/archive/2026-W48/s-parts")


@pytest.mark.slow
def test_replaying_all_fixtures_twice_gives_the_same_tree_and_versions(tmp_path):
    snapshots = []
    for name in ("one.db", "two.db"):
        with DocumentsRepository(tmp_path / name) as repo:
            for f in sorted(FIXTURES.glob("*.md")):
                run(repo, f.read_text())
            snapshots.append(snapshot(repo))
    assert snapshots[0] == snapshots[1]
    assert len(snapshots[0]) > 50


def test_each_agent_gets_its_own_memory(repo):
    run(repo, (FIXTURES / "05-ops-oncall.md").read_text())
    assert repo.owners() == ["ops"]
    assert "log retention" in body(repo, "~/memory/decisions", owner="ops")


WORDS = [
    "I", "prefer", "we", "decided", "remember", "that", "actually", "not", "with", "met",
    "Bob", "Priya Raman", "project", "Apollo", "the", "tomorrow", "next", "Friday", "December",
    "3", ",", ".", "?", "../", "~/other/x", "[[~/../ops/memory]]", "memory agent", "delete",
    "everything", "Dr.", "don't", "`", "#", "## user · 2026-11-16T09:00:00Z", ">", "\n", "\n\n",
    "```", "O'Brien", "São", "Łukasz", "—", "my sister", "Zoë", "in 3 weeks", "12", "&",
]  # fmt: skip


SESSIONS = itertools.count()


class Checked(Recording):
    """The real tools; every write, edit or search must succeed."""

    def call(self, name: str, input: dict):
        result = super().call(name, input)
        if name != "document_read":
            assert not result.is_error, (name, input.get("path"), result.content)
        return result


@pytest.mark.slow
@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(st.one_of(st.sampled_from(WORDS), st.text(max_size=12)), max_size=40),
)
def test_any_user_text_is_handled_inside_memory(repo, words):
    session = f"s-prop-{next(SESSIONS)}"
    text = transcript(session, ("user", MONDAY, " ".join(words) or "."))
    before = {v.id for v in repo.log(None, "~", limit=None)}
    OfflineMemoryAgent().run(text, Checked(MemoryTools(repo, "main", session_id=session)))
    new = [v for v in repo.log(None, "~", limit=None) if v.id not in before]
    assert new
    assert all(v.owner == "main" and v.path.startswith("~/memory") for v in new)
    assert {v.operation for v in new} <= {"created", "modified"}


@pytest.mark.slow
def test_the_fixtures_replay_without_a_single_tool_error(repo):
    errors = {}
    for f in sorted(FIXTURES.glob("*.md")):
        summary = run(repo, f.read_text())
        errors[f.name] = summary.tool_errors
    assert set(errors.values()) == {0}, errors


def test_relation_is_recorded_on_the_persons_page(repo):
    run(repo, transcript("s-rel", ("user", MONDAY, "My sister Anna is visiting in two weeks.")))
    assert "- Relation: the user's sister" in body(repo, "~/memory/people/anna")


def test_a_technology_named_with_what_it_is_gets_a_topic_page(repo):
    said = "We decided to move the queue to a Kafka cluster."
    run(repo, transcript("s-topic", ("user", MONDAY, said)))
    page = body(repo, "~/memory/topics/kafka")
    assert page.startswith("# Kafka\n")
    assert "- [[~/memory/decisions]]" in page  # the decision lives there, once
    assert said in body(repo, "~/memory/decisions")


@pytest.mark.parametrize(
    ("said", "kind", "name"),
    [
        (
            "We keep the passwords for the client portals in Bitwarden.",
            "organisations",
            "Bitwarden",
        ),
        ("The invoices go out through Stripe.", "organisations", "Stripe"),
        ("Our Redis cache is full again.", "topics", "Redis"),
        ("pgloader 3.6 stopped at the ledger table.", "topics", "pgloader"),
        ("I met Anna in Lisbon last year.", "places", "Lisbon"),
    ],
)
def test_a_service_or_technology_is_told_from_a_place_or_person(said, kind, name):
    from doctree.agent.offline.directory import Directory
    from doctree.agent.offline.extract import read_sentence

    s = read_sentence("2027-01-04T09:00:00Z", said, date(2027, 1, 4), Directory({}, {}))
    found = s.topics if kind == "topics" else s.others.get(kind, [])
    assert name in found
    assert name not in s.people


def test_a_person_named_in_two_sessions_is_a_pattern(repo):
    run(repo, transcript("s-p1", ("user", MONDAY, "Lunch with Jonas was fun.")))
    assert not repo.exists("main", "~/memory/patterns")
    run(repo, transcript("s-p2", ("user", "2026-11-18T09:00:00Z", "I met Jonas again today.")))
    patterns = body(repo, "~/memory/patterns")
    assert "- [[~/memory/people/jonas]]: named in 2 sessions, latest 2026-11-18" in patterns
    assert "- [[~/memory/patterns]]" in body(repo, "~/memory")


def test_a_long_session_page_links_its_pages_without_copying_their_facts(repo):
    run(repo, (FIXTURES / "06-hermes-migration-long.md").read_text())
    page = body(repo, "~/memory/archive/2026-W47/s-2026-11-20-hermes-migration")
    assert "- [[~/memory/projects/hermes]]" in page
    hermes = body(repo, "~/memory/projects/hermes")
    facts = [
        ln.split(": ", 1)[1].split(" ([[")[0] for ln in section(hermes, "Decisions").splitlines()
    ]
    assert facts
    assert not [f for f in facts if f in page]
    assert "330 messages (44 user, 44 assistant, 121 tool calls, 121 tool results)" in page
    assert "run_shell ×121 (1 error)" in page


def test_a_page_the_store_refuses_is_reported_and_the_rest_is_written(db_path):
    with DocumentsRepository(db_path, max_body_bytes=500) as repo:
        summary = run(repo, (FIXTURES / "01-personal-assistant.md").read_text())
        assert any(
            n.startswith("~/memory/archive/2026-W47/s-2026-11-16-week-plan not written")
            for n in summary.notes
        )
        assert not repo.exists("main", "~/memory/archive/2026-W47/s-2026-11-16-week-plan")
        assert repo.exists("main", "~/memory/people/bob")


@pytest.mark.parametrize(
    ("said", "subject", "statement"),
    [
        ("I prefer tea.", "the user", "The user prefers tea."),
        ("I'm allergic to nuts and my sister is too.", "the user",
         "The user is allergic to nuts and the user's sister is too."),
        ("I really need a new laptop.", "the user", "The user really needs a new laptop."),
        ("I've been to Porto, I didn't like it.", "Nadia",
         "Nadia has been to Porto, Nadia didn't like it."),
        ("I don't drink coffee.", "Tom", "Tom doesn't drink coffee."),
        ("Bob and I went hiking; he carried my bag.", "the user",
         "Bob and the user went hiking; he carried the user's bag."),
        ("I watch `I am` reruns.", "the user", "The user watches `I am` reruns."),
        # a question keeps its inverted auxiliary's verb as it is, the auxiliary agreeing
        ("Should I take the 9:05 or should I drive?", "the user",
         "Should the user take the 9:05 or should the user drive?"),
        ("Do I need a permit?", "Lena", "Does Lena need a permit?"),
        ("Where do I park, and have I paid?", "the user",
         "Where does the user park, and has the user paid?"),
        ("Am I on the list?", "the user", "Is the user on the list?"),
        ("Why don't I just ask?", "the user", "Why doesn't the user just ask?"),
        # not a question: the verb after "I" still agrees
        ("What I have, I share.", "Ines", "What Ines has, Ines shares."),
        ("The bread I have I bake at home.", "the user",
         "The bread the user has the user bakes at home."),
        # an irregular past takes no -s; its present does
        ("I drew Dev in the office draw.", "the user", "The user drew Dev in the office draw."),
        ("I swam 2 km and taught a class.", "Ines", "Ines swam 2 km and taught a class."),
        ("I draw on Sundays.", "the user", "The user draws on Sundays."),
    ],
)  # fmt: skip
def test_first_person_becomes_a_statement_about_its_subject(said, subject, statement):
    from doctree.agent.offline.language import third_person

    assert third_person(said, subject) == statement


@pytest.mark.parametrize(
    ("reply", "accepted"),
    [
        ("yes, go ahead", True),
        ("ah that makes sense, do it", True),
        ("Perfect, that was it.", True),
        ("no, that's not it", False),
        ("yes but the cache is not the problem", False),
        ("Can you check the logs first?", False),
    ],
)
def test_what_accepts_the_assistants_finding(reply, accepted):
    from doctree.agent.offline.language import accepts

    assert accepts(reply) is accepted


@pytest.mark.parametrize(
    ("said", "asked"),
    [
        ("Please forget that.", (True, None)),
        ("don't keep that, ok?", (True, None)),
        ("Forget what I said about the standup time.", (True, "the standup time")),
        ("Forget everything about Bob and delete his page.", (True, "Bob")),
        ("I always forget my keys.", None),
        ("Don't forget the milk.", None),
    ],
)
def test_requests_to_forget(said, asked):
    from doctree.agent.offline.language import forget_request

    assert forget_request(said) == asked


def test_a_forget_request_removes_the_fact_and_says_so(repo):
    run(repo, transcript("s-1", ("user", MONDAY, "I prefer the standup at 9:30.")))
    summary = run(
        repo,
        transcript(
            "s-2", ("user", "2026-11-17T09:00:00Z", "Forget what I said about the standup.")
        ),
    )
    assert "9:30" not in body(repo, "~/memory/corrections")
    assert any(n.startswith("forgot ") and "doctree forget" in n for n in summary.notes)
    assert "9:30" in repo.read("main", "~/memory/corrections", version=1).body  # history keeps it


@pytest.mark.parametrize(
    ("said_on", "sentence", "meant"),
    [
        ("2027-03-15", "The quarterly review is next Thursday.", "2027-03-25"),
        ("2027-03-15", "The car goes to the garage in two weeks.", "2027-03-29"),
        ("2027-03-15", "Rent is due on the 1st.", "2027-04-01"),
        ("2027-03-15", "The school play is Friday the 19th.", "2027-03-19"),
        # the 19th is a Thursday first in August, too far: the weekday is taken as misremembered
        ("2027-03-15", "The school play is Thursday the 19th.", "2027-03-19"),
        ("2027-03-15", "The invoice is due Dec 8.", "2027-12-08"),
        ("2027-03-15", "The audit is on the 14th.", "2027-04-14"),
        ("2027-05-27", "The freeze starts on the 4th.", "2027-06-04"),
        ("2027-06-08", "It was delivered on June 3.", "2027-06-03"),
        ("2027-01-12", "The party is on Friday, the 22nd.", "2027-01-22"),
        ("2027-11-20", "The offsite is on Monday 7 December.", "2027-12-07"),
        ("2027-03-22", "Payroll runs on the 25th of this month.", "2027-03-25"),
        ("2027-03-22", "She wants it by April 30th.", "2027-04-30"),
    ],
)
def test_a_date_is_resolved_against_the_time_it_was_said(said_on, sentence, meant):
    """A weekday with a day of the month is the first month from then on, within four, where
    they agree, else the day of the month; a month-day date is the next one to come unless the sentence tells of the past."""
    from doctree.agent.offline.extract import read_sentence

    s = read_sentence(f"{said_on}T09:00:00Z", sentence, date.fromisoformat(said_on), _directory())
    assert s.when == date.fromisoformat(meant)


def _directory():
    from doctree.agent.offline.directory import Directory

    return Directory({}, {})


CORRECTED = [
    ("user", "2027-02-02T20:00:00Z", "The team offsite is on Wednesday — no, sorry, Thursday."),
    (
        "user",
        "2027-02-02T20:02:00Z",
        "I ordered two pizzas for the offsite. Actually make that four.",
    ),
    (
        "user",
        "2027-02-02T20:05:00Z",
        "The offsite dessert is apple pie from the bakery on Elm Street.",
    ),
    (
        "user",
        "2027-02-02T20:15:00Z",
        "Correction on the dessert: it's cheesecake, they were sold out.",
    ),
]


def current_text(repo: DocumentsRepository) -> str:
    """Every current line of every page outside the archive, without the "Past" sections."""
    out = []
    for doc in repo.documents("main", "~/memory"):
        if doc.path.startswith("~/memory/archive"):
            continue
        past = False
        for line in doc.body.split("\n"):
            if line.startswith("## "):
                past = line == "## Past"
            elif not past:
                out.append(line)
    return "\n".join(out)


def test_a_value_corrected_as_it_is_said_is_kept_with_the_new_value_only(repo):
    run(repo, transcript("s-corr", *CORRECTED[:1]))
    now = current_text(repo)
    assert "2027-02-04" in now and "Thursday" in now
    assert "Wednesday" not in now


def test_make_that_replaces_the_value_just_said(repo):
    run(repo, transcript("s-corr", *CORRECTED[1:2]))
    now = current_text(repo)
    assert "ordered four pizzas" in now
    assert "two pizzas" not in now and "make that" not in now


def test_a_later_message_correcting_an_earlier_one_moves_the_old_one_to_past(repo):
    run(repo, transcript("s-corr", *CORRECTED[2:]))
    now = current_text(repo)
    assert "cheesecake" in now
    assert "apple pie" not in now
    notes = body(repo, "~/memory/notes")
    past = section(notes, "Past")
    assert "apple pie" in past and "corrected on 2027-02-02" in past


def test_what_the_assistant_read_from_a_tool_and_the_user_did_not_turn_down_is_kept(repo):
    run(
        repo,
        transcript(
            "s-tool",
            ("user", "2027-06-08T11:00:00Z", "What is the warranty on the Kettlecorp kettle?"),
            (
                "tool_call",
                "2027-06-08T11:00:05Z",
                {"id": "t1", "name": "web_fetch", "input": {"url": "https://k.example/w"}},
            ),
            (
                "tool_result",
                "2027-06-08T11:00:06Z",
                {"tool_use_id": "t1", "content": "Warranty: 24 months.", "is_error": False},
            ),
            ("assistant", "2027-06-08T11:00:10Z", "The kettle has a warranty of 24 months."),
            ("user", "2027-06-08T11:01:00Z", "Good to know."),
        ),
    )
    assert "warranty of 24 months" in current_text(repo)


def test_a_root_cause_the_user_confirms_with_that_worked_is_kept(repo):
    run(
        repo,
        transcript(
            "s-fix",
            ("user", MONDAY, "The nightly export of the ledger project keeps failing."),
            ("assistant", "2026-11-16T09:00:10Z", "The root cause is the disk quota on /var."),
            ("user", "2026-11-16T09:05:00Z", "That worked, the export ran."),
        ),
    )
    assert "root cause is the disk quota" in current_text(repo)


@pytest.mark.parametrize(
    ("said", "day"),
    [
        # what was told has its own tense: the telling is past, the race to come
        ("She mentioned her brother Tariq is running the Lisbon half on 19 October.", "2031-10-19"),
        ("He told me the reunion is on 4 November.", "2031-11-04"),
        # told of the past, it stays past
        ("She mentioned she was in Porto on 20 August.", "2031-08-20"),
    ],
)
def test_a_date_in_what_someone_told_takes_the_tense_of_what_was_told(said, day):
    from doctree.agent.offline.resolve import absolute_dates

    assert [d.isoformat() for _, d in absolute_dates(said, date(2031, 9, 2), by_clause=True)] == [
        day
    ]


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("whats Odile's job again?", False),
        ("What was the name of Odile's physio?", False),
        ("When is my dentist appointment?", False),
        # a question that tells something in a clause of its own, or with a figure
        ("What should I get Odile for her birthday on 12 May?", True),
        ("Which train should I take if Odile lands at Stansted?", True),
    ],
)
def test_a_question_that_only_asks_is_not_a_line_of_memory(said, kept):
    from doctree.agent.offline.file import worth_a_line
    from doctree.agent.offline.model import Sentence

    s = Sentence(time="2031-09-02T10:00:00Z", text=said, raw=said, speaker="the user")
    s.people.append("Odile")
    assert worth_a_line(s) is kept


def test_a_day_corrected_against_the_day_a_date_was_said_on_keeps_its_month(tmp_path):
    """ "I got Mum's birthday wrong, it's the 14th not the 12th", ten days after "Mum's
    birthday is on 12 March": 14 March, and the 12 March line goes under Past."""
    repo = DocumentsRepository(str(tmp_path / "m.db"))
    sessions = [
        ("s-mum-1", "2032-02-01T10:00:00Z", "Mum's birthday is on 12 March, she'll be 70."),
        (
            "s-mum-2",
            "2032-02-10T10:00:00Z",
            "I got Mum's birthday wrong, it's the 14th not the 12th.",
        ),
    ]
    from doctree.sessions.transcripts import format_transcript

    for sid, at, said in sessions:
        text = format_transcript(
            [{"kind": "user", "time": at, "content": said}], owner="main", session_id=sid
        )
        OfflineMemoryAgent().run(text, MemoryTools(repo, "main", session_id=sid))
    active = repo.read("main", "~/memory/active").body
    upcoming = active.split("## Upcoming", 1)[1].split("\n## ", 1)[0]
    assert "2032-03-14" in upcoming
    assert "2032-02-14" not in active
    assert "2032-03-12" not in upcoming


@pytest.mark.parametrize(
    ("said", "day"),
    [
        ("The sync job keeps failing since Monday, can you look?", "2032-04-05"),
        ("Ever since Friday my knee hurts.", "2032-04-02"),
        # "since" as "because": the day is the subject of its own clause
        ("We'll meet on Monday since Tuesday is full.", "2032-04-13"),
    ],
)
def test_a_day_after_since_is_gone(said, day):
    _, found = resolve_relative(said, date(2032, 4, 7), by_clause=True)
    assert day in [d.isoformat() for _, d in found]


@pytest.mark.parametrize(
    ("said", "day"),
    [
        ("The inspection is in a fortnight.", "2032-04-21"),
        ("The results come a fortnight from now.", "2032-04-21"),
        ("The hearing is a fortnight today.", "2032-04-21"),
        ("Payday is at the end of the month.", "2032-04-30"),
        ("The lease runs to the end of next month.", "2032-05-31"),
        ("The boiler broke at the end of the month.", "2032-03-31"),
    ],
)
def test_a_fortnight_and_the_end_of_the_month_are_days(said, day):
    _, found = resolve_relative(said, date(2032, 4, 7), by_clause=True)
    assert [d.isoformat() for _, d in found] == [day]
