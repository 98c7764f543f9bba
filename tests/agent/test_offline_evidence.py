"""A person page needs evidence of a person, and a value restated in a later session replaces
the earlier one: a tool used "with" a name, the labels and headers of a pasted mail, and a
date or amount said again days later."""

from __future__ import annotations

from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript


def pages(repo: DocumentsRepository) -> dict[str, str]:
    return {d.path: d.body for d in repo.documents("main", "~/memory")}


def people(repo: DocumentsRepository) -> set[str]:
    return {p.rsplit("/", 1)[1] for p in pages(repo) if p.startswith("~/memory/people/")}


def current(body: str) -> str:
    """A page without what it keeps as superseded, nor the openings of recent sessions (a
    record of what was said then)."""
    kept = "\n".join(ln for ln in body.split("\n") if " — past: " not in ln)
    return kept.split("## Past")[0].split("## Recent sessions")[0]


def current_text(repo: DocumentsRepository) -> str:
    return "\n".join(current(b) for p, b in pages(repo).items() if "/archive/" not in p)


# -- "with X": a tool, a product or a person ------------------------------------------------


def test_a_tool_used_with_a_name_is_no_person(repo):
    run(
        repo,
        transcript(
            "s-infra",
            (
                "user",
                "2028-01-10T09:00:00Z",
                "We deploy it with Terraform and configure the hosts with Saltstack. "
                "The nightly backups are encrypted with Restic before upload.",
            ),
        ),
    )
    assert not people(repo) & {"terraform", "saltstack", "restic"}, people(repo)
    # the statements themselves are kept
    assert "Terraform" in current_text(repo) and "Restic" in current_text(repo)


def test_a_name_after_with_is_a_person_with_evidence(repo):
    run(
        repo,
        transcript(
            "s-social",
            (
                "user",
                "2028-01-10T09:00:00Z",
                "I had lunch with Oriana on Tuesday, she is moving to Lyon. "
                "I'm going to the cinema with Anouk tonight. "
                "My colleague Bertil set up the new printer. "
                "I paired with Bertil on the invoice bug yesterday.",
            ),
        ),
    )
    assert {"oriana", "bertil", "anouk"} <= people(repo), people(repo)


# -- labels and headers of a pasted mail ----------------------------------------------------

MAIL = """Please keep track of this mail I got:

From: facilities desk
Subject: Office move - week 12

Hi team,

Schedule: the move to the new floor is planned for March 18.

Costs: the movers quoted 4,300 EUR, which the budget covers.

Contract from Hallworth Removals is attached.

Best regards,
Facilities"""


def test_labels_and_headers_of_a_pasted_mail_make_no_person(repo):
    run(repo, transcript("s-mail", ("user", "2028-03-01T09:00:00Z", MAIL)))
    found = people(repo)
    for word in ("from", "subject", "schedule", "costs", "contract", "facilities"):
        assert word not in found, (word, found)
    text = current_text(repo)
    assert "2028-03-18" in text and "4,300" in text, text


def test_a_participant_label_in_pasted_notes_is_still_its_speaker(repo):
    run(
        repo,
        transcript(
            "s-notes",
            (
                "user",
                "2028-03-01T09:00:00Z",
                "Standup notes:\n\n- Wendeline: finished the invoice export\n"
                "- Osgar: blocked on the staging certificates",
            ),
        ),
    )
    assert {"wendeline", "osgar"} <= people(repo), people(repo)


# -- a value restated in a later session ----------------------------------------------------


def test_a_date_restated_in_a_later_session_supersedes_the_earlier_one(repo):
    run(
        repo,
        transcript(
            "s-first",
            ("user", "2028-02-01T09:00:00Z", "The roof repair is scheduled for March 12."),
        ),
    )
    run(
        repo,
        transcript(
            "s-later",
            ("user", "2028-02-08T09:00:00Z", "The roof repair is on the 21 of March now."),
        ),
    )
    text = current_text(repo)
    assert "2028-03-21" in text, text
    assert "2028-03-12" not in text and "March 12" not in text, text
    # the earlier value stands under Past with its date and the session that said it
    assert any(
        "## Past" in b
        and any(
            "March 12" in ln and "2028-03-12" in ln and "s-first" in ln and "past: replaced" in ln
            for ln in b.split("## Past")[1].split("\n")
        )
        for p, b in pages(repo).items()
        if "/archive/" not in p
    ), pages(repo)


