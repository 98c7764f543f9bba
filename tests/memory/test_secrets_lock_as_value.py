"""A lock named as what a code opens, its code given as its value ("front door: 581306#",
"the alarm is 629417", "the combination 287154", "the key safe's 441763") is masked in a session's
history, a page and the pages the offline memory agent writes. A figure said of a door, a
gate or a safe (its age, its width, its price, a year), an alarm's time of day, a flight,
a room, a postcode, a dress or discount code, and a combination that is no lock's stay."""

from __future__ import annotations

import pytest

from doctree.store.secrets import find_secrets, mask_text
from tests.memory.stored_bytes import stored_bytes

FOUND = [
    ("Side door: 581306# if nobody answers.", "581306"),
    ("Ok so the alarm is 629417, the panel's by the stairs.", "629417"),
    ("the combination 287154 opens the bike locker", "287154"),
    ("Workshop gate code's 316482* on the keypad.", "316482*"),
    ("The key safe's 441763 and the spare is in it.", "441763"),
    ("Back gate: 903518", "903518"),
    ("Her padlock is 770265.", "770265"),
    ("The combo is 61-28-45, left first.", "61-28-45"),
    ("The safe is 384926 – don't lose it.", "384926"),
    ("Alarm is nine three one six when you come in.", "nine three one six"),
    # the lock said with where it is, before its "is"; a keypad's letter with the digits
    ("The side door at the scout hut is 640217, the handle sticks.", "640217"),
    ("the back gate to the yard was 5839 last I heard", "5839"),
    ("Ok and the door of the annexe is K73150 on the pad.", "K73150"),
]

KEPT = [
    "The postcode is 2000.",
    "Dress code: black tie.",
    "Discount code: 2024 gets ten percent off.",
    "Our flight is 4471 from gate 12.",
    "Boarding gate: 1045.",
    "The door is 1920s oak.",
    "The gate is 1987 years old.",
    "The safe is 2000 euros.",
    "The safe was built in 1999.",
    "The alarm is set for 0730.",
    "My alarm is 0630 on weekdays.",
    "Alarm: 0645.",
    "The garage is 2400 sq ft.",
    "Room 4471 is at the end of the hall.",
    "The winning combination 4471 came up twice.",
    "The combination of 2024 and 2025 was tough.",
    "The next door: 2 flats down.",
    "The door is 2 metres wide.",
    "Our safe is 1995 vintage.",
    "The gate for the 9:40 flight is 4418.",
    "The door at the end of the corridor is 1990s pine.",
    "The gate at the old mill is 1850 years old.",
    "The combination of both plans is 7350 points.",
]


@pytest.mark.parametrize(("text", "secret"), FOUND)
def test_it_is_masked(text, secret):
    masked = mask_text(text)
    assert secret not in masked, masked
    assert "[secret: pin]" in masked


@pytest.mark.parametrize("text", KEPT)
def test_a_look_alike_stays(text):
    assert find_secrets(text) == [], text


def test_none_of_them_reaches_the_database_file(tmp_path):
    """On a real SQLite file (the -wal included): no code of the list is in its bytes."""
    raw = stored_bytes(tmp_path, [t for t, _ in FOUND], "~/memory/house", "s-locks")
    assert raw
    for _, secret in FOUND:
        assert secret.encode() not in raw, secret
