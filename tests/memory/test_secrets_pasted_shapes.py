"""Secrets in the shapes people paste that reached the database before: a password said to
be another's and then given ("the same as the bank one: …"), a webhook's signing secret
under a setting named neither key nor password, a login handed to curl ("-u name:pass") or
in an HTTP basic authentication header, a password in a sentence written in capitals,
backup codes of digits only, an age secret key, the private lines of a PuTTY key file.
Each is masked in a session's history, a page and the pages the offline memory agent
writes; the look-alikes (a shell variable after "-u", a realm after "Basic", a setting
that only says signing is on, a sentence in capitals that says what a password is) stay."""

from __future__ import annotations

import pytest

from doctree.sessions.repository import SessionsRepository
from doctree.store.documents import DocumentsRepository
from doctree.store.secrets import find_secrets, mask_text
from tests.agent.offline_runs import run, transcript

AGE_KEY = "AGE-SECRET-KEY-1" + ("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L" * 2)[:58]
PUTTY_LINES = "AAAAgQC8qz3rXo5Pz1vY7aB2cD4eF6gH8iJ0kLmN1oP2qR3sT4u\nVw5xY6zA7bC8dE9fG0hI1jK2lM3nO4p"

FOUND = [
    ("my netflix password is the same as the wifi one: lanternfish", "lanternfish"),
    ("my email password is the same as the bank one: quillorchard", "quillorchard"),
    ("wifi password same as last year's: pebbletrain", "pebbletrain"),
    ("the gate code is the same as the garage one: 4471", "4471"),
    ("my PIN is the same as my old one - 8824", "8824"),
    (
        "STRIPE_WEBHOOK_SIGNING=whsec_9fK2mQ7xLp4Rt8vZ1nB6cW3yH5jD0sAe",
        "whsec_9fK2mQ7xLp4Rt8vZ1nB6cW3yH5jD0sAe",
    ),
    ("the signing secret is whsec_Qm7xLp4Rt8vZ1nB6cW3yH5jD", "whsec_Qm7xLp4Rt8vZ1nB6cW3yH5jD"),
    ("GITHUB_HOOK_SIGNING=8c1f0e9d7b6a5c4d3e2f1a0b9c8d7e6f", "8c1f0e9d7b6a5c4d3e2f1a0b9c8d7e6f"),
    ("curl -u ops:Tr1ckyHarbor42 https://api.example.net/v1/jobs", "Tr1ckyHarbor42"),
    ("curl -u deploy:mossgarden https://ci.example.org/api", "mossgarden"),
    ("curl --user admin:Bluefin88! https://x.example.com", "Bluefin88!"),
    ("Authorization: Basic ZGVwbG95OnRyaWNreWhhcmJvcg==", "ZGVwbG95OnRyaWNreWhhcmJvcg=="),
    (
        "curl -H 'Authorization: Basic YWRtaW46cGFzc3dvcmQxMjM=' https://x.example.com",
        "YWRtaW46cGFzc3dvcmQxMjM=",
    ),
    ("THE WIFI PASSWORD IS OTTERSLIDE", "OTTERSLIDE"),
    (
        "backup codes: 48213957 91027364 55819203 66320148 10293847 75648392 20384756 99182736",
        "55819203",
    ),
    (f"age key for the backups: {AGE_KEY}", AGE_KEY),
    (
        f"PuTTY-User-Key-File-3: ssh-rsa\nEncryption: none\nPrivate-Lines: 2\n{PUTTY_LINES}\n",
        PUTTY_LINES.split("\n")[1],
    ),
]

KEPT = [
    "The password is the same as the old one: still annoying to type.",
    "My password is the same as yours: see the note.",
    "Is my PIN the same as the card one? No idea.",
    "the gate code is the same as last year: ask Jo",
    "The wifi password is the same as the router sticker - check it.",
    "docker run -u 1000:1000 -v $PWD:/app image",
    "curl -u $USER:$TOKEN https://api.example.com",
    "curl -u <user>:<password> https://api.example.com",
    'Authorization: Basic realm="Access to staging"',
    "WWW-Authenticate: Basic realm=site",
    "Use Basic auth with the Authorization header.",
    "THE PASSWORD IS REQUIRED",
    "MY PASSWORD IS INCORRECT, SAYS THE SCREEN",
    "backup codes: see the printout from 20240115",
    "GPG_SIGNING=true",
    "COMMIT_SIGNATURE=required",
    "EMAIL_SIGNATURE=Best regards from the whole team",
]


@pytest.mark.parametrize(("text", "secret"), FOUND)
def test_a_secret_in_a_pasted_shape_is_masked(text, secret):
    masked = mask_text(text)
    assert secret not in masked, masked
    assert "[secret: " in masked


@pytest.mark.parametrize("text", KEPT)
def test_a_look_alike_stays(text):
    assert find_secrets(text) == [], text


def _bytes(db) -> bytes:
    return b"".join(p.read_bytes() for p in db.parent.glob(db.name + "*"))


def test_none_of_them_reaches_the_database_file(tmp_path):
    """Through a session's history, a page's body and the offline memory agent's pages, on
    a real SQLite file (the -wal included): no secret of the list above is in its bytes."""
    db = tmp_path / "s.db"
    with SessionsRepository(db) as s:
        s.create("main", "s-1")
        for text, _ in FOUND:
            s.append_history("s-1", "user", text)
    repo = DocumentsRepository(db)
    try:
        repo.write("main", "~/memory/accounts", "\n".join(t for t, _ in FOUND))
        times = [f"2031-03-03T18:{i:02d}:00Z" for i in range(len(FOUND))]
        messages = [("user", t, text) for t, (text, _) in zip(times, FOUND, strict=True)]
        run(repo, transcript("s-pasted", *messages))
    finally:
        repo.close()
    raw = _bytes(db)
    for _, secret in FOUND:
        assert secret.encode() not in raw, secret
