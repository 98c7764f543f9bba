"""The short forms of the auxiliaries ("I've", "we'd") and either apostrophe (typed on a
phone: "I’ve", "Mum’s") are verbs: a statement said with one is a statement."""

from __future__ import annotations

import pytest

from doctree.agent.offline import language as lang


@pytest.mark.parametrize(
    "sentence",
    [
        "I've sent a £500 deposit by bank transfer, the rest on collection.",
        "I’ve sent a £500 deposit by bank transfer, the rest on collection.",
        "We'd booked the Harbour Inn for two nights in May.",
        "They’d delivered the sofa on the 14th between 8 and 12.",
        "Mum’s moving to Leeds in the spring.",
    ],
)
def test_a_statement_with_a_short_form_is_worth_keeping(sentence):
    assert lang.has_verb(sentence)
    assert lang.worth_keeping(sentence)


@pytest.mark.parametrize("sentence", ["Thanks, I've got it.", "Cheers!", "Coffee black, no sugar?"])
def test_thanks_and_questions_stay_out(sentence):
    assert not lang.worth_keeping(sentence)
