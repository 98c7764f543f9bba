"""A bare "key" given as a field is a secret when what it opens is named before it in the
clause (a network, a router, a lock, a safe: "Hotspot: Lindenhof, key: 4rT9vx2Lpq") or when its
value looks generated (letters and digits mixed, eight or more, no word of the dictionary in
them: "key: 5d2e91ab07"). A key that is a thing ("key: the brass one"), a place ("key: behind
the plant pot"), "key points", an identifier's key ("the project file key is …", "primary key:
…") and a reference ("key: ORD20251104") stay."""

from __future__ import annotations

import pytest

from doctree.store.secrets import find_secrets, mask_text
from tests.agent.offline_runs import run, transcript

FOUND = [
    ("Hotspot: Lindenhof, key: 4rT9vx2Lpq", "4rT9vx2Lpq"),
    ("The router at the studio is Orbi-5G, key is mK72pQ0zte.", "mK72pQ0zte"),
    ("Bike locker 12, key: 80417", "80417"),
    ("Guest network Heron, key: lorvantik", "lorvantik"),
    ("key: 5d2e91ab07", "5d2e91ab07"),
    ("- Key: x9Qv27LmRt", "x9Qv27LmRt"),
    ("Licence for the editor (key: Z8k3Wq71nB)", "Z8k3Wq71nB"),
    ("The key is 0c7fa3b9e2.", "0c7fa3b9e2"),
]

KEPT = [
    "Spare key: the brass one on the hall hook.",
    "Shed key: behind the plant pot.",
    "Garden safe: by the gate, key: spare",
    "Key points: rent is due on the 3rd and bins go out Tuesday.",
    "Key dates: moving day on June 2nd.",
    "The project file key is Ab12Cd34Ef56Gh78, page 2.",
    "primary key: order_id2024",
    "key: ORD20251104",
    "key: Room12Annex",
    "The key is in the drawer by the door.",
    "Network: home, key: password",
    "Safe deposit box, key: 2019",
    "The key to the shed is 40 years old.",
]


@pytest.mark.parametrize(("text", "secret"), FOUND)
def test_a_bare_key_of_a_network_or_lock_or_a_generated_value_is_masked(text, secret):
    assert find_secrets(text), text
    assert secret not in mask_text(text)


@pytest.mark.parametrize("text", KEPT)
def test_a_key_that_is_a_thing_a_place_or_an_identifier_stays(text):
    assert not find_secrets(text), (text, find_secrets(text))


def test_a_bare_key_never_reaches_a_page(repo):
    run(repo, transcript("s-key", ("user", "2031-03-03T18:00:00Z",
                                   "The boat's wifi is Kestrel, key: p3Lw8Zr2Vd. Spare key: the red one.")))  # fmt: skip
    text = "\n".join(d.body for d in repo.documents("main", "~/memory"))
    assert "p3Lw8Zr2Vd" not in text
    assert "Kestrel" in text and "the red one" in text
