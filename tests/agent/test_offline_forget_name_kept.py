"""A request that a person's name not be kept ("I don't want his name kept", "please don't keep
her name", "forget their name") forgets the person "his", "her" or "their" means: the person's
page goes, and every line naming them; a line where the name only stands beside who they are
("the user's landlord Osvald Rusk raised the rent", "a girl on the team, Yelena Marsh") keeps
the rest, a line about what they did ("Osvald shouted at me") goes whole. Whom it means is the
one named last (a new name after one memory knows), else found as for "him"; unsure, nothing
is erased. Said of oneself ("I keep forgetting her name") or asking the opposite ("don't
forget his name") it asks nothing; the other people's lines stay."""

from __future__ import annotations

import pytest

from doctree.agent.offline.language import forget_request, without_name
from tests.agent.offline_runs import run, transcript


def pages(repo) -> dict[str, str]:
    return {d.path: d.body for d in repo.documents("main", "~/memory") if "/archive/" not in d.path}


@pytest.mark.parametrize(
    "request_",
    [
        "I don't want his name kept.",
        "Please don't keep his name.",
        "Forget his name.",
        "his name shouldn't be kept anywhere",
        "Keep his name out of your notes.",
    ],
)
def test_his_name_not_kept_forgets_the_man_named_last(repo, request_):
    run(repo, transcript("s-name",
        ("user", "2031-04-01T09:00:00Z", "My physio Agneta says my knee is healing well."),
        ("user", "2031-04-01T09:01:00Z", "My landlord Osvald Rusk raised the rent, and he wants it by Friday."),
        ("user", "2031-04-01T09:02:00Z", request_)))  # fmt: skip
    got = pages(repo)
    text = "\n".join(got.values())
    assert "Osvald" not in text and not any("osvald" in p for p in got)
    assert "Agneta" in text and "knee" in text
    assert "raised the rent" in text  # the rest of the line stands without the name


def test_the_name_said_last_is_the_one_not_kept_and_the_line_stays_without_it(repo):
    run(repo, transcript("s-coach",
        ("user", "2031-04-01T09:00:00Z", "My daughter's coach is Mr Albrecht Kühn."),
        ("user", "2031-04-01T09:01:00Z",
         "Mr Kühn told me about a girl on the team who keeps tripping her up, Yelena Marsh. "
         "I don't want her name kept, she's nine.")))  # fmt: skip
    text = "\n".join(pages(repo).values())
    assert "Yelena" not in text and "Marsh" not in text
    assert "keeps tripping her up" in text and "Kühn" in text


def test_whom_his_name_means_unsure_nothing_is_erased(repo):
    # two people of no known gender named: "his" could be either
    run(repo, transcript("s-unsure",
        ("user", "2031-04-01T09:00:00Z", "I had coffee with Quillon and Sabeh at the station."),
        ("user", "2031-04-01T09:01:00Z", "I don't want his name kept.")))  # fmt: skip
    text = "\n".join(pages(repo).values())
    assert "Quillon" in text and "Sabeh" in text


@pytest.mark.parametrize(
    "sentence",
    [
        "I keep forgetting her name.",
        "I forget his name, the one who fixed the roof.",
        "Don't forget his name when you write the card.",
        "I don't want his name on the invitation.",
        "What was her name again?",
    ],
)
def test_a_name_forgotten_by_oneself_or_wanted_elsewhere_asks_nothing(sentence):
    assert forget_request(sentence) is None


@pytest.mark.parametrize(
    ("sentence", "target"),
    [
        ("I don't want her name kept.", "her"),
        ("please forget their names", "them"),
        ("Forget about my cousin Dara.", "Dara"),
        ("Forget everything about my friend Ola Berg.", "Ola Berg"),
    ],
)
def test_the_request_names_the_person(sentence, target):
    assert forget_request(sentence) == (True, target)


def test_forget_my_cousin_by_name_takes_her_page(repo):
    run(repo, transcript("s-1",
        ("user", "2031-04-01T09:00:00Z", "My cousin Liesl works as a paramedic in Bremen."),
        ("user", "2031-04-01T09:01:00Z", "The car park on Dock Street closes at 10pm.")))  # fmt: skip
    assert any(p.endswith("/people/liesl") for p in pages(repo))
    run(repo, transcript("s-2", ("user", "2031-04-02T09:00:00Z", "Forget about my cousin Liesl.")))
    got = pages(repo)
    assert not any("liesl" in p for p in got)
    assert "Liesl" not in "\n".join(got.values())
    assert "Dock Street" in "\n".join(got.values())


@pytest.mark.parametrize(
    ("line", "name", "left"),
    [
        ("The user's landlord Ansel Pike raised the rent.", "Ansel Pike", "The user's landlord raised the rent."),
        ("A boy in her class, Ansel Pike, took her scarf.", "Ansel Pike", "A boy in her class took her scarf."),
        ("She sat next to a boy called Ansel at lunch.", "Ansel", "She sat next to a boy at lunch."),
        ("The new lodger (Ansel Pike) moves in on May 3rd.", "Ansel Pike", "The new lodger moves in on May 3rd."),
        ("Ansel Pike shouted at the user in the shop.", "Ansel Pike", None),
        ("The user's landlord Ansel raised the rent and Ansel wants it now.", "Ansel Pike", None),
    ],
)  # fmt: skip
def test_without_name(line, name, left):
    assert without_name(line, name) == left


def test_a_line_kept_without_the_name_is_no_longer_filed_under_the_person(repo):
    run(repo, transcript("s-plumber",
        ("user", "2031-04-01T09:00:00Z", "My plumber Teodor Vass fixed the boiler for 80 euros."),
        ("user", "2031-04-01T09:01:00Z", "Please don't keep his name.")))  # fmt: skip
    got = pages(repo)
    text = "\n".join(got.values())
    assert "Teodor" not in text and "Vass" not in text
    assert not any("teodor" in p for p in got)
    assert "fixed the boiler for 80 euros" in text
