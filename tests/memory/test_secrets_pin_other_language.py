"""A PIN given with "is" said in another language ("my PIN ni 3817", "PIN ist 3817") is a
PIN: masked in a session's history, a page and the pages the offline memory agent writes,
down to the bytes of the database file. A "pin" that is no code stays."""

from __future__ import annotations

import pytest

from doctree.store.secrets import mask_text
from tests.memory.stored_bytes import stored_bytes

FOUND = [
    ("Oh and my bank PIN ni 3817 in case nisahau.", "3817"),
    ("Mi PIN es 6042, no lo olvides.", "6042"),
    ("Le code PIN est 9153.", "9153"),
    ("Die PIN ist 2708.", "2708"),
    ("The gate code ni 5529.", "5529"),
]

KEPT = [
    "The pin is in the drawer.",
    "Pin es la palabra, not a number.",
    "Pin 2 of the header is ground.",
]


@pytest.mark.parametrize(("text", "value"), FOUND)
def test_a_pin_said_with_is_in_another_language_is_masked(text, value):
    assert value not in mask_text(text)


@pytest.mark.parametrize("text", KEPT)
def test_a_pin_that_is_no_code_stays(text):
    assert mask_text(text) == text


def test_no_such_pin_reaches_the_database_file(tmp_path):
    stored = stored_bytes(tmp_path, [t for t, _ in FOUND], "~/memory/notes/pins", "s-pin")
    for _, value in FOUND:
        assert value.encode() not in stored, value
