"""Something called off ("the 40 mg is off", "we're not doing pilates any more", "the
garden party is cancelled") moves the one current line that names it to Past; a line it
does not name, or a state such as "the heating is off", leaves memory as it was."""

from __future__ import annotations

import pytest

from doctree.agent.offline.resolve import calls_off
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import page_lines, run, transcript

DAY1 = "2027-05-03T18:00:00Z"
DAY2 = "2027-05-04T09:00:00Z"


def past_lines(repo: DocumentsRepository) -> str:
    return "\n".join(d.body.split("## Past", 1)[-1] for d in repo.documents("main", "~/memory"))


@pytest.mark.parametrize(
    ("first", "later", "gone"),
    [
        ("I'm going up to 40 mg of propranolol on the 1st.", "The 40 mg is off.", "propranolol"),
        (
            "We do pilates on Wednesdays at the leisure centre.",
            "We're not doing pilates any more, the instructor left.",
            "leisure centre",
        ),
        (
            "The garden party is on Saturday the 15th at Mel's.",
            "The garden party is cancelled.",
            "Mel's",
        ),
        (
            "The quiz night at the Crown is on Friday the 14th.",
            "We've called off the quiz night, not enough teams.",
            "the Crown",
        ),
    ],
)
@pytest.mark.parametrize("apart", [True, False], ids=["later-session", "same-session"])
def test_something_called_off_moves_its_line_to_past(repo, first, later, gone, apart):
    other = "The boiler service is on the 20th with Dwyer Heating."
    if apart:
        run(repo, transcript("s-1", ("user", DAY1, first), ("user", DAY1, other)))
        run(repo, transcript("s-2", ("user", DAY2, later)))
    else:
        run(
            repo,
            transcript(
                "s-1",
                ("user", DAY1, first),
                ("user", DAY1, other),
                ("user", "2027-05-03T18:05:00Z", later),
            ),
        )
    now = page_lines(repo)[0]
    assert not any(gone in ln for ln in now)
    assert gone in past_lines(repo)
    assert any("Dwyer" in ln for ln in now)  # the neighbour stays


def test_two_lines_naming_what_is_called_off_both_stay(repo):
    run(
        repo,
        transcript(
            "s-1",
            ("user", DAY1, "The garden party at Mel's is on Saturday the 15th."),
            ("user", DAY1, "The garden party at Priya's is on Sunday the 23rd."),
        ),
    )
    run(repo, transcript("s-2", ("user", DAY2, "The garden party is cancelled.")))
    now = page_lines(repo)[0]
    assert any("Mel's" in ln for ln in now) and any("Priya's" in ln for ln in now)


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("The heating is off.", "The heating comes on at 6am."),  # a state, no plan
        ("The garden party is cancelled.", "The garden party was not on Saturday."),
        ("We're not doing pilates any more.", "Yoga is on Thursdays at 7pm."),
        ("The 20 mg is off.", "The dose is 40 mg at night."),
    ],
)
def test_a_line_that_is_not_what_was_called_off_stays(text, line):
    assert not calls_off(text, line)
