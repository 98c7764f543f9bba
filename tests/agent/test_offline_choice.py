"""A choice said the short way ("Great, risotto it is.") is a decision worth a line, while
a sentence that only ends the same way ("I know what it is.") is not one."""

from __future__ import annotations

from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript


def _current(repo: DocumentsRepository) -> str:
    return "\n".join(
        d.body.split("## Past")[0] for d in repo.documents("main", "~/memory")
        if "/archive/" not in d.path and d.path != "~/memory/active"
    )  # fmt: skip


def _chat(reply: str) -> str:
    return transcript(
        "s-menu",
        ("user", "2029-03-01T18:00:00Z", "What should I cook for the book club on Friday?"),
        ("assistant", "2029-03-01T18:00:10Z", "A risotto with peas would suit everyone."),
        ("user", "2029-03-01T18:02:00Z", reply),
    )


def test_a_choice_said_as_x_it_is_is_kept(repo):
    run(repo, _chat("Great, risotto it is."))
    assert "risotto it is" in _current(repo).lower()


def test_a_sentence_ending_in_it_is_that_chooses_nothing_is_not_a_decision(repo):
    run(repo, _chat("I know what it is."))
    assert "what it is" not in _current(repo)


def test_a_word_for_a_mood_taken_from_the_assistant_is_not_a_decision(repo):
    run(repo, _chat("ha, cheerfully knackered it is."))
    assert "knackered" not in _current(repo)
