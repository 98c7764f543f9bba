"""A network's or a user's name said beside a password is no credential, however random it
looks: "network TP-Link_4F2A, password …" masks the password only. A token near a password
word with nothing naming it otherwise is still masked."""

from __future__ import annotations

import pytest

from doctree.store.secrets import find_secrets


def found(text: str) -> list[str]:
    return [text[s.start : s.end] for s in find_secrets(text)]


@pytest.mark.parametrize(
    ("text", "secret", "name"),
    [
        ("cabin wifi network Birk-Net_7Q2 password Otter!Lamp83", "Otter!Lamp83", "Birk-Net_7Q2"),
        ("the Wi-Fi name is Moss2Gate9 and password is Otter!Lamp83", None, "Moss2Gate9"),
        ("La wifi: Vela-5G_88x, mot de passe: Otter!Lamp83", "Otter!Lamp83", "Vela-5G_88x"),
        ("SSID: Quill-77Rt, password: Otter!Lamp83", "Otter!Lamp83", "Quill-77Rt"),
        ("log in as user Fenn-4412 with password Otter!Lamp83", "Otter!Lamp83", "Fenn-4412"),
    ],
)
def test_the_name_beside_a_password_stays(text, secret, name):
    got = found(text)
    assert name not in got
    if secret is not None:
        assert secret in got


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("I use Heron-4420 as my password", "Heron-4420"),
        ("the wifi is Otter!Lamp83, that's the password", "Otter!Lamp83"),
        ("network key Otter!Lamp83", "Otter!Lamp83"),
        ("Wi-Fi: Otter!Lamp83 (password)", "Otter!Lamp83"),
    ],
)
def test_a_token_named_by_nothing_else_is_still_masked(text, secret):
    assert secret in found(text)
