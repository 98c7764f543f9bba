"""Retrieval: passages with their context, dates, speakers, and a context within budget."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest

from doctree.errors import UserError
from doctree.memory.dates import date_tokens
from doctree.memory.packing import Spread
from doctree.memory.passages import MAX_PASSAGE_WORDS, cut_document, document_date
from doctree.memory.query import addressed, parse_query
from doctree.memory.ranking import Settings
from doctree.memory.retrieval import rank_documents, retrieve
from doctree.store.documents import DocumentsRepository
from doctree.store.passages import PassageIndex, surroundings

OWNER = "main"
ROOT = Path(__file__).resolve().parents[2]


def session(day: str, turns: list[tuple[str, str]], number: int = 1) -> str:
    lines = ["---", f"date: {day}", "---", f"# Session {number}", ""]
    lines += [f"- **{who}** [S{number}:{i}]: {text}" for i, (who, text) in enumerate(turns, 1)]
    return "\n".join(lines) + "\n"


def write(repo: DocumentsRepository, path: str, body: str) -> None:
    repo.write(OWNER, path, body)


# -- dates -------------------------------------------------------------------------------


def test_yesterday_resolves_to_the_day_before_the_document_date():
    assert "d20230507" in date_tokens("I went to a support group yesterday.", date(2023, 5, 8))


def test_last_year_resolves_to_the_year_before():
    assert date_tokens("I painted that lake sunrise last year!", date(2023, 5, 8)) == ["y2022"]


def test_weeks_ago_resolves_to_the_month_it_fell_in():
    assert "m202304" in date_tokens("We moved two weeks ago.", date(2023, 5, 3))


def test_last_weekday_resolves_to_that_day():
    # 8 May 2023 was a Monday; the Friday before was 5 May.
    assert "d20230505" in date_tokens("Last Friday we hiked.", date(2023, 5, 8))


def test_absolute_dates_in_a_query_become_tokens():
    q = parse_query("What did Ann do on 7 May 2023?")
    assert "d20230507" in q.dates


def test_relative_dates_without_an_anchor_are_dropped():
    assert date_tokens("yesterday", None) == []


def test_document_date_comes_from_frontmatter_then_title():
    assert document_date("~/memory/x", "x", "---\ndate: 2023-05-08\n---\nbody") == date(2023, 5, 8)
    assert document_date("~/memory/x", "Trip on 9 June, 2023", "body") == date(2023, 6, 9)


def test_question_about_a_day_finds_the_turn_that_said_yesterday(repo):
    write(
        repo,
        "~/memory/archive/s1",
        session("2023-05-08", [("Ann", "I baked bread yesterday."), ("Bob", "Nice.")]),
    )
    write(
        repo,
        "~/memory/archive/s2",
        session("2023-07-20", [("Ann", "I baked bread this afternoon."), ("Bob", "Yum.")], 2),
    )
    ctx = retrieve(repo, OWNER, "What did Ann bake on 7 May 2023?", budget_words=9)
    assert [p.text for p in ctx.passages] == ["**Ann** [S1:1]: I baked bread yesterday."]


# -- passages ------------------------------------------------------------------------------


def test_each_turn_is_one_passage_with_its_speaker():
    rows = cut_document(
        "~/memory/s", "s", session("2023-05-08", [("Ann", "Hello there."), ("Bob", "Hi Ann.")])
    )
    assert [(r.speaker, r.text) for r in rows] == [
        ("Ann", "**Ann** [S1:1]: Hello there."),
        ("Bob", "**Bob** [S1:2]: Hi Ann."),
    ]


def test_passage_context_holds_the_neighbouring_turns():
    rows = cut_document(
        "~/memory/s",
        "s",
        session("2023-05-08", [("Bob", "Did you adopt the puppy?"), ("Ann", "Yes, on Tuesday!")]),
    )
    assert "adopt the puppy" in surroundings("s", [(r.text, r.heading) for r in rows])[1]


def test_reply_is_found_through_the_question_it_answers(repo):
    write(
        repo,
        "~/memory/archive/s1",
        session(
            "2023-05-08",
            [
                ("Bob", "Did you finally adopt the puppy?"),
                ("Ann", "Yes, on Tuesday! She is lovely."),
                ("Bob", "What are you reading these days?"),
                ("Ann", "A novel about sailors."),
            ],
        ),
    )
    ctx = retrieve(repo, OWNER, "When did Ann adopt the puppy?", budget_words=200)
    assert "**Ann** [S1:2]: Yes, on Tuesday! She is lovely." in [p.text for p in ctx.passages]


def test_messages_of_a_doctree_transcript_carry_their_role_as_speaker():
    body = (
        "# Transcript of session s1\n\n- agent: main\n\n## user \u00b7 2026-11-20T09:00:00Z\n\n"
        "I prefer tea.\n\n## assistant \u00b7 2026-11-20T09:00:05Z\n\nNoted.\n"
    )
    rows = cut_document("~/memory/archive/s1", "s1", body)
    assert [(r.speaker, r.text) for r in rows[-2:]] == [
        ("user", "I prefer tea."),
        ("assistant", "Noted."),
    ]


def test_a_label_opening_a_line_of_a_message_is_not_a_speaker():
    # An answer's bold labels and "Word:" openings are what the assistant said; the
    # message's speaker stays its heading's, down through the message's own subheadings.
    body = (
        "# Transcript of session s1\n\n## user \u00b7 2026-11-20T09:00:00Z\n\n"
        "How do I clean my ring?\n\n## assistant \u00b7 2026-11-20T09:00:05Z\n\n"
        "**Soak**: warm water and soap.\n\n- **Brush**: a soft toothbrush.\n"
        "- **Step 2:** rinse it.\n\n### Finishing\n\nNote: dry it with a cloth.\n"
    )
    rows = cut_document("~/memory/archive/s1", "s1", body)
    assert [r.speaker for r in rows] == ["user", "assistant", "assistant", "assistant", "assistant"]
    assert [r.text for r in rows][1:3] == [
        "**Soak**: warm water and soap.",
        "**Brush**: a soft toothbrush.",
    ]


def test_a_label_in_a_message_does_not_make_its_word_a_speakers_name(repo):
    body = (
        "# Transcript of session s1\n\n- agent: main\n\n## user \u00b7 2026-11-20T09:00:00Z\n\n"
        "Which polish should I use to finish the table?\n\n"
        "## assistant \u00b7 2026-11-20T09:00:05Z\n\n**Finish**: a coat of wax.\n"
    )
    write(repo, "~/memory/archive/s1", body)
    retrieve(repo, OWNER, "anything", budget_words=10)  # the passage index catches up
    speakers = PassageIndex(repo).speakers(OWNER)
    assert sorted(speakers) == ["assistant", "user"]
    assert parse_query("How do I finish the table?", speakers).names == []


def test_a_transcript_headings_after_its_messages_end_the_last_speaker():
    body = (
        "# Transcript of session s1\n\n## user \u00b7 2026-11-20T09:00:00Z\n\nHello.\n\n"
        "## Notes\n\nWritten later.\n"
    )
    rows = cut_document("~/memory/archive/s1", "s1", body)
    assert [(r.speaker, r.text) for r in rows] == [("user", "Hello."), (None, "Written later.")]


def test_markdown_is_cut_at_list_items_and_paragraphs_with_headings_as_context():
    body = "# Alice\n\n## Work\n\nShe leads the search team.\n\n- likes tea\n- hates meetings\n"
    rows = cut_document("~/memory/people/alice", "Alice", body)
    assert [r.text for r in rows] == [
        "She leads the search team.",
        "- likes tea",
        "- hates meetings",
    ]
    assert "Alice / Work" in surroundings("Alice", [(r.text, r.heading) for r in rows])[1]


def test_long_paragraph_is_split_into_sentences_within_the_passage_limit():
    body = " ".join(f"Sentence number {i} says something about the garden." for i in range(60))
    rows = cut_document("~/memory/notes", "notes", body)
    assert len(rows) > 1
    assert all(r.words <= MAX_PASSAGE_WORDS for r in rows)


# -- speakers and entities ---------------------------------------------------------------


def test_turns_of_the_named_speaker_rank_first(repo):
    write(
        repo,
        "~/memory/archive/s1",
        session(
            "2023-05-08",
            [
                ("Ann", "I play the guitar every evening."),
                ("Bob", "I play the guitar on weekends."),
            ],
        ),
    )
    ctx = retrieve(repo, OWNER, "When does Bob play the guitar?", budget_words=12)
    assert [p.speaker for p in ctx.passages] == ["Bob"]


CHAT = (
    "# Transcript of session s1\n\n## user \u00b7 2026-11-20T09:00:00Z\n\n"
    "I bought a red bike in March.\n\n## assistant \u00b7 2026-11-20T09:00:05Z\n\n"
    "A red bike bought in March, a good buy.\n"
)


@pytest.mark.parametrize(
    ("query", "whose"),
    [("Which bike did I buy?", "user"), ("Which bike did you say was a good buy?", "assistant")],
)
def test_a_question_in_the_first_person_prefers_the_users_turns_and_one_to_you_the_assistants(
    repo, query, whose
):
    write(repo, "~/memory/archive/s1", CHAT)
    settings = Settings(person_boost=1.0, headers=False)
    ctx = retrieve(repo, OWNER, query, budget_words=10, settings=settings)
    assert [p.speaker for p in ctx.passages] == [whose]


@pytest.mark.parametrize(
    ("query", "whose"),
    [
        ("What did you suggest for the garden?", "assistant"),
        ("You mentioned a book on tea; which one?", "assistant"),
        ("Can you remind me of that restaurant's name?", "assistant"),
        ("Can you recommend a hotel for my trip?", "user"),  # a request: about the user
        ("How many days did I spend in Hawaii?", "user"),
        ("Where did Rachel move to?", None),
    ],
)
def test_whose_words_a_question_asks_about(query, whose):
    assert addressed(query) == whose


def test_link_lines_are_left_out_of_a_context_and_the_facts_kept(repo):
    write(
        repo,
        "~/memory/people/juan",
        "# Juan\n\n- week: [[~/memory/archive/2023-W20]]\n- [[~/memory/people/juan]]\n"
        "- 2023-05-20: [[~/memory/archive/2023-W20/s13|s13]]\n"
        "- Juan tutors the user in Spanish every Wednesday. ([[~/memory/archive/s13|s13]])\n",
    )
    ctx = retrieve(repo, OWNER, "When does Juan meet the user?", budget_words=200)
    assert [p.text for p in ctx.passages] == [
        "- Juan tutors the user in Spanish every Wednesday. ([[~/memory/archive/s13|s13]])"
    ]
    kept = retrieve(repo, OWNER, "Juan", budget_words=200, settings=Settings(skip_bare=False))
    assert len(kept.passages) == 4


def test_speaker_names_are_recognised_in_the_query():
    q = parse_query("What is Melanie's favourite dish?", speakers=["Melanie", "Caroline"])
    assert q.names == ["Melanie"]
    assert "melanie" in q.terms


def test_proper_names_that_are_not_speakers_are_entities():
    q = parse_query("Did Caroline visit Sweden last year?", speakers=["Caroline", "Melanie"])
    assert q.entities == ["sweden"]


def test_entity_boost_prefers_passages_naming_the_entity(repo):
    body = "- Big lakes, big big lakes, up north.\n- Sweden has lakes.\n"
    write(repo, "~/memory/trips", body)
    query = "Which big lakes are in Sweden?"
    plain = retrieve(repo, OWNER, query, budget_words=10, settings=Settings(entity_boost=0.0))
    boosted = retrieve(repo, OWNER, query, budget_words=10, settings=Settings(entity_boost=2.0))
    assert [p.text for p in plain.passages] == ["- Big lakes, big big lakes, up north."]
    assert [p.text for p in boosted.passages] == ["- Sweden has lakes."]


def test_word_pairs_of_the_query_become_phrases():
    assert "support group" in parse_query("Where is the LGBTQ support group?").phrases


def test_when_question_prefers_the_turn_that_says_when(repo):
    write(
        repo,
        "~/memory/archive/s1",
        session(
            "2023-05-08",
            [
                ("Ann", "The charity race was great fun."),
                ("Ann", "I ran the charity race last week."),
            ],
        ),
    )
    ctx = retrieve(repo, OWNER, "When did Ann run the charity race?", budget_words=14)
    assert [p.seq for p in ctx.passages] == [1]


def test_newer_document_wins_a_tie(repo):
    write(repo, "~/memory/archive/old", session("2023-01-01", [("Ann", "My car is blue.")]))
    write(repo, "~/memory/archive/new", session("2023-09-01", [("Ann", "My car is blue.")], 2))
    ctx = retrieve(repo, OWNER, "What colour is the car?", budget_words=9)
    assert [p.path for p in ctx.passages] == ["~/memory/archive/new"]


# -- the context -------------------------------------------------------------------------


@pytest.fixture
def filled(repo):
    for n in range(1, 6):
        turns = [
            (
                "Ann" if i % 2 else "Bob",
                f"Turn {i} of day {n} mentions the garden and tomatoes {i}.",
            )
            for i in range(1, 12)
        ]
        write(repo, f"~/memory/archive/s{n}", session(f"2023-05-0{n}", turns, n))
    return repo


@pytest.mark.parametrize("budget", [0, 1, 5, 13, 40, 99, 250, 1000])
def test_context_never_exceeds_the_budget(filled, budget):
    ctx = retrieve(filled, OWNER, "What grows in the garden? tomatoes", budget_words=budget)
    assert ctx.words <= budget


def test_context_passages_are_whole_turns_grouped_under_a_dated_header(filled):
    ctx = retrieve(filled, OWNER, "tomatoes in the garden on day 3", budget_words=120)
    lines = ctx.text.splitlines()
    assert lines[0].startswith("## ~/memory/archive/s")
    assert lines[0].endswith(")")
    bodies = {filled.read(OWNER, p.path).body for p in ctx.passages}
    for p in ctx.passages:
        assert any(p.text in b for b in bodies)


def test_editing_a_document_updates_what_is_retrieved(repo):
    words = Settings(mode="lexical")  # by meaning, roses are near enough to bees
    write(repo, "~/memory/people/ann", "Ann keeps bees.")
    assert retrieve(repo, OWNER, "bees", budget_words=50, settings=words).passages
    repo.edit(OWNER, "~/memory/people/ann", "keeps bees", "grows roses")
    assert not retrieve(repo, OWNER, "bees", budget_words=50, settings=words).passages
    assert retrieve(repo, OWNER, "roses", budget_words=50, settings=words).passages


def test_deleted_document_is_no_longer_retrieved(repo):
    write(repo, "~/memory/people/ann", "Ann keeps bees.")
    retrieve(repo, OWNER, "bees", budget_words=50)
    repo.delete(OWNER, "~/memory/people/ann")
    assert retrieve(repo, OWNER, "bees", budget_words=50).passages == []


def test_moved_document_is_retrieved_at_its_new_path(repo):
    write(repo, "~/memory/people/ann", "Ann keeps bees.")
    retrieve(repo, OWNER, "bees", budget_words=50)
    repo.move(OWNER, "~/memory/people/ann", "~/memory/friends/ann")
    ctx = retrieve(repo, OWNER, "bees", budget_words=50)
    assert [p.path for p in ctx.passages] == ["~/memory/friends/ann"]


def test_store_search_can_serve_as_the_document_prior(repo):
    write(repo, "~/memory/people/ann", "Ann keeps bees.\n\nAnn sells honey from her bees.")
    write(repo, "~/memory/people/bob", "Bob once saw bees.")
    ctx = retrieve(
        repo, OWNER, "bees honey", budget_words=50, settings=Settings(document_prior="store")
    )
    best = max(ctx.passages, key=lambda p: p.score)
    assert best.text == "Ann sells honey from her bees."
    assert len(ctx.passages) == 3


def test_documents_rank_by_their_best_passages_not_by_stopwords(repo):
    write(repo, "~/memory/people/ann", "Ann keeps bees in the garden.\n\nHer bees make honey.")
    write(repo, "~/memory/notes", "What is it that they were doing when it was there?")
    words = Settings(mode="lexical")  # by meaning, any sentence is somewhat near
    ranked = rank_documents(repo, OWNER, "What is it that Ann keeps?", settings=words)
    assert [r.path for r in ranked] == ["~/memory/people/ann"]


def test_retrieval_stays_under_the_given_path_and_owner(repo):
    write(repo, "~/memory/people/ann", "Ann keeps bees.")
    write(repo, "~/notes/bees", "Bees make honey.")
    repo.write("other", "~/memory/bees", "Other agent's bees.")
    ctx = retrieve(repo, OWNER, "bees", budget_words=100)
    assert [p.path for p in ctx.passages] == ["~/memory/people/ann"]


def test_negative_budget_is_refused_naming_the_value(repo):
    with pytest.raises(UserError, match="budget_words -1"):
        retrieve(repo, OWNER, "bees", budget_words=-1)


def test_query_of_only_stopwords_gives_an_empty_context(repo):
    write(repo, "~/memory/people/ann", "Ann keeps bees.")
    assert retrieve(repo, OWNER, "what is it that they were", budget_words=100).text == ""


def test_rank_documents_is_empty_when_no_passage_matches(repo):
    write(repo, "~/memory/people/ann", "Ann keeps bees.")
    assert rank_documents(repo, OWNER, "volcano eruption") == []


def test_document_named_for_the_query_ranks_first(repo):
    write(repo, "~/memory/archive/s-1", "Apollo launch moved. The launch is later now.")
    write(repo, "~/memory/projects/apollo", "The launch date is December 8.")
    ranked = rank_documents(repo, OWNER, "when is the Apollo launch")
    assert [r.path for r in ranked] == ["~/memory/projects/apollo", "~/memory/archive/s-1"]


def test_name_boost_zero_ranks_by_passages_alone(repo):
    write(repo, "~/memory/archive/s-1", "Apollo launch moved. The launch is later now.")
    write(repo, "~/memory/projects/apollo", "The launch date is December 8.")
    ranked = rank_documents(
        repo, OWNER, "when is the Apollo launch", settings=Settings(name_boost=0.0)
    )
    assert ranked[0].path == "~/memory/archive/s-1"


def test_passages_carry_the_version_of_their_document(repo):
    write(repo, "~/memory/people/ann", "Ann keeps bees.")
    write(repo, "~/memory/people/ann", "Ann keeps bees and goats.")
    ctx = retrieve(repo, OWNER, "bees", budget_words=100)
    assert [(p.path, p.version) for p in ctx.passages] == [("~/memory/people/ann", 2)]


def _read_only(db_path) -> DocumentsRepository:
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, isolation_level=None)
    conn.row_factory = sqlite3.Row
    return DocumentsRepository(conn)


@pytest.mark.sqlite_only
def test_retrieve_on_a_read_only_database_leaves_out_documents_changed_since_indexing(
    db_path, repo
):
    write(repo, "~/memory/people/ann", "Ann keeps bees.")
    write(repo, "~/memory/people/bob", "Bob keeps bees.")
    retrieve(repo, OWNER, "bees", budget_words=100)  # indexes both
    write(repo, "~/memory/people/bob", "Bob gave his bees away.")
    ro = _read_only(db_path)
    ctx = retrieve(ro, OWNER, "bees", budget_words=100)
    ro.conn.close()
    assert [p.path for p in ctx.passages] == ["~/memory/people/ann"]
    assert ctx.left_out == 1


@pytest.mark.sqlite_only
def test_retrieve_on_a_read_only_database_with_a_current_index_leaves_nothing_out(db_path, repo):
    write(repo, "~/memory/people/ann", "Ann keeps bees.")
    retrieve(repo, OWNER, "bees", budget_words=100)
    ro = _read_only(db_path)
    ctx = retrieve(ro, OWNER, "bees", budget_words=100)
    ro.conn.close()
    assert ctx.left_out == 0 and [p.path for p in ctx.passages] == ["~/memory/people/ann"]


# -- the benchmark -----------------------------------------------------------------------


@pytest.mark.slow
def test_locomo_benchmark_skips_cleanly_without_the_data(tmp_path):
    env = {**os.environ, "DOCTREE_LOCOMO": str(tmp_path)}
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "locomo.py")],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0
    assert "skipping" in out.stdout


def test_a_time_in_the_question_favours_the_session_of_that_day(repo):
    # Two sessions say the same; the question asks about two weeks before 5 May.
    write(repo, "~/memory/archive/s1", session("2023-04-21", [("Ann", "I planted tomatoes.")]))
    write(repo, "~/memory/archive/s2", session("2023-05-02", [("Ann", "I planted tomatoes.")], 2))
    question = "What did Ann plant two weeks ago?"
    asked = retrieve(repo, OWNER, question, budget_words=9, now=date(2023, 5, 5))
    assert [p.path for p in asked.passages] == ["~/memory/archive/s1"]
    # Asked on another day, the period holds neither: the newer session wins the tie.
    later = retrieve(repo, OWNER, question, budget_words=9, now=date(2024, 1, 10))
    assert [p.path for p in later.passages] == ["~/memory/archive/s2"]
    off = Settings(window_boost=0.0)
    plain = retrieve(repo, OWNER, question, budget_words=9, now=date(2023, 5, 5), settings=off)
    assert [p.path for p in plain.passages] == ["~/memory/archive/s2"]


# -- spread: diminishing returns per document ----------------------------------------------


def test_spread_discounts_a_source_only_for_what_the_filler_took():
    ranked = [(10.0, "a1"), (9.0, "a2"), (8.0, "a3"), (5.0, "b1")]

    def order(took: set[str], after: int, discount: float) -> list[str]:
        spread = Spread(ranked, lambda x: x[0], after, discount)
        out = []
        for _, item in spread:
            out.append(item)
            if item in took:
                spread.took(item)
        return out

    everything = {"a1", "a2", "a3", "b1"}
    assert order(everything, 1, 0.5) == ["a1", "b1", "a2", "a3"]  # a2: 9 x 0.5 < 5
    assert order(everything, 2, 0.5) == ["a1", "a2", "b1", "a3"]  # a3: 8 x 0.5 < 5
    assert order(everything, 0, 0.5) == ["a1", "a2", "a3", "b1"]  # off
    assert order(everything, 1, 1.0) == ["a1", "a2", "a3", "b1"]  # no discount: off
    assert order(everything, 1, 0.0) == ["a1", "b1", "a2", "a3"]  # after every other source's
    # a passage the budget skipped (too long) is not counted against its document
    assert order({"a2", "a3", "b1"}, 1, 0.5) == ["a1", "a2", "b1", "a3"]


@pytest.mark.parametrize(
    ("after", "discount"), [(-1, 0.5), (1.5, 0.5), (True, 0.5), (1, -0.1), (1, 1.5), (1, "0.5")]
)
def test_a_spread_setting_out_of_range_is_refused_naming_it(repo, after, discount):
    write(repo, "~/memory/notes/roses", "The garden roses bloomed.\n")
    with pytest.raises(UserError, match="spread_"):
        retrieve(
            repo,
            OWNER,
            "garden roses",
            budget_words=40,
            settings=Settings(spread_after=after, spread_discount=discount),
        )
    assert repo.read(OWNER, "~/memory/notes/roses").body == "The garden roses bloomed.\n"


ROSES = [
    ("Ann", "My garden roses bloomed red this week."),
    ("Bob", "Red roses in a garden are lovely."),
    ("Ann", "The garden roses need water daily."),
    ("Bob", "Garden roses like the morning sun."),
]


def test_a_document_that_gave_passages_gives_the_next_at_a_discount(repo):
    """The budget is not spent on one document's every passage while another document's
    passage about the same thing waits: the evidence of a question is often in several."""
    write(repo, "~/memory/archive/s1", session("2023-05-08", ROSES))
    other = [("Ann", "I cut some roses for the table yesterday.")]
    write(repo, "~/memory/archive/s2", session("2023-06-01", other, 2))
    spread = Settings(spread_after=2, spread_discount=0.0)
    ctx = retrieve(repo, OWNER, "garden roses", budget_words=40, settings=spread)
    assert "I cut some roses for the table yesterday." in ctx.text
    assert ctx.words <= 40
    off = Settings(spread_after=0)
    ctx = retrieve(repo, OWNER, "garden roses", budget_words=40, settings=off)
    assert {p.path for p in ctx.passages} == {"~/memory/archive/s1"}


# -- repeats: a passage the context already says -------------------------------------------

STORY = "I told the workshop about my garden roses and how the red ones bloomed early this spring."


def test_a_passage_the_context_already_says_is_not_taken_again(repo):
    """A turn said again in a later session (pasted, quoted, retold) does not spend the
    budget twice: the room goes to the next passage."""
    write(repo, "~/memory/archive/s1", session("2023-05-08", [("Ann", STORY)]))
    write(repo, "~/memory/archive/s2", session("2023-05-20", [("Ann", "Again: " + STORY)], 2))
    other = [("Ann", "The garden roses need water daily.")]
    write(repo, "~/memory/archive/s3", session("2023-06-01", other, 3))
    budget = 48  # two of the three turns, with their headers
    on = Settings(repeated=0.5)
    ctx = retrieve(repo, OWNER, "garden roses bloomed", budget_words=budget, settings=on)
    assert ctx.text.count("how the red ones bloomed early this spring") == 1
    assert "The garden roses need water daily." in ctx.text
    assert ctx.words <= budget
    off = Settings(repeated=0.0)
    ctx = retrieve(repo, OWNER, "garden roses bloomed", budget_words=budget, settings=off)
    assert ctx.text.count("how the red ones bloomed early this spring") == 2


@pytest.mark.parametrize("share", [-0.5, 1.5, "half"])
def test_a_repeated_share_out_of_range_is_refused_naming_it(repo, share):
    write(repo, "~/memory/notes/roses", "The garden roses bloomed.\n")
    with pytest.raises(UserError, match="repeated"):
        retrieve(repo, OWNER, "garden roses", budget_words=40, settings=Settings(repeated=share))


def test_page_lines_of_one_session_do_not_repeat_each_other_through_their_citation(repo):
    """Every line a session wrote cites it the same way ("([[~/memory/archive/…|s-…]])")
    and opens on its date: those are not what the line says, so two different facts of one
    session are both taken."""
    cite = "([[~/memory/archive/2031-W10/s-kiln-2031-03-04|s-kiln-2031-03-04]])"
    body = (
        "# Kiln\n\n## Facts\n\n"
        f"- 2031-03-04: The kiln firing is booked for Saturday. {cite}\n"
        f"- 2031-03-04: The glaze order ships from Stoke. {cite}\n"
    )
    write(repo, "~/memory/projects/kiln", body)
    on = Settings(repeated=0.5)
    ctx = retrieve(repo, OWNER, "kiln firing glaze order", budget_words=200, settings=on)
    assert "The kiln firing is booked for Saturday." in ctx.text
    assert "The glaze order ships from Stoke." in ctx.text


def test_a_page_line_said_twice_on_purpose_is_taken_twice(repo):
    """A page says one fact in more than one place on purpose (a person's page and the
    notes): the repeats rule leaves out only a turn of a conversation said again."""
    line = "The kiln firing for the pottery class is booked for Saturday morning at nine."
    write(repo, "~/memory/people/ottilie", f"# Ottilie\n\n## Facts\n\n- {line}\n")
    write(repo, "~/memory/notes", f"# Notes\n\n## Facts\n\n- {line}\n")
    ctx = retrieve(repo, OWNER, "kiln firing pottery class", budget_words=200)
    assert ctx.text.count(line) == 2


def test_a_short_passage_that_differs_by_its_last_word_is_no_repeat():
    """ "Record 1: the word is porcupine" after "Record 1: the word is marmalade": five of
    its six words in a held run, yet what it says is the one word that differs."""
    from doctree.memory.packing import Repeats

    said = Repeats(0.5, "Record 1: the word is marmalade.")
    assert not said.repeats("Record 1: the word is porcupine.")
    story = "I told the workshop about my garden roses and how the red ones bloomed early"
    said.add(story)
    assert said.repeats(story + " this spring.")
