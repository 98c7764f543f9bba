"""Storing recall passages (`RecallIndex.add_sessions`): each new passage is stored once
with its index entry under its own id, whatever the size of the batch, and a passage
stored already (handed over again, or twice in one batch) is neither stored nor indexed a
second time, on both backends."""

from __future__ import annotations

from doctree.store.recall import RecallIndex, RecallRow


def row(key: str, text: str) -> RecallRow:
    return RecallRow(key, 0, "user", "2026-11-20T09:00:00Z", None, text, len(text.split()))


def word(i: int) -> str:
    """A word of its own for passage `i` (letters only: the index reads digits apart)."""
    return "zq" + "".join("abcdefghij"[int(d)] for d in str(i))


def found(index: RecallIndex, owner: str, i: int) -> list[str]:
    """The texts of the passages the index finds by passage `i`'s own word."""
    return [h.text for h in index.search(owner, f'"{word(i)}"')]


def test_a_large_batch_indexes_every_passage_under_its_own_id(repo):
    index = RecallIndex(repo.conn)
    batch = [
        ("ada", "s-1", [row(f"h{i}", f"note {word(i)} said") for i in range(0, 73)]),
        ("bob", "s-2", [row(f"h{i}", f"note {word(i)} said") for i in range(73, 131)]),
    ]
    assert index.add_sessions(batch) == 131
    for i in (0, 49, 50, 72):
        assert found(index, "ada", i) == [f"note {word(i)} said"]
    for i in (73, 99, 130):
        assert found(index, "bob", i) == [f"note {word(i)} said"]
        assert found(index, "ada", i) == []
    assert index.count("ada") == 73 and index.count("bob") == 58


def test_passages_stored_already_are_neither_stored_nor_indexed_again(repo):
    index = RecallIndex(repo.conn)
    first = [row(f"h{i}", f"said {word(i)} first") for i in range(0, 60, 2)]
    assert index.add("ada", "s-1", first) == 30
    # every passage of 0..59 now, the even ones again with other words, and one twice
    again = [row(f"h{i}", f"said {word(i)} again") for i in range(60)]
    again.insert(10, row("h7", f"said {word(7)} twice"))
    assert index.add("ada", "s-1", again) == 30
    assert index.count("ada") == 60
    for i in range(60):
        expected = f"said {word(i)} first" if i % 2 == 0 else f"said {word(i)} again"
        assert found(index, "ada", i) == [expected]
    assert [h.text for h in index.search("ada", '"twice"')] == []
    assert index.add("ada", "s-1", again) == 0


def test_passages_added_outside_a_transaction_are_stored_whole(repo):
    index = RecallIndex(repo.conn)
    assert not repo.conn.in_transaction
    assert index.add("ada", "s-1", [row(f"h{i}", f"x {word(i)} y") for i in range(55)]) == 55
    assert not repo.conn.in_transaction
    assert found(index, "ada", 54) == [f"x {word(54)} y"]
