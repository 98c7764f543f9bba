"""A thing of the user's let go of by a sentence that is the request alone ("Forget my
pension.", "Please wipe my allotment plot."): its lines go from every page, the session's
opening quote too, and the other lines stay. The same words in talk, in a question or
after "don't" remove nothing."""

from __future__ import annotations

import pytest

from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import current_facts, run, transcript

T1 = "2031-06-02T10:00:00Z"
T2 = "2031-06-02T10:01:00Z"
T3 = "2031-06-02T10:02:00Z"


def pages_text(repo: DocumentsRepository) -> str:
    return "\n".join(d.body for d in repo.documents("main", "~/memory"))


@pytest.mark.parametrize(
    "request_",
    ["Forget my pension.", "Please erase my pension.", "Wipe my pension, thanks."],
)
def test_a_thing_of_the_users_goes_from_every_page(repo, request_):
    run(
        repo,
        transcript(
            "s-own",
            ("user", T1, "My pension pot is 61,300 at the moment."),
            ("user", T2, "I grow runner beans on the balcony."),
            ("user", T3, request_),
        ),
    )
    assert "61,300" not in pages_text(repo)  # the opening quote too
    assert "runner beans" in current_facts(repo)


def test_a_thing_of_the_users_said_before_goes_in_a_later_session(repo):
    run(
        repo,
        transcript(
            "s-one",
            ("user", T1, "I grow runner beans on the balcony."),
            ("user", T2, "My allotment plot is number 37 behind the church."),
        ),
    )
    run(
        repo,
        transcript("s-two", ("user", "2031-06-09T10:00:00Z", "Please wipe my allotment plot.")),
    )
    assert "behind the church" not in pages_text(repo)
    assert "runner beans" in current_facts(repo)


@pytest.mark.parametrize(
    "said",
    [
        "Forget my pension, the house is what matters for the loan.",
        "Did you forget my pension?",
        "Don't forget my pension.",
        "I always forget my pension.",
    ],
)
def test_the_same_words_in_talk_remove_nothing(repo, said):
    run(
        repo,
        transcript(
            "s-own",
            ("user", T1, "I grow runner beans on the balcony."),
            ("user", T2, "My pension pot is 61,300 at the moment."),
            ("user", T3, said),
        ),
    )
    assert "61,300" in current_facts(repo)
