"""Everyday statements read as they are meant: a past tense without "-ed" is a verb, "due"
is said as one, a mate or a pal is someone, a day "of every month" is the next to come."""

from __future__ import annotations

from datetime import date

import pytest

from doctree.agent.offline.language import has_verb, resolve_pronoun, said_again
from doctree.agent.offline.resolve import resolve_relative
from tests.agent.offline_runs import current_facts, facts_after, run, transcript

DAY = "2033-01-14T09:00:00Z"  # a Friday


@pytest.mark.parametrize(
    "text",
    [
        "My neighbour lent us her gazebo for the party.",
        "My mate sold the old piano to a school in Hull.",
        "Grandad drove down from Carlisle in four hours.",
    ],
)
def test_a_verb_the_list_lacked_is_a_verb(text):
    assert has_verb(text)


@pytest.mark.parametrize("text", ["A spare key under the mat.", "Ferry timetable below."])
def test_a_line_without_a_verb_has_none(text):
    assert not has_verb(text)


def _facts(repo, message: str) -> str:
    return facts_after(repo, message, DAY)


def test_due_of_a_day_is_a_statement(repo):
    facts = _facts(repo, "Eye test every two years, next one due in March.")
    assert "next one due in March" in facts


def test_a_past_tense_statement_is_kept(repo):
    assert "lent the user his ladder" in _facts(repo, "My brother-in-law lent me his ladder.")


@pytest.mark.parametrize(
    "message, who, relation",
    [
        ("My mate Ciaran fixed the fence on Sunday.", "ciaran", "mate"),
        ("My best friend Yusra is moving to Dundee in May.", "yusra", "best friend"),
    ],
)
def test_a_mate_or_a_best_friend_is_someone(repo, message, who, relation):
    _facts(repo, message)
    page = repo.get("main", f"~/memory/people/{who}").body
    assert f"Relation: the user's {relation}" in page


def test_a_weekday_of_every_month_is_the_next_to_come(repo):
    facts = _facts(repo, "Quiz night is the second Tuesday of every month.")
    # 14 January 2033 is a Friday: January's second Tuesday (the 11th) has passed
    assert f"({date(2033, 2, 8).isoformat()})" in facts
    assert "(2033-01-18)" not in facts  # not the coming Tuesday


def test_a_diary_verb_opening_a_sentence_names_someone(repo):
    facts = _facts(
        repo, "Spoke to Ifeoma about the lease. Her landlord wants the flat back by June."
    )
    assert "Ifeoma's landlord wants the flat back" in facts


def test_an_imperative_opening_a_sentence_names_no_one(repo):
    _facts(repo, "Visit Wales is sending the brochure on Monday.")
    assert repo.get("main", "~/memory/people/wales") is None


@pytest.mark.parametrize(
    "said, written",
    [
        ("She'll be in for three nights.", "Noor will be in for three nights."),
        ("She'd already paid the deposit.", "Noor had already paid the deposit."),
        ("She'd rather have the window seat.", "Noor would rather have the window seat."),
    ],
)
def test_a_pronoun_with_its_verb_shortened_is_written_in_full(said, written):
    assert resolve_pronoun(said, "Noor") == written


@pytest.mark.parametrize(
    "message, who",
    [
        ("Yannick's vegetarian, so no ham on Friday.", "yannick"),
        ("Oksana's coming on the 9th with her kids.", "oksana"),
        ("Remember Tadgh's fiancée is called Roisin.", "tadgh"),
    ],
)
def test_a_name_then_what_only_a_person_is_or_has_is_someone(repo, message, who):
    _facts(repo, message)
    assert repo.get("main", f"~/memory/people/{who}") is not None


def test_a_place_said_with_s_before_a_plain_verb_is_no_one(repo):
    _facts(repo, "The Anchor's moving its quiz to Wednesdays.")
    assert repo.get("main", "~/memory/people/anchor") is None
    assert repo.get("main", "~/memory/people/the-anchor") is None


@pytest.mark.parametrize(
    "said, fixed",
    [
        (
            "The piano tuner comes Tuesday at 10 — no wait, it's Thursday at 10.",
            "The piano tuner comes Thursday at 10.",
        ),
        ("Supper club is on the 12th at Ottie's, sorry, make it the 14th.",
         "Supper club is on the 14th at Ottie's."),
    ],
)  # fmt: skip
def test_a_value_corrected_after_what_follows_it(said, fixed):
    again = said_again(said)
    assert again is not None and again[0] == fixed


@pytest.mark.parametrize(
    "said",
    [
        # the correction says more than the value: which part holds is unsure
        "Lunch is Tuesday at 1 - no, Wednesday at 2.",
        # no value of the same sort before it
        "I rang the garage, sorry, Wednesday.",
    ],
)
def test_a_correction_that_is_unsure_changes_nothing(said):
    assert said_again(said) is None


