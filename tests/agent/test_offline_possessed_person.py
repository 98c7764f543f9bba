"""A name whose owner has a body, a birth or a pupil's things ("Odette's waters broke", "Ade's
knee is worse") is a person's, and the "she" or "he" after it is that person; a town's or a
firm's things ("Lisbon's weather", "Canada's visa rules") make no one."""

from __future__ import annotations

import pytest

from tests.agent.offline_runs import run, transcript


def _pages(repo, said: str) -> dict[str, str]:
    day = "2036-05-04T07:00:00Z"
    run(repo, transcript("s-own", ("user", day, said), ("assistant", day, "Noted.")))
    return {d.path: d.body for d in repo.documents("main", "~/memory/people")}


def test_a_birth_names_a_person_and_the_she_after_it(repo):
    pages = _pages(repo, "Odette's waters broke at 4am. She's at the Royal Infirmary now.")
    assert "~/memory/people/odette" in pages
    assert "Odette is at the Royal Infirmary" in pages["~/memory/people/odette"]


@pytest.mark.parametrize(
    "said",
    [
        "Ade's knee is worse after the match.",
        "Mia's scan is on Friday at 10:40.",
        "Tobiah's homework is due on Monday.",
    ],
)
def test_a_bodys_or_a_pupils_things_name_a_person(repo, said):
    name = said.split("'")[0]
    assert f"~/memory/people/{name.lower()}" in _pages(repo, said)


@pytest.mark.parametrize(
    "said",
    [
        "Lisbon's weather is awful this week.",
        "Canada's visa rules changed in March.",
        "Hamilton's cast was brilliant last night.",
        "Tesco's delivery slot is at 9am.",
    ],
)
def test_a_towns_or_a_firms_things_make_no_one(repo, said):
    name = said.split("'")[0]
    assert f"~/memory/people/{name.lower()}" not in _pages(repo, said)
