"""Dictation whose punctuation was said as words ("comma", "full stop", "new line") is read
as the marks it names before anything else reads it, and only where the words plainly are
dictation: never "a comma-separated list" or "the full stop at the end"."""

from __future__ import annotations

import pytest

from doctree.agent.offline.dictation import is_dictation, punctuate
from tests.agent.offline_runs import current_facts, run, transcript


@pytest.mark.parametrize(
    ("said", "written"),
    [
        (
            "the bins go out on Tuesday full stop new line recycling is every other week comma "
            "green bin first full stop",
            "The bins go out on Tuesday.\nRecycling is every other week, green bin first.",
        ),
        (
            "quick note colon my landlord is Priya Shah comma she lives upstairs full stop",
            "Quick note: my landlord is Priya Shah, she lives upstairs.",
        ),
        (
            "is the clinic open on Saturdays question mark I think so comma it was last year "
            "exclamation mark",
            "Is the clinic open on Saturdays? I think so, it was last year!",
        ),
        (
            "the car is booked in at Kilnworth open bracket the garage on Mill Road close "
            "bracket comma MOT on the 12th full stop",
            "The car is booked in at Kilnworth (the garage on Mill Road), MOT on the 12th.",
        ),
        (
            "Dinner on Friday Comma table for four Full Stop New Paragraph Bring wine Full Stop",
            "Dinner on Friday, table for four.\n\nBring wine.",
        ),
    ],
)
def test_spoken_marks_are_written_as_the_marks_they_name(said, written):
    assert punctuate(said) == written


@pytest.mark.parametrize(
    "said",
    [
        "Can you send it as a comma-separated list, not with a full stop at the end?",
        "The full stop at the end is missing, and the comma after the name too.",
        "Leave a comma between them; no colon and no semicolon either.",
        "After a trial period of a month, add a dash of milk.",
        "She had colon surgery last week and is doing well.",
        "Use a full stop, then a new line.",
    ],
)
def test_marks_spoken_of_as_things_leave_the_text_as_it_is(said):
    assert not is_dictation(said)
    assert punctuate(said) == said


def test_two_spoken_marks_are_not_yet_dictation():
    said = "the plan is comma we leave at six full stop"
    assert not is_dictation(said)
    assert punctuate(said) == said


def test_a_demonstrative_before_a_mark_in_dictation_ends_what_was_said():
    said = "the code is on the fridge comma don't write that full stop new line see you later full stop"
    assert punctuate(said) == "The code is on the fridge, don't write that.\nSee you later."


def test_dictated_sentences_are_kept_as_the_statements_they_are(repo):
    text = transcript(
        "s-dict",
        (
            "user",
            "2031-03-02T09:00:00Z",
            "voice note comma sorry full stop new line the school play is on Thursday 12 March "
            "at 6pm full stop new line my nephew Callum plays the lead open bracket he's nine "
            "close bracket full stop",
        ),
        ("assistant", "2031-03-02T09:01:00Z", "Noted."),
    )
    run(repo, text)
    facts = current_facts(repo)
    assert "The school play is on Thursday 12 March (2031-03-12) at 6pm." in facts
    assert "full stop" not in facts and "open bracket" not in facts


@pytest.mark.parametrize(
    ("said", "written"),
    [
        ("ARRIVED OSLO STOP HOTEL FULL STOP STAYING WITH INGRID STOP",
         "ARRIVED OSLO. HOTEL FULL. STAYING WITH INGRID."),
        ("FERRY LATE STOP BACK THURSDAY 9PM STOP", "FERRY LATE. BACK THURSDAY 9PM."),
    ],
)  # fmt: skip
def test_a_telegrams_stops_in_capitals_are_full_stops(said, written):
    assert punctuate(said) == written


@pytest.mark.parametrize(
    "said",
    [
        "STOP asking me. I said STOP!",  # a shout, twice, in a sentence
        "Meet at the bus STOP.",
        "BACK THURSDAY STOP",  # one alone
    ],
)
def test_a_stop_that_is_no_telegrams_stays_as_it_is(said):
    assert punctuate(said) == said


def test_a_telegrams_secret_is_left_out_and_its_other_sentences_kept(repo):
    run(
        repo,
        transcript(
            "s-tg",
            ("user", "2031-06-02T09:00:00Z",
             "IN REYKJAVIK STOP SISTER ODDNY ARRIVES JUNE 9 STOP WIFI PASSWORD GULL#5521 STOP"),
        ),
    )  # fmt: skip
    now = current_facts(repo)
    assert "GULL#5521" not in now
    assert any(
        "ODDNY" in ln.upper() and "2031-06-09" in ln and "secret" not in ln
        for ln in now.splitlines()
    ), now
