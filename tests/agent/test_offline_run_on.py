"""A run-on message (a list dictated in one breath, clauses joined by commas) is read as one
statement per clause: each lands where it belongs, each date counted from the day it is
said of, and a later change replaces the clause it changes, not the whole message."""

from __future__ import annotations

from doctree.agent.offline.segment import run_on_pieces
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript

DICTATED = (
    "right so for the party planning while I walk the dog, party day is Saturday the 14th "
    "of August and the caterer from Pembury Kitchens arrives at 4pm, the day before party "
    "day we pick up the chairs from the church hall, then the DJ is Marco Lind and he sets "
    "up two hours early, the cake gets collected the morning of party day from Crumbs, "
    "Auntie Wen is bringing her spare gazebo, and the gate code for the field is 55102 but "
    "don't write that down"
)


def _current(repo: DocumentsRepository) -> str:
    out = []
    for d in repo.documents("main", "~/memory"):
        if "/archive/" not in d.path:
            body = "\n".join(ln for ln in d.body.split("\n") if " — past: " not in ln)
            out.append(body.split("## Past")[0])
    return "\n".join(out)


def test_a_run_on_sentence_becomes_one_statement_per_clause():
    pieces = run_on_pieces(DICTATED)
    assert len(pieces) >= 6, pieces
    assert "The day before party day we pick up the chairs from the church hall." in pieces
    # a request to forget stays with the clause it takes back
    assert pieces[-1].startswith("Auntie Wen is bringing her spare gazebo")
    assert "55102 but don't write that down" in pieces[-1]


def test_a_sentence_of_a_usual_length_is_left_whole():
    said = "We met at the station, had lunch, and then walked to the museum."
    assert run_on_pieces(said) == [said]


def test_each_clause_of_a_dictated_list_is_its_own_dated_fact(repo):
    run(repo, transcript("s-party", ("user", "2029-07-20T08:00:00Z", DICTATED)))
    now = _current(repo)
    chairs = [ln for ln in now.split("\n") if "chairs" in ln]
    assert chairs and all("2029-08-13" in ln for ln in chairs), chairs
    assert all("Marco" not in ln for ln in chairs)  # the clause alone, not the whole message
    assert "55102" not in "\n".join(d.body for d in repo.documents("main", "~/memory"))


def test_a_time_changed_instead_of_another_edits_only_that_clause(repo):
    run(repo, transcript("s-party", ("user", "2029-07-20T08:00:00Z", DICTATED)))
    run(
        repo,
        transcript(
            "s-change",
            ("user", "2029-07-28T08:00:00Z", "Pembury Kitchens now arrive at 3pm instead of 4pm."),
        ),
    )
    now = _current(repo)
    assert not [ln for ln in now.split("\n") if "4pm" in ln and "3pm" not in ln], now
    # the clause that also said the party's day keeps saying it, with the new time
    assert [ln for ln in now.split("\n") if "2029-08-14" in ln and "3pm" in ln], now


def test_semicolons_part_a_long_sentence_first_and_a_clause_that_leans_back_stays():
    said = (
        "Noted: you start at Halden Works on Monday 4 May; your mentor is Ilse Brandt, Head of "
        "Quality, who sits on the second floor and prefers email to calls; Tomas in Payroll "
        "handles overtime claims; the fire drill is on the first Friday of each month; your "
        "locker is number 212, and the code is on your welcome sheet."
    )
    assert run_on_pieces(said) == [
        "Noted: you start at Halden Works on Monday 4 May.",
        "Your mentor is Ilse Brandt, Head of Quality, who sits on the second floor and prefers "
        "email to calls.",
        "Tomas in Payroll handles overtime claims.",
        "The fire drill is on the first Friday of each month.",
        "Your locker is number 212, and the code is on your welcome sheet.",
    ]
