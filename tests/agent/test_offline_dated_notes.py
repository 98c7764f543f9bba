"""A short note of a thing on a day to come, typed without a verb ("dentist on friday",
"recital next tues"), is kept as a line for that day; a sign-off that names a day
("see you friday!", "speak tomorrow") is not, nor is a weekday no word leads ("Session C
(Wed)" heading a week's plan), which may be a slot of every week."""

from __future__ import annotations

import pytest

from tests.agent.offline_runs import facts_after

DAY = "2029-03-07T10:00:00Z"  # a Wednesday


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("dentist on friday!", "Dentist on Friday (2029-03-09)"),
        ("recital next tues", "Tuesday (2029-03-13)"),
        ("bins tomorrow", "Bins tomorrow (2029-03-08)"),
    ],
)
def test_a_verbless_note_of_a_day_to_come_is_kept(repo, said, kept):
    assert kept in facts_after(repo, said, DAY)


@pytest.mark.parametrize(
    "said",
    [
        "see you friday!",
        "speak tomorrow",
        "Happy Friday!",
        "until monday then",
        # a weekday not led by "on", "this", "next": a weekly slot as likely as one day
        "Session C (Wed)",
        "trampolining thursday",
    ],
)
def test_a_sign_off_that_names_a_day_is_no_note(repo, said):
    assert "2029-03" not in facts_after(repo, said, DAY)


def test_a_note_of_a_day_gone_is_kept_as_before(repo):
    assert "2029-03-09" not in facts_after(repo, "dentist last friday", DAY)
