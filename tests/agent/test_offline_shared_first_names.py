"""People who share a first name are two people: a first name said with a surname memory
does not know it with ("Anna Berg" when "Anna" is the user's sister) is someone else, and
neither's facts go on the other's page. A first name alone still finds the one person
known by it."""

from __future__ import annotations

import pytest

from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript

DAY1 = "2027-05-03T18:00:00Z"


def page(repo: DocumentsRepository, slug: str) -> str:
    doc = repo.read("main", f"~/memory/people/{slug}")
    return doc.body if doc is not None and not doc.deleted else ""


@pytest.mark.parametrize(
    ("kin", "other"),
    [
        (
            "My sister Lise is moving to Ghent in June.",
            "Lise Aalto from payroll approved my claim.",
        ),
        ("My cousin Tomas has a new puppy.", "Tomas Brandt in the Oslo office sent the slides."),
        (
            "My aunt Greta plays bridge on Thursdays.",
            "I had lunch with Greta Holm, our new auditor.",
        ),
    ],
)
def test_a_full_name_is_not_filed_on_the_page_of_another_who_shares_its_first_name(
    repo, kin, other
):
    run(repo, transcript("s-1", ("user", DAY1, kin), ("user", "2027-05-03T18:02:00Z", other)))
    first = kin.split()[2]
    surname = other.split(first, 1)[1].split()[0].strip(",.")
    own = page(repo, first.lower())
    assert kin.split()[3] in own  # the kin page keeps its own fact
    assert surname not in own  # and holds nothing of the other person


def test_a_first_name_alone_still_finds_the_one_person_known_by_it(repo):
    run(repo, transcript("s-1", ("user", DAY1, "My sister Lise is moving to Ghent in June.")))
    run(
        repo,
        transcript("s-2", ("user", "2027-05-05T09:00:00Z", "Lise found a flat near the station.")),
    )
    assert "flat near the station" in page(repo, "lise")


def test_a_full_name_said_in_a_later_session_is_not_the_users_sister_either(repo):
    run(repo, transcript("s-1", ("user", DAY1, "My sister Lise is moving to Ghent in June.")))
    run(
        repo,
        transcript(
            "s-2", ("user", "2027-05-05T09:00:00Z", "Lise Aalto from payroll approved my claim.")
        ),
    )
    assert "Aalto" not in page(repo, "lise")


def test_a_colleague_known_by_first_name_is_the_one_later_named_in_full(repo):
    run(repo, transcript("s-1", ("user", DAY1, "I'll ask Oskar to review the PR tomorrow.")))
    run(
        repo,
        transcript(
            "s-2",
            ("user", "2027-05-05T09:00:00Z", "Kickoff for the portal with Oskar Lind today."),
        ),
    )
    assert "~/memory/people/oskar-lind" not in {d.path for d in repo.documents("main", "~/memory")}


@pytest.mark.parametrize(
    ("said", "slug", "later"),
    [
        ("My sister Ilse Marwick is lending me her ladder on Saturday.", "ilse-marwick", "Ilse"),
        (
            "My neighbour Bertram Oakes-Fielding waters the plants when we're away.",
            "bertram-oakes-fielding",
            "Bertram",
        ),
        ("Our nephew Caspian Rowe starts university in October.", "caspian-rowe", "Caspian"),
        (
            "My boss Wilhelmina Strand's team moves floors in May.",
            "wilhelmina-strand",
            "Wilhelmina",
        ),
    ],
)
def test_a_relation_named_in_full_is_one_person_and_its_first_name_finds_them(
    repo, said, slug, later
):
    run(
        repo,
        transcript(
            "s-1",
            ("user", DAY1, said),
            ("user", "2027-05-03T18:02:00Z", f"{later} is also coming to the barbecue on Sunday."),
        ),
    )
    people = {d.path for d in repo.documents("main", "~/memory/people")}
    assert f"~/memory/people/{later.lower()}" not in people  # not a second page by first name
    assert f"~/memory/people/{slug}" in people
    assert "barbecue" in page(repo, slug)


@pytest.mark.parametrize(
    "said",
    [
        "My sister Ilse Thursday said she would lend me her ladder.",
        "My sister Ilse And her husband are coming.",
    ],
)
def test_a_relation_first_name_followed_by_a_capitalised_non_name_stays_the_first_name(repo, said):
    run(repo, transcript("s-1", ("user", DAY1, said)))
    people = {d.path for d in repo.documents("main", "~/memory/people")}
    assert "~/memory/people/ilse" in people
