"""A labelled line of a later message that gives another day for the thing an earlier
labelled line named ("Your next service: …", later "Service rebooked: …") restates it: the
earlier line goes under Past. The labels must name the same thing once whose it is, which
one ("next") and a booking's state ("rebooked", "confirmed") are left out; lines of one
message, and fields any message has ("Date:"), restate nothing."""

from __future__ import annotations

from doctree.agent.offline.resolve import label_subject
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import page_lines, run, transcript


def _two_messages(repo: DocumentsRepository, first: str, second: str) -> tuple[str, str]:
    run(
        repo,
        transcript(
            "s-label",
            ("user", "2027-05-20T09:00:00Z", first),
            ("assistant", "2027-05-20T09:01:00Z", "Thanks, I see it."),
            ("user", "2027-05-20T09:30:00Z", second),
            ("assistant", "2027-05-20T09:31:00Z", "Thanks."),
        ),
    )
    now, past = page_lines(repo)
    return "\n".join(now), "\n".join(past)


def test_a_later_labelled_day_of_the_same_thing_puts_the_earlier_under_past(
    repo: DocumentsRepository,
):
    now, past = _two_messages(
        repo,
        "The garage texted me.\n\nYour next service: Mon 14 June 2027 at 09:00, Hill Road.",
        "They had no ramp free.\n\nService rebooked: Wed 23 June 2027 at 11:30, Hill Road.",
    )
    assert "2027-06-23" in now, now
    assert "2027-06-14" not in now, now
    assert "2027-06-14" in past, past


def test_two_labelled_days_of_one_message_both_stand(repo: DocumentsRepository):
    now, _ = _two_messages(
        repo,
        "The physio sent my slots.\n\nSession: Mon 7 June 2027 at 10:00 with Dr Lee.\n\n"
        "Session: Mon 14 June 2027 at 10:00 in the gym.",
        "Both are fine for work.",
    )
    assert "2027-06-07" in now and "2027-06-14" in now, now


def test_labels_of_other_things_or_of_any_message_restate_nothing(repo: DocumentsRepository):
    now, _ = _two_messages(
        repo,
        "From the surgery.\n\nDentist appointment: Tue 8 June 2027 at 15:00.",
        "And the other one.\n\nOptician appointment: Thu 17 June 2027 at 12:00.",
    )
    assert "2027-06-08" in now and "2027-06-17" in now, now


def test_a_label_names_its_thing_without_whose_which_or_its_state():
    assert label_subject("Your next service: Mon 14 June") == {"service"}
    assert label_subject("Service rebooked: Wed 23 June") == {"service"}
    assert label_subject("Flight out: Fri 11 June") != label_subject("Flight back: Fri 18 June")
    assert label_subject("Date: 3 June 2027") is None
    assert label_subject("The service is on Monday.") is None
