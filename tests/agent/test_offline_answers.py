"""A short reply read with the assistant's question it answers: "Is your train on Tuesday?" /
"yes" is the user's train on Tuesday; "no" keeps nothing; "the second one" after a list of
options is the option chosen; a reply that settles nothing for sure keeps nothing."""

from __future__ import annotations

import pytest

from doctree.agent.offline.answers import (
    answered,
    answered_parts,
    chosen,
    listed_options,
    options_in,
)
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript

ASKED = "2028-03-01T09:00:00Z"  # a Wednesday
REPLIED = "2028-03-01T09:01:00Z"


def _current(repo: DocumentsRepository) -> str:
    return "\n".join(
        d.body.split("## Past")[0] for d in repo.documents("main", "~/memory")
        if "/archive/" not in d.path and d.path != "~/memory/active"
    )  # fmt: skip


def _asked(repo: DocumentsRepository, opening: str, question: str, reply: str) -> str:
    run(
        repo,
        transcript(
            "s-ask",
            ("user", ASKED, opening),
            ("assistant", ASKED, question),
            ("user", REPLIED, reply),
        ),
    )
    return _current(repo)


@pytest.mark.parametrize(
    ("question", "reply", "statement"),
    [
        ("Is your train on Tuesday?", "yes", "My train is on Tuesday."),
        ("Is your train on Tuesday?", "Yep!", "My train is on Tuesday."),
        ("Quick question: is your train on Tuesday?", "correct", "My train is on Tuesday."),
        ("Just to confirm, your flight lands at 6pm, right?", "yes", "My flight lands at 6pm."),
        ("Do you still take metformin in the morning?", "yes I do", "I still take metformin in the morning."),
        ("Is your daughter allergic to peanuts?", "yeah", "My daughter is allergic to peanuts."),
        ("Has Tom paid the deposit?", "yes he has", "Tom has paid the deposit."),
        ("Are you vegetarian?", "I am", "I am vegetarian."),
        ("Is Ana coming on Saturday?", "yes", "Ana is coming on Saturday."),
    ],
)  # fmt: skip
def test_a_yes_makes_the_asked_statement(question, reply, statement):
    assert answered(question, reply) == statement


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        ("Is your train on Tuesday?", "no"),
        ("Is your train on Tuesday?", "nope"),
        ("Are you vegetarian?", "I'm not"),
        ("Has Tom paid the deposit?", "not really"),
    ],
)
def test_a_no_keeps_nothing(question, reply):
    assert answered(question, reply) is None


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        ("Is it on Tuesday?", "yes"),  # "it" names nothing
        ("Would you like me to set a reminder?", "yes"),  # an offer, not a fact
        ("Can you send me the file?", "yes"),  # a request
        ("Is your train ticket booked?", "yes"),  # where the subject ends is unsure
        ("Is your train on Tuesday?", "yes, but I might change it"),  # more than a yes
        ("Do you want the 9:40 or the 11:15?", "yes"),  # a yes chooses no option
        ("What's your budget for the trip?", "good question"),
        ("What's your budget for the trip?", "not sure"),
        ("What time is good?", "any time after 3"),  # no subject to say it of
        ("What does Ana do?", "nurse"),  # no frame for it: nothing rather than a guess
        ("Is your train on Tuesday? And which station?", "yes"),  # the last question only
    ],
)
def test_a_reply_that_settles_nothing_keeps_nothing(question, reply):
    assert answered(question, reply) is None


@pytest.mark.parametrize(
    ("question", "reply", "statement"),
    [
        ("What day is your dentist appointment?", "Tuesday", "My dentist appointment is on Tuesday."),
        ("When is your dentist appointment?", "Thursday at 3", "My dentist appointment is on Thursday at 3."),
        ("When is Ana arriving?", "Sunday", "Ana is arriving on Sunday."),
        ("What time does Ana land?", "6:40pm", "Ana lands at 6:40pm."),
        ("When do you fly out to Lisbon?", "Friday I think", "I fly out to Lisbon on Friday."),
        ("What's your daughter's name?", "Leila", "My daughter is called Leila."),
        ("What is the name of your dog?", "Biscuit", "My dog is called Biscuit."),
        ("Who is your GP?", "Dr Patel", "My GP is Dr Patel."),
        ("How many kids do you have?", "two of them", "I have two kids."),
        ("How many tickets did you buy?", "just one", "I did buy one ticket."),
        ("Who's picking up the kids on Friday?", "my mum", "My mum is picking up the kids on Friday."),
        ("Which day works best for you?", "Thursday", "Thursday works best for me."),
        ("Where do you live?", "Leeds", "I live in Leeds."),
        ("Where is the party?", "Ana's flat", "The party is at Ana's flat."),
        ("Where are you based?", "Leeds", "I am based in Leeds."),
        ("What are you working on?", "the migration", "I am working on the migration."),
        ("Who are you travelling with?", "my sister", "I am travelling with my sister."),
        ("When are you free?", "Tuesday", "I am free on Tuesday."),
        ("When did you move here?", "2019", "I did move here in 2019."),
        ("Where does your sister live?", "Porto", "My sister lives in Porto."),
        ("What is your favourite colour?", "blue", "My favourite colour is blue."),
    ],
)  # fmt: skip
def test_an_answer_and_its_question_make_a_statement(question, reply, statement):
    assert answered(question, reply) == statement


