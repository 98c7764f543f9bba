"""A later value for the same thing replaces the old one (`supersession`): a date, a time, an
amount, a percentage, a quantity or a recurring day said again for the thing a current line
gives it for, in other words too; never when two things could be meant, nor for a question,
a value said to hold still, one told as history or an amount added."""

from __future__ import annotations

from datetime import date

import pytest

from doctree.agent.offline import supersession
from tests.agent.offline_runs import current_facts, past_facts, run, transcript


def replaced(text: str, line: str, before: str = "") -> tuple[str, str] | None:
    """(the old value as the line says it, the new value as `text` says it), or None."""
    reps = supersession.replacements(text, line, before=before, said_on=date(2031, 3, 1))
    rep = supersession.choose({line: reps}) if reps else None
    if rep is None:
        return None
    return line[rep.old.start : rep.old.end], text[rep.new.start : rep.new.end]


@pytest.mark.parametrize(
    ("text", "line", "before", "values"),
    [
        # a date
        (
            "The piano recital moved to Friday 14 March (2031-03-14).",
            "The piano recital is on Saturday 8 March (2031-03-08).",
            "",
            ("2031-03-08", "2031-03-14"),
        ),
        (
            "The recitals are pushed back to the 21st (2031-03-21).",
            "Piano recital on 8 March (2031-03-08) at the town hall.",
            "",
            ("2031-03-08", "2031-03-21"),
        ),
        (
            "So it's now the 21st (2031-03-21) instead.",
            "The kennel booking for Biscuit starts on 8 March (2031-03-08).",
            "The kennel rang about Biscuit's booking.",
            ("2031-03-08", "2031-03-21"),
        ),
        (
            "Warehouse handover slips a week, to the 15th (2031-03-15).",
            "The warehouse handover is the 8th (2031-03-08), no later.",
            "",
            ("2031-03-08", "2031-03-15"),
        ),
        (
            "The landlord's inspection is on 2 April (2031-04-02) now.",
            "Landlord's inspection: 26 March (2031-03-26).",
            "",
            ("2031-03-26", "2031-04-02"),
        ),
        # a time of day
        (
            "Swim club starts at 6:15pm from now on.",
            "Swim club starts at 7pm on weekdays.",
            "",
            ("7pm", "6:15pm"),
        ),
        (
            "They brought the ferry check-in forward to 07:10.",
            "Ferry check-in closes at 07:40.",
            "",
            ("07:40", "07:10"),
        ),
        (
            "Moved the backup job from 01:00 to 04:30.",
            "The backup job runs at 01:00 nightly.",
            "",
            ("01:00", "04:30"),
        ),
        (
            "The bakery shuts at 2pm now.",
            "The bakery on Elm Street shuts at 5pm.",
            "",
            ("5pm", "2pm"),
        ),
        (
            "Actually the yoga class is at 8:30am.",
            "The yoga class is at 9am, bring a mat.",
            "",
            ("9am", "8:30am"),
        ),
        # an amount of money
        (
            "The gardener lowered his price to £35 a visit.",
            "The gardener charges £40 a visit.",
            "",
            ("£40", "£35"),
        ),
        (
            "Great news, the electrician knocked it down to 310 because I'm buying the cable.",
            "The electrician quoted £380 for rewiring the shed.",
            "",
            ("£380", "310"),
        ),
        (
            "Council tax went up to £152 a month.",
            "Council tax is £141 a month.",
            "",
            ("£141", "£152"),
        ),
        (
            "The deposit is now $600.",
            "The rent is $1,900, the deposit $500.",
            "",
            ("$500", "$600"),
        ),
        (
            "Season ticket renewal costs €240 instead.",
            "The season ticket renewal costs €210.",
            "",
            ("€210", "€240"),
        ),
        # a quantity in a unit, a percentage
        (
            "The vet put Pepper's dose up to 10 mg.",
            "Pepper takes 5 mg of meloxicam daily.",
            "",
            ("5 mg", "10 mg"),
        ),
        (
            "The boiler service is due at 12,000 miles rather than the 10,000.",
            "Next boiler service due at 10,000 miles.",
            "",
            ("10,000 miles", "12,000 miles"),
        ),
        (
            "Long run is 18 km this weekend instead.",
            "The long run is 14 km on Sunday.",
            "",
            ("14 km", "18 km"),
        ),
        (
            "The savings rate dropped to 3.1% now.",
            "The savings account rate is 4.2%.",
            "",
            ("4.2%", "3.1%"),
        ),
        (
            "The lease is 24 months instead.",
            "The lease on the van is 12 months.",
            "",
            ("12 months", "24 months"),
        ),
        # a recurring day
        (
            "Choir practice moved to Wednesdays.",
            "Choir practice is on Tuesdays.",
            "",
            ("Tuesdays", "Wednesdays"),
        ),
    ],
)
def test_a_later_value_for_the_same_thing_replaces_the_old_one(text, line, before, values):
    assert replaced(text, line, before) == values


