"""A person's page holds every fact one session gave of them, however many."""

from __future__ import annotations

from tests.agent.offline_runs import run, transcript

DAY = "2031-07-01T09:00:00Z"
THINGS = [
    ("kayak", "the boathouse"), ("ladder", "the garage"), ("tent", "the loft"),
    ("sewing machine", "the spare room"), ("drill", "the shed"), ("bike pump", "the porch"),
    ("paddling pool", "the cellar"), ("easel", "the studio"), ("rowing machine", "the hall"),
    ("barbecue", "the patio"), ("telescope", "the attic"), ("pressure washer", "the garage"),
    ("camping stove", "the van"), ("snowboard", "the loft"), ("keyboard", "the lounge"),
    ("fishing rods", "the shed"), ("cool box", "the utility room"), ("skis", "the cellar"),
    ("hammock", "the summerhouse"), ("kiln", "the workshop"), ("sledge", "the porch"),
    ("wetsuit", "the van"), ("gazebo", "the shed"), ("projector", "the study"),
]  # fmt: skip


def test_every_fact_of_one_person_in_one_session_reaches_their_page(repo):
    lines = [f"My sister Ingrid keeps her {thing} in {place}." for thing, place in THINGS]
    run(repo, transcript("s-many", ("user", DAY, "\n\n".join(lines)), ("assistant", DAY, "Ok.")))
    page = repo.get("main", "~/memory/people/ingrid").body
    missing = [thing for thing, _ in THINGS if f"her {thing} in" not in page]
    assert not missing
