"""A capitalised word opening a sentence: a common word is no one's page, a given name is."""

from __future__ import annotations

import pytest

from doctree.agent.offline.lexicon import common_word
from tests.agent.offline_runs import facts_after

DAY = "2033-01-14T09:00:00Z"


@pytest.mark.parametrize(
    "word", ["Football", "Parking", "Training", "Rehearsal", "Recycling", "Unclogging"]
)
def test_a_common_word_is_a_word(word):
    assert common_word(word)


@pytest.mark.parametrize("word", ["Jade", "Rose", "Will", "Omar", "Priya", "Tadgh", "Kofi"])
def test_a_given_name_or_a_word_of_no_list_is_a_name(word):
    assert not common_word(word)


def _people(repo) -> list[str]:
    return [d.path for d in repo.documents("main", "~/memory/people/")]


def test_a_word_opening_a_sentence_gets_no_person_page(repo):
    facts_after(repo, "Football has been cancelled this week because of the frost.", DAY)
    assert not any(p.endswith("/football") for p in _people(repo))


def test_a_given_name_that_is_also_a_word_keeps_its_page(repo):
    facts = facts_after(repo, "Jade started nursery last week and loves it.", DAY)
    assert any(p.endswith("/jade") for p in _people(repo))
    assert "nursery" in facts


def test_a_word_already_known_as_someone_stays_someone(repo):
    # named mid-sentence first, where the capital says it is a name
    facts_after(repo, "My neighbour Pip walks the dogs. Pip said the gate is broken.", DAY)
    assert any(p.endswith("/pip") for p in _people(repo))


def test_a_kin_word_used_as_a_name_stays_someone(repo):
    facts_after(repo, "Mum wants the lemon cake from the bakery on Friday.", DAY)
    assert any(p.endswith("/mum") for p in _people(repo))
