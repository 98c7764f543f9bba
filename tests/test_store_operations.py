"""The operations of DocumentsRepository, one behaviour per test."""

from __future__ import annotations

import sqlite3

import pytest

from doctree.errors import (
    ConflictError,
    DoctreeError,
    EditError,
    NotFoundError,
    PathError,
    UserError,
)
from doctree.store.documents import Actor, DocumentsRepository, Provenance, TransactionError, sha256

# -- write and preconditions -------------------------------------------------------------


def test_version_records_operation_actor_session_run_and_digest(repo):
    repo.write(
        "main",
        "~/a",
        "hello",
        provenance=Provenance(actor=Actor("memory-agent", "mem-1"), session="s1", run=7),
    )
    [v] = repo.history("main", "~/a")
    assert (v.operation, v.actor, v.session_id, v.run_id) == (
        "created",
        "memory-agent:mem-1",
        "s1",
        7,
    )
    assert (v.content_sha256, v.size) == (sha256("hello"), 5)


def test_actor_defaults_to_the_owner_agent(repo):
    repo.write("main", "~/a", "x")
    assert repo.history("main", "~/a")[0].actor == "agent:main"


def test_unknown_actor_kind_is_refused():
    with pytest.raises(UserError, match="actor kind 'robot'"):
        Actor("robot", "r")


def test_writing_the_same_body_makes_no_new_version(repo):
    repo.write("main", "~/a", "same")
    doc = repo.write("main", "~/a", "same")
    assert doc.version == 1 and len(repo.history("main", "~/a")) == 1


def test_expected_version_zero_means_must_not_exist(repo):
    repo.write("main", "~/a", "x", expected_version=0)
    with pytest.raises(ConflictError, match="expected it not to exist") as err:
        repo.write("main", "~/a", "y", expected_version=0)
    assert err.value.current_version == 1


def test_matching_expected_version_writes(repo):
    repo.write("main", "~/a", "one")
    assert repo.write("main", "~/a", "two", expected_version=1).version == 2


def test_expected_version_on_missing_document_is_a_conflict(repo):
    with pytest.raises(ConflictError, match="it does not exist"):
        repo.write("main", "~/a", "x", expected_version=3)
    assert not repo.exists("main", "~/a")


def test_content_sha256_precondition(repo):
    repo.write("main", "~/a", "one")
    repo.write("main", "~/a", "two", content_sha256=sha256("one").upper())
    with pytest.raises(ConflictError, match="content sha256 is"):
        repo.write("main", "~/a", "three", content_sha256=sha256("one"))
    assert repo.read("main", "~/a").body == "two"


def test_title_comes_from_heading_then_frontmatter_then_name(repo):
    assert repo.write("main", "~/a", "# Alice Smith\nx").title == "Alice Smith"
    assert repo.write("main", "~/b", "---\ntitle: Bob\n---\n# Not this").title == "Bob"
    assert repo.write("main", "~/c-d", "no heading").title == "c-d"


def test_explicit_title_is_kept_by_later_writes_without_heading(repo):
    repo.write("main", "~/a", "x", title="Chosen")
    assert repo.write("main", "~/a", "y").title == "Chosen"


def test_derived_title_follows_a_move(repo):
    repo.write("main", "~/a", "plain")
    repo.move("main", "~/a", "~/b")
    assert repo.read("main", "~/b").title == "b"
    assert repo.write("main", "~/b", "plain 2").title == "b"


def test_write_returns_the_document_as_read_back(repo):
    written = repo.write("main", "~/a/b", "[[~/c]]", links=["~/d"])
    assert written == repo.read("main", "~/a/b")


# -- edit --------------------------------------------------------------------------------


def test_edit_replaces_exactly_one_occurrence(repo):
    repo.write("main", "~/a", "tea and cake")
    assert repo.edit("main", "~/a", "tea", "coffee").body == "coffee and cake"


def test_edit_of_ambiguous_text_is_refused_unless_replace_all(repo):
    repo.write("main", "~/a", "x x")
    with pytest.raises(EditError, match="occurs 2 times"):
        repo.edit("main", "~/a", "x", "y")
    assert repo.edit("main", "~/a", "x", "y", replace_all=True).body == "y y"


def test_edit_of_missing_text_is_refused(repo):
    repo.write("main", "~/a", "abc")
    with pytest.raises(EditError, match="not found: 'zzz'"):
        repo.edit("main", "~/a", "zzz", "y")
    assert len(repo.history("main", "~/a")) == 1


def test_edit_with_empty_old_text_is_refused(repo):
    repo.write("main", "~/a", "abc")
    with pytest.raises(EditError, match="must not be empty"):
        repo.edit("main", "~/a", "", "y")


