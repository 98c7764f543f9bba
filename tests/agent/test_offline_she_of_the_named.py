""" "My son's tutor, Ms Ferro, … She suggested Thursday": the one named is the tutor, whom the
"she" means (a title tells her gender), never the son the tutor is of; and a day put forward
("suggested Thursday") is still to come, however past the verb."""

from __future__ import annotations

from tests.agent.offline_runs import current_facts, run, transcript

DAY = "2037-06-03T17:"  # a Wednesday


def _facts(repo, *said: str) -> str:
    run(repo, transcript("s-she", *[("user", f"{DAY}{i:02d}:00Z", x) for i, x in enumerate(said)]))
    return current_facts(repo)


def test_the_she_is_the_one_named_not_whose_they_are(repo):
    facts = _facts(
        repo, "My son's tutor, Ms Ferro, wants a word.", "She suggested Thursday at 4:15."
    )
    assert "Ms Ferro suggested Thursday (2037-06-04)" in facts
    assert "son suggested" not in facts


def test_a_kin_words_own_things_keep_the_she(repo):
    facts = _facts(repo, "My niece's party is on Saturday.", "She wants a dinosaur cake.")
    assert "The user's niece wants a dinosaur cake" in facts


def test_a_title_tells_the_he(repo):
    facts = _facts(repo, "My sister rang, and Mr Dlamini next door came round.", "He wants £80.")
    assert "Mr Dlamini wants £80" in facts
