"""Date tokens: the expressions are looked for only where their words are (a digit, a
month's first letters, "day", "week", ...), in any case and in text that is not ASCII."""

from __future__ import annotations

from datetime import date

import pytest

from doctree.memory.dates import date_tokens, day_tokens

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
