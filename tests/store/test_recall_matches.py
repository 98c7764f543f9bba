"""Whether an owner's recall record has any passage for a query (`RecallIndex.matches`, what
`has_recall` asks before `load_memories` makes room for the record) is found without scoring
every match, on both backends: the owner's own passages only, any word of the expression."""

from __future__ import annotations

from doctree.memory.recall import has_recall
from doctree.store.recall import RecallIndex, RecallRow


def rows(*texts: str) -> list[RecallRow]:
    return [
        RecallRow(f"r{i}", 0, "user", "2026-11-20T09:00:00Z", None, t, len(t.split()))
        for i, t in enumerate(texts)
    ]


def test_matches_finds_a_passage_of_the_owner_only(repo):
    index = RecallIndex(repo.conn)
    index.add("ada", "s-1", rows("We planted the plum trees.", "The orchard needs water."))
    index.add("bob", "s-2", rows("Mangoes ripen in June."))
    assert index.matches("ada", '"plum"')
    assert index.matches("ada", '"mango" OR "orchard"')
    assert not index.matches("ada", '"mango"')  # bob's word
    assert index.matches("bob", '"mango"')
    assert not index.matches("bob", '"plum"')
    assert not index.matches("ada", "")
    assert not index.matches("cy", '"plum"')  # no record at all


def test_has_recall_follows_the_record(repo):
    RecallIndex(repo.conn).add("ada", "s-1", rows("We planted the plum trees."))
    assert has_recall(repo, "ada", "when did we plant the plum trees", mode="lexical")
    assert not has_recall(repo, "ada", "what about mangoes", mode="lexical")
    assert not has_recall(repo, "bob", "when did we plant the plum trees", mode="lexical")
