"""A change statement (a clause that says a thing's value changed) moves the one earlier line
about the same thing under "Past" and keeps the new value current, on the page the old one
stood on; when it is unsure which earlier line is meant, every line stays as said."""

from __future__ import annotations

from doctree.agent.offline import supersession
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript


def _pages(repo: DocumentsRepository) -> dict[str, str]:
    return {d.path: d.body for d in repo.documents("main", "~/memory")}


def _current_lines(body: str) -> list[str]:
    lines = []
    for section in body.split("\n## ")[1:]:
        name, *rest = section.split("\n")
        if name.strip() in ("Past", "Recent sessions", "Sessions", "Related"):
            continue
        lines += [ln for ln in rest if ln.startswith("- ") and " — past: " not in ln]
    return lines


def _current(repo: DocumentsRepository) -> str:
    return "\n".join(
        ln for p, b in _pages(repo).items() if "/archive/" not in p for ln in _current_lines(b)
    )


def _past(repo: DocumentsRepository) -> str:
    return "\n".join(
        ln for p, b in _pages(repo).items() if "/archive/" not in p for ln in b.split("\n")
        if " — past: " in ln
    )  # fmt: skip


def test_a_correction_that_names_no_line_still_replaces_the_value_it_changes(repo):
    run(
        repo,
        transcript(
            "s-old",
            ("user", "2029-01-10T09:00:00Z", "The loft insulation saved us £600 a year."),
        ),
    )
    run(
        repo,
        transcript(
            "s-offer",
            (
                "user",
                "2029-03-02T09:00:00Z",
                "Offer from Fenwick Labs: data lead, £41,000, fully remote.",
            ),
            (
                "user",
                "2029-03-02T15:00:00Z",
                "Correction, they rang back and matched my bonus, so it's £43,500 now.",
            ),
        ),
    )
    now = _current(repo)
    assert "£43,500" in now and "£41,000" not in now, now
    assert "£41,000" in _past(repo)
    # the new value stands where the old one stood
    fenwick = _pages(repo)["~/memory/organisations/fenwick-labs"]
    assert any("£43,500" in ln for ln in _current_lines(fenwick)), fenwick
    # an earlier session's other amount is no salary: it stays
    assert "£600 a year" in now, now


def test_a_value_said_to_be_wrong_names_the_line_that_held_it(repo):
    run(
        repo,
        transcript(
            "s-bio",
            (
                "user",
                "2029-03-02T09:00:00Z",
                "Here is my bio line: Led the loyalty project and grew repeat orders by 9%.",
            ),
            (
                "user",
                "2029-03-02T09:10:00Z",
                "Wait, the 9% is wrong on there, that was one shop.",
            ),
        ),
    )
    now = _current(repo)
    assert "grew repeat orders by 9%" not in now, now
    assert "grew repeat orders by 9%" in _past(repo)


def test_a_thing_lacking_and_another_had_instead_replaces_the_line_in_the_session(repo):
    run(
        repo,
        transcript(
            "s-vet",
            (
                "user",
                "2029-04-02T09:00:00Z",
                "The vet put Biscuit on Meloxicam, 1.5 ml with her dinner.",
            ),
            (
                "user",
                "2029-04-02T18:00:00Z",
                "The pharmacy had no Meloxicam so they gave us Carprofen instead.",
            ),
        ),
    )
    now = _current(repo)
    assert "Carprofen" in now, now
    assert "on Meloxicam, 1.5 ml" not in now, now
    assert "on Meloxicam, 1.5 ml" in _past(repo)


def test_a_thing_lacking_replaces_the_line_of_an_earlier_session(repo):
    run(
        repo,
        transcript(
            "s-one",
            (
                "user",
                "2029-04-02T09:00:00Z",
                "Ottoline's packed lunch is a cheese roll and a pear.",
            ),
        ),
    )
    run(
        repo,
        transcript(
            "s-two",
            (
                "user",
                "2029-04-09T09:00:00Z",
                "The shop had run out of cheese, so Ottoline is taking hummus instead.",
            ),
        ),
    )
    now = _current(repo)
    assert "hummus" in now and "cheese roll" not in now, now
    assert "cheese roll" in _past(repo)


def test_two_lines_that_could_be_the_lacking_thing_both_stay(repo):
    run(
        repo,
        transcript(
            "s-one",
            (
                "user",
                "2029-04-02T09:00:00Z",
                "Meloxicam for Biscuit, 1.5 ml a day. Meloxicam for Pepper, 0.5 ml a day.",
            ),
        ),
    )
    run(
        repo,
        transcript(
            "s-two",
            (
                "user",
                "2029-04-09T09:00:00Z",
                "The pharmacy had no Meloxicam so they gave us Carprofen instead.",
            ),
        ),
    )
    now = _current(repo)
    assert "1.5 ml" in now and "0.5 ml" in now, now


def test_lacked_instead_reads_the_thing_lacking_only_before_instead():
    assert supersession.lacked_instead("They'd run out of oat milk, so I got soya instead.") == (
        "oat milk"
    )
    assert supersession.lacked_instead("We couldn't get the blue tiles, green ones instead.") == (
        "blue tiles"
    )
    assert supersession.lacked_instead("I had soya instead, there was no oat milk.") is None
    assert supersession.lacked_instead("There was no oat milk.") is None
    assert supersession.lacked_instead("Had no time, so I walked instead.") is None
    assert supersession.lacked_instead("Was there no oat milk, so soya instead?") is None


def test_a_thing_named_by_digits_and_capitals_moved_later_replaces_its_date(repo):
    run(
        repo,
        transcript(
            "s-one",
            (
                "user",
                "2029-03-01T09:00:00Z",
                "The Leeds 5K is on Sunday 9 September, so my training plan starts on "
                "Monday 2 April.",
            ),
        ),
    )
    run(
        repo,
        transcript(
            "s-two",
            ("user", "2029-03-20T09:00:00Z", "The 5K moved, it's Sunday 16 September now."),
        ),
    )
    now = _current(repo)
    assert "2029-09-16" in now, now
    assert "2029-09-09" not in now, now
    assert "2029-09-09" in _past(repo)
    assert "2029-04-02" in now, now  # the plan's start, said in another clause, holds


def test_a_code_name_is_a_thing_word():
    assert "10k" in supersession.thing_words("The 10K moved")
    assert "a380" in supersession.thing_words("the A380 was swapped")
    assert "10k" not in supersession.thing_words("a raise of £10K")
    assert "k" not in supersession.thing_words("The 10K moved")
