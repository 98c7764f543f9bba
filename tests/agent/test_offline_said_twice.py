"""A fact kept twice (a pasted mail and the assistant's reading of it) and changed in a later
session is replaced on both lines: two lines that give the same values for the same thing
are one fact said twice, not two candidates of which the one meant is unknown. A value said
to begin "now from" a time is the new one, not the one a change leaves behind."""

from __future__ import annotations

from datetime import date

from doctree.agent.offline import chat, supersession
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import page_lines, run, transcript

_MAIL = """The venue sent this, what does it say?

```
From: Harbour Kitchen <events@harbourkitchen.example>
Subject: Your booking HK-4410

Dear Tomasz,

Thank you for booking the Loft for your parents' ruby anniversary dinner on Friday 13 June \
2031, arriving from 19:30, for 16 guests. Your booking reference is HK-4410.

Kind regards,
Harbour Kitchen
```"""

_UPDATE = """Another one from them:

```
From: Harbour Kitchen <events@harbourkitchen.example>
Subject: Update to HK-4410

Dear Tomasz,

As requested, we have updated your numbers to 20 guests. As the chef needs a little longer, \
arrival is now from 20:00.

Kind regards,
Harbour Kitchen
```"""


def _booked_then_updated(repo: DocumentsRepository) -> tuple[list[str], list[str]]:
    run(
        repo,
        transcript(
            "s-one",
            ("user", "2031-05-02T09:00:00Z", _MAIL),
            (
                "assistant",
                "2031-05-02T09:01:00Z",
                "It confirms the Loft at Harbour Kitchen for your parents' ruby anniversary"
                " dinner on Friday 13 June 2031, arriving from 19:30, for 16 guests. The"
                " reference is HK-4410.",
            ),
            ("user", "2031-05-02T09:03:00Z", "Great, thanks."),
        ),
    )
    run(
        repo,
        transcript(
            "s-two",
            ("user", "2031-05-20T09:00:00Z", _UPDATE),
            (
                "assistant",
                "2031-05-20T09:01:00Z",
                "Numbers are now 20 guests, and arrival is now from 20:00.",
            ),
            ("user", "2031-05-20T09:03:00Z", "Thanks."),
        ),
    )
    return page_lines(repo)


def test_a_mail_and_its_reading_back_are_both_replaced_by_a_later_mail(repo):
    now, past = _booked_then_updated(repo)
    assert not any("16 guests" in ln for ln in now), now
    assert not any("19:30" in ln for ln in now), now
    assert any("20 guests" in ln and "Loft" in ln for ln in now), now
    assert any("20:00" in ln and "Loft" in ln for ln in now), now
    assert sum("16 guests" in ln for ln in past) >= 2, past
    # what the later mail does not change stays current
    assert any("HK-4410" in ln for ln in now), now


def test_now_from_a_time_is_the_new_value_not_the_old():
    line = "The Loft is booked for the dinner on Friday 13 June 2031, arriving from 19:30."
    reps = supersession.replacements(
        "As the chef needs a little longer, arrival is now from 20:00.",
        line,
        said_on=date(2031, 5, 20),
    )
    assert [(r.old.norm, r.new.norm) for r in reps] == [("19:30", "20:00")]


def test_from_a_time_to_another_still_names_the_old_one():
    line = "The pottery class is on Wednesdays at 18:00."
    reps = supersession.replacements("The pottery class moved from 18:00 to 19:15.", line)
    assert [(r.old.norm, r.new.norm) for r in reps] == [("18:00", "19:15")]
    reps = supersession.replacements("The pottery class moved from 19:15 to 18:00.", line)
    assert reps == []


def _found(text: str, *lines: str) -> dict[str, list[supersession.Replacement]]:
    return {ln: supersession.replacements(text, ln, said_on=date(2031, 5, 20)) for ln in lines}


def test_two_lines_giving_the_same_values_of_one_thing_are_both_replaced():
    found = _found(
        "Numbers for the christening lunch are now 40 guests.",
        "The christening lunch is at the Mill on Sunday 8 June 2031 (2031-06-08), for 35"
        " guests, from 13:00.",
        "Found by the assistant: the Mill has the christening lunch on Sunday 8 June 2031"
        " (2031-06-08) from 13:00, for 35 guests.",
    )
    assert all(found.values()), found
    assert len(supersession.chosen(found)) == 2


def test_two_appointments_that_share_only_a_time_stay_as_said():
    found = _found(
        "The appointment is now at 11:00.",
        "The dentist appointment is on Tuesday 3 June 2031 (2031-06-03) at 10:00.",
        "The physio appointment is on Thursday 5 June 2031 (2031-06-05) at 10:00.",
    )
    assert all(found.values()), found
    assert supersession.chosen(found) == []


def test_two_lines_alike_in_values_but_of_other_things_stay_as_said():
    found = _found(
        "Numbers are now 40 guests.",
        "The christening lunch is on Sunday 8 June 2031 (2031-06-08), for 35 guests.",
        "The leaving party at work is on Sunday 8 June 2031 (2031-06-08), for 35 guests.",
    )
    assert supersession.chosen(found) == []


def test_a_day_and_a_time_moved_in_one_clause_replace_the_line():
    line = "The allergy clinic is on Tuesday 10 June 2031 (2031-06-10) at 9:20."
    found = _found("The allergy clinic is now Thursday 12 June at 11:15.", line)
    reps = supersession.chosen(found)
    assert [r.line for r in reps] == [line], found


