"""Requests that something not be kept, in the forms a user says them to the assistant:
"Delete my address." (a detail of the user's own, asked of memory where no document is being
edited), an aside sent alone ahead of what it covers ("Off the record:" then the next
message), "don't write this down: …" said before the thing, "take Kofi off your list", a
request in Turkish, and "forget what I said yesterday about X" when only that day spoke of X.
Each with its guard: a document's edit, a statement of what the user did, an aside that
looks back, a guest list, "don't forget" in Turkish and a person also spoken of before keep
every line they must."""

from __future__ import annotations

import pytest

from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript

DAY1 = "2029-02-05T08:0{}:00Z"
DAY2 = "2029-02-06T08:0{}:00Z"
DAY3 = "2029-02-07T08:0{}:00Z"
DETAILS = [
    "My address is 9 Quarry Lane, Ashford.",
    "My date of birth is 4 June 1979.",
    "I row at the Millbank club on Wednesdays.",
]


def said(repo: DocumentsRepository, session: str, day: str, *messages: object) -> None:
    out = []
    for i, m in enumerate(messages):
        kind, text = ("user", m) if isinstance(m, str) else m
        out.append((kind, day.format(i), text))
    run(repo, transcript(session, *out))


def current(repo: DocumentsRepository) -> str:
    return "\n".join(
        d.body for d in repo.documents("main", "~/memory") if "/archive/" not in d.path
    )


def everywhere(repo: DocumentsRepository) -> str:
    return "\n".join(d.body for d in repo.documents("main", "~/memory"))


@pytest.mark.parametrize(
    ("request_", "gone", "kept"),
    [
        ("Delete my address.", "Quarry Lane", "1979"),
        ("Please remove my date of birth.", "1979", "Quarry Lane"),
        ("Can you delete my address, thanks.", "Quarry Lane", "1979"),
    ],
)
def test_deleting_a_detail_of_ones_own_forgets_it(repo, request_, gone, kept):
    said(repo, "s-details", DAY1, *DETAILS)
    assert gone in current(repo)
    said(repo, "s-ask", DAY2, request_)
    assert gone not in everywhere(repo)
    assert kept in current(repo) and "Millbank" in current(repo)


@pytest.mark.parametrize(
    "messages",
    [
        # a document is being edited: the address is taken out of it, not out of memory
        (
            "Could you tidy up my CV?\nSam Ode\n9 Quarry Lane, Ashford\nTen years in bridge design",
            ("assistant", "Here is a tidier version of your CV."),
            "Delete my address.",
        ),
        ("I'm filling in the council form now.", "Delete my address from the form."),
        ("Delete the second paragraph.",),
        ("Delete the old draft.",),
        ("I deleted my old address from the form.",),
        ("Don't delete my address.",),
    ],
)
def test_a_delete_that_edits_a_document_or_says_what_was_done_keeps_the_detail(repo, messages):
    said(repo, "s-details", DAY1, *DETAILS)
    said(repo, "s-ask", DAY2, *messages)
    text = current(repo)
    assert "Quarry Lane" in text and "1979" in text and "Millbank" in text


@pytest.mark.parametrize("aside", ["Off the record:", "Don't write this down:", "Between us —"])
def test_an_aside_sent_alone_covers_the_next_message_only(repo, aside):
    said(
        repo,
        "s-aside",
        DAY1,
        "My allotment is plot 14 at Fenwick Road.",
        aside,
        ("assistant", "Understood."),
        "I'm applying for the deputy head job at Riverside.",
        "My nephew Abel starts nursery on Monday.",
    )
    text = everywhere(repo)
    assert "Riverside" not in text
    assert "Fenwick" in current(repo) and "Abel" in current(repo)


def test_an_aside_sent_alone_with_a_stop_does_not_reach_the_next_message(repo):
    """ "Off the record." after something said may be about it: the next message stays."""
    said(
        repo,
        "s-aside",
        DAY1,
        "My allotment is plot 14 at Fenwick Road.",
        "Off the record.",
        "My nephew Abel starts nursery on Monday.",
    )
    assert "Abel" in current(repo)


@pytest.mark.parametrize(
    "sentence",
    [
        "Don't write this down: I'm applying for the deputy head job at Riverside.",
        "Please don't save this — I'm applying for the deputy head job at Riverside.",
    ],
)
def test_dont_write_this_down_with_a_colon_looks_ahead_and_keeps_what_came_before(repo, sentence):
    said(
        repo,
        "s-aside",
        DAY1,
        "My allotment is plot 14 at Fenwick Road.",
        sentence,
        "My nephew Abel starts nursery on Monday.",
    )
    assert "Riverside" not in everywhere(repo)
    text = current(repo)
    assert "Fenwick" in text and "Abel" in text


def test_take_someone_off_your_list_forgets_them(repo):
    said(repo, "s-people", DAY1, "Kofi Mensah fixes my bike on Saturdays.", *DETAILS[2:])
    assert "Kofi" in current(repo)
    said(repo, "s-ask", DAY2, "Take Kofi off your list.")
    assert "Kofi" not in everywhere(repo)
    assert "Millbank" in current(repo)


def test_take_someone_off_the_list_is_an_edit_of_a_list(repo):
    said(repo, "s-people", DAY1, "Kofi Mensah fixes my bike on Saturdays.")
    said(repo, "s-ask", DAY2, "I'm doing the seating plan.", "Take Kofi off the list, he's away.")
    assert "Kofi" in current(repo)


@pytest.mark.parametrize(
    "request_",
    [
        "Kofi Mensah hakkında her şeyi unut.",
        "Lütfen Kofi Mensah ile ilgili ne varsa sil.",
        "Kofi Mensah'ı unut.",
    ],
)
def test_a_request_in_turkish_forgets_the_person(repo, request_):
    said(repo, "s-people", DAY1, "Kofi Mensah fixes my bike on Saturdays.", *DETAILS[2:])
    said(repo, "s-ask", DAY2, request_)
    assert "Kofi" not in everywhere(repo)
    assert "Millbank" in current(repo)


def test_dont_forget_in_turkish_keeps_the_person(repo):
    said(repo, "s-people", DAY1, "Kofi Mensah fixes my bike on Saturdays.")
    said(repo, "s-ask", DAY2, "Kofi Mensah'ı unutma, cumartesi geliyor.")
    assert "Kofi" in current(repo)


def test_forget_what_i_said_yesterday_about_someone_only_that_day_named(repo):
    said(repo, "s-one", DAY1, "Ines Varga is my new physio.", *DETAILS[2:])
    assert "Ines" in current(repo)
    said(repo, "s-two", DAY2, "Forget what I said yesterday about Ines Varga.")
    assert "Ines" not in current(repo)
    assert "Millbank" in current(repo)


def test_forget_what_i_said_yesterday_keeps_someone_named_on_another_day(repo):
    said(repo, "s-one", DAY1, "Ines Varga is my new physio.")
    said(repo, "s-two", DAY2, "Ines Varga moved her practice to Dock Street.")
    said(repo, "s-three", DAY3, "Forget what I said yesterday about Ines Varga.")
    text = current(repo)
    assert "Dock Street" not in text
    assert "physio" in text
