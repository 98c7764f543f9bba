"""A request to forget what an earlier conversation said ("scrap what I told you last
Tuesday about the boat") takes the lines of that conversation about the thing and nothing
else: not the other things it said, not what other sessions said of the same thing. When
the conversation or the thing cannot be told, nothing is removed and the session page says
so."""

from __future__ import annotations

from datetime import date

import pytest

from doctree.agent.offline.earlier import named_conversation
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import current_facts, run, transcript

TUESDAY = "2031-04-01T19:00:00Z"
THURSDAY = "2031-04-03T08:30:00Z"
MONDAY = "2031-04-07T20:00:00Z"  # the day of the request


def two_sessions(repo: DocumentsRepository) -> None:
    run(
        repo,
        transcript(
            "s-tuesday",
            ("user", TUESDAY, "The boat needs new sails before the regatta in June."),
            ("user", "2031-04-01T19:02:00Z", "My neighbour Priti is lending us her trailer."),
            ("user", "2031-04-01T19:04:00Z", "The garden fence gets painted on 12 April."),
        ),
    )
    run(
        repo,
        transcript(
            "s-thursday",
            ("user", THURSDAY, "The boat is moored at Kestrel Quay for the summer."),
            ("user", "2031-04-03T08:32:00Z", "Priti's son starts at Hillcrest School in May."),
        ),
    )


def session_page(repo: DocumentsRepository, session: str) -> str:
    doc = next(d for d in repo.documents("main", "~/memory") if d.path.endswith(f"/{session}"))
    return doc.body


@pytest.mark.parametrize(
    "request_",
    [
        "Scrap what I told you last Tuesday about the boat.",
        "Ignore everything from our chat on the 1st about the boat.",
        "Forget what I said about the boat last Tuesday.",
        "Please drop what I mentioned on 1 April about the boat.",
        "Can you forget the stuff I told you on Tuesday about the boat?",
    ],
)
def test_the_lines_of_the_named_conversation_about_the_thing_go(repo, request_):
    two_sessions(repo)
    run(repo, transcript("s-monday", ("user", MONDAY, request_)))
    facts = current_facts(repo)
    assert "sails" not in facts and "regatta" not in facts
    # the other things that conversation said, and what another one said of the boat, stay
    assert "trailer" in facts and "fence" in facts
    assert "Kestrel Quay" in facts
    assert "Forgotten on request" in session_page(repo, "s-monday")
    assert "sails" not in session_page(repo, "s-tuesday")


@pytest.mark.parametrize(
    "request_",
    [
        "Oublie ce que je t'ai dit mardi dernier sur Priti.",
        "Vergiss, was ich dir letzten Dienstag über Priti gesagt habe.",
        "Olvida lo que te dije el martes pasado sobre Priti.",
        "Vergeet wat ik je afgelopen dinsdag vertelde over Priti.",
        "Dimentica quello che ti ho detto martedì scorso su Priti.",
        "Esquece o que te disse na terça passada sobre a Priti.",
    ],
)
def test_in_other_languages_only_that_days_lines_of_the_person_go(repo, request_):
    two_sessions(repo)
    run(repo, transcript("s-monday", ("user", MONDAY, request_)))
    facts = current_facts(repo)
    assert "trailer" not in facts
    assert "Hillcrest" in facts  # said of her on Thursday
    assert "sails" in facts and "fence" in facts
    assert repo.read("main", "~/memory/people/priti") is not None


def test_forget_what_i_said_yesterday_takes_every_line_of_that_day_and_no_other(repo):
    two_sessions(repo)
    run(
        repo,
        transcript("s-friday", ("user", "2031-04-04T10:00:00Z", "Forget what I said yesterday.")),
    )
    facts = current_facts(repo)
    assert "Kestrel Quay" not in facts and "Hillcrest" not in facts
    assert "sails" in facts and "trailer" in facts and "fence" in facts
    thursday = session_page(repo, "s-thursday")
    assert "Kestrel" not in thursday and "Hillcrest" not in thursday
    assert "s-thursday" in thursday  # its record stays: that it was had


