"""Supersession's further types: a status that ends a line (a debt paid, a task done, a plan
called off or fallen through), a role passed to someone else, an end of a range of times, a
count of things, a value taken back as it is said, and a line for each clause of a statement
that changes several; each with its guards (another person, a question, a condition, a
state said not to hold, two lines that could be meant)."""

from __future__ import annotations

from datetime import date

import pytest

from doctree.agent.offline import supersession
from tests.agent.offline_runs import current_facts, past_facts, run, transcript


def replaced(text: str, line: str) -> tuple[str, str] | None:
    """(the old value as the line says it, the new value as `text` says it), or None."""
    reps = supersession.replacements(text, line, said_on=date(2031, 3, 1))
    rep = supersession.choose({line: reps}) if reps else None
    if rep is None:
        return None
    return line[rep.old.start : rep.old.end], text[rep.new.start : rep.new.end]


# --- a range of times: each end its own value


@pytest.mark.parametrize(
    ("text", "line", "values"),
    [
        ("The lido closes at 8pm now.", "The lido is open 6:30am to 9pm every day.", ("9pm", "8pm")),
        ("The Harbour Deli now opens at 8am.", "The Harbour Deli: open 9am-4pm daily.",
         ("9am", "8am")),
        ("The surgery now shuts at 18:00.", "The surgery is open from 8am until 6:30pm.",
         ("6:30pm", "18:00")),
        ("The crèche finishes at 3pm now.", "The crèche runs 9am to 4pm on weekdays.",
         ("4pm", "3pm")),
        ("I rang the garage: on Saturdays they shut at noon now.",
         "Pellow's garage is open Monday to Saturday, 8:00 to 17:30.", ("17:30", "noon")),
    ],
)  # fmt: skip
def test_a_later_end_of_a_range_replaces_that_end(text, line, values):
    assert replaced(text, line) == values


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("The library now opens at 10am.", "The library closes at 7pm."),  # the other end
        ("Is the lido still open till 9pm?", "The lido is open 6:30am to 9pm every day."),
        ("The lido closed at 8pm last year.", "The lido is open 6:30am to 9pm every day."),
    ],
)
def test_an_end_of_a_range_replaces_nothing_it_is_not(text, line):
    assert replaced(text, line) is None


def test_an_end_said_of_one_day_is_not_edited_into_a_range_of_all_days():
    line = "Pellow's garage is open Monday to Saturday, 8:00 to 17:30."
    text = "I rang the garage: on Saturdays they shut at noon now."
    rep = supersession.choose({line: supersession.replacements(text, line)})
    assert rep is not None
    # "Monday to Saturday, 8:00 to 12:00" would be a fact nobody said: the line goes whole
    assert supersession.edit(line, rep, text) is None
    # a range edited where the statement says nothing narrower
    lido = "The lido is open 6:30am to 9pm every day."
    rep = supersession.choose(
        {lido: supersession.replacements("The lido closes at 8pm now.", lido)}
    )
    assert rep is not None
    assert supersession.edit(lido, rep, "The lido closes at 8pm now.") == (
        "The lido is open 6:30am to 8pm every day."
    )


# --- a count of things: what it counts is its thing


@pytest.mark.parametrize(
    ("text", "line", "values"),
    [
        ("We're up to 52 guests now.", "Mum wants the lemon cake, and we're at 46 guests so far.",
         ("46 guests", "52 guests")),
        ("We now need 3 rooms.", "The hotel hold is 2 rooms for the reunion.", ("2 rooms", "3 rooms")),
        ("Dr Amin upped it to 3 tablets a day.",
         "Take 2 tablets a day of the ibuprofen, says Dr Amin.", ("2 tablets", "3 tablets")),
        ("It's 4 sessions now.", "The course is 6 sessions with Kemi.", ("6 sessions", "4 sessions")),
        ("Useful bit: we're down to 30 seats now, and the caterer wants a deposit.",
         "The hall hire is confirmed, and we have 36 seats so far.", ("36 seats", "30 seats")),
    ],
)  # fmt: skip
def test_a_count_said_again_replaces_the_count_of_the_same_things(text, line, values):
    assert replaced(text, line) == values


