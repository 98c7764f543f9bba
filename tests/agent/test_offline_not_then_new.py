"""A day corrected with the old one said first ("it's not Thursday week, it's Friday
week"): the earlier line that said that day in the same words gets the new one, whatever
"it" is; a line that says the day otherwise, or a correction of a day no line says, moves
nothing."""

from __future__ import annotations

from datetime import date

from doctree.agent.offline import supersession
from tests.agent.offline_runs import current_facts, past_facts, run, transcript

SAID_ON = date(2031, 3, 3)  # a Monday
LINE = "Gran's cataract op is at Singleton, Thursday week (2031-03-13)."
BEFORE = "The letter from the clinic came this morning."


def test_a_day_said_not_then_the_new_one_replaces_the_line_that_said_it_alike():
    text = "It's not Thursday week (2031-03-13), it's Friday week (2031-03-14)."
    reps = supersession.replacements(text, LINE, before=BEFORE, said_on=SAID_ON)
    assert [(r.old.norm, r.new.norm) for r in reps if r.cued] == [("2031-03-13", "2031-03-14")]


def test_the_same_day_said_in_other_words_is_not_the_one_corrected():
    text = "It's not Thursday week (2031-03-13), it's Friday week (2031-03-14)."
    line = "I've asked work for the Thursday (2031-03-13) off."
    assert not supersession.replacements(text, line, before=BEFORE, said_on=SAID_ON)


def test_a_day_said_not_that_no_line_says_moves_nothing():
    text = "It's not Wednesday week (2031-03-12), it's Friday week (2031-03-14)."
    assert not supersession.replacements(text, LINE, before=BEFORE, said_on=SAID_ON)


def test_a_line_of_two_sentences_has_its_day_edited_though_one_says_from_and_one_now(repo):
    run(
        repo,
        transcript(
            "s-op",
            ("user", "2031-03-03T18:00:00Z",
             "Gran's cataract op is at Singleton, Thursday week. Nothing to eat from midnight "
             "before. My uncle is driving her now that he's retired."),
            ("user", "2031-03-03T18:05:00Z",
             "The letter from the clinic came this morning. It's not Thursday week, it's "
             "Friday week."),
        ),
    )  # fmt: skip
    now, past = current_facts(repo), past_facts(repo)
    assert any("Singleton" in ln and "2031-03-14" in ln for ln in now.splitlines()), now
    assert not any("Singleton" in ln and "2031-03-13" in ln for ln in now.splitlines()), now
    assert "2031-03-13" in past, past


def test_a_from_and_a_now_in_two_sentences_of_a_line_tell_no_change_and_its_day_is_edited():
    line = (
        "Gran's cataract op is at Singleton, Thursday week (2031-03-13). Nothing to eat from "
        "midnight. My uncle is driving her now that he's retired."
    )
    text = "It's not Thursday week (2031-03-13), it's Friday week (2031-03-14)."
    edited = supersession.edited_in_session(text, line, before=BEFORE, said_on=SAID_ON)
    assert edited is not None
    assert "Singleton, Friday 14 March (2031-03-14). Nothing to eat from midnight." in edited[0]


def test_a_change_told_in_one_sentence_of_a_line_is_never_edited():
    line = "Ana moved the op from Thursday (2031-03-13) to Monday (2031-03-17). She rang me."
    text = "The op is now on Tuesday (2031-03-18)."
    assert supersession.edited_in_session(text, line, before=BEFORE, said_on=SAID_ON) is None
