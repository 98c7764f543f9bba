"""Dates said relative to another date of the conversation, not to the day it was said:
"the Tuesday after that", "two days before the audition", "back on the Monday"; a weekday
with a day of the month picks the month where they agree; a date in a clause of what is to
come ("starting on …") is not read in the tense of the clause before it."""

from __future__ import annotations

import re
from datetime import date

import pytest

from doctree.agent.offline.resolve import absolute_dates, resolve_relative, session_dates
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript


def current_pages(repo: DocumentsRepository) -> str:
    """Every page a person reads (session pages left out), without what is past."""
    out = []
    for d in repo.documents("main", "~/memory"):
        if "/archive/" in d.path:
            continue
        out.append(
            "\n".join(ln for ln in d.body.split("\n") if " — past: " not in ln).split("## Past")[0]
        )
    return "\n".join(out)


def _said(anchors: list, text: str, ref: date) -> str:
    """`text` said on `ref` with its dates resolved, as the agent reads a session's
    sentences one after another (`anchors`: the dates said so far)."""
    fixed = absolute_dates(text, ref, by_clause=True)
    given = [(text.lower().find(p.lower()), d) for p, d in fixed]
    out, found = resolve_relative(text, ref, by_clause=True, anchors=anchors, given=given)
    session_dates(anchors, text, found + fixed)
    return out


def test_a_weekday_after_that_counts_from_the_date_said_just_before():
    anchors: list = []
    said = _said(
        anchors,
        "The audition is four weeks from today, and the callback is the Tuesday after that.",
        date(2029, 3, 7),  # a Wednesday
    )
    assert "four weeks from today (2029-04-04)" in said
    assert "the Tuesday after that (2029-04-10)" in said


def test_an_offset_before_a_named_thing_counts_from_the_date_said_of_it():
    anchors: list = []
    ref = date(2029, 3, 7)
    _said(anchors, "The audition is on April 4.", ref)
    _said(anchors, "Choir practice is this Thursday.", ref)
    said = _said(anchors, "I should book a lesson two days before the audition.", ref)
    assert "two days before the audition (2029-04-02)" in said
    # a chain that names nothing said with a date is left as said
    unknown = _said([], "Pack the bags two days before the move.", ref)
    assert "(" not in unknown


def test_a_chained_date_is_not_an_anchor_for_what_it_names():
    anchors: list = []
    ref = date(2029, 3, 7)
    _said(anchors, "The final is three weeks from today.", ref)  # 2029-03-28
    _said(anchors, "There is a rehearsal a week before the final.", ref)  # 2029-03-21
    said = _said(anchors, "The Sunday before the final I rest.", ref)
    assert "(2029-03-25)" in said  # counted from the final, not from the rehearsal


def test_a_weekday_with_a_day_of_the_month_takes_the_month_where_they_agree():
    # said on 2029-03-07; the 13th of March 2029 is a Tuesday, of April a Friday
    out, _ = resolve_relative("The viewing is on Friday the 13th.", date(2029, 3, 7))
    assert "(2029-04-13)" in out


def test_the_weekday_of_a_trip_counts_from_its_first_day(repo):
    run(
        repo,
        transcript(
            "s-porto",
            (
                "user",
                "2029-03-07T10:00:00Z",
                "We drive to Porto on Saturday 21 April and come home on the Wednesday.",
            ),
        ),
    )
    now = current_pages(repo)
    assert "the Wednesday (2029-04-25)" in now, now
    assert "2029-03-14" not in now  # not the Wednesday after the day it was said


def test_a_start_date_after_a_past_sentence_is_still_to_come(repo):
    run(
        repo,
        transcript(
            "s-offer",
            (
                "user",
                "2029-03-07T10:00:00Z",
                "Halvorsen Marine sent me the contract. A salary of 61,000, starting on 4 June.",
            ),
        ),
    )
    now = current_pages(repo)
    assert "2029-06-04" in now, now
    assert "2028-06-04" not in now


def test_months_and_years_from_now_are_resolved_and_a_duration_is_not():
    ref = date(2029, 1, 31)
    assert "(2029-02-28)" in resolve_relative("The lease review is in one month.", ref)[0]
    assert "(2030-01-31)" in resolve_relative("The next check isn't due for a year.", ref)[0]
    assert "(" not in resolve_relative("We lived in Porto for a year.", ref)[0]


def test_dates_counted_from_an_unarticled_event_named_with_its_date():
    anchors: list = []
    ref = date(2029, 3, 7)
    said = _said(
        anchors,
        "Race day is Sunday the 15th of April, the evening before race day we carb-load, "
        "the physio check is two days after race day and the Monday after race day I rest.",
        ref,
    )
    assert "the evening before race day (2029-04-14)" in said
    assert "two days after race day (2029-04-17)" in said
    assert "the Monday after race day (2029-04-16)" in said


