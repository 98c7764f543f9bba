"""Anchored dates: a day counted from a date said with it or from an event whose date the
conversation gave ("three weeks before the 30 June deadline", "a week after it arrives",
"the week after the operation"), in the same sentence, an earlier message or an earlier
session; an anchor never dated, or two things it could name, leave the words as said; a
line counted from an event that later moves is marked, its day kept."""

from __future__ import annotations

from datetime import date

import pytest

from doctree.agent.offline.resolve import absolute_dates, resolve_relative, session_dates
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import current_facts, run, transcript

REF = date(2027, 4, 6)  # a Tuesday


def _said(anchors: list, text: str, ref: date = REF) -> str:
    """`text` said on `ref` with its dates resolved, as the agent reads a session's sentences
    one after another (`anchors`: the dates said so far)."""
    fixed = absolute_dates(text, ref, by_clause=True)
    given = [(text.lower().find(p.lower()), d) for p, d in fixed]
    out, found = resolve_relative(text, ref, by_clause=True, anchors=anchors, given=given)
    session_dates(anchors, text, found + fixed)
    return out


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        # British and American dates, before and after, days, weeks, months
        (
            "He wants the full draft three weeks before the 30 June deadline.",
            "deadline (2027-06-09)",
        ),
        (
            "The invoice is payable 30 days after June 3rd, per the contract.",
            "June 3rd (2027-07-03)",
        ),
        ("Book the vet a fortnight before 14 May.", "14 May (2027-04-30)"),
        ("The warranty claim closes two months after 31 December.", "31 December (2028-02-29)"),
        ("Revision starts 10 days prior to May 20.", "May 20 (2027-05-10)"),
        ("Results come out two weeks from the 3rd of June.", "3rd of June (2027-06-17)"),
    ],
)
def test_an_offset_from_a_date_said_with_it_is_counted_from_that_date(sentence, expected):
    assert expected in _said([], sentence)


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Gran turns 80 on 14 November, and we're having the party the Saturday before, at hers.",
         "the Saturday before (2027-11-13)"),
        ("Mum lands on November 14th and we're going out the Friday after, somewhere nice.",
         "the Friday after (2027-11-19)"),
    ],
)  # fmt: skip
def test_a_weekday_before_or_after_counts_from_the_date_of_its_own_sentence(sentence, expected):
    anchors: list = []
    _said(anchors, "The boiler service is on 2 May.")  # an earlier date of the session
    assert expected in _said(anchors, sentence)


@pytest.mark.parametrize(
    ("first", "then", "expected"),
    [
        ("Dad has cardiology on March 12.",
         "The hearing test is the Tuesday after his cardiology appointment.",
         "the Tuesday after his cardiology appointment (2028-03-14)"),
        ("The courier says the parcel arrives on Monday.", "We sign a week after it arrives.",
         "a week after it arrives (2027-04-19)"),
        ("The solicitor reckons it'll arrive on Monday.", "We sign a week after it arrives.",
         "a week after it arrives (2027-04-19)"),
        ("Our wedding is on Saturday 19 June.", "The deposit is due two months after the wedding.",
         "two months after the wedding (2027-08-19)"),
        ("Mum's hip operation is on 11 August.", "I'll stay with her the week after the operation.",
         "the week after the operation (week of 2027-08-16)"),
        ("We get married on June 19.", "The caterer needs final numbers two weeks before.",
         "two weeks before (2027-06-05)"),
        ("Kickoff is on Friday 16 April.", "The review is kickoff plus a fortnight, remember.",
         None),
        ("Jo's party is on 1 May.", "The clean-up crew comes two days after Jo's party.",
         "two days after Jo's party (2027-05-03)"),
    ],
)  # fmt: skip
def test_an_offset_from_an_event_counts_from_the_date_said_of_it_before(first, then, expected):
    anchors: list = []
    _said(anchors, first)
    said = _said(anchors, then)
    if expected is None:  # "kickoff plus a fortnight": "plus" counts from a date said with it
        assert "(" not in said, said
    else:
        assert expected in said, said


def test_plus_counts_from_the_date_said_just_before_it():
    assert "Monday (2027-04-12) plus a fortnight (2027-04-26)" in _said(
        [], "The review is Monday plus a fortnight."
    )
    assert "+ 3 days (2027-05-04)" in _said([], "Delivery is 1 May + 3 days.")


@pytest.mark.parametrize(
    "sentence",
    [
        "Pack the car two days before the move.",
        "I'll be off work for two weeks after the surgery.",
        "We fly home the Friday after the conference.",
        "Drinks are a week after the launch party.",
    ],
)
def test_an_anchor_never_dated_is_left_as_said(sentence):
    anchors: list = []
    _said(anchors, "The dentist is on 3 May.")
    assert "(" not in _said(anchors, sentence)


def test_an_anchor_two_things_could_name_is_left_as_said():
    anchors: list = []
    _said(anchors, "The dentist appointment is on 3 May.")
    _said(anchors, "The GP appointment is on 9 May.")
    said = _said(anchors, "Call the pharmacy two days after the appointment.")
    assert "(" not in said, said
    # said again as moved, the latest is the one
    _said(anchors, "The GP appointment has moved to 12 May.")
    said = _said(anchors, "Call the pharmacy two days after the GP appointment.")
    assert "(2027-05-14)" in said, said


def _messages(session: str, day: str, *said: str) -> str:
    msgs: list[tuple[str, str, object]] = []
    for i, text in enumerate(said):
        msgs.append(("user", f"{day}T19:{i:02d}:00Z", text))
        msgs.append(("assistant", f"{day}T19:{i:02d}:30Z", "Noted."))
    return transcript(session, *msgs)


