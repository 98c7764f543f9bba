"""A password spelled out one character at a time ("the wifi password is k e s t r e l 4 1",
"p-l-u-m-9-!") and a key safe, lockbox or padlock's code after a comma at the end of its
clause ("the spare key's in the lockbox, 607481") are masked, and no copy reaches the database
file. A rule for a password ("a-z, 0-9"), a password said of in words and a lockbox's year or
count stay."""

from __future__ import annotations

import pytest

from doctree.store.secrets import find_secrets, mask_text
from tests.memory.stored_bytes import stored_bytes

FOUND = [
    ("the wifi password is k e s t r e l 4 1", "k e s t r e l 4 1"),
    ("Router password: p-l-u-m-9-!", "p-l-u-m-9-!"),
    ("ok so my password's W-r-e-n-8-8, capital W", "W-r-e-n-8-8"),
    ("The spare key's in the lockbox, 607481", "607481"),
    ("bike's on the padlock by the shed, 331852.", "331852"),
]

KEPT = [
    "Password: a-z, 0-9 and one symbol.",
    "The password is a mess, I'll reset it.",
    "My password is I think 8 letters long.",
    "The lockbox, 1998 model, is rusty.",
    "The key safe, 2 metres up, is hard to reach.",
]


@pytest.mark.parametrize(("text", "secret"), FOUND)
def test_it_is_masked(text, secret):
    masked = mask_text(text)
    assert secret not in masked, masked
    assert "[secret: " in masked


@pytest.mark.parametrize("text", KEPT)
def test_a_look_alike_stays(text):
    assert find_secrets(text) == [], text


def test_none_of_them_reaches_the_database_file(tmp_path):
    raw = stored_bytes(tmp_path, [t for t, _ in FOUND], "~/memory/house", "s-spelled")
    assert raw
    for _, secret in FOUND:
        assert secret.encode() not in raw, secret
