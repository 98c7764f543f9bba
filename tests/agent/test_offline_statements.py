"""What the offline memory agent keeps of a session said plainly: a fragment that answers,
what a tool found when the user asked without a question mark, a date read in the tense of
its own clause, a month-day date written with its year, and sentences that go on about the
one before them kept with it."""

from __future__ import annotations

from doctree.agent.offline.resolve import (
    absolute_dates,
    clause_at,
    message_date,
    resolve_relative,
)
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript

TUESDAY = "2027-06-08T11:00:00Z"
date_of = message_date


def lines(repo: DocumentsRepository) -> list[str]:
    """Every line of the pages a person reads (session pages left out)."""
    return [
        ln
        for d in repo.documents("main", "~/memory")
        if not d.path.startswith("~/memory/archive")
        for ln in d.body.split("\n")
    ]


def test_what_a_tool_returned_is_kept_when_the_user_asked_without_a_question_mark(repo):
    run(
        repo,
        transcript(
            "s-tool",
            ("user", TUESDAY, "Can you check the return policy. Order number is BL-448213."),
            ("tool_call", "2027-06-08T11:00:05Z", {"id": "t1", "name": "fetch", "input": {}}),
            (
                "tool_result",
                "2027-06-08T11:00:06Z",
                {"tool_use_id": "t1", "content": "Returns within 30 days.", "is_error": False},
            ),
            (
                "assistant",
                "2027-06-08T11:00:10Z",
                "Damaged items can be returned within 30 days of delivery for a full refund.",
            ),
            ("user", "2027-06-08T11:01:00Z", "Great."),
        ),
    )
    assert any("30 days" in ln and "refund" in ln for ln in lines(repo))


def test_a_date_is_read_in_the_tense_of_its_own_clause():
    text = "Support replied: the courier picks the machine up on Friday."
    assert clause_at(text, text.index("Friday")).startswith(" the courier picks")
    _, found = resolve_relative(text, date_of(TUESDAY), by_clause=True)
    assert [d.isoformat() for _, d in found] == ["2027-06-11"]  # coming, not the one gone
    _, gone = resolve_relative("We met on Friday.", date_of(TUESDAY), by_clause=True)
    assert [d.isoformat() for _, d in gone] == ["2027-06-04"]


def test_a_day_of_the_month_in_words_is_a_date():
    found = absolute_dates("surgery on the third of December", date_of(TUESDAY))
    assert [(p, d.isoformat()) for p, d in found] == [("third of December", "2027-12-03")]
    found = absolute_dates("the baby is due the 21 of March", date_of(TUESDAY), by_clause=True)
    assert [d.isoformat() for _, d in found] == ["2028-03-21"]


def test_a_month_day_date_is_written_with_its_absolute_date(repo):
    run(repo, transcript("s-date", ("user", TUESDAY, "The parcel was delivered on June 3.")))
    assert any("June 3 (2027-06-03)" in ln for ln in lines(repo))


def test_a_short_fragment_that_says_something_is_kept(repo):
    run(
        repo,
        transcript(
            "s-frag",
            ("assistant", "2027-06-08T10:59:00Z", "How many kids are coming?"),
            ("user", TUESDAY, "Twelve kids."),
            ("user", "2027-06-08T11:01:00Z", "Coffee black, no sugar."),
            ("user", "2027-06-08T11:02:00Z", "Thanks."),
        ),
    )
    kept = lines(repo)
    assert any("Twelve kids" in ln for ln in kept)
    assert any("Coffee black, no sugar" in ln for ln in kept)
    assert not any("Thanks" in ln for ln in kept)


def test_a_sentence_that_goes_on_about_the_one_before_is_kept_with_it(repo):
    run(
        repo,
        transcript(
            "s-on",
            (
                "user",
                TUESDAY,
                "The kitchen renovation starts on July 17. Our contractor is Bauwerk, "
                "and the budget is 18,000 euros.",
            ),
        ),
    )
    together = [ln for ln in lines(repo) if "renovation" in ln]
    assert together and all("Bauwerk" in ln and "18,000" in ln for ln in together)


def test_a_day_corrected_as_it_is_said_through_spoken_hesitations_keeps_the_new_day(repo):
    run(
        repo,
        transcript(
            "s-voice",
            (
                "user",
                TUESDAY,
                "um so the dentist, uh, is on the 14th, no wait, the 15th of June",
            ),
        ),
    )
    kept = [ln for ln in lines(repo) if "dentist" in ln and "[[~/memory/archive" in ln]
    assert any("The dentist is on the 15th of June (2027-06-15)" in ln for ln in kept), kept
    assert not any("14th" in ln or " um " in ln or " uh" in ln for ln in kept), kept


