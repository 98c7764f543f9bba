"""A code given after an aside in brackets, a request not to keep "the … code", a line
holding a code held back reached by that request, military date-time groups, and an old
value given in brackets after the new: what the offline agent and the secret scanner do."""

from __future__ import annotations

from doctree.agent.offline import language as lang
from doctree.agent.offline.blocks import dtg_read, is_prose_line
from doctree.agent.offline.forms import said_forms
from doctree.agent.offline.supersession import replacements
from doctree.store.documents import DocumentsRepository
from doctree.store.secrets import mask_text
from tests.agent.offline_runs import current_facts, run, transcript
from tests.memory.stored_bytes import stored_bytes

# -- a code after an aside in brackets ---------------------------------------------------


def test_a_locks_code_after_an_aside_in_brackets_is_masked():
    assert "5086" not in mask_text("7. Side gate keypad (weekends only): 5086#")
    assert "7720" not in mask_text("Shed padlock (the green one): 7720")
    assert "3391" not in mask_text("Bike shed code (after dark): 3391")


def test_a_figure_after_an_aside_that_is_no_code_stays():
    for text in (
        "Boarding gate (terminal 2): 1045",
        "The gate (the blue one) is 1920s iron",
        "Safe (in the office): 2000 euros",
    ):
        assert mask_text(text) == text


def test_the_code_after_an_aside_never_reaches_the_database_file(tmp_path):
    stored = stored_bytes(
        tmp_path, ["Site gate keypad (out of hours): 6618#"], "~/memory/notes/site", "s-gate"
    )
    assert b"6618" not in stored


# -- "don't keep the … code" ---------------------------------------------------------------


def test_not_keeping_the_code_of_something_is_a_request_to_forget_it():
    assert lang.forget_request("Fair enough, don't keep the keypad code.") == (
        True,
        "the keypad code",
    )
    assert lang.forget_request("Please don't store that PIN.") == (True, "that PIN")


def test_a_habit_of_keeping_or_an_errand_is_no_request():
    assert lang.forget_request("I don't keep the spare key at home.") is None
    assert lang.forget_request("Don't keep the receipts in the drawer.") is None
    assert lang.forget_request("don't save the seat") is None


def test_a_code_held_back_is_still_a_code_said():
    assert "code" in said_forms("Side gate keypad: [secret: pin]")
    assert said_forms("Side gate keypad") == "Side gate keypad"


def test_not_keeping_the_code_removes_the_line_that_gave_it(tmp_path):
    with DocumentsRepository(tmp_path / "m.db") as repo:
        run(
            repo,
            transcript(
                "s-code",
                (
                    "user",
                    "2031-05-01T09:00:00Z",
                    "The site notes:\n\n```\n1. Parking in bay 14.\n"
                    "2. Side gate keypad (weekends only): 5086#\n```",
                ),
                ("assistant", "2031-05-01T09:01:00Z", "Parking is in bay 14."),
                ("user", "2031-05-01T09:02:00Z", "Good, and don't keep the keypad code."),
                ("assistant", "2031-05-01T09:03:00Z", "Understood."),
            ),
        )
        facts = current_facts(repo)
    assert "keypad" not in facts
    assert "bay 14" in facts


# -- date-time groups ----------------------------------------------------------------------


def test_a_date_time_group_is_written_out_as_its_day_and_time():
    assert dtg_read("RV NLT 071930ZMAR31 at the gate.") == "RV NLT 7 March 2031 19:30Z at the gate."
    assert dtg_read("ENDEX 121200Z APR 2031") == "ENDEX 12 April 2031 12:00Z"


def test_what_only_looks_like_a_date_time_group_stays():
    for text in ("order 123456 JUNK", "991800ZJUN39", "312500ZJAN31", "ref 041800Z"):
        assert dtg_read(text) == text


def test_a_line_of_date_time_groups_written_out_reads_as_prose():
    assert is_prose_line("Para 2: Coach RV Lime St 5 June 2039 15:00Z.")


def test_an_amended_date_time_group_replaces_the_old_day(tmp_path):
    with DocumentsRepository(tmp_path / "m.db") as repo:
        run(
            repo,
            transcript(
                "s-dtg-1",
                (
                    "user",
                    "2031-03-01T10:00:00Z",
                    "Orders:\n\n```\n1. REPORT: NLT 101800ZMAR31 to the guardroom, Fort Elm.\n"
                    "2. ENDEX: 141200ZMAR31.\n```",
                ),
                ("assistant", "2031-03-01T10:01:00Z", "You report by 10 March."),
            ),
        )
        run(
            repo,
            transcript(
                "s-dtg-2",
                (
                    "user",
                    "2031-03-04T10:00:00Z",
                    "Amendment:\n\n```\nPara 1: REPORT NLT 111800ZMAR31 (was 101800Z).\n```",
                ),
                ("assistant", "2031-03-04T10:01:00Z", "A day later then."),
            ),
        )
        facts = current_facts(repo)
    assert "2031-03-11" in facts
    assert "2031-03-10" not in facts


# -- an old value in brackets after the new -----------------------------------------------


def test_an_old_value_in_brackets_after_the_new_is_a_change():
    old = "The choir rehearsal is at 18:30 in the hall."
    new = "Choir rehearsal at 19:15 (was 18:30)."
    assert replacements(new, old)


def test_a_value_told_as_history_outside_brackets_replaces_nothing():
    old = "The choir rehearsal is at 18:30 in the hall."
    assert not replacements("The choir rehearsal was at 19:15 last year.", old)


# -- a date counted in months and days of another calendar ---------------------------------


