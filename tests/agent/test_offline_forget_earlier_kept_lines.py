"""Forgetting what one conversation said about a person ("forget what I said yesterday about
Lotta Brandt") takes that day's lines from their page, and the role and intro made of them;
the page itself goes only when nothing else is left on it: a line added by hand, linking no
conversation, or a line of another day stays, and so does the page that holds it."""

from __future__ import annotations

from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript

DAY1 = "2031-05-12T18:00:00Z"
DAY2 = "2031-05-13T18:00:00Z"
PAGE = "~/memory/people/lotta-brandt"


def told(repo: DocumentsRepository) -> None:
    run(
        repo,
        transcript(
            "s-day1",
            ("user", DAY1, "Lotta Brandt is my new osteopath."),
            ("assistant", DAY1, "Noted."),
        ),
    )


def forget_yesterday(repo: DocumentsRepository) -> None:
    run(
        repo,
        transcript(
            "s-day2",
            ("user", DAY2, "Forget what I said yesterday about Lotta Brandt."),
            ("assistant", DAY2, "Done."),
        ),
    )


def paths(repo: DocumentsRepository) -> dict[str, str]:
    return {d.path: d.body for d in repo.documents("main", "~/memory")}


def test_a_line_added_by_hand_stays_and_keeps_the_page(repo):
    told(repo)
    body = repo.read("main", PAGE).body
    repo.write(
        "main", PAGE, body.replace("\n## Sessions", "- Parks round the back.\n\n## Sessions")
    )
    forget_yesterday(repo)
    pages = paths(repo)
    assert PAGE in pages
    assert "Parks round the back." in pages[PAGE]
    assert "osteopath" not in pages[PAGE]  # that day's line, its role and the intro made of it


def test_the_page_of_that_day_alone_goes_and_no_listing_links_it(repo):
    told(repo)
    forget_yesterday(repo)
    pages = paths(repo)
    assert PAGE not in pages
    assert not any(f"[[{PAGE}]]" in body for body in pages.values())
    assert not any("osteopath" in body for p, body in pages.items() if "/archive/" not in p)
