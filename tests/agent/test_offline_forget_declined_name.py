"""A Polish request to forget names a person in the case its preposition asks ("Zapomnij
wszystko o Janku Hollisie" for a page of "Jan Hollis"): the one known name it declines, word
for word, is the person meant; a name it declines of two people, or of none, takes no page."""

from __future__ import annotations

from doctree.agent.offline import language as lang
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript

DAY1 = "2031-03-03T09:00:00Z"
DAY2 = "2031-03-06T09:00:00Z"


def known(repo: DocumentsRepository, request_: str) -> str:
    run(
        repo,
        transcript(
            "s-one",
            ("user", DAY1, "Piotr Hollis is my new accountant. Ewa Lind repaired my boiler."),
            ("assistant", DAY1, "Noted."),
        ),
    )
    run(repo, transcript("s-two", ("user", DAY2, request_), ("assistant", DAY2, "OK.")))
    return "\n".join(
        d.body for d in repo.documents("main", "~/memory") if "/archive/" not in d.path
    )


def test_a_declined_full_name_forgets_the_person(repo):
    text = known(repo, "Zapomnij wszystko o Piotrze Hollisie.")
    assert "accountant" not in text
    assert "boiler" in text


def test_a_name_declined_of_nobody_known_takes_nothing(repo):
    text = known(repo, "Zapomnij wszystko o Pawle Hollandzie.")
    assert "accountant" in text and "boiler" in text


def test_declined_name_is_the_one_known_name_it_declines():
    names = {"Piotr Hollis": "piotr-hollis", "Piotr": "piotr-hollis", "Ewa Lind": "ewa-lind"}
    assert lang.declined_name("Piotrze Hollisie", names) == "Piotr Hollis"
    assert lang.declined_name("Piotrowi", names) == "Piotr"
    assert lang.declined_name("Ewy Lindy", names) is None  # a stem of two letters says too little
    assert lang.declined_name("Piotr Hollis", names) is None  # known as said: read as before
    assert lang.declined_name("Piotrowski", names) is None  # another name, not a case
    assert lang.declined_name("kocie", names) is None


def test_a_declined_name_of_two_people_is_none():
    names = {"Marta Wilk": "marta-wilk", "Marek Wilk": "marek-wilk"}
    assert lang.declined_name("Marcie Wilku", names) is None  # no case of either
    assert lang.declined_name("Marty Wilka", names) == "Marta Wilk"
    names = {"Jan Kos": "jan-kos", "Jana Kos": "jana-kos"}
    assert lang.declined_name("Janie Kosie", names) is None
