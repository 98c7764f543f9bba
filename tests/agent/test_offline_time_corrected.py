"""A time of day set against another ("the priest can only do 1:30pm now, not noon") is a
correction even without "actually", and when it does not name the thing, it corrects the
one statement of the session that gave the old time; with two such statements, both stay."""

from __future__ import annotations

import pytest

from doctree.agent.offline.resolve import correction_of, is_time
from tests.agent.offline_runs import current_facts, run, transcript

DAY = "2029-03-04T10:00:00Z"


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        (
            "Fr Walsh can only do 1:30pm now, not noon",
            ("Fr Walsh can only do 1:30pm now", "noon", "1:30pm"),
        ),
        ("Update: the call is at 3pm, not 2pm.", ("The call is at 3pm", "2pm", "3pm")),
        ("The class is at midday now, not 11am.", ("The class is at midday now", "11am", "midday")),
    ],
)
def test_a_time_set_against_another_is_a_correction(sentence, expected):
    assert correction_of(sentence) == expected


@pytest.mark.parametrize(
    "sentence",
    [
        "We meet at 10:30, not 11.",
        "We use Postgres, not MySQL.",
        "It's at noon, not in the evening.",
        "The time trial was 21:25 not 21:52.",  # a time run, not a time of day
    ],
)
def test_a_bare_number_or_a_word_is_no_time_correction(sentence):
    assert correction_of(sentence) is None


def test_is_time():
    assert is_time("noon") and is_time("1:30pm") and is_time("16:00") and is_time("4pm")
    assert not is_time("16") and not is_time("Sunday")


@pytest.mark.parametrize(
    "later",
    [
        "Change of time: the vicar can only do 1:30pm now, not noon.",
        "Ugh, they moved it, it's 1:30pm now, not noon.",
    ],
)
def test_a_time_corrected_without_its_thing_corrects_the_one_line_that_gave_it(repo, later):
    run(
        repo,
        transcript(
            "s-one",
            ("user", DAY, "The christening is booked at St Anne's, Sunday 15th April at noon."),
            ("user", "2029-03-04T10:02:00Z", "The food is at the Lantern afterwards."),
            ("user", "2029-03-04T18:30:00Z", later),
        ),
    )
    now = current_facts(repo, corrections=False)
    assert "at noon" not in now, now
    assert "1:30pm" in now
    assert "Lantern" in now


def test_two_lines_with_the_old_time_both_stay(repo):
    run(
        repo,
        transcript(
            "s-one",
            ("user", DAY, "The christening is booked at St Anne's, Sunday 15th April at noon."),
            ("user", "2029-03-04T10:02:00Z", "Lunch with the grandparents is Saturday at noon."),
            ("user", "2029-03-04T18:30:00Z", "Change of time: it's 1:30pm now, not noon."),
        ),
    )
    now = current_facts(repo, corrections=False)
    assert "St Anne's, Sunday 15th April (2029-04-15) at noon" in now, now
    assert "Saturday (2029-03-10) at noon" in now
