"""A fact the offline agent's reading kept is never dropped for want of a page: a sentence
read as of some kind (someone leaving, joining, starting) whose subject was not read as a
person has no page of its own and still gets a line on the notes."""

from __future__ import annotations

import pytest

from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import current_facts, run, transcript

KEPT = [
    "Priya from finance is leaving in June.",
    "Anneliese from payroll has handed in her notice.",
    "Someone from the lab is joining the team next spring.",
    "The new hire from accounts starts on the 3rd of March.",
]


@pytest.mark.parametrize("said", KEPT)
def test_a_sentence_of_a_kind_with_no_page_of_its_own_is_on_the_notes(tmp_path, said):
    with DocumentsRepository(tmp_path / "m.db") as repo:
        run(repo, transcript("s-n1", ("user", "2031-09-01T09:00:00Z", said)))
        facts = current_facts(repo)
    words = said.rstrip(".").split()
    assert all(w in facts for w in words[:4]), (said, facts)


def test_an_acknowledgement_alone_gets_no_line(tmp_path):
    with DocumentsRepository(tmp_path / "m.db") as repo:
        run(repo, transcript("s-n2", ("user", "2031-09-01T09:00:00Z", "Thanks, that's great.")))
        facts = current_facts(repo)
    assert "great" not in facts