@pytest.mark.parametrize(
    ("text", "line", "values"),
    [
        # a count no unit names: the thing it counts is its kind
        ("So 9 jars of the damson left, not 14.", "Damson chutney: 14 jars, made in October.",
         ("14 jars", "9 jars")),
        ("We're down to 3 boxes of the Dunmore-Ashby prints now.",
         "Dunmore-Ashby prints in the loft: 5 boxes.", ("5 boxes", "3 boxes")),
    ],
)  # fmt: skip
def test_a_count_of_things_no_unit_names_replaces_the_count_of_the_same(text, line, values):
    assert replaced(text, line) == values


@pytest.mark.parametrize(
    ("text", "line"),
    [
        # only what is counted is shared: another thing of the same kind
        ("Now 4 bottles of white left.", "We have 6 bottles of red."),
        # no word of change and no old value named
        ("I made 12 jars of chutney today.", "We have 6 jars of jam."),
        # a plural that counts nothing of its own
        ("The Ashby prints moved 3 times now.", "The Ashby prints: 5 times framed."),
    ],
)
def test_a_count_of_another_thing_no_unit_names_replaces_nothing(text, line):
    assert replaced(text, line) is None


def test_a_count_without_a_word_of_change_is_of_another_thing():
    assert (
        replaced("The Friday dinner is for 12 people.", "The Saturday lunch is for 8 people.")
        is None
    )


def test_of_two_lines_counting_the_same_things_neither_is_chosen():
    text = "We're up to 52 guests now."
    lines = ["The wedding is 40 guests.", "The christening is at 30 guests so far."]
    found = {ln: supersession.replacements(text, ln) for ln in lines}
    assert all(found.values())
    assert supersession.chosen(found) == []


# --- a value taken back as it is said


@pytest.mark.parametrize(
    ("text", "line", "values"),
    [
        ("The fencing quote is now £300, sorry, £320.", "The fencing quote is £280.",
         ("£280", "£320")),
        ("The ferry now leaves at 7:10 — no, 7:20.", "The ferry leaves at 8:00.", ("8:00", "7:20")),
        ("Our dinner booking is now 8, I mean 9 people.",
         "Our dinner booking at Lupo is for 6 people.", ("6 people", "9 people")),
        ("The dose went up to 20 mg, no wait, 25 mg.", "The dose of sertraline is 15 mg.",
         ("15 mg", "25 mg")),
        ("The bus now goes at 6:40, make that 6:45.", "The school bus goes at 7:05.",
         ("7:05", "6:45")),
    ],
)  # fmt: skip
def test_a_value_taken_back_as_it_is_said_is_not_the_new_one(text, line, values):
    assert replaced(text, line) == values


# --- a line for each clause


def test_a_statement_changing_two_things_replaces_the_line_of_each():
    text = (
        "Two changes: the tutor is moving Leo's violin to Thursdays at 16:00, and Bram has put"
        " the gutter clearing up to £45."
    )
    lines = [
        "Leo's violin: every Monday at 17:15 with Ms Petit.",
        "Gutters: Bram clears them twice a year, £40 a time.",
    ]
    reps = supersession.chosen({ln: supersession.replacements(text, ln) for ln in lines})
    assert sorted(r.line for r in reps) == sorted(lines)


def test_one_clause_that_could_mean_two_lines_still_replaces_neither():
    text = "The appointment moved to the 19th (2031-03-19), and the plumber is up to £90 now."
    lines = [
        "Eye test appointment on the 12th (2031-03-12).",
        "Bank appointment on the 14th (2031-03-14).",
        "The plumber charges £80 an hour.",
    ]
    reps = supersession.chosen({ln: supersession.replacements(text, ln) for ln in lines})
    assert [r.line for r in reps] == [lines[2]]


