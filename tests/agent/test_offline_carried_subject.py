"""A short fact whose subject is "it", "that" or "they" for a thing named in the sentence
just before is written with the thing named ("The lift in block C: booked for repair on
…"); a person, people or an unclear "it" stays as said."""

from __future__ import annotations

import pytest

from doctree.agent.offline.extract import carried_subject
from doctree.agent.offline.model import Sentence
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript

TIME = "2027-05-03T18:00:00Z"


def lines(repo: DocumentsRepository) -> list[str]:
    return [
        ln
        for d in repo.documents("main", "~/memory")
        if "/archive/" not in d.path
        for ln in d.body.splitlines()
        if ln.startswith("- ")
    ]


def said(repo: DocumentsRepository, *messages: str) -> list[str]:
    run(
        repo,
        transcript(
            "s-1",
            *[("user", f"2027-05-03T18:{i:02d}:00Z", m) for i, m in enumerate(messages)],
        ),
    )
    return lines(repo)


@pytest.mark.parametrize(
    ("messages", "thing", "fact"),
    [
        (
            ["The lift in block C is out again. It's booked for repair on the 8th of May."],
            "The lift in block C",
            "2027-05-08",
        ),
        (
            ["Our dishwasher is leaking again.", "It'll be fixed on Friday."],
            "Our dishwasher",
            "2027-05-07",
        ),
        (
            ["The new windows arrive next week. They're being fitted on the 14th."],
            "The new windows",
            "2027-05-14",
        ),
        (["The van is at the garage. It needs a new clutch, £600."], "The van", "£600"),
        (["The car is at the garage.", "That's due back on Friday."], "The car", "2027-05-07"),
    ],
)
def test_a_fact_said_of_it_names_the_thing_of_the_sentence_before(repo, messages, thing, fact):
    found = [ln for ln in said(repo, *messages) if fact in ln]
    assert found and all(thing in ln for ln in found)


@pytest.mark.parametrize(
    ("before", "sentence"),
    [
        ("The Hendersons are moving.", "They're leaving on the 3rd."),  # a family
        ("The neighbours are away.", "They're back on the 3rd."),  # people
        ("The garden is a mess.", "It's raining again."),  # the weather's "it"
        ("The garden is a mess.", "It's been a long week."),
        ("I bought a new bike.", "It's booked in for a service on the 3rd."),  # no "the …"
        ("My sister Ana is visiting.", "It's booked for the 9th."),  # a person said before
    ],
)
def test_an_unclear_it_stays_as_said(before, sentence):
    s = Sentence(time=TIME, text=before, raw=before)
    if "Ana" in before:
        s.people.append("Ana")
    assert carried_subject(sentence, s) is None


def test_it_after_a_person_is_left_to_the_pronoun_rules(repo):
    found = said(repo, "My sister Ana is visiting from Porto. It's booked for the 9th.")
    assert not any("Ana: booked" in ln or "sister: booked" in ln for ln in found)
