""" "Has got" and "'ve got" say what someone has or must do, in the present: "he's got the
dentist on the 14th" is a day to come, not one gone. "Got" of a present perfect that tells
of something done ("she's got back on the 2nd", "we've got it sorted") stays past."""

from __future__ import annotations

import pytest

from doctree.agent.offline.language import past_tense
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript


@pytest.mark.parametrize(
    "said",
    [
        "He's got the dentist on the 14th at 9:20.",
        "I've got to renew my passport by the 28th.",
        "Grandad has got his eye clinic on the 19th.",
        "We have got the plasterer booked for the 22nd.",
        "My niece’s got her driving test on the 25th.",
    ],
)
def test_has_got_of_what_one_has_or_must_do_is_no_past(said):
    assert not past_tense(said), said


@pytest.mark.parametrize(
    "said",
    [
        "She's got back from Porto on the 2nd.",
        "He's got home late on the 2nd.",
        "I've got it sorted on the 2nd.",
        "I've got the letter, it came on the 2nd.",
        "He got the dentist to see him on the 2nd.",
    ],
)
def test_got_of_something_done_stays_past(said):
    assert past_tense(said), said


def test_a_day_of_the_month_after_has_got_is_the_one_to_come(tmp_path):
    with DocumentsRepository(str(tmp_path / "m.db")) as repo:
        run(
            repo,
            transcript(
                "s-has-got",
                (
                    "user",
                    "2031-05-09T10:00:00Z",
                    "My uncle Bartek's got his hearing test on the 21st.",
                ),
                ("user", "2031-05-09T10:01:00Z", "My aunt Zofia got back from Gdansk on the 3rd."),
            ),
        )
        text = "\n".join(d.body for d in repo.documents("main", "~/memory"))
    assert "(2031-05-21)" in text and "(2031-04-21)" not in text, text
    assert "(2031-05-03)" in text, text
