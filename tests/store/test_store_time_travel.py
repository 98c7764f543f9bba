"""Time travel: read a document, or the whole tree, as it was at a time."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

import pytest

from doctree.errors import NotFoundError, UserError
from doctree.store.documents import now, parse_time


def tick() -> str:
    """A timestamp strictly between the writes before it and the writes after it."""
    time.sleep(0.002)
    ts = now()
    time.sleep(0.002)
    return ts


def test_read_at_returns_the_body_current_at_that_time(repo):
    repo.write("main", "~/a", "one")
    t1 = tick()
    repo.write("main", "~/a", "two")
    t2 = tick()
    assert repo.read("main", "~/a", at=t1).body == "one"
    assert repo.read("main", "~/a", at=t2).body == "two"


def test_read_at_before_creation_is_not_found(repo):
    t0 = tick()
    repo.write("main", "~/a", "one")
    with pytest.raises(NotFoundError, match="did not exist at"):
        repo.read("main", "~/a", at=t0)


def test_read_at_follows_the_path_not_the_document(repo):
    repo.write("main", "~/a", "first a")
    t1 = tick()
    repo.move("main", "~/a", "~/b")
    repo.write("main", "~/a", "second a")
    t2 = tick()
    assert repo.read("main", "~/a", at=t1).body == "first a"
    assert repo.read("main", "~/b", at=t2).body == "first a"
    assert repo.read("main", "~/a", at=t2).body == "second a"
    with pytest.raises(NotFoundError):
        repo.read("main", "~/b", at=t1)


def test_read_at_after_deletion_is_not_found(repo):
    repo.write("main", "~/a", "one")
    repo.delete("main", "~/a")
    t1 = tick()
    with pytest.raises(NotFoundError):
        repo.read("main", "~/a", at=t1)


def test_read_version_reads_that_version(repo):
    repo.write("main", "~/a", "one")
    repo.write("main", "~/a", "two")
    doc = repo.read("main", "~/a", version=1)
    assert (doc.body, doc.version) == ("one", 1)


def test_read_version_of_a_deleted_document(repo):
    repo.write("main", "~/a", "one")
    repo.delete("main", "~/a")
    assert repo.read("main", "~/a", version=1).body == "one"
    assert repo.read("main", "~/a", version=2).deleted


def test_read_missing_version_is_not_found(repo):
    repo.write("main", "~/a", "one")
    with pytest.raises(NotFoundError, match="has no version 5"):
        repo.read("main", "~/a", version=5)


def test_tree_at_shows_the_tree_as_it_was(repo):
    repo.write("main", "~/memory/people/alice", "A")
    repo.write("main", "~/memory/people/bob", "B")
    t1 = tick()
    repo.move("main", "~/memory/people", "~/memory/contacts")
    repo.delete("main", "~/memory/contacts/bob")
    repo.write("main", "~/memory/projects/x", "X")
    t2 = tick()

    def paths(at):
        return sorted(n.path for r in repo.tree("main", at=at) for n in r.walk())

    assert paths(t1) == [
        "~/memory",
        "~/memory/people",
        "~/memory/people/alice",
        "~/memory/people/bob",
    ]
    assert paths(t2) == [
        "~/memory",
        "~/memory/contacts",
        "~/memory/contacts/alice",
        "~/memory/projects",
        "~/memory/projects/x",
    ]
    assert paths(None) == paths(t2)


def test_tree_at_below_a_path_that_did_not_exist_then_is_not_found(repo):
    t0 = tick()
    repo.write("main", "~/a/b", "x")
    with pytest.raises(NotFoundError, match="at "):
        repo.tree("main", "~/a", at=t0)


def test_tree_at_shows_versions_of_that_time(repo):
    repo.write("main", "~/a", "one")
    t1 = tick()
    repo.write("main", "~/a", "two two")
    [node] = repo.tree("main", "~/a", at=t1)
    assert (node.version, node.size) == (1, 3)


def test_redacted_deleted_document_stays_deleted_in_the_past_and_now(repo):
    repo.write("main", "~/p", "secret")
    repo.delete("main", "~/p")
    repo.erase_version("main", "~/p", 1)
    t1 = tick()
    assert repo.tree("main", at=t1) == []
    assert not repo.exists("main", "~/p")
    with pytest.raises(NotFoundError):
        repo.read("main", "~/p", at=t1)


def test_read_at_finds_the_live_document_next_to_a_redacted_deleted_one(repo):
    repo.write("main", "~/p", "old")
    repo.delete("main", "~/p")
    repo.write("main", "~/p", "new")
    repo.erase_version("main", "~/p", 1)  # the live one: its version 1
    t1 = tick()
    assert repo.read("main", "~/p", at=t1).body == ""


def test_times_may_be_given_as_datetimes_and_dates(repo):
    repo.write("main", "~/a", "one")
    later = datetime.now(UTC) + timedelta(seconds=1)
    assert repo.read("main", "~/a", at=later).body == "one"
    assert repo.read("main", "~/a", at=later.date().isoformat()).body == "one"


def test_bare_date_means_the_end_of_that_day():
    assert parse_time("2026-11-23") == "2026-11-23T23:59:59.999999Z"


def test_naive_times_are_utc_and_offsets_are_converted():
    assert parse_time("2026-11-23T10:00:00") == "2026-11-23T10:00:00.000000Z"
    assert parse_time("2026-11-23T12:00:00+02:00") == "2026-11-23T10:00:00.000000Z"


def test_bad_time_is_a_user_error_naming_it():
    with pytest.raises(UserError, match="time 'yesterday': use ISO 8601"):
        parse_time("yesterday")
