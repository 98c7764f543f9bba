"""One later sentence that changes several values ("the rent is up to £1,250 and the
deposit to £1,500 now") replaces, clause by clause, the one line each clause names (the
thing said before its old value: "rent £1,150 a month", not "add £50 to the rent"); a
thing said shortened ("ortho" for "orthodontist", "chem" for "chemistry") is the same
thing; a clause that names no line alone moves nothing."""

from __future__ import annotations

import pytest

from doctree.agent.offline import resolve
from doctree.agent.offline.model import Sentence
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import current_facts, past_facts, run, transcript

DAY1 = "2029-05-02T09:00:00Z"
DAY2 = "2029-06-12T09:00:00Z"


def _sessions(
    repo: DocumentsRepository, first: list[str], later: str, days: tuple[str, str] = (DAY1, DAY2)
) -> None:
    messages = [("user", f"{days[0][:15]}{i}:00Z", t) for i, t in enumerate(first)]
    run(repo, transcript("s-one", *messages))
    run(repo, transcript("s-two", ("user", days[1], later)))


LIST = [
    "My lifting plan for the block:",
    "- front squat 4x6 @ 70 kg",
    "- incline press 3x8 @ 40 kg",
    "- romanian deadlift 3x8 @ 90 kg",
]


@pytest.mark.parametrize(
    "later",
    [
        "Front squat's up to 75 kg and incline press to 45 kg now.",
        "Coach bumped the front squat to 75 kg and the incline press to 45 kg.",
        "Incline press is now 45 kg, front squat up to 75 kg.",
    ],
)
def test_each_clause_replaces_the_one_line_it_names(repo, later):
    _sessions(repo, ["\n".join(LIST)], later)
    now = current_facts(repo)
    assert "70 kg" not in now and "40 kg" not in now, now
    assert "90 kg" in now  # named by no clause: it stays
    past = past_facts(repo)
    assert "70 kg" in past and "40 kg" in past


def test_an_amount_added_to_a_thing_is_not_its_value(repo):
    _sessions(
        repo,
        ["\n".join(LIST), "The coach says add 5 kg a week to the front squat if it moves well."],
        "Front squat's up to 75 kg now.",
    )
    now = current_facts(repo)
    assert "70 kg" not in now, now
    assert "add 5 kg a week" in now


def test_a_clause_that_names_two_lines_moves_neither(repo):
    _sessions(
        repo,
        ["My lifting plan:\n- front squat 4x6 @ 70 kg\n- back squat 3x5 @ 90 kg"],
        "Squat's up to 95 kg now.",
    )
    now = current_facts(repo)
    assert "70 kg" in now and "90 kg" in now, now


def test_a_sentence_that_replaced_one_line_replaces_no_other(repo):
    _sessions(
        repo,
        ["My rent is £1,150 a month.", "The garage rent is £90 a month."],
        "The rent is up to £1,200 now.",
    )
    now = current_facts(repo)
    assert "£1,150" not in now, now  # the rent said again
    assert "£90" in now  # the garage's is another rent


@pytest.mark.parametrize(
    ("first", "later", "old", "new"),
    [
        (
            "Orthodontist on Thursday 25 January at 4pm for the brace.",
            "Chem got moved to 25 January, so I moved ortho to 30 January.",
            "Orthodontist",
            "30 January",
        ),
        (
            "My physiotherapy session is on 3 March at 10:00.",
            "The dentist moved to 5 March and I moved physio to 12 March.",
            "physiotherapy",
            "12 March",
        ),
    ],
)
def test_a_thing_said_shortened_is_the_same_thing(repo, first, later, old, new):
    _sessions(repo, [first], later, ("2029-01-10T09:00:00Z", "2029-01-16T09:00:00Z"))
    now = current_facts(repo)
    assert old not in now, now
    assert new in now
    assert old in past_facts(repo)


def test_a_word_in_another_form_or_shortened_names_the_same_thing():
    assert resolve.same_things({"deadlifts"}, {"deadlift", "kg"})
    assert resolve.same_things({"ortho"}, {"orthodontist"})
    assert resolve.same_things({"squat's"}, {"back", "squat"})
    assert not resolve.same_things({"orth"}, {"other"})
    assert not resolve.same_things({"bench"}, {"squat"})


def test_changed_by_names_the_clause_of_each_thing():
    s = Sentence(time=DAY2, text="Front squat's up to 75 kg and incline press to 45 kg now.")
    s.raw = s.text
    assert resolve.changed_by(s, "Front squat 4x6 @ 70 kg") == {"", "Front squat's up to 75 kg"}
    assert resolve.changed_by(s, "Incline press 3x8 @ 40 kg") == {"", "incline press to 45 kg now."}
    assert resolve.changed_by(s, "Romanian deadlift 3x8 @ 90 kg") == {""}
