"""A detail of the user's own let go of by its kind ("Forget my address.", "Delete my phone
number.", "please forget my home address"): "my" reaches the user's own lines of that kind,
never another person's or thing's ("the gallery's address", "my brother Olek's number"); a
word before the kind ("work", "home") says which of the user's is meant."""

from __future__ import annotations

import pytest

from doctree.agent.offline import language as lang
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript

T = "2031-09-0{}T10:00:00Z"


def pages_text(repo: DocumentsRepository) -> str:
    return "\n".join(d.body for d in repo.documents("main", "~/memory"))


def said(*lines: str) -> list[tuple[str, str, str]]:
    return [("user", f"2031-09-01T10:0{i}:00Z", x) for i, x in enumerate(lines)]


ADDRESSES = (
    "My address is 41 Orchard Row, Kelby.",
    "My work address is 7 Tanner Yard.",
    "The gallery's address is 88 Wharf Parade.",
    "My brother Olek's address is 5 Linden Court.",
    "I play chess on Thursdays.",
)


@pytest.mark.parametrize("request_", ["Forget my address.", "Delete my address."])
def test_my_address_is_the_users_own_not_a_places_or_a_brothers(repo, request_):
    run(repo, transcript("s-one", *said(*ADDRESSES), ("user", T.format(2), request_)))
    text = pages_text(repo)
    assert "41 Orchard Row" not in text
    assert "88 Wharf Parade" in text
    assert "5 Linden Court" in text
    assert "chess" in text
    # a bare "my address" is where the user lives: the work address is named apart
    assert "7 Tanner Yard" in text


def test_my_address_said_in_an_earlier_session(repo):
    run(repo, transcript("s-one", *said(*ADDRESSES)))
    run(repo, transcript("s-two", ("user", T.format(4), "Forget my address.")))
    text = pages_text(repo)
    assert "41 Orchard Row" not in text
    assert "88 Wharf Parade" in text and "5 Linden Court" in text


def test_a_word_before_the_kind_says_which_address(repo):
    run(
        repo,
        transcript("s-one", *said(*ADDRESSES), ("user", T.format(2), "Forget my work address.")),
    )
    text = pages_text(repo)
    assert "7 Tanner Yard" not in text
    assert "41 Orchard Row" in text and "88 Wharf Parade" in text and "5 Linden Court" in text


def test_home_reaches_the_address_said_without_a_word_before_it(repo):
    run(
        repo,
        transcript(
            "s-one", *said(*ADDRESSES), ("user", T.format(2), "Please forget my home address.")
        ),
    )
    text = pages_text(repo)
    assert "41 Orchard Row" not in text
    assert "7 Tanner Yard" in text
    assert "88 Wharf Parade" in text and "5 Linden Court" in text


def test_my_phone_number_leaves_other_numbers(repo):
    run(
        repo,
        transcript(
            "s-one",
            *said(
                "My phone number is 07700 900456.",
                "My locker number is 212.",
                "Olek's number is 07700 900789.",
                "The garage's phone number is 01632 960111.",
            ),
        ),
    )
    run(repo, transcript("s-two", ("user", T.format(4), "Forget my phone number.")))
    text = pages_text(repo)
    assert "900456" not in text
    assert "212" in text and "900789" in text and "960111" in text


def test_my_date_of_birth_leaves_other_dates(repo):
    run(
        repo,
        transcript(
            "s-one",
            *said(
                "My date of birth is 17 October 1988.",
                "The launch date is 30 November.",
                "Olek's birthday is 2 February.",
            ),
            ("user", T.format(2), "Please forget my date of birth."),
        ),
    )
    text = pages_text(repo)
    assert "1988" not in text
    assert "30 November" in text and "2 February" in text


