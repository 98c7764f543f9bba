"""A request to forget taken back in the user's next message ("Forget my visa." … "Actually,
keep that.") is not acted on: the line stays. A next message that says something else, or
answers another question the assistant asked, leaves the request standing."""

from __future__ import annotations

import pytest

from doctree.agent.offline.language import takes_back
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import current_facts, run, transcript

T = ["2031-06-01T09:00:00Z", "2031-06-01T09:01:00Z", "2031-06-01T09:02:00Z"]
T4 = "2031-06-01T09:03:00Z"


def visa(repo: DocumentsRepository, request: str, reply: str, back: str) -> str:
    run(
        repo,
        transcript(
            "s-visa",
            ("user", T[0], "My work visa runs out on 12 October 2033."),
            ("user", T[1], request),
            ("assistant", T[2], reply),
            ("user", T4, back),
        ),
    )
    return current_facts(repo)


@pytest.mark.parametrize(
    "back",
    [
        "Actually, keep that.",
        "No wait, leave it.",
        "On second thought, remember it.",
        "Hmm, actually don't, keep it.",
        "I changed my mind, keep it.",
        "Never mind, keep it.",
    ],
)
@pytest.mark.parametrize("request_", ["Forget my visa.", "Forget the last thing I said."])
def test_a_forget_taken_back_in_the_next_message_keeps_the_line(repo, request_, back):
    assert "12 October 2033" in visa(repo, request_, "Done, it's gone.", back)


def test_a_forget_of_an_earlier_session_taken_back_keeps_it(repo):
    run(
        repo,
        transcript("s-one", ("user", "2031-05-01T09:00:00Z", "My optician is Dr Varga in Bath.")),
    )
    run(
        repo,
        transcript(
            "s-two",
            ("user", T[0], "Forget what I told you last time about my optician."),
            ("assistant", T[1], "Removed."),
            ("user", T[2], "Wait, no. Keep it."),
        ),
    )
    assert "Varga" in current_facts(repo)


@pytest.mark.parametrize("back", ["Thanks. My nephew Ivo turns nine in May.", "Keep it short."])
def test_a_next_message_saying_something_else_leaves_the_forget(repo, back):
    assert "12 October 2033" not in visa(repo, "Forget my visa.", "Done.", back)


def test_a_keep_answering_another_question_leaves_the_forget(repo):
    facts = visa(repo, "Forget my visa.", "Done. Shall I book the ferry for Friday?", "Leave it.")
    assert "12 October 2033" not in facts


def test_a_take_back_after_more_said_leaves_the_forget(repo):
    # what "that" means is no longer the request: something else was said after it
    facts = visa(repo, "Forget my visa. My nephew Ivo turns nine in May.", "Noted.", "Keep that.")
    assert "12 October 2033" not in facts


@pytest.mark.parametrize(
    "opening,taken",
    [
        (["Actually, keep that."], True),
        (["Wait, no.", "Keep it."], True),
        (["Keep it short."], False),
        (["Leave it with me."], False),
        (["Don't forget the milk."], False),
        (["No, I meant the other card."], False),
    ],
)
def test_what_takes_back(opening, taken):
    assert takes_back(opening) is taken
