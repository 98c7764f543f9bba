"""A request to forget a thing named by one word ("forget the van") reaches the lines that
say the word as a whole word, and its plural, not a line that says it only as part of another
thing's name ("the van depot", "van hire"), when memory also says the word of its own. Said
only so, the other thing is what the request means, and it goes."""

from __future__ import annotations

import pytest

from doctree.agent.offline.language import only_compounded
from tests.agent.offline_runs import run, transcript


def text(repo) -> str:
    return "\n".join(
        d.body for d in repo.documents("main", "~/memory") if "/archive/" not in d.path
    )


def test_forget_the_van_leaves_the_van_depot(repo):
    run(repo, transcript("s-1",
        ("user", "2031-04-01T09:00:00Z", "The van needs new brake pads before June."),
        ("user", "2031-04-01T09:01:00Z", "I collect parcels at the van depot on Quay Road.")))  # fmt: skip
    run(repo, transcript("s-2", ("user", "2031-04-02T09:00:00Z", "Forget the van.")))
    got = text(repo)
    assert "brake pads" not in got
    assert "van depot" in got


def test_forget_a_thing_said_only_in_a_compound_takes_it(repo):
    run(repo, transcript("s-1",
        ("user", "2031-04-01T09:00:00Z", "The greenhouse heater costs 40 pounds a month."),
        ("user", "2031-04-01T09:01:00Z", "I swim on Thursdays.")))  # fmt: skip
    run(repo, transcript("s-2", ("user", "2031-04-02T09:00:00Z", "Forget the greenhouse.")))
    got = text(repo)
    assert "40 pounds" not in got
    assert "swim" in got


@pytest.mark.parametrize(
    ("line", "word", "compounded"),
    [
        ("Parcels wait at the van depot on Quay Road.", "van", True),
        ("The van hire ends on Friday.", "van", True),
        ("The van needs new brake pads.", "van", False),
        ("We sold the van yesterday.", "van", False),
        ("I took the van home.", "van", False),
        ("The van's tax is due.", "van", False),
        ("Both vans are parked outside.", "van", False),
        ("The van, the bike and the boat.", "van", False),
        ("The van outside is ours.", "van", False),
        ("The park near the school closes at dusk.", "park", False),
        ("The cat sat on the boiler.", "cat", False),
        ("Our dog Biscuit Brown barks.", "biscuit", False),
        ("Nothing here says it.", "van", False),
    ],
)
def test_only_compounded(line, word, compounded):
    assert only_compounded(line, word) is compounded
