"""A pasted text's headings in capitals say what the lines below them are about: each
sentence under one is said with it, and with the person the user's own words tie it to."""

from __future__ import annotations

from doctree.agent.offline.sections import is_heading, read_sections
from tests.agent.offline_runs import current_facts, run, transcript

NOTICE = """Our two are Maya in Class 3 (Puffins) and Theo in Class 5 (Gannets).

HILLCREST SCHOOL NOTICES

CLASS 3 (Puffins)
The farm visit is on Wednesday 12 March. Wellies please.

CLASS 5 (Gannets)
Swimming starts on Tuesday 4 March.

ALL CLASSES
Sports day: Friday 20 June."""


def test_each_sentence_under_a_heading_is_said_with_it_and_whom_it_concerns():
    read = read_sections(NOTICE)
    assert "The farm visit is on Wednesday 12 March (Maya — Class 3, Puffins)." in read
    assert "Wellies please (Maya — Class 3, Puffins)." in read
    assert "Swimming starts on Tuesday 4 March (Theo — Class 5, Gannets)." in read
    assert "Sports day: Friday 20 June (All Classes)." in read
    assert "CLASS 3 (Puffins)" not in read  # the heading is said with its lines


def test_headings_are_short_lines_in_capitals_only():
    assert is_heading("YEAR 4 (Rowan class)")
    assert is_heading("WHOLE SCHOOL")
    assert is_heading("PTA")
    assert not is_heading("Year 4 (Rowan class)")
    assert not is_heading("PLEASE NOTE THE GATES CLOSE AT 8:55 SHARP.")
    assert not is_heading("OK")


def test_text_without_headings_or_with_a_heading_alone_is_left_as_it_is():
    plain = "The boiler was serviced on 3 May.\nNext due in May."
    assert read_sections(plain) == plain
    alone = "Some news:\n\nBIG NEWS\n\nWe got the flat."
    assert read_sections(alone) == alone
    shout = "I AM SO CROSS\nthe boiler broke again and the plumber is away till Monday."
    assert read_sections(shout) == shout


def test_a_pasted_notice_keeps_each_childs_lines_with_the_child(repo):
    text = transcript(
        "s-notice",
        ("user", "2031-02-20T17:00:00Z", NOTICE),
        ("assistant", "2031-02-20T17:01:00Z", "Noted."),
    )
    run(repo, text)
    facts = current_facts(repo)
    assert "Swimming starts on Tuesday 4 March (2031-03-04) (Theo — Class 5, Gannets)" in facts
    assert "Sports day: Friday 20 June (2031-06-20) (All Classes)" in facts
