"""The document commands through click's CliRunner: every command, its --json output, bad
input (exit 2, one line, no traceback) and conflicts (exit 3)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from doctree.cli import cli
from doctree.store.documents import DocumentsRepository, Provenance


@pytest.fixture
def run(db_path, monkeypatch):
    """Invoke `doctree --db DB ...`; returns the click Result."""
    monkeypatch.delenv("DOCTREE_OWNER", raising=False)
    monkeypatch.delenv("DOCTREE_DB", raising=False)
    DocumentsRepository(db_path).close()  # a store with no documents yet (reads need one)
    runner = CliRunner()

    def invoke(*args: str, input: str | None = None, agent: str | None = None):
        head = ["--db", str(db_path)] + (["--owner", agent] if agent else [])
        return runner.invoke(cli, [*head, *args], input=input)

    return invoke


@pytest.fixture
def seeded(run):
    run("write", "~/memory/people/alice", input="# Alice\n\nLeads [[~/memory/projects/apollo]].\n")
    run("write", "~/memory/projects/apollo", input="# Apollo\n\nLaunch in December.\n")
    return run


def assert_user_error(result, *fragments: str, code: int = 2) -> None:
    assert result.exit_code == code, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.output
    for fragment in fragments:
        assert fragment in lines[0]


# -- show ----------------------------------------------------------------------------------


def test_show_prints_the_tree_with_titles_versions_and_sizes(seeded):
    result = seeded("show", "~/memory")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0].startswith("~/memory")
    alice = next(line for line in lines if "alice" in line)
    assert "└── alice" in alice and "Alice" in alice and "v1" in alice and "B" in alice


def test_show_of_home_lists_everything(seeded):
    result = seeded("show")
    assert result.output.splitlines()[0] == "~"
    assert "apollo" in result.output


def test_show_depth_limits_levels(seeded):
    result = seeded("show", "~/memory", "--depth", "1")
    assert "people" in result.output and "alice" not in result.output


def test_show_json_is_nested_nodes(seeded):
    data = json.loads(seeded("show", "~/memory", "--json").output)
    assert data[0]["path"] == "~/memory"
    assert [c["path"] for c in data[0]["children"]] == [
        "~/memory/people",
        "~/memory/projects",
    ]


def test_show_at_a_time_before_anything_is_empty(seeded):
    result = seeded("show", "--at", "2000-01-01")
    assert result.exit_code == 0 and "empty" in result.output


def test_show_of_empty_home_says_so(run):
    result = run("show")
    assert result.exit_code == 0 and "has no documents" in result.output


def test_show_with_bad_time_is_a_user_error(seeded):
    assert_user_error(seeded("show", "--at", "last tuesday"), "time 'last tuesday'")


# -- read / write / edit -------------------------------------------------------------------


def test_write_from_stdin_then_read(run):
    result = run("write", "~/notes", input="hello\n")
    assert result.exit_code == 0 and "~/notes  v1" in result.output
    assert run("read", "~/notes").output == "hello\n"


def test_write_from_a_file_with_title_and_link(run, tmp_path):
    f = tmp_path / "body.md"
    f.write_text("text", encoding="utf-8")
    result = run("write", "~/n", "--file", str(f), "--title", "T", "--link", "~/x", "--json")
    data = json.loads(result.output)
    assert (data["title"], data["links"], data["version"]) == ("T", ["~/x"], 1)
    assert "body" not in data


def test_write_from_a_missing_file_is_a_user_error(run, tmp_path):
    assert_user_error(run("write", "~/n", "--file", str(tmp_path / "nope.md")), "cannot be read")


def test_read_json_has_metadata_and_children(seeded):
    data = json.loads(seeded("read", "~/memory", "--json").output)
    assert data["children"] == ["~/memory/people", "~/memory/projects"]
    assert data["version"] == 1 and data["body"] == ""


def test_read_an_older_version(run):
    run("write", "~/a", input="one")
    run("write", "~/a", input="two")
    assert run("read", "~/a", "--version", "1").output == "one\n"


def test_read_at_a_time(run):
    run("write", "~/a", input="one")
    assert run("read", "~/a", "--at", "2999-01-01").output == "one\n"


def test_write_with_stale_expected_version_is_a_conflict(run):
    run("write", "~/a", input="one")
    run("write", "~/a", input="two")
    result = run("write", "~/a", "--expected-version", "1", input="three")
    assert_user_error(result, "conflict", "expected version 1", code=3)
    assert run("read", "~/a").output == "two\n"


def test_write_with_wrong_sha256_is_a_conflict(run):
    run("write", "~/a", input="one")
    assert_user_error(run("write", "~/a", "--sha256", "00" * 32, input="x"), "conflict", code=3)


def test_edit_replaces_text(seeded):
    result = seeded("edit", "~/memory/projects/apollo", "December", "January")
    assert result.exit_code == 0 and "v2" in result.output
    assert "January" in seeded("read", "~/memory/projects/apollo").output


def test_edit_of_missing_text_is_a_user_error(seeded):
    result = seeded("edit", "~/memory/projects/apollo", "nothing-like-this", "x")
    assert_user_error(result, "was not found")


def test_edit_with_stale_version_is_a_conflict(seeded):
    result = seeded("edit", "~/memory/projects/apollo", "Launch", "L", "--expected-version", "9")
    assert_user_error(result, "conflict", code=3)


def test_edit_all_json(run):
    run("write", "~/a", input="x x")
    data = json.loads(run("edit", "~/a", "x", "y", "--all", "--json").output)
    assert data["version"] == 2


# -- mv / rm / restore ---------------------------------------------------------------------


def test_mv_moves_the_subtree(seeded):
    result = seeded("mv", "~/memory/people", "~/memory/contacts")
    assert result.exit_code == 0 and "moved 2 document(s)" in result.output
    assert seeded("read", "~/memory/contacts/alice").exit_code == 0


def test_mv_json_lists_moved_documents(seeded):
    data = json.loads(seeded("mv", "~/memory/people", "~/people", "--json").output)
    assert [d["path"] for d in data] == ["~/people", "~/people/alice"]


def test_mv_onto_existing_is_a_conflict(seeded):
    result = seeded("mv", "~/memory/people", "~/memory/projects")
    assert_user_error(result, "already exists", code=3)


def test_mv_into_itself_is_a_user_error(seeded):
    assert_user_error(seeded("mv", "~/memory", "~/memory/x"), "into itself")


def test_rm_needs_recursive_for_children(seeded):
    assert_user_error(seeded("rm", "~/memory/people"), "descendant")
    result = seeded("rm", "-r", "~/memory/people", "--json", "--yes")
    assert [d["path"] for d in json.loads(result.output)] == [
        "~/memory/people/alice",
        "~/memory/people",
    ]


def test_rm_recursive_of_several_documents_asks_first_and_refuses_without_a_terminal(seeded):
    result = seeded("rm", "-r", "~/memory/people")
    assert_user_error(result, "--yes")
    assert "stdin is not a terminal" in result.output
    assert seeded("read", "~/memory/people/alice").exit_code == 0  # nothing deleted


def test_rm_dry_run_lists_what_it_would_delete_and_deletes_nothing(seeded):
    result = seeded("rm", "-r", "~/memory/people", "--dry-run")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("would delete 2 document(s)")
    assert [line.split()[0] for line in lines[1:]] == ["~/memory/people", "~/memory/people/alice"]
    assert seeded("read", "~/memory/people/alice").exit_code == 0
    listed = json.loads(seeded("rm", "-r", "~/memory/people", "--dry-run", "--json").output)
    assert [d["path"] for d in listed] == ["~/memory/people", "~/memory/people/alice"]
    assert seeded("read", "~/memory/people").exit_code == 0


def test_rm_of_one_document_does_not_ask(seeded):
    # one document, recursive or not: a tombstone `restore` undoes, so no question
    assert seeded("rm", "-r", "~/memory/people/alice").output == "deleted 1 document(s)\n"


def test_rm_then_restore(seeded):
    assert seeded("rm", "~/memory/projects/apollo").output == "deleted 1 document(s)\n"
    result = seeded("restore", "~/memory/projects/apollo", "1")
    assert result.exit_code == 0 and "v3" in result.output
    assert "Apollo" in seeded("read", "~/memory/projects/apollo").output


def test_restore_json(seeded):
    data = json.loads(seeded("restore", "~/memory/projects/apollo", "1", "--json").output)
    assert data["version"] == 2


def test_restore_of_a_missing_version_is_a_user_error(seeded):
    assert_user_error(seeded("restore", "~/memory/projects/apollo", "9"), "no version 9")


# -- history / diff / log ------------------------------------------------------------------


def test_history_lists_versions_oldest_first(run):
    run("write", "~/a", input="one")
    run("write", "~/a", input="two")
    lines = run("history", "~/a").output.splitlines()
    assert lines[0].startswith("v1") and "created" in lines[0] and "by user:" in lines[0]
    assert lines[1].startswith("v2") and "modified" in lines[1]


def test_history_json_has_no_bodies(run):
    run("write", "~/a", input="one")
    [v] = json.loads(run("history", "~/a", "--json").output)
    assert v["operation"] == "created" and "body" not in v and v["actor"].startswith("user:")


def test_diff_between_versions(run):
    run("write", "~/a", input="one\n")
    run("write", "~/a", input="two\n")
    assert "-one\n+two\n" in run("diff", "~/a").output
    assert "+one" in run("diff", "~/a", "0", "1").output


def test_diff_of_a_run(db_path, run):
    with DocumentsRepository(db_path) as repo:
        repo.write("main", "~/a", "before\n")
        repo.write("main", "~/a", "after\n", provenance=Provenance(run=42))
        repo.write("main", "~/b", "new\n", provenance=Provenance(run=42))
    out = run("diff", "--run", "42").output
    assert "-before\n+after\n" in out and "+++ ~/b@1" in out


def test_diff_of_a_run_shows_what_a_deletion_removed_in_the_order_the_run_went(db_path, run):
    # one home for a run's diff (doctree.store.changes): the CLI says what the inspector says
    with DocumentsRepository(db_path) as repo:
        repo.write("main", "~/c", "kept line\n")
        repo.write("main", "~/b", "new\n", provenance=Provenance(run=7))
        repo.delete("main", "~/c", provenance=Provenance(run=7))
    parts = json.loads(run("diff", "--run", "7", "--json").output)["documents"]
    assert [(p["path"], p["from"], p["to"]) for p in parts] == [("~/b", 0, 1), ("~/c", 1, 2)]
    assert "-kept line\n" in parts[1]["diff"] and "--- ~/c@1" in parts[1]["diff"]


def test_diff_without_path_or_run_is_a_usage_error(run):
    result = run("diff")
    assert result.exit_code == 2 and "give PATH" in result.output


def test_log_newest_first_and_json(run):
    run("write", "~/a", input="1")
    run("write", "~/b", input="2")
    assert "~/b" in run("log").output.splitlines()[0]
    data = json.loads(run("log", "--json").output)
    assert [v["path"] for v in data] == ["~/b", "~/a"]


def test_log_of_an_empty_store_says_no_changes(run):
    assert run("log").output == "no changes\n"


def test_log_all_agents(run):
    run("write", "~/a", input="1", agent="one")
    run("write", "~/b", input="2", agent="two")
    assert [v["owner"] for v in json.loads(run("log", "--all-owners", "--json").output)] == [
        "two",
        "one",
    ]


# -- links / search ------------------------------------------------------------------------


def test_links_shows_out_and_back(seeded):
    out = seeded("links", "~/memory/projects/apollo").output
    assert out.splitlines()[0] == "out:"
    assert "back:\n  body   ~/memory/people/alice" in out


def test_links_marks_dangling_references(run):
    run("write", "~/a", input="see [[~/later]]")
    assert "~/later (dangling)" in run("links", "~/a").output


def test_links_json(seeded):
    data = json.loads(seeded("links", "~/memory/people/alice", "--json").output)
    assert {(r["kind"], r["target_path"], r["state"]) for r in data["out"]} == {
        ("parent", "~/memory/people", "resolved"),
        ("body", "~/memory/projects/apollo", "resolved"),
    }


def test_search_prints_hits_with_snippets(seeded):
    out = seeded("search", "launch").output
    assert out.startswith("~/memory/projects/apollo  (Apollo)") and "[Launch]" in out


def test_search_under_and_json(seeded):
    hits = json.loads(seeded("search", "apollo", "--under", "~/memory/people", "--json").output)
    assert [h["path"] for h in hits] == ["~/memory/people/alice"]


def test_search_without_hits(seeded):
    assert seeded("search", "zebra").output == "no matches\n"


# -- agents, paths, errors -----------------------------------------------------------------


def test_agents_do_not_see_each_other(run):
    run("write", "~/secret", input="x", agent="alice")
    assert_user_error(run("read", "~/secret", agent="bob"), "not found for owner 'bob'")


def test_owner_from_environment(run, monkeypatch):
    monkeypatch.setenv("DOCTREE_OWNER", "envagent")
    run("write", "~/a", input="x")
    assert run("read", "~/a", agent="envagent").output == "x\n"


def test_bad_owner_exits_2_without_traceback(run):
    result = run("show", agent="bad agent")
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "agent id 'bad agent'" in result.output


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("read", "~/a/../b"), "'..' is not allowed"),
        (("read", "/etc/passwd"), "absolute paths are not allowed"),
        (("write", "~/a b"), "is not a slug"),
        (("write", "~"), "the home '~' is not a document"),
        (("show", "~/missing"), "not found"),
        (("history", "~/missing"), "not found"),
        (("links", "~/missing"), "not found"),
        (("edit", "~/missing", "a", "b"), "not found"),
        (("rm", "~/missing"), "not found"),
        (("mv", "~/missing", "~/x"), "not found"),
        (("diff", "~/missing"), "not found"),
        (("search", "x", "--under", "~/../x"), "'..' is not allowed"),
        (("log", "~/./x"), "'.' is not allowed"),
    ],
)
def test_bad_input_exits_2_with_one_line(run, args, fragment):
    assert_user_error(run(*args, input="body"), fragment)


def test_body_over_the_limit_exits_2(run, monkeypatch):
    monkeypatch.setenv("DOCTREE_MAX_BODY_BYTES", "3")
    assert_user_error(run("write", "~/a", input="12345"), "limit is 3 bytes")


def test_click_level_bad_input_exits_2_with_one_line(run):
    result = run("show", "--depth", "-1")
    assert result.exit_code == 2 and "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: Invalid value for '--depth'")
    assert "--help" in lines[0]


def test_shell_expanded_home_is_turned_back_into_tilde(run, monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    run("write", f"{tmp_path}/notes", input="x")
    assert run("read", "~/notes").output == "x\n"
