"""A request that the names of people said by their part not be kept ("please don't keep the
client's name", "don't store the tenant's or the witness's names") lets go of the names the
user's messages give that part: a label's value ("Client: Mrs Ada Quist", "Tenant ......
Lou Brand", the value on the line after its label), "the client, Ada Quist", "Ada Quist
(client)". No page is made for them and no line keeps the name; the rest of what was said
stays. A part nobody was given, kin ("don't keep my mum's name"), a name wanted somewhere
("keep the tenant's name on the lease") or "don't forget the client's name" erase nothing."""

from __future__ import annotations

import pytest

from doctree.agent.offline import language as lang
from tests.agent.offline_runs import run, transcript


def pages(repo) -> dict[str, str]:
    return {d.path: d.body for d in repo.documents("main", "~/memory") if "/archive/" not in d.path}


@pytest.mark.parametrize(
    ("sentence", "roles"),
    [
        ("Please don't keep the client's name.", ["client"]),
        ("so don't store the tenant's or the witness's names anywhere", ["tenant", "witness"]),
        ("I don't want the pupil's name kept, it's a safeguarding thing.", ["pupil"]),
        ("Keep the caller's name out of your notes.", ["caller"]),
    ],
)
def test_a_request_names_the_parts_whose_names_go(sentence, roles):
    assert lang.role_names_not_kept(sentence) == roles


@pytest.mark.parametrize(
    "sentence",
    [
        "Don't forget the client's name when you write the card.",
        "Keep the tenant's name on the lease.",
        "don't keep my mum's name",
        "I don't keep the names of every caller.",
        "I always forget the plumber's name.",
    ],
)
def test_a_name_wanted_or_of_kin_asks_nothing(sentence):
    assert lang.role_names_not_kept(sentence) == []


def test_the_names_a_conversation_gives_a_part_are_found_in_every_form():
    text = (
        "Booking 44\nClient ......\nMrs Ada Quist\nFee ...... £40\n"
        "Met the tenant, Lou Brand, at the flat.\nThen Ivo Sand (witness) signed."
    )
    assert lang.named_as("client", text) == ["Ada Quist"]
    assert lang.named_as("tenant", text) == ["Lou Brand"]
    assert lang.named_as("witness", text) == ["Ivo Sand"]
    assert lang.named_as("landlord", text) == []


def test_the_name_of_the_part_is_kept_nowhere_and_the_rest_stays(repo):
    run(repo, transcript("s-roles",
        ("user", "2031-05-02T09:00:00Z",
         "Here's the visit sheet:\n\n```\nVISIT SHEET\nVisit no ...... 7731\n"
         "Address ...... 14 Orchard Row, Dunmere\nClient ...... Mrs Perpetua Lindqvist\n"
         "Carer ...... Tomasz Wren\n```"),
        ("user", "2031-05-02T09:01:00Z",
         "Data protection, so please don't keep the client's name anywhere."),
        ("user", "2031-05-02T09:02:00Z", "My supervisor Henrietta Moyo signs my timesheets.")))  # fmt: skip
    got = pages(repo)
    text = "\n".join(got.values())
    assert "Lindqvist" not in text and "Perpetua" not in text
    assert not any("lindqvist" in p or "perpetua" in p for p in got)
    assert "Henrietta Moyo" in text and "timesheets" in text


def test_a_part_nobody_was_given_erases_nothing(repo):
    run(repo, transcript("s-nobody",
        ("user", "2031-05-02T09:00:00Z", "My neighbour Gisela Oakes lent me her ladder."),
        ("user", "2031-05-02T09:01:00Z", "Please don't keep the patient's name.")))  # fmt: skip
    text = "\n".join(pages(repo).values())
    assert "Gisela Oakes" in text and "ladder" in text
