"""An amount or a time the user says without its marker is read with what the conversation
confirms: the currency the assistant writes the same figure with, the one currency the
conversation uses beside a word of money, the 24-hour time the assistant writes; a figure
that measures, counts, dates or labels something is left as said."""

from __future__ import annotations

import pytest

from doctree.agent.offline.figures import confirmed, with_figures
from doctree.agent.offline.spoken import spoken_figures
from tests.agent.offline_runs import current_facts, past_facts, run, transcript


def test_an_amount_said_bare_takes_the_currency_the_assistant_confirms_it_with(repo):
    run(
        repo,
        transcript(
            "s-bills",
            ("user", "2031-02-02T09:00:00Z", "the gym membership is thirty-four ninety a month"),
            ("assistant", "2031-02-02T09:01:00Z", "Noted: the gym membership is £34.90 a month."),
        ),
    )
    assert "£34.90 a month" in current_facts(repo)


def test_a_price_lowered_in_words_replaces_the_old_amount(repo):
    run(
        repo,
        transcript(
            "s-quote-1",
            ("user", "2031-02-02T09:00:00Z", "The roofer quoted £900 for the gutters."),
        ),
    )
    run(
        repo,
        transcript(
            "s-quote-2",
            ("user", "2031-02-20T09:00:00Z", "the roofer came down to eight hundred flat"),
            ("assistant", "2031-02-20T09:01:00Z", "Good: the gutters are now £800."),
        ),
    )
    now = current_facts(repo)
    assert "£800" in now, now
    assert "£900" not in now and "£900" in past_facts(repo)


def test_a_time_said_in_words_is_written_as_the_assistant_confirms_it(repo):
    run(
        repo,
        transcript(
            "s-train",
            ("user", "2031-02-02T09:00:00Z", "the train to Leeds is at twenty to eight tonight"),
            ("assistant", "2031-02-02T09:01:00Z", "Noted: the Leeds train leaves at 19:40."),
        ),
    )
    assert "19:40" in current_facts(repo)


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        (
            "The deposit is 1,900 and the agency fee 300.",
            "The deposit is £1,900 and the agency fee £300.",
        ),
        ("Rent goes up to 1250 a month in May.", "Rent goes up to £1250 a month in May."),
        ("We paid 45.50 for the taxi.", "We paid £45.50 for the taxi."),
    ],
)
def test_an_amount_beside_a_word_of_money_takes_the_one_currency_of_the_conversation(said, meant):
    figures = confirmed([], ["The flat is £950 a month.", said])
    assert with_figures(said, figures) == meant


@pytest.mark.parametrize(
    "said",
    [
        "We moved out on July 31 and paid the rent.",
        "The kitchen is 3.2 by 2.8 metres and cost a lot.",
        "Call 01632 960 215 to pay the bill.",
        "Terms days: 30; status: paid.",
        "We paid for 200 sheep.",
        "Flat 3 pays the bill.",
        "I misread the invoice: the mileage was 46,200.",
    ],
)
def test_a_figure_that_dates_measures_counts_or_labels_is_left_as_said(said):
    figures = confirmed(["That comes to £30, £200 and £3 in all."], ["It was £31.", said])
    assert with_figures(said, figures) == said


def test_two_currencies_in_a_conversation_leave_a_bare_amount_alone():
    said = "The deposit is 1,900."
    assert with_figures(said, confirmed([], ["It was £950 or €1,100.", said])) == said


def test_an_ambiguous_time_is_read_only_when_the_assistant_wrote_exactly_one_of_its_readings():
    figures = confirmed(["Pick-up at 08:15, and the dentist at 20:15."], [])
    assert with_figures("School run at 8:15.", figures) == "School run at 8:15."
    assert with_figures("School run at 8:15 in the morning.", figures) == (
        "School run at 08:15 in the morning."
    )


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("the bus is at twenty to eight tonight", "the bus is at 7:40 tonight"),
        ("we left at five past nine", "we left at 9:05"),
        ("twenty-five past six in the evening", "6:25 in the evening"),
        ("ten to one it rains", "ten to one it rains"),  # odds, not a time
    ],
)
def test_minutes_to_or_past_an_hour_are_a_time_where_the_words_around_say_so(said, meant):
    assert spoken_figures(said) == meant
