"""People on pages: whose "my" a participant of a thread says, a sentence about someone said
only by a pronoun nobody is sure to be, a person named with the group they are from, and
"his" or "her" at the head of a sentence read as the person it belongs to."""

from __future__ import annotations

from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import current_facts, run, transcript


def _pages(repo: DocumentsRepository) -> dict[str, str]:
    return {d.path: d.body for d in repo.documents("main", "~/memory") if "/archive" not in d.path}


def _said(repo: DocumentsRepository, *lines: str, session: str = "s-people") -> None:
    """Each line a user message of one session, a minute apart."""
    run(
        repo,
        transcript(
            session, *[("user", f"2030-03-04T09:{i:02d}:00Z", ln) for i, ln in enumerate(lines)]
        ),
    )


def test_a_participants_my_husband_is_theirs_not_the_users(repo: DocumentsRepository) -> None:
    _said(
        repo,
        "[09:00] Wren: My husband Idris is a pilot, he flies to Lima on Monday.",
        "[09:02] Bram: nice! my sister Odile lives in Oslo",
        "[09:03] Wren: Idris is back on the 20th.",
    )
    pages = _pages(repo)
    idris, odile = pages["~/memory/people/idris"], pages["~/memory/people/odile"]
    assert "Wren's husband" in idris and "Bram's sister" in odile, (idris, odile)
    everything = "\n".join(pages.values())
    assert "the user's husband" not in everything and "the user's sister" not in everything
    assert "Relation:" not in idris + odile


def test_a_participants_bracketed_kin_is_theirs(repo: DocumentsRepository) -> None:
    _said(
        repo,
        "[09:00] Wren: Idris (my husband) is a pilot.",
        "[09:01] Bram: Odile (my sister) lives in Oslo.",
    )
    pages = _pages(repo)
    assert "Wren's husband" in pages["~/memory/people/idris"]
    assert "the user's" not in "\n".join(pages.values())


def test_a_pronoun_nobody_is_sure_to_be_is_kept_as_said_on_the_notes(
    repo: DocumentsRepository,
) -> None:
    _said(repo, "She loved the spa.", "His flight lands at six tomorrow.")
    pages = _pages(repo)
    notes = pages["~/memory/notes"]
    assert "She loved the spa." in notes and "His flight lands at six" in notes, notes
    assert not any(p.startswith("~/memory/people/") for p in pages), list(pages)


def test_a_pronoun_after_two_women_is_kept_as_said(repo: DocumentsRepository) -> None:
    _said(repo, "My aunt Rosa and my cousin Mireille came for the weekend.", "She loved the spa.")
    pages = _pages(repo)
    assert "She loved the spa." in pages["~/memory/notes"]
    people = {p: b for p, b in pages.items() if p.startswith("~/memory/people/")}
    assert not any("spa" in b for b in people.values()), people


def test_a_question_or_a_short_line_about_her_is_not_kept(repo: DocumentsRepository) -> None:
    _said(repo, "Does she like the spa?", "She did.")
    assert "spa" not in current_facts(repo) and "She did" not in current_facts(repo)


def test_a_name_from_a_team_or_a_circle_is_a_person(repo: DocumentsRepository) -> None:
    _said(
        repo,
        "Priya from finance is leaving in June.",
        "Marco from accounts is the new lead on billing.",
        "Home from work by six tonight, then dinner.",
        "Kids from school are coming round on Friday.",
    )
    pages = _pages(repo)
    assert "leaving in June" in pages["~/memory/people/priya"]
    assert "lead on billing" in pages["~/memory/people/marco"]
    assert "~/memory/people/home" not in pages and "~/memory/people/kids" not in pages


def test_a_tool_from_a_groups_thing_is_no_person(repo: DocumentsRepository) -> None:
    _said(
        repo,
        "We roll it out with Terraform from the ops repo.",
        "The slides come with Figma from the design folder.",
    )
    pages = _pages(repo)
    assert not [p for p in pages if p.startswith("~/memory/people/")], sorted(pages)


def test_her_opening_a_sentence_owns_what_follows(repo: DocumentsRepository) -> None:
    """A name no rule typed becomes the person "her" means when "her" opens the sentence
    ("Her landlord …"): an object ("take her for a walk") never opens one."""
    _said(
        repo,
        "Need advice for a friend. My mate Jess has been offered a job in Leeds. Her landlord "
        "in Bristol wants two months' notice.",
    )
    assert "Jess's landlord in Bristol wants two months' notice" in current_facts(repo)


def test_her_role_and_its_name_is_the_role_of_the_woman_named_before(
    repo: DocumentsRepository,
) -> None:
    _said(
        repo,
        "My daughter Esme has started guitar.",
        "Her guitar teacher is Mr Varga, lessons on Wednesdays at 5:15.",
    )
    pages = _pages(repo)
    varga = pages["~/memory/people/mr-varga"]
    assert "Role: Esme's guitar teacher" in varga, varga
    assert "Esme's guitar teacher is Mr Varga" in varga, varga


def test_a_role_said_with_is_makes_a_person_and_his_stays_unsure_between_two_men(
    repo: DocumentsRepository,
) -> None:
    _said(
        repo,
        "My brother Sam started a new job at the depot.",
        "My accountant is Dev Malhotra at Kinross & Hale.",
        "Also his fee for the return is £180 this year.",
    )
    pages = _pages(repo)
    assert "Role: accountant" in pages["~/memory/people/dev-malhotra"]
    assert "£180" not in pages["~/memory/people/sam"]
    assert "his fee for the return is £180" in pages["~/memory/notes"].lower()


def test_a_known_name_typed_in_lower_case_is_that_person(repo: DocumentsRepository) -> None:
    """The message holds a capital elsewhere ("the Tate"), so it is not read as one typed
    without capitals at all: the lower-case name alone says who."""
    _said(
        repo,
        "I went climbing with Kofi on Tuesday. He's a paramedic and works nights mostly.",
        "kofi asked about next weekend, we're doing the Tate then food. saturday the 13th",
        "oh and he's vegetarian, remember that for the food bit",
    )
    kofi = _pages(repo)["~/memory/people/kofi"]
    assert "Kofi asked about next weekend" in kofi and "Kofi is vegetarian" in kofi, kofi
