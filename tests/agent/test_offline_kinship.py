"""A kin word keeps all of itself: "brother-in-law", "step-sister", "half-brother" and
"ex-wife" are relations of their own, never the plain brother, sister or wife."""

from __future__ import annotations

import pytest

from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript


def _pages(repo: DocumentsRepository) -> dict[str, str]:
    return {d.path: d.body for d in repo.documents("main", "~/memory") if "/archive" not in d.path}


@pytest.mark.parametrize(
    ("said", "page", "relation"),
    [
        ("Osric (my brother-in-law) is lending us his trailer.", "osric", "brother-in-law"),
        ("My step-sister Wren starts at the bakery on Monday.", "wren", "step-sister"),
        ("My half-brother Piers sails to Bergen every June.", "piers", "half-brother"),
        ("My ex-husband Dario collects the kids on Fridays.", "dario", "ex-husband"),
        ("Our daughter-in-law Imke is a vet in Kiel.", "imke", "daughter-in-law"),
    ],
)
def test_a_kin_word_with_its_affix_is_kept_whole(
    repo: DocumentsRepository, said: str, page: str, relation: str
) -> None:
    run(repo, transcript("s-kin", ("user", "2029-06-01T09:00:00Z", said)))
    body = _pages(repo).get(f"~/memory/people/{page}", "")
    assert f"the user's {relation}" in body, _pages(repo)
    plain = relation.split("-")[1] if relation.startswith(("step", "half", "ex")) else None
    plain = plain or relation.split("-")[0]
    assert f"the user's {plain} " not in body and f"the user's {plain}." not in body, body


def test_a_he_after_a_brother_in_law_means_him(repo: DocumentsRepository) -> None:
    run(
        repo,
        transcript(
            "s-kin",
            ("user", "2029-06-01T09:00:00Z", "My brother-in-law Osric came round for tea."),
            ("user", "2029-06-01T09:05:00Z", "He is allergic to kiwi fruit."),
        ),
    )
    assert "Osric is allergic to kiwi fruit" in _pages(repo).get("~/memory/people/osric", "")


def test_a_housemate_in_brackets_is_a_relation_kept_apart_from_the_sentence(
    repo: DocumentsRepository,
) -> None:
    """ "Yusra (my housemate) thinks …": who Yusra is holds even when the rest of the
    sentence is forgotten with the other person it names."""
    run(
        repo,
        transcript(
            "s-flat",
            ("user", "2028-03-02T20:00:00Z", "Yusra (my housemate) thinks Lorcan was rude."),
        ),
    )
    run(
        repo,
        transcript(
            "s-flat-2",
            ("user", "2028-03-09T20:00:00Z", "Forget everything about Lorcan."),
        ),
    )
    pages = _pages(repo)
    assert "housemate" in pages.get("~/memory/people/yusra", ""), sorted(pages)
    assert not any("Lorcan" in b for b in pages.values())
