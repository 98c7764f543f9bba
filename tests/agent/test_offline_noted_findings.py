"""An assistant's sentence that opens on an acknowledgement before a colon ("Noted: …") is
what follows the colon: a finding the user may accept, kept only when it gives a value the
session's lines do not (a day the user said in words the rules could not read), never a
second line for a value the user's own line gives."""

from __future__ import annotations

from tests.agent.offline_runs import current_facts, run, transcript

DAY = "2033-04-02T10:00:00Z"
LATER = "2033-04-02T10:05:00Z"


def test_a_noted_sentence_giving_a_new_day_is_kept_when_accepted(repo):
    run(
        repo,
        transcript(
            "s-noted",
            ("user", DAY, "Is the spare room free in June? Wiremu is coming over."),
            ("assistant", DAY, "Is Wiremu family? And when does he land?"),
            ("user", DAY, "Yes, my nephew. On the ninth, the Friday of that week."),
            (
                "assistant",
                DAY,
                "Noted: Wiremu, your nephew, lands on Friday 9 June 2033, and the back bedroom "
                "(Room 2) is his.",
            ),
            ("user", LATER, "Exactly."),
        ),
    )
    now = current_facts(repo)
    assert any("Wiremu" in ln and "2033-06-09" in ln for ln in now.splitlines()), now


def test_a_noted_sum_the_user_gave_is_no_second_line_and_a_later_sum_replaces_it(repo):
    run(
        repo,
        transcript(
            "s-noted-sum",
            ("user", DAY, "The roofer quoted £860 for the gutters."),
            ("assistant", DAY, "Noted: the roofer's quote for the gutters is £860."),
            ("user", LATER, "Good news, the roofer knocked it down to £790."),
            ("assistant", LATER, "Nice, £790 it is."),
        ),
    )
    now = current_facts(repo)
    assert "£790" in now
    assert "£860" not in now, now