# --- a status: what a later statement ends


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("Marta paid me back btw", "Marta owes the user £25 for the concert tickets"),
        ("Renew the car tax £190 (done)", "Renew the car tax £190 (urgent)"),
        ("Jonas settled up for the taxi yesterday", "Jonas owes me £18 for the taxi"),
        ("Rain all week, so Sunday's (2031-03-16) barbecue is off.",
         "Barbecue at Ayo's on Sunday (2031-03-16) from 2pm."),
        ("Ola can't give us a lift to the station after all, so we're getting a cab.",
         "Ola says she'll give us a lift to the station on Friday."),
        ("The Thursday (2031-03-13) quiz is cancelled, the pub flooded.",
         "Quiz night at the Anchor on Thursday (2031-03-13), team of four."),
        ("The loft clearance fell through, the van hire has been called off.",
         "The loft clearance is booked with Hatch & Co for the 20th (2031-03-20)."),
    ],
)  # fmt: skip
def test_a_status_that_ends_what_a_line_said(text, line):
    assert supersession.ends(text, line)


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("Kit paid me back", "Marta owes me £25 for the concert tickets"),  # someone else
        ("Marta hasn't paid me back yet", "Marta owes me £25 for the concert tickets"),
        ("Has Marta paid you back?", "Marta owes me £25 for the concert tickets"),
        ("If the barbecue is off I'll go swimming.", "Barbecue at Ayo's on Sunday (2031-03-16)."),
        ("The barbecue is still on, not cancelled.", "Barbecue at Ayo's on Sunday (2031-03-16)."),
        ("Marta paid me back", "Marta's £25 for the tickets is paid"),  # said already
        ("Marta paid me back", "Marta lives in Leeds with her sister"),  # no debt of hers
        # "off to" is a going, not a calling off
        ("Sam's off to Leeds on Friday (2031-03-14).", "Sam is moving to Leeds on Friday (2031-03-14)."),
    ],
)  # fmt: skip
def test_a_status_ends_nothing_it_does_not_name_or_does_not_say(text, line):
    assert not supersession.ends(text, line)


def test_a_debt_paid_in_a_later_session_moves_the_debt_under_past(repo):
    run(
        repo,
        transcript(
            "s-st-1",
            ("user", "2031-05-02T18:00:00Z", "Remember that Tobiah owes me £60 for the festival tickets."),
        ),
    )  # fmt: skip
    run(repo, transcript("s-st-2", ("user", "2031-05-09T18:00:00Z", "Tobiah paid me back btw")))
    now, past = current_facts(repo), past_facts(repo)
    assert not any("owes" in ln for ln in now.splitlines()), now
    assert "owes" in past, past


def test_a_plan_fallen_through_in_a_later_session_leaves_only_what_replaced_it(repo):
    run(
        repo,
        transcript(
            "s-st-3",
            ("user", "2031-05-02T18:00:00Z",
             "I was going to book a taxi but my neighbour Wendell says he'll drive us."),
        ),
    )  # fmt: skip
    run(
        repo,
        transcript(
            "s-st-4",
            ("user", "2031-05-09T18:00:00Z",
             "Wendell can't drive us to the ferry after all, he's on nights, so I've booked a cab."),
        ),
    )  # fmt: skip
    now, past = current_facts(repo), past_facts(repo)
    drive = [ln for ln in now.splitlines() if "drive" in ln]
    assert drive and all("can't" in ln for ln in drive), now
    assert "he'll drive" in past, past


