"""A fact kept twice (a pasted mail and the assistant's reading of it) and changed in a later
session is replaced on both lines: two lines that give the same values for the same thing
are one fact said twice, not two candidates of which the one meant is unknown. A value said
to begin "now from" a time is the new one, not the one a change leaves behind."""

from __future__ import annotations

from datetime import date

from doctree.agent.offline import supersession
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