@pytest.mark.parametrize(
    ("line", "what", "person", "says"),
    [
        ("- The user's address is 41 Orchard Row.", "my address", False, True),
        ("- Address: 41 Orchard Row", "my home address", False, True),
        ("- Address: 5 Linden Court", "my address", True, False),  # a person's page
        ("- Work address: 7 Tanner Yard", "my address", False, False),
        ("- Work address: 7 Tanner Yard", "my work address", False, True),
        ("- The address of the gallery is 88 Wharf Parade.", "my address", False, False),
        ("- Her number is 07700 900789.", "my number", False, False),
        ("- The user's mobile number is 07700 900456.", "my phone number", False, True),
        ("- The user's email address is ola@example.org.", "my address", False, False),
        ("- The user moved address in May.", "my address", False, True),
    ],
)
def test_whose_detail_a_line_says(line, what, person, says):
    datum = lang.own_datum(what)
    assert datum is not None
    assert lang.own_datum_said(line, datum, person) is says


def test_a_thing_that_is_no_detail_is_read_as_before():
    assert lang.own_datum("my pension") is None
    assert lang.forget_targets("my pension") == ["pension"]
    assert lang.forget_targets("my address") == ["my address"]


def test_my_email_address_goes_with_its_quote_and_leaves_a_clubs(repo):
    run(
        repo,
        transcript(
            "s-one",
            *said(
                "My email is mirek@example.org.",
                "The choir's email address is choir@example.org.",
                "I play chess on Thursdays.",
            ),
            ("user", T.format(2), "Forget my email address."),
        ),
    )
    text = pages_text(repo)
    assert "mirek@example.org" not in text  # the session's opening quote too
    assert "choir@example.org" in text


def test_where_the_user_lives_said_without_the_word_address(repo):
    run(
        repo,
        transcript(
            "s-one",
            *said(
                "I live at 19 Quarry Hill, Dunmere, with my partner.",
                "Hana lives at 2 Ferry Steps.",
                "My work address is 60 Cable Street.",
                "We're moving to Portugal one day.",
            ),
        ),
    )
    run(repo, transcript("s-two", ("user", T.format(4), "Please forget my address.")))
    text = pages_text(repo)
    assert "19 Quarry Hill" not in text
    assert "2 Ferry Steps" in text and "60 Cable Street" in text and "Portugal" in text


def test_a_mobile_said_without_the_word_number(repo):
    run(
        repo,
        transcript(
            "s-one",
            *said(
                "My mobile is 07700 900315 if the clinic needs it.",
                "My phone is a cracked old Nokia 3310.",
                "Hana's mobile is 07700 900777.",
                "The clinic's phone: 01632 960222.",
            ),
            ("user", T.format(2), "Forget my phone number."),
        ),
    )
    text = pages_text(repo)
    assert "900315" not in text
    assert "3310" in text and "900777" in text and "960222" in text


@pytest.mark.parametrize(
    ("line", "what", "says"),
    [
        ("- The user lives at 19 Quarry Hill.", "my address", True),
        ("- I've just moved to 4 Kiln Row.", "my home address", True),
        ("- I live at 19 Quarry Hill.", "my work address", False),
        ("- Hana lives at 2 Ferry Steps.", "my address", False),
        ("- I live in Dunmere.", "my address", False),  # a town, no address
        ("- My mobile is 07700 900315.", "my number", True),
        ("- My cell: +1 555 010 4477", "my phone number", True),
        ("- My mobile is 07700 900315.", "my work number", False),
        ("- My phone is a Nokia 3310.", "my number", False),
        ("- Her mobile is 07700 900777.", "my number", False),
        ("- Reach me at tova.l@example.net after six.", "my email", True),
        ("- I'm tova.l@example.net on the forum.", "my e-mail address", True),
        ("- Reach Hana at hana@example.net.", "my email", False),
        ("- Tell me at the door.", "my email", False),
    ],
)
def test_the_users_detail_said_without_its_kind(line, what, says):
    datum = lang.own_datum(what)
    assert datum is not None
    assert lang.own_datum_said(line, datum, False) is says


def test_an_email_address_the_user_gave_without_the_word(repo):
    run(
        repo,
        transcript(
            "s-one",
            *said(
                "For the rota, reach me at tova.l@example.net.",
                "The club secretary is on sec@example.net.",
            ),
        ),
    )
    run(repo, transcript("s-two", ("user", T.format(4), "Forget my email.")))
    text = pages_text(repo)
    assert "tova.l@example.net" not in text
    assert "sec@example.net" in text
