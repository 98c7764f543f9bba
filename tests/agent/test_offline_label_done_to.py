"""A line's label before a colon names who said it only when the line reads as said by it:
"Quilt: made by Gran" says what was done to the quilt, and no person "Quilt" is made."""

from __future__ import annotations

from tests.agent.offline_runs import current_facts, run, transcript

DAY = "2033-05-06T09:00:00Z"


def _pages(repo) -> list[str]:
    return [d.path for d in repo.documents("main", "~/memory/people")]


def test_a_label_the_line_says_was_done_to_is_no_speaker(repo):
    run(
        repo,
        transcript(
            "s-done-to",
            (
                "user",
                DAY,
                "For the raffle:\n- Quilt: made by me from Gran's old curtains, worth £90\n"
                "- Hamper: given by the Co-op, worth £45",
            ),
            ("assistant", DAY, "Lovely prizes."),
        ),
    )
    assert "~/memory/people/quilt" not in _pages(repo)
    assert "~/memory/people/hamper" not in _pages(repo)
    assert "£90" in current_facts(repo)


def test_a_label_the_line_reads_as_said_by_is_still_its_speaker(repo):
    run(
        repo,
        transcript(
            "s-said-by",
            (
                "user",
                DAY,
                "Notes from the stand-up:\n- Wei: finished the export, waiting on review\n"
                "- Oskar: fixed the login bug",
            ),
            ("assistant", DAY, "Thanks."),
        ),
    )
    now = current_facts(repo)
    assert "Wei" in now and "Oskar" in now
