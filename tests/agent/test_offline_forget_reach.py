"""How far a request to forget reaches: "forget about it" is "forget that" (what was just
said, no one called "it"); "forget everything I just said" is the message before; words
before the request that only regret having said it ("I shouldn't have said that, forget it")
leave "that" to mean what was said before them; two requests in one sentence both act; and
a thing the conversation named whole ("the Italian restaurant" the assistant suggested) is
not said by a line that shares only one of its words ("My partner is Italian …")."""

from __future__ import annotations

import pytest

from doctree.agent.offline.language import forget_request, split_requests
from tests.agent.offline_runs import everything, run, transcript


def _said(repo, *messages, session="s-reach", day="2031-03-03"):
    times = [f"{day}T18:{i:02d}:00Z" for i in range(len(messages))]
    run(repo, transcript(session, *[(k, t, m) for t, (k, m) in zip(times, messages, strict=True)]))


@pytest.mark.parametrize(
    "request_said",
    [
        "actually forget about it",
        "oh forget about it lol",
        "Forget about it all.",
        "forget everything I just said please",
        "Forget all that I just told you.",
        "I shouldn't have said that, forget it",
        "ugh, too much info, don't keep that",
        "that wasn't mine to share, please forget it",
        "Sorry, I didn't mean to tell you that. Don't keep it.",
    ],
)
def test_a_request_about_what_was_just_said_takes_the_message_before_and_no_more(
    repo, request_said
):
    _said(
        repo,
        ("user", "The gutters get cleaned on March 14th."),
        ("user", "My brother Anselm is in rehab again."),
        ("user", request_said),
    )
    text = everything(repo)
    assert "gutters" in text and "2031-03-14" in text
    assert "rehab" not in text, text
    assert "mean to tell" not in text, text


@pytest.mark.parametrize(
    "said", ["actually forget about it", "Forget about it, the trip is off.", "forget about it all"]
)
def test_forget_about_it_names_no_one(said):
    assert forget_request(said) == (True, None)


def test_two_requests_in_one_sentence_both_act(repo):
    _said(
        repo,
        (
            "user",
            "The gutters get cleaned on March 14th. My brother Anselm is in rehab again. "
            "My cousin Noor owes me 300 pounds.",
        ),
        ("user", "Forget the rehab stuff and don't keep anything about Noor."),
    )
    text = everything(repo)
    assert "gutters" in text and "2031-03-14" in text
    assert "rehab" not in text and "300" not in text and "Noor" not in text, text


def test_forget_that_and_a_named_thing_in_one_sentence_both_act(repo):
    _said(
        repo,
        ("user", "My landlord Okoro is raising the rent by 200 in April."),
        ("user", "The gutters get cleaned on March 14th."),
        ("user", "My brother Anselm is in rehab again."),
        ("user", "Forget that, and also wipe everything about Okoro."),
    )
    text = everything(repo)
    assert "gutters" in text and "2031-03-14" in text
    assert "rehab" not in text and "Okoro" not in text and "raising the rent" not in text, text


@pytest.mark.parametrize(
    ("said", "parts"),
    [
        ("Forget the rehab stuff and don't keep anything about Noor.", 2),
        ("Delete the bit about the loan and forget about Tom too", 2),
        # one request naming a list, or a request and a clause that asks nothing
        ("forget what I said about Ravi, Priya and the money", 1),
        ("forget about the loan, and delete his page", 1),
        ("Forget about the gym and the loan.", 1),
        ("don't forget about the dog and delete the old notes", 1),
    ],
)
def test_a_sentence_is_split_only_between_two_requests(said, parts):
    assert len(split_requests(said)) == parts


@pytest.mark.parametrize("days", [False, True])
def test_the_assistants_suggestion_forgotten_leaves_the_users_line_sharing_a_word(repo, days):
    """The assistant named the thing whole; the user's line says only one of its words: it
    is about something else, in this session and on the pages of an earlier one."""
    if days:
        _said(repo, ("user", "My partner is Italian and we visit Naples every August."))
    _said(
        repo,
        *([] if days else [("user", "My partner is Italian and we visit Naples every August.")]),
        ("user", "Any idea for our anniversary dinner on March 20th?"),
        ("assistant", "Maybe an Italian restaurant like Da Rosa on Quay Street?"),
        ("user", "forget about the Italian restaurant, we'll cook at home"),
        session="s-later" if days else "s-reach",
        day="2031-03-05" if days else "2031-03-03",
    )
    text = everything(repo, archive=False)
    assert "Naples" in text, text
    assert "Da Rosa" not in text


def test_the_users_own_thing_named_whole_still_goes_and_a_part_of_it_alone_does_not(repo):
    _said(
        repo,
        ("user", "We booked the Italian restaurant on Quay Street for March 20th."),
        ("user", "My partner is Italian and we visit Naples every August."),
        ("user", "forget about the Italian restaurant"),
    )
    text = everything(repo, archive=False)
    assert "Naples" in text, text
    assert "Quay Street" not in text, text


def test_a_thing_never_named_whole_is_still_said_by_half_its_words(repo):
    _said(
        repo,
        ("user", "The wedding is at Holm Barn on June 7th."),
        ("user", "forget about the wedding plans"),
    )
    assert "Holm Barn" not in everything(repo, archive=False)
