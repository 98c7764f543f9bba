""" "Forget that" takes back what was just said: the last statement and those before it that
it goes on from (a "she", "it", "they" opening it, or a word, a person or a subject shared),
never an unrelated statement said before it in the same message or the one before."""

from __future__ import annotations

import pytest

from doctree.agent.offline.language import forget_request
from tests.agent.offline_runs import everything, run, transcript

DAY = "2031-03-03T18:00:00Z"
LATER = "2031-03-03T18:02:00Z"


@pytest.mark.parametrize(
    ("messages", "kept", "gone"),
    [
        # one message: the unrelated statement before it stays
        (["I booked the dentist for March 12th. My sister Mara is pregnant with twins. Don't keep that."],
         ["dentist", "2031-03-12"], ["pregnant", "twins"]),
        (["The boiler service is on March 20th. Also my neighbour Ilse lost her job. Forget that."],
         ["boiler", "2031-03-20"], ["lost her job"]),
        # the request opens its own message: the message before, as far as it goes on
        (["The gutters get cleaned on March 14th.", "My brother Tomas is in rehab again.",
          "please don't keep that"],
         ["gutters", "2031-03-14"], ["rehab"]),
        # "she" goes on from the sentence before: both go
        (["The car is booked in on March 18th. My cousin Noor is pregnant. She's due in "
          "October. Don't keep that."],
         ["car is booked", "2031-03-18"], ["pregnant", "October"]),
        # a word shared: the same thing, both go
        (["The plumber comes on March 11th. My salary goes up in April. The salary is 52k "
          "after the review. Don't write that down."],
         ["plumber", "2031-03-11"], ["52k", "salary"]),
        # the request follows a statement of its own message: a word that statement shares
        # with the message before ("moved") does not reach back into it
        (["The vet appointment moved to March 18th.",
          "The orthodontist moved to March 20th. Forget that."],
         ["vet appointment", "2031-03-18"], ["orthodontist"]),
        (["Dinner at Halima's is on March 9th.",
          "My boss wants the dinner budget cut. Keep this between us."],
         ["Halima", "2031-03-09"], ["budget"]),
        # a word of thanks before the request is not what it takes back
        (["The boiler is serviced on March 9th.", "My aunt Vera has shingles again.",
          "Thanks. Please don't keep that one."],
         ["boiler", "2031-03-09"], ["shingles"]),
        # "his" across the start of the message makes a new subject (his dad): someone
        # else's news, and the message before stays
        (["Ravi has his eye test on March 12th.", "His dad cancelled on him again. Don't keep that."],
         ["eye test", "2031-03-12"], ["cancelled"]),
        # the request ends the sentence it takes back: only that sentence goes
        (["Ravi has his eye test on March 12th.", "His dad cancelled on him again 😤 don't save that pls"],
         ["eye test", "2031-03-12"], ["cancelled"]),
        # a question asked just before the request is what "that" is: the statement before
        # the question stays
        (["The chimney sweep comes on March 13th.",
          "Is it normal that my uncle forgets our names? Don't keep that."],
         ["chimney sweep", "2031-03-13"], ["forgets our names"]),
        # a "she" across the start of the message does: the news and what follows it go
        (["My cousin Lena is pregnant, due in May!",
          "oh wait, she hasn't told the family yet. don't keep that, ok?"],
         [], ["pregnant", "told the family"]),
    ],
)  # fmt: skip
def test_forget_that_takes_what_was_just_said_and_no_more(repo, messages, kept, gone):
    times = [f"2031-03-03T18:{i:02d}:00Z" for i in range(len(messages))]
    run(repo, transcript("s-that", *[("user", t, m) for t, m in zip(times, messages, strict=True)]))
    text = everything(repo, archive=False)
    for k in kept:
        assert k in text, (k, text)
    for g in gone:
        assert g not in text, (g, text)


@pytest.mark.parametrize(
    "said",
    [
        "The bike lock code is 4471 if I forget it again lol.",
        "I always forget that the side gate sticks.",
        "Write the bin days on the fridge in case we forget it.",
        "She'll forget it otherwise, so the party is on the 22nd.",
    ],
)
def test_a_forgetting_said_of_someone_asks_nothing_and_the_line_stays(repo, said):
    run(
        repo,
        transcript(
            "s-said",
            ("user", DAY, "The gutters get cleaned on March 14th."),
            ("user", LATER, said),
        ),
    )
    text = everything(repo, archive=False)
    assert "gutters" in text and "2031-03-14" in text  # nothing said before is taken back
    assert forget_request(said) is None


@pytest.mark.parametrize(
    "request_said",
    [
        "and don't you keep that either",
        "Leave that out of your notes.",
        "leave that bit out",
        "Actually, just forget about that.",
        "Don't make a note of that.",
        "Don't log that.",
        "can you unsave that",
    ],
)
def test_other_wordings_of_forget_that_take_what_was_just_said(repo, request_said):
    run(
        repo,
        transcript(
            "s-worded",
            ("user", DAY, "The gutters get cleaned on March 14th."),
            ("user", LATER, "My brother Anselm is in rehab again."),
            ("user", "2031-03-03T18:04:00Z", request_said),
        ),
    )
    text = everything(repo, archive=False)
    assert "gutters" in text and "2031-03-14" in text
    assert "rehab" not in text, text


@pytest.mark.parametrize(
    "said",
    [
        "Don't you remember that?",
        "Leave that out of the report.",
        "Don't log that error twice, it floods the disk.",
        "Don't make a note of that file name yet",
        "can you bin that old chair",
    ],
)
def test_words_near_those_wordings_ask_nothing(said):
    assert forget_request(said) is None


@pytest.mark.parametrize(
    ("offer", "answer", "gone"),
    [
        ("Should I forget that?", "yes please", True),
        ("I'm sorry. Do you want me to leave that out of my notes?", "yeah, go ahead", True),
        ("Should I forget that?", "no, keep it", False),
        ("Should I book him a call with you?", "yes please", False),
    ],
)
def test_a_yes_to_the_assistant_offering_to_forget_is_forget_that(repo, offer, answer, gone):
    run(
        repo,
        transcript(
            "s-offer",
            ("user", DAY, "The gutters get cleaned on March 14th."),
            ("user", LATER, "My brother Anselm is in rehab again."),
            ("assistant", "2031-03-03T18:03:00Z", offer),
            ("user", "2031-03-03T18:04:00Z", answer),
        ),
    )
    text = everything(repo, archive=False)
    assert "gutters" in text and "2031-03-14" in text
    assert ("rehab" not in text) is gone, text
