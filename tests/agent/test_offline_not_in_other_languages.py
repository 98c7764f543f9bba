"""A value set against the one it replaces with "not" said in another language ("28 osób,
nie 25", "12 Leute, nicht 10", "10 personnes, pas 8") corrects as "not" does in English,
and a correction finds the line it corrects by words with accents ("Lumière", "Lipą")."""

from __future__ import annotations

import pytest

from doctree.agent.offline.resolve import correction_of, values_contrasted
from tests.agent.offline_runs import current_facts, run, transcript


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Wir sind jetzt 12 Leute, nicht 10.", ("12 Leute", "10 Leute")),
        ("Somos 14 personas, y no 12.", ("14 personas", "12 personas")),
        ("We zijn met 9 mensen, niet 7.", ("9 mensen", "7 mensen")),
        ("Siamo in 6 persone, non 5.", ("6 persone", "5 persone")),
        ("Nous serons 8 personnes, pas 6.", ("8 personnes", "6 personnes")),
        ("Teraz jest 28 osób, nie 25.", ("28 osób", "25 osób")),
    ],
)
def test_a_count_set_against_another_in_another_language(text, expected):
    assert values_contrasted(text) == expected


def test_no_before_a_value_is_no_not():
    # in English "no" says the value after it holds: no correction of the later one
    assert values_contrasted("We're 12 people, no 14.") is None
    assert correction_of("Meet on 3 May, no 4 May.") is None


def test_a_count_corrected_in_french_replaces_the_line_with_accented_words(repo):
    run(
        repo,
        transcript(
            "s-one",
            (
                "user",
                "2027-10-12T18:00:00Z",
                "Le dîner à la Brasserie Lumière est réservé pour 8 personnes.",
            ),
        ),
    )
    run(
        repo,
        transcript(
            "s-two",
            (
                "user",
                "2027-10-20T18:00:00Z",
                "Update: Lumière a confirmé, mais on sera 10 personnes, pas 8.",
            ),
        ),
    )
    now = current_facts(repo, corrections=False)
    assert "8 personnes" not in now, now
    assert "10 personnes" in now
