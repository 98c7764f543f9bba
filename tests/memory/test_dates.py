"""Date tokens: the expressions are looked for only where their words are (a digit, a
month's first letters, "day", "week", ...), in any case and in text that is not ASCII."""

from __future__ import annotations

from datetime import date

import pytest

from doctree.memory.dates import date_tokens, day_tokens, time_windows
from doctree.memory.query import parse_query

MONDAY = date(2023, 5, 8)


@pytest.mark.parametrize(
    ("text", "anchored", "unanchored"),
    [
        ("Zoë said: YESTERDAY, then last FRIDAY", ["d20230507", "m202305", "y2023", "d20230505"], []),
        ("Café on MARCH 3, 2023", ["d20230303", "m202303", "y2023"], ["d20230303", "m202303", "y2023"]),
        ("naïve 2023-05-07 note", ["d20230507", "m202305", "y2023"], ["d20230507", "m202305", "y2023"]),
        ("Zoë in 1999", ["y1999"], ["y1999"]),
        ("Zoë: two WEEKS ago", ["m202304", "y2023"], []),
        ("In June, TONIGHT", ["m202306", "y2023", "d20230508", "m202305"], []),
        ("Dec. 2021 and sept 3", ["m202112", "y2021", "d20230903", "m202309", "y2023"], ["m202112", "y2021"]),
        ("message 3 of session 17: some text", [], []),
        ("nothing dated here at all", [], []),
    ],
)  # fmt: skip
def test_date_tokens_in_any_case_and_any_script(text, anchored, unanchored):
    assert date_tokens(text, MONDAY) == anchored
    assert date_tokens(text, None) == unanchored


def test_day_tokens_are_a_new_list_each_time():
    first = day_tokens(MONDAY)
    first.append("changed")
    assert day_tokens(MONDAY) == ["d20230508", "m202305", "y2023"]


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("ſept 3", ["d20240903", "m202409", "y2024"]),  # a long s: the pattern matches `sept`
        ("3 ſept 2023", ["d20230903", "m202309", "y2023"]),
        ("ſeptember 2025", ["m202509", "y2025"]),
    ],
)
def test_a_month_the_pattern_matches_in_another_case_is_read_not_a_crash(text, tokens):
    assert date_tokens(text, date(2024, 1, 1)) == tokens


def test_a_weekday_the_pattern_matches_in_another_case_is_read_not_a_crash():
    assert date_tokens("next ſunday", date(2024, 1, 1)) == ["d20240107", "m202401", "y2024"]


# -- the time a question asks about ------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "first", "last"),
    [
        ("What did I plant two weeks ago?", date(2023, 4, 22), date(2023, 4, 26)),
        ("Which book did I finish a week ago?", date(2023, 4, 30), date(2023, 5, 2)),
        ("How many rings did I buy in the last two months?", date(2023, 3, 8), MONDAY),
        ("Where did I post most over the past month?", date(2023, 4, 8), MONDAY),
        ("What did I cook last month?", date(2023, 4, 1), MONDAY),
        ("What did I eat last Friday?", date(2023, 5, 5), date(2023, 5, 5)),
        ("Where was I last weekend?", date(2023, 5, 6), date(2023, 5, 7)),
        ("What did I say yesterday?", date(2023, 5, 7), date(2023, 5, 7)),
        ("How far did I run THIS YEAR?", date(2023, 1, 1), MONDAY),
    ],
)  # fmt: skip
def test_a_time_in_a_question_is_the_period_it_points_at(question, first, last):
    [(span, start, end)] = time_windows(question, MONDAY)
    assert (start, end) == (first, last)
    assert question[span[0] : span[1]].strip()[-1].isalpha()  # the span is the words of it


@pytest.mark.parametrize(
    "question",
    [
        "How many weeks ago did I start using the app?",  # asks for a time: names none
        "What did I learn at the last monthly meeting?",
        "What is my favourite day of the week?",
    ],
)
def test_a_question_that_names_no_period_has_none(question):
    assert time_windows(question, MONDAY) == []


def test_a_query_reads_its_time_only_against_the_day_it_is_asked():
    assert parse_query("What did I plant two weeks ago?").window is None
    q = parse_query("What did I plant two weeks ago?", now=MONDAY)
    assert q.window == (date(2023, 4, 22), date(2023, 4, 26))
    assert q.in_window("2023-04-24") and q.in_window("2023-04-24T09:00:00Z")
    assert not q.in_window("2023-05-01") and not q.in_window(None)
    assert "plant" in q.terms and "weeks" in q.terms  # its words are still searched
