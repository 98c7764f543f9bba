"""A thing taken back is found in the words that say it, also when they are another form
than the request's: "the loan" is said by "lent", "the sale" by "sold", a job lost by "laid
off", and a person's news by that person telling it. Another person's loan, and the
person's other lines, stay."""

from __future__ import annotations

import pytest

from doctree.agent.offline.forms import said_forms
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import current_facts, run, transcript

DAY1 = "2031-05-05T18:00:00Z"
DAY2 = "2031-05-12T09:00:00Z"


def loans(repo: DocumentsRepository) -> None:
    run(
        repo,
        transcript(
            "s-money",
            ("user", DAY1, "My uncle Omar lent me £3,500 towards the van."),
            ("user", "2031-05-05T18:02:00Z", "Omar is coming for dinner on Friday."),
            ("user", "2031-05-05T18:04:00Z", "My friend Lidia lent me her pressure washer."),
        ),
    )


@pytest.mark.parametrize(
    "request_",
    [
        "Scrap the note about Omar's loan entirely, he says it's a gift now.",
        "Forget what I told you about Omar and the loan.",
        "Please take out the bit about Omar's loan.",
    ],
)
def test_a_loan_said_as_lent_goes_and_the_rest_stays(repo, request_):
    loans(repo)
    run(repo, transcript("s-ask", ("user", DAY2, request_)))
    facts = current_facts(repo)
    assert "3,500" not in facts
    assert "dinner" in facts  # Omar's other line
    assert "pressure washer" in facts  # another person's loan


def test_a_loan_said_in_this_session_goes_before_it_is_written(repo):
    run(
        repo,
        transcript(
            "s-one",
            ("user", DAY1, "My uncle Omar lent me £3,500 towards the van."),
            ("user", "2031-05-05T18:02:00Z", "Omar is coming for dinner on Friday."),
            ("user", "2031-05-05T18:03:00Z", "Actually, forget what I said about Omar's loan."),
        ),
    )
    facts = current_facts(repo)
    assert "3,500" not in facts and "dinner" in facts


@pytest.mark.parametrize(
    "request_",
    [
        "Take out what I told you about Ines's news, she hasn't told her family yet.",
        "Don't keep anything about Ines's news.",
        "Can you drop the stuff about Ines's announcement?",
    ],
)
def test_a_persons_news_is_what_she_told(repo, request_):
    run(
        repo,
        transcript(
            "s-news",
            ("user", DAY1, "Ines plays the cello in our quartet."),
            (
                "user",
                "2031-05-05T18:02:00Z",
                "Ines told me after rehearsal that she's moving to Porto.",
            ),
            ("user", "2031-05-05T18:04:00Z", "Tomas told me that the hall is booked until June."),
        ),
    )
    run(repo, transcript("s-ask", ("user", DAY2, request_)))
    facts = current_facts(repo)
    assert "Porto" not in facts
    assert "cello" in facts  # her other line
    assert "hall is booked" in facts  # what someone else told


def test_a_job_lost_is_said_by_laid_off(repo):
    run(
        repo,
        transcript(
            "s-work",
            ("user", DAY1, "My brother Karl was laid off last week."),
            ("user", "2031-05-05T18:02:00Z", "Karl is running the Berlin marathon in September."),
        ),
    )
    run(repo, transcript("s-ask", ("user", DAY2, "Forget what I said about Karl losing his job.")))
    facts = current_facts(repo)
    assert "laid off" not in facts and "marathon" in facts


@pytest.mark.parametrize(
    ("text", "noun"),
    [
        ("Omar lent me the money", "loan"),
        ("we sold the old piano", "sale"),
        ("she still owes me £40", "debt"),
        ("he was made redundant", "job"),
        ("Ana told me she is pregnant", "news"),
    ],
)
def test_the_noun_a_form_says(text, noun):
    assert noun in said_forms(text).split()


@pytest.mark.parametrize(
    "text", ["I gave Tom a lift", "we paid the builder", "Ana is telling the others soon"]
)
def test_forms_that_say_other_things_add_nothing(text):
    assert said_forms(text) == text
