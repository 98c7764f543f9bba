"""A pasted e-mail chain is read as the messages it holds: each by its writer, at its date,
oldest first, so that a later reply's terms win over the quoted older ones; a line quoted
again is read once; a sender at an organisation's own domain is a contact of it."""

from __future__ import annotations

from datetime import date

import pytest

from doctree.agent.offline.mail import mail_chain, mail_date, organisation_of, sender_of
from doctree.agent.offline.segment import user_sentences
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript

PASTED = "2028-03-05T09:00:00Z"

GMAIL_STYLE = """Here's the thread with the venue.

On Wed, 4 Mar 2028 at 16:20, Ana Ruiz <ana.ruiz@harbour-hall.co.uk> wrote:
> Hi Tom,
> The deposit is £300. Please pay it by tomorrow.
>
> Best, Ana
>
> On Mon, 2 Mar 2028 at 09:00, Tom Baker <tom@gmail.com> wrote:
>> Hi Ana,
>> The deposit is £250.
>> We need the hall for the whole evening.
>> Thanks, Tom
"""

OUTLOOK_STYLE = """FYI, see below.

-----Original Message-----
From: Ruiz, Ana [mailto:ana.ruiz@harbour-hall.co.uk]
Sent: Wednesday, March 4, 2028 4:20 PM
To: Tom Baker
Subject: RE: hall booking

The deposit is £300. The caterer arrives next Friday.

-----Original Message-----
From: Tom Baker <tom@gmail.com>
Sent: Monday, March 2, 2028 9:00 AM
Subject: hall booking

The deposit is £250.
"""


def _pages(repo: DocumentsRepository) -> dict[str, str]:
    return {
        d.path: d.body
        for d in repo.documents("main", "~/memory")
        if "/archive/" not in d.path and d.path != "~/memory/active"
    }


def _current(body: str) -> str:
    return body.split("## Past")[0]


def _paste(repo: DocumentsRepository, text: str) -> dict[str, str]:
    run(repo, transcript("s-mail", ("user", PASTED, text)))
    return _pages(repo)


@pytest.mark.parametrize(
    ("line", "when"),
    [
        ("Tue, 3 Mar 2028 at 10:02", date(2028, 3, 3)),
        ("Tuesday, March 3, 2028 10:02 AM", date(2028, 3, 3)),
        ("2028-03-03 10:02", date(2028, 3, 3)),
        ("Tue 3rd March 2028", date(2028, 3, 3)),
        ("yesterday", None),
    ],
)
def test_a_mail_date_is_read_from_its_header(line, when):
    assert mail_date(line) == when


@pytest.mark.parametrize(
    ("value", "name", "address"),
    [
        ("Ana Ruiz <ana@acme.com>", "Ana Ruiz", "ana@acme.com"),
        ("Ruiz, Ana [mailto:ana@acme.com]", "Ana Ruiz", "ana@acme.com"),
        ('"Ana Ruiz" <Ana@Acme.com>', "Ana Ruiz", "ana@acme.com"),
        ("ana.ruiz@acme.com", "Ana Ruiz", "ana.ruiz@acme.com"),
    ],
)
def test_a_sender_is_read_with_the_name_and_address_a_header_gives(value, name, address):
    assert sender_of(value) == (name, address)


@pytest.mark.parametrize(
    ("address", "organisation"),
    [
        ("ana@acme-logistics.com", "Acme Logistics"),
        ("ana@mail.harbour-hall.co.uk", "Harbour Hall"),
        ("ana@gmail.com", None),
        ("ana@outlook.co.uk", None),
        (None, None),
    ],
)
def test_an_address_at_an_organisations_own_domain_names_it(address, organisation):
    assert organisation_of(address) == organisation


@pytest.mark.parametrize("text", [GMAIL_STYLE, OUTLOOK_STYLE])
def test_a_chain_is_split_into_its_messages_oldest_first(text):
    chain = mail_chain(text)
    assert chain is not None
    assert [m.sender for m in chain] == ["Tom Baker", "Ana Ruiz", None]
    assert [m.when for m in chain] == [date(2028, 3, 2), date(2028, 3, 4), None]


