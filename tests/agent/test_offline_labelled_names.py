"""A short line that gives a value under a common noun's label ("Guesthouse: Tŷ Gwyn",
"Dentist - Dr Okafor") is kept as "Label: Value"; a heading, a form's empty field, a
sentence after a label, a person's line and a credential's value are not."""

from __future__ import annotations

import pytest

from doctree.agent.offline.labels import labelled_value
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import current_facts, run, transcript


def pages_after(repo: DocumentsRepository, *lines: str) -> str:
    messages = [("user", f"2027-05-03T18:{i:02d}:00Z", ln) for i, ln in enumerate(lines)]
    messages.append(("assistant", "2027-05-03T18:59:00Z", "Noted."))
    run(repo, transcript("s-labels", *messages))
    return current_facts(repo)


@pytest.mark.parametrize(
    ("line", "kept"),
    [
        ("Guesthouse: Tŷ Gwyn", "Guesthouse: Tŷ Gwyn"),
        ("Dentist - Dr Okafor", "Dentist: Dr Okafor"),
        ("School: St Brendan's", "School: St Brendan's"),
        ("Flight number: BA 2490", "Flight number: BA 2490"),
        ("vet – Meadowbank Vets", "vet: Meadowbank Vets"),
        ("Venue: the Corn Exchange", "Venue: the Corn Exchange"),
        ("Deadline: Friday", "Deadline: Friday (2027-05-07)"),
    ],
)
def test_a_labelled_value_is_kept_as_label_and_value(repo, line, kept):
    assert kept in pages_after(repo, line)


@pytest.mark.parametrize(
    "line",
    [
        "Agenda:",  # a heading
        "Second contact: N/A",  # a form's empty field
        "Middle name: none",
        "Status: done",  # nothing specific
        "Notes: see above",
        "Tracking: https://t.example/x1",  # a link
    ],
)
def test_a_heading_an_empty_field_or_a_plain_word_is_not_kept(repo, line):
    value = line.split(":", 1)[1].strip()
    assert labelled_value(line) is None
    assert not value or value not in pages_after(repo, line)


@pytest.mark.parametrize(
    "line",
    [
        "Ana: fine by me, Friday works",  # a sentence after a label: a line of its own kind
        "Ana Rossi: Leeds",  # a person's name, not a common noun
        "The plan is simple: Friday",  # a sentence, not a label
        "Wi-fi code: KP4-771",  # a credential's value the detector may miss
        "Token: abc123def",
        "PIN - 0000",
    ],
)
def test_a_sentence_a_name_or_a_credential_is_not_read_as_a_label(line):
    assert labelled_value(line) is None


def test_a_known_person_is_no_label():
    assert labelled_value("Ana: Leeds", people={"Ana": "ana"}) is None
    assert labelled_value("Dentist: Leeds") == ("Dentist", "Leeds")


@pytest.mark.parametrize(
    ("line", "secret", "marker"),
    [
        ("Password: Tr0ub4dor&3", "Tr0ub4dor&3", "[secret: password]"),
        ("Token: 8f3a9c2e7b1d4f60a5c3e9b7d2f18a4c", "8f3a9c2e7b1d4f60a5c3e9b7d2f18a4c",
         "[secret: api-key]"),
    ],
)  # fmt: skip
def test_a_password_or_token_line_stays_masked(repo, line, secret, marker):
    pages = pages_after(repo, line)
    assert secret not in pages
    assert marker in pages
