from __future__ import annotations

import pytest

from doctree.errors import ConflictError, NotFoundError, PathError


def test_write_then_read_returns_body_and_version(repo):
    doc = repo.write("main", "~/memory/people/alice", "# Alice\nPrefers tea.")
    assert doc.version == 1 and doc.title == "Alice"
    assert repo.read("main", "~/memory/people/alice").body == "# Alice\nPrefers tea."


def test_missing_parents_are_created_empty(repo):
    repo.write("main", "~/memory/people/alice", "x")
    assert repo.read("main", "~/memory/people").body == ""
    assert [c.path for c in repo.children("main", "~/memory")] == ["~/memory/people"]


def test_failed_precondition_writes_nothing(repo):
    repo.write("main", "~/a", "one")
    with pytest.raises(ConflictError):
        repo.write("main", "~/a", "two", expected_version=7)
    assert repo.read("main", "~/a").body == "one"
    assert len(repo.history("main", "~/a")) == 1


def test_dotdot_is_refused(repo):
    with pytest.raises(PathError, match="'..' is not allowed"):
        repo.write("main", "~/memory/../x", "x")


def test_owners_are_isolated(repo):
    repo.write("a", "~/memory/x", "secret")
    with pytest.raises(NotFoundError):
        repo.read("b", "~/memory/x")
    assert repo.search("b", "secret") == []
