"""Words spelled out over the phone, letter by letter or in the spelling alphabet, are read
as the words and codes they spell: the assistant that puts them together restates the user."""

from __future__ import annotations

import pytest

from doctree.agent.offline.spelled import folded, spelled_words
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import page_lines, run, transcript


@pytest.mark.parametrize(
    ("said", "spelled"),
    [
        ("The surname is spelled K-O-V-A-C-S, with an S.", ["KOVACS"]),
        ("it's Z-O with an acute-E, Zoé", ["ZOE"]),
        ("Ref is Papa Hotel three three nine Quebec.", ["PH339Q"]),
        ("postcode Lima Sierra one one, space, four Golf Yankee", ["LS11", "4GY"]),
        ("Table for: two zero guests.", ["20"]),
    ],
)
def test_a_spelling_is_read_as_what_it_spells(said, spelled):
    assert spelled_words(said) == spelled


@pytest.mark.parametrize(
    "said",
    [
        "I drove the Golf to the Hotel Delta in one go.",
        "We had two or three of them, one of which was broken.",
        "The T-shirt and the x-ray came back fine.",
        "My son is four and my daughter seven.",
    ],
)
def test_words_of_a_sentence_are_no_spelling(said):
    assert spelled_words(said) == []


def test_accents_are_folded_as_a_spelling_has_none():
    assert folded("Zoé Ní Mór") == "Zoe Ni Mor"


def test_the_assistant_putting_a_spelling_together_is_kept(tmp_path):
    with DocumentsRepository(tmp_path / "m.db") as repo:
        run(
            repo,
            transcript(
                "s-phone",
                (
                    "user",
                    "2028-03-01T09:00:00Z",
                    "On the phone with the garage, they're spelling it: the mechanic is "
                    "T-O-M-A-S, surname H-A-J-E-K. Job number Victor Romeo five five two.",
                ),
                (
                    "assistant",
                    "2028-03-01T09:01:00Z",
                    "So the mechanic is Tomas Hajek and the job number is VR552.",
                ),
                ("user", "2028-03-01T09:02:00Z", "Perfect."),
            ),
        )
        now, _ = page_lines(repo)
    assert any("Tomas Hajek" in ln and "mechanic" in ln for ln in now), now
    assert any("VR552" in ln for ln in now), now
