"""Corrections that come after what they correct: an afterthought ("P.S. …", "EDIT: …") that
gives the value meant in the message's body, a "never mind" that takes back the message
before, a dated log written newest first, and a chain of later values, each kept under Past."""

from __future__ import annotations

from datetime import date

import pytest

from doctree.agent.offline.afterthought import corrected, is_mark, without_mark
from doctree.agent.offline.logs import oldest_first
from doctree.agent.offline.model import Sentence
from doctree.agent.offline.positions import said_instead, withdraws
from doctree.agent.offline.supersession import thing_words
from tests.agent.offline_runs import current_facts, past_facts, run, transcript

DAY = "2030-02-03T09:00:00Z"


def _said(raw: str) -> Sentence:
    return Sentence(DAY, raw, raw=raw)


@pytest.mark.parametrize(
    ("line", "rest"),
    [
        ("P.S. it's five this year", "It's five this year"),
        ("PS: the 19th", "The 19th"),
        ("P.P.S. bring a torch", "Bring a torch"),
        ("EDIT: £358, I misread it", "£358, I misread it"),
        ("Edit - he lands at 6pm", "He lands at 6pm"),
        ("ETA: it's Room 4", "It's Room 4"),
    ],
)
def test_the_mark_of_an_afterthought_is_taken_off(line, rest):
    assert without_mark(line) == rest


@pytest.mark.parametrize(
    "line",
    ["Edit the draft before Friday.", "PS5 games are on sale.", "Pseudo-code is fine.", "P.S."],
)
def test_what_is_no_afterthought_keeps_its_words(line):
    assert without_mark(line) is None


def test_a_lone_mark_is_a_mark():
    assert is_mark("P.S.") and is_mark("EDIT:") and not is_mark("P.S. the 4th")


def test_the_old_value_named_is_the_one_replaced():
    body = _said("The relay is on Sunday 9 June at 10am, legs of six miles, £12 to enter.")
    fixed = corrected(
        "It's legs of four miles this time, not six, the club wrote.", [body], "the user"
    )
    assert fixed == (
        body,
        "The relay is on Sunday 9 June at 10am, legs of four miles, £12 to enter.",
    )


def test_a_value_is_matched_to_the_clause_that_shares_its_word():
    body = _said("My aunt Odile is staying, landing on the 11th and leaving on Friday the 18th.")
    fixed = corrected("She lands on the 12th, the airline moved her.", [body], "the user")
    assert fixed is not None
    assert fixed[1] == (
        "My aunt Odile is staying, landing on the 12th and leaving on Friday the 18th."
    )


def test_a_bare_value_replaces_the_one_value_of_its_kind():
    body = _said("The vet quoted £275 for the dental clean.")
    assert corrected("£257, I misread the invoice.", [body], "the user") == (
        body,
        "The vet quoted £257 for the dental clean.",
    )


@pytest.mark.parametrize(
    ("rest", "said"),
    [
        # two sentences hold an amount: which one is meant is unknown
        ("£40, sorry.", ["The gas bill is £60.", "The water bill is £35."]),
        # two days in one sentence and no word to tell them apart
        ("The 14th.", ["We go on the 2nd and come back on the 9th."]),
        # the old value named is said nowhere
        ("It's 5pm, not 4pm.", ["Dinner is at 7pm."]),
        # the line says no value at all
        ("Bring the blue folder too.", ["The meeting is at 3pm."]),
        # another speaker's sentence is not the user's to correct
        ("£30.", []),
    ],
)
def test_when_unsure_nothing_is_replaced(rest, said):
    assert corrected(rest, [_said(x) for x in said], "the user") is None


def test_afterthoughts_correct_the_body_of_their_message(repo):
    run(
        repo,
        transcript(
            "s-ps",
            (
                "user",
                DAY,
                "The chess tournament at the library is on Saturday 16 February, 10am, boards "
                "of eight, £5 entry.\n\nP.S. it's boards of five this year, not eight, Imogen "
                "told me.",
            ),
            ("assistant", "2030-02-03T09:01:00Z", "Noted."),
            (
                "user",
                "2030-02-03T09:05:00Z",
                "My cousin Tarik is visiting, landing on the 18th and flying home on Sunday the "
                "24th.\n\nEDIT: he lands on the 19th, his flight moved.",
            ),
            ("assistant", "2030-02-03T09:06:00Z", "Got it."),
            (
                "user",
                "2030-02-03T09:10:00Z",
                "The garage quoted £385 for the brake pads and discs.\n\nEdit: £358, I misread it.",
            ),
        ),
    )
    facts = current_facts(repo)
    assert "boards of five" in facts and "boards of eight" not in facts
    assert "landing on the 19th (2030-02-19)" in facts and "2030-02-18" not in facts
    assert "quoted £358" in facts and "£385" not in facts
    assert "P.S." not in facts and "EDIT" not in facts


def test_never_mind_takes_back_the_message_before(repo):
    run(
        repo,
        transcript(
            "s-nvm",
            ("user", DAY, "Also note that I've got a ticket for the Harbour Lights concert."),
            ("assistant", "2030-02-03T09:01:00Z", "Noted."),
            ("user", "2030-02-03T09:02:00Z", "nvm, turns out the ticket was for my sister"),
        ),
    )
    facts = current_facts(repo)
    assert "Harbour Lights" not in facts
    assert "ticket was for the user's sister" in facts  # what it says instead is read


def test_never_mind_after_a_question_takes_back_nothing(repo):
    run(
        repo,
        transcript(
            "s-nvm2",
            ("user", DAY, "My boiler is a Vaillant ecoTEC from 2019. How do I repressurise it?"),
            ("assistant", "2030-02-03T09:01:00Z", "Open the filling loop until the gauge reads 1.5 bar."),
            ("user", "2030-02-03T09:02:00Z", "Never mind, found the manual."),
        ),
    )  # fmt: skip
    assert "Vaillant" in current_facts(repo)


