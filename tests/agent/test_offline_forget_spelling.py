"""A request to forget written outside standard English spelling — vowels dropped ("pls dnt
sv tht"), "th" said as "d" ("don't save dat"), a pidgin's object pronoun ("abeg forget am"),
"no" before a bare verb ("no write am anywhere"), the object left unsaid ("don't need to
remember lah") — asks as its standard spelling does; a sentence that tells of someone's own
memory so spelled asks nothing."""

from __future__ import annotations

import pytest

from doctree.agent.offline import memo
from doctree.agent.offline.language import forget_request, standard_spelling
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import page_lines, run, transcript

T = [f"2028-05-06T18:0{i}:00Z" for i in range(6)]
SAID = "My flatmate Oluwaseun is quitting his job at the bakery next month."


def _lines(repo: DocumentsRepository) -> list[str]:
    now, _ = page_lines(repo)
    return now


@pytest.mark.parametrize(
    "request_",
    [
        "pls dnt sv tht",
        "oh dnt rmbr ths ok",
        "don't keep dat",
        "abeg forget am",
        "No write am anywhere o",
        "don't need to remember lah",
        "no need to save",
    ],
)
def test_a_request_spelled_otherwise_asks(request_):
    assert forget_request(request_) == (True, None)


@pytest.mark.parametrize(
    "said",
    [
        "I dnt rmbr tht",
        "we don't need to remember",
        "the tht sv key",
        "dat was a great day",
        "I am not sure I can keep am up",
        "no need to worry about the tin",
    ],
)
def test_what_asks_nothing_stays_so(said):
    assert forget_request(said) is None


def test_a_word_with_a_vowel_of_its_own_is_never_respelled():
    assert standard_spelling("sieve the soup, save it") == "sieve the soup, save it"


@pytest.mark.parametrize("request_", ["pls dnt sv tht", "abeg forget am, no write am anywhere"])
def test_what_was_just_said_goes(repo, request_):
    run(
        repo,
        transcript(
            "s-a",
            ("user", T[0], "The boiler service is booked for 19 June."),
            ("assistant", T[1], "Noted."),
            ("user", T[2], SAID),
            ("assistant", T[3], "Good luck to him."),
            ("user", T[4], request_),
        ),
    )
    lines = _lines(repo)
    assert not any("Oluwaseun" in ln or "bakery" in ln for ln in lines), lines
    assert any("boiler" in ln for ln in lines), lines


def test_a_request_whose_sentence_names_its_thing_takes_no_line_before(repo):
    """The sentence says what it takes back before the request ("dat tin wey I tell you
    about …, abeg forget am"): the statement before it, on another matter, stays."""
    run(
        repo,
        transcript(
            "s-a",
            ("user", T[0], "My manager is sending me to Kano for the stock audit on 3 October."),
            ("assistant", T[1], "Safe travels."),
            (
                "user",
                T[2],
                "Dat tin wey I tell you about my cousin, abeg forget am, no write am anywhere.",
            ),
        ),
    )
    lines = _lines(repo)
    assert any("Kano" in ln for ln in lines), lines


def test_each_word_is_respelled_as_written_however_often_it_comes():
    memo.forget()
    assert standard_spelling("dnt sv tht") == "dont save that"
    # the same letters in capitals are a word of their own: left as written, every time
    assert standard_spelling("DNT SV THT, dnt sv tht") == "DNT SV THT, dont save that"
    assert standard_spelling("Dis one, no sv am") == "this one, don't save it"
    memo.forget()  # the words read are dropped with every other answer of the run
    assert memo.held() == 0
