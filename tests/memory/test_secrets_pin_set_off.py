"""A PIN named in a sentence whose digits come later in it, set off by commas, a colon or a
dash ("I put the card PIN in my diary so I'd not lose it, 3927, is that daft?") is masked;
the verb "pin", a year, an amount or a date in a sentence naming a PIN stay."""

from __future__ import annotations

import pytest

from doctree.store.secrets import find_secrets, mask_text

FOUND = [
    ("I put the card PIN in my diary so I'd not lose it, 3927, is that daft?", "3927"),
    ("The new debit card PIN came by letter this morning: 60418.", "60418"),
    ("My phone's PIN number, which I always forget, 7713, can you hold on to it?", "7713"),
    ("Set the passcode on the tablet for the kids - 248163.", "248163"),
]

KEPT = [
    "Please pin the numpy version, 1214, in the requirements.",
    "The PIN machine at the till was broken, 2043 was a bad year for it.",
    "The PIN letter was sent on 14.03.2044, so it should be here.",
    "The PIN reset costs £5, 2 days to arrive.",
    "Can you pin this to the board, 4 copies.",
]


@pytest.mark.parametrize(("text", "secret"), FOUND)
def test_it_is_masked(text, secret):
    masked = mask_text(text)
    assert secret not in masked, masked
    assert "[secret: pin]" in masked


@pytest.mark.parametrize("text", KEPT)
def test_a_look_alike_stays(text):
    assert find_secrets(text) == [], text
