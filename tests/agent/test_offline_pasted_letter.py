"""A letter pasted between its greeting ("Dear Mr Hale,") and its sign-off ("Yours
sincerely,") asks the user things ("Please bring photo ID."): kept as what the letter asks,
never read as the user's request to the assistant."""

from __future__ import annotations

from doctree.agent.offline.segment import letter_requests, user_sentences
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript

_LETTER = (
    "Got this from the council today, please keep the important bits.\n\n"
    "Dear Mr Hale,\n\n"
    "Your parking permit renewal is due on 30 April 2030. Please bring photo ID and a "
    "recent utility bill to the civic centre. Kindly note the office closes at 4pm.\n\n"
    "Kind regards,\nParking Services"
)


def _read(text: str) -> list[str]:
    return letter_requests(text, user_sentences(text)[0], set())


def test_a_letters_please_is_what_the_letter_asks_of_the_user():
    said = _read(_LETTER)
    assert (
        "The user is asked to bring photo ID and a recent utility bill to the civic centre." in said
    )
    assert "The user is asked to note the office closes at 4pm." in said
    # the user's own "please" above the letter stays the user's request
    assert "Got this from the council today, please keep the important bits." in said


def test_without_a_sign_off_nothing_is_read_as_a_letter():
    text = "Dear assistant,\n\nPlease book the dentist for Tuesday."
    assert _read(text) == user_sentences(text)[0]


def test_what_a_pasted_letter_asks_is_kept(repo: DocumentsRepository):
    run(repo, transcript("s-permit", ("user", "2030-04-02T09:00:00Z", _LETTER)))
    pages = "\n".join(
        d.body for d in repo.documents("main", "~/memory") if "/archive/" not in d.path
    )
    assert "bring photo ID and a recent utility bill" in pages, pages