def test_a_line_and_its_twin_are_replaced_but_not_a_third_alike_only_in_type():
    twin_a = "Robin: the quiz night vs Moor Lane is on Friday 20 June 2031 (2031-06-20) at 19:30."
    twin_b = "Bot: quiz night vs Moor Lane · Friday, June 20, 2031 (2031-06-20) 7:30 PM · back room"
    other = "Bot: I'll remind you on Friday, June 13, 2031 (2031-06-13) 6:00 PM: book the room"
    found = _found(
        "Bot: updated: quiz night vs Moor Lane · Saturday, June 21, 2031 (2031-06-21) 8:00 PM"
        " · back room",
        twin_a,
        twin_b,
        other,
    )
    assert {r.line for r in supersession.chosen(found)} == {twin_a, twin_b}, found


def test_one_message_copied_out_of_a_chat_is_its_senders_line():
    export = chat.chat_export(
        "Look at this:\n\n```\n[06/06/2031 10:41] Apollo (APP): Event updated: Netball vs"
        " Hollin Hawks · Wednesday, June 11, 2031 8:00 PM · court 1\n```\n\nSo it's the"
        " Wednesday now."
    )
    assert export is not None
    before, lines, after = export
    assert [(ln.sender, ln.text) for ln in lines] == [
        (
            "Apollo (APP)",
            "Event updated: Netball vs Hollin Hawks · Wednesday, June 11, 2031 8:00 PM · court 1",
        )
    ]
    assert "```" not in " ".join(after) and "So it's the Wednesday now." in after


def test_a_log_line_or_a_bare_stamp_is_no_chat():
    assert chat.chat_export("```\n[2031-06-06 10:41] ERROR: disk full on /var\n```") is None
    assert chat.chat_export("[06/06/2031 10:41] Ana: ok") is None


def test_a_closing_fence_is_no_part_of_the_last_message():
    export = chat.chat_export(
        "```\n[01/06/2031 09:00] Ana: the hall is booked\n[01/06/2031 09:01] Ben: great"
        " news\n[01/06/2031 09:02] Ana: bring the urn on Saturday\n```\nThat's the group."
    )
    assert export is not None
    _, lines, after = export
    assert lines[-1].text == "bring the urn on Saturday"
    assert after == ["That's the group."]


def test_a_chat_message_copied_alone_replaces_the_days_of_the_earlier_copy(repo):
    first = (
        "Here's the club channel:\n\n```\n[02/06/2031 18:02] mira.s: /event create"
        ' title:"Netball vs Hollin Hawks" when:"Tue 10 Jun 19:00" where:"Ash Road Leisure,'
        ' court 3"\n[02/06/2031 18:02] Apollo (APP): 📅 Netball vs Hollin Hawks · Tuesday, June'
        " 10, 2031 7:00 PM · Ash Road Leisure, court 3 · ✅ Accepted (0)\n[02/06/2031 18:05]"
        " jo_k: ✅\n```"
    )
    second = (
        "```\n[06/06/2031 10:41] Apollo (APP): ✏️ Event updated: Netball vs Hollin Hawks ·"
        " Wednesday, June 11, 2031 8:00 PM · Ash Road Leisure, court 1\n```\n\nThe hall"
        " flooded, so it's the Wednesday, 8pm, court 1."
    )
    run(repo, transcript("s-one", ("user", "2031-06-02T19:00:00Z", first)))
    run(repo, transcript("s-two", ("user", "2031-06-06T11:00:00Z", second)))
    now, past = page_lines(repo)
    assert not any("2031-06-10" in ln and "Hollin" in ln for ln in now), now
    assert any("2031-06-11" in ln and "Hollin" in ln for ln in now), now
    assert not any("```" in ln for ln in now), now
    assert sum("2031-06-10" in ln for ln in past) >= 2, past


def test_a_span_of_days_replaced_by_another_span_gives_each_end_its_own():
    line = "The sales conference in Leeds runs from 3rd to 6th March (2031-03-03 to 2031-03-06)."
    found = _found(
        "The sales conference moved to Bristol, 10th to 13th March (2031-03-10 to 2031-03-13).",
        line,
    )
    pairs = sorted((r.old.norm, r.new.norm) for r in found[line])
    assert pairs == [("2031-03-03", "2031-03-10"), ("2031-03-06", "2031-03-13")], found
    assert [r.line for r in supersession.chosen(found)] == [line]


def test_a_line_unsure_which_of_its_days_is_meant_yields_to_a_line_that_names_the_thing():
    meant = "The sales conference in Leeds runs from 3rd to 6th March (2031-03-03 to 2031-03-06)."
    weak = "My sister moved her conference call to Tuesday 4 March (2031-03-04)."
    found = _found(
        "The sales conference in Leeds is now 10th to 13th March (2031-03-10 to 2031-03-13).",
        meant,
        weak,
    )
    assert [r.line for r in supersession.chosen(found)] == [meant], found


def test_a_line_unsure_which_of_its_days_is_meant_still_stops_an_equal_one():
    a = "The conference runs from 3rd to 6th March (2031-03-03 to 2031-03-06)."
    b = "The conference dinner is on Wednesday 5 March (2031-03-05)."
    found = _found("The conference moved to 10th to 13th March (2031-03-10 to 2031-03-13).", a, b)
    assert supersession.chosen(found) == [], found
