"""A value changed in a later session said in French, German, Spanish, Italian or Dutch
("la mairie a décalé mon RDV au mardi 25", "der Termin ist verschoben", "training is vanaf
nu dinsdag en woensdag") replaces the one line that gave the old value, as in English; a
line whose one date sits in another clause than its thing is still that thing's; a set of
days said again with another day replaces the old set."""

from __future__ import annotations

import pytest

from tests.agent.offline_runs import current_facts, past_facts, run, transcript

DAY1 = "2029-09-02T19:00:00Z"
DAY2 = "2029-09-12T20:00:00Z"


@pytest.mark.parametrize(
    ("first", "later", "old"),
    [
        (
            "Et j'ai un RDV chez le dentiste, le jeudi 20 septembre à 14h.",
            "Petit changement, le dentiste a décalé mon RDV au mardi 25 septembre, même heure.",
            "2029-09-20",
        ),
        (
            "Mein Termin beim Zahnarzt ist am 3. Oktober.",
            "Der Zahnarzt hat den Termin auf den 10. Oktober verschoben.",
            "2029-10-03",
        ),
        (
            "La cita con el dentista es el 3 de octubre.",
            "La cita con el dentista se ha cambiado al 10 de octubre.",
            "2029-10-03",
        ),
        (
            "L'appuntamento dal dentista è il 3 ottobre.",
            "L'appuntamento dal dentista è stato spostato al 10 ottobre.",
            "2029-10-03",
        ),
        (
            "I have a dentist appointment, on Thursday 20 September at 2pm.",
            "The dentist moved my appointment to Tuesday 25 September, same time.",
            "2029-09-20",
        ),
    ],
)
def test_a_date_moved_in_another_language_replaces_the_old_line(repo, first, later, old):
    run(repo, transcript("s-one", ("user", DAY1, first)))
    run(repo, transcript("s-two", ("user", DAY2, later)))
    now = current_facts(repo)
    assert old not in now, now
    assert old in past_facts(repo)


@pytest.mark.parametrize(
    ("first", "later", "gone", "kept"),
    [
        (
            "Training is dinsdag en donderdag om 18:30, coach is Joost.",
            "Training is vanaf nu dinsdag en woensdag.",
            "dinsdag en donderdag",
            "dinsdag en woensdag",
        ),
        (
            "Koorrepetitie is maandag en donderdag om 19:30, dirigent is Femke.",
            "Koorrepetitie is voortaan maandag en vrijdag.",
            "maandag en donderdag",
            "maandag en vrijdag",
        ),
    ],
)
def test_a_set_of_days_said_again_with_another_day_replaces_the_old_set(
    repo, first, later, gone, kept
):
    run(repo, transcript("s-one", ("user", DAY1, first)))
    run(repo, transcript("s-two", ("user", DAY2, later)))
    now = current_facts(repo)
    assert gone not in now, now
    assert kept in now


def test_a_moved_date_that_two_lines_could_mean_moves_neither(repo):
    run(
        repo,
        transcript(
            "s-one",
            ("user", DAY1, "J'ai un RDV chez le dentiste, le jeudi 20 septembre à 14h."),
            (
                "user",
                "2029-09-02T19:01:00Z",
                "Théo a un RDV chez le dentiste, le lundi 24 septembre.",
            ),
        ),
    )
    run(repo, transcript("s-two", ("user", DAY2, "Le dentiste a décalé le RDV au 27 septembre.")))
    now = current_facts(repo)
    assert "2029-09-20" in now and "2029-09-24" in now, now


def test_one_day_said_after_two_is_not_a_set_said_again(repo):
    run(repo, transcript("s-one", ("user", DAY1, "Choir practice is on Tuesdays and Thursdays.")))
    run(repo, transcript("s-two", ("user", DAY2, "Choir practice is on Tuesdays now.")))
    assert "Tuesdays and Thursdays" in current_facts(repo)
