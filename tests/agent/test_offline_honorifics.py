"""An honorific before a surname, in English or another language ("Sra. Quintela", "Mme
Delorme", "Herr Brandauer"), is one person named by the whole, never a page of its own."""

from __future__ import annotations

import pytest

from doctree.agent.offline.segment import split_sentences
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript


@pytest.mark.parametrize(
    ("said", "title", "surname"),
    [
        ("Sra. Quintela from the clinic called, my scan is on 14 May.", "Sra", "Quintela"),
        ("Mme Delorme will look after the keys while we are away.", "Mme", "Delorme"),
        ("Herr Brandauer is my new piano teacher, lessons on Mondays.", "Herr", "Brandauer"),
        ("I met Sr. Castanheira at the notary, he is handling the deeds.", "Sr", "Castanheira"),
    ],
)
def test_an_honorific_and_a_surname_are_one_person(repo: DocumentsRepository, said, title, surname):
    run(repo, transcript("s-title", ("user", "2030-03-01T10:00:00Z", said)))
    paths = {d.path for d in repo.documents("main", "~/memory")}
    assert f"~/memory/people/{title.lower()}" not in paths, paths
    people = [p for p in paths if p.startswith("~/memory/people/")]
    assert any(surname.lower() in p for p in people), paths


def test_a_sentence_does_not_end_at_the_dot_of_an_honorific():
    assert split_sentences("I rang Sra. Quintela today. She was out.") == [
        "I rang Sra. Quintela today.",
        "She was out.",
    ]