def test_a_tool_finding_outside_any_project_goes_on_the_page_of_the_company_it_names(repo):
    run(
        repo,
        transcript(
            "s-shop",
            ("user", TUESDAY, "The kettle I bought from Brewline leaks. What is their policy?"),
            ("tool_call", "2027-06-08T11:00:05Z", {"id": "t1", "name": "fetch", "input": {}}),
            (
                "tool_result",
                "2027-06-08T11:00:06Z",
                {"tool_use_id": "t1", "content": "Refunds within 30 days.", "is_error": False},
            ),
            (
                "assistant",
                "2027-06-08T11:00:10Z",
                "Brewline refunds damaged items within 30 days of delivery.",
            ),
            ("user", "2027-06-08T11:01:00Z", "Thanks."),
        ),
    )
    page = repo.read("main", "~/memory/organisations/brewline")
    assert page is not None and "30 days" in page.body


def test_a_name_written_in_lower_case_after_a_kin_word_gets_a_page(repo):
    run(
        repo,
        transcript(
            "s-lower",
            ("user", TUESDAY, "my brother tom is visiting on friday"),
            ("user", "2027-06-08T11:01:00Z", "our neighbour next door is loud"),
            ("user", "2027-06-08T11:02:00Z", "tom's flight lands at 9"),
        ),
    )
    page = repo.read("main", "~/memory/people/tom")
    assert page is not None and "2027-06-11" in page.body and "lands at 9" in page.body
    people = {d.path for d in repo.documents("main", "~/memory/people")}
    assert "~/memory/people/next" not in people


def test_a_company_named_by_what_it_is_or_after_two_people_is_no_person(repo):
    run(
        repo,
        transcript(
            "s-orgs",
            ("user", TUESDAY, "I work for the company Brightwell as a designer."),
            ("user", "2027-06-08T11:01:00Z", "Our lawyers are Halden & Voss, they are slow."),
        ),
    )
    pages = {d.path for d in repo.documents("main", "~/memory")}
    assert "~/memory/organisations/brightwell" in pages
    assert not {p for p in pages if p.startswith("~/memory/people/")} & {
        "~/memory/people/brightwell",
        "~/memory/people/halden",
        "~/memory/people/voss",
    }


def test_a_relation_said_with_is_and_a_role_set_beside_a_name_make_a_person(repo):
    run(
        repo,
        transcript(
            "s-roles",
            ("user", TUESDAY, "My manager is Lena Ortiz, she wants the report by Friday."),
            ("user", "2027-06-08T11:01:00Z", "The plumber, Kieran, comes on Monday."),
        ),
    )
    lena = repo.read("main", "~/memory/people/lena-ortiz")
    kieran = repo.read("main", "~/memory/people/kieran")
    assert "manager" in lena.body and "plumber" in kieran.body


def test_scratch_that_with_a_new_value_corrects_the_last_value_and_forgets_nothing(repo):
    run(
        repo,
        transcript(
            "s-scratch",
            ("user", TUESDAY, "The vet visit is on the 12th."),
            ("user", "2027-06-08T11:01:00Z", "Scratch that, it's the 14th."),
        ),
    )
    vet = [ln for ln in lines(repo) if "vet visit" in ln]
    assert any("on the 14th (2027-06-14)" in ln for ln in vet), vet
    assert not any("12th" in ln for ln in vet), vet


def test_an_action_item_of_pasted_notes_goes_to_its_owner_and_a_sign_off_is_no_fact(repo):
    run(
        repo,
        transcript(
            "s-notes",
            (
                "user",
                TUESDAY,
                "notes from the planning call:\n\n* Action (Tomas): book the room\n\n"
                "Best regards,\nAnna",
            ),
        ),
    )
    tomas = repo.read("main", "~/memory/people/tomas")
    assert "book the room" in tomas.body
    # the opening words quoted beside the session's link aside, no line holds the sign-off
    assert not any("regards" in ln.lower() and "`" not in ln for ln in lines(repo))


def _readable(repo: DocumentsRepository) -> dict[str, str]:
    return {
        d.path: d.body.split("## Past")[0]
        for d in repo.documents("main", "~/memory")
        if "/archive/" not in d.path
    }


