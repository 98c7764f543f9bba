"""A sentence that only gives a labelled value ("New delivery: Sat 18 Jan, 08:47-09:47.") is
the value of the thing the sentence before it in the same line names, and is said with it;
a link, a speaker's line or a value after another such value stays apart."""

from __future__ import annotations

import pytest

from doctree.agent.offline.segment import split_sentences, with_labelled_values
from tests.agent.offline_runs import current_facts, run, transcript


@pytest.mark.parametrize(
    ("line", "read"),
    [
        (
            "Your parcel has been rescheduled at your request. New delivery: Sat 18 Jan, 08:47.",
            ["Your parcel has been rescheduled at your request. New delivery: Sat 18 Jan, 08:47."],
        ),
        (
            "Your prescription is ready to collect. Collect by: 24 Jan. Ref: RX-2231.",
            ["Your prescription is ready to collect. Collect by: 24 Jan.", "Ref: RX-2231."],
        ),
        (
            "The boiler service is booked. Engineer visit: Tue 4 Mar, 8am-12pm.",
            ["The boiler service is booked. Engineer visit: Tue 4 Mar, 8am-12pm."],
        ),
    ],
)
def test_a_labelled_value_is_said_with_the_sentence_before_it(line, read):
    assert with_labelled_values(split_sentences(line)) == read


@pytest.mark.parametrize(
    "line",
    [
        "Your order has shipped. Track it here: https://t.example/a?b=1",
        "We met at noon. Ana: fine by me.",
        "The lease is signed. Next step: we move the boxes on Friday.",
        "New delivery: Sat 18 Jan. Old delivery: Thu 16 Jan.",
    ],
)
def test_a_link_a_speaker_a_sentence_or_a_value_alone_stays_apart(line):
    assert with_labelled_values(split_sentences(line)) == split_sentences(line)


def test_the_new_value_of_a_pasted_text_is_kept_with_its_thing(repo):
    text = transcript(
        "s-texts",
        (
            "user",
            "2031-01-15T08:00:00Z",
            "From the courier just now.\n\nYour parcel has been rescheduled at your request. "
            "New delivery: Sat 18 Jan, 08:47-09:47.",
        ),
        ("assistant", "2031-01-15T08:01:00Z", "Noted."),
    )
    run(repo, text)
    assert (
        "rescheduled at your request. New delivery: Sat 18 Jan (2031-01-18), 08:47-09:47."
        in current_facts(repo)
    )
