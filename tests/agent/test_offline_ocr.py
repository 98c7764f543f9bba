"""A letter pasted from a phone scan ('1' for 'l', '0' for 'O', 'rn' for 'm', words
hyphenated across line breaks) is put right before it is read; numbers, codes and references
that are meant to hold digits are never touched."""

from __future__ import annotations

import pytest

from doctree.agent.offline.ocr import normalise
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript


@pytest.mark.parametrize(
    ("scanned", "meant"),
    [
        ("The boi1er service is on 3 March, p1ease be in.", "The boiler service is on 3 March, please be in."),
        ("0ur engineer wi11 ca11 ahead.", "Our engineer will call ahead."),
        ("Your rnortgage offer is va1id.", "Your mortgage offer is valid."),
        ("SCH00L TRIP TO THE CASTLE, payrnent due", "SCHOOL TRIP TO THE CASTLE, payment due"),
    ],
)  # fmt: skip
def test_confusable_characters_become_the_word_they_stand_for(scanned, meant):
    assert normalise(scanned) == meant


def test_a_time_and_a_year_with_a_letter_for_a_digit_are_read_as_digits():
    assert normalise("Surgery ca11ed: be there at 1O:45 on 3 May 2O29.") == (
        "Surgery called: be there at 10:45 on 3 May 2029."
    )


def test_numbers_codes_and_references_keep_their_digits():
    text = (
        "P1ease quote ref HX/0172/B1, policy 0011-4410, ca11 0161 555 0193, "
        "take B12 at 10am on the 1st, 5km away, flat 1A, cabin R10."
    )
    fixed = normalise(text)
    assert fixed.startswith("Please quote") and "call 0161" in fixed
    for kept in (
        "HX/0172/B1",
        "0011-4410",
        "0161 555 0193",
        "B12",
        "10am",
        "1st",
        "5km",
        "1A",
        "R10",
    ):
        assert kept in fixed, fixed  # fmt: skip


def test_one_odd_token_alone_is_left_as_said():
    # a single candidate is more often a name or a code than a scan's misreading
    assert normalise("My gamertag is c0ol and I play on Fridays.") == (
        "My gamertag is c0ol and I play on Fridays."
    )


def test_a_word_hyphenated_at_a_line_end_is_joined_when_the_whole_is_a_word():
    assert normalise("we are writing to con-\nfirm the appoint-\nment today") == (
        "we are writing to confirm the appointment today"
    )
    assert (
        normalise("the renewal infor-\nmation is enclosed") == "the renewal information is enclosed"
    )


def test_a_hyphen_that_belongs_to_a_compound_stays():
    assert normalise("a well-\nknown shop and a follow-\nup call") == (
        "a well-known shop and a follow-up call"
    )
    assert normalise("self-\nemployed since May") == "self-employed since May"


def test_a_scanned_letter_is_kept_with_its_words_put_right(repo: DocumentsRepository):
    letter = (
        "Scanned the council's letter, the text is a mess:\n\n"
        "We are p1eased to con-\nfirm that your bin co11ection day moves to Wednesday 14 "
        "March 2029 frorn next week.\n\nYours sincere1y,\nWaste Services"
    )
    run(repo, transcript("s-scan", ("user", "2029-03-01T09:00:00Z", letter)))
    pages = "\n".join(d.body for d in repo.documents("main", "~/memory"))
    assert "bin collection day moves to Wednesday 14 March 2029" in pages, pages
    assert "co11ection" not in pages and "p1eased" not in pages