@pytest.mark.parametrize(
    ("text", "line"),
    [
        # two different things
        ("The haircut is at 11am now.", "The physio appointment is at 10am on Friday."),
        ("The deposit is now £600.", "The rent is £1,900 a month."),
        ("Ines's shift is 7am now.", "Marco's shift starts at 9am."),
        # a question, a value said to hold still, one said not to hold
        ("Is the yoga class still at 9am?", "The yoga class is at 10am."),
        ("The yoga class is still at 9am, right", "The yoga class is at 10am."),
        ("The yoga class is not at 8am any more.", "The yoga class is at 10am."),
        # history: a value told of the past is no change
        ("The yoga class was at 8am last year.", "The yoga class is at 10am."),
        ("The gardener used to charge £30.", "The gardener charges £40 a visit."),
        # something done, told twice: two events, not a value changed
        ("We walked 12 km on the coast path.", "We walked 8 km on the coast path."),
        ("Nadia swam 40 lengths at the lido.", "Nadia swam 30 lengths at the lido."),
        # without a word of change, each naming something the other does not: two things
        (
            "The boat survey for the dinghy is on 14 March (2031-03-14).",
            "The boat survey for the ketch is on 12 March (2031-03-12).",
        ),
        # without a word of change, one word in common is no more the same thing
        ("She made an offer: £2,900 after the excess.", "Policy excess: £250."),
        # an amount added, not a value
        ("Add 2.5 kg a week to the deadlift.", "Deadlift 3x5 @ 100 kg."),
        # a value the line states already
        ("The gardener charges £40 from now on.", "The gardener charges £40 a visit."),
        # without a word of change, one word in common is not the same thing
        ("The workshop fee is £90.", "The workshop venue deposit is £50."),
        # a time on a day is no change of the day a line names
        ("On Saturdays they open at 10am now.", "The library is closed Sundays."),
        # a list of values of the type: which one is meant is unknown
        (
            "We're doing Thursday (2031-03-13) instead.",
            "Four Monday (2031-03-03) sessions, then Monday (2031-03-31).",
        ),
    ],
)
def test_nothing_is_replaced_when_the_thing_or_the_change_is_not_clear(text, line):
    assert replaced(text, line) is None


def test_of_two_lines_that_could_be_meant_neither_is_chosen():
    text = "The appointment moved to the 19th (2031-03-19)."
    lines = [
        "Eye test appointment on the 12th (2031-03-12).",
        "Bank appointment on the 14th (2031-03-14).",
    ]
    found = {ln: supersession.replacements(text, ln) for ln in lines}
    assert all(found.values())
    assert supersession.choose(found) is None


def test_of_two_lines_the_one_sharing_more_of_the_thing_is_chosen():
    text = "Ines's early shift is 6am now."
    lines = ["Ines's early shift starts at 7am.", "Marco's early shift starts at 8am."]
    found = {ln: supersession.replacements(text, ln) for ln in lines}
    rep = supersession.choose(found)
    assert rep is not None and rep.line == lines[0]


def test_a_date_edited_in_place_says_the_new_day_in_words_too():
    line = "The van is booked at Ridley's on Tuesday 12 March (2031-03-12), 9am collection."
    text = "Ridley's rang, the van is now Thursday the 20th (2031-03-20) instead."
    rep = supersession.choose({line: supersession.replacements(text, line)})
    assert rep is not None
    edited = supersession.edit(line, rep, text)
    assert edited == (
        "The van is booked at Ridley's on Thursday 20 March (2031-03-20), 9am collection."
    )


def test_within_a_session_a_later_value_needs_a_word_of_change():
    earlier = ["I fly out on Tuesday (2031-03-04) at 11:40.", "The hotel check-in is 3pm."]
    assert (
        supersession.replaced_earlier("Then on Saturday (2031-03-08) I fly home.", earlier) is None
    )
    assert supersession.replaced_earlier("The hotel moved check-in to 5pm.", earlier) == 1


def test_a_value_changed_in_a_later_session_is_edited_in_place_and_the_rest_stays(repo):
    run(
        repo,
        transcript(
            "s-sup-1",
            (
                "user",
                "2031-04-02T18:00:00Z",
                "The window cleaner came round and quoted £120 for the whole house."
                " Also the allotment committee meets on the 20th.",
            ),
        ),
    )
    run(
        repo,
        transcript(
            "s-sup-2",
            (
                "user",
                "2031-04-09T18:00:00Z",
                "Good news, the window cleaner knocked it down to 95 since we only need the front.",
            ),
        ),
    )
    now, past = current_facts(repo), past_facts(repo)
    assert "£95" in now, now
    assert "£120" not in now, now
    assert "£120" in past, past


def test_a_date_moved_in_a_later_session_leaves_no_page_with_the_old_day(repo):
    run(
        repo,
        transcript(
            "s-sup-3",
            (
                "user",
                "2031-06-02T18:00:00Z",
                "The boat survey at Harlow Marine is on Tuesday 17 June, 8am start.",
            ),
        ),
    )
    run(
        repo,
        transcript(
            "s-sup-4",
            (
                "user",
                "2031-06-05T18:00:00Z",
                "Harlow Marine called about the boat survey. A crane is broken, so it's now"
                " Tuesday the 24th instead.",
            ),
        ),
    )
    now, past = current_facts(repo), past_facts(repo)
    assert "2031-06-17" not in now, now
    assert "2031-06-24" in now, now
    assert "2031-06-17" in past, past


