"""A PIN or password named with whose it is in another language ("die PIN meiner Bankkarte
ist …", "il PIN della carta è …", "le mot de passe du routeur est …") is masked as the English
"the PIN of my card is …" is; a "pin" that is a verb stays."""

from __future__ import annotations

import pytest

from doctree.store.secrets import find_secrets


def found(text: str) -> list[str]:
    return [text[s.start : s.end] for s in find_secrets(text)]


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("Die PIN meiner Sparkarte ist 5917.", "5917"),
        ("Il PIN della carta è 5917.", "5917"),
        ("Le mot de passe du routeur est Heron!Vale62", "Heron!Vale62"),
        ("PIN des Diensthandys: 5917", "5917"),
    ],
)
def test_whose_it_is_said_abroad(text, secret):
    assert secret in found(text)


@pytest.mark.parametrize(
    "text",
    ["please pin the parser to 3.12.1 for now", "der Code des Fehlers war lang"],
)
def test_nothing_masked(text):
    assert found(text) == []
