"""A name's initial with its dot ends no sentence after a title ("Mr T. Hale") or in a list
of names ("Owners: B. Lund, F. Ortiz"); a lone capital ending a sentence still ends it. A
line that sets labelled fields side by side is read field by field."""

from __future__ import annotations

import pytest

from doctree.agent.offline.labels import labelled_value
from doctree.agent.offline.segment import split_sentences
from tests.agent.offline_runs import run, transcript


@pytest.mark.parametrize(
    "line",
    [
        "Our plumber is Mr T. Hale, he comes on Fridays.",
        "The vet is Dr R. Amadi and she is brilliant.",
        "Owners: B. Lund, F. Ortiz and G. Ng.",
    ],
)
def test_an_initial_after_a_title_or_in_a_list_ends_no_sentence(line):
    assert split_sentences(line) == [line]


@pytest.mark.parametrize(
    ("line", "read"),
    [
        ("We went with plan B. Then it rained.", ["We went with plan B.", "Then it rained."]),
        ("She got an A. Dad was thrilled.", ["She got an A.", "Dad was thrilled."]),
        ("The answer was C. Nobody got it.", ["The answer was C.", "Nobody got it."]),
    ],
)
def test_a_lone_capital_ending_a_sentence_still_ends_it(line, read):
    assert split_sentences(line) == read


def test_the_line_after_a_titled_initial_is_kept_whole(repo):
    run(
        repo,
        transcript(
            "s-one",
            ("user", "2027-05-03T18:00:00Z", "Our plumber is Mr T. Hale, he comes on Fridays."),
        ),
    )
    facts = [
        line
        for d in repo.documents("main", "~/memory")
        if "/archive/" not in d.path
        for line in d.body.splitlines()
        if line.startswith("- 2027") and "`" not in line  # a fact, not the session's opening
    ]
    assert any("Mr T. Hale, he comes on Fridays" in line for line in facts)


def test_fields_side_by_side_are_each_a_labelled_value():
    line = "Owner: Ms J. Hart    Agent(s): Dale & Co, Leeds"
    assert labelled_value(line) == ("Owner", "Ms J. Hart    Agent(s): Dale & Co, Leeds")


@pytest.mark.parametrize(
    "line",
    [
        "Owner: Ms J. Hart    Note: she never answers the phone before ten",
        "Owner: Ms J. Hart and her brother who lives in the north",
    ],
)
def test_a_field_that_is_a_sentence_is_no_labelled_value(line):
    assert labelled_value(line) is None


def test_fields_whose_gap_was_lost_are_still_read_one_by_one():
    # the wide gap between the fields gone on the way: "Tenant(s):" still opens a field
    assert labelled_value("Landlord: Mr P. Varga Tenant(s): Ann Bright, Dan Cole") is not None
