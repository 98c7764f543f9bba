"""A request that names what it takes back by where it was said ("forget the last two things I
said", "scrap that last one", "scrap what I just told you") takes exactly the statements it
counts back from it: the statement before them stays, and a request that counts more than
was said takes nothing."""

from __future__ import annotations

import pytest

from doctree.agent.offline.positions import Position, position, withdraws
from tests.agent.offline_runs import everything, run, transcript


def said(*messages: str) -> str:
    """A session of user messages a minute apart, each acknowledged."""
    out: list[tuple[str, str, object]] = []
    for i, text in enumerate(messages):
        out.append(("user", f"2031-05-04T09:{2 * i:02d}:00Z", text))
        out.append(("assistant", f"2031-05-04T09:{2 * i:02d}:30Z", "Noted."))
    return transcript("s-pos", *out)


FACTS = (
    "The window cleaner comes on the first Monday of each month.",
    "My neighbour Odile is selling her car for £4,200.",
    "Bram from the office has a tribunal hearing in July.",
    "I've applied for a transfer to the Utrecht branch.",
)


@pytest.mark.parametrize(
    ("request_", "count"),
    [
        ("Actually, forget the last two things I said.", 2),
        ("Please don't keep the last 2 points.", 2),
        ("Oh, scrap those last two, they're not mine to share.", 2),
        ("Can you delete the previous point?", 1),
        ("Scrap that last one, it's too early to say.", 1),
        ("Forget the last thing I told you.", 1),
        ("Ok, strike the last three things I mentioned.", 3),
    ],
)
def test_a_forget_by_position_takes_the_statements_it_counts_and_no_more(repo, request_, count):
    run(repo, said(*FACTS, request_))
    text = everything(repo)
    markers = ["window cleaner", "Odile", "tribunal", "Utrecht"]
    for gone in markers[len(markers) - count :]:
        assert gone not in text, (gone, text)
    for kept in markers[: len(markers) - count]:
        assert kept in text, (kept, text)


@pytest.mark.parametrize(
    "request_",
    [
        "Scrap what I just told you.",
        "Forget what I just said, please.",
        "Ignore my last message.",
    ],
)
def test_what_i_just_said_is_the_whole_message_before(repo, request_):
    run(
        repo,
        said(
            "The bin collection moves to Thursdays from June.",
            "My cousin Ilse is getting divorced. She told me last night.",
            request_,
        ),
    )
    text = everything(repo)
    assert "divorced" not in text and "last night" not in text
    assert "bin collection" in text


def test_what_i_just_said_in_the_same_message_is_what_went_before_in_it(repo):
    run(
        repo,
        said(
            "The boiler is serviced on 3 June.",
            "Priyanka is leaving her husband. Forget what I just said.",
        ),
    )
    text = everything(repo)
    assert "Priyanka" not in text
    assert "boiler" in text


def test_a_request_counting_more_than_was_said_takes_nothing(repo):
    run(repo, said("The gutters are cleaned on 12 June.", "Forget the last three things I said."))
    assert "gutters" in everything(repo)


def test_a_question_or_a_greeting_is_not_one_of_the_things_counted(repo):
    run(
        repo,
        said(
            "The MOT is due on 14 July.",
            "Hi again. Can you remind me later?",
            "My friend Oona failed her driving test.",
            "Forget the last two things I said.",
        ),
    )
    text = everything(repo)
    assert "Oona" not in text and "MOT" not in text
    # the request counts statements: the MOT was the second of them, the question not one


def test_the_request_and_the_statements_are_left_out_of_the_session_page(repo):
    summary = run(repo, said(*FACTS, "Forget the last two things I said."))
    assert ("2031-05-04T09:04:00Z", FACTS[2]) in summary.withheld
    assert ("2031-05-04T09:06:00Z", FACTS[3]) in summary.withheld
    assert ("2031-05-04T09:08:00Z", "Forget the last two things I said.") in summary.withheld
    assert all(FACTS[1] != raw for _, raw in summary.withheld)


@pytest.mark.parametrize(
    "sentence",
    [
        "I'll drop the last one off at the shop tomorrow.",
        "Forget the last two weeks, the new rota starts Monday.",
        "We should forget the last time we spoke about it.",
        "The last two things on the list are milk and eggs.",
        "Please delete the last two emails.",
        "Cancel the last one.",
    ],
)
def test_a_sentence_that_names_no_statement_by_position_is_no_such_request(sentence):
    assert position(sentence) is None


def test_a_request_that_does_not_say_how_many_takes_nothing(repo):
    summary = run(
        repo, said("The gutters are cleaned on 12 June.", "Forget the last few things I said.")
    )
    assert "gutters" in everything(repo)
    assert position("Forget the last few things I said.") == Position(0)
    assert not summary.withheld


def test_counts_are_read_in_words_and_figures():
    assert position("forget the last two things I said") == Position(2)
    assert position("don't keep the last 3 points") == Position(3)
    assert position("scrap that last one") == Position(1)
    assert position("ignore my last two messages") == Position(2, messages=True)
    assert position("scrap what I just told you") == Position(1, messages=True)
    assert not withdraws("forget the last two things I said")
