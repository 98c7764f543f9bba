"""A conversation the user writes up as a script ("Receptionist: …", "Me: …") is read with
its labels as speakers: the user's lines are the user's own, the other side's "I" is theirs,
an offer the user turns down is no fact, and a "yes" to the user's question is said with it.
Labels that do not take turns, or with no user among them, are no script."""

from __future__ import annotations

from doctree.agent.offline.script import read_script
from tests.agent.offline_runs import current_facts, run, transcript

CALL = [
    "Receptionist: Harbour Dental, Priya speaking.",
    "Me: Hi, I need a check-up for my son Leo.",
    "Receptionist: I can do Monday the 10th at 8:30.",
    "Me: He's at school then, anything after 3?",
    "Receptionist: Monday the 10th at 15:45 with Dr Hale.",
    "Me: Great, book that. Is the check-up free for children?",
    "Receptionist: Yes, under-18s pay nothing. Bring his red book.",
]


def test_the_users_lines_are_the_users_and_a_turned_down_offer_is_left_out():
    read = read_script(CALL)
    assert read is not None
    said = [(x.speaker, x.text) for x in read]
    assert ("Receptionist", "I can do Monday the 10th at 8:30.") not in said
    assert (None, "Hi, I need a check-up for my son Leo.") in said
    assert ("Receptionist", "Monday the 10th at 15:45 with Dr Hale.") in said


def test_a_yes_to_the_users_question_is_read_with_the_question():
    read = read_script(CALL)
    assert read is not None
    assert read[-1].speaker == "Receptionist"
    assert read[-1].asked == "Is the check-up free for children?"


def test_other_labels_for_the_user_and_other_ways_of_turning_down():
    lines = [
        "Agent: Flight BA512 has a seat on the 07:10.",
        "I: No, that's too early for me.",
        "Agent: There is one at 11:40 on BA514.",
        "I: Perfect, I'll take it.",
    ]
    read = read_script(lines)
    assert read is not None
    assert [(x.speaker, x.text) for x in read] == [
        (None, "No, that's too early for me."),
        ("Agent", "There is one at 11:40 on BA514."),
        (None, "Perfect, I'll take it."),
    ]


def test_labelled_lines_that_are_no_script_are_left_alone():
    notes = ["Budget: £4,000", "Venue: the Old Mill", "Caterer: Fig & Olive", "Date: 12 June"]
    assert read_script(notes) is None  # no user among the labels
    one_side = ["Me: booked the van", "Me: told Ana", "Me: paid the deposit", "Me: rang Dad"]
    assert read_script(one_side) is None  # no one else speaks
    short = ["Tom: are you in?", "Me: yes", "Tom: great"]
    assert read_script(short) is None  # too few lines to tell


def test_a_call_written_as_a_script_keeps_what_was_agreed_as_its_speakers_said_it(repo):
    text = transcript(
        "s-call",
        (
            "user",
            "2031-03-03T10:00:00Z",
            "Rang the dentist, here's how it went:\n\n" + "\n".join(CALL),
        ),
        ("assistant", "2031-03-03T10:01:00Z", "Noted."),
    )
    run(repo, text)
    facts = current_facts(repo)
    assert "Monday the 10th (2031-03-10) at 15:45 with Dr Hale" in facts
    assert "8:30" not in facts  # offered, turned down: no fact, and never the user's
    assert 'Yes, under-18s pay nothing (to "Is the check-up free for children?")' in facts
    assert "Me:" not in facts