# --- a role passed to someone else


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("Ilse is moving to support, so Arjun Mehta is the QA lead now.",
         "Ilse Brandt: QA lead, from the Vienna office."),
        ("Tom takes over as site manager from Monday.",
         "Gary is the site manager at the Elm Road build."),
        ("The treasurer is now Lidia Novak.", "Our treasurer is Pat Doyle, who does the accounts."),
        ("Hana is our new product owner.", "Marek is the product owner for the billing app."),
        ("Priya replaces Sam as on-call engineer this week.", "Sam is the on-call engineer."),
        # the user's own, as said and as a page writes it
        ("Priyanka left, my new manager is Tomasz.", "The user's manager is Priyanka."),
        ("The user's new mentor is Dagny.", "My mentor is Ebbe."),
        # the new one named after the role
        ("We have a new landlord now, Mrs Okafor.", "Our landlord is Mr Patel."),
        # a role someone named or a kin word owns, a worker's role
        ("Dad's support worker is now Efe Lawal.", "The user's dad's support worker is Ines Roca."),
        ("Ines Roca is leaving, so Efe Lawal is Dad's support worker now.",
         "Found by the assistant and accepted by the user: Ines Roca: the user's dad's support "
         "worker at the day centre."),
    ],
)  # fmt: skip
def test_a_role_passed_to_someone_else_replaces_the_line_that_gave_it(text, line):
    assert supersession.takes_role(text, line)


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("Is Arjun the QA lead now?", "Ilse Brandt: QA lead, from the Vienna office."),
        ("Arjun was the QA lead before Ilse.", "Ilse Brandt: QA lead, from the Vienna office."),
        ("Jo is a designer now.", "Mia is the designer on the app."),  # one of several
        ("Arjun is the QA lead.", "Ilse Brandt: QA lead, from the Vienna office."),  # no change
        ("Tom is the site manager now.", "Gary is the QA lead."),  # another role
        ("Gary is the site manager now.", "Gary is the site manager at the Elm Road build."),
        # someone else's role of the same name
        ("Noor says her new manager is Tomasz.", "The user's manager is Priyanka."),
        ("The new manager is Tomasz.", "The user's manager is Priyanka."),
        ("My new manager is Tomasz.", "His manager is Priyanka."),
        ("Her new landlord, Mr Ito, is lovely.", "Our landlord is Mr Patel."),
        # another one's role of the same name
        ("Gran's support worker is now Efe Lawal.", "The user's dad's support worker is Ines Roca."),
        ("Dad's support worker is now Efe Lawal.", "My support worker is Ines Roca."),
        ("Ana is a hard worker now.", "Ines Roca is the youth worker at the club."),
    ],
)  # fmt: skip
def test_a_role_replaces_nothing_it_does_not_pass(text, line):
    assert not supersession.takes_role(text, line)


def test_a_role_passed_in_a_later_session_leaves_the_old_holder_out_of_it(repo):
    run(
        repo,
        transcript(
            "s-role-1",
            ("user", "2031-05-02T18:00:00Z", "New project, Larkspur. The team:\n\n"
             "- Ilse Brandt: QA lead, from the Vienna office.\n"
             "- Arjun Mehta: backend developer."),
        ),
    )  # fmt: skip
    run(
        repo,
        transcript(
            "s-role-2",
            ("user", "2031-05-20T18:00:00Z",
             "Reshuffle on Larkspur. Ilse is moving to support, so Arjun Mehta is the QA lead now."),
        ),
    )  # fmt: skip
    now, past = current_facts(repo), past_facts(repo)
    assert not any(
        "Ilse" in ln and "QA lead" in ln and "Arjun" not in ln for ln in now.splitlines()
    ), now
    assert "Ilse Brandt: QA lead" in past, past


def test_a_role_passed_leaves_every_line_that_named_the_old_holder_in_it(repo):
    run(
        repo,
        transcript(
            "s-kw-1",
            ("user", "2031-05-02T18:00:00Z",
             "Dad's support worker is Ines Roca, she does mornings at the day centre."),
            ("assistant", "2031-05-02T18:01:00Z",
             "Noted:\n- Ines Roca: your dad's support worker at the day centre, mornings."),
            ("user", "2031-05-02T18:02:00Z", "Yes, that's her."),
        ),
    )  # fmt: skip
    run(
        repo,
        transcript(
            "s-kw-2",
            ("user", "2031-05-23T18:00:00Z",
             "Ines has moved to another centre, so Dad's support worker is now Efe Lawal."),
        ),
    )  # fmt: skip
    now = current_facts(repo)
    assert not any(
        "Ines" in ln and "support worker" in ln and "Efe" not in ln and "moved" not in ln
        for ln in now.splitlines()
    ), now
    assert "Efe Lawal" in now, now


