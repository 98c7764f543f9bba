"""Requests to let something go said in ways a rule for "forget about X" does not read: a
person deleted by name ("Delete Halle completely"), keeping asked against in the passive ("I
don't want anything about her kept"), a part of a draft said to have to go and then "forget
it", and a confidence on someone else's line of a pasted chat. Each forgets what it names
and only that; the same words said of a program or a plan ask nothing."""

from __future__ import annotations

import pytest

from doctree.agent.offline import language as lang
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import everything, run, transcript

DAY1 = "2031-03-02T10:00:00Z"
DAY2 = "2031-03-09T10:00:00Z"


def contacts(repo: DocumentsRepository) -> None:
    run(
        repo,
        transcript(
            "s-contacts",
            ("user", DAY1, "Saving some contacts. Priya is my dentist and Halle is my climbing "
             "buddy. FN:Halle Brandt TEL;TYPE=cell:+44 7700 900123"),
            ("assistant", "2031-03-02T10:01:00Z", "Noted Priya (dentist) and Halle Brandt."),
        ),
    )  # fmt: skip
    assert "Halle" in everything(repo)


def test_a_person_deleted_by_name_is_gone_from_every_page_and_quote(repo):
    contacts(repo)
    run(
        repo,
        transcript(
            "s-delete",
            ("user", DAY2, "Tomasz is coming Thursday to fix the boiler."),
            ("assistant", "2031-03-09T10:01:00Z", "Noted."),
            ("user", "2031-03-09T10:02:00Z", "One more thing. Delete Halle completely, please."
             " We've had a falling out and I don't want her number or anything else about "
             "her kept."),
        ),
    )  # fmt: skip
    text = everything(repo)
    assert "Halle" not in text and "900123" not in text  # archive quotes included
    assert "dentist" in text and "Tomasz" in text  # the other clause and session stay


def test_a_known_person_deleted_by_name_alone_is_forgotten(repo):
    run(
        repo,
        transcript(
            "s-known",
            ("user", DAY1, "My accountant is Dev Malhotra, he does my tax return every January."),
            ("user", "2031-03-02T10:01:00Z", "My gym is Urban Climb."),
        ),
    )
    assert "Malhotra" in everything(repo)
    run(repo, transcript("s-delete", ("user", DAY2, "Please erase Dev Malhotra entirely.")))
    text = everything(repo)
    assert "Malhotra" not in text
    assert "Urban Climb" in text


@pytest.mark.parametrize(
    "sentence",
    [
        "Remove Node completely and reinstall it with nvm, then retry.",
        "I had to delete Docker completely last week.",
        "Uninstall it and wipe Chrome entirely before the handover.",
    ],
)
def test_a_program_removed_completely_is_not_forgotten(repo, sentence):
    run(
        repo,
        transcript("s-stack", ("user", DAY1, "Our API runs on Node 18, Docker and Chrome 120.")),
    )
    run(repo, transcript("s-fix", ("user", DAY2, sentence)))
    text = everything(repo)
    for kept in ("Node 18", "Docker", "Chrome 120"):
        assert kept in text


@pytest.mark.parametrize(
    ("sentence", "target"),
    [
        ("I don't want anything about the lawsuit stored.", "the lawsuit"),
        ("We've split up and I don't want anything else about him kept.", "him"),
        ("I don't want the stuff about my overdraft written down.", "my overdraft"),
    ],
)
def test_keeping_asked_against_in_the_passive_is_a_request(sentence, target):
    assert lang.forget_request(sentence) == (True, target)


@pytest.mark.parametrize(
    "sentence",
    ["I don't want the house sold.", "I don't want anything about the lawsuit to leak out."],
)
def test_wanting_something_not_done_in_the_world_is_no_request(sentence):
    assert lang.forget_request(sentence) is None


@pytest.mark.parametrize(
    ("sentence", "named"),
    [
        ("The Benidorm bit has to go, he says, and forget it altogether.", "Benidorm"),
        ("The part about the stag do needs to come out, forget it.", "the stag do"),
        ("The stuff about Nina can go.", "Nina"),
    ],
)
def test_a_part_said_to_have_to_go_is_what_it_means(sentence, named):
    assert lang.said_of(sentence) == named


def test_a_part_of_a_draft_that_has_to_go_and_is_forgotten_leaves_memory(repo):
    run(
        repo,
        transcript(
            "s-toast",
            ("user", DAY1, "Draft of my toast: we met at uni in Leeds, then there was the "
             "Benidorm trip where Sam lost his passport."),
            ("assistant", "2031-03-02T10:01:00Z", "Lovely draft."),
            ("user", "2031-03-02T10:02:00Z", "Sam is marrying Kate on 14 June."),
            ("user", "2031-03-02T10:03:00Z", "Sam read it. The Benidorm bit has to go, he "
             "says, and forget it altogether."),
        ),
    )  # fmt: skip
    text = everything(repo)
    assert "Benidorm" not in text and "passport" not in text
    assert "Kate" in text


def test_a_confidence_on_a_pasted_chat_line_is_not_kept(repo):
    run(
        repo,
        transcript(
            "s-call",
            ("user", DAY1, "Chat from our team call, note the actions:\n\n```\n"
             "10:02:11 From Rosa Diaz to Everyone:\n\tI'll send the budget by Friday\n"
             "10:03:40 From Dev Anand to Me (Direct Message):\n\tbetween you and me I'm "
             "interviewing at Quillfeather next week\n"
             "10:04:02 From Rosa Diaz to Everyone:\n\tDev owns the vendor review\n```"),
        ),
    )  # fmt: skip
    text = everything(repo)
    assert "interviewing" not in text and "Quillfeather" not in text
    assert "budget" in text and "vendor review" in text


def test_a_confidence_in_a_thread_covers_the_rest_of_that_message(repo):
    run(
        repo,
        transcript(
            "s-thread",
            ("user", DAY1, "Pasting the thread:\nRosa: the offsite is in Porto on 3 June\n"
             "Dev: between you and me, I'm leaving in May. My notice goes in Monday.\n"
             "Rosa: Dev books the flights"),
        ),
    )  # fmt: skip
    text = everything(repo)
    assert "leaving in May" not in text and "notice" not in text
    assert "Porto" in text and "flights" in text


def test_a_chat_export_with_header_lines_keeps_whose_each_message_is():
    from doctree.agent.offline.segment import chat_export_lines

    text = "Rosa Diaz  10:42 AM\nbudget goes out Friday\nDev Anand  10:43 AM\nok\non it"
    assert chat_export_lines(text) == (
        "[10:42 AM] Rosa Diaz: budget goes out Friday\n[10:43 AM] Dev Anand: ok on it"
    )
    # one name and a time over a line is a heading, not a chat
    assert chat_export_lines("Standup 09:40\nbring the numbers") == (
        "Standup 09:40\nbring the numbers"
    )


def test_whose_message_it_is_stays_with_it_in_a_chat_export(repo):
    run(
        repo,
        transcript(
            "s-zoom",
            ("user", DAY1, "Saved chat from the committee call:\n\n```\n"
             "19:05:40 From Rosa Diaz to Everyone:\n\tI'll book the hall for 4 May\n"
             "19:06:12 From Dev Anand to Everyone:\n\tI can run the raffle again\n```"),
        ),
    )  # fmt: skip
    text = everything(repo)
    assert "the user will book the hall" not in text
    assert "Rosa Diaz will book the hall" in text or "Rosa Diaz: I'll book the hall" in text