def test_an_amount_restated_by_a_pasted_mail_in_a_later_session_supersedes_it(repo):
    run(
        repo,
        transcript(
            "s-quote",
            ("user", "2028-02-01T09:00:00Z", "The quote for the garden fence is 2,400 euros."),
        ),
    )
    run(
        repo,
        transcript(
            "s-mail",
            (
                "user",
                "2028-02-09T09:00:00Z",
                "Got this today:\n\nSubject: revised offer\n\n"
                "The quote for the garden fence is 2,150 euros.",
            ),
        ),
    )
    text = current_text(repo)
    assert "2,150" in text and "2,400" not in text, text


def test_a_later_session_with_two_fitting_lines_changes_nothing(repo):
    # two roof repairs, said in two sessions; "the roof repair" later may mean either
    for session, day, text in (
        ("s-a", "2028-02-01T09:00:00Z", "The roof repair for the garage is on March 12."),
        ("s-b", "2028-02-02T09:00:00Z", "The roof repair for the shed is on March 14."),
        ("s-c", "2028-02-08T09:00:00Z", "The roof repair is on March 21."),
    ):
        run(repo, transcript(session, ("user", day, text)))
    text = current_text(repo)
    assert "2028-03-12" in text and "2028-03-14" in text and "2028-03-21" in text, text


# -- a value corrected by the next message ---------------------------------------------------


def test_a_message_opening_on_an_apology_corrects_the_date_just_said(repo):
    run(
        repo,
        transcript(
            "s-due",
            (
                "user",
                "2028-01-05T09:00:00Z",
                "My cousin Anselm moves into his new flat on the 12 of March.",
            ),
            ("user", "2028-01-05T09:01:00Z", "Ah no, sorry, is the 21 of March."),
        ),
    )
    text = current_text(repo)
    assert "2028-03-21" in text, text
    assert "2028-03-12" not in text, text
    assert "Ah no, sorry" not in text, text


def test_an_apology_without_a_value_changes_nothing(repo):
    run(
        repo,
        transcript(
            "s-due",
            (
                "user",
                "2028-01-05T09:00:00Z",
                "My cousin Anselm moves into his new flat on the 12 of March.",
            ),
            ("user", "2028-01-05T09:01:00Z", "Oh sorry, it is late here, good night."),
        ),
    )
    assert "2028-03-12" in current_text(repo)


def test_a_pasted_mail_files_its_facts_on_what_its_subject_line_names(repo):
    run(repo, transcript("s-mail", ("user", "2028-03-01T09:00:00Z", STATUS_MAIL)))
    page = pages(repo).get("~/memory/projects/quillfeather", "")
    assert "2028-04-09" in page and "48,000" in page, pages(repo).keys()


def test_a_subject_line_that_opens_on_a_common_word_names_no_project(repo):
    run(repo, transcript("s-mail", ("user", "2028-03-01T09:00:00Z", MAIL)))
    assert not any(p.startswith("~/memory/projects/") for p in pages(repo)), pages(repo).keys()


STATUS_MAIL = """Here's the update I sent to the board:

Subject: Quillfeather rollout - status

Hello all,

A brief note on Quillfeather ahead of Thursday.

The pilot ends on April 9. So far we have spent 48,000 EUR of the budget.

Kind regards,
Ines"""


# -- chat's abbreviated days ----------------------------------------------------------------


def test_abbreviated_days_in_a_chat_resolve_to_their_dates(repo):
    # Wednesday 2028-01-05: the coming Saturday is the 8th, the coming Friday the 7th
    run(
        repo,
        transcript(
            "s-chat",
            ("user", "2028-01-05T20:00:00Z", "my uncle ferdinand is visiting on sat for lunch"),
            ("user", "2028-01-05T20:01:00Z", "the boiler guy comes fri to fix the pump"),
            ("user", "2028-01-05T20:02:00Z", "I sat in the sun for an hour at the lake"),
        ),
    )
    text = current_text(repo)
    assert "2028-01-08" in text and "2028-01-07" in text, text
    assert "I sat" in text or "The user sat" in text, text
    assert "Sunday" not in text and "Saturday in" not in text, text


# -- a mail pasted into a chat with no assistant ---------------------------------------------


