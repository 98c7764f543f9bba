"""An organisation said later by the last word of its name in lower case ("the hospice"
after "… for Larkfield Hospice") is that organisation when it is the only one of the session
ending on that word: its name is written in brackets after the words and the line is filed
with it. Two such organisations, or none, leave the words as said."""

from __future__ import annotations

from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import current_facts, run, transcript

DAY = "2038-04-04T09:00:00Z"


def _facts(repo: DocumentsRepository, message: str) -> str:
    run(repo, transcript("s-kind", ("user", DAY, message), ("assistant", DAY, "Noted.")))
    return current_facts(repo)


def test_the_kind_names_the_one_organisation(repo: DocumentsRepository):
    facts = _facts(
        repo,
        "I'm walking the coast path for Larkfield Hospice next month. "
        "The forms go back to the hospice by Friday.",
    )
    assert "the hospice (Larkfield Hospice) by Friday" in facts


def test_two_of_the_kind_name_neither(repo: DocumentsRepository):
    facts = _facts(
        repo,
        "I give to Larkfield Hospice and to Orrin Vale Hospice every year. "
        "The forms go back to the hospice by Friday.",
    )
    assert "the hospice (" not in facts
    assert "The forms go back to the hospice by Friday" in facts
