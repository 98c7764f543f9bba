"""A thing stopped for a time ("no deadlifts for 6 weeks", "no more coffee until the
scan") or a role taken off someone ("Caspar is out as backup executor", "stepped down as
chair") calls off the one current line that names it, in any of its forms; a line it does
not name stays."""

from __future__ import annotations

import pytest

from doctree.agent.offline.resolve import calls_off, reversal_cue
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("The physio says no deadlifts for 6 weeks.", "Deadlift 1x5 @ 100 kg"),
        ("No more coffee until the scan, the nurse said.", "I have two coffees every morning."),
        ("Doctor says no running for a few weeks.", "Running club is on Wednesdays at 7pm."),
    ],
)
def test_a_thing_stopped_for_a_time_calls_off_the_line_that_names_it(text, line):
    assert calls_off(text, line)


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("The physio says no deadlifts for 6 weeks.", "Bench press 3x5 @ 55 kg"),
        ("No more coffee until the scan.", "I don't drink coffee after 3pm."),  # negated already
        ("There was no parking for miles.", "Parking at the stadium costs £10."),
    ],
)
def test_a_line_it_does_not_name_stays(text, line):
    assert not calls_off(text, line)


def test_the_stopped_lift_goes_to_past_and_the_others_stay(repo: DocumentsRepository):
    run(
        repo,
        transcript(
            "s-one",
            (
                "user",
                "2029-05-13T18:00:00Z",
                "My plan:\n- front squat 4x6 @ 70 kg\n- deadlift 1x5 @ 110 kg\n- dips 3x8",
            ),
        ),
    )
    run(
        repo,
        transcript(
            "s-two",
            (
                "user",
                "2029-06-03T17:30:00Z",
                "Hurt my back, so the physio says no deadlifts for 4 weeks.",
            ),
        ),
    )
    current = "\n".join(
        ln
        for d in repo.documents("main", "~/memory")
        if "/archive/" not in d.path
        for ln in d.body.split("## Past")[0].splitlines()
        if ln.startswith("- ")
    )
    assert "110 kg" not in current, current
    assert "70 kg" in current


@pytest.mark.parametrize(
    ("text", "line"),
    [
        (
            "One change: Marek is out as treasurer, he's moving away.",
            "Our club's treasurer is Marek, and he signs the cheques.",
        ),
        (
            "Ana stepped down as chair of the committee last week.",
            "Ana is the chair of the committee this year.",
        ),
    ],
)
def test_a_role_taken_off_someone_calls_off_the_line_that_gave_it(text, line):
    assert calls_off(text, line)


def test_a_role_taken_off_someone_leaves_their_other_roles(repo: DocumentsRepository):
    assert not calls_off(
        "Marek is out as treasurer.", "Marek is the club's secretary and runs the website."
    )


def test_a_thing_no_longer_on_a_day_calls_off_only_the_line_of_that_day():
    said = "She's away, so the draft isn't due on the 1st (2028-03-01) any more."
    assert calls_off(said, "Ch4 (results): full draft due 1 March (2028-03-01)")
    assert not calls_off(said, "Ch3 (methods): full draft due 1 February (2028-02-01)")


@pytest.mark.parametrize(
    "said",
    [
        "I don't take the 20 mg anymore.",
        "The class isn't on Fridays any more.",
        "We aren't doing pilates any more.",
    ],
)
def test_a_negation_written_short_says_no_longer(said):
    assert reversal_cue(said)
