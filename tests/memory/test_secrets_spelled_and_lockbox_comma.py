"""A password spelled out one character at a time ("the wifi password is k e s t r e l 4 1",
"p-l-u-m-9-!") and a key safe, lockbox or padlock's code after a comma at the end of its
clause ("the spare key's in the lockbox, 607481") are masked, and no copy reaches the database
file. A rule for a password ("a-z, 0-9"), a password said of in words and a lockbox's year or
count stay."""

from __future__ import annotations

import pytest

from doctree.sessions.repository import SessionsRepository
from doctree.store.documents import DocumentsRepository
from doctree.store.secrets import find_secrets, mask_text
from tests.agent.offline_runs import run, transcript

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
    db = tmp_path / "s.db"
    with SessionsRepository(db) as s:
        s.create("main", "s-1")
        for text, _ in FOUND:
            s.append_history("s-1", "user", text)
    repo = DocumentsRepository(db)
    try:
        repo.write("main", "~/memory/house", "\n".join(t for t, _ in FOUND))
        times = [f"2031-04-04T08:{i:02d}:00Z" for i in range(len(FOUND))]
        messages = [("user", t, text) for t, (text, _) in zip(times, FOUND, strict=True)]
        run(repo, transcript("s-spelled", *messages))
    finally:
        repo.close()
    raw = b"".join(p.read_bytes() for p in db.parent.glob(db.name + "*"))
    assert raw
    for _, secret in FOUND:
        assert secret.encode() not in raw, secret
