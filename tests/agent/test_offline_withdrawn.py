"""A withdrawal ("ignore that, it was the wrong file", "disregard the above", "not that one")
takes back what the user sent before it as not meant, the pasted part of it when a line
introduces one, and keeps what the user gives after it."""

from __future__ import annotations

import pytest

from doctree.agent.offline.positions import besides, withdraws
from tests.agent.offline_runs import current_facts, run, transcript

DAY = "2031-09-02T08:00:00Z"
NEXT = "2031-09-02T08:01:00Z"
WRONG_LIST = (
    "Here's the packing list for the trip:\n\n"
    "```\n- Passport renewed, expires 2034\n- Ferry to Roscoff on 12 October\n"
    "- Hotel Belmar, ref HB-5521\n```"
)


@pytest.mark.parametrize(
    "withdrawal",
    [
        "Oh ignore that, it was the wrong list, that one's from 2029. This is the current one:",
        "Sorry, disregard the above. This is the current one:",
        "No wait, scratch that, it's an old version. This is the current one:",
        "Not that one, wrong file. This is the current one:",
    ],
)
def test_a_withdrawal_takes_back_the_block_before_and_keeps_the_one_after(repo, withdrawal):
    right = (
        f"{withdrawal}\n\n```\n- Ferry to Santander on 19 October\n- Hotel Miramar, ref "
        "HM-7730\n```"
    )
    run(
        repo,
        transcript(
            "s-wd",
            ("user", DAY, "We booked the trip last night. " + WRONG_LIST),
            ("user", NEXT, right),
        ),
    )
    facts = current_facts(repo)
    for gone in ("Roscoff", "Belmar", "HB-5521"):
        assert gone not in facts, (gone, facts)
    for kept in ("Santander", "Miramar", "HM-7730"):
        assert kept in facts, (kept, facts)


def test_a_withdrawal_of_a_message_without_a_block_takes_the_message(repo):
    run(
        repo,
        transcript(
            "s-wd2",
            ("user", DAY, "The piano tuner comes on 4 September."),
            ("user", NEXT, "My landlord Yusuf is raising the rent to £1,150 in November."),
            ("user", "2031-09-02T08:02:00Z", "Ignore that, wrong chat, that was meant for my sister."),
        ),
    )  # fmt: skip
    facts = current_facts(repo)
    assert "Yusuf" not in facts and "1,150" not in facts
    assert "piano tuner" in facts  # the message before the one withdrawn stays


def test_what_the_withdrawal_says_besides_is_read():
    assert besides("Ignore that, it was the wrong file, that's my brother's letter.") == (
        "That's my brother's letter."
    )
    assert besides("No wait, scratch that, that's last year's sheet from my knee.") is None


@pytest.mark.parametrize(
    "sentence",
    [
        "Scratch that, it's the 14th.",
        "Ignore that noise, the builders are in.",
        "I got the wrong size shoes for Ada.",
        "Forget that, never mind.",
        "We decided to ignore that, the wrong side of the hedge is fine.",
    ],
)
def test_a_sentence_that_does_not_say_it_was_the_wrong_thing_is_no_withdrawal(sentence):
    assert not withdraws(sentence)


@pytest.mark.parametrize(
    "after",
    [
        "These are the right times: the ferry leaves at 08:15 on 19 October.",
        "The right one says the ferry leaves at 08:15 on 19 October.",
        "It's the ferry at 08:15 on 19 October, not the other one.",
    ],
)
def test_what_holds_instead_after_a_withdrawal_is_read_whatever_it_opens_on(repo, after):
    run(
        repo,
        transcript(
            "s-wd3",
            ("user", DAY, "The ferry leaves at 06:40 on 12 October."),
            ("user", NEXT, f"Ignore that, wrong booking. {after}"),
        ),
    )
    facts = current_facts(repo)
    assert "08:15" in facts and "06:40" not in facts, facts
