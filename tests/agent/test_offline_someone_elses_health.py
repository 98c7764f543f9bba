"""A liking or a health fact said of someone by a pronoun nobody is sure to be ("Zainab
phoned Orla. She is having a hip operation on 9 June.") is kept as said on the notes, not
filed among the user's own preferences; the user's own still is."""

from __future__ import annotations

from tests.agent.offline_runs import run, transcript


def _pages(repo) -> dict[str, str]:
    return {d.path: d.body for d in repo.documents("main", "~/memory")}


def test_someone_elses_health_is_no_preference_of_the_user(repo):
    run(
        repo,
        transcript(
            "s-hip",
            (
                "user",
                "2031-05-06T10:00:00Z",
                "Zainab phoned Orla this morning. She is having a hip operation on 9 June.",
            ),
        ),
    )
    pages = _pages(repo)
    assert "hip operation" not in pages.get("~/memory/corrections", ""), pages
    assert "She is having a hip operation" in pages.get("~/memory/notes", ""), pages


def test_the_users_own_health_is_still_a_preference(repo):
    run(
        repo,
        transcript("s-me", ("user", "2031-05-06T10:00:00Z", "I am allergic to sesame seeds.")),
    )
    assert "allergic to sesame" in _pages(repo).get("~/memory/corrections", "")
