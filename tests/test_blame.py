"""Blame: each line of a document with the version, time, actor, session and run that
introduced it, across edits, moves, restores and redactions."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from doctree.cli import cli
from doctree.errors import NotFoundError
from doctree.store.blame import blame
from doctree.store.documents import Actor, Provenance

ALICE = Actor("agent", "alice")
BOB = Actor("user", "bob")
MEM = Actor("memory-agent", "a")


def origins(result) -> list[tuple[str, int]]:
    return [(line.text, line.origin.version) for line in result.lines]


def test_each_line_names_the_version_that_introduced_it(repo):
    repo.write("a", "~/p", "# P\nalpha\nbeta\n", provenance=Provenance(ALICE))
    repo.write(
        "a", "~/p", "# P\nalpha\nBETA\ngamma\n", provenance=Provenance(actor=BOB, session="s1")
    )
    repo.write(
        "a", "~/p", "# P\nzero\nalpha\nBETA\ngamma\n", provenance=Provenance(actor=MEM, run=7)
    )

    result = blame(repo, "a", "~/p")

    assert origins(result) == [("# P", 1), ("zero", 3), ("alpha", 1), ("BETA", 2), ("gamma", 2)]
    zero, beta = result.lines[1].origin, result.lines[3].origin
    assert (zero.actor, zero.run_id) == ("memory-agent:a", 7)
    assert (beta.actor, beta.session_id) == ("user:bob", "s1")
    assert [line.number for line in result.lines] == [1, 2, 3, 4, 5]


def test_blame_of_an_earlier_version(repo):
    repo.write("a", "~/p", "one\n")
    repo.write("a", "~/p", "one\ntwo\n")
    repo.write("a", "~/p", "two\n")

    assert origins(blame(repo, "a", "~/p", version=2)) == [("one", 1), ("two", 2)]
    assert origins(blame(repo, "a", "~/p")) == [("two", 2)]


def test_blame_follows_the_document_across_a_move(repo):
    repo.write("a", "~/old/p", "kept line\n", provenance=Provenance(ALICE))
    repo.move("a", "~/old/p", "~/new/p", provenance=Provenance(BOB))
    repo.write("a", "~/new/p", "kept line\nadded after the move\n", provenance=Provenance(BOB))

    result = blame(repo, "a", "~/new/p")

    assert origins(result) == [("kept line", 1), ("added after the move", 3)]
    assert result.lines[0].origin.path == "~/old/p"
    assert result.lines[0].origin.actor == "agent:alice"


def test_restored_lines_keep_their_first_author(repo):
    repo.write("a", "~/p", "original by alice\n", provenance=Provenance(ALICE))
    repo.write("a", "~/p", "vandalised\n", provenance=Provenance(BOB))
    repo.restore("a", "~/p", 1, provenance=Provenance(BOB))

    result = blame(repo, "a", "~/p")

    assert origins(result) == [("original by alice", 1)]
    assert result.version == 3
    assert result.lines[0].origin.actor == "agent:alice"


def test_a_moved_paragraph_keeps_its_origin(repo):
    repo.write("a", "~/p", "intro\n\nfirst point\n\nsecond point\n", provenance=Provenance(ALICE))
    repo.write(
        "a", "~/p", "intro\n\nsecond point\n\nfirst point\nnew\n", provenance=Provenance(BOB)
    )

    result = blame(repo, "a", "~/p")

    by_text = {line.text: line.origin.version for line in result.lines}
    assert by_text["first point"] == 1
    assert by_text["second point"] == 1
    assert by_text["new"] == 2


def test_a_deleted_document_is_blamed_as_it_was(repo):
    repo.write("a", "~/p", "line\n")
    repo.delete("a", "~/p")

    result = blame(repo, "a", "~/p")

    assert origins(result) == [("line", 1)]
    assert result.version == 2


def test_lines_after_a_redacted_version_are_blamed_on_the_first_version_that_shows_them(repo):
    repo.write("a", "~/p", "public\n")
    repo.write("a", "~/p", "public\nsecret 1234\n")
    repo.write("a", "~/p", "public\nsafe again\n")
    repo.erase_version("a", "~/p", 2)

    result = blame(repo, "a", "~/p")

    assert origins(result) == [("public", 1), ("safe again", 3)]
    assert all("secret" not in line.text for line in result.lines)
    with pytest.raises(NotFoundError, match="redacted"):
        blame(repo, "a", "~/p", version=2)


def test_version_out_of_range_names_the_range(repo):
    repo.write("a", "~/p", "x\n")
    with pytest.raises(NotFoundError, match="no version 5 .*1 to 1"):
        blame(repo, "a", "~/p", version=5)
    with pytest.raises(NotFoundError, match="not found"):
        blame(repo, "a", "~/missing")


def test_cli_blame_prints_lines_and_json(db_path, repo):
    repo.write("main", "~/p", "one\n", provenance=Provenance(ALICE))
    repo.write("main", "~/p", "one\ntwo\n", provenance=Provenance(actor=MEM, session="s-9", run=3))
    runner = CliRunner()

    text = runner.invoke(cli, ["--db", str(db_path), "blame", "~/p"])
    as_json = runner.invoke(cli, ["--db", str(db_path), "blame", "~/p", "--json"])
    bad = runner.invoke(cli, ["--db", str(db_path), "blame", "~/p", "--version", "9"])

    assert text.exit_code == 0, text.output
    assert "v2" in text.output and "run 3" in text.output and "| two" in text.output
    data = json.loads(as_json.output)
    assert data["lines"][1] == {
        "line": 2,
        "text": "two",
        "version": 2,
        "created_at": data["lines"][1]["created_at"],
        "operation": "modified",
        "path": "~/p",
        "actor_kind": "memory-agent",
        "actor_id": "a",
        "session_id": "s-9",
        "run_id": 3,
    }
    assert bad.exit_code == 2 and "no version 9" in bad.output


@settings(max_examples=60)
@given(
    st.lists(
        st.lists(st.sampled_from(["a", "b", "c", "", "d e", "a\r", "x" * 30]), max_size=8).map(
            lambda ls: "\n".join(ls)
        )
        | st.lists(st.sampled_from(["a", "b", ""]), max_size=5).map(
            lambda ls: "\n".join(ls) + "\n"
        ),
        min_size=1,
        max_size=12,
    )
)
def test_every_line_is_blamed_on_a_version_that_has_it(tmp_path_factory, bodies):
    from doctree.store.blame import split_lines

    db = tmp_path_factory.mktemp("prop") / "p.db"
    from doctree.store.documents import DocumentsRepository

    with DocumentsRepository(db) as repo:
        for body in bodies:
            repo.write("a", "~/p", body)
        history = repo.history("a", "~/p")
        for v in history:
            result = blame(repo, "a", "~/p", version=v.version)
            assert [line.text for line in result.lines] == split_lines(v.body)
            for line in result.lines:
                origin = line.origin.version
                assert origin <= v.version
                assert line.text in split_lines(history[origin - 1].body)
