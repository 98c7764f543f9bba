"""Secrets said in ways the keyword patterns missed: a router's key after its sticker, a
password given as words, a wallet's words called by their count, a PIN or password said by
the rule it is made by (the rule with the facts memory holds gives the code, so it is
withheld as the code would be), a security question's answer, a service key by its shape.
None of them reaches the database; ordinary sentences with the same words stay as said."""

from __future__ import annotations

import pytest

from doctree.store.secrets import mask
from tests.memory.stored_bytes import stored_bytes

FOUND = [
    ("The router sticker: q8W3-zT6n-Lp2R", "q8W3-zT6n-Lp2R"),
    ("It's on the back of the modem, sticker says 5mK9-aV2c-Rt7x.", "5mK9-aV2c-Rt7x"),
    ("The sticker on the router: Jd4k81Wq", "Jd4k81Wq"),
    ("The wifi password is copper walrus sixty one.", "copper walrus"),
    ("Wi-Fi password: copper walrus sixty one", "copper walrus"),
    ("The password for the guest network is amber heron seventeen.", "amber heron"),
    (
        "The twelve words for my wallet are cobalt river mint saddle opera lunch "
        "crisp vapor tulip gravel honey mango.",
        "cobalt river mint",
    ),
    (
        "mnemonic: cobalt river mint saddle opera lunch crisp vapor tulip gravel honey mango",
        "saddle opera",
    ),
    ("My PIN is my birth year backwards.", "birth year backwards"),
    ("The safe code is our anniversary twice.", "anniversary twice"),
    ("My work password is my cat's name plus 77.", "name plus 77"),
    ("My security question answer is Wobbles1992.", "Wobbles1992"),
    ("The key for the tide service: td_live_9c8b7a6f5e4d3c2b1a0f", "9c8b7a6f5e4d3c2b1a0f"),
]


@pytest.mark.parametrize(("text", "secret"), FOUND)
def test_the_secret_is_masked(text, secret):
    masked, found = mask(text)
    assert found and secret not in masked


def test_none_of_them_reaches_the_database(tmp_path):
    raw = stored_bytes(tmp_path, [t for t, _ in FOUND], "~/memory/accounts", "s-codes")
    for _, secret in FOUND:
        assert secret.encode() not in raw


@pytest.mark.parametrize(
    "text",
    [
        "The sticker on the router says model AX55.",
        "The router sticker is peeling off.",
        "The password is eight characters long.",
        "The wifi password is on the fridge.",
        "The password is case sensitive.",
        "The wifi password is still the same.",
        "The password is changing next week.",
        "My PIN is my own business.",
        "My password is my usual one.",
        "My PIN is on the back of the card.",
        "The combination of flavours is my favourite part.",
        "I wrote twelve words for my essay title and cut them all.",
    ],
)
def test_ordinary_sentences_stay_as_said(text):
    assert mask(text) == (text, [])