def test_edit_checks_expected_version(repo):
    repo.write("main", "~/a", "abc")
    with pytest.raises(ConflictError):
        repo.edit("main", "~/a", "a", "b", expected_version=2)


# -- move --------------------------------------------------------------------------------


def test_move_carries_the_subtree_and_keeps_ids(repo):
    a = repo.write("main", "~/a", "A")
    child = repo.write("main", "~/a/b/c", "C")
    repo.move("main", "~/a", "~/x/y")
    assert repo.read("main", "~/x/y").id == a.id
    assert repo.read("main", "~/x/y/b/c").id == child.id
    assert not repo.exists("main", "~/a")
    assert [c.path for c in repo.children("main", "~/x")] == ["~/x/y"]


def test_move_records_a_moved_version_for_each_document(repo):
    repo.write("main", "~/a/b", "B")
    repo.move("main", "~/a", "~/z")
    assert [v.operation for v in repo.history("main", "~/z/b")] == ["created", "moved"]


def test_move_onto_an_existing_document_is_a_conflict(repo):
    repo.write("main", "~/a", "A")
    repo.write("main", "~/b", "B")
    with pytest.raises(ConflictError, match="already exists"):
        repo.move("main", "~/a", "~/b")


def test_move_into_itself_is_refused(repo):
    repo.write("main", "~/a", "A")
    with pytest.raises(PathError, match="into itself"):
        repo.move("main", "~/a", "~/a/b")


def test_home_cannot_be_moved(repo):
    with pytest.raises(PathError, match="cannot be moved"):
        repo.move("main", "~", "~/x")


# -- delete, restore, redact ------------------------------------------------------------


def test_delete_leaves_a_tombstone_and_keeps_history(repo):
    repo.write("main", "~/a", "A")
    repo.delete("main", "~/a")
    assert not repo.exists("main", "~/a")
    assert [v.operation for v in repo.history("main", "~/a")] == ["created", "deleted"]


def test_delete_with_children_needs_recursive(repo):
    repo.write("main", "~/a/b", "B")
    with pytest.raises(UserError, match="1 descendant"):
        repo.delete("main", "~/a")
    assert len(repo.delete("main", "~/a", recursive=True)) == 2
    assert repo.documents("main") == []


def test_home_cannot_be_deleted(repo):
    with pytest.raises(PathError, match="cannot be deleted"):
        repo.delete("main", "~")


def test_restore_brings_back_old_content_as_a_new_version(repo):
    repo.write("main", "~/a", "one")
    repo.write("main", "~/a", "two")
    doc = repo.restore("main", "~/a", 1)
    assert (doc.body, doc.version) == ("one", 3)
    assert repo.history("main", "~/a")[-1].operation == "restored"


def test_restore_undeletes_and_recreates_missing_parents(repo):
    repo.write("main", "~/a/b", "B")
    repo.delete("main", "~/a", recursive=True)
    doc = repo.restore("main", "~/a/b", 1)
    assert not doc.deleted and repo.exists("main", "~/a")


def test_restore_of_a_deletion_is_refused(repo):
    repo.write("main", "~/a", "A")
    repo.delete("main", "~/a")
    with pytest.raises(UserError, match="it is a deletion"):
        repo.restore("main", "~/a", 2)


def test_redact_erases_content_but_keeps_the_fact(repo):
    repo.write("main", "~/a", "secret")
    repo.write("main", "~/a", "public")
    repo.erase_version("main", "~/a", 1, provenance=Provenance(Actor("user", "ann")))
    history = repo.history("main", "~/a")
    assert history[0].body is None and history[0].redacted
    assert [v.operation for v in history] == ["created", "modified", "redacted"]
    assert repo.read("main", "~/a").body == "public"
    with pytest.raises(NotFoundError, match="was redacted"):
        repo.read("main", "~/a", version=1)
    with pytest.raises(UserError, match="it was redacted"):
        repo.restore("main", "~/a", 1)


def test_redacting_the_current_version_empties_the_document(repo):
    repo.write("main", "~/a", "secret")
    repo.erase_version("main", "~/a", 1)
    assert repo.read("main", "~/a").body == ""
    assert repo.search("main", "secret") == []


# -- history, diff, log, listing ----------------------------------------------------------


def test_diff_defaults_to_previous_against_current(repo):
    repo.write("main", "~/a", "one\n")
    repo.write("main", "~/a", "two\n")
    assert repo.diff("main", "~/a") == "--- ~/a@1\n+++ ~/a@2\n@@ -1 +1 @@\n-one\n+two\n"


def test_diff_from_version_zero_is_against_nothing(repo):
    repo.write("main", "~/a", "one\n")
    assert repo.diff("main", "~/a", 0, 1).startswith("--- /dev/null\n+++ ~/a@1")


