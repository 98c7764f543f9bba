"""What the user takes back as untrue ("that was a joke", "I was only kidding about …",
"scratch that about …") leaves memory: the statement said last, or the thing named, and
nothing else; what they say holds instead is kept."""

from __future__ import annotations

import pytest

from doctree.agent.offline import language as lang
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import current_facts, run, transcript

DAY1 = "2031-06-02T18:00:00Z"
DAY2 = "2031-06-06T09:00:00Z"


def said(repo: DocumentsRepository) -> None:
    run(
        repo,
        transcript(
            "s-one",
            ("user", DAY1, "My flatmate Odile is quitting to join a circus in Montreal."),
            ("user", "2031-06-02T18:02:00Z", "The boiler service is on the 14th."),
        ),
    )


@pytest.mark.parametrize(
    "request_",
    [
        "About Odile joining the circus - that was a joke, don't keep it.",
        "I was only kidding about Odile joining a circus.",
        "Scratch that about Odile quitting, she's staying.",
        "Scrap that about the circus.",
    ],
)
def test_a_thing_taken_back_as_untrue_in_a_later_session_goes(repo, request_):
    said(repo)
    run(repo, transcript("s-two", ("user", DAY2, request_)))
    facts = current_facts(repo)
    assert "circus" not in facts
    assert "boiler" in facts


@pytest.mark.parametrize(
    "taken_back",
    [
        "That was a joke, she's staying with us.",
        "lol I was only kidding, she's staying with us.",
        "Sorry, that's not true, she's staying with us.",
    ],
)
def test_the_statement_said_last_is_taken_back_and_what_holds_instead_is_kept(repo, taken_back):
    run(
        repo,
        transcript(
            "s-one",
            ("user", DAY1, "The boiler service is on the 14th."),
            ("user", "2031-06-02T18:01:00Z", "My flatmate Odile is joining a circus in Montreal."),
            ("user", "2031-06-02T18:02:00Z", taken_back),
        ),
    )
    facts = current_facts(repo)
    assert "circus" not in facts
    assert "boiler" in facts  # said before it, in another message
    assert "staying with us" in facts


@pytest.mark.parametrize(
    "sentence",
    [
        "That meeting was a joke of a meeting.",
        "That was a joke, right?",
        "The whole thing was a joke.",
        "He told me it was a joke at first.",
    ],
)
def test_a_joke_spoken_of_takes_nothing_back(sentence):
    assert lang.forget_request(sentence) is None


def test_dont_keep_it_is_no_request_withdrawn():
    assert lang.WITHDRAWN.search("Forget that, don't keep it.") is None
    assert lang.WITHDRAWN.search("Forget that. Actually, keep it.") is not None


@pytest.mark.parametrize(
    "sentence",
    [
        "Don't forget what I told you about the circus.",
        "I can't forget what I told you about the circus.",
        "Please never forget what I said about the circus.",
        "Don't forget what I told you yesterday about the circus, it matters.",
    ],
)
def test_a_forget_said_negated_removes_nothing(repo, sentence):
    said(repo)
    run(repo, transcript("s-two", ("user", "2031-06-03T09:00:00Z", sentence)))
    assert "circus" in current_facts(repo)