@pytest.mark.parametrize(
    "sentence", ["nvm, I'm only on the waiting list", "Never mind.", "never mind that, wrong day"]
)
def test_never_mind_withdraws(sentence):
    assert withdraws(sentence)


def test_never_mind_in_a_sentence_withdraws_nothing():
    assert not withdraws("I never mind the rain on a long walk.")


LOG = (
    "Here's the log I keep on the roof job, latest first.\n\n"
    "UPDATE 2 (Thu 14 Mar):\nScaffold removal moved again, now Monday 25 Mar.\n\n"
    "UPDATE 1 (Mon 11 Mar):\nScaffold removal pushed to Friday 22 Mar, the lead flashing is late.\n\n"
    "START (Fri 1 Mar):\nRoofers start on Monday 4 Mar. They plan to take the scaffold down on "
    "Monday 18 Mar."
)


def test_a_log_written_newest_first_is_read_oldest_first():
    text, entries = oldest_first(LOG, date(2030, 3, 14))
    assert [d for _, d in entries] == [date(2030, 3, 1), date(2030, 3, 11), date(2030, 3, 14)]
    assert text.index("Roofers start") < text.index("pushed to") < text.index("moved again")
    assert "UPDATE" not in text and text.startswith("Here's the log")


@pytest.mark.parametrize(
    "text",
    [
        # oldest first already
        "Mon 11 Mar: the skip came.\nThu 14 Mar: the skip went.",
        # one entry is no log
        "UPDATE (Thu 14 Mar):\nScaffold down on Monday 25 Mar.",
        # out of order both ways
        "Thu 14 Mar: a.\nMon 4 Mar: b.\nMon 11 Mar: c.",
    ],
)
def test_other_texts_are_read_as_they_stand(text):
    assert oldest_first(text, date(2030, 3, 14)) == (text, [])


def test_a_message_of_one_line_is_no_log_and_its_label_is_not_read(monkeypatch):
    # one line holds one entry at most, and a log needs two: no date is looked for in it
    from doctree.agent.offline import logs

    read: list[str] = []
    day = logs._day  # noqa: SLF001
    monkeypatch.setattr(logs, "_day", lambda label, ref: read.append(label) or day(label, ref))
    text = "Thu 14 Mar: the skip went, and Mon 11 Mar: it came."
    assert oldest_first(text, date(2030, 3, 14)) == (text, [])
    assert read == []
    assert oldest_first(text + "\nMon 4 Mar: ordered it.", date(2030, 3, 14))[1]
    assert read == ["Thu 14 Mar", "Mon 4 Mar"]


def test_the_latest_entry_of_a_log_holds_now_and_each_before_is_past(repo):
    run(repo, transcript("s-log", ("user", "2030-03-14T18:00:00Z", LOG)))
    facts, past = current_facts(repo), past_facts(repo)
    assert "2030-03-25" in facts
    assert "2030-03-22" not in facts and "2030-03-18" not in facts
    assert "2030-03-22" in past and "2030-03-18" in past


def test_a_version_names_the_thing_of_its_value():
    assert "0.9.2" in thing_words("0.9.2 is now out on 3 June")
    assert "v3.1" in thing_words("the v3.1 milestone")
    assert not {"2.5", "2"} & thing_words("it weighs 2.5 kg")


def test_a_release_moved_in_a_later_session_replaces_its_date(repo):
    run(
        repo,
        transcript(
            "s-rel1",
            ("user", "2032-02-22T21:00:00Z", "The plan is to ship 1.8.0 of my plant-watering app on Saturday 20 March and post it on the forum then."),
        ),
    )  # fmt: skip
    run(
        repo,
        transcript(
            "s-rel2",
            ("user", "2032-03-10T21:00:00Z", "Reviewers want a privacy page first, so 1.8.0 is now 3 April."),
        ),
    )  # fmt: skip
    facts = current_facts(repo)
    assert "2032-04-03" in facts and "2032-03-20" not in facts


def test_a_label_that_names_something_is_kept():
    text, _ = oldest_first(
        "Release 2.1 (Thu 14 Mar): the export fix.\nRelease 2.0 (Mon 4 Mar): the first cut.",
        date(2030, 3, 14),
    )
    assert text.startswith("Release 2.0 (Mon 4 Mar): the first cut.")
    assert "Release 2.1 (Thu 14 Mar): the export fix." in text


@pytest.mark.parametrize(
    ("sentence", "instead"),
    [
        ("P.S. scrap that last bit, we voted and we're the Night Owls now.", "We voted and we're the Night Owls now."),
        ("Forget the last thing I said, the fete is on the 9th.", "The fete is on the 9th."),
        # what says why it was taken back is no statement
        ("Forget the last two things I said, they were private.", None),
        ("Delete the last thing I told you, it was the wrong file.", None),
        ("Scratch the last two.", None),
    ],
)  # fmt: skip
def test_a_request_by_position_reads_what_holds_instead(sentence, instead):
    assert said_instead(sentence) == instead


def test_what_holds_instead_of_the_last_bit_is_kept(repo):
    run(
        repo,
        transcript(
            "s-inst",
            ("user", DAY, "Darts league starts on 6 March. Team name stays the Treble Makers.\n\nP.S. scrap that last bit, we voted and we're the Night Owls now."),
        ),
    )  # fmt: skip
    facts = current_facts(repo)
    assert "Night Owls" in facts and "Treble Makers" not in facts
    assert "6 March" in facts
