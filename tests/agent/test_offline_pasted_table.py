"""A markdown table pasted into a message is read row by row: each row a fact of its own on
the page of the person it names (a kin title, "Aunt Mira", or a bracketed "(my niece)" says
who is a person and of which gender), so that a later "X, not Y" corrects the one row it
means and a later "she" finds the right person."""

from __future__ import annotations

from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript

TABLE = """Who brings what to the picnic, from the group chat:

| who | brings | notes |
|---|---|---|
| Aunt Mira | lemonade | two jugs |
| Oskar (my niece's husband) | folding chairs | |
| Lotte (my niece, 12) | a frisbee | |
"""


def _pages(repo: DocumentsRepository) -> dict[str, str]:
    return {d.path: d.body for d in repo.documents("main", "~/memory")}


def _current(body: str) -> str:
    return body.split("## Past")[0]


def test_each_row_of_a_pasted_table_is_a_fact_on_its_persons_page(repo):
    run(repo, transcript("s-picnic", ("user", "2029-06-01T10:00:00Z", TABLE)))
    pages = _pages(repo)
    mira = _current(pages.get("~/memory/people/mira", ""))
    lotte = _current(pages.get("~/memory/people/lotte", ""))
    assert "lemonade" in mira and "frisbee" not in mira, pages.keys()
    assert "frisbee" in lotte and "lemonade" not in lotte


def test_a_plain_word_said_instead_corrects_the_one_row_that_held_it(repo):
    run(
        repo,
        transcript(
            "s-picnic",
            ("user", "2029-06-01T10:00:00Z", TABLE),
            ("user", "2029-06-01T10:05:00Z", "One row is off. Mira brings iced tea, not lemonade."),
        ),
    )
    pages = _pages(repo)
    current = "\n".join(_current(b) for p, b in pages.items() if "/archive/" not in p)
    assert "iced tea" in current
    stale = [ln for ln in current.split("\n") if "lemonade" in ln and "not lemonade" not in ln]
    assert not stale, stale
    assert "lemonade" in pages["~/memory/people/mira"].split("## Past")[1]


def test_a_pronoun_after_a_kin_title_means_that_person(repo):
    run(
        repo,
        transcript(
            "s-picnic",
            ("user", "2029-06-01T10:00:00Z", TABLE),
            (
                "user",
                "2029-06-01T10:05:00Z",
                "Aunt Mira called again. She is bringing a plum cake as well.",
            ),
        ),
    )
    pages = _pages(repo)
    assert "Mira is bringing" in pages.get("~/memory/people/mira", ""), pages.keys()
    assert "bringing" not in pages.get("~/memory/people/lotte", "")
