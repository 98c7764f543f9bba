"""A request naming a thing of a person's ("what I said about Priya's dad", "Sam's car")
takes back that thing only, as it concerns them: the person's other lines stay, whether the
thing is named by a short word or by a word that names a relative."""

from __future__ import annotations

import pytest

from tests.agent.offline_runs import everything, run, transcript

CASES = [
    # a relative of theirs: not a person of its own, nor all of the owner
    (["My friend Wiktor starts his new job on April 16th.", "Wiktor's dad has cancer."],
     "Forget what I said about Wiktor's dad.", ["2031-04-16", "new job"], ["cancer"]),
    (["Odile's mum is in hospital with a broken hip.", "Odile flies to Lisbon on April 9th."],
     "please forget the bit about Odile's mum", ["2031-04-09", "Lisbon"], ["broken hip"]),
    # a thing named by a word of two letters
    (["Tuva's ex keeps phoning her at night.", "Tuva's wedding is on April 28th."],
     "Please forget the stuff about Tuva's ex.", ["2031-04-28", "wedding"], ["phoning"]),
    # a thing named by a word of three letters
    (["Bruno's car failed its inspection.", "Bruno starts at the new office on April 17th."],
     "Forget what I told you about Bruno's car.", ["2031-04-17", "new office"], ["inspection"]),
]  # fmt: skip


@pytest.mark.parametrize(("said", "asked", "kept", "gone"), CASES)
def test_the_same_session(repo, said, asked, kept, gone):
    times = [f"2031-04-03T18:{i:02d}:00Z" for i in range(len(said) + 1)]
    msgs = [*said, asked]
    run(repo, transcript("s-own", *[("user", t, m) for t, m in zip(times, msgs, strict=True)]))
    text = everything(repo)
    for k in kept:
        assert k in text, (k, text)
    for g in gone:
        assert g not in text, (g, text)


@pytest.mark.parametrize(("said", "asked", "kept", "gone"), CASES)
def test_a_later_session(repo, db_path, said, asked, kept, gone):
    times = [f"2031-04-03T18:{i:02d}:00Z" for i in range(len(said))]
    run(repo, transcript("s-said", *[("user", t, m) for t, m in zip(times, said, strict=True)]))
    run(repo, transcript("s-asked", ("user", "2031-04-04T09:00:00Z", asked)))
    text = everything(repo, archive=False)
    for k in kept:
        assert k in text, (k, text)
    for g in gone:
        assert g not in text, (g, text)