def test_a_date_counted_from_an_event_is_not_the_event_for_the_next_date():
    anchors: list = []
    ref = date(2029, 3, 7)
    _said(anchors, "Launch day is on 10 May.", ref)
    said = _said(
        anchors, "The dry run is the day before launch day, the retro a week after launch day.", ref
    )
    assert "the day before launch day (2029-05-09)" in said
    assert "a week after launch day (2029-05-17)" in said  # from launch day, not the dry run


def test_a_date_said_in_another_language_is_made_absolute():
    ref = date(2029, 10, 2)  # a Tuesday
    said = [d for _, d in absolute_dates("la boda es el sábado 9 de marzo en Cádiz", ref)]
    assert said == [date(2030, 3, 9)]
    assert [d for _, d in absolute_dates("on se voit le 14 novembre", ref)] == [date(2029, 11, 14)]
    assert [d for _, d in absolute_dates("Abflug am 3. Dezember", ref)] == [date(2029, 12, 3)]
    out, _ = resolve_relative("la cena es el 19, y el jueves vamos al cine", ref)
    assert "el 19 (2029-10-19)" in out
    assert "el jueves (2029-10-04)" in out


def test_an_english_word_that_looks_like_a_foreign_month_is_no_date():
    ref = date(2029, 10, 2)
    assert absolute_dates("I ate 3 Mars bars on the train", ref) == []
    out, _ = resolve_relative("I am 24 and my brother is 19", ref)
    assert "(" not in out


def test_a_bare_day_something_was_moved_to_is_the_one_to_come():
    out, _ = resolve_relative(
        "The tasting moved to the 20th because the chef is away.", date(2029, 5, 10), past=True
    )
    assert "(2029-05-20)" in out
    gone, _ = resolve_relative("We met on the 2nd at the cafe.", date(2029, 5, 10), past=True)
    assert "(2029-05-02)" in gone  # said of what happened: the one gone


def test_n_weeks_today_counts_from_the_day_it_is_said():
    anchors: list = []
    ref = date(2029, 3, 4)
    assert "three weeks today (2029-03-25)" in _said(
        anchors, "The regatta is three weeks today.", ref
    )
    assert "a week tomorrow (2029-03-12)" in _said(anchors, "We sail a week tomorrow.", ref)


def test_a_weekday_said_with_a_is_what_day_a_date_is_not_a_date():
    anchors: list = []
    said = _said(anchors, "The fair is in four weeks, also a Sunday.", date(2029, 3, 4))
    assert "(2029-04-01)" in said
    assert "Sunday (" not in said, said


def test_a_count_before_the_deadline_counts_from_the_closing_date():
    anchors: list = []
    ref = date(2029, 1, 8)
    _said(anchors, "The bursary round closes on 12 April 2029.", ref)
    said = _said(anchors, "Tamsin wants my draft ten days before the deadline.", ref)
    assert "ten days before the deadline (2029-04-02)" in said, said


def test_a_count_from_a_deadline_that_moved_replaces_the_earlier_count(repo):
    run(
        repo,
        transcript(
            "s-one",
            (
                "user",
                "2029-01-08T09:00:00Z",
                "The bursary round closes on 12 April. Tamsin wants my draft ten days before"
                " the deadline.",
            ),
        ),
    )
    run(
        repo,
        transcript(
            "s-two",
            (
                "user",
                "2029-02-01T09:00:00Z",
                "The bursary round closes on 30 April now. Tamsin still wants my draft"
                " ten days before the deadline.",
            ),
        ),
    )
    now = current_pages(repo)
    assert "(2029-04-20)" in now, now
    assert "(2029-04-02)" not in now, now
    assert "(2029-04-12)" not in now, now


def test_chat_shorthand_for_days_and_time_words_resolves():
    from doctree.agent.offline.language import weekdays_spelled

    said = weekdays_spelled("the fete is sat 14th, setup tmrw, bunting b4 noon")
    assert said == "the fete is Saturday 14th, setup tomorrow, bunting before noon", said
    assert weekdays_spelled("I sat down in the sun") == "I sat down in the sun"
    assert weekdays_spelled("they wed before the war") == "they wed before the war"


def test_an_ordinal_birthday_is_no_day_of_the_month():
    said, found = resolve_relative("Jonah's 9th birthday is on Saturday.", date(2029, 7, 2))
    assert "9th (" not in said and "9th birthday" in said, said
    assert [p for p, _ in found] == ["on Saturday"]


@pytest.mark.parametrize(
    "text",
    [
        "The port is kept for Oisín's 18th.",
        "A bottle of fizz each for THEIR 18TH — not before.",
        "Her 30th is next spring, we think.",
        "Raj's 20th work anniversary is coming up.",
        "It's the 5th surprise birthday we've thrown her.",
    ],
)
def test_an_ordinal_of_someones_years_is_no_day_of_the_month(text):
    said, found = resolve_relative(text, date(2029, 7, 2))
    assert not [p for p, _ in found if re.search(r"\d(?:st|nd|rd|th)", p, re.I)], found


