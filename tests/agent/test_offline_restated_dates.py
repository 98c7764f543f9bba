"""A bare weekday in a clause without a verb after a past-tense one ("Went to see a flat,
second viewing on Saturday") is read as the day the assistant's reply restating that
sentence names explicitly ("second viewing on Saturday 9 March"), when the reply restates
it (they share values) and names that weekday within a week; otherwise as before."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from tests.agent.offline_runs import current_facts, run, transcript

MONDAY = "2030-03-04T19:00:00Z"  # Saturday before: 2 March; after: 9 March
REPLY = "2030-03-04T19:01:00Z"


def said_with_reply(repo, said: str, reply: str) -> str:
    run(repo, transcript("s-one", ("user", MONDAY, said), ("assistant", REPLY, reply)))
    return current_facts(repo)


@pytest.mark.parametrize(
    ("said", "reply", "day"),
    [
        (
            "Went to see a flat on Rowan Street, £700 a month, second viewing on Saturday.",
            "Noted the flat on Rowan Street (£700 a month), second viewing Saturday 9 March.",
            "2030-03-09",
        ),
        (
            "Met the builder from Dray Brothers, the quote was £3,200, follow-up on Friday.",
            "Noted the Dray Brothers quote of £3,200 and the follow-up on Friday 8 March.",
            "2030-03-08",
        ),
        (
            "Took Biscuit to the Northgate vets about her ear, £60, recheck on Wednesday.",
            "Noted the Northgate visit (£60) and Biscuit's recheck on Wednesday 6 March.",
            "2030-03-06",
        ),
    ],
)
def test_a_bare_weekday_is_the_day_the_reply_restating_it_names(repo, said, reply, day):
    facts = said_with_reply(repo, said, reply)
    assert f"({day})" in facts
    week_before = (date.fromisoformat(day) - timedelta(days=7)).isoformat()
    assert f"({week_before})" not in facts  # the past one the tense alone would give


def test_a_reply_that_restates_the_past_day_keeps_it(repo):
    facts = said_with_reply(
        repo,
        "Went to the Kelso Road dentist on Saturday, the filling was £85.",
        "Noted the Kelso Road dentist on Saturday 2 March (£85).",
    )
    assert "(2030-03-02)" in facts


def test_a_reply_that_does_not_restate_the_sentence_changes_nothing(repo):
    facts = said_with_reply(
        repo,
        "Went to see a flat on Rowan Street, £700 a month, second viewing on Saturday.",
        "By the way, the library is open late on Saturday 9 March.",
    )
    assert "second viewing on Saturday (2030-03-02)" in facts


def test_a_reply_naming_another_weekday_changes_nothing(repo):
    facts = said_with_reply(
        repo,
        "Went to see a flat on Rowan Street, £700 a month, second viewing on Saturday.",
        "Noted the flat on Rowan Street (£700 a month), the agent rings on Tuesday 5 March.",
    )
    assert "second viewing on Saturday (2030-03-02)" in facts


def test_a_weekday_said_with_last_keeps_its_own_day(repo):
    facts = said_with_reply(
        repo,
        "Went to the Bramley craft fair last Saturday, tickets were £20.",
        "Noted the Bramley craft fair on Saturday 9 March (£20).",
    )
    assert "(2030-03-02)" in facts and "(2030-03-09)" not in facts
