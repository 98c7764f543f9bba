"""A request that something not be kept, read in French, German, Spanish, Dutch and
Italian as in English, and said indirectly ("I'd rather it wasn't written down", "let's
keep that between us"): its target is exactly what was asked (a name, a pronoun meaning the
person named before it, or, for "that", what was just said or the thing the message named
as said), and the lines beside it stay."""

from __future__ import annotations

import pytest

from doctree.agent.offline import language as lang
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript

DAY1 = "2027-05-03T18:00:00Z"
DAY2 = "2027-05-04T09:00:00Z"
FACTS = [
    ("user", DAY1, "My climbing gym is Urban Climb, I go on Tuesdays."),
    ("user", "2027-05-03T18:02:00Z", "Ana Lopes is starting at the studio in June."),
    ("user", "2027-05-03T18:04:00Z", "Tom Reyes plays bass in the band on Fridays."),
    ("user", "2027-05-03T18:06:00Z", "The boiler service is on the 20th with Dwyer Heating."),
]
NEIGHBOURS = ("Urban Climb", "studio", "Dwyer")


def current(repo: DocumentsRepository) -> str:
    return "\n".join(
        d.body for d in repo.documents("main", "~/memory") if "/archive/" not in d.path
    )


def everywhere(repo: DocumentsRepository) -> str:
    return "\n".join(d.body for d in repo.documents("main", "~/memory"))


def remembered(repo: DocumentsRepository) -> None:
    run(repo, transcript("s-facts", *FACTS))
    text = current(repo)
    for said in ("bass", *NEIGHBOURS):
        assert said in text


def asked(repo: DocumentsRepository, *requests: str) -> str:
    messages = [("user", f"2027-05-04T09:0{i}:00Z", r) for i, r in enumerate(requests)]
    run(repo, transcript("s-ask", *messages))
    return current(repo)


@pytest.mark.parametrize(
    "request_",
    [
        # French
        "Oublie ce que je t'ai dit sur Tom Reyes.",
        "Efface tout ce que tu as sur Tom Reyes, stp.",
        "Ne garde rien sur Tom Reyes, s'il te plaît.",
        "Tom Reyes a quitté le groupe, alors efface tout ce que tu as sur lui.",
        # German
        "Vergiss bitte, was ich dir über Tom Reyes gesagt habe.",
        "Lösch alles über Tom Reyes.",
        "Speicher bitte nichts über Tom Reyes.",
        "Tom Reyes ist raus, vergiss alles über ihn.",
        # Spanish
        "Olvida lo que te dije sobre Tom Reyes.",
        "Borra todo lo que tienes sobre Tom Reyes, por favor.",
        "No guardes nada sobre Tom Reyes.",
        "Tom Reyes dejó la banda, borra todo lo que tienes sobre él.",
        # Dutch
        "Vergeet wat ik zei over Tom Reyes.",
        "Wis alles over Tom Reyes alsjeblieft.",
        "Bewaar niets over Tom Reyes.",
        "Tom Reyes is gestopt, wis alles wat je over hem hebt.",
        # Italian
        "Dimentica quello che ti ho detto su Tom Reyes.",
        "Cancella tutto su Tom Reyes, per favore.",
        "Non salvare niente su Tom Reyes.",
        "Tom Reyes ha lasciato la band, dimentica tutto su di lui.",
        # Portuguese
        "Esquece o que eu te disse sobre o Tom Reyes.",
        "Não guardes nada sobre o Tom Reyes.",
        "O Tom Reyes saiu da banda, apaga tudo sobre ele.",
    ],
)
def test_a_request_in_another_language_forgets_its_target_and_only_it(repo, request_):
    remembered(repo)
    text = asked(repo, request_)
    assert "bass" not in text
    for kept in NEIGHBOURS:
        assert kept in text


