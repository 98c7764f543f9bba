"""The names the user goes by are never people of their own: a nick the user says is theirs
in a chat log, or the name the assistant calls them by when they write of themselves in the
third person. The name is remembered on the user's own page the first time it is known, and
read from there in later sessions that do not say it again."""

from __future__ import annotations

import pytest

from doctree.agent.offline.owner import as_the_user
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript


def paths(repo: DocumentsRepository) -> set[str]:
    return {d.path for d in repo.documents("main", "~/memory") if not d.deleted}


def log(*lines: str) -> str:
    return "```\n" + "\n".join(lines) + "\n```"


def test_a_nick_said_once_is_the_users_in_later_logs_too(repo):
    first = "Here's the channel log from tonight, I'm kestrel in there.\n\n" + log(
        "[19:00] <dunlin> kestrel, can you take the release notes?",
        "[19:01] <kestrel> yes, I'll write the release notes by Friday",
        "[19:02] <dunlin> great, thanks",
    )
    run(repo, transcript("s-1", ("user", "2029-03-01T20:00:00Z", first)))
    assert "~/memory/people/kestrel" not in paths(repo)
    assert "kestrel" in repo.read("main", "~/memory/user").body
    later = "Tonight's log:\n\n" + log(
        "[19:00] <dunlin> kestrel how are the release notes going?",
        "[19:01] <kestrel> half done, I need the changelog from Ivo first",
        "[19:02] <dunlin> ok",
    )
    run(repo, transcript("s-2", ("user", "2029-03-08T20:00:00Z", later)))
    assert "~/memory/people/kestrel" not in paths(repo)


@pytest.mark.parametrize(
    ("said", "reply"),
    [
        ("Priya is training for a 10k in April.", "Got it, Priya. Good luck with the training."),
        ("Priya has a dentist appointment on May 4.", "Noted, Priya."),
        ("Priya needs to renew her passport before June.", "Thanks, Priya!"),
    ],
)
def test_a_user_writing_of_herself_in_the_third_person_is_no_person(repo, said, reply):
    run(
        repo,
        transcript(
            "s-1",
            ("user", "2029-03-01T20:00:00Z", said),
            ("assistant", "2029-03-01T20:00:10Z", reply),
        ),
    )
    assert "~/memory/people/priya" not in paths(repo)
    assert "Priya: the user's name" in repo.read("main", "~/memory/user").body
    run(repo, transcript("s-2", ("user", "2029-03-03T20:00:00Z", "Priya is moving flat in July.")))
    assert "~/memory/people/priya" not in paths(repo)


def test_a_name_the_assistant_greets_in_a_draft_or_the_user_speaks_of_is_someone_else(repo):
    run(
        repo,
        transcript(
            "s-1",
            (
                "user",
                "2029-03-01T20:00:00Z",
                "Can you draft a note to Marco Bell about the invoice?",
            ),
            ("assistant", "2029-03-01T20:00:10Z", "> Hi Marco,\n> the invoice is attached."),
            ("user", "2029-03-01T20:01:00Z", "Thanks, Marco is my landlord by the way."),
            ("assistant", "2029-03-01T20:01:10Z", "Sure, Marco."),
        ),
    )
    assert "~/memory/user" not in paths(repo)  # no name of the user's was said


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("Devika is cutting caffeine.", "I am cutting caffeine."),
        ("New year. Devika needs a plan.", "New year. I need a plan."),
        ("Devika's bike needs brakes.", "My bike needs brakes."),
        ("Dad lent Devika £200.", "Dad lent me £200."),
        ("Devika goes to the gym and Devika tries yoga.", "I go to the gym and I try yoga."),
    ],
)
def test_the_users_own_name_is_read_in_the_first_person(text, read):
    assert as_the_user(text, {"Devika"}) == read


@pytest.mark.parametrize(
    ("said", "reply"),
    [
        ("My brother Callum is getting married in Dundee.", "Congratulations to Callum!"),
        ("Our new neighbour Ines is a midwife.", "Noted, Ines."),
        ("My old friend Tariq is moving to Leeds.", "Thanks, Tariq."),
    ],
)
def test_a_name_the_user_says_of_a_relation_is_never_the_users_own(repo, said, reply):
    run(
        repo,
        transcript(
            "s-1",
            ("user", "2029-03-01T20:00:00Z", said),
            ("assistant", "2029-03-01T20:00:10Z", reply),
        ),
    )
    name = reply.rstrip(".!").split()[-1]
    assert "~/memory/user" not in paths(repo)  # no name of the user's was said
    facts = "\n".join(d.body for d in repo.documents("main", "~/memory"))
    assert name in facts and "the user's name" not in facts


def test_the_users_name_said_whole_with_a_surname_stays_as_said():
    assert as_the_user("Row 4: me (Devika Sharma), paid.", {"Devika"}) == (
        "Row 4: me (Devika Sharma), paid."
    )
    assert as_the_user("Devika Sharma signed the form.", {"Devika"}) == (
        "Devika Sharma signed the form."
    )


def test_the_users_name_alone_is_still_read_as_the_user():
    assert as_the_user("Devika needs a break.", {"Devika"}) == "I need a break."
    assert (
        as_the_user("The form is for Devika, Monday.", {"Devika"}) == "The form is for me, Monday."
    )


@pytest.mark.parametrize(
    "reply",
    [
        "Congratulations on Juniper. A good name for a mare.",
        "Good luck with Casimir.",
        "Sorry about Pickle. Fourteen is a good age for a cat.",
    ],
)
def test_a_name_after_a_preposition_is_what_the_assistant_speaks_of(repo, reply):
    said = "The kids have named the new foal Juniper, Casimir starts at the yard on Monday."
    run(
        repo,
        transcript(
            "s-1",
            ("user", "2029-03-01T20:00:00Z", said),
            ("assistant", "2029-03-01T20:00:10Z", reply),
        ),
    )
    assert "~/memory/user" not in paths(repo)


def test_a_name_said_to_the_user_after_a_wish_is_still_theirs(repo):
    run(
        repo,
        transcript(
            "s-1",
            ("user", "2029-03-01T20:00:00Z", "Priya passed her driving test this morning."),
            ("assistant", "2029-03-01T20:00:10Z", "Congratulations, Priya!"),
        ),
    )
    assert "Priya: the user's name" in repo.read("main", "~/memory/user").body
