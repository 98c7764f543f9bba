"""A secret's word and its value joined by an arrow or a spaced dash ("API key → …",
"password -> …", "token -- …") is a secret as after ":" (it reached the database whole);
a password its word gives that mixes letters and figures is one even when its characters
repeat ("wifi password: Gr33nT34"). What follows such a word that is no value stays."""

from __future__ import annotations

from pathlib import Path

import pytest

from doctree.store.documents import DocumentsRepository
from doctree.store.secrets import mask_text
from tests.agent.offline_runs import run, transcript

KEY = "9c4e1b7a2f6d8e0c3b5a7f9e1d2c4b6a"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (f"the staging API key → {KEY}, keep it safe", KEY),
        (f"API key -> {KEY}", KEY),
        (f"signing key => {KEY}", KEY),
        ("token -- q7Lm2Xv9Rt4Wz8Kp1Ny6", "q7Lm2Xv9Rt4Wz8Kp1Ny6"),
        ("router password → Pl4ntP0t!", "Pl4ntP0t"),
        ("alarm password — Kx9!mB2q", "Kx9!mB2q"),
        ("wifi password: Gr33nT34", "Gr33nT34"),
        ("the shed wifi key is B00kB00k7", "B00kB00k7"),
    ],
)
def test_a_value_after_an_arrow_or_a_dash_is_masked(text, value):
    assert value not in mask_text(text)


@pytest.mark.parametrize(
    "text",
    [
        "password → reset it tomorrow",
        "the token -> will expire on Friday",
        "password - see the sheet in the office",
        "API key — ask Dana for it",
        "password reset on 2024-05-01",
        "the wifi password is v2 now",
    ],
)
def test_what_is_no_value_stays(text):
    assert mask_text(text) == text


def test_an_arrowed_key_never_reaches_the_database_file(tmp_path: Path):
    with DocumentsRepository(tmp_path / "k.db") as repo:
        run(
            repo,
            transcript(
                "s-one",
                ("user", "2031-09-01T10:00:00Z", f"Here is the billing API key → {KEY} for later."),
                ("assistant", "2031-09-01T10:01:00Z", "I won't keep that."),
            ),
        )
        assert repo.documents("main", "~/memory")  # the session was written
    raw = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.name.startswith("k.db"))
    assert KEY.encode() not in raw