@pytest.mark.parametrize(
    "statement",
    [
        "N'oublie pas que Tom Reyes joue vendredi.",
        "Vergiss nicht, dass Tom Reyes am Freitag spielt.",
        "No olvides lo de Tom Reyes.",
        "Vergeet niet dat Tom Reyes vrijdag speelt.",
        "Non dimenticare di Tom Reyes.",
        "Não esqueças o ensaio do Tom Reyes.",
        "Tom Reyes a oublié sa basse chez moi.",
        "Oublie d'acheter du pain pour Tom Reyes.",
    ],
)
def test_a_negated_or_narrated_verb_in_another_language_forgets_nothing(repo, statement):
    remembered(repo)
    assert "bass" in asked(repo, statement)


@pytest.mark.parametrize(
    ("sentence", "target"),
    [
        ("En vergeet alsjeblieft wat ik zei over Joost en zijn vrouw.", "Joost and zijn vrouw"),
        ("Oublie ce que je t'ai dit sur Marc et sa sœur.", "Marc and sa sœur"),
        ("Vergiss alles über Jonas und die Scheidung.", "Jonas and die Scheidung"),
        ("Olvídate de lo de Marta.", "Marta"),
        ("Efface tout ce que tu as sur elle stp.", "elle"),
        ("Oublie le truc de Jayden stp.", "Jayden"),
        ("Vergiss die Sache mit Jonas.", "Jonas"),
        ("Vergeet dat verhaal over Pim.", "Pim"),
        ("Dimentica la storia di Luca.", "Luca"),
    ],
)
def test_the_target_of_a_request_in_another_language_is_what_it_names(sentence, target):
    assert lang.forget_request(sentence) == (True, target)


def test_a_target_in_another_language_loses_its_article_not_its_name():
    assert lang.forget_targets("Joost and zijn vrouw") == ["Joost", "vrouw"]
    assert lang.forget_targets("Elif and Mira's news") == ["Elif", "Mira's news"]


def test_a_foreign_pronoun_target_is_the_person_named_before_it(repo):
    run(
        repo,
        transcript(
            "s-one",
            ("user", DAY1, "Our childminder is Amandine, 12 euros an hour."),
            ("user", "2027-05-03T18:02:00Z", "Mme Garnier runs the nursery on our street."),
        ),
    )
    run(
        repo,
        transcript(
            "s-two",
            ("user", DAY2, "Pour Amandine, c'est fini, efface tout ce que tu as sur elle stp."),
        ),
    )
    assert "Amandine" not in everywhere(repo)
    assert "Garnier" in current(repo)


MESSAGES = [
    ("user", DAY1, "Tom Reyes plays bass in the band on Fridays."),
    ("user", "2027-05-03T18:02:00Z", "Ana Lopes is moving to Porto in the autumn."),
]


@pytest.mark.parametrize(
    "request_",
    [
        # said indirectly in English
        "I'd rather it just wasn't written down.",
        "I'd rather you didn't write that down.",
        "I'd rather not have that written down.",
        "Let's keep that between us.",
        "That's not for the record.",
        "I don't want that written down anywhere.",
        "That shouldn't go in your notes.",
        "No need to remember that.",
        "dont keep that lol",
        "That's between you and me.",
        "Can you not save that?",
        "u dont need to save that lol",
        "Don't put that anywhere.",
        "Forget I said anything.",
        "bin that lol",
        "ok scrub that",
        # and in the other languages
        "Oublie ça.",
        "Ne le note pas, stp.",
        "Que ça reste entre nous.",
        "Vergiss das bitte.",
        "Schreib das bitte nicht auf.",
        "Das bleibt unter uns.",
        "Olvida eso.",
        "No lo apuntes, porfa.",
        "Que quede entre nosotros.",
        "Vergeet dat.",
        "Sla dat niet op.",
        "Dat blijft onder ons.",
        "Dimentica questo.",
        "Non salvarlo.",
        "Che resti tra noi.",
        "Esquece isso.",
        "Isso fica entre nós.",
        "C'est entre nous.",
        "N'enregistre pas ça.",
        "Das ist unter uns.",
        "Olvídate de eso.",
        "Dat is tussen ons.",
        # "forget I told you", as English says it
        "Anzi, dimentica che te l'ho detto.",
        "Scordati che te l'ho scritto, per favore.",
        "Oublie que je te l'ai dit.",
        "Olvida que te lo dije.",
        "Esquece que te disse.",
    ],
)
def test_that_not_to_be_kept_is_what_was_just_said(repo, request_):
    run(repo, transcript("s-one", *MESSAGES, ("user", "2027-05-03T18:04:00Z", request_)))
    text = current(repo)
    assert "Porto" not in text
    assert "bass" in text


