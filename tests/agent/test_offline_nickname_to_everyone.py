"""A nickname said as "Wilhelmina, Billie to everyone" or "Augustus (Gus to the family)"
is what that person is also called: the nickname said later in the conversation is them."""

from __future__ import annotations

from tests.agent.offline_runs import run, transcript


def _pages(repo) -> dict[str, str]:
    return {d.path: d.body for d in repo.documents("main", "~/memory")}


def test_a_nickname_to_everyone_is_the_same_person(repo):
    run(
        repo,
        transcript(
            "s-nick",
            (
                "user",
                "2031-05-06T10:00:00Z",
                "My godmother Wilhelmina, Billie to everyone, moves to Cork in June. "
                "Billie hates flying, so she takes the ferry.",
            ),
        ),
    )
    pages = _pages(repo)
    assert "~/memory/people/billie" not in pages, sorted(pages)
    assert "Also called: Billie" in pages["~/memory/people/wilhelmina"]


def test_to_everyone_after_a_common_word_is_no_nickname(repo):
    run(
        repo,
        transcript(
            "s-none",
            ("user", "2031-05-06T10:00:00Z", "Thanks, Marta. Hello to everyone at the office."),
        ),
    )
    assert not any("Also called" in b for b in _pages(repo).values())
