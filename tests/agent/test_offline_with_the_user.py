"""Two who do something with the user ("Jo and I are", "my sister and I share") keep the
verb as said: "Jo and the user are", never "ares"; a clause after "and" that opens on "I"
("… and I go running") is the user alone."""

from __future__ import annotations

import pytest

from doctree.agent.offline.language import third_person


@pytest.mark.parametrize(
    ("said", "written"),
    [
        ("Kit and I are getting married in May.", "Kit and the user are getting married in May."),
        ("My sister and I share a flat.", "The user's sister and the user share a flat."),
        ("I and my sister share a flat.", "The user and the user's sister share a flat."),
        ("Sam and I have booked it.", "Sam and the user have booked it."),
        ("Sam and I've booked it.", "Sam and the user have booked it."),
        ("Me and Jo are going.", "The user and Jo are going."),
        # the user alone
        ("I prefer tea and I go running.", "The user prefers tea and the user goes running."),
        ("Tea, toast and I am done.", "Tea, toast and the user is done."),
    ],
)
def test_with_the_user(said, written):
    assert third_person(said) == written