@pytest.mark.parametrize(
    "statement",
    [
        "We kept it between us and the landlord.",
        "The minutes are for the record.",
        "I'd rather the band played on Saturdays.",
        "Keep it up, you're doing great.",
        "The deal is between us and the bank.",
        "You don't need to save that file twice.",
        "I'll lose that in the move anyway.",
        "I'd rather not keep the car, it costs too much.",
        "I'd rather not record the call.",
        "We scrap it every spring.",
        # "don't forget I told you": the opposite
        "Non dimentica che te l'ho detto, vero?",
        "Non dimenticare che te l'ho detto.",
    ],
)
def test_the_same_words_said_of_the_world_keep_what_was_said(repo, statement):
    run(repo, transcript("s-one", *MESSAGES, ("user", "2027-05-03T18:04:00Z", statement)))
    assert "Porto" in current(repo)


@pytest.mark.parametrize(
    "request_",
    [
        "One thing from yesterday: the bit about Ana and the move. "
        "I'd rather it wasn't written down.",
        "About the stuff about Ana and the move: let's keep that between us.",
        "The Porto thing. She'd hate it to get around, so that's not for the record.",
    ],
)
def test_that_means_the_thing_the_message_named_as_said(repo, request_):
    run(
        repo,
        transcript(
            "s-one",
            ("user", DAY1, "Tom Reyes plays bass in the band on Fridays."),
            ("user", "2027-05-03T18:02:00Z", "Ana Lopes is starting at the studio in June."),
            ("user", "2027-05-03T18:04:00Z", "Ana is moving to Porto in the autumn."),
        ),
    )
    run(repo, transcript("s-two", ("user", DAY2, request_)))
    text = everywhere(repo)
    assert "Porto" not in text and "moving" not in text
    assert "studio" in current(repo)  # her other line stays
    assert "bass" in current(repo)


def test_about_written_short_in_chat_names_the_target():
    assert lang.forget_request("pls forget what i said abt jayden") == (True, "jayden")
    assert lang.forget_request("Delete what I said bout the loan.") == (True, "the loan")


def test_forget_i_said_anything_about_a_thing_names_the_thing():
    assert lang.forget_request("Forget I said anything about the price.") == (True, "the price")


def test_a_request_ending_in_pls_reads_its_target():
    said = "wait dont save the climbing thing pls, mum reads this"
    assert lang.forget_request(said) == (True, "climbing")
    assert lang.forget_request("scrub the stuff about the pasta, ta") == (True, "the pasta")


def test_forms_of_one_word_are_one_thing():
    assert lang.mentions("She snores like a foghorn.", {"snoring"})
    assert lang.mentions("He is moving to Leeds.", {"move"})
    assert not lang.mentions("The news is out.", {"new"})


@pytest.mark.parametrize(
    "request_",
    [
        "Moenie dit neerskryf nie.",
        "Ag, moenie dit onthou nie, asseblief.",
        "Stoor dit asseblief nie.",
        "Dit bly tussen ons.",
        "Vergeet daarvan.",
    ],
)
def test_afrikaans_request_not_to_keep_what_was_just_said(repo, request_):
    run(repo, transcript("s-one", *MESSAGES, ("user", "2027-05-03T18:04:00Z", request_)))
    text = current(repo)
    assert "Porto" not in text
    assert "bass" in text


@pytest.mark.parametrize(
    "statement",
    [
        "Moenie vergeet om dit neer te skryf nie.",
        "Moenie dit vergeet nie.",
        "Ek skryf dit elke aand neer.",
    ],
)
def test_afrikaans_asking_to_keep_keeps_what_was_said(repo, statement):
    run(repo, transcript("s-one", *MESSAGES, ("user", "2027-05-03T18:04:00Z", statement)))
    assert "Porto" in current(repo)
