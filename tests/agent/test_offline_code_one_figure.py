"""A code set against another by "not" is put right in a later conversation too when it has
one figure among its capitals ("ZK4MWP, not ZK4MWR") or is written with a space ("UA 318, not
UA 381"); codes of another shape are still not set against each other."""

from __future__ import annotations

from doctree.agent.offline.resolve import values_contrasted
from tests.agent.offline_runs import page_lines, run, transcript


def test_a_code_with_one_figure_said_wrong_is_put_right_later(repo):
    run(
        repo,
        transcript(
            "s-one", ("user", "2031-05-06T10:00:00Z", "The parcel tracking code is ZK4MWR.")
        ),
    )
    run(
        repo,
        transcript(
            "s-two",
            (
                "user",
                "2031-05-08T10:00:00Z",
                "The parcel tracking code is ZK4MWP, not ZK4MWR, I misread it.",
            ),
        ),
    )
    now, _ = page_lines(repo)
    assert any("ZK4MWP" in ln for ln in now), now
    assert not any("ZK4MWR" in ln and "not ZK4MWR" not in ln for ln in now), now


def test_codes_with_a_space_are_set_against_each_other():
    assert values_contrasted("my train is UA 318, not UA 381") == ("UA 318", "UA 381")
    assert values_contrasted("the room is ZK4MWP, not ZK4MWR") == ("ZK4MWP", "ZK4MWR")


def test_codes_of_another_shape_or_words_are_not():
    assert values_contrasted("it's UA 318 not UAL 3180") is None
    assert values_contrasted("we went to Paris not Rome") is None
    assert values_contrasted("the class is A12 not B12X") is None
