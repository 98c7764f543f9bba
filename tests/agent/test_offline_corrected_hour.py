"""An hour corrected to a time ("load in is 5:30 not 6") edits the hour of the time the
earlier line gives ("load in 6pm"), never a day of the month the line also holds ("sat 6
nov"); a session's opening stops where someone else's pasted line begins."""

from __future__ import annotations

import pytest

from doctree.agent.offline.write import _stated
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript


@pytest.mark.parametrize(
    ("line", "fixed"),
    [
        ("gig sat 6 nov, load in 6pm", "gig sat 6 nov, load in 5:30pm"),
        ("the 6 June slot, doors at 6:00", "the 6 June slot, doors at 5:30"),
        ("meet at 6 by the gate", "meet at 5:30 by the gate"),
        ("dinner on 6 Dec at 6 p.m.", "dinner on 6 Dec at 5:30 p.m."),
    ],
)
def test_an_hour_corrected_to_a_time_edits_the_hour_not_the_day(line, fixed):
    pattern = _stated("6", "5:30")
    assert pattern.sub(lambda m: "5:30" + (m.group("meridian") or ""), line) == fixed


def test_other_values_are_edited_where_they_stand_whole():
    pattern = _stated("Munich", "Berlin")
    assert pattern.sub("Berlin", "moved to Munich, by the Munichsee") == (
        "moved to Berlin, by the Munichsee"
    )


def test_a_pasted_chat_with_a_corrected_hour_keeps_the_day(repo: DocumentsRepository):
    chat = (
        "the quiz team chat, for the dates\n\n"
        "[03/02/2030, 20:01] mo: QUIZ NIGHT IS ON, fri 8 feb at the Crown, doors 7pm\n"
        "[03/02/2030, 20:05] lia: i'll book a table\n"
        "[04/02/2030, 09:12] mo: correction, doors are 6:30 not 7\n"
    )
    run(repo, transcript("s-quiz", ("user", "2030-02-04T10:00:00Z", chat)))
    active = repo.read("main", "~/memory/active").body
    upcoming = active.split("## Upcoming")[1].split("##")[0]
    assert "8 feb (2030-02-08)" in upcoming and "doors 6:30pm" in upcoming, active
    assert "doors 7pm" not in active  # not even in the session's opening words