def test_a_role_passed_leaves_a_line_of_another_holder_current(repo):
    run(
        repo,
        transcript(
            "s-kw-1",
            ("user", "2031-05-02T18:00:00Z", "Dad's support worker is Ines Roca."),
            ("user", "2031-05-02T18:03:00Z", "Gran's support worker is Bo Lund."),
        ),
    )  # fmt: skip
    run(
        repo,
        transcript(
            "s-kw-2",
            ("user", "2031-05-23T18:00:00Z", "Dad's support worker is now Efe Lawal."),
        ),
    )  # fmt: skip
    now = current_facts(repo)
    assert "Bo Lund" in now, now


# --- a value swapped "from A to B" is of the one moved


def test_a_value_swapped_for_the_one_moved_is_edited_on_that_line(repo):
    run(
        repo,
        transcript(
            "s-sw-1",
            ("user", "2031-05-02T18:00:00Z", "I play centre back for the Harriers, Sunday league."),
        ),
    )
    run(
        repo,
        transcript(
            "s-sw-2",
            ("user", "2031-05-09T18:00:00Z",
             "Ruth got injured so Callum has moved me from centre back to left wing until she's fit."),
        ),
    )  # fmt: skip
    now, past = current_facts(repo), past_facts(repo)
    assert "centre back for the Harriers" in past, past
    assert "left wing for the Harriers" in now, now


def test_a_date_followed_by_a_note_in_brackets_still_gets_its_day(repo):
    # a bracket after a date that holds no date ("(same place, same time)") is a note, not
    # the date already said: without the day, a moved date would not be read as moved
    run(
        repo,
        transcript(
            "s-br-1",
            ("user", "2031-09-10T18:00:00Z",
             "The kayak course moved to Tuesday 7 October (same place, same time)."
             " The tasting is on 12 October (bring a plus-one)."
             " Nell's party is on Saturday 18 October (her flat)."),
        ),
    )  # fmt: skip
    now = current_facts(repo)
    for day in ("2031-10-07", "2031-10-12", "2031-10-18"):
        assert f"({day})" in now, now


def test_within_a_session_it_is_the_thing_of_the_sentence_just_before():
    earlier = ["As I said before, the boiler service was booked for the 12th (2031-03-12)."]
    text = "The engineer is ill, so it's now Thursday the 20th (2031-03-20) instead."
    assert supersession.replaced_earlier(text, earlier) == 0
    # a thing named in the clause of the new value is its own
    other = "The engineer is ill, so the gas check is now the 20th (2031-03-20) instead."
    assert supersession.replaced_earlier(other, earlier) is None


def test_a_value_retold_then_changed_in_a_later_session_leaves_neither_old_day_current(repo):
    run(
        repo,
        transcript(
            "s-rt-1",
            ("user", "2031-03-02T18:00:00Z",
             "The van has its service at Corrie's Garage on Wednesday 12 March, 9am drop-off."),
        ),
    )  # fmt: skip
    run(
        repo,
        transcript(
            "s-rt-2",
            ("user", "2031-03-05T18:00:00Z",
             "Like I said, the van service was booked at Corrie's for the 12th. They phoned,"
             " a lift is broken, so it's now Wednesday the 19th instead, same 9am."),
        ),
    )  # fmt: skip
    now = current_facts(repo)
    assert "2031-03-19" in now, now
    assert "2031-03-12" not in now, now


def test_what_a_sentence_replaced_in_the_session_ended_stays_ended(repo):
    run(
        repo,
        transcript(
            "s-en-1",
            ("user", "2031-03-02T18:00:00Z", "Can you read the club's sheet?"),
            ("tool_call", "2031-03-02T18:00:04Z",
             {"id": "t1", "name": "sheets_read", "input": {"sheet": "club", "format": "csv"}}),
            ("tool_result", "2031-03-02T18:00:05Z",
             {"tool_use_id": "t1", "is_error": False, "content":
              "date,time,venue\n2031-03-13,19:00,Brook Street hall\n"
              "2031-03-20,19:00,Brook Street hall\n"}),
            ("assistant", "2031-03-02T18:00:10Z", "Two sessions at Brook Street hall, 13 and 20 March."),
            ("user", "2031-03-02T18:01:00Z", "Great, thanks."),
        ),
    )  # fmt: skip
    run(
        repo,
        transcript(
            "s-en-2",
            ("user", "2031-03-10T18:00:00Z",
             "Brook Street hall has no heating, so Thursday's session is off."
             " We're doing Saturday morning instead, at the library."),
        ),
    )  # fmt: skip
    now = current_facts(repo)
    assert not any("2031-03-13" in ln and "off" not in ln for ln in now.splitlines()), now