def test_a_mail_pasted_where_no_assistant_answers_keeps_its_statement_and_makes_no_person(repo):
    run(
        repo,
        transcript(
            "s-rent",
            (
                "user",
                "2028-05-20T09:00:00Z",
                "From: Karim Haddad\nSubject: rent\n\nHello, from July the rent is 1,520 a month. "
                "Regards, Karim",
            ),
        ),
    )
    assert "from" not in people(repo) and "subject" not in people(repo), people(repo)
    assert "the rent is 1,520 a month" in current_text(repo), current_text(repo)


def test_a_date_something_was_moved_to_is_the_coming_one(repo):
    run(
        repo,
        transcript(
            "s-move",
            (
                "user",
                "2028-05-20T09:00:00Z",
                "Quick update: the go-live for the new dashboards moved to June 28.",
            ),
        ),
    )
    text = current_text(repo)
    assert "2028-06-28" in text and "2027-06-28" not in text, text


def test_a_restated_date_leaves_no_other_page_holding_the_old_one(repo):
    run(
        repo,
        transcript(
            "s-1",
            (
                "user",
                "2028-05-02T09:00:00Z",
                "The go-live for the new dashboards is June 14. "
                "The contract with Datafold costs 900 dollars a month.",
            ),
        ),
    )
    run(
        repo,
        transcript(
            "s-2",
            (
                "user",
                "2028-05-20T09:00:00Z",
                "The go-live for the new dashboards moved to June 28.",
            ),
        ),
    )
    text = current_text(repo)
    assert "2028-06-28" in text and "2028-06-14" not in text, text
    # every page that held the old date states the new one in its place
    for path, body in pages(repo).items():
        if "/archive/" not in path and "2028-06-14" in body:
            assert "2028-06-28" in current(body), (path, body)


def test_the_same_words_with_another_value_days_later_are_another_event(repo):
    run(repo, transcript("s-1", ("user", "2028-02-01T09:00:00Z", "I ran 5 km along the canal.")))
    run(repo, transcript("s-2", ("user", "2028-02-08T09:00:00Z", "I ran 10 km along the canal.")))
    text = current_text(repo)
    assert "5 km" in text and "10 km" in text, text


def test_every_kin_word_gives_the_person_page_its_relation(repo):
    run(
        repo,
        transcript(
            "s-kin",
            (
                "user",
                "2028-04-01T09:00:00Z",
                "My nephew Bartholomew starts school in September. "
                "My grandmother Ottilie turns 90 on June 2.",
            ),
        ),
    )
    body = pages(repo)
    assert "Relation: the user's nephew" in body["~/memory/people/bartholomew"], body.keys()
    assert "Relation: the user's grandmother" in body["~/memory/people/ottilie"], body.keys()


def test_a_team_a_thing_is_shared_with_is_no_person_and_whom_to_ping_is(repo):
    run(
        repo,
        transcript(
            "s-ops",
            (
                "user",
                "2028-06-01T09:00:00Z",
                "The staging cluster is shared with Procurement until Q3. "
                "Ping Marguerite about the quota, she owns the pipeline.",
            ),
        ),
    )
    assert "procurement" not in people(repo) and "marguerite" in people(repo), people(repo)


def test_two_outings_days_apart_are_two_events_not_a_value_said_again(repo):
    run(
        repo,
        transcript(
            "s-1",
            (
                "user",
                "2028-06-27T09:00:00Z",
                "My friend Odalys just took Odalys's kids camping in the mountains last week.",
            ),
        ),
    )
    run(
        repo,
        transcript(
            "s-2",
            (
                "user",
                "2028-08-28T09:00:00Z",
                "Since we last spoke, Odalys took Odalys's kids to a park yesterday.",
            ),
        ),
    )
    text = current_text(repo)
    assert "camping" in text and "park" in text, text


# -- "X from Y": a person and where they are from, or a carrier and where it leaves ----------


def test_a_carrier_from_an_airport_in_a_sentence_about_a_journey_is_no_person(repo):
    run(
        repo,
        transcript(
            "s-journey",
            (
                "user",
                "2028-02-01T09:00:00Z",
                "We fly to Porto on the 12th and home on the 19th, Transavia from Rotterdam. "
                "I met Odile from Brightline at the airport café, she runs their design team.",
            ),
        ),
    )
    assert "transavia" not in people(repo)
    assert "odile" in people(repo)
