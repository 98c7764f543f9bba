"""A request that names two people ("what I told you about Lena and Marco") is about the
two together when one of them is said of only with the other: the lines that name that one
go, and the other's own lines stay. When each has lines of their own, each goes whole."""

from __future__ import annotations

import pytest

from tests.agent.offline_runs import everything, run, transcript

DAY1 = "2027-05-03T18:00:00Z"
DAY2 = "2027-05-04T09:00:00Z"


@pytest.mark.parametrize(
    "request_",
    [
        "Forget what I told you about Lena and Marco, please.",
        "Esquece aquilo que te contei sobre a Lena e o Marco.",
        "Olvida aquello que te conté sobre Lena y Marco.",
        "Oublie ce que je t'ai dit sur Lena et Marco.",
    ],
)
def test_one_said_of_only_with_the_other_is_the_story_of_the_two(repo, request_):
    run(
        repo,
        transcript(
            "s-facts",
            ("user", DAY1, "My cousin Lena is visiting from Graz in July."),
            ("user", "2027-05-03T18:02:00Z", "Sadly, Lena is splitting up with Marco."),
            ("user", "2027-05-03T18:04:00Z", "Lena works as a pharmacist."),
        ),
    )
    assert "Marco" in everything(repo, archive=False)
    run(repo, transcript("s-ask", ("user", DAY2, request_)))
    text = everything(repo, archive=False)
    assert "Marco" not in text and "splitting" not in text
    lena = repo.read("main", "~/memory/people/lena").body
    assert "Graz" in lena and "pharmacist" in lena


def test_two_people_each_with_lines_of_their_own_are_each_forgotten_whole(repo):
    run(
        repo,
        transcript(
            "s-facts",
            ("user", DAY1, "My cousin Lena is visiting from Graz in July."),
            ("user", "2027-05-03T18:02:00Z", "My colleague Marco Rossi is leaving the firm."),
            ("user", "2027-05-03T18:04:00Z", "Lena and Marco met at my birthday."),
        ),
    )
    run(repo, transcript("s-ask", ("user", DAY2, "Forget what I told you about Lena and Marco.")))
    text = everything(repo, archive=False)
    assert "Graz" not in text and "leaving the firm" not in text and "birthday" not in text


@pytest.mark.parametrize(
    "request_",
    [
        "And take out what I told you about Lena's divorce, she asked me to.",
        "Please scrap the note about Lena's divorce entirely.",
        "Forget what I said about Lena's divorce.",
    ],
)
def test_a_thing_said_of_a_person_goes_and_her_other_lines_stay(repo, request_):
    run(
        repo,
        transcript(
            "s-facts",
            ("user", DAY1, "My cousin Lena is visiting from Graz in July."),
            ("user", "2027-05-03T18:02:00Z", "Lena told me she is getting divorced."),
            ("user", "2027-05-03T18:04:00Z", "Lena works as a pharmacist."),
        ),
    )
    run(repo, transcript("s-ask", ("user", DAY2, request_)))
    text = everything(repo, archive=False)
    assert "divorced" not in text
    lena = repo.read("main", "~/memory/people/lena").body
    assert "Graz" in lena and "pharmacist" in lena


def test_a_thing_said_in_another_form_of_its_word_goes_and_the_emptied_page_with_it(repo):
    run(
        repo,
        transcript(
            "s-facts",
            ("user", DAY1, "My cousin Lena is visiting from Graz in July."),
            ("user", "2027-05-03T18:02:00Z", "Noor is pregnant, due in late August."),
        ),
    )
    assert "~/memory/people/noor" in {d.path for d in repo.documents("main", "~/memory")}
    run(
        repo,
        transcript(
            "s-ask", ("user", DAY2, "Please forget what I told you about Noor's pregnancy.")
        ),
    )
    text = everything(repo, archive=False)
    assert "pregnant" not in text and "Noor" not in text  # the listing links her no more
    assert "Graz" in text