def test_a_nickname_in_quotes_on_a_list_leads_to_the_full_name(repo):
    run(
        repo,
        transcript(
            "s-crew",
            (
                "user",
                "2029-03-01T18:00:00Z",
                'Rowing crew this term:\n\n1. Imogen "Midge" Farrow - stroke\n'
                "2. Callum 'CJ' Jessop - bow",
            ),
            ("user", "2029-03-01T18:05:00Z", "CJ's dad says he has a peanut allergy."),
        ),
    )
    pages = _readable(repo)
    assert "Also called: Midge" in pages.get("~/memory/people/imogen-farrow", ""), pages.keys()
    assert "peanut allergy" in pages.get("~/memory/people/callum-jessop", "")


def test_a_dated_fact_with_no_page_of_its_own_outlives_its_day(repo):
    run(
        repo,
        transcript(
            "s-one",
            ("user", "2029-03-01T18:00:00Z", "The first regatta is on the 10th, at Henley."),
        ),
    )
    run(repo, transcript("s-two", ("user", "2029-03-20T18:00:00Z", "We came fourth overall.")))
    pages = _readable(repo)
    upcoming = pages["~/memory/active"].split("## Upcoming")[-1].split("##")[0]
    assert "regatta" not in upcoming  # its day has passed
    assert "2029-03-10" in pages["~/memory/notes"] and "regatta" in pages["~/memory/notes"]


def test_a_pasted_note_signed_by_its_writer_is_kept_as_theirs(repo):
    run(
        repo,
        transcript(
            "s-note",
            (
                "user",
                "2029-03-01T18:00:00Z",
                "Copying the note the dog walker left on the fridge:\n\n"
                "> Tue - Your dad was out when I came, so Rufus only had a short walk. "
                "I can take him on Saturdays as well from April. - Marisol",
            ),
        ),
    )
    marisol = _readable(repo).get("~/memory/people/marisol", "")
    assert "Marisol is the dog walker" in marisol, _readable(repo).keys()
    assert "Marisol can take him on Saturdays" in marisol


def test_a_quoted_block_not_introduced_as_a_message_stays_context(repo):
    run(
        repo,
        transcript(
            "s-quote",
            (
                "user",
                "2029-03-01T18:00:00Z",
                "Can you tidy up this paragraph? Pasting it as is.\n\n"
                "> The boiler service is booked for Friday.",
            ),
        ),
    )
    assert "boiler" not in "\n".join(_readable(repo).values())


def test_an_unsigned_quoted_note_keeps_what_it_states(repo):
    run(
        repo,
        transcript(
            "s-quote",
            (
                "user",
                "2029-03-01T18:00:00Z",
                "The note the landlord left:\n\n> The boiler service is booked for Friday.",
            ),
        ),
    )
    assert "The boiler service is booked for Friday (2029-03-02)" in "\n".join(
        _readable(repo).values()
    )


def test_a_fragment_holding_a_code_is_kept(repo):
    run(
        repo,
        transcript(
            "s-code",
            ("user", TUESDAY, "Big week."),
            ("user", "2027-06-08T11:01:00Z", "Parking bay 4C near the lifts."),
        ),
    )
    kept = lines(repo)
    assert any("Parking bay 4C near the lifts" in ln for ln in kept)
    assert not any("Big week" in ln for ln in kept if "`" not in ln)  # a quoted opening aside


def test_your_mum_in_someone_elses_note_keeps_her_off_the_last_person_named(repo):
    run(
        repo,
        transcript(
            "s-visit",
            ("user", "2029-03-01T17:00:00Z", "Dr Abara wants to see Mum again in May."),
            (
                "user",
                "2029-03-01T18:00:00Z",
                "The note the night nurse left:\n\n"
                "> Your mum slept badly, she says the new pillow hurts her neck. - Ines",
            ),
        ),
    )
    abara = _readable(repo).get("~/memory/people/dr-abara", "")
    assert "pillow" not in abara, abara
    assert "pillow" in _readable(repo).get("~/memory/people/ines", "")


def test_an_item_the_user_listed_is_kept_without_a_verb(repo):
    run(
        repo,
        transcript(
            "s-list",
            (
                "user",
                "2029-03-01T18:00:00Z",
                "Phrases my Portuguese teacher keeps fixing:\n"
                '- "estou com frio", not "sou frio" (a different thing entirely)\n'
                "- ok",
            ),
        ),
    )
    pages = "\n".join(_readable(repo).values())
    assert '"estou com frio", not "sou frio"' in pages, pages
