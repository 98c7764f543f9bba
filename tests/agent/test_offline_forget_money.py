""" "Forget Omar and the money": the money is the sum said beside him ("he owes me £300"),
whether the request comes in the same conversation or a later one; a sum said of no one
named in it (the rent) stays, and so does what else is said of him."""

from __future__ import annotations

from tests.agent.offline_runs import everything, run, transcript

SAID = [
    "I lent Bertil £250 for his van repair, he says he'll pay it back in May.",
    "My rent is £875 a month now.",
    "Bertil is starting at the bakery on Monday.",
]
ASKED = "Forget I mentioned Bertil and the money, please."


def test_the_same_conversation(repo):
    day = "2034-06-03T19:"
    msgs = [*SAID, ASKED]
    run(repo, transcript("s-m", *[("user", f"{day}{i:02d}:00Z", m) for i, m in enumerate(msgs)]))
    text = everything(repo, archive=False)
    assert "£250" not in text
    assert "£875" in text
    assert "bakery" in text


def test_a_later_conversation(repo):
    run(
        repo,
        transcript("s-a", *[("user", f"2034-06-03T19:{i:02d}:00Z", m) for i, m in enumerate(SAID)]),
    )
    run(repo, transcript("s-b", ("user", "2034-06-12T08:00:00Z", ASKED)))
    text = everything(repo, archive=False)
    assert "£250" not in text
    assert "£875" in text
    assert "bakery" in text


def test_a_sum_is_the_money_only_beside_the_person():
    from doctree.agent.offline.forms import says_sum

    assert says_sum("Bertil owes me 40 quid.", {"money"})
    assert says_sum("He paid €1,200 upfront.", {"cash"})
    assert not says_sum("Bertil owes me a favour.", {"money"})
    assert not says_sum("Bertil owes me £40.", {"van"})