@pytest.mark.parametrize(
    "said",
    [
        "Going with the Dyson.",
        "Right, I'll go with the cheaper quote.",
        "We've opted for the evening ferry.",
        "Decided on the green tiles.",
    ],
)
def test_the_users_own_choice_is_a_decision(repo, said):
    run(repo, transcript("s-choice", ("user", DAY, said), ("assistant", DAY, "Good choice.")))
    decisions = repo.get("main", "~/memory/decisions")
    assert decisions is not None and said.rstrip(".").split()[-1] in decisions.body


@pytest.mark.parametrize(
    "said",
    ["Going with the kids to the zoo on Sunday.", "I'm going for a run after work."],
)
def test_going_somewhere_with_someone_is_no_decision(repo, said):
    run(repo, transcript("s-choice", ("user", DAY, said), ("assistant", DAY, "Have fun.")))
    assert repo.get("main", "~/memory/decisions") is None


@pytest.mark.parametrize(
    "said, day",
    [
        # 14 January 2033: the 19th to come, not the one gone by
        ("We ordered the bunk beds from Argos, delivery on the 19th.", "(2033-01-19)"),
        ("Booked the boiler swap last week, installation on the 26th.", "(2033-01-26)"),
    ],
)
def test_what_an_order_brings_later_is_to_come(repo, said, day):
    assert day in _facts(repo, said)


def test_a_thing_that_came_is_gone_by(repo):
    facts = _facts(repo, "We ordered the rug in December, it arrived on the 3rd.")
    assert "(2033-01-03)" in facts


def test_a_week_that_repeats_names_no_one_day(repo):
    facts = _facts(
        repo,
        "Our usual week:\nMon - Nell ballet 4:15\nWed - Rory judo 6pm\nFri - swim club 5:30",
    )
    assert "judo 6pm" in facts
    assert "(2033-01-19)" not in facts  # not the coming Wednesday


def test_a_plan_for_one_week_is_dated(repo):
    facts = _facts(repo, "Plan for next week:\nMon - optician 9am\nWed - Rory judo grading 6pm")
    assert "(2033-01-19)" in facts


def test_weekly_said_in_passing_heads_no_week(repo):
    # "weekly" inside a sentence of its own is not a heading: the day after it is the coming one
    facts = _facts(repo, "I do the weekly shop at the market.\nWed - Rory judo grading 6pm")
    assert "(2033-01-19)" in facts


@pytest.mark.parametrize(
    "said", ["Loathe open-plan offices.", "Much prefer the early train to the late one."]
)
def test_a_liking_said_without_i_is_a_preference(repo, said):
    run(repo, transcript("s-like", ("user", DAY, said), ("assistant", DAY, "Noted.")))
    assert said.split()[-1].rstrip(".") in current_facts(repo)


@pytest.mark.parametrize("said", ["Love that idea!", "Hate it when that happens."])
def test_a_reaction_is_no_preference(repo, said):
    run(repo, transcript("s-like", ("user", DAY, said), ("assistant", DAY, "Ha.")))
    assert said.rstrip("!.") not in current_facts(repo)


def test_the_end_of_a_stretch_said_after_a_later_day_is_after_it():
    text, _ = resolve_relative(
        "I can't make the quiz on Thursday, I'm away till Saturday.", date(2033, 1, 14)
    )
    # said on Friday 14 January: Thursday is the 20th, so "till Saturday" is the 22nd
    assert "Thursday (2033-01-20)" in text and "Saturday (2033-01-22)" in text


def test_the_end_of_a_stretch_said_first_is_the_coming_day():
    text, _ = resolve_relative(
        "I'm away till Saturday, back at work on Thursday.", date(2033, 1, 14)
    )
    assert "Saturday (2033-01-15)" in text


@pytest.mark.parametrize(
    "said",
    [
        "The booster is due three weeks after the first.",
        "Her follow-up scan is a month after the second.",
    ],
)
def test_a_count_after_the_first_of_something_is_no_day_of_the_month(repo, said):
    facts = _facts(repo, said)
    assert "(2033-0" not in facts  # no day of any month written in


def test_on_the_first_is_still_a_day(repo):
    assert "(2033-02-01)" in _facts(repo, "The rent is due on the first.")


@pytest.mark.parametrize(
    "said, name", [("Call me Ros, not Rosalind.", "Ros"), ("Please call me Dev.", "Dev")]
)
def test_what_the_user_wants_to_be_called_is_kept(repo, said, name):
    assert name in _facts(repo, said)


@pytest.mark.parametrize("said", ["Call me when the parcel comes.", "Call me after lunch."])
def test_a_request_to_phone_is_no_name(repo, said):
    assert "Call me" not in _facts(repo, said)