def test_log_lists_a_subtree_newest_first(repo):
    repo.write("main", "~/a/x", "1")
    repo.write("main", "~/b", "2")
    repo.write("main", "~/a/x", "3")
    assert [(v.path, v.version) for v in repo.log("main", "~/a")] == [
        ("~/a/x", 2),
        ("~/a/x", 1),
        ("~/a", 1),
    ]


def test_log_filters_by_run_and_session(repo):
    repo.write("main", "~/a", "1", provenance=Provenance(session="s", run=1))
    repo.write("main", "~/b", "2", provenance=Provenance(run=2))
    assert [v.path for v in repo.log("main", run_id=2)] == ["~/b"]
    assert [v.path for v in repo.log("main", session_id="s")] == ["~/a"]
    assert [v.path for v in repo.log(None, run_id=1)] == ["~/a"]


def test_children_of_home_are_the_top_level_documents(repo):
    repo.write("main", "~/b/x", "x")
    repo.write("main", "~/a", "a")
    assert [d.path for d in repo.children("main", "~")] == ["~/a", "~/b"]


def test_total_size_and_owners(repo):
    repo.write("main", "~/a", "12345")
    repo.write("main", "~/a/b", "123")
    repo.write("other", "~/c", "1")
    assert repo.total_size("main", "~/a") == 8
    assert repo.owners() == ["main", "other"]


def test_tree_depth_limits_the_levels(repo):
    repo.write("main", "~/a/b/c", "x")
    [root] = repo.tree("main", "~/a", depth=1)
    assert [c.path for c in root.children] == ["~/a/b"] and root.children[0].children == []


def test_missing_document_is_not_found_naming_path_and_owner(repo):
    with pytest.raises(NotFoundError, match="document '~/nope' not found for owner 'main'"):
        repo.read("main", "~/nope")


# -- transactions ------------------------------------------------------------------------


def test_a_transaction_groups_writes_atomically(repo):
    with pytest.raises(RuntimeError), repo.transaction():
        repo.write("main", "~/a", "1")
        repo.write("main", "~/b", "2")
        raise RuntimeError("boom")
    assert repo.documents("main") == []


def test_a_refused_write_inside_a_transaction_leaves_the_others(repo):
    with repo.transaction():
        repo.write("main", "~/a", "1")
        with pytest.raises(ConflictError):
            repo.write("main", "~/a", "2", expected_version=5)
        repo.write("main", "~/b", "3")
    assert [d.path for d in repo.documents("main")] == ["~/a", "~/b"]


def test_nested_transaction_rolls_back_only_its_part(repo):
    with repo.transaction():
        repo.write("main", "~/a", "1")
        with pytest.raises(RuntimeError), repo.transaction():
            repo.write("main", "~/b", "2")
            raise RuntimeError("inner")
    assert [d.path for d in repo.documents("main")] == ["~/a"]


def unbindable_provenance() -> Provenance:
    """A provenance whose session no database can bind, made past Provenance's own checks
    (which would refuse it up front), so that a write fails in the database midway."""
    prov = object.__new__(Provenance)
    for name, value in (("actor", Actor("agent", "main")), ("session", {"x": 1}), ("run", None)):
        object.__setattr__(prov, name, value)
    return prov


def test_a_write_failing_midway_alone_writes_nothing(repo):
    # The write part itself (behind the facade, which would refuse the dict up front), so the
    # failure comes from the database midway, after the parent was inserted.
    with pytest.raises(sqlite3.Error):
        repo._writes.write("main", "~/a/b", "x", provenance=unbindable_provenance())
    assert repo.documents("main") == []


def test_a_write_failing_midway_in_a_transaction_rolls_it_all_back(repo):
    with pytest.raises(TransactionError, match="rolled back"), repo.transaction():
        repo.write("main", "~/a", "kept?")
        with pytest.raises(sqlite3.Error):
            repo._writes.write("main", "~/b", "x", provenance=unbindable_provenance())
    assert repo.documents("main") == []


def test_repository_accepts_an_open_connection(db_path):
    from doctree.store.db import connect

    conn = connect(db_path)
    repo = DocumentsRepository(conn)
    repo.write("main", "~/a", "x")
    repo.close()  # does not close a connection it was given
    assert conn.execute("SELECT 1").fetchone()[0] == 1
    conn.close()


def test_writes_join_a_transaction_the_shared_connection_already_has(db_path):
    from doctree.store.backends import begin_write
    from doctree.store.db import connect

    conn = connect(db_path)
    repo = DocumentsRepository(conn)
    begin_write(conn)  # the connection's owner opened a transaction
    repo.write("main", "~/a", "x")
    with pytest.raises(ConflictError):
        repo.write("main", "~/a", "y", expected_version=0)
    conn.execute("ROLLBACK")
    assert repo.documents("main") == []
    conn.close()


