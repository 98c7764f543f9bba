"""A note the user wrote for another reader (a sitter, a landlord, a colleague covering) and
pasted as a quote is the user's own text: its lines are facts about the user's home, pets and
routines, kept each on its page; a note someone else wrote stays that writer's."""

from __future__ import annotations

import pytest

from doctree.agent.offline.handover import is_own_note_intro, note_lines, open_own_notes
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import current_facts, run, transcript


def _say(repo: DocumentsRepository, text: str) -> str:
    run(repo, transcript("s-note", ("user", "2031-03-03T10:00:00Z", text)))
    return current_facts(repo)


def _everything(repo: DocumentsRepository) -> str:
    return "\n".join(d.body for d in repo.documents("main", "~/memory"))


def test_a_quoted_note_left_for_a_sitter_is_kept_line_by_line(repo):
    now = _say(
        repo,
        "This is the note I've left for Marco, who is minding the flat while we're in Porto.\n\n"
        "> Hi Marco! Thanks a million.\n"
        "> The essentials:\n"
        "> - Biscuit (the rabbit) gets fresh hay every morning and a carrot at 5pm.\n"
        "> - If she stops eating, the vet is Oakmere Animal Clinic, 01632 555 018.\n"
        "> - Recycling goes out Wednesday night.\n"
        "> - The fuse box is behind the coat rack in the hall.\n"
        "> - The alarm code is 4820 then enter.\n"
        "> We're home on Sunday 9 March.\n"
        "> Love, Tess x",
    )
    for said in ("carrot at 5pm", "01632 555 018", "Recycling goes out Wednesday", "fuse box"):
        assert said in now, now
    assert "(2031-03-09)" in now, now  # "we" in the user's own note is the user
    assert "4820" not in _everything(repo)  # a secret in a note is masked like any other
    assert "Hi Marco" not in now and "Love, Tess" not in now and "The essentials" not in now
    pages = {d.path: d.body for d in repo.documents("main", "~/memory")}
    assert "fresh hay" in pages["~/memory/pets/biscuit"]  # on the page of what it is about


@pytest.mark.parametrize(
    ("message", "kept"),
    [
        (
            "Voici le mot que j'ai laissé pour Inès, qui garde l'appartement :\n\n"
            "> Bonjour Inès !\n> - Le vétérinaire est la Clinique des Tilleuls, 04 72 55 18 90.\n"
            "> - Les poubelles jaunes sortent le mardi soir.\n> Bisous",
            ("04 72 55 18 90", "poubelles jaunes"),
        ),
        (
            "Das ist die Notiz, die ich für Jonas hinterlassen habe:\n\n"
            "> Hallo Jonas,\n> - Der Tierarzt ist die Praxis Lindenhof, 030 5550 1234.\n"
            "> - Der Haupthahn ist unter der Spüle im Keller.\n> LG",
            ("030 5550 1234", "Haupthahn ist unter der Spüle"),
        ),
        (
            "Esta es la nota que le dejé a Marta para el fin de semana:\n\n"
            "> Hola Marta:\n> - La veterinaria es la Clínica Robles, 915 55 12 40.\n"
            "> - La llave del trastero está en el cajón de la entrada.\n> Besos",
            ("915 55 12 40", "llave del trastero"),
        ),
    ],
)
def test_a_note_left_for_someone_is_read_in_other_languages(repo, message, kept):
    now = _say(repo, message)
    for said in kept:
        assert said in now, now


def test_a_message_the_user_sent_a_landlord_keeps_its_i_as_the_users(repo):
    now = _say(
        repo,
        "Here's what I sent my landlord this morning:\n\n"
        "> Dear Mr Hale,\n"
        "> The kitchen tap has been dripping since 2 March.\n"
        "> I'm away from 10 to 14 March, so the plumber could come on the 17th.\n"
        "> Kind regards,\n> Tess",
    )
    assert "kitchen tap has been dripping" in now, now
    assert "The user is away from 10 to 14 March" in now, now
    assert "Dear Mr Hale" not in now


def test_a_note_someone_else_left_the_user_is_never_the_users_own(repo):
    now = _say(
        repo,
        "And the note Kasia left me before she went:\n\n"
        "> Hi! The boiler was serviced by Northgate Heating on 3 March.\n"
        "> I've paid the window cleaner until April.\n"
        "> I'm back on the 20th.",
    )
    assert "The user has paid" not in now and "The user is back" not in now, now
    assert "window cleaner" not in now, now  # another writer's "I", left out as before


@pytest.mark.parametrize(
    "intro",
    [
        "This is the note I'm leaving for the babysitter.",
        "here's what I wrote to the landlord",
        "My handover note for Sam, who covers while I'm off:",
        "We've put together a list for the dog walker:",
        "Voici le mot que j'ai écrit pour la nounou :",
        "Meine Nachricht an den Vermieter:",
        "Mi nota para la canguro:",
    ],
)
def test_the_user_as_a_notes_writer_is_read_in_several_wordings(intro):
    assert is_own_note_intro(intro)


@pytest.mark.parametrize(
    "intro",
    [
        "The note the sitter left me:",
        "Ana sent us this:",
        "Got this from my landlord today:",
        "A letter from the council came this morning:",
        "I think this is lovely:",
        "Le mot que la nounou m'a laissé :",
    ],
)
def test_a_note_of_someone_elses_is_not_the_users(intro):
    assert not is_own_note_intro(intro)


def test_a_note_loses_its_greeting_sign_off_and_bare_headings_only():
    lines = note_lines(
        ["Hi Ana! Thank you so much.", "Key points:", "- Water the ferns.", "Back Friday. x"]
    )
    assert lines == ["", "- Water the ferns.", "Back Friday."]


def test_a_quoted_mail_after_an_own_note_intro_stays_quoted():
    text = "This is what I wrote back:\n\n> From: ana@example.org\n> Subject: keys\n> Fine."
    assert open_own_notes(text) == text
