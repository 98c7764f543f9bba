"""Three ways a page kept what should have gone: a value restated later without any word of
correction, a forget naming only part of a compound name, and an organisation's name broken
across a line of a pasted message."""

from __future__ import annotations

from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript


def pages(repo: DocumentsRepository) -> dict[str, str]:
    return {d.path: d.body for d in repo.documents("main", "~/memory")}


def current(body: str) -> str:
    """A page without what it keeps as superseded."""
    return "\n".join(ln for ln in body.split("\n") if " — past: " not in ln).split("## Past")[0]


def test_a_value_restated_in_a_later_message_supersedes_the_earlier_one(repo):
    run(
        repo,
        transcript(
            "s-vet",
            ("user", "2028-02-01T09:00:00Z", "The vet appointment for Pepper is on February 10."),
            ("assistant", "2028-02-01T09:00:05Z", "Noted."),
            ("user", "2028-02-01T09:20:00Z", "Some unrelated chatter about the weather today."),
            ("user", "2028-02-01T09:40:00Z", "The vet appointment for Pepper is on February 12."),
        ),
    )
    body = pages(repo)
    holding_new = [p for p, b in body.items() if "February 12" in b or "2028-02-12" in b]
    assert holding_new, body
    for path, text in body.items():
        if "/archive/" in path:
            continue
        now = current(text)
        assert "February 10" not in now and "2028-02-10" not in now, (path, text)
    # the earlier value is not dropped: it stands under "Past" where the new one stands
    assert any("February 10" in b and "## Past" in b for p, b in body.items() if p in holding_new)


def test_two_values_of_different_things_both_stay_current(repo):
    run(
        repo,
        transcript(
            "s-two",
            ("user", "2028-02-01T09:00:00Z", "The vet appointment for Pepper is on February 10."),
            ("user", "2028-02-01T09:40:00Z", "The car service for the van is on February 12."),
        ),
    )
    now = "\n".join(current(b) for p, b in pages(repo).items() if "/archive/" not in p)
    assert "February 10" in now or "2028-02-10" in now
    assert "February 12" in now or "2028-02-12" in now


def test_forgetting_part_of_a_compound_name_removes_its_pages(repo):
    run(
        repo,
        transcript(
            "s-job",
            (
                "user",
                "2028-03-01T10:00:00Z",
                "I have a second-round interview with Tessellate Labs on March 9.",
            ),
        ),
    )
    assert any("tessellate" in p for p in pages(repo)), pages(repo)
    run(
        repo,
        transcript(
            "s-forget",
            (
                "user",
                "2028-03-02T10:00:00Z",
                "Please forget everything about the Tessellate interview.",
            ),
        ),
    )
    now = pages(repo)
    assert not [p for p in now if "tessellate" in p.lower()], sorted(now)
    assert not [p for p, b in now.items() if "tessellate" in b.lower()], sorted(now)


def test_an_organisation_name_broken_across_a_line_is_still_an_organisation(repo):
    run(
        repo,
        transcript(
            "s-mail",
            (
                "user",
                "2028-04-01T10:00:00Z",
                "Notes from the call with the landlord:\n"
                "- the lease is handled by Pemberton &\n"
                "Marsh, they send the contract on Friday\n"
                "- the rent stays the same",
            ),
        ),
    )
    now = pages(repo)
    assert not [p for p in now if p.startswith("~/memory/people/")], sorted(now)
    assert any(p.startswith("~/memory/organisations/pemberton") for p in now), sorted(now)


def test_a_thing_named_fully_then_referred_back_to_takes_the_new_date(repo):
    run(
        repo,
        transcript(
            "s-dentist",
            ("user", "2028-05-01T08:00:00Z", "I have a check-up at Brightsmile Clinic on May 4."),
            ("user", "2028-05-01T08:30:00Z", "Lunch with the team was nice."),
            ("user", "2028-05-01T09:00:00Z", "The check-up is on May 6."),
        ),
    )
    body = pages(repo)
    now = "\n".join(current(b) for p, b in body.items() if "/archive/" not in p)
    assert "2028-05-06" in now or "May 6" in now, body
    assert "2028-05-04" not in now and "May 4" not in now, now
    assert any("May 4" in b for b in body.values())  # kept, under "Past"


def test_a_bare_noun_restating_a_date_in_plain_words_supersedes_it(repo):
    run(
        repo,
        transcript(
            "s-visa",
            (
                "user",
                "2028-06-01T08:00:00Z",
                "I have visa appointment at consulate of Norland on 19 of June, I am nervous.",
            ),
            ("assistant", "2028-06-01T08:00:05Z", "Good luck with it."),
            (
                "user",
                "2028-06-01T08:20:00Z",
                "Sorry I mix the days, appointment is the 23 of June.",
            ),
        ),
    )
    body = pages(repo)
    now = "\n".join(current(b) for p, b in body.items() if "/archive/" not in p)
    assert "2028-06-23" in now, body
    assert "2028-06-19" not in now and "19 of June" not in now, now


def test_a_firm_named_after_people_is_no_person_when_a_name_trigger_precedes_it(repo):
    run(
        repo,
        transcript(
            "s-status",
            (
                "user",
                "2028-04-02T10:00:00Z",
                "Status for the week:\n\nThe audit is done. We signed the engagement letter "
                "with Pemberton &\nMarsh yesterday.\n\nBest,\nDana",
            ),
        ),
    )
    now = pages(repo)
    assert "~/memory/people/pemberton" not in now, sorted(now)
    assert "~/memory/organisations/pemberton-marsh" in now, sorted(now)


def test_a_date_given_by_a_pronoun_and_one_said_with_the_same_words_are_superseded(repo):
    run(
        repo,
        transcript(
            "s-trips",
            (
                "user",
                "2028-07-01T08:00:00Z",
                "I have an audition with Larkspur Theatre. It is on 9 July.",
            ),
            ("user", "2028-07-01T08:05:00Z", "I will fly to Tallinn on 15 July."),
            ("assistant", "2028-07-01T08:05:05Z", "Both noted."),
            ("user", "2028-07-01T08:30:00Z", "The audition is the 11 of July."),
            ("user", "2028-07-01T08:35:00Z", "I fly to Tallinn on 17 July."),
        ),
    )
    body = pages(repo)
    now = "\n".join(current(b) for p, b in body.items() if "/archive/" not in p)
    assert "2028-07-11" in now and "2028-07-17" in now, now
    assert "9 July" not in now and "15 July" not in now, now
