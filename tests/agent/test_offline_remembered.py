"""A sentence's words and subject, remembered per text: the same answers, each caller's own."""

from __future__ import annotations

from doctree.agent.offline import language, resolve


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
