"""A request to forget one thing said in a line with others takes that clause only: the
line keeps what else it says when that still reads as a statement, and goes whole only when
nothing readable is left. The forgotten clause is nowhere in current memory afterwards."""

from __future__ import annotations

import pytest

from doctree.agent.offline.clauses import clause_left, forget_clause
from doctree.agent.offline.language import content_words, forget_request
from tests.agent.offline_runs import everything, run, transcript

DAY1 = "2027-05-03T18:00:00Z"
DAY2 = "2027-05-04T09:00:00Z"


@pytest.mark.parametrize(
    ("said", "thing", "left"),
    [
        ("Mira is staying at the Lakeside Inn and she snores like a tractor.", "snoring",
         "Mira is staying at the Lakeside Inn."),
        ("Mira is staying at the Lakeside Inn, and she snores like a tractor.", "snoring",
         "Mira is staying at the Lakeside Inn."),
        ("Mira is staying at the Lakeside Inn; she snores like a tractor.", "snoring",
         "Mira is staying at the Lakeside Inn."),
        ("Mira is staying at the Lakeside Inn but she snores like a tractor.", "snoring",
         "Mira is staying at the Lakeside Inn."),
        ("Mira, who snores like a tractor, is staying at the Lakeside Inn.", "snoring",
         "Mira is staying at the Lakeside Inn."),
        ("Mira snores like a tractor, and she is staying at the Lakeside Inn.", "snoring",
         "She is staying at the Lakeside Inn."),
        ("The van comes at 8, the gym membership renews in June, and the boiler is fixed.",
         "gym membership", "The van comes at 8, and the boiler is fixed."),
        ("Ma tante Mira loge à l'hôtel Dupont, et elle ronfle comme un tracteur.", "ronfle",
         "Ma tante Mira loge à l'hôtel Dupont."),
        ("Meine Tante Mira wohnt im Hotel Adler, aber sie schnarcht sehr laut.", "schnarcht",
         "Meine Tante Mira wohnt im Hotel Adler."),
        ("Mi tía Mira se queda en el Hotel Sol y ella ronca muchísimo.", "ronca",
         "Mi tía Mira se queda en el Hotel Sol."),
        # an aside in brackets is cut nowhere inside; it goes with its clause
        ("Mira has the spare room and Tom's booked the inn because she snores (Mira, not Tom, "
         "he would kill me).", "snores", "Mira has the spare room and Tom's booked the inn."),
    ],
)  # fmt: skip
def test_a_clause_is_taken_and_the_rest_of_the_statement_stays(said, thing, left):
    assert clause_left(said, content_words(thing)) == left


@pytest.mark.parametrize(
    ("said", "thing"),
    [
        # what leans on the forgotten clause goes with it: nothing readable is left
        ("He is allergic to penicillin, so they'll use something else after surgery.",
         "penicillin"),
        ("On the day after the party, she snores.", "snoring"),  # a fragment is no statement
        ("Mira and Tom snore at the inn.", "snore"),  # one clause: the whole line goes
        ("The renovation starts in May. The budget is 18,000 euros.", "renovation"),
        # a clause opening on "he" or "she" right after the forgotten one goes on about it
        ("Sorry for Oksana, since the separation she only has Sundays, he keeps the car.",
         "separation"),
    ],
)  # fmt: skip
def test_a_line_goes_whole_when_no_statement_would_be_left(said, thing):
    assert clause_left(said, content_words(thing)) is None


def test_a_labelled_line_or_a_quoted_opening_is_never_cut():
    assert forget_clause("- Role: the inn's cook, and she snores", {"snores"}) is None
    assert forget_clause("- `Mira is at the inn and she snores.`", {"snores"}) is None


def test_the_page_line_keeps_its_day_and_citation():
    line = "- 2027-05-03: Mira is at the inn and she snores. ([[~/memory/archive/w/s|s]])"
    assert forget_clause(line, {"snoring"}) == (
        "- 2027-05-03: Mira is at the inn. ([[~/memory/archive/w/s|s]])"
    )


FACTS = [
    ("user", DAY1, "My aunt Mira is staying at the Lakeside Inn and she snores like a tractor."),
    ("user", "2027-05-03T18:02:00Z", "Mira plays the cello in a quartet."),
    ("user", "2027-05-03T18:04:00Z", "My gym is Urban Climb in Hackney, I go on Tuesdays."),
]


@pytest.mark.parametrize(
    "request_",
    [
        "Please forget about the snoring.",
        "Forget what I told you about Mira and the snoring.",
        "Mira came round again. Please forget that she snores.",
        "Forget that Mira snores.",
    ],
)
def test_forgetting_one_thing_of_a_line_keeps_the_others_in_a_later_session(repo, request_):
    run(repo, transcript("s-facts", *FACTS))
    assert "snores" in everything(repo)
    run(repo, transcript("s-ask", ("user", DAY2, request_)))
    mira = repo.read("main", "~/memory/people/mira").body
    assert "snor" not in mira.lower()
    assert "Mira is staying at the Lakeside Inn." in mira
    assert "cello" in mira
    assert "Urban Climb" in everything(repo)
    assert "snor" not in everything(repo).lower()  # the session pages included


def test_forgetting_one_thing_in_the_same_session_keeps_the_rest_of_its_sentence(repo):
    run(
        repo,
        transcript(
            "s-facts",
            *FACTS,
            ("user", "2027-05-03T18:06:00Z", "Actually, forget that she snores."),
        ),
    )
    assert "snor" not in everything(repo).lower()  # the session page included
    mira = repo.read("main", "~/memory/people/mira").body
    assert "Mira is staying at the Lakeside Inn." in mira
    assert "cello" in mira


def test_forgetting_that_she_snores_when_two_women_could_be_meant_removes_nothing(repo):
    run(
        repo,
        transcript(
            "s-facts",
            *FACTS,
            ("user", "2027-05-03T18:06:00Z", "My sister Dana snores as well, and she sings."),
        ),
    )
    run(repo, transcript("s-ask", ("user", DAY2, "Forget that she snores.")))
    assert "snores like a tractor" in repo.read("main", "~/memory/people/mira").body
    assert "snores as well" in repo.read("main", "~/memory/people/dana").body


@pytest.mark.parametrize(
    ("sentence", "asked"),
    [
        ("Please forget that she snores.", (True, "she snores")),
        ("Also, forget that my brother smokes.", (True, "my brother smokes")),
        ("Don't forget that she snores.", None),
        ("I always forget that she snores.", None),
        ("Forget that, she is fine.", (True, None)),
        ("Forget that I said that.", (True, None)),
    ],
)
def test_forget_that_with_a_clause_names_the_clause(sentence, asked):
    assert forget_request(sentence) == asked


def test_a_date_said_in_the_forgotten_clause_goes_with_it(repo):
    run(
        repo,
        transcript(
            "s-facts",
            ("user", DAY1, "My aunt Mira is at the Lakeside Inn, and her knee scan is on May 20."),
            ("user", "2027-05-03T18:06:00Z", "Actually, forget about the knee scan."),
        ),
    )
    text = everything(repo)
    assert "scan" not in text.lower() and "2027-05-20" not in text
    assert "Mira is at the Lakeside Inn." in repo.read("main", "~/memory/people/mira").body
