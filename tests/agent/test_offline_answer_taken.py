"""What the assistant answered to the user's question ("when is the bin collection?"), a
day, a time or a sum of the thing asked about, is kept as found when the user thanks it;
a turned-down answer, or one that names nothing of the question, is not."""

from __future__ import annotations

import pytest

from tests.agent.offline_runs import current_facts, run, transcript

DAY = "2038-09-06T12:"


def _facts(repo, asked: str, answer: str, reply: str) -> str:
    run(
        repo,
        transcript(
            "s-ans",
            ("user", f"{DAY}00:00Z", asked),
            ("assistant", f"{DAY}01:00Z", answer),
            ("user", f"{DAY}02:00Z", reply),
        ),
    )
    return current_facts(repo)


@pytest.mark.parametrize(
    ("asked", "answer", "kept"),
    [
        ("When is the garden waste collection?",
         "Your garden waste collection is next on 19 September.", "2038-09-19"),
        ("Can you check how much the annual pass costs?",
         "The annual pass costs £342 if you pay upfront.", "£342"),
    ],
)  # fmt: skip
def test_an_answer_thanked_is_found(repo, asked, answer, kept):
    facts = _facts(repo, asked, answer, "great, thanks")
    assert kept in facts
    assert "Found by the assistant" in facts


def test_an_answer_turned_down_is_not(repo):
    facts = _facts(
        repo,
        "When is the garden waste collection?",
        "Your garden waste collection is next on 19 September.",
        "No, that's the old timetable.",
    )
    assert "2038-09-19" not in facts


def test_an_answer_about_something_else_is_not(repo):
    facts = _facts(
        repo,
        "Any tips for my interview?",
        "Most interviews at firms like that start at 9:30 with a short test.",
        "thanks!",
    )
    assert "9:30" not in facts


def test_the_users_own_figure_said_back_is_not_found_again(repo):
    facts = _facts(
        repo,
        "The hall hire is £85 an evening from May. How much is the hall hire again?",
        "The hall hire is £85 an evening from May.",
        "thanks",
    )
    assert "£85" in facts
    assert "Found by the assistant" not in facts
