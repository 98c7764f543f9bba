"""A short password or PIN given outright to its word ("the router password is kq3", "pw:
b7x", "the PIN for the shed padlock is 618"), a code said by its sending ("the code the
clinic texted me is 302915") and a bank's security answer said with what asks for it ("my
mum's maiden name, for the building society, is Penrose") are masked, in a session's history
and on a page. A placeholder ("TBD", "n/a", "none yet"), an acronym ("SSO", "2FA"), a word of
the dictionary ("wrong"), one or two digits (a count), a time, a code of another kind ("the
voucher code they sent") and a maiden name said as a family's stay."""

from __future__ import annotations

import pytest

from doctree.store.secrets import find_secrets, mask_text
from tests.memory.stored_bytes import stored_bytes

FOUND = [
    ("The router password is kq3.", "kq3"),
    ("For the label printer, pw: b7x", "b7x"),
    ("The passcode for the kiosk is 9t2.", "9t2"),
    ("the garage password was Zq1, and the door one is different", "Zq1"),
    ("The password is mlk. Ask Ruth if it fails.", "mlk"),
    ("The PIN for the shed padlock is 618.", "618"),
    ("The code the clinic texted me is 302915.", "302915"),
    ("The code that the courier sent was 771 924.", "771 924"),
    ("My mum's maiden name, for the building society, is Penrose.", "Penrose"),
    ("The security answer for my savings account is Marmalade.", "Marmalade"),
    ("My first pet, for the bank's security questions, was Pickle.", "Pickle"),
]

KEPT = [
    "The intranet password: TBD.",
    "Password for the guest network: none yet.",
    "password: n/a",
    "pw: ???",
    "The password policy is SSO for everyone.",
    "I reset my password this morning.",
    "The password is wrong.",
    "The password is 2FA protected now.",
    "The new PIN is 4 digits.",
    "PIN: 6",
    "pin at 10am",
    "The voucher code they sent is 223344.",
    "The code they sent is wrong again.",
    "My mother's maiden name is Penrose, from St Ives.",
    "My first school was Elm Road Primary.",
]


@pytest.mark.parametrize(("text", "secret"), FOUND)
def test_it_is_masked(text, secret):
    masked = mask_text(text)
    assert secret not in masked, masked
    assert "[secret: " in masked


@pytest.mark.parametrize("text", KEPT)
def test_a_look_alike_stays(text):
    assert find_secrets(text) == [], text


def test_a_short_pin_is_named_a_pin():
    assert [s.kind for s in find_secrets("The PIN for the shed padlock is 618.")] == ["pin"]


def test_none_of_them_reaches_the_database_file(tmp_path):
    """On a real SQLite file (the -wal included): no secret of the list is in its bytes."""
    raw = stored_bytes(tmp_path, [t for t, _ in FOUND], "~/memory/accounts", "s-short")
    assert raw
    for text, secret in FOUND:
        # a short secret may be in any bytes by chance: it is looked for with the words
        # that give it ("is kq3")
        end = text.index(secret) + len(secret)
        said = secret if len(secret) >= 6 else text[max(0, end - 12) : end]
        assert said.encode() not in raw, said
