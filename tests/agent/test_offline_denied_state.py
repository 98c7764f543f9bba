"""A state said not to hold ("I'm not allergic to penicillin", "Ida isn't at the day centre
now") moves the one earlier line that stated it under Past; a doubt, an ability, a degree
or a condition ("I'm not sure", "isn't able to", "not very", "if she isn't") moves
nothing, and neither does a denial of something the line does not say."""

from __future__ import annotations

import pytest

from doctree.agent.offline.resolve import calls_off
from tests.agent.offline_runs import page_lines, run, transcript


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("I'm not allergic to ibuprofen, that was a mix-up.", "I am allergic to ibuprofen."),
        ("Ida isn't at Larkspur Day Centre now.", "Ida is at Larkspur Day Centre on weekdays."),
        ("We are not members of the tennis club.", "We are members of the tennis club."),
        ("The shed wasn't insured after all.", "The shed is insured with Harbour Mutual."),
        ("Tomasz's not vegan, it was his flatmate.", "Tomasz is vegan."),
    ],
)
def test_a_state_said_not_to_hold_calls_off_the_line_that_stated_it(text, said):
    assert calls_off(text, said)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("I'm not sure I'm allergic to ibuprofen.", "I am allergic to ibuprofen."),
        ("Ida isn't able to get to Larkspur Day Centre.", "Ida is at Larkspur Day Centre."),
        ("The tennis club is not very busy.", "We are members of the tennis club."),
        ("If the shed isn't insured we pay.", "The shed is insured with Harbour Mutual."),
        ("I'm not allergic to penicillin.", "I am allergic to ibuprofen."),
    ],
)
def test_a_doubt_an_ability_a_degree_a_condition_or_another_thing_calls_off_nothing(text, said):
    assert not calls_off(text, said)


def test_a_denied_state_goes_under_past_and_its_neighbours_stay(repo):
    run(
        repo,
        transcript(
            "s-deny-1",
            (
                "user",
                "2031-02-03T18:00:00Z",
                "I'm allergic to ibuprofen, I get a rash. My GP is Dr Hollins at Wexcombe Surgery.",
            ),
        ),
    )
    run(
        repo,
        transcript(
            "s-deny-2",
            (
                "user",
                "2031-03-10T18:00:00Z",
                "I'm not allergic to ibuprofen, the clinic tested me and it was a mistake.",
            ),
        ),
    )
    now, past = map("\n".join, page_lines(repo))
    assert any("allergic to ibuprofen, " in ln for ln in past.splitlines()), past
    assert not any(
        "allergic to ibuprofen, the user gets a rash" in ln for ln in now.splitlines()
    ), now
    assert "Dr Hollins" in now, now


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            "cancel the boiler service reminder, it's booked",
            "Remind the user to book the boiler service on the 14th (2031-06-14)",
        ),
        ("Please cancel the physio on Friday.", "The user has the physio on Friday at 9."),
        ("Oh, and call off the bake sale.", "The bake sale is on 2031-07-02 at the school."),
    ],
)
def test_a_calling_off_asked_for_calls_off_the_line_that_names_it(text, said):
    assert calls_off(text, said)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("I need to cancel the physio.", "The user has the physio on Friday at 9."),
        ("Cancel the gym membership.", "The user has the physio on Friday at 9."),
    ],
)
def test_a_calling_off_only_planned_or_of_another_thing_calls_off_nothing(text, said):
    assert not calls_off(text, said)
