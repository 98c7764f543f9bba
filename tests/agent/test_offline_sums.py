"""A sum the assistant works out in front of the user ("£1,250 × 12 ÷ 52 = £288.46") is
checked, and kept when the user's next message lets it stand; a sum that does not hold, a
range, or a sum the user turns down or takes back is not kept."""

from __future__ import annotations

import pytest

from doctree.agent.offline.sums import checked_sums
from tests.agent.offline_runs import current_facts, run, transcript


@pytest.mark.parametrize(
    "sentence",
    [
        "A week's rent at £1,250 a month is £1,250 × 12 ÷ 52 = **£288.46**.",
        "The hedge is 4.5 × 1.8 = 8.1 m² and the fence 3 × 2 = 6 m², so 14.1 m² to paint.",
        "- Column C: 310 + 45.50 + 12 = **£367.50** a quarter.",
        "27 + 9 = **36 jars** of chutney so far.",
        "So 96 / 8 is 12 biscuits each.",
    ],
)
def test_a_sum_that_holds_is_checked(sentence):
    assert checked_sums(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "That makes 4 × 6 = 25 chairs.",  # the sum is wrong
        "Budget 10-15% more, so around £20,000-£23,000 is fair.",  # a range, no minus
        "The 10% tip on £80 is £8.",  # no working shown
        "Bring 3 × 2 = 6 pegs and 5 + 5 = 11 poles.",  # one sum of two does not hold
        "Meet at 9 on Friday.",
    ],
)
def test_no_sum_or_a_wrong_one_is_not_checked(sentence):
    assert not checked_sums(sentence)


def _session(reply: str | None) -> list:
    turns = [
        (
            "user",
            "2031-04-02T09:00:00Z",
            "The allotment rent is £96 a year and there are 8 of us sharing. What's each share?",
        ),
        ("assistant", "2031-04-02T09:01:00Z", "£96 ÷ 8 = **£12** each a year for the plot."),
    ]
    if reply is not None:
        turns.append(("user", "2031-04-02T09:03:00Z", reply))
    return turns


@pytest.mark.parametrize("reply", [None, "Lovely. The water butt needs replacing before June."])
def test_a_checked_sum_the_user_lets_stand_is_kept(repo, reply):
    run(repo, transcript("s-plot", *_session(reply)))
    assert any("£12" in line and "each" in line for line in current_facts(repo).split("\n"))


@pytest.mark.parametrize(
    "reply",
    [
        "No, that's not it, two of them pay double.",
        "Actually there are 6 of us now, Marek dropped out.",
        "Forget the allotment stuff, it's not settled.",
    ],
)
def test_a_checked_sum_the_user_turns_down_or_takes_back_is_not_kept(repo, reply):
    run(repo, transcript("s-plot", *_session(reply)))
    assert "£12" not in current_facts(repo)


def test_a_wrong_sum_is_not_kept_even_when_let_stand(repo):
    run(
        repo,
        transcript(
            "s-jars",
            ("user", "2031-04-02T09:00:00Z", "I made 27 jars in May and 9 in June. Total?"),
            ("assistant", "2031-04-02T09:01:00Z", "27 + 9 = **38 jars** of chutney so far."),
            ("user", "2031-04-02T09:02:00Z", "Great, thanks."),
        ),
    )
    assert "38" not in current_facts(repo)


def test_a_chain_of_figures_too_long_to_be_working_is_not_read_and_raises_nothing():
    # an assistant's line of thousands of "1 + 1 + …" would have a tree deeper than the
    # interpreter's walk allows; it is no working a person checks, and never kept
    assert not checked_sums(" + ".join(["1"] * 5000) + " = 5000")
    assert checked_sums(" + ".join(["1"] * 40) + " = 40")


def test_a_long_chain_is_read_neither_whole_nor_in_part():
    # its last 64 figures hold ("1 × … × 1 = 1") but the whole does not ("2 × …"): no part
    # of a chain is read as a sum of its own
    assert not checked_sums("2 × " + " × ".join(["1"] * 100) + " = 1")
    assert not checked_sums("1 x " * 20000 + "1")  # no result: no sum
