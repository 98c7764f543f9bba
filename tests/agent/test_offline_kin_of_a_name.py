"""A kin word after a name's possessive ("Priya's dad") is someone of their own: a later "he"
or "she" may mean them, and the pronoun never tells the name's own gender."""

from __future__ import annotations

import pytest

from tests.agent.offline_runs import facts_after

DAY = "2031-05-06T09:00:00Z"


def _facts(repo, message: str) -> str:
    return facts_after(repo, message, DAY)


def test_he_after_a_names_dad_is_the_dad(repo):
    facts = _facts(repo, "Priya's dad is selling his van. He's collecting the cash on Sunday.")
    assert "Priya's dad is collecting the cash" in facts
    assert "Priya is collecting" not in facts


def test_she_after_a_names_son_is_not_the_son(repo):
    facts = _facts(repo, "Omar's son is off to Bristol. She is driving him down on Friday.")
    assert "Omar's son is driving" not in facts


def test_his_beside_a_names_kin_does_not_make_the_name_a_man(repo):
    # "his" is the dad's: Chloe's gender is not told, so "she" may still mean Chloe
    facts = _facts(repo, "Chloe's dad sold his van. She is buying a car on Thursday.")
    assert "Chloe is buying a car" in facts


@pytest.mark.parametrize(
    "message, kept",
    [
        # a name after the kin word is that person, as before
        ("Tom's sister Ana is moving to Leeds. She starts on Monday.", "Ana starts on Monday"),
        # no kin word: the one person named is who "he" means
        (
            "My friend Femi sold his bike. He is buying a new one in June.",
            "Femi is buying a new one",
        ),
    ],
)
def test_a_named_person_is_still_the_referent(repo, message, kept):
    assert kept in _facts(repo, message)
