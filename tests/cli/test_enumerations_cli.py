"""Pointing at what the assistant listed, through `doctree replay`: an item deleted by its place
leaves the pages and the session's record (the user's statement, the assistant's item and the
request), which `context --query` quotes; an item edited and an option chosen by description
are what memory answers with."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.replaying import doctree, in_turn, write_session


def session(tmp_path: Path, sid: str, day: str, *said: str) -> str:
    return write_session(tmp_path, sid, in_turn(day, said))


def context(db_path: Path, query: str) -> str:
    answer = json.loads(doctree(db_path, "context", "--query", query, "--words", "800", "--json"))
    return json.dumps([answer["recalled"], answer["text"]])


def test_items_pointed_at_are_deleted_edited_and_chosen_through_replay(db_path, tmp_path):
    recap = session(
        tmp_path, "s-recap", "2031-05-04",
        "My landlord Pieter is raising the rent to £1,150 from June. My colleague Amara is "
        "pregnant with twins. The boiler service is booked for Tuesday 13 May at 8am.",
        "Here's what I have:\n\n1. Rent up to £1,150 from June (Pieter).\n"
        "2. Amara, your colleague, is expecting twins.\n3. Boiler service: Tuesday 13 May, 8am.",
        "Delete the second point, it isn't mine to share. In 3 it's Thursday the 15th, not "
        "Tuesday.",
        "Done.",
    )  # fmt: skip
    choose = session(
        tmp_path, "s-choose", "2031-05-06",
        "Which gym should I join?",
        "Two options:\n\n- Pulse Fitness, Mill Road, £32 a month\n"
        "- Corefit, Station Square, £24 a month\n\nWhich would you like?",
        "The cheaper one.",
        "Noted.",
    )  # fmt: skip
    doctree(db_path, "replay", "--backend", "offline", recap, choose)
    said = doctree(db_path, "transcript", "s-recap")
    pages = doctree(db_path, "show", "~/memory")
    recalled = context(db_path, "Amara twins colleague rent boiler")
    assert "amara" not in pages.lower(), pages
    for where in (said, recalled):
        assert "Amara" not in where and "twins" not in where, where
        assert "1,150" in where  # the items not named stay
    assert "Delete the second point" not in said
    answer = context(db_path, "when is the boiler service")
    assert "2031-05-15" in answer
    gym = json.loads(doctree(db_path, "context", "--query", "which gym", "--json"))["text"]
    assert "chose Corefit, Station Square, £24 a month" in gym