def test_an_event_dated_in_an_earlier_session_anchors_a_date_of_a_later_one(tmp_path):
    repo = DocumentsRepository(tmp_path / "memory.db")
    run(
        repo,
        _messages("s1", "2028-04-10", "Dad has his cardiology appointment on Thursday 20 April."),
    )
    run(repo, _messages("s2", "2028-04-12", "His hearing test is the Tuesday after cardiology, same hospital."))  # fmt: skip
    assert "the Tuesday after cardiology (2028-04-25)" in current_facts(repo)


def test_an_event_an_earlier_session_never_dated_leaves_the_words_as_said(tmp_path):
    repo = DocumentsRepository(tmp_path / "memory.db")
    run(
        repo,
        _messages("s1", "2028-04-10", "Dad has his cardiology appointment on Thursday 20 April."),
    )
    run(
        repo,
        _messages("s2", "2028-04-12", "His eye test is the Tuesday after the audiology visit."),
    )
    facts = current_facts(repo)
    assert "the Tuesday after the audiology visit." in facts, facts


def test_a_line_counted_from_an_event_that_moves_is_marked_and_keeps_its_day(tmp_path):
    repo = DocumentsRepository(tmp_path / "memory.db")
    run(repo, _messages("s1", "2028-04-10",
                        "Dad has cardiology on Thursday 20 April.",
                        "His hearing test is the Tuesday after cardiology, same hospital."))  # fmt: skip
    run(repo, _messages("s2", "2028-04-14", "The hospital rang, cardiology has moved to Friday the 28th."))  # fmt: skip
    facts = current_facts(repo)
    assert (
        "the Tuesday after cardiology (2028-04-25; counted from cardiology, which moved to "
        "2028-04-28 on 2028-04-14)"
    ) in facts, facts
    assert "moved to Friday the 28th (2028-04-28)" in facts
    # the move replaces the event's own line, not the line counted from it
    assert "Thursday 20 April" not in facts


def test_a_line_counted_from_a_date_is_not_marked_when_another_thing_moves(tmp_path):
    repo = DocumentsRepository(tmp_path / "memory.db")
    run(repo, _messages("s1", "2028-04-10", "Our wedding is on Saturday 19 June.",
                        "The caterer needs final numbers two weeks before the wedding."))  # fmt: skip
    run(repo, _messages("s2", "2028-04-14", "The band's rehearsal has moved to Friday the 28th."))
    facts = current_facts(repo)
    assert "two weeks before the wedding (2028-06-05)" in facts, facts
    assert "which moved" not in facts


@pytest.mark.parametrize(
    ("first", "then", "expected"),
    [
        ("The tribunal sits on 24 September.",
         "Witness statements go in fourteen days before the tribunal.",
         "fourteen days before the tribunal (2027-09-10)"),
        ("The tribunal sits on 24 September.",
         "The appeal window closes twenty-eight days after the tribunal.",
         "twenty-eight days after the tribunal (2027-10-22)"),
        ("Our allotment handover is on 2 June.",
         "The shed has to be emptied thirty five days before the handover.",
         "thirty five days before the handover (2027-04-28)"),
        ("Our allotment handover is on 2 June.",
         "The new tenant gets the keys seventeen days after the handover.",
         "seventeen days after the handover (2027-06-19)"),
    ],
)  # fmt: skip
def test_a_count_spelled_past_twelve_counts_from_the_event(first, then, expected):
    anchors: list = []
    _said(anchors, first)
    said = _said(anchors, then)
    assert expected in said, said


def test_a_count_spelled_past_twelve_from_an_event_never_dated_is_left_as_said():
    anchors: list = []
    _said(anchors, "The tribunal sits on 24 September.")
    said = _said(anchors, "Book the room fourteen days before the inspection.")
    assert "(" not in said, said
    _said(anchors, "The first inspection is on 3 May.")
    _said(anchors, "The second inspection is on 19 May.")
    said = _said(anchors, "Book the room fourteen days before the inspection.")
    assert "(" not in said, said  # two inspections on different days


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("The new sofa comes Thursday and Pete's round the day after to help lift it.",
         "the day after (2027-04-09) to help"),
        ("We land on 3 May and sleep the night before at the airport hotel.",
         "the night before (2027-05-02) at the airport"),
        ("The course ends on Friday 14 May and we leave the Monday after with the dog.",
         "the Monday after (2027-05-17) with the dog"),
    ],
)  # fmt: skip
def test_a_bare_day_before_or_after_said_on_counts_from_the_date_of_its_sentence(
    sentence, expected
):
    said = _said([], sentence)
    assert expected in said, said


@pytest.mark.parametrize(
    "sentence",
    [
        # no date said before it in the sentence: the session's last date is not assumed
        "Pete's round the day after to help lift it.",
        # what follows is no new phrase: an event or a time, read by other rules or not at all
        "The sofa comes Thursday and Pete's round the day after and the day before the move.",
        "The sofa comes Thursday and Pete's round the day after to 5pm.",
        # no offset: "before the wedding" dates nothing
        "Before the wedding I'll go to the barber.",
    ],
)
def test_a_bare_day_before_or_after_said_on_without_its_date_is_left_as_said(sentence):
    anchors: list = []
    _said(anchors, "The boiler service is on 2 May.")
    _said(anchors, "Our wedding is on 12 June.")
    said = _said(anchors, sentence)
    assert "the day after (" not in said and "the day before (" not in said, said
    assert "wedding (" not in said, said
