"""Who said it, and of whom: a child at the user's keyboard ("hi its noor …", then "that
was Noor, my daughter") speaks for herself, not as the user; "Mum" named by the kin word
alone is someone a later "she" may mean, so a friend named after her does not take her
operation; "ten days after the op" counts from the operation said; the assistant putting
right a figure of its own ("£1,029, not £1,092") is what it found; "the bit about her dad
and Steph" takes what is said of both, never every line about her dad."""

from __future__ import annotations

from doctree.agent.offline import language as lang
from doctree.agent.offline.owner import typed_by_others
from doctree.sessions.transcripts import parse_transcript
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import current_facts, page_lines, run, transcript


def _facts(tmp_path, *sessions: list[tuple[str, str, str]]) -> str:
    with DocumentsRepository(tmp_path / "m.db") as repo:
        for i, messages in enumerate(sessions):
            run(repo, transcript(f"s-hands-{i}", *messages))
        return current_facts(repo)


def _lines(tmp_path, *sessions: list[tuple[str, str, str]]) -> str:
    with DocumentsRepository(tmp_path / "m.db") as repo:
        for i, messages in enumerate(sessions):
            run(repo, transcript(f"s-hands-{i}", *messages))
        now, past = page_lines(repo)
        return "\n".join(now + past)


CHILD = [
    (
        "user",
        "2031-06-01T16:00:00Z",
        "hi its noor i am 6. my swimming lesson is on tusday. my hamster is calld biscuit",
    ),
    ("assistant", "2031-06-01T16:01:00Z", "Hi Noor! Biscuit is a great name for a hamster."),
    (
        "user",
        "2031-06-01T16:03:00Z",
        "Sorry, that was Noor, my daughter, she grabbed the phone. Her swimming is on "
        "Tuesdays at 4pm.",
    ),
    ("assistant", "2031-06-01T16:04:00Z", "No problem, noted."),
]


def test_a_message_opening_on_a_name_the_user_says_is_someone_else_is_theirs():
    t = parse_transcript(transcript("s-hands", *CHILD))
    assert typed_by_others(t) == {0: "Noor"}
    # the user introducing themselves is no one else
    own = parse_transcript(
        transcript(
            "s-own",
            ("user", "2031-06-01T16:00:00Z", "hi its marta, can you keep my dentist date?"),
            ("assistant", "2031-06-01T16:01:00Z", "Hi Marta, of course."),
        )
    )
    assert typed_by_others(own) == {}


def test_what_someone_else_typed_is_theirs_not_the_users(tmp_path):
    facts = _facts(tmp_path, CHILD)
    assert "The user's hamster" not in facts and "The user's swimming" not in facts
    assert "Noor" in facts and "daughter" in facts


def test_a_verb_after_a_kin_word_in_lower_case_is_no_name():
    assert lang.names_capitalised("my mum sed i can use her fone", set()).startswith("my mum sed")
    assert lang.names_capitalised("my sister dani is coming sat", set()).startswith(
        "my sister Dani"
    )


def test_mum_named_by_the_kin_word_alone_keeps_she_unsure(tmp_path):
    facts = _facts(
        tmp_path,
        [
            (
                "user",
                "2031-03-02T12:00:00Z",
                "Mum's knee operation is on the 20th of this month. Her friend Colette is "
                "doing her shopping the first week. Can you work out the dates?",
            ),
            ("assistant", "2031-03-02T12:01:00Z", "Noted."),
            (
                "user",
                "2031-03-02T12:03:00Z",
                "Brilliant. She's also booked carers from an agency, Hale & Moss, at £20 an "
                "hour. Her consultant is Mr Adeyemi at the Spire.",
            ),
            ("assistant", "2031-03-02T12:04:00Z", "Got it."),
        ],
    )
    assert "Colette's consultant" not in facts and "Colette is also booked" not in facts
    assert "Mr Adeyemi" in facts and "Hale & Moss" in facts


