"""A full name with the role set after it ("Gwen Polzeath, our office manager") names a
person, whom a later "she" or "he" may mean."""

from __future__ import annotations

import pytest

from doctree.agent.offline.directory import Directory
from doctree.agent.offline.entities import find_entities
from doctree.agent.offline.model import Sentence
from tests.agent.offline_runs import current_facts, run, transcript

DAY = "2032-04-01T09:00:00Z"


def _read(raw: str) -> Sentence:
    s = Sentence(time=DAY, text=raw, raw=raw)
    find_entities(s, raw, Directory({}, {}))
    return s


@pytest.mark.parametrize(
    "raw, name, role",
    [
        ("The flowers are for Wenna Trebilcock, our practice secretary.", "Wenna Trebilcock",
         "practice secretary"),
        ("It's a gift for Osric Penhale, nineteen years as the parish treasurer.",
         "Osric Penhale", "parish treasurer"),
        ("A card for Lowena Hocking, 30 years as our office manager, is on my desk.",
         "Lowena Hocking", "office manager"),
    ],
)  # fmt: skip
def test_a_full_name_then_a_role_is_someone(raw, name, role):
    s = _read(raw)
    assert name in s.people
    assert (name, role) in s.roles


def test_a_place_then_no_role_is_no_one():
    s = _read("We went to Port Isaac, our favourite harbour.")
    assert "Port Isaac" not in s.people
    assert not s.roles


def test_she_after_the_name_and_role_is_that_person(repo):
    run(
        repo,
        transcript(
            "s-role",
            (
                "user",
                DAY,
                "Can you word a card? It's for Lowena Hocking, 30 years as our office "
                "manager, her do is on Friday 9 April at the Crown. She's moving to Penzance.",
            ),
            ("assistant", DAY, "Of course, here's a verse for Lowena."),
        ),
    )
    facts = current_facts(repo)
    assert "Lowena Hocking is moving to Penzance" in facts
