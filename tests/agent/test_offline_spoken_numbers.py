"""Numbers, times and days said in words are read as their figures ("two hundred and forty
quid" £240, "quarter to seven" 6:45, "the twenty-first" the 21st), so a dictated message's
dates resolve; a lone "one", "half an hour" or "the first time" stays as said."""

from __future__ import annotations

import pytest

from doctree.agent.offline.spoken import spoken_figures
from tests.agent.offline_runs import page_lines, run, transcript


@pytest.mark.parametrize(
    ("said", "figures"),
    [
        ("the gym is thirty-four fifty a month", "the gym is 34.50 a month"),
        ("the electrician wants three hundred and fifteen quid", "the electrician wants £315"),
        ("she turns seventy-eight in May", "she turns 78 in May"),
        ("the hall is four point five by three point one metres", "the hall is 4.5 by 3.1 metres"),
        ("the dose went up to two point five.", "the dose went up to 2.5."),
        ("the ferry leaves at quarter to eight", "the ferry leaves at 7:45"),
        ("pick-up is at quarter past four", "pick-up is at 4:15"),
        ("lunch at half past one", "lunch at 1:30"),
        ("the call is at half nine", "the call is at 9:30"),
        ("the bill is due on the twenty-second", "the bill is due on the 22nd"),
        ("renew it by the eleventh of next month", "renew it by the 11th of next month"),
        ("the party is the thirty-first of December", "the party is the 31st of December"),
        ("two thousand five hundred euros for the car", "€2500 for the car"),
    ],
)
def test_a_number_said_in_words_is_read_as_its_figures(said, figures):
    assert spoken_figures(said) == figures


@pytest.mark.parametrize(
    "said",
    [
        "no one came, one of the kids stayed and two kids left",
        "it takes half an hour",
        "the first time I went there",
        "half the team agreed",
        "we'll talk about the second option on Friday",
        "Fifty people came to the fair",
        "the flat is on the second floor",
        "at one point two people left early",
        "from the first day she loved it",
    ],
)
def test_a_word_that_is_no_figure_stays_as_said(said):
    assert spoken_figures(said) == said


def test_a_dictated_message_keeps_its_figures_and_dates_and_its_neighbours_stay(repo):
    run(
        repo,
        transcript(
            "s-spoken",
            (
                "user",
                "2031-03-04T12:00:00Z",
                "The vet quoted one hundred and twenty quid for Pepper's jabs. The MOT is on"
                " the twenty-second, drop-off at quarter to nine. Sami is allergic to peanuts.",
            ),
        ),
    )
    now = "\n".join(page_lines(repo)[0])
    assert "£120" in now, now
    assert "2031-03-22" in now, now
    assert "8:45" in now, now
    assert "allergic to peanuts" in now, now


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("the baby weighed seven pounds eleven ounces", "seven pounds"),
        ("I've lost twelve pounds since March", "twelve pounds"),
        ("buy three pounds of apples for the crumble", "three pounds"),
        ("the new bag is twenty pounds heavier", "twenty pounds"),
        ("she ran five miles and we had two pounds of cherries", "two pounds"),
    ],
)
def test_pounds_of_weight_stay_as_said(said, kept):
    """'Pounds' is money only where the sentence speaks of paying and not of weighing."""
    assert kept in spoken_figures(said) and "£" not in spoken_figures(said)


@pytest.mark.parametrize(
    ("said", "figure"),
    [
        ("the plumber quoted two hundred and forty pounds", "£240"),
        ("rent is nine hundred pounds a month", "£900"),
        ("it cost forty pounds in the end", "£40"),
    ],
)
def test_pounds_paid_are_money(said, figure):
    assert figure in spoken_figures(said)
