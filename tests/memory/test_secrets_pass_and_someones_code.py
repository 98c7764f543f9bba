""" "Pass" for a password after the login it goes with ("the login is j.harper and the pass is
…"), and a person's code given as digits ("His code is 481926": a door, alarm or safe's, said
of whom it is), are masked in a session's history, a page and the pages the offline memory
agent writes. A bus or boarding pass, a postcode, a zip code, a dress code and a discount
code stay, and so does a pass or code that is no value. So is a password given to a database
client after "-p" ("mysql -u root -pS3cretPass!"); "-p" alone, which asks for it, stays."""

from __future__ import annotations

import pytest

from doctree.store.secrets import find_secrets, mask_text
from tests.memory.stored_bytes import stored_bytes

FOUND = [
    ("The login for the climbing wall is r.okafor and the pass is Heron!Slate48", "Heron!Slate48"),
    ("username mo.haddad, the pass is Quince#77harbour", "Quince#77harbour"),
    ("account: kiln_admin / pass: Vx8!rrT2q", "Vx8!rrT2q"),
    ("Apple ID: mo@example.com pass: Grape!Tree33", "Grape!Tree33"),
    ("mysql -u root -pS3cretPass! shop", "S3cretPass!"),
    ("mysqldump -h db -u app -pHx82kq91 shop > shop.sql", "Hx82kq91"),
    ("His code is 739104.", "739104"),
    ("Gran's code is 2268, she keeps forgetting it.", "2268"),
    ("Their code was 55170 for the side door.", "55170"),
]

KEPT = [
    "My bus pass is 0042 1234.",
    "My boarding pass is 14C.",
    "The pass is valid until Friday.",
    "My account is linked to my monthly pass, which is 12345678.",
    "The postcode is SW1A 1AA.",
    "His zip code is 90210.",
    "The dress code is smart casual.",
    "Use discount code SAVE20 at checkout.",
    "His code is broken again.",
    "Her code is 2024-11-03 in the changelog.",
    "My code is on GitHub.",
    "mysql -u root -p shop",
    "mysql -u root -p",
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
    """On a real SQLite file (the -wal included): no secret of the list is in its bytes."""
    raw = stored_bytes(tmp_path, [t for t, _ in FOUND], "~/memory/accounts", "s-codes")
    assert raw
    for _, secret in FOUND:
        assert secret.encode() not in raw, secret
