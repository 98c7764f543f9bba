"""A word typed again to put right the message before ("*Maeve", "Maeve*", "*£60 sorry, fat
fingers", "I meant Maeve", "sorry, autocorrect: Hale not Kale") replaces the word closest to
it in spelling before the facts are read: the corrected value lands, the wrong one never
does, and a word too far from any said changes nothing."""

from __future__ import annotations

import pytest

from doctree.agent.offline.retyped import Correction, corrected_span, correction, distance
from tests.agent.offline_runs import current_facts, run, transcript

DAY = "2031-10-06T07:30:00Z"
NEXT = "2031-10-06T07:30:20Z"


@pytest.mark.parametrize(
    ("said", "fix", "right", "wrong"),
    [
        # names
        ("Grainne is collecting the twins on Friday", "*Gráinne", "Gráinne", "Grainne is"),
        ("Mauve is collecting the twins on Friday", "Maeve*", "Maeve", "Mauve"),
        ("Our new lodger is Declan Morrow", "I meant Declan Murrow", "Murrow", "Morrow"),
        # places
        ("The recital is at Brockwell church hall", "*Brockley", "Brockley", "Brockwell"),
        ("The shoe shop is Stride on Kale Street", "sorry, autocorrect: Hale not Kale",
         "Hale Street", "Kale"),
        # numbers
        ("The plumber is charging £340 for the valve", "*£430 sorry, fat fingers", "£430", "£340"),
        ("Parking permit number is 55812", "*55821", "55821", "55812"),
        # a word: the day
        ("Piano lesson moved to thirsty at 5pm", "*Thursday", "Thursday", "thirsty"),
    ],
)  # fmt: skip
def test_a_retyped_word_replaces_the_misspelt_one(repo, said, fix, right, wrong):
    run(repo, transcript("s-re", ("user", DAY, said), ("user", NEXT, fix)))
    facts = current_facts(repo)
    assert right in facts, facts
    assert wrong not in facts, facts


def test_a_correction_far_from_every_word_changes_nothing(repo):
    run(
        repo,
        transcript(
            "s-re2",
            ("user", DAY, "The osteopath appointment is on Friday at 10:15"),
            ("user", NEXT, "*Wednesday"),
        ),
    )
    facts = current_facts(repo)
    assert "Friday" in facts and "Wednesday" not in facts


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("*Maeve", Correction("Maeve")),
        ("Maeve*", Correction("Maeve")),
        ("*£60 sorry, fat fingers", Correction("£60")),
        ("I meant Maeve", Correction("Maeve")),
        ("sorry, meant Thursday", Correction("Thursday")),
        ("Sorry, autocorrect: Hale not Kale", Correction("Hale", "Kale")),
        ("*sigh*", None),
        ("*really* looking forward to it, the party is on the 5th", None),
        ("Maeve is picking them up", None),
        ("Hale not Kale", None),  # no sign it is a correction
    ],
)
def test_a_correcting_message_is_read_only_when_that_is_all_it_says(text, expected):
    assert correction(text) == expected


def test_the_closest_word_is_chosen_and_figures_match_figures():
    text = "Tea with Mia at 4, then Maya's party at 6"
    span = corrected_span(text, Correction("Maia"))
    assert span is not None and text[span[0] : span[1]] == "Maya"  # the later of two as close
    span = corrected_span(text, Correction("5"))
    assert span is not None and text[span[0] : span[1]] == "6"
    assert corrected_span("Lunch at Cobham on Friday", Correction("Thursday")) is None
    assert distance("thirsty", "thursday") == 3 and distance("kale", "hale") == 1


@pytest.mark.parametrize(
    ("said", "reply", "fix", "right", "wrong"),
    [
        ("pottery class thurs 6pm at the Old Forge", "Noted.", "7pm*", "7pm", "6pm"),
        ("brunch with Oonagh at Cafe Morvan tmrw", "Got it!", "*Morvern", "Morvern", "Morvan"),
    ],
)
def test_a_retyped_word_after_a_bare_acknowledgement_still_replaces_it(
    repo, said, reply, fix, right, wrong
):
    run(
        repo,
        transcript(
            "s-re",
            ("user", DAY, said),
            ("assistant", "2031-10-06T07:30:10Z", reply),
            ("user", NEXT, fix),
        ),
    )
    facts = current_facts(repo)
    assert right in facts, facts
    assert wrong not in facts, facts


def test_a_retyped_word_after_a_reply_that_asks_changes_nothing(repo):
    run(
        repo,
        transcript(
            "s-re",
            ("user", DAY, "pottery class thurs 6pm at the Old Forge"),
            ("assistant", "2031-10-06T07:30:10Z", "Is that every week?"),
            ("user", NEXT, "7pm*"),
        ),
    )
    facts = current_facts(repo)
    assert "6pm" in facts, facts
    assert "7pm" not in facts, facts
