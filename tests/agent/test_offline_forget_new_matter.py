"""A request not to keep what was just said, in the progressive imperative ("don't be putting
that down anywhere", "don't be keeping that"), is read as "don't keep that". What it takes
back stops at a statement opened as a new matter ("Oh and …", "By the way …"): a statement
before it that names the same person stays."""

from __future__ import annotations

import pytest

from doctree.agent.offline.language import forget_request
from tests.agent.offline_runs import everything, run, transcript


@pytest.mark.parametrize(
    "sentence",
    [
        "Don't be putting that down anywhere, it's nobody's business.",
        "don't be writing that down, please",
        "Don't be keeping that, it's private.",
    ],
)
def test_the_progressive_imperative_asks_to_forget(sentence):
    assert forget_request(sentence) == (True, None)


@pytest.mark.parametrize(
    "sentence",
    [
        "Don't be late for it.",
        "Don't be putting the recycling out before Tuesday.",
        "Don't be keeping the dog in all day.",
    ],
)
def test_other_progressive_imperatives_ask_nothing(sentence):
    assert forget_request(sentence) is None


def test_a_new_matter_is_taken_back_alone(repo):
    message = (
        "Oisín, my cousin, is minding the dog while we're in Lisbon.\n\n"
        "Oh and Oisín was on about his landlord and the rent arrears again, the whole mess. "
        "Don't keep that."
    )
    run(repo, transcript("s-new", ("user", "2031-04-01T09:00:00Z", message)))
    text = everything(repo, archive=False)
    assert "minding the dog" in text, text
    assert "arrears" not in text and "landlord" not in text, text


def test_a_statement_going_on_by_its_pronoun_is_taken_back_too(repo):
    message = (
        "Oisín, my cousin, lost his job at the bakery. "
        "Also he owes money all over town. Don't keep that."
    )
    run(repo, transcript("s-also", ("user", "2031-04-01T09:00:00Z", message)))
    text = everything(repo, archive=False)
    assert "owes money" not in text, text
    assert "bakery" not in text, text


def test_without_a_new_matter_the_same_person_goes_on(repo):
    message = (
        "Oisín, my cousin, lost his job at the bakery. "
        "Oisín is behind on the rent as well. Don't keep that."
    )
    run(repo, transcript("s-same", ("user", "2031-04-01T09:00:00Z", message)))
    text = everything(repo, archive=False)
    assert "bakery" not in text and "behind on the rent" not in text, text
