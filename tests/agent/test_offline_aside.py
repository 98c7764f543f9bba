"""A request that what follows not be kept, said before it ("off the record: …", "between
us, …", "don't save this next bit: …"): what it covers — the rest of its sentence and the
message's sentences after it, up to "back on the record" — is nowhere in memory, and what
was said before it stays. Said after something ("…, off the record"), it takes back what
came before, as "forget that" does."""

from __future__ import annotations

import pytest

from doctree.agent.offline.language import aside_ahead, aside_ends
from tests.agent.offline_runs import everything, run, transcript

DAY = "2031-02-03T18:00:00Z"
LATER = "2031-02-03T18:05:00Z"


@pytest.mark.parametrize(
    ("sentence", "first", "covered"),
    [
        ("Off the record: I've applied for a job at Brightwell Logistics.", False,
         "I've applied for a job at Brightwell Logistics."),
        ("ok so, between us, Dana is leaving in March.", False, "Dana is leaving in March."),
        ("Confidentially — the merger closes in May.", False, "the merger closes in May."),
        ("This is strictly off the record, my rent is going up.", False, "my rent is going up."),
        ("Please don't save this next bit: my salary is 48k.", False, "my salary is 48k."),
        ("Don't write down the following.", False, ""),
        ("What I'm about to tell you stays between us.", False, ""),
        ("Off the record.", True, ""),  # alone, first: the sentences after it
        ("Between us:", False, ""),  # alone, ending on a colon: what comes next
        # "this" with a colon or a dash names what follows
        ("And keep this between us: I'm interviewing at Marrow & Finch.", False,
         "I'm interviewing at Marrow & Finch."),
        ("Let's keep this to yourself - Ola is expecting.", False, "Ola is expecting."),
        ("This stays between you and me — the shop is closing.", False, "the shop is closing."),
        # words that are only ever an aside, with no stop before what they cover
        ("Between you and me he's selling the allotment.", False, "he's selling the allotment."),
        ("Off the record I'm applying elsewhere.", False, "I'm applying elsewhere."),
    ],
)  # fmt: skip
def test_an_aside_said_before_covers_what_follows(sentence, first, covered):
    assert aside_ahead(sentence, first=first) == covered


@pytest.mark.parametrize(
    ("sentence", "first"),
    [
        ("I'm job hunting, off the record.", False),  # said after: "forget that"
        ("That's between us.", False),
        ("Off the record.", False),  # after something said: about what came before
        ("The off the record comment was funny.", True),
        ("We split the bill between us, so it was £14 each.", True),
        ("Between us and the coast there's a ridge.", True),
        ("For the record, the meeting is at 10.", True),
        # without a colon or a dash, "this" is what came before ("forget that")
        ("Keep this between us.", False),
        ("Keep this between us, ok?", False),
        ("Between us we spent £40 on the hamper.", True),  # together, not an aside
    ],
)
def test_sentences_that_open_no_aside(sentence, first):
    assert aside_ahead(sentence, first=first) is None


def test_back_on_the_record_keeps_what_it_says():
    assert aside_ends("Back on the record: the party is at 7.") == "the party is at 7."
    assert aside_ends("OK, you can save this again.") == ""
    assert aside_ends("ok, you can keep the rest: the van is booked.") == "the van is booked."
    assert aside_ends("The record shop is on Mill Lane.") is None


def test_what_an_aside_covers_is_not_kept_and_what_came_before_stays(repo):
    run(
        repo,
        transcript(
            "s-aside-1",
            ("user", DAY, "The barbecue is on Saturday the 8th at our place, and Priyanka is "
             "bringing the grill. Off the record: I've applied for a job at Brightwell "
             "Logistics. Nobody at work knows yet."),
            ("assistant", DAY, "Noted the barbecue on Saturday the 8th."),
            ("user", LATER, "Between us, my brother Olek is moving back to Gdansk. Back on the "
             "record: the dentist is on February 20th."),
        ),
    )  # fmt: skip
    text = everything(repo)
    for gone in ("Brightwell", "Nobody at work", "Gdansk", "Olek"):
        assert gone not in text, gone
    assert "Priyanka is bringing the grill" in text  # said before the aside
    assert "2031-02-08" in text
    assert "dentist" in text and "2031-02-20" in text  # back on the record


def test_an_aside_said_alone_covers_the_rest_of_its_message_only(repo):
    run(
        repo,
        transcript(
            "s-aside-2",
            ("user", DAY, "Off the record. My landlord is selling the flat. He told me on "
             "the stairs."),
            ("user", LATER, "The boiler service is booked for March 3rd."),
        ),
    )  # fmt: skip
    text = everything(repo)
    assert "selling" not in text and "stairs" not in text
    assert "boiler service" in text and "2031-03-03" in text


def test_an_aside_said_after_takes_back_what_came_before(repo):
    run(
        repo,
        transcript(
            "s-aside-3",
            ("user", DAY, "I'm interviewing at Corvid Labs on Friday, off the record."),
            ("user", LATER, "The plumber comes on February 10th."),
        ),
    )  # fmt: skip
    text = everything(repo)
    assert "Corvid" not in text
    assert "plumber" in text


def test_keep_this_between_us_with_a_colon_covers_what_follows_not_what_came_before(repo):
    run(
        repo,
        transcript(
            "s-aside-4",
            ("user", DAY, "The vet appointment moved to the 18th. Keep this between us: Jonah "
             "is leaving the band."),
            ("user", LATER, "Also, the orthodontist moved to the 20th. Keep this between us."),
        ),
    )  # fmt: skip
    text = everything(repo)
    assert "Jonah" not in text and "leaving the band" not in text
    assert "vet appointment" in text and "2031-02-18" in text  # said before, with a colon after
    assert "orthodontist" not in text  # said before, and "this" with nothing after it


def test_an_aside_in_a_pasted_note_or_a_participants_line_is_not_the_users(repo):
    run(
        repo,
        transcript(
            "s-aside-4",
            ("user", DAY, "Marta wrote in the group chat:\n\n> Off the record: the venue is "
             "the Lantern Hall.\n\nThe quiz night is on February 14th."),
        ),
    )  # fmt: skip
    text = everything(repo)
    assert "quiz night" in text
