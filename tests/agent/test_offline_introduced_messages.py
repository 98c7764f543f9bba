"""A message someone else wrote, introduced in the user's own line ("my landlord wrote:
…"), is its writer's: its "I" and "my" are never filed as the user's own facts."""

from __future__ import annotations

import pytest

from doctree.agent.offline.written import quote_introduced
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript


def current(repo: DocumentsRepository) -> str:
    return "\n".join(
        d.body for d in repo.documents("main", "~/memory") if "/archive/" not in d.path
    )


@pytest.mark.parametrize(
    "said",
    [
        "My neighbour texted me: I'm away until Sunday, my cat needs feeding twice a day.",
        "Our landlord emailed this morning: I am selling my flat in spring.",
        "Ana replied: we are moving to Leeds. Our flat is sold.",
        "Mi vecino me escribió, en inglés: I'm away until Sunday, my cat needs feeding.",
    ],
)
def test_the_first_person_of_an_introduced_message_is_never_the_users(repo, said):
    run(repo, transcript("s-1", ("user", "2027-05-03T18:00:00Z", said)))
    text = current(repo)
    for wrong in ("the user is away", "the user's cat", "the user is selling",
                  "the user's flat", "the user is moving", "the user's vecino"):  # fmt: skip
        assert wrong not in text.lower()


def test_an_introduced_message_is_quoted_and_the_users_own_lines_are_not():
    assert quote_introduced("Tom texted me: my train is late.") == (
        "Tom texted me: “my train is late.”"
    )
    for own in ("I wrote: my rent is late.", "Reminder: my dentist is on Monday.",
                "The note said: pay by Friday.", 'He said: "I quit"'):  # fmt: skip
        assert quote_introduced(own) == own


def test_the_users_own_lines_beside_an_introduced_message_stay_the_users(repo):
    run(
        repo,
        transcript(
            "s-1",
            (
                "user",
                "2027-05-03T18:00:00Z",
                "My sister Bea wrote: I'm starting at the bakery on Monday.\n"
                "I'm taking the train to Bristol on Friday.",
            ),
        ),
    )
    text = current(repo)
    assert "the user is starting" not in text.lower()
    assert "train to Bristol" in text