@pytest.mark.parametrize(
    "text, day",
    [
        ("The rent is due on the 18th.", "2029-07-18"),
        ("See you on 30th.", "2029-07-30"),
        ("Her party is on the 21st.", "2029-07-21"),
    ],
)
def test_a_day_of_the_month_after_no_possessive_is_still_a_date(text, day):
    said, found = resolve_relative(text, date(2029, 7, 2))
    assert [d.isoformat() for _, d in found] == [day], found


def test_a_weekday_or_day_before_with_no_anchor_counts_from_the_date_said_last():
    anchors: list = []
    ref = date(2029, 7, 2)
    _said(anchors, "The fete is on Saturday 14th July.", ref)
    said = _said(anchors, "Stall forms are due by the Wednesday before.", ref)
    assert "the Wednesday before (2029-07-11)" in said, said
    said = _said(anchors, "We collect the tables on Friday, the day before.", ref)
    assert "Friday (2029-07-13)" in said and "the day before (2029-07-13)" in said, said


def test_a_weekday_week_is_a_week_after_the_coming_one():
    ref = date(2029, 7, 4)  # a Wednesday
    assert "Saturday week (2029-07-14)" in resolve_relative("The picnic is Saturday week.", ref)[0]
    assert "a week on Friday (2029-07-13)" in resolve_relative("Back a week on Friday.", ref)[0]
    assert "Monday fortnight (2029-07-23)" in resolve_relative("It opens Monday fortnight.", ref)[0]


def test_starting_with_a_day_said_of_the_past_is_the_one_gone():
    """ "switched … starting with the file of the 19th", said on the 23rd, is the 19th just
    gone: "starting with" picks one of a series, it does not point ahead as "starting on
    Monday" does."""
    said = _said(
        [], "Their export switched to UTF-16 starting with the file of the 19th.", date(2028, 5, 23)
    )
    assert "2028-05-19" in said, said
    ahead = _said([], "The new rota applies starting on the 19th.", date(2028, 5, 23))
    assert "2028-06-19" in ahead, ahead


def test_a_schedules_days_take_the_year_a_weekday_settled():
    said = (
        "Reading the chart: strip-out the week of Monday 8 August, plastering by Sid the week "
        "of 22 August, units fitted the week of 29 August."
    )
    assert [d for _, d in absolute_dates(said, date(2033, 5, 4), by_clause=True)] == [
        date(2033, 8, 8),
        date(2033, 8, 22),
        date(2033, 8, 29),
    ]


def test_a_day_alone_in_a_sentence_about_the_past_is_last_years():
    said = "We went to Lisbon on 22 August."
    assert absolute_dates(said, date(2033, 5, 4), by_clause=True) == [
        ("22 August", date(2032, 8, 22))
    ]
    # a year said with another day is no weekday's settling: the birthday keeps its year
    both = "I was born on 3 March 1990 and my party is on 5 June."
    assert [d for _, d in absolute_dates(both, date(2033, 5, 4), by_clause=True)] == [
        date(1990, 3, 3),
        date(2033, 6, 5),
    ]


def test_a_day_something_is_due_back_is_to_come_after_a_past_clause():
    said = "Priyanka took the tile cutter today, due back on 10 May."
    assert absolute_dates(said, date(2033, 4, 26), by_clause=True) == [
        ("10 May", date(2033, 5, 10))
    ]
    # what was due is past all the same
    was = "The rent was due on 1 March and I paid it late."
    assert absolute_dates(was, date(2033, 4, 26), by_clause=True) == [("1 March", date(2033, 3, 1))]


def test_the_weekday_a_date_said_before_falls_on_is_that_date():
    # "the Saturday" after a Saturday said before is that Saturday, not the one after it;
    # a weekday after a date of another weekday still counts on from it
    ref = date(2029, 5, 1)
    anchors: list = []
    _said(anchors, "The summer fair is on Saturday 23 June.", ref)
    assert "(2029-06-23)" in _said(anchors, "It's staying on the Saturday but starts at 1pm.", ref)
    anchors = []
    _said(anchors, "We fly out on Thursday 21 June.", ref)
    assert "(2029-06-25)" in _said(anchors, "We're back on the Monday.", ref)


def test_a_label_that_looks_like_shorthand_stays_as_written():
    from doctree.agent.offline.language import weekdays_spelled

    # "B4:" is a spreadsheet's cell, not "before"; "b4 noon" still is
    assert weekdays_spelled("B4: 134 (the direct debit went up)").startswith("B4: 134")
    assert weekdays_spelled("wk: 12 of 40") == "wk: 12 of 40"
    assert "before noon" in weekdays_spelled("bunting b4 noon")