def test_diff_marks_a_last_line_without_newline(repo):
    repo.write("main", "~/a", "one")
    repo.write("main", "~/a", "two")
    assert repo.diff("main", "~/a").splitlines()[3:] == [
        "-one",
        "\\ No newline at end of file",
        "+two",
        "\\ No newline at end of file",
    ]


def test_transaction_error_is_the_one_in_doctree_errors():
    from doctree import errors

    assert TransactionError is errors.TransactionError


# -- what changed, and a consistent read ---------------------------------------------------------


def test_current_versions_maps_each_live_document_under_a_path_to_its_version(repo):
    a = repo.write("main", "~/notes/a", "one")
    a = repo.write("main", "~/notes/a", "two")
    gone = repo.write("main", "~/notes/gone", "x")
    repo.delete("main", "~/notes/gone")
    repo.write("main", "~/elsewhere", "y")
    repo.write("other", "~/notes/b", "z")
    notes = repo.get("main", "~/notes")

    versions = repo.current_versions("main", "~/notes")

    assert versions == {notes.id: 1, a.id: 2}
    assert gone.id not in repo.current_versions("main")


def test_reads_inside_a_snapshot_do_not_see_a_write_committed_meanwhile(repo, db_path):
    repo.write("main", "~/a", "one")
    other = DocumentsRepository(db_path)
    with repo.snapshot():
        other.write("main", "~/a", "two")
        other.write("main", "~/b", "new")
        inside = (repo.read("main", "~/a").body, repo.exists("main", "~/b"))
    other.close()

    assert inside == ("one", False)
    assert (repo.read("main", "~/a").body, repo.exists("main", "~/b")) == ("two", True)


def test_a_snapshot_inside_a_transaction_reads_the_transactions_own_writes(repo):
    with repo.transaction():
        repo.write("main", "~/a", "written in the transaction")
        with repo.snapshot():
            assert repo.read("main", "~/a").body == "written in the transaction"
    assert repo.read("main", "~/a").version == 1


def test_a_write_inside_a_read_snapshot_is_refused(repo):
    with pytest.raises(DoctreeError, match="cannot write inside a read snapshot"), repo.snapshot():
        repo.write("main", "~/notes", "x")
    assert not repo.exists("main", "~/notes")


def test_deleted_versions_maps_each_deleted_document_to_its_tombstone_version(repo):
    gone = repo.write("main", "~/notes/gone", "x")
    repo.write("main", "~/notes/gone", "y")
    repo.delete("main", "~/notes/gone")
    repo.write("main", "~/notes/live", "z")

    assert repo.deleted_versions("main", "~/notes") == {gone.id: 3}


def test_version_total_counts_every_version_of_the_owner(repo):
    repo.write("main", "~/a/b", "one")  # creates ~/a too
    repo.write("main", "~/a/b", "two")
    repo.delete("main", "~/a/b")
    repo.write("other", "~/x", "elsewhere")

    assert repo.version_total("main") == len(repo.log("main", limit=None)) == 4


def test_versions_per_run_counts_the_versions_each_run_made(repo):
    repo.write("main", "~/memory/a", "one", provenance=Provenance(run=7))
    repo.write("main", "~/memory/a", "two", provenance=Provenance(run=7))
    repo.write("main", "~/memory/b", "three", provenance=Provenance(run=8))
    # ~/memory itself was created by the first write of run 7
    assert repo.versions_per_run([7, 8, 9]) == {7: 3, 8: 1}
    assert repo.versions_per_run([]) == {}


def test_a_provenance_value_is_recorded_on_every_version_it_makes(repo):
    from doctree.store.documents import Provenance

    prov = Provenance(Actor("memory-agent", "main"), "sess-1", 7)
    repo.write("main", "~/memory/people/ann", "Ann.\n", provenance=prov)  # and its parents
    repo.edit("main", "~/memory/people/ann", "Ann.", "Ann Lee.", provenance=prov)
    repo.move("main", "~/memory/people/ann", "~/memory/people/ann-lee", provenance=prov)
    versions = list(repo.iter_versions("main"))
    assert len(versions) == 5
    assert {(v.actor, v.session_id, v.run_id) for v in versions} == {
        ("memory-agent:main", "sess-1", 7)
    }
    # without an actor, the owner agent itself made the change
    repo.write("main", "~/x", "y", provenance=Provenance(session="sess-2", run=8))
    [v] = repo.history("main", "~/x")
    assert (v.actor, v.session_id, v.run_id) == ("agent:main", "sess-2", 8)
