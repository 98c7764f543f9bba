"""A letter pasted between its greeting ("Dear Mr Hale,") and its sign-off ("Yours
sincerely,") asks the user things ("Please bring photo ID."): kept as what the user is
asked to do, never read as the user's request to the assistant; its letterhead says whom it
is from."""

from __future__ import annotations

from doctree.agent.offline.segment import letter_requests, user_sentences
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript

_LETTER = (
    "Got this from the council today, please keep the important bits.\n\n"
    "HARBOURSIDE CITY COUNCIL\nParking Services, ref PS/2231\n\n"
    "Dear Mr Hale,\n\n"
    "Your parking permit renewal is due on 30 April 2030. Please bring photo ID and a "
    "recent utility bill to the civic centre. Kindly note the office closes at 4pm.\n\n"
    "Kind regards,\nParking Services"
)


def _read(text: str) -> list[str]:
    return letter_requests(text, user_sentences(text)[0], set())


def test_a_letters_please_is_what_the_user_is_asked_to_do():
    said = _read(_LETTER)
    assert (
        "The user is asked to bring photo ID and a recent utility bill to the civic centre." in said
    )
    assert "The user is asked to note the office closes at 4pm." in said
    # the user's own "please" above the letter stays the user's request
    assert "Got this from the council today, please keep the important bits." in said


def test_a_please_right_after_the_greeting_is_asked_of_the_user_too():
    letter = (
        "My landlord wrote:\n\nDear Jo,\nPlease call me back about the boiler.\nKind regards,\nAl\n"
    )
    said = _read(letter)
    assert "The user is asked to call me back about the boiler." in said, said
    assert not any(x.startswith("The letter is from") for x in said)  # no letterhead


def test_a_letters_letterhead_says_whom_it_is_from_where_the_letter_begins():
    said = _read(_LETTER)
    at = said.index("The letter is from Harbourside City Council.")
    assert said[at - 1] == "Got this from the council today, please keep the important bits."


def test_without_a_sign_off_nothing_is_read_as_a_letter():
    text = "Dear assistant,\n\nPlease book the dentist for Tuesday."
    assert _read(text) == user_sentences(text)[0]


def test_what_a_pasted_letter_asks_is_kept(repo: DocumentsRepository):
    run(repo, transcript("s-permit", ("user", "2030-04-02T09:00:00Z", _LETTER)))
    pages = "\n".join(
        d.body for d in repo.documents("main", "~/memory") if "/archive/" not in d.path
    )
    assert "bring photo ID and a recent utility bill" in pages, pages
