"""A request to forget only a when ("forget about Tuesday, Wednesday works better for the
lunch") names no thing: it moves a plan, and every other line that says the day (an
appointment on it) stays. A thing of that day ("the Tuesday meeting") is still a thing."""

from __future__ import annotations

import pytest

from doctree.agent.offline.language import forget_request
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import page_lines, run, transcript

T = [f"2028-07-03T09:0{i}:00Z" for i in range(6)]


def _lines(repo: DocumentsRepository) -> list[str]:
    now, _ = page_lines(repo)
    return now


@pytest.mark.parametrize(
    "said",
    [
        "Forget about Thursday, Friday suits the book club better.",
        "forget about the 17th, we'll do the 18th",
        "Forget about tomorrow morning.",
    ],
)
def test_a_when_alone_asks_nothing(said):
    assert forget_request(said) is None


@pytest.mark.parametrize(
    ("said", "what"),
    [
        ("Forget about the Thursday meeting.", "the Thursday meeting"),
        ("Forget about Marcus.", "Marcus"),
    ],
)
def test_a_thing_is_still_a_thing(said, what):
    assert forget_request(said) == (True, what)


def test_another_line_of_that_day_stays(repo):
    run(
        repo,
        transcript(
            "s-a",
            ("user", T[0], "My physio appointment is on Thursday at 2pm."),
            ("assistant", T[1], "Noted."),
            ("user", T[2], "We planned the book club for Thursday."),
            ("assistant", T[3], "Sounds good."),
            ("user", T[4], "Forget about Thursday, Friday suits the book club better."),
        ),
    )
    assert any("physio" in ln for ln in _lines(repo)), _lines(repo)