def test_last_time_is_the_conversation_before_this_one(repo):
    two_sessions(repo)
    run(
        repo,
        transcript(
            "s-monday",
            ("user", MONDAY, "Forget what I told you last time about the boat, we sold it."),
        ),
    )
    facts = current_facts(repo)
    assert "Kestrel Quay" not in facts
    assert "sails" in facts and "Hillcrest" in facts


@pytest.mark.parametrize(
    "request_",
    [
        "Forget what I told you the other day about the boat.",
        "Scrap what I said a while ago about the boat.",
    ],
)
def test_a_conversation_that_cannot_be_told_removes_nothing_and_says_so(repo, request_):
    two_sessions(repo)
    run(repo, transcript("s-monday", ("user", MONDAY, request_)))
    facts = current_facts(repo)
    assert "sails" in facts and "Kestrel Quay" in facts
    page = session_page(repo, "s-monday")
    assert "Not acted on" in page and "nothing was removed" in page


def test_a_day_without_a_conversation_removes_nothing_and_says_so(repo):
    two_sessions(repo)
    run(
        repo,
        transcript(
            "s-monday", ("user", MONDAY, "Scrap what I told you on Wednesday about the boat.")
        ),
    )
    facts = current_facts(repo)
    assert "sails" in facts and "Kestrel Quay" in facts
    assert "no earlier conversation found" in session_page(repo, "s-monday")


def test_a_thing_that_conversation_did_not_speak_of_removes_nothing(repo):
    two_sessions(repo)
    # Hillcrest School was said on Thursday, not on Tuesday
    run(
        repo,
        transcript(
            "s-monday", ("user", MONDAY, "Forget what I told you on Tuesday about the school.")
        ),
    )
    facts = current_facts(repo)
    assert "Hillcrest" in facts and "sails" in facts
    assert "said nothing of it" in session_page(repo, "s-monday")


def test_referring_back_without_asking_to_forget_removes_nothing(repo):
    two_sessions(repo)
    run(
        repo,
        transcript(
            "s-monday",
            (
                "user",
                MONDAY,
                "Like I told you last time, the boat is at Kestrel Quay until October.",
            ),
        ),
    )
    facts = current_facts(repo)
    assert "Kestrel Quay for the summer" in facts and "sails" in facts


@pytest.mark.parametrize(
    ("request_", "days", "last"),
    [
        ("scrap what I told you last Monday about the car", (date(2031, 3, 31),), False),
        ("forget what I said yesterday", (date(2031, 4, 6),), False),
        ("ignore everything from our chat on the 3rd", (date(2031, 4, 3),), False),
        ("forget what I told you on the 20th about it", (date(2031, 3, 20),), False),
        ("forget everything from Saturday's chat", (date(2031, 4, 5),), False),
        ("forget what I mentioned earlier today about the quote", (date(2031, 4, 7),), False),
        ("forget everything from our last chat", (), True),
        ("oublie ce que je t'ai dit hier sur Marc", (date(2031, 4, 6),), False),
        ("forget what I told you the other day about Sam", (), False),
    ],
)
def test_the_conversation_named_is_resolved_against_the_day_said(request_, days, last):
    found = named_conversation(request_, date(2031, 4, 7))
    assert found is not None
    earlier, rest = found
    assert earlier.days == days and earlier.last == last
    assert earlier.phrase.lower() not in rest.lower()


@pytest.mark.parametrize(
    "sentence",
    [
        "Like I told you last time, the MOT is booked.",
        "I told you yesterday that the boiler was fixed.",
        "Forget what I told you about the boat.",
    ],
)
def test_no_conversation_is_named(sentence):
    assert named_conversation(sentence, date(2031, 4, 7)) is None


def test_forget_everything_i_said_today_in_todays_only_conversation_is_done_not_refused(repo):
    """ "Forget everything I said today" in the day's one conversation takes this session's
    statements; the session page says so, and does not also list it as not acted on."""
    run(
        repo,
        transcript(
            "s-today",
            ("user", MONDAY, "I'm thinking of leaving Corvid Labs to go freelance."),
            ("user", "2031-04-07T20:01:00Z", "Actually, forget everything I said today."),
        ),
    )
    assert "Corvid" not in current_facts(repo)
    page = session_page(repo, "s-today")
    assert "left out of memory, as the user asked" in page
    assert "Not acted on" not in page
