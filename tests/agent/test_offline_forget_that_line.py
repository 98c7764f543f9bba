""" "Forget that line" (or that sentence, that paragraph, that last remark) asks for what was
just said to go, as "forget that bit" does: the noun names the saying, not a thing. A noun
of saying said of something ("that line of credit") is a thing, as before."""

from __future__ import annotations

import pytest

from doctree.agent.offline import language as lang
from tests.agent.offline_runs import current_facts, everything, run, transcript

DAY = "2032-02-09T19:00:00Z"


@pytest.mark.parametrize(
    "request_",
    [
        "OK, forget that line, it's his business.",
        "Hmm, forget that sentence, he would hate it being known.",
        "Forget that paragraph, I'd rather it wasn't written down.",
    ],
)
def test_that_line_is_what_was_just_said(repo, request_):
    run(
        repo,
        transcript(
            "s-letter",
            ("user", DAY, "My cousin Rufus is behind on his rent with the landlord again."),
            ("assistant", "2032-02-09T19:01:00Z", "Understood."),
            ("user", "2032-02-09T19:02:00Z", request_),
            ("assistant", "2032-02-09T19:03:00Z", "Done, that's gone."),
            ("user", "2032-02-09T19:04:00Z", "My cousin Rufus plays the oboe in a brass band."),
        ),
    )
    text = everything(repo)
    assert "landlord" not in text and "behind on" not in text
    assert "oboe" in current_facts(repo)  # what was said after the request stays


@pytest.mark.parametrize(
    "sentence",
    ["Forget that line.", "scratch that sentence", "Please forget that comment, it was unkind."],
)
def test_a_noun_of_saying_is_a_request_of_what_was_just_said(sentence):
    assert lang.forget_request(sentence) == (True, None)


@pytest.mark.parametrize(
    "sentence",
    [
        "Forget that line of credit, the bank never approved it.",
        "Forget that restaurant you suggested, it shut in May.",
    ],
)
def test_a_noun_said_of_something_is_no_request_of_what_was_just_said(sentence):
    assert lang.forget_request(sentence) != (True, None)
