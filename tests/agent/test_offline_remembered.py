"""What a run asks again of one text (a sentence's words and subject, a message's sentences,
its dates), remembered within the run: the same answers, each caller's own, none kept past
the run."""

from __future__ import annotations

from datetime import date

import pytest

from doctree.agent.offline import OfflineMemoryAgent, language, memo, prefilter, resolve, segment
from tests.agent.offline_runs import run, transcript


def test_content_words_of_a_text_read_again_are_the_same_and_a_copy():
    first = language.content_words("Priya's flight to Lisbon leaves on Friday")
    first.add("changed by the caller")
    again = language.content_words("Priya's flight to Lisbon leaves on Friday")
    assert "changed by the caller" not in again
    assert again == {"priya", "flight", "lisbon", "leaves", "friday"}
    assert again is not first


def test_the_subject_of_a_text_read_again_is_the_same_and_a_copy():
    words, back, attribute = resolve._subject("The vet visit for Rex is on May 2")  # noqa: SLF001
    assert (words, back, attribute) == ({"visit", "rex"}, "definite", "be")
    words.clear()
    assert resolve._subject("The vet visit for Rex is on May 2")[0] == {"visit", "rex"}  # noqa: SLF001


def test_a_remembered_reader_is_called_once_per_text():
    calls: list[str] = []

    @language.remembered
    def read(text: str) -> set[str]:
        calls.append(text)
        return set(text.split())

    assert read("a b") == {"a", "b"}
    assert read("a b") == {"a", "b"}
    assert read("c") == {"c"}
    assert calls == ["a b", "c"]


def test_a_remembered_answer_is_each_callers_own_list():
    paragraph = "The van comes at 8. Dr. Osei moved the check-up to Friday."
    first = segment.split_sentences(paragraph)
    first.append("changed by the caller")
    assert segment.split_sentences(paragraph) == [
        "The van comes at 8.",
        "Dr. Osei moved the check-up to Friday.",
    ]


@pytest.mark.parametrize(
    ("said_on", "meant"),
    [(date(2026, 3, 5), date(2026, 3, 3)), (date(2026, 12, 1), date(2027, 3, 3))],
)
def test_the_same_sentence_said_on_two_days_is_read_on_each(said_on, meant):
    # the same text on another day (a later session) is a date of another year: the day
    # it was said is part of what is remembered, never an answer of the day before
    for day in (date(2026, 3, 5), date(2026, 12, 1), said_on):
        found = resolve.absolute_dates("The talk is on March 3.", day, by_clause=True)
    assert found == [("March 3", meant)]


def test_a_remembered_function_answers_again_after_it_forgets():
    calls: list[str] = []

    @memo.remembered
    def read(text: str, times: int = 1) -> list[str]:
        calls.append(text)
        return text.split() * times

    assert read("a b", times=2) == ["a", "b", "a", "b"]
    assert read("a b", times=2) == ["a", "b", "a", "b"]
    assert read("a b") == ["a", "b"]
    memo.forget()
    assert read("a b") == ["a", "b"]
    assert calls == ["a b", "a b", "a b"]


def test_no_text_of_a_run_stays_remembered_after_it(repo):
    # a text read may be one a user asks to forget later: nothing read stays in memory
    said = [
        ("user", "2026-03-02T09:00:00Z", "I'm wren in there. The van comes at 8, on March 3."),
        ("assistant", "2026-03-02T09:01:00Z", "Noted. Anything else?"),
    ] + [  # enough sentences for the cheap test to keep answers for texts (`READ_AFTER`)
        (
            "user",
            f"2026-03-02T10:{i:02d}:00Z",
            f"My sister Ottilie starts at Brightline on day {i}.",
        )
        for i in range(40)
    ]
    text = transcript("s1", *said)
    run(repo, text)
    assert memo.held() == 0 and prefilter.texts_held() == 0
    OfflineMemoryAgent().taken_back(text)
    assert memo.held() == 0 and prefilter.texts_held() == 0


def test_an_immutable_answer_is_shared_and_forgotten_with_the_others():
    calls: list[str] = []

    @memo.remembered_up_to(2, shared=True)
    def read(text: str) -> frozenset[str]:
        calls.append(text)
        return frozenset(text.split())

    memo.forget()
    first = read("a b")
    assert read("a b") is first and memo.held() == 1
    read("c"), read("d")  # past its size: the oldest answer goes
    assert read("a b") == first and calls == ["a b", "c", "d", "a b"]
    memo.forget()
    assert memo.held() == 0
