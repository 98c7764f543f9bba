"""A slip owned up to at the head of a message ("Actually no, …", "No no, my mistake, …") or
the right value said as such ("Apologies, the correct date for … is …") puts right the
speaker's earlier sentence about the same thing: the old value goes under Past. A slip that
shares no word with the sentence before changes nothing."""

from __future__ import annotations

import pytest

from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import page_lines, run, transcript


def said(repo: DocumentsRepository, *messages: str) -> str:
    run(
        repo,
        transcript(
            "s-slip",
            *[
                m
                for i, text in enumerate(messages)
                for m in (
                    ("user", f"2029-03-07T10:{2 * i:02d}:00Z", text),
                    ("assistant", f"2029-03-07T10:{2 * i + 1:02d}:00Z", "Noted."),
                )
            ],
        ),
    )
    return "\n".join(page_lines(repo)[0])  # the current lines, none under Past


@pytest.mark.parametrize(
    ("first", "fix", "right", "wrong"),
    [
        (
            "The spare bike lock is with Idris.",
            "Actually no, I left the spare bike lock with Wendell.",
            "Wendell",
            "Idris",
        ),
        (
            "Our son's new term start on 4 September.",
            "No no, I mistake, is 11 September.",
            "2029-09-11",
            "2029-09-04",
        ),
        (
            "Please note the trustees' meeting will be on 12 June.",
            "Apologies, the correct date for the trustees' meeting is 19 June.",
            "2029-06-19",
            "2029-06-12",
        ),
    ],
)
def test_a_slip_owned_up_to_puts_the_sentence_before_right(repo, first, fix, right, wrong):
    facts = said(repo, first, fix)
    assert right in facts, facts
    assert wrong not in facts, facts


def test_a_slip_about_something_else_leaves_the_sentence_before(repo):
    facts = said(
        repo,
        "The boat trailer is booked in for new tyres on 20 March.",
        "Actually no, I haven't picked a colour for the hall yet.",
    )
    assert "2029-03-20" in facts, facts