def test_an_ordinal_month_or_day_is_no_day_of_a_month():
    from datetime import date

    from doctree.agent.offline.resolve import resolve_relative

    said_on = date(2031, 1, 10)
    for text in (
        "Grandpa's birthday is the 5th month, 9th day.",
        "It's the 7th month **14th** day by the old calendar.",
        "On the 2nd day of the trek we cross the pass.",
    ):
        assert resolve_relative(text, said_on)[1] == [], text
    assert resolve_relative("See you on the 12th.", said_on)[1] != []


# -- what the user asked the assistant to work out -----------------------------------------

WORKED_OUT = [
    (
        "user",
        "2031-01-10T10:00:00Z",
        "Nan keeps her birthday on the old calendar, the 2nd month, 20th day. "
        "Can you work out when that is this year?",
    ),
    (
        "assistant",
        "2031-01-10T10:01:00Z",
        "I converted it:\n\n"
        "```\nconvert(year=2031, lunar='02-20') -> {'gregorian': '2031-04-01'}\n```\n\n"
        "- Nan (Ilse Marr) celebrates on 1 April 2031.",
    ),
]


def test_a_plain_yes_to_what_the_user_asked_to_work_out_keeps_it(tmp_path):
    facts = _facts_of(
        tmp_path,
        [
            *WORKED_OUT,
            ("user", "2031-01-10T10:02:00Z", "Perfect."),
            ("assistant", "2031-01-10T10:03:00Z", "Glad to help."),
        ],
    )
    assert "2031-04-01" in facts


def test_a_no_to_what_the_user_asked_to_work_out_keeps_nothing(tmp_path):
    facts = _facts_of(
        tmp_path,
        [
            *WORKED_OUT,
            ("user", "2031-01-10T10:02:00Z", "No, that's wrong."),
            ("assistant", "2031-01-10T10:03:00Z", "Sorry."),
        ],
    )
    assert "2031-04-01" not in facts


def test_a_session_ending_on_what_the_user_asked_to_work_out_again_keeps_it(tmp_path):
    with DocumentsRepository(tmp_path / "m.db") as repo:
        run(
            repo,
            transcript(
                "s-w-1",
                *WORKED_OUT,
                ("user", "2031-01-10T10:02:00Z", "Perfect."),
                ("assistant", "2031-01-10T10:03:00Z", "Glad to help."),
            ),
        )
        run(
            repo,
            transcript(
                "s-w-2",
                (
                    "user",
                    "2031-01-20T10:00:00Z",
                    "Nan says it's the 2nd month 22nd day, not the 20th. Can you redo it?",
                ),
                (
                    "assistant",
                    "2031-01-20T10:01:00Z",
                    "Nan's birthday this year is 3 April 2031, not 1 April.",
                ),
            ),
        )
        facts = current_facts(repo)
    assert "2031-04-03" in facts
    assert "celebrates on 1 April" not in facts
    assert "the 20th (2031" not in facts  # the old calendar's day, no date


def _facts_of(tmp_path, messages) -> str:
    with DocumentsRepository(tmp_path / "m.db") as repo:
        run(repo, transcript("s-w", *messages))
        return current_facts(repo)


def test_a_name_with_an_aside_in_brackets_before_its_verb_has_a_verb():
    assert lang.has_verb("Gran (Edith Marr) turns 90 on 4 May.")


# -- a day of a week numbered as ISO does ----------------------------------------------------


def test_a_weekday_of_an_iso_week_is_that_day():
    from datetime import date

    from doctree.agent.offline.resolve import resolve_relative

    said_on = date(2031, 3, 20)
    text, said = resolve_relative("Parents' evening is the Tuesday of W16.", said_on)
    assert "(2031-04-15)" in text and said
    text, _ = resolve_relative("Audit on the Friday in week 2031-W20.", said_on)
    assert "(2031-05-16)" in text
    # a week the year does not have is no day
    assert resolve_relative("the Monday of W53", said_on)[1] == []


def test_a_sentence_after_a_list_that_says_what_the_list_does_not_is_a_recap(tmp_path):
    facts = _facts_of(
        tmp_path,
        [
            (
                "user",
                "2031-03-20T09:00:00Z",
                "New rota, can you work out the dates?\n\n```\n2031-W16  EARLIES\n"
                "2031-W17  LATES\nLead: B. Osei  ext 7731\n```\nThat's Bola.",
            ),
            (
                "assistant",
                "2031-03-20T09:01:00Z",
                "Using ISO weeks:\n\n- W16 earlies: 14 to 18 April 2031.\n"
                "- W17 lates: 21 to 25 April 2031.\n\nYour lead is Bola Osei, extension 7731.",
            ),
        ],
    )
    assert "Bola Osei" in facts and "7731" in facts


def test_a_weekday_of_an_iso_week_said_in_words_is_that_day():
    from datetime import date

    from doctree.agent.offline.resolve import resolve_relative

    text, _ = resolve_relative("I present on the Thursday of ISO week 15.", date(2031, 11, 10))
    assert "(2032-04-08)" in text


def test_a_weekday_the_reply_dates_weeks_away_is_left_undated(tmp_path):
    facts = _facts_of(
        tmp_path,
        [
            (
                "user",
                "2031-09-01T09:00:00Z",
                "Draft for the invite: join us at the Harbour Rooms, Saturday at seven, "
                "bring a plate! The facts: Odile Brun's farewell is Saturday the 27th of "
                "September at the Harbour Rooms.",
            ),
            (
                "assistant",
                "2031-09-01T09:01:00Z",
                "Odile Brun's farewell is on Saturday 27 September 2031 at 7 p.m. at the "
                "Harbour Rooms.",
            ),
            ("user", "2031-09-01T09:02:00Z", "Thanks."),
        ],
    )
    assert "2031-09-27" in facts
    assert "2031-09-06" not in facts  # the coming Saturday, which the invite does not mean
