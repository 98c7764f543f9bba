"""A day right after the speaker's own earlier word for it ("I said the 7th", "I told you
Tuesday"), with no verb of its own after it, is the value the sentence sets aside, not a day
gone by: it is left as said, without a date, and the day the sentence corrects it to is
dated as ever."""

from __future__ import annotations

from datetime import date

from doctree.agent.offline.resolve import resolve_relative

SAT = date(2031, 5, 10)  # a Saturday


def test_the_day_said_before_is_left_undated():
    text, dates = resolve_relative(
        "Earlier I said the 7th for the recital; it's actually the 8th.", SAT, by_clause=True
    )
    assert "the 7th for" in text and "the 7th (" not in text, text
    assert dates == [("the 8th", date(2031, 6, 8))], dates


def test_a_weekday_told_before_is_left_undated():
    text, dates = resolve_relative(
        "I told you Tuesday, sorry, it is Wednesday.", SAT, by_clause=True
    )
    assert "Tuesday (" not in text, text
    assert [d for _, d in dates] == [date(2031, 5, 14)], dates


def test_a_day_of_telling_or_a_day_with_its_own_verb_is_dated():
    text, _ = resolve_relative("She told me on Monday that the roof leaks.", SAT, by_clause=True)
    assert "Monday (2031-05-05)" in text, text
    text, _ = resolve_relative("He said Thursday suits the builder.", SAT, by_clause=True)
    assert "Thursday (" in text, text