def test_text_without_a_copied_message_is_no_chain():
    assert mail_chain("I wrote to Ana yesterday.\nShe said: fine.") is None
    assert mail_chain("Ana wrote:\nno quoted lines follow") is None


def test_each_sentence_of_a_chain_is_its_writers_and_dated_by_its_message():
    dated: dict = {}
    own, _ = user_sentences(GMAIL_STYLE, set(), set(), set(), set(), dated)
    assert own.index("Tom Baker: The deposit is £250.") < own.index(
        "Ana Ruiz: The deposit is £300."
    )
    assert dated["Ana Ruiz: Please pay it by tomorrow."] == date(2028, 3, 4)
    assert "Here's the thread with the venue." in own  # the user's own words stay
    assert not any("Best, Ana" in s or "Hi Tom" in s for s in own)


def test_a_line_quoted_again_in_a_later_reply_is_read_once():
    text = (
        "Sure, noted.\n\nOn Wed, 4 Mar 2028 at 16:20, Ana Ruiz <ana@acme.com> wrote:\n"
        "> The hall opens at 6pm for setup.\n> Ana\n>\n"
        "> On Mon, 2 Mar 2028 at 09:00, Tom Baker <tom@acme.com> wrote:\n"
        ">> The hall opens at 6pm for setup.\n"
    )
    own, _ = user_sentences(text, set(), set(), set(), set(), {})
    assert sum("opens at 6pm" in s for s in own) == 1


@pytest.mark.parametrize("text", [GMAIL_STYLE, OUTLOOK_STYLE])
def test_the_newest_messages_terms_win_over_the_quoted_older_ones(repo, text):
    pages = _paste(repo, text)
    current = "\n".join(_current(b) for b in pages.values())
    assert "£300" in current
    assert "£250" not in current
    past = "\n".join(b.split("## Past")[1] for b in pages.values() if "## Past" in b)
    assert "£250" in past  # kept, as what held before


def test_a_relative_date_in_a_quoted_message_resolves_against_its_date(repo):
    pages = _paste(repo, GMAIL_STYLE)
    assert "tomorrow (2028-03-05)" in pages["~/memory/people/ana-ruiz"]  # sent on the 4th
    pages = _paste(repo, OUTLOOK_STYLE)
    assert "next Friday (2028-03-10)" in pages["~/memory/people/ana-ruiz"]


def test_a_sender_at_an_organisations_domain_is_its_contact(repo):
    pages = _paste(repo, OUTLOOK_STYLE)
    assert "Harbour Hall" in pages["~/memory/people/ana-ruiz"]
    assert "Tom Baker works at" not in "\n".join(pages.values())  # a personal address


QUOTED_WITH_HEADERS = """Pasting the mail from my new client so the terms are written down:

> From: Kofi Mensah <kofi@northgatestudio.com>
> Subject: Re: brochure
>
> Hi Sam, good to speak earlier. Confirming £410 per day, invoiced at the end of each month.
> The first drafts are due by Friday the 12th.
> Cheers, Kofi (Producer, Northgate Studio)
"""


def test_a_quoted_message_that_opens_on_its_headers_is_its_senders():
    own, _ = user_sentences(QUOTED_WITH_HEADERS, set(), set(), set(), set(), {})
    assert "Kofi Mensah: The first drafts are due by Friday the 12th." in own
    assert not any(s.startswith("Kofi Mensah: Cheers") for s in own)


def test_a_sign_off_with_a_role_says_who_the_writer_is():
    own, _ = user_sentences(QUOTED_WITH_HEADERS, set(), set(), set(), set(), {})
    assert "Kofi Mensah is the Producer at Northgate Studio." in own


def test_an_organisation_is_named_as_the_message_spells_its_domain():
    assert organisation_of("kofi@northgatestudio.com", "Thanks, Northgate Studio") == (
        "Northgate Studio"
    )
    assert organisation_of("kofi@northgatestudio.com", "no name here") == "Northgatestudio"


def test_a_quoted_message_with_headers_is_kept_on_its_senders_page(repo):
    pages = _paste(repo, QUOTED_WITH_HEADERS)
    kofi = _current(pages["~/memory/people/kofi-mensah"])
    assert "£410" in kofi
    assert "Northgate Studio" in kofi
    assert "Producer" in kofi
