"""What holds now of a thing, said in a later session in any way: a thing chosen "instead
of" the one named before, a figure the assistant states and the user confirms with a bare
"yes"; and a family firm ("Hale & Sons") is an organisation, whose last word is nobody."""

from __future__ import annotations

from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript

DAY1 = "2029-04-02T18:00:00Z"
DAY2 = "2029-04-16T18:00:00Z"


def _pages(repo: DocumentsRepository) -> dict[str, str]:
    return {d.path: d.body for d in repo.documents("main", "~/memory")}


def _current(repo: DocumentsRepository) -> str:
    out = []
    for path, body in _pages(repo).items():
        if not path.startswith("~/memory/archive"):
            out += [ln for ln in body.split("## Past")[0].split("\n") if " — past: " not in ln]
    return "\n".join(out)


def test_a_thing_chosen_instead_of_another_moves_the_line_that_named_it(repo):
    run(
        repo,
        transcript(
            "s-floor",
            ("user", DAY1, "Flooring: Oak herringbone from Woodyard, 14 m² with offcuts."),
        ),
    )
    run(
        repo,
        transcript(
            "s-floor-2",
            (
                "user",
                DAY2,
                "Rethink on the floor: we're going with grey slate tiles instead of the "
                "herringbone oak.",
            ),
        ),
    )
    now = _current(repo)
    assert "slate" in now, now
    assert "Oak herringbone" not in now, now


def test_a_figure_the_assistant_states_and_the_user_confirms_is_kept(repo):
    run(
        repo,
        transcript(
            "s-sum",
            ("user", DAY1, "The roofer adds £300 for the extra scaffolding day."),
            ("assistant", "2029-04-02T18:01:00Z", "So the roof now comes to £4,420 in total."),
            ("user", "2029-04-02T18:02:00Z", "Yes."),
        ),
    )
    assert "£4,420" in _current(repo)


def test_a_figure_the_user_does_not_confirm_is_not_kept(repo):
    run(
        repo,
        transcript(
            "s-sum",
            ("user", DAY1, "The roofer adds £300 for the extra scaffolding day."),
            ("assistant", "2029-04-02T18:01:00Z", "So the roof now comes to £4,420 in total."),
            ("user", "2029-04-02T18:02:00Z", "Hmm, let me check the paperwork tonight."),
        ),
    )
    assert "£4,420" not in _current(repo)


def test_a_family_firm_is_an_organisation_and_the_nickname_is_the_persons(repo):
    run(
        repo,
        transcript(
            "s-plumber",
            (
                "user",
                DAY1,
                "The plumber's quote came in: Dafydd Hale of Hale & Sons (everyone calls him "
                "Daf), £2,300 all in. He can start on May 6.",
            ),
        ),
    )
    pages = _pages(repo)
    assert "~/memory/people/sons" not in pages, sorted(pages)
    assert "~/memory/people/son" not in pages, sorted(pages)
    person = pages.get("~/memory/people/dafydd-hale", "")
    assert "Daf" in person and "May 6" in person, sorted(pages)


def test_a_pasted_row_said_to_be_wrong_is_replaced_by_the_value_given(repo):
    run(
        repo,
        transcript(
            "s-receipts",
            (
                "user",
                DAY1,
                "Receipts this month:\n\n| date | shop | what | amount | category |\n"
                "|---|---|---|---|---|\n"
                "| 03/04 | Screwfix | drill bits for the shed | £41.20 | tools |\n"
                "| 09/04 | Halfords | roof bars, van | £63.10 | vehicle |",
            ),
            ("assistant", "2029-04-02T18:01:00Z", "Two receipts, £104.30 in all."),
            (
                "user",
                "2029-04-02T18:05:00Z",
                "Oops, the Halfords one is wrong, it was £36.10, I misread the till slip.",
            ),
        ),
    )
    now = _current(repo)
    assert "£36.10" in now and "£41.20" in now, now
    assert "£63.10" not in now, now
