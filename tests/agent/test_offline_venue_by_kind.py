"""A venue said in lower case by the kind of building it is ("in the cricket pavilion") is a
value of its event, so a later venue for the same event replaces it; a venue's name keeps the
kind of building said after it ("to the Beehive pub")."""

from __future__ import annotations

from doctree.agent.offline import supersession
from tests.agent.offline_runs import page_lines, run, transcript

DAY1 = "2031-03-03T18:00:00Z"
DAY2 = "2031-03-10T18:00:00Z"


def _two_sessions(repo, later: str) -> tuple[list[str], list[str]]:
    run(
        repo,
        transcript(
            "s-quiz-1",
            ("user", DAY1, "The charity quiz is on Friday 21 March in the cricket pavilion."),
            ("assistant", DAY1, "Noted."),
        ),
    )
    run(repo, transcript("s-quiz-2", ("user", DAY2, later), ("assistant", DAY2, "Noted.")))
    return page_lines(repo)


def test_a_later_venue_replaces_one_said_by_its_kind_of_building(repo):
    now, past = _two_sessions(
        repo, "The pavilion roof leaks so the charity quiz is moving to the Beehive pub."
    )
    assert not any("cricket pavilion" in ln and "quiz" in ln for ln in now)
    assert any("cricket pavilion" in ln for ln in past)
    assert any("Beehive pub" in ln for ln in now)


def test_a_place_said_of_something_else_leaves_the_venue(repo):
    now, _ = _two_sessions(repo, "I left my umbrella in the church hall after choir.")
    assert any("cricket pavilion" in ln and "quiz" in ln for ln in now)


def test_the_kind_of_building_is_part_of_the_venue_value():
    said = supersession.values("We meet in the back room of the library.")
    assert [v.norm for v in said if v.kind == "venue"] == ["back room"]
    said = supersession.values("Dinner moved to the Beehive pub.")
    assert [v.norm for v in said if v.kind == "venue"] == ["beehive pub"]
    assert not [
        v for v in supersession.values("She is in the hall's kitchen.") if v.kind == "venue"
    ]
