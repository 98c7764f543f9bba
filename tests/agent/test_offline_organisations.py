"""An organisation named like a person (two capitalised words) is typed from general cues,
never from a list of names: a word a firm of some line of business calls itself
("Analytics", "Digital"), what only an organisation has ("X's CFO", "X's board"), and a
plural verb after a two-word name ("Marlow Fenwick are …"), which a person's full name
never takes."""

from __future__ import annotations

import pytest

from doctree.agent.offline.directory import Directory
from doctree.agent.offline.entities import find_entities
from doctree.agent.offline.model import Sentence
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript

MONDAY = "2027-03-15T09:00:00Z"


def typed(text: str) -> tuple[list[str], Directory]:
    directory = Directory({}, {})
    s = Sentence(time=MONDAY, text=text)
    find_entities(s, s.text, directory)
    return s.people, directory


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("The workshop with Brightwater Analytics is on Thursday at 9am.", "Brightwater Analytics"),
        ("Lunch with Harlow Digital tomorrow to go over the pitch.", "Harlow Digital"),
        ("I had a call with Corran Media about the launch.", "Corran Media"),
        ("We met Penrose Robotics at the trade fair.", "Penrose Robotics"),
        ("I had a call with Larchmere Press about the cover.", "Larchmere Press"),
        ("The snagging list went to Ashcombe Homes on Monday.", "Ashcombe Homes"),
        ("We booked the boarding with Hollyfield Kennels for Easter.", "Hollyfield Kennels"),
        ("Marlow Fenwick are sending the contract on Friday.", "Marlow Fenwick"),
        ("Garside Whitlock have confirmed the booking for the 12th.", "Garside Whitlock"),
        ("Tessaly Brook's CFO is stuck in Oslo, so the review moves.", "Tessaly Brook"),
        ("Ormond Vale's board signed it off yesterday.", "Ormond Vale"),
        ("Right. Corwin is the agency, nobody's called Corwin.", "Corwin"),
        ("Bramble is the bakery on Mill Road.", "Bramble"),
    ],
)
def test_an_organisation_is_typed_from_general_cues(text, name):
    people, directory = typed(text)
    assert name not in people and name.split()[0] not in people, text
    assert directory.kind_of(name) == "organisations", text


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Tom Reyes said he is sending the contract on Friday.", "Tom Reyes"),
        ("I met Tom and Ana Lopes, who are coming on Friday.", "Ana Lopes"),
        ("Lunch with Ana Lopes tomorrow to go over the pitch.", "Ana Lopes"),
        ("I asked Priya Nair, whose manager is away this week.", "Priya Nair"),
        ("Tom Reyes is a service engineer at the depot.", "Tom Reyes"),
        ("Ana Lopes is our account lead at the agency.", "Ana Lopes"),
    ],
)
def test_a_person_is_still_a_person(text, name):
    people, directory = typed(text)
    assert name in people, text
    assert directory.kind_of(name) is None, text


def test_an_organisation_named_like_a_person_gets_no_person_page(repo: DocumentsRepository):
    run(
        repo,
        transcript(
            "s-one",
            ("user", MONDAY, "The workshop with Brightwater Analytics is Thursday at 9am."),
            ("user", "2027-03-15T09:02:00Z", "Brightwater's CFO is stuck in Oslo."),
        ),
    )
    paths = {d.path for d in repo.documents("main", "~/memory")}
    assert not any(p.startswith("~/memory/people/brightwater") for p in paths)
    assert "~/memory/organisations/brightwater-analytics" in paths


@pytest.mark.parametrize(
    "text",
    [
        "Pay back £200 a month from Feb.",
        "The lease runs to Sept and the deposit comes back in Oct.",
        "Renewal is due Dec, then Apr.",
    ],
)
def test_a_shortened_month_is_no_name(text):
    people, directory = typed(text)
    assert not people
    assert not any(directory.others[kind] for kind in directory.others)


def test_a_note_paid_back_from_a_shortened_month_makes_no_page(repo):
    run(
        repo,
        transcript(
            "s-note",
            ("user", MONDAY, "- note to self: Gran lent me £900. pay back £90 a month from Feb"),
        ),
    )
    paths = [d.path for d in repo.documents("main", "~/memory")]
    assert not any(p.endswith("/feb") for p in paths)
