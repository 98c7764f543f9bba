"""A common word with a number after it ("in Bin 5", "at Gate 12") is a numbered spot, not a
place called "Bin" or "Gate" to keep a page on; a place's own name before a number ("in
Paris 2 weeks ago") is still a place."""

from __future__ import annotations

from datetime import date

from doctree.agent.offline.directory import Directory
from doctree.agent.offline.extract import read_sentence


def _places(text: str) -> list[str]:
    s = read_sentence("2038-01-10T09:00:00Z", text, date(2038, 1, 10), Directory({}, {}, {}))
    return s.others.get("places", [])


def test_a_numbered_spot_is_no_place():
    assert _places("The Rioja is in Locker 5 now.") == []
    assert _places("The Tempranillo sits in Bin 7, next to the port.") == []


def test_a_place_before_a_number_is_still_a_place():
    assert _places("We were in Valparaíso 3 weeks ago.") == ["Valparaíso"]
