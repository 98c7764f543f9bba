"""A pasted record about someone else (a vet's note, a referral, a report card) is about the
one its opening line names: its labelled lines are said with that name, never filed as the
user's own preferences or health; the user's own record, or one naming no one or two
people, stays as it was."""

from __future__ import annotations

from doctree.agent.offline.subject import read_subject
from tests.agent.offline_runs import current_facts, run, transcript

VET = """Picked up my dog's discharge note from the vet this afternoon:

Patient: Biscuit, 6 yr beagle, neutered
Allergy: chicken protein (itchy skin)
Meds: prednisolone 5mg once daily. Recheck in 14 days.
Diet: hydrolysed kibble only

Can you keep this for me?"""

REFERRAL = """Sending this referral off tomorrow, keep a copy:

Client: Oluwaseun Adebayo, 34, self-referred
Presenting issue: panic attacks on the underground
Preference: female counsellor, evening sessions
Risk: none disclosed"""

REPORT = """Here's the report card from school:

1. Pupil: Priyanka Sood, Year 5
2. Reading: working above the expected standard
3. Maths: needs support with fractions
4. Attendance: 97%"""


def test_each_line_of_a_record_is_said_with_whom_it_is_about():
    read = read_subject(VET)
    assert "Biscuit: Allergy: chicken protein (itchy skin)" in read
    assert "Biscuit: Meds: prednisolone 5mg once daily." in read
    assert "Biscuit: Recheck in 14 days." in read
    assert "Patient: Biscuit, 6 yr beagle, neutered" in read  # the opening line names him
    assert "Can you keep this for me?" in read  # the user's own lines around it stay
    assert "Oluwaseun Adebayo: Preference: female counsellor" in read_subject(REFERRAL)
    assert "2. Priyanka Sood: Reading: working above" in read_subject(REPORT)


def test_a_line_that_names_someone_else_stays_as_said():
    card = "Pupil: Tamsin Hale, Year 2\nTeacher: Mrs Okonkwo\nNext of kin: Rob Hale\nLunch: packed"
    read = read_subject(card)
    assert "Teacher: Mrs Okonkwo" in read.split("\n")
    assert "Next of kin: Rob Hale" in read.split("\n")
    assert "Tamsin Hale: Lunch: packed" in read


def test_the_users_own_record_or_one_naming_no_one_or_two_stays_as_it_was():
    own = "I'm Gwen. My form for the gym:\nName: Gwen Ashby\nAllergy: latex\nGoal: 10k in May"
    assert read_subject(own) == own
    known = "Name: Gwen Ashby\nAllergy: latex\nGoal: 10k in May"
    assert read_subject(known, {"Gwen"}) == known
    me = "Patient: me\nAllergy: latex\nMeds: none"
    assert read_subject(me) == me
    nobody = "Flat: 3B\nRent: £950\nDeposit: £1,100\nMove in: 1 June"
    assert read_subject(nobody) == nobody
    two = "Clients: Ada and Piet Moss\nBudget: £300k\nArea: Hove"
    assert read_subject(two) == two
    role = "Guest: Dr Ines Lago, botanist\nCo-host: Sam Reed\nRelease: Mon 3 Jun"
    assert read_subject(role) == role  # a guest is no record's subject
    short = "Patient: Biscuit\nAllergy: chicken"
    assert read_subject(short) == short  # two lines are no record


def test_a_pets_allergy_lands_on_its_page_and_not_among_the_users_preferences(repo):
    text = transcript(
        "s-vet",
        ("user", "2031-05-06T17:00:00Z", VET),
        ("assistant", "2031-05-06T17:01:00Z", "Kept it."),
    )
    run(repo, text)
    facts = current_facts(repo)
    assert "chicken protein" in facts
    corrections = [d for d in repo.documents("main", "~/memory") if d.path.endswith("corrections")]
    assert not any("chicken" in d.body for d in corrections)
    biscuit = [d for d in repo.documents("main", "~/memory") if d.path.endswith("/biscuit")]
    assert biscuit and "chicken protein" in biscuit[0].body


OWN_FORM = """I'm Gwen, here's the form I filled in for the climbing wall:

Name: Gwen Ashby
Allergy: latex
Emergency contact: Rob Ashby
Experience: two years bouldering"""


def test_the_users_own_pasted_form_stays_the_users(repo):
    text = transcript(
        "s-form",
        ("user", "2031-05-06T17:00:00Z", OWN_FORM),
        ("assistant", "2031-05-06T17:01:00Z", "Kept it, Gwen."),
    )
    run(repo, text)
    assert "Allergy: latex" in current_facts(repo)
    assert not any(
        "latex" in d.body
        for d in repo.documents("main", "~/memory")
        if "/people/" in d.path and "/archive/" not in d.path
    )


def test_a_report_cards_lines_land_on_the_pupils_page_and_its_labels_are_no_one(repo):
    text = transcript(
        "s-report",
        ("user", "2031-07-18T16:00:00Z", REPORT),
        ("assistant", "2031-07-18T16:01:00Z", "Saved."),
    )
    run(repo, text)
    paths = [d.path for d in repo.documents("main", "~/memory") if "/people/" in d.path]
    assert [p.rsplit("/", 1)[1] for p in paths] == ["priyanka-sood"]
    page = next(d.body for d in repo.documents("main", "~/memory") if d.path in paths)
    assert "Priyanka Sood: Maths: needs support with fractions" in page


def test_a_record_opening_on_a_numbered_thing_is_that_things():
    card = "Job 112 - boiler service, Kestrel Road\nFollow-up: Thu 3 Oct\nParts: diverter valve"
    read = read_subject(card).split("\n")
    assert "Job 112: Follow-up: Thu 3 Oct" in read
    assert "Job 112: Parts: diverter valve" in read
    days = "Day 1: Lisbon, the old town\nDay 2: Sintra by train\nDay 3: Porto"
    assert read_subject(days) == days  # numbered things side by side: no record of one


def test_a_files_lowercase_keys_are_no_form():
    pasted = "```yaml\n- pupil: Ines Morel\n  instrument: cello\n  slot: 2031-09-08 16:30\n```"
    assert read_subject(pasted) == pasted
