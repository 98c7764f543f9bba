"""A thought typed over many short messages ("so", "the dentist", "moved it", "to the 9th") is
read as one sentence, each message keeping its own time and words in the session's record;
a message with a sentence of its own, a long one, another speaker, a request about memory,
a labelled line or a secret's marker is never joined."""

from __future__ import annotations

import pytest

from doctree.agent.offline.fragments import joined, unjoined
from doctree.agent.offline.segment import segment
from doctree.sessions.transcripts import parse_transcript
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import current_facts, run, transcript


def said(*messages: str) -> list[tuple[str, str, str]]:
    """User messages ("A: …" an assistant's), nine seconds apart."""
    out = []
    for i, m in enumerate(messages):
        kind, text = ("assistant", m[3:]) if m.startswith("A: ") else ("user", m)
        out.append((kind, f"2027-05-03T18:{i // 6:02d}:{i % 6 * 9:02d}Z", text))
    return out


def parsed(*messages: str):
    return parse_transcript(transcript("s-frag", *said(*messages)))


def user_texts(*messages: str) -> list[str]:
    return [m.content for m in joined(parsed(*messages)).messages if m.kind == "user"]


@pytest.mark.parametrize(
    ("messages", "read"),
    [
        (
            ["so", "the dentist", "moved it", "to the 9th", "at 3"],
            ["so the dentist moved it to the 9th at 3"],
        ),
        (
            ["my sister", "Ana", "starts at", "Leeds uni", "in october"],
            ["my sister Ana starts at Leeds uni in october"],
        ),
        (  # a bare acknowledgement between two of them
            ["the boiler service", "A: ok", "is booked for", "thursday", "8am"],
            ["the boiler service is booked for thursday 8am"],
        ),
        (  # "it" after "so" points back: the sentence goes on
            ["our landlord", "sold the flat", "so it's", "Priya Shah", "from june"],
            ["our landlord sold the flat, so it's Priya Shah from june"],
        ),
        (  # "and" before a new subject or thing opens a new sentence
            ["my cousin", "Dev", "is visiting", "in July", "and I'm", "taking", "him to York"],
            ["my cousin Dev is visiting in July", "and I'm taking him to York"],
        ),
        (
            ["oh", "also", "the car", "service due", "4 June", "A: Noted.", "and the vet",
             "wants Biscuit", "back on friday"],
            ["oh also the car service due 4 June", "and the vet wants Biscuit back on friday"],
        ),
        (  # a whole sentence and a capitalised word of function: a new sentence
            ["the plumber came", "The sink", "still leaks"],
            ["the plumber came", "The sink still leaks"],
        ),
    ],
)  # fmt: skip
def test_short_messages_are_read_as_the_sentences_they_make(messages, read):
    assert user_texts(*messages) == read


@pytest.mark.parametrize(
    "messages",
    [
        ["My flight lands at 6.", "gate B12"],  # a sentence of its own, stopped
        ["the dentist", "A: What day is the appointment?", "the 9th"],  # a question between
        ["I'm going to the Lake District with my two brothers", "in August"],  # a long one
        ["my pin is", "[secret: pin]"],  # a secret's marker
        ["the dentist moved it", "don't save that"],  # a request about memory
        ["the dentist moved it", "no, the 10th"],  # a correction
        ["the dentist", "*dentistry"],  # a word typed again
        ["Guesthouse: Tŷ Gwyn", "Dentist - Dr Okafor"],  # labelled lines
        ["the dentist", "- the 9th"],  # a list's item
        ["the dentist", "A: Got it, and I've moved your gym session to Friday.", "the 9th"],
    ],
)
def test_these_messages_are_never_joined(messages):
    t = parsed(*messages)
    assert joined(t) == t


def test_each_joined_sentence_has_the_time_of_its_first_message():
    t = parsed("right", "the boiler man", "A: ok", "is coming", "on friday", "A: Noted.",
               "and my sister", "is staying", "the weekend")  # fmt: skip
    times = {m.time for m in t.messages}
    turns = [x for x in segment(t).turns if x.kind == "user"]
    assert [x.time for x in turns] == [t.messages[0].time, t.messages[6].time]
    assert all(x.time in times for x in turns)
    # the acknowledgement said inside a sentence follows it; the messages are all counted
    kinds = ["user", "assistant", "assistant", "user"]  # "ok" moved after the first
    assert [m.kind for m in joined(t).messages] == kinds
    assert segment(t).counts == {"user": 7, "assistant": 2}


def test_what_is_taken_out_of_a_joined_sentence_goes_back_onto_its_messages():
    t = parsed("so", "the dentist", "moved it", "to the 9th", "at 3")
    first = t.messages[0].time
    by_time = {m.content: m.time for m in t.messages}
    whole = unjoined([(first, "so the dentist moved it to the 9th at 3")], t)
    assert whole == [
        (by_time[x], x) for x in ("so", "the dentist", "moved it", "to the 9th", "at 3")
    ]
    part = unjoined([(first, "the 9th at 3")], t)
    assert part == [(by_time["to the 9th"], "the 9th"), (by_time["at 3"], "at 3")]
    other = (t.messages[2].time, "moved it")  # said of a message that was never joined
    assert unjoined([other], parse_transcript(transcript("s", *said("moved it")))) == [other]


def lines(repo: DocumentsRepository) -> list[str]:
    return current_facts(repo).splitlines()


@pytest.mark.parametrize(
    ("messages", "words"),
    [
        (["so", "the dentist", "moved it", "to the 9th", "at 3"], ["dentist", "2027-05-09"]),
        (["my sister", "Ana", "starts at", "Leeds uni", "in October"], ["Ana", "Leeds"]),
        (["the boiler service", "A: ok", "is booked for", "thursday", "8am"],
         ["boiler", "2027-05-06", "8am"]),
        (["ok", "our landlord", "sold the flat", "so it's", "Priya Shah", "from now on"],
         ["landlord", "Priya Shah"]),
    ],
)  # fmt: skip
def test_a_thought_typed_over_short_messages_is_kept_as_one_line(repo, messages, words):
    run(repo, transcript("s-frag", *said(*messages)))
    assert any(all(w in ln for w in words) for ln in lines(repo)), lines(repo)


def test_a_secret_typed_over_two_messages_stays_masked(repo):
    run(repo, transcript("s-pin", *said("my pin is", "4471", "A: Noted.")))
    pages = "\n".join(d.body for d in repo.documents("main", "~/memory"))
    assert "4471" not in pages
    assert "[secret: pin]" in pages


def test_a_sentence_of_short_messages_taken_back_leaves_exactly_its_messages(repo):
    messages = said(
        "my brother", "Tom", "is moving", "to Leeds", "A: Noted.",
        "and the dentist", "moved it", "to the 9th", "A: ok",
        "actually don't save that",
    )  # fmt: skip
    summary = run(repo, transcript("s-back", *messages))
    taken = {(t, x) for t, x in summary.withheld}
    at = {m: t for _, t, m in messages}
    assert taken == {
        (at["and the dentist"], "and the dentist"),
        (at["moved it"], "moved it"),
        (at["to the 9th"], "to the 9th"),
        (at["actually don't save that"], "actually don't save that"),
    }
    facts = current_facts(repo)
    assert "Leeds" in facts and "dentist" not in facts and "9th" not in facts
