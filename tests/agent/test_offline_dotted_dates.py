"""Dotted numeric dates ("15.03.2031", "3.4.2031", "15.03.31") are day-first, show the
conversation's slashed dates are too, and a version, a price or an address is never one."""

from __future__ import annotations

from datetime import date

import pytest

from doctree.agent.offline.numeric import date_order, numeric_dates
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript

REF = date(2031, 3, 10)


@pytest.mark.parametrize(
    ("text", "said", "day"),
    [
        ("Der Termin beim Zahnarzt ist am 15.03.2031 um 10 Uhr.", "15.03.2031", date(2031, 3, 15)),
        ("The handover is on 3.4.2031, keys then.", "3.4.2031", date(2031, 4, 3)),
        ("Rent is due 05.04.31.", "05.04.31", date(2031, 4, 5)),
        ("La réunion du 02.06.2031 est annulée.", "02.06.2031", date(2031, 6, 2)),
    ],
)
def test_a_dotted_date_is_read_day_first(text, said, day):
    assert numeric_dates(text, REF, None) == [(said, day)]


def test_a_dotted_date_whose_second_number_is_over_12_is_month_first():
    assert numeric_dates("Pickup 03.15.2031.", REF, None) == [("03.15.2031", date(2031, 3, 15))]


@pytest.mark.parametrize(
    "text",
    [
        "Upgraded to 3.5 and then 2.4.1 last week.",
        "We are on version 10.12.14 of the app.",
        "The router is at 192.168.1.10 now.",
        "It cost 12.50. The next one is 3.4.31 in the list.",
        "Pi is 3.14159 and the ratio 1.61.",
        "Nothing on 31.02.2031, that day does not exist.",
    ],
)
def test_a_version_price_or_address_is_no_dotted_date(text):
    assert numeric_dates(text, REF, None) == []


def test_a_dotted_date_shows_the_conversation_is_day_first():
    assert date_order("Move-in 01.04.2031. The recital is 05/06.") == "dmy"
    assert date_order("Pickup 03.15.2031. The recital is 05/06.") == "mdy"
    assert date_order("Upgraded to version 1.2.2031. The recital is 05/06.") is None


def _current(repo: DocumentsRepository) -> str:
    return "\n".join(
        d.body.split("\n## Past")[0]
        for d in repo.documents("main", "~/memory")
        if "/archive" not in d.path
    )


def test_a_dotted_date_is_kept_absolute_and_its_neighbours_stay(repo):
    run(
        repo,
        transcript(
            "s-dotted",
            (
                "user",
                "2031-03-10T15:00:00Z",
                "The notary appointment is on 02.04.31 at the town hall. Upgraded the laptop"
                " to 2.4.1 yesterday. Mira's bike repair cost 12.50.",
            ),
        ),
    )
    now = _current(repo)
    assert "2031-04-02" in now, now
    assert "2031-02-04" not in now, now
    assert "Mira's bike repair cost 12.50" in now, now
    assert "2.4.1" in now, now
