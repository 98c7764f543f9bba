"""A sentence that opens on "she" or "he" and names someone else as the subject of a clause
of its own ("She's in the spare room and Rosa's booked the inn") says things of two people:
the pronoun is not the one named, and no line of it is sure to be whose, so it is kept on
the session's notes as said, never on either person's page."""

from __future__ import annotations

import pytest

from doctree.agent.offline.clauses import another_subject
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript

DAY = "2031-07-01T18:00:00Z"


def page(repo: DocumentsRepository, path: str) -> str:
    doc = repo.read("main", path)
    return doc.body if doc is not None else ""


@pytest.mark.parametrize(
    "sentence",
    [
        "She's on the sofa bed as usual and Marguerite's booked the Ibis by the station.",
        "She takes the sofa bed, but Marguerite has booked the Ibis by the station.",
        "She's on the sofa bed; Marguerite has booked the Ibis by the station.",
    ],
)
def test_two_peoples_facts_in_one_sentence_go_on_no_ones_page(repo, sentence):
    run(
        repo,
        transcript(
            "s-visit",
            ("user", DAY, "My aunt Colette arrives Friday and my cousin Marguerite comes Sunday."),
            ("user", "2031-07-01T18:01:00Z", sentence),
        ),
    )
    for person in ("colette", "marguerite"):
        assert "Ibis" not in page(repo, f"~/memory/people/{person}")
    assert "Ibis" in page(repo, "~/memory/notes")
    assert "She" in page(repo, "~/memory/notes")  # kept as said, no name put in


@pytest.mark.parametrize(
    "sentence",
    [
        "She's on the sofa bed and the Ibis is booked.",
        "Marguerite's booked the Ibis and she's bringing the dog.",
        "She says The Ibis is full.",
        "He and I are driving up on Friday.",
    ],
)
def test_a_sentence_of_one_subject_is_not_mixed(sentence):
    assert not another_subject(sentence)
