"""A club that folds or a habit stopped ("the chess club has folded", "I stopped going to
yoga", "Maya quit doing ballet") moves the line that names it under Past; a fault ("the
boiler has stopped") or a line about something else stays."""

from __future__ import annotations

import pytest

from doctree.agent.offline.resolve import calls_off
from tests.agent.offline_runs import page_lines, run, transcript


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("Chess club has folded, the teacher left.", "Maya goes to chess club on Wednesday."),
        ("The Tuesday choir has stopped running for good.", "Lena sings in the Tuesday choir."),
        ("I stopped going to yoga.", "I go to yoga on Mondays at 6pm."),
        ("Maya quit doing ballet.", "Maya does ballet on Saturdays."),
        ("The night class has been discontinued.", "The night class is on Mondays at 7pm."),
    ],
)
def test_a_thing_stopped_calls_off_the_line_that_names_it(text, said):
    assert calls_off(text, said)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("The Tuesday choir has stopped running.", "Lena goes to chess club on Wednesday."),
        ("Maya quit doing ballet.", "Maya does swimming on Saturdays."),
        ("The boiler has stopped.", "The boiler was serviced on 2030-05-02."),
        ("The rain has stopped at last.", "Maya goes to chess club on Wednesday."),
    ],
)
def test_a_fault_or_another_thing_calls_off_nothing(text, said):
    assert not calls_off(text, said)


def test_a_club_that_folds_goes_under_past_and_its_neighbours_stay(repo):
    run(
        repo,
        transcript(
            "s-club-1",
            (
                "user",
                "2031-01-06T18:00:00Z",
                "Noor has orchestra club on Tuesdays until 4:30. Noor's swimming lesson is on"
                " Fridays at 5pm.",
            ),
        ),
    )
    run(
        repo,
        transcript(
            "s-club-2",
            ("user", "2031-01-20T18:00:00Z", "Orchestra club has folded, the music teacher left."),
        ),
    )
    now, past = map("\n".join, page_lines(repo))
    assert "orchestra club on Tuesdays" not in now, now
    assert "orchestra club on Tuesdays" in past, past
    assert "swimming lesson is on Fridays" in now, now
