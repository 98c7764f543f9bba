"""A request about what someone else said ("forget what Ria said about Ciara") takes back
that person's words on the thing, in this session and in memory, never the user's own lines
on it; a sentence that only tells of forgetting ("I always forget what I told you about
the loan", "did you forget about …?") asks nothing."""

from __future__ import annotations

import pytest

from doctree.agent.offline.language import forget_request
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import page_lines, run, transcript

T = [f"2028-03-01T09:0{i}:00Z" for i in range(6)]
OWN = ("user", T[0], "Ciara's birthday is on 20 March, she loves tulips.")
HEARD = ("user", T[1], "Ria texted me that Ciara is moving to Galway for a new job.")


def _current(repo: DocumentsRepository) -> list[str]:
    now, _ = page_lines(repo)
    return [ln for ln in now if "Ciara" in ln]


@pytest.mark.parametrize(
    "request_",
    [
        "Actually forget what Ria said about Ciara, it's not mine to share.",
        "Please forget everything Ria told me about Ciara.",
    ],
)
def test_what_someone_else_said_about_a_person_goes_and_the_users_own_lines_stay(repo, request_):
    run(
        repo,
        transcript("s-a", OWN, HEARD, ("assistant", T[2], "Big news!"), ("user", T[3], request_)),
    )
    lines = _current(repo)
    assert any("birthday" in ln for ln in lines), lines
    assert not any("Galway" in ln for ln in lines), lines


def test_in_a_later_session_too(repo):
    run(repo, transcript("s-a", OWN, HEARD))
    run(
        repo,
        transcript(
            "s-b",
            ("user", "2028-03-05T09:00:00Z", "Please forget what Ria said about Ciara."),
            ("assistant", "2028-03-05T09:01:00Z", "Done."),
        ),
    )
    lines = _current(repo)
    assert any("birthday" in ln for ln in lines), lines
    assert not any("Galway" in ln for ln in lines), lines


@pytest.mark.parametrize(
    "said",
    [
        "I always forget what I told you about the loan.",
        "I forget what Ria said about the loan.",
        "Did you forget about the loan?",
        "Have you forgotten what I said about the loan?",
    ],
)
def test_telling_of_forgetting_asks_nothing(said):
    assert forget_request(said) is None


def test_asking_for_it_still_does():
    assert forget_request("Can you forget about the loan?") == (True, "the loan")
    assert forget_request("Forget what I said about the loan.") == (True, "the loan")
    assert forget_request("forget what my brother texted about the loan") == (True, "the loan")


def test_a_thing_said_to_be_between_two_people_is_let_go_of(repo):
    run(
        repo,
        transcript(
            "s-priv",
            ("user", T[0], "I lent my sister £400 for her deposit, she pays me back in June."),
            ("user", T[1], "The gym is £35 a month now."),
            ("assistant", T[2], "Noted."),
            ("user", T[3], "Actually the deposit business with my sister is between her and me."),
        ),
    )
    now, _ = page_lines(repo)
    assert not any("£400" in ln for ln in now), now
    assert any("gym" in ln for ln in now), now


@pytest.mark.parametrize(
    "said",
    [
        "The choice is between him and me.",
        "The party is between 2 and 4.",
        "My flat is between the station and the park.",
    ],
)
def test_between_without_a_thing_said_asks_nothing(said):
    assert forget_request(said) is None