def test_two_lines_that_could_be_meant_both_stay_current(repo):
    run(
        repo,
        transcript(
            "s-sup-5",
            (
                "user",
                "2031-06-02T18:00:00Z",
                "Eye test appointment on 12 June. Bank appointment on 14 June.",
            ),
        ),
    )
    run(
        repo,
        transcript(
            "s-sup-6",
            ("user", "2031-06-05T18:00:00Z", "The appointment moved to 19 June."),
        ),
    )
    now = current_facts(repo)
    assert "2031-06-12" in now and "2031-06-14" in now, now


def test_a_value_changed_later_in_the_same_session_leaves_only_the_new_one_current(repo):
    run(
        repo,
        transcript(
            "s-sup-7",
            (
                "user",
                "2031-07-01T09:00:00Z",
                "The bike fitting at Spokeworks is at 10am on Saturday.",
            ),
            ("assistant", "2031-07-01T09:00:30Z", "Noted."),
            (
                "user",
                "2031-07-01T15:00:00Z",
                "Spokeworks texted: they moved the bike fitting to 2pm, same day.",
            ),
        ),
    )
    now, past = current_facts(repo), past_facts(repo)
    assert "2pm" in now, now
    assert "10am" not in now, now
    assert "10am" in past, past


def test_a_value_named_as_replaced_moves_each_line_that_says_it_of_the_same_thing():
    text = "The mechanic wants the next oil change at 9,000 miles rather than the 10,000."
    lines = [
        "The garage has the next oil change down for 10,000 miles or June.",
        "Next oil change: due: 10,000 miles; due date: 2031-06-01.",
    ]
    reps = supersession.chosen({ln: supersession.replacements(text, ln) for ln in lines})
    assert sorted(r.line for r in reps) == sorted(lines)


def test_a_value_named_as_replaced_of_two_things_moves_neither():
    text = "They moved the appointment from 10am to 11am."
    lines = ["Eye test appointment at 10am on Monday.", "Bank appointment at 10am on Monday."]
    found = {ln: supersession.replacements(text, ln) for ln in lines}
    assert all(found.values())
    assert supersession.chosen(found) == []


def test_a_day_named_as_gone_replaces_the_line_that_only_places_it_in_a_series():
    line = "Next one is the 14th (2031-03-14)."
    text = "Orla can't host on the 14th (2031-03-14), so the quiz moves to Friday 21 March (2031-03-21)."
    rep = supersession.choose({line: supersession.replacements(text, line)})
    assert rep is not None
    assert supersession.edit(line, rep, text) == "Next one is Friday 21 March (2031-03-21)."
    # a line that names a thing of its own needs a word of it in common
    other = "The boiler check is the 14th (2031-03-14)."
    assert supersession.choose({other: supersession.replacements(text, other)}) is None


def test_of_two_lines_sharing_the_thing_the_one_that_says_nothing_more_is_chosen():
    text = "The pitch fee is up to £410 now."
    lines = ["Our pitch fee is £380.", "The winter storage pitch fee is £95."]
    rep = supersession.choose({ln: supersession.replacements(text, ln) for ln in lines})
    assert rep is not None and rep.line == lines[0]


@pytest.mark.parametrize(
    ("line", "text"),
    [
        ("Ada's swimming: every Tuesday at 16:30 at the leisure centre.",
         "The coach is moving Ada's swimming to Thursdays at 17:00 from next week."),
        ("The bin collection is at 07:00 on Mondays.",
         "The council moved the bin collection to 06:30 on Fridays."),
        ("The team call is every Wednesday at 09:15.",
         "From now on the team call is at 10:00 on Tuesdays instead."),
    ],
)  # fmt: skip
def test_a_value_is_not_edited_alone_when_the_statement_changes_another_value_too(line, text):
    rep = supersession.choose({line: supersession.replacements(text, line)})
    assert rep is not None, "the line is replaced"
    # edited in place, the old day would stay beside the new time: the line goes whole
    assert supersession.edit(line, rep, text) is None


@pytest.mark.parametrize(
    ("line", "text"),
    [
        ("The vet weighed Biscuit, he was 16.4kg last time.", "Biscuit is 17.1kg now."),
        ("The gym used to be £32 a month, Ana says.", "The gym is £35 a month now."),
        ("Previously the rent was £950, paid on the 1st.", "The rent is £1,000 now."),
    ],
)
def test_a_value_said_to_have_been_so_then_is_never_edited_into_the_new_one(line, text):
    rep = supersession.choose({line: supersession.replacements(text, line)})
    assert rep is not None, "the line is replaced"
    # edited in place, the line would say the new value was so then: the line goes whole
    assert supersession.edit(line, rep, text) is None