@pytest.mark.parametrize(
    ("text", "line", "old", "new"),
    [
        (
            "The plumber Rhys has a new number, 07700 900611.",
            "The plumber is Rhys Vaughan, 07700 900134",
            "07700900134",
            "07700900611",
        ),
        (
            "Gran's got a new landline: 0161 496 0732.",
            "Gran's landline is 0161 496 0551.",
            "01614960551",
            "01614960732",
        ),
        (
            "My mobile number has changed to +44 7700 900876.",
            "The user's mobile number is +44 7700 900223.",
            "447700900223",
            "447700900876",
        ),
    ],
)
def test_a_new_telephone_number_replaces_the_old_one(text, line, old, new):
    found = supersession.replacements(text, line)
    assert [(r.old.norm, r.new.norm) for r in found] == [(old, new)]


@pytest.mark.parametrize(
    ("text", "line"),
    [
        # another person's number
        ("Dana has a new number, 07700 900611.", "The plumber is Rhys Vaughan, 07700 900134"),
        # a number said again with no word of change, of another thing
        ("The vet's number is 01632 960123.", "The plumber is Rhys Vaughan, 07700 900134"),
        # a date or a time is no telephone number
        ("The plumber moved it to 2031-06-14.", "The plumber is Rhys Vaughan, 07700 900134"),
    ],
)
def test_a_telephone_number_of_another_or_no_number_replaces_nothing(text, line):
    assert supersession.replacements(text, line) == []


def test_a_telephone_number_is_one_value_a_date_a_time_or_a_card_is_not():
    assert [v.kind for v in supersession.values("ring 07700 900134 after 6pm")] == [
        "phone",
        "time",
    ]
    assert [v.kind for v in supersession.values("due 2031-06-14 at 09:30")] == ["date", "time"]
    assert "phone" not in [v.kind for v in supersession.values("card 6280 0019 4471 2203")]


@pytest.mark.parametrize(
    ("later", "line"),
    [
        (
            "Dana Whitlow has taken over from Piet Vos as our accountant.",
            "Piet Vos is our accountant.",
        ),
        ("Ruth Okafor is now acting as registrar for the wedding.", "Hal Jones is the registrar."),
        (
            "Bo Lind takes over from Mia Sand as surveyor next week.",
            "Mia Sand is acting as surveyor.",
        ),
    ],
)
def test_a_role_taken_over_from_someone_or_acted_in_passes(later, line):
    assert supersession.takes_role(later, line)


@pytest.mark.parametrize(
    ("later", "passes"),
    [
        ("Tomasz has flu, so Greta from number 9 is feeding Biscuit now.", True),
        ("Greta is feeding Biscuit instead while Tomasz is away.", True),
        ("Greta is feeding Biscuit too now.", False),  # joins in: both do it
        ("Tomasz is feeding Biscuit now.", False),  # the same doer
        ("Greta is walking Biscuit now.", False),  # another task
        ("Is Greta feeding Biscuit now?", False),
    ],
)
def test_a_task_passed_to_someone_else(later, passes):
    line = "Tomasz next door is feeding Biscuit while the user is gone."
    assert supersession.passes_task(later, line) is passes


def test_a_task_passed_in_a_later_session_replaces_the_line(repo):
    run(
        repo,
        transcript(
            "s-1",
            ("user", "2028-03-01T09:00:00Z", "Tomasz next door is feeding Biscuit while I'm gone."),
        ),
    )
    run(
        repo,
        transcript(
            "s-2",
            ("user", "2028-03-05T09:00:00Z", "Tomasz has flu, so Greta is feeding Biscuit now."),
            ("assistant", "2028-03-05T09:01:00Z", "Sorry to hear that."),
        ),
    )
    assert "Tomasz next door" not in current_facts(repo)
    assert "Tomasz next door" in past_facts(repo)
