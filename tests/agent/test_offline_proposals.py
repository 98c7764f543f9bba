"""The assistant's proposals ("How about …?", "Shall we …?") are facts only when the user's
next message takes them up: an acceptance keeps what was proposed, a counter-proposal keeps
it with the user's value, a refusal keeps nothing."""

from __future__ import annotations

import pytest

from doctree.agent.offline import language as lang
from doctree.agent.offline.model import Sentence
from doctree.agent.offline.proposals import countered, proposed
from tests.agent.offline_runs import current_facts, run, transcript


@pytest.mark.parametrize(
    ("question", "statement"),
    [
        ("How about the 10:15 ferry to Cherbourg?", "The 10:15 ferry to Cherbourg."),
        ("Shall we book the window table at Ostro?", "Book the window table at Ostro."),
        ("What about a picnic at Leith Hill on Sunday?", "A picnic at Leith Hill on Sunday."),
        ("Would you like to add a boat trip at 3pm?", "Add a boat trip at 3pm."),
    ],
)
def test_a_proposal_is_said_as_the_statement_it_proposes(question, statement):
    assert proposed(question) == statement


@pytest.mark.parametrize(
    "sentence",
    [
        "How are you getting there?",
        "The ferry leaves at 10:15.",
        "Shall I write it up as a spreadsheet?",
        "Would you like me to draft the e-mail?",
        "What time is it?",
    ],
)
def test_other_sentences_propose_nothing(sentence):
    assert proposed(sentence) is None


def _offer(text: str) -> Sentence:
    return Sentence("2031-04-01T10:00:00Z", text, kinds=["finding", "proposal"], raw=text)


def test_a_counter_proposal_replaces_the_value_of_its_kind():
    offers = [_offer("Set a budget of £400 for the trip.")]
    assert countered("make it £500, the hotel is dearer", offers) == (
        0,
        "Set a budget of £500 for the trip.",
        "the hotel is dearer",
    )


def test_a_counter_proposal_between_two_values_of_its_kind_replaces_nothing():
    offers = [_offer("Leave at 10am so you're there for the 2pm check-in.")]
    assert countered("let's say 12:30", offers) is None


@pytest.mark.parametrize("reply", ["👍", "👍 booked it", "👌", "✅ done"])
def test_an_emoji_of_approval_accepts(reply):
    assert lang.accepts(reply)


def test_what_the_user_takes_up_is_kept_and_what_is_declined_is_not(repo):
    run(
        repo,
        transcript(
            "s-prop",
            ("user", "2031-04-01T10:00:00Z", "My parents' ruby anniversary is in May and I need ideas."),
            ("assistant", "2031-04-01T10:01:00Z", "How about a river cruise on the Dart, Saturday 17 May? The Kingswear boat has a lunch sitting at £38 a head."),
            ("user", "2031-04-01T10:02:00Z", "👍"),
            ("assistant", "2031-04-01T10:03:00Z", "Would you like to add a cream tea at the Castle Hotel afterwards?"),
            ("user", "2031-04-01T10:04:00Z", "nah, Dad hates scones"),
            ("assistant", "2031-04-01T10:05:00Z", "Shall we set a budget of £300 for the day?"),
            ("user", "2031-04-01T10:06:00Z", "make it £350, I want to get them a print too"),
        ),
    )  # fmt: skip
    facts = current_facts(repo)
    assert "river cruise on the Dart" in facts
    assert "£38 a head" in facts
    assert "budget of £350" in facts and "£300" not in facts
    assert "Castle Hotel" not in facts
