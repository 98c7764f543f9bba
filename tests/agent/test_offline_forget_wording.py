"""A request to forget said in any wording: a removal verb addressed to the assistant whose
object is what was said about something ("the stuff about …", "the X bit"), never the
same verb used of the world; a thing named with a person is forgotten as it concerns that
person, and the lines it was not asked about stay."""

from __future__ import annotations

import pytest

from doctree.agent.offline import language as lang
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript

DAY1 = "2027-05-03T18:00:00Z"
DAY2 = "2027-05-04T09:00:00Z"
FACTS = [
    ("user", DAY1, "My brother Ravi works night shifts at the depot."),
    ("user", "2027-05-03T18:02:00Z", "Ravi lent mum £1,500 towards the boiler."),
    ("user", "2027-05-03T18:04:00Z", "The boiler money is due back by August."),
    ("user", "2027-05-03T18:06:00Z", "The boiler service is on the 20th with Dwyer Heating."),
    ("user", "2027-05-03T18:08:00Z", "My climbing gym is Urban Climb, I go on Tuesdays."),
    ("user", "2027-05-03T18:10:00Z", "Ana Lopes is starting at the studio in June."),
    ("user", "2027-05-03T18:12:00Z", "Tom Reyes plays bass in the band on Fridays."),
]


def current(repo: DocumentsRepository) -> str:
    return "\n".join(
        d.body for d in repo.documents("main", "~/memory") if "/archive/" not in d.path
    )


def paths(repo: DocumentsRepository) -> set[str]:
    return {d.path for d in repo.documents("main", "~/memory")}


def remembered(repo: DocumentsRepository) -> None:
    run(repo, transcript("s-facts", *FACTS))
    text = current(repo)
    for said in ("night shifts", "£1,500", "due back", "Dwyer", "Urban Climb", "bass", "studio"):
        assert said in text


def asked(repo: DocumentsRepository, request: str) -> str:
    run(repo, transcript("s-ask", ("user", DAY2, request)))
    return current(repo)


@pytest.mark.parametrize(
    "request_",
    [
        "Oh and can you scrub the stuff about the climbing gym, I've quit.",
        "Please lose the bit about the climbing gym.",
        "Take the climbing gym stuff out.",
        "Nothing about the climbing gym in there please.",
        "Strike everything about the climbing gym.",
        "Could you get rid of the details on the climbing gym?",
        "Don't keep anything on the climbing gym.",
        "Take out the part about the climbing gym, thanks.",
    ],
)
def test_a_request_in_any_wording_forgets_its_target_and_only_it(repo, request_):
    remembered(repo)
    text = asked(repo, request_)
    assert "Urban Climb" not in text
    for kept in ("night shifts", "£1,500", "Dwyer", "bass", "studio"):
        assert kept in text


@pytest.mark.parametrize(
    "statement",
    [
        "I have to cut the bit about the climbing gym from the newsletter.",
        "I lost the bit about the climbing gym when my laptop died.",
        "Keep the stuff about the climbing gym, it matters.",
        "There's nothing about the climbing gym in there yet.",
        "Ravi is going to take the stuff about the climbing gym out of his talk.",
        "We went through everything about the climbing gym on the call.",
        "Cut the bit about the climbing gym from the email before you send it.",
    ],
)
def test_the_same_verbs_said_of_the_world_forget_nothing(repo, statement):
    remembered(repo)
    text = asked(repo, statement)
    assert "Urban Climb" in text


@pytest.mark.parametrize(
    "request_",
    [
        "Can you scrub the stuff about Ravi and the boiler money, that's between him and mum.",
        "Please drop the bit about Ravi and the boiler money.",
        "Nothing about Ravi and the boiler money in there please.",
    ],
)
def test_a_thing_named_with_a_person_goes_as_it_concerns_them_and_their_other_lines_stay(
    repo, request_
):
    remembered(repo)
    text = asked(repo, request_)
    assert "£1,500" not in text  # the money, with the person named
    assert "due back" not in text  # the money, without him
    assert "night shifts" in text  # his other lines
    assert "~/memory/people/ravi" in paths(repo)
    assert "Dwyer" in text  # the boiler's other line: not the money


def test_two_persons_joined_in_one_request_are_both_forgotten(repo):
    remembered(repo)
    text = asked(repo, "Please scrub the stuff about Ana and Tom.")
    assert "studio" not in text and "bass" not in text
    assert "night shifts" in text and "Urban Climb" in text


def test_a_thing_named_with_a_person_in_the_same_session_is_not_kept(repo):
    run(
        repo,
        transcript(
            "s-one",
            ("user", DAY1, "My sister Mei runs the allotment committee."),
            ("user", "2027-05-03T18:01:00Z", "Mei owes the committee £300 for the shed."),
            ("user", "2027-05-03T18:02:00Z", "Lose the bit about Mei and the shed money please."),
        ),
    )
    text = current(repo)
    assert "£300" not in text
    assert "allotment committee" in text


@pytest.mark.parametrize(
    ("sentence", "target"),
    [
        ("oh and can you scrub the stuff about Ravi and the money, ta", "Ravi and the money"),
        ("Take the Lisbon stuff out.", "Lisbon"),
        ("dont keep the stuff about marcus", "marcus"),
        ("Lose the story about the break-in, please.", "the break-in"),
        ("Can you drop everything you've got on Marek?", "Marek"),
        ("Can you take Marek off everything?", "Marek"),
        ("Keep the Lisbon trip out of your notes.", "the Lisbon trip"),
    ],
)
def test_the_target_is_the_object_of_the_request(sentence, target):
    assert lang.forget_request(sentence) == (True, target)


def test_a_relative_named_with_a_thing_is_a_person_and_keeps_their_other_lines(repo):
    run(
        repo,
        transcript(
            "s-one",
            ("user", DAY1, "My sister runs the allotment committee."),
            ("user", "2027-05-03T18:01:00Z", "My sister owes the bank £300 for the car loan."),
        ),
    )
    text = asked(repo, "Scrub the stuff about my sister and the car loan please.")
    assert "£300" not in text
    assert "allotment committee" in text


def test_saying_one_does_not_need_something_forgets_nothing(repo):
    remembered(repo)
    text = asked(repo, "I don't need the details about the climbing gym, I know them.")
    assert "Urban Climb" in text


def test_a_person_taken_off_everything_by_a_pronoun_is_the_one_named_before(repo):
    remembered(repo)
    text = asked(repo, "Tom Reyes quit the band. Please take him off everything.")
    assert "bass" not in text
    assert "studio" in text and "night shifts" in text


@pytest.mark.parametrize(
    "statement",
    [
        "Take the dog off the lead at the park.",
        "Take Mum off the rota for June.",
        "I took him off everything last year.",
    ],
)
def test_taking_off_said_of_the_world_is_no_request(statement):
    assert lang.forget_request(statement) is None