def test_days_after_the_op_count_from_the_operation(tmp_path):
    facts = _facts(
        tmp_path,
        [
            (
                "user",
                "2031-03-02T12:00:00Z",
                "Dad's hip replacement is on the 20th of this month, and the physio starts "
                "ten days after the op.",
            ),
            ("assistant", "2031-03-02T12:01:00Z", "Noted."),
        ],
    )
    assert "2031-03-30" in facts


def test_the_assistant_putting_right_its_own_figure_is_what_it_found(tmp_path):
    facts = _facts(
        tmp_path,
        [
            (
                "user",
                "2031-03-02T12:00:00Z",
                "The cleaner is £18 an hour, 4 hours a week for 13 weeks. What's that in total?",
            ),
            ("assistant", "2031-03-02T12:01:00Z", "That's £72 a week, so £963 in total."),
            (
                "assistant",
                "2031-03-02T12:02:00Z",
                "Sorry, I got that wrong: £72 × 13 is £936, not £963.",
            ),
            ("user", "2031-03-02T12:03:00Z", "ok thanks"),
        ],
    )
    assert "£936" in facts


def test_the_bit_about_someone_by_kin_and_someone_by_name_takes_only_what_is_of_both(tmp_path):
    text = _lines(
        tmp_path,
        [
            (
                "user",
                "2031-06-01T16:00:00Z",
                "Her dad Piotr is collecting the cake on Saturday. And her dad is moving in "
                "with his friend Steph next month.",
            ),
            ("assistant", "2031-06-01T16:01:00Z", "Noted."),
            (
                "user",
                "2031-06-01T16:02:00Z",
                "Please don't keep the bit about her dad and Steph, that's private.",
            ),
            ("assistant", "2031-06-01T16:03:00Z", "Done."),
        ],
    )
    assert "Steph" not in text
    assert "collecting the cake" in text  # her dad's other line stays


def test_a_word_spelt_longer_beside_the_persons_name_is_said():
    assert lang.concerns("my dady is moving in with steph", {"dad"}, ("Steph",))
    assert not lang.concerns("my dady is moving house", {"dad"}, ("Steph",))


def test_a_namesake_memory_knows_does_not_take_the_users_message(tmp_path):
    facts = _facts(
        tmp_path,
        [
            (
                "user",
                "2031-06-01T09:00:00Z",
                "My colleague Sam is off sick this week, his cover is Priya.",
            ),
            ("assistant", "2031-06-01T09:01:00Z", "Noted."),
        ],
        [
            ("user", "2031-06-08T09:00:00Z", "hi its sam. my dentist appointment is on friday"),
            ("assistant", "2031-06-08T09:01:00Z", "Noted, Friday 13 June."),
        ],
    )
    assert "Sam's dentist" not in facts


def test_a_thing_named_then_noting_down_refused_with_its_object_unsaid():
    sentence = "and the Haruto thing just now I tell you, don't write down ah."
    assert lang.forget_request(sentence) == (True, None)
    assert lang.said_of(sentence) == "Haruto"
    assert lang.said_of("the Haruto thing I told you earlier, please don't keep it") == "Haruto"
    # a habit told is no request
    assert lang.forget_request("I don't write down my dreams.") is None
    assert lang.forget_request("Don't write down my dreams.") == (True, "my dreams")


def test_a_confidence_taken_back_the_next_week_in_singlish_leaves_memory(tmp_path):
    text = _lines(
        tmp_path,
        [
            (
                "user",
                "2031-04-07T05:40:00Z",
                "my cousin Haruto say he kena retrench from his firm last month, very sian. "
                "also my boy Ren got swimming test on Sat 8am",
            ),
            ("assistant", "2031-04-07T05:41:00Z", "Noted. Sorry about Haruto."),
        ],
        [
            (
                "user",
                "2031-04-12T11:00:00Z",
                "Ren pass his swimming test!! and the Haruto thing just now I tell you, don't "
                "write down ah. he tell me in confidence one",
            ),
            ("assistant", "2031-04-12T11:01:00Z", "Well done Ren! I've dropped it."),
        ],
    )
    assert "retrench" not in text and "Haruto" not in text
    assert "swimming" in text
