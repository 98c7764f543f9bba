"""A letter, e-mail or notice the user quotes (`>`) with its particulars one to a line
("Claim number: …", "Reference: …", "Contact: …") keeps each of them as a line of its own,
whatever line introduces the quote; a secret's label gives no line, a sentence with a colon
is no label, and the lines around the quote stay."""

from __future__ import annotations

import pytest

from doctree.agent.offline.quotes import quoted_field
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript


def _current(repo: DocumentsRepository) -> str:
    """Every line of the pages a person reads, archive and Past left out."""
    out = []
    for d in repo.documents("main", "~/memory"):
        if "/archive" in d.path:
            continue
        out.append(d.body.split("\n## Past")[0])
    return "\n".join(out)


def _everything(repo: DocumentsRepository) -> str:
    return "\n".join(d.body for d in repo.documents("main", "~/memory"))


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("Policy number: AB-77-1203", "Policy number: AB-77-1203."),
        ("Reference: 88/2031", "Reference: 88/2031."),
        ("Contact e-mail: desk@tramway.example", "Contact e-mail: desk@tramway.example."),
        ("Fecha límite: 14 de marzo", "Fecha límite: 14 de marzo."),
        ("Aktenzeichen - 4 O 112/29", "Aktenzeichen: 4 O 112/29."),
        ("Amount due: €1,240.50.", "Amount due: €1,240.50."),
    ],
)
def test_a_labelled_value_of_a_quote_is_a_statement_of_its_own(line, expected):
    assert quoted_field(line) == expected


@pytest.mark.parametrize(
    "line",
    [
        "Password: Hunter2!x",  # a secret's label
        "PIN: 4821",
        "Status: pending",  # nothing a person would note
        "Dear Ms Rao,",
        "From: Ana Ruiz <ana@acme.example>",  # a mail header, read by the mail reader
        "We will call you at 10:00 on Friday.",  # a sentence that holds a colon
        "Please note the following: the office closes at 5. It opens at 9 on Monday again.",
        "Thank you for your letter of 3 May.",
        "In other news: the city library extends its opening hours from December 1.",
    ],
)
def test_a_line_that_sets_out_no_labelled_value_is_no_field(line):
    assert quoted_field(line) is None


def test_the_particulars_of_a_quoted_acknowledgement_are_kept_and_its_neighbours_stay(repo):
    run(
        repo,
        transcript(
            "s-quote-1",
            (
                "user",
                "2031-03-02T10:00:00Z",
                "The boiler packed in and I filed with Corvane Mutual. Their receipt came back:\n\n"
                "> Dear customer,\n"
                "> Claim reference: CV-31-55120\n"
                "> Excess payable: £250\n"
                "> Password: Kettle!9981\n"
                "> Questions? Write to claims@corvane.example\n\n"
                "The engineer from Brightflow fitted a new pump for £140.",
            ),
        ),
    )
    now = _current(repo)
    assert "Claim reference: CV-31-55120." in now, now
    assert "Excess payable: £250." in now, now
    assert "Kettle!9981" not in _everything(repo)
    assert "Brightflow fitted a new pump for £140" in now, now


def test_a_quoted_notice_in_another_language_keeps_its_reference(repo):
    run(
        repo,
        transcript(
            "s-quote-2",
            (
                "user",
                "2031-05-10T08:00:00Z",
                "Esto llegó del ayuntamiento:\n\n"
                "> Estimado vecino:\n"
                "> Expediente: URB-2031/0457\n"
                "> Plazo de alegaciones: 30 de junio de 2031\n",
            ),
        ),
    )
    now = _current(repo)
    assert "Expediente: URB-2031/0457." in now, now
    assert "2031-06-30" in now or "30 de junio de 2031" in now, now


def test_a_quote_without_labelled_lines_writes_no_field(repo):
    run(
        repo,
        transcript(
            "s-quote-3",
            (
                "user",
                "2031-05-10T08:00:00Z",
                "My brother sent this, no idea what he means:\n\n"
                "> the score was 3:1 and we lost again\n"
                "> version 2.4 is out, go try it\n",
            ),
        ),
    )
    now = _current(repo)
    assert "3:1." not in now, now
    assert "the score was" not in now, now
