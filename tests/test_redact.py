"""Redact one version, and forget every version that matches a pattern."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from doctree.cli import cli
from doctree.errors import NotFoundError, UserError
from doctree.memory.forget import forget
from doctree.store.documents import Actor

OWNER = "a"
ADMIN = Actor("user", "admin")
CARD = "4111 1111 1111 1111"


def bodies(repo, path):
    return [v.body for v in repo.history(OWNER, path)]


@pytest.fixture
def card_history(repo):
    """alice: v1 clean, v2 mentions the card, v3 still does; bob: never."""
    repo.write(OWNER, "~/memory/alice", "Alice likes tea.")
    repo.write(OWNER, "~/memory/alice", f"Alice likes tea. Card {CARD}.")
    repo.write(OWNER, "~/memory/alice", f"Alice likes coffee. Card {CARD}.")
    repo.write(OWNER, "~/memory/bob", "Bob likes water.")
    return repo


def test_cli_redact_erases_the_version_and_records_who(db_path):
    runner = CliRunner()
    runner.invoke(cli, ["--db", str(db_path), "write", "~/notes"], input="secret one\n")
    runner.invoke(cli, ["--db", str(db_path), "write", "~/notes"], input="public two\n")

    result = runner.invoke(
        cli, ["--db", str(db_path), "redact", "~/notes", "1"], env={"USER": "eve"}
    )

    assert result.exit_code == 0
    assert result.output == "redacted ~/notes version 1; recorded as version 3 by user:eve\n"
    history = runner.invoke(cli, ["--db", str(db_path), "history", "~/notes", "--json"])
    assert '"redacted": true' in history.output and "secret" not in history.output


def test_cli_redact_of_a_missing_version_is_a_one_line_error(db_path):
    runner = CliRunner()
    runner.invoke(cli, ["--db", str(db_path), "write", "~/notes"], input="x")

    result = runner.invoke(cli, ["--db", str(db_path), "redact", "~/notes", "9"])

    assert result.exit_code == 2
    assert result.output == (
        "error: document '~/notes' has no version 9 (its versions are 1 to 1)\n"
    )


def test_forget_redacts_every_matching_version_and_no_other(card_history):
    report = forget(card_history, OWNER, CARD, actor=ADMIN)

    assert [(h.path, h.versions) for h in report.hits] == [("~/memory/alice", [2, 3])]
    assert [v.redacted for v in card_history.history(OWNER, "~/memory/alice")][:3] == [
        False,
        True,
        True,
    ]
    assert bodies(card_history, "~/memory/bob") == ["Bob likes water."]


def test_forget_leaves_no_copy_of_the_text_in_any_version(card_history):
    forget(card_history, OWNER, CARD, actor=ADMIN)

    assert not any(CARD in (b or "") for b in bodies(card_history, "~/memory/alice"))
    assert card_history.read(OWNER, "~/memory/alice").body == ""
    assert card_history.search(OWNER, "4111") == []


def test_forget_records_the_actor_on_each_redaction(card_history):
    forget(card_history, OWNER, CARD, actor=ADMIN)

    added = card_history.history(OWNER, "~/memory/alice")[3:]
    assert [(v.operation, v.actor) for v in added] == [("redacted", "user:admin")] * 2


def test_forget_dry_run_reports_and_changes_nothing(card_history):
    before = len(card_history.log(None, limit=None))

    report = forget(card_history, OWNER, CARD, dry_run=True)

    assert [h.versions for h in report.hits] == [[2, 3]]
    assert len(card_history.log(None, limit=None)) == before


def test_forget_matches_a_regex(card_history):
    report = forget(card_history, OWNER, r"\b(?:\d{4} ){3}\d{4}\b", regex=True)

    assert report.redacted == 2


def test_forget_only_touches_documents_under_the_given_path(card_history):
    card_history.write(OWNER, "~/archive/old", f"old card {CARD}")

    report = forget(card_history, OWNER, CARD, under="~/archive")

    assert [h.path for h in report.hits] == ["~/archive/old"]
    assert CARD in card_history.read(OWNER, "~/memory/alice").body


def test_forget_reaches_deleted_documents_and_keeps_them_deleted(card_history):
    card_history.delete(OWNER, "~/memory/alice")

    report = forget(card_history, OWNER, CARD)

    assert report.hits[0].deleted and report.hits[0].versions == [2, 3, 4]
    assert not any(CARD in (b or "") for b in bodies(card_history, "~/memory/alice"))
    assert not card_history.exists(OWNER, "~/memory/alice")


def test_forget_refuses_an_empty_pattern(repo):
    with pytest.raises(UserError, match="pattern '': must not be empty"):
        forget(repo, OWNER, "")


def test_cli_forget_prints_what_it_touched(db_path):
    runner = CliRunner()
    runner.invoke(cli, ["--db", str(db_path), "write", "~/memory/x"], input=f"card {CARD}")

    result = runner.invoke(cli, ["--db", str(db_path), "forget", CARD])

    assert result.output == ("redacted ~/memory/x v1\nredacted 1 version(s) in 1 document(s)\n")


def test_redact_by_id_reaches_a_deleted_document_whose_path_was_taken(repo):
    old = repo.write(OWNER, "~/notes", "secret")
    repo.delete(OWNER, "~/notes")
    new = repo.write(OWNER, "~/notes", "public")

    record = repo.redact_by_id(old.id, 1, actor=ADMIN)

    assert (record.document_id, record.operation, record.deleted) == (old.id, "redacted", True)
    assert repo.version(old.id, 1).body is None
    assert repo.read(OWNER, "~/notes").body == "public"
    assert [v.redacted for v in repo.history(OWNER, "~/notes")] == [False]
    assert repo.read_by_id(new.id).version == 1


def test_redact_by_id_of_an_unknown_document_is_not_found(repo):
    with pytest.raises(NotFoundError, match="no document with id 42"):
        repo.redact_by_id(42, 1)


def test_redact_by_path_redacts_the_live_document_there(repo):
    repo.write(OWNER, "~/notes", "old secret")
    repo.delete(OWNER, "~/notes")
    live = repo.write(OWNER, "~/notes", "live secret")

    repo.redact(OWNER, "~/notes", 1, actor=ADMIN)

    assert repo.version(live.id, 1).body is None
    assert repo.read(OWNER, "~/notes").body == ""


def test_forget_redacts_a_deleted_document_that_shares_its_path_with_a_live_one(repo):
    old = repo.write(OWNER, "~/memory/alice", f"Card {CARD}.")
    repo.delete(OWNER, "~/memory/alice")
    live = repo.write(OWNER, "~/memory/alice", f"Alice, card {CARD}.")

    report = forget(repo, OWNER, CARD, actor=ADMIN)

    assert sorted((h.document_id, h.versions, h.skipped) for h in report.hits) == [
        (old.id, [1, 2], None),
        (live.id, [1], None),
    ]
    assert report.redacted == 3
    assert all(repo.version(old.id, n).body is None for n in (1, 2))
    assert repo.read(OWNER, "~/memory/alice").body == ""


def test_forget_redacts_two_deleted_documents_of_the_same_path(repo):
    first = repo.write(OWNER, "~/memory/x", f"one {CARD}")
    repo.delete(OWNER, "~/memory/x")
    second = repo.write(OWNER, "~/memory/x", f"two {CARD}")
    repo.delete(OWNER, "~/memory/x")

    forget(repo, OWNER, CARD)

    assert not any(CARD in (v.body or "") for v in repo.log(OWNER, "~/memory/x", limit=None))
    assert [repo.version(d.id, 1).redacted for d in (first, second)] == [True, True]
    assert not repo.exists(OWNER, "~/memory/x")