@pytest.mark.parametrize(
    ("question", "reply", "option"),
    [
        ("Do you want the 9:40 or the 11:15?", "the second one", "the 11:15"),
        ("Do you want the 9:40, the 11:15 or the 13:05?", "the last one", "the 13:05"),
        ("Window or aisle?", "aisle please", "aisle"),
        ("Which colour for the sofa: red, blue or green?", "no, the blue", "blue"),
        ("Would you prefer the red sofa or the grey one?", "grey", "the grey one"),
    ],
)
def test_a_reply_picks_one_of_the_options_asked(question, reply, option):
    assert chosen(options_in(question), reply) == option


@pytest.mark.parametrize(
    "reply", ["both", "either is fine", "the purple one", "the first or second"]
)
def test_a_reply_that_picks_none_or_several_options_chooses_nothing(reply):
    assert answered("Do you want the red one or the blue one?", reply) is None


def test_a_choice_between_values_of_a_question_is_that_value():
    assert answered("Is your train on Tuesday or Wednesday?", "Wednesday") == (
        "My train is on Wednesday."
    )
    assert answered("Should the invoice go to Ana or to Tom?", "Tom") == (
        "The invoice should go to Tom."
    )


def test_the_options_of_a_numbered_list_are_read_by_place_or_name():
    text = (
        "There are three trains:\n\n1. **The 9:40** — arrives 11:52\n"
        "2. The 11:15 (arrives 13:30)\n3. The 13:05: arrives 15:20\n\nWhich one would you like?"
    )
    options = listed_options(text)
    assert options == ["The 9:40", "The 11:15", "The 13:05"]
    for reply in ("2", "option 2", "b", "the second", "yep, the 11:15 please"):
        assert answered("Which one would you like?", reply, options) == "I chose the 11:15.", reply


def test_a_yes_to_a_question_is_kept_dated_on_the_page(repo):
    pages = _asked(repo, "I'm off to Leeds for the conference.", "Is your train on Tuesday?", "yes")
    assert "The user's train is on Tuesday (2028-03-07)" in pages


def test_a_no_keeps_neither_the_asked_statement_nor_its_date(repo):
    pages = _asked(repo, "I'm off to Leeds for the conference.", "Is your train on Tuesday?", "No.")
    assert "Tuesday" not in pages


def test_a_named_answer_makes_the_person_page(repo):
    _asked(repo, "I want to send a card to my daughter.", "What's your daughter's name?", "Leila")
    page = repo.read("main", "~/memory/people/leila")
    assert "the user's daughter" in page.body


def test_the_option_chosen_from_a_listed_set_is_kept_and_the_others_are_not(repo):
    pages = _asked(
        repo,
        "Can you find me a train to Leeds for Friday?",
        "There are three trains:\n\n1. The 9:40 — arrives 11:52\n2. The 11:15 — arrives 13:30\n"
        "3. The 13:05 — arrives 15:20\n\nWhich one would you like?",
        "yep, the second one",
    )
    assert "The user chose the 11:15" in pages
    assert "9:40" not in pages and "13:05" not in pages


def test_the_rest_of_a_reply_after_its_answer_is_read_as_well(repo):
    pages = _asked(
        repo,
        "I want to send a card to my daughter.",
        "What's your daughter's name?",
        "Leila. She turns 9 next month.",
    )
    assert "called Leila" in pages
    assert "turns 9" in pages


@pytest.mark.parametrize(
    ("question", "replies", "statements"),
    [
        ("Which school, and when does term start?", ["St Brendan's.", "monday"], ["Term starts on Monday."]),
        ("When does term start and when is the inset day?", ["monday, the 24th"], ["Term starts on Monday.", "The inset day is on the 24th."]),
        ("What's your son's name and how many kids do you have?", ["Finn.", "three"], ["My son is called Finn.", "I have three kids."]),
    ],
)  # fmt: skip
def test_a_question_of_two_parts_is_answered_part_by_part(question, replies, statements):
    assert answered_parts(question, replies) == statements


def test_parts_and_answers_that_do_not_pair_one_to_one_make_nothing():
    assert answered_parts("Which school, and when does term start?", ["St Brendan's."]) == []
    assert answered_parts("When does term start and when is the inset day?", ["monday"]) == []


def test_the_parts_of_a_two_part_question_are_kept_dated(repo):
    run(
        repo,
        transcript(
            "s-parts",
            ("user", ASKED, "Can you help me get the school things straight?"),
            ("assistant", ASKED, "Which school, and when does term start?"),
            ("user", REPLIED, "St Brendan's. monday"),
        ),
    )
    assert "Term starts on Monday (2028-03-06)" in _current(repo)


@pytest.mark.parametrize("reply", ["[secret: pin]", "it's [secret: pin]", "  [secret: pin]  "])
def test_a_reply_stored_as_a_secrets_marker_keeps_the_marker_whole(reply):
    """The value was withheld when the record was stored; the statement says what the code
    opens and keeps the marker as it is, not "secret: pin]"."""
    said = answered("What's the code for the key safe?", reply)
    assert said == "The code for the key safe is [secret: pin]."
