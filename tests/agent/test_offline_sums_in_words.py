"""A sum the assistant works out with its operators said in words ("£240 minus the £35 =
£205", "12 times 3 = 36") is checked as one written with signs is, and kept when the
user lets it stand; a wrong one, or words with no working, are not."""

from __future__ import annotations

import pytest

from doctree.agent.offline.sums import checked_sums
from tests.agent.offline_runs import current_facts, run, transcript


@pytest.mark.parametrize(
    "sentence",
    [
        "- bond £240 minus the £35 = **£205 back to you**",
        "So 12 times 3 = 36 tiles for the splashback.",
        "That's 90 divided by 3 = 30 each.",
        "£18 plus £7 = £25 with postage.",
        "The float of £50 less that £12 is £38.",
    ],
)
def test_a_sum_in_words_that_holds_is_checked(sentence):
    assert checked_sums(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "So 12 times 3 = 40 tiles.",  # the sum is wrong
        "It came to £50 less than last year.",  # no working
        "We went there 3 times in May.",
        "The deposit was £150 minus nothing, she said.",
    ],
)
def test_no_sum_in_words_or_a_wrong_one_is_not_checked(sentence):
    assert not checked_sums(sentence)


def test_a_sum_in_words_the_user_lets_stand_is_kept(repo):
    run(
        repo,
        transcript(
            "s-bond",
            (
                "user",
                "2031-06-02T09:00:00Z",
                "The letting agent is keeping £35 of my £240 bond for a stained carpet.",
            ),
            (
                "assistant",
                "2031-06-02T09:01:00Z",
                "Then you get £240 minus the £35 = **£205** back from the agent.",
            ),
            ("user", "2031-06-02T09:03:00Z", "Fair enough."),
        ),
    )
    assert any("£205" in line for line in current_facts(repo).split("\n"))
