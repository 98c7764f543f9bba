"""Reverting a run whose pages a later run changed: the three-way undo of only the run's own
lines (`undo_lines`, `revert_run(lines=True)`), reviews for clashes, and `doctree revert`,
which never skips a shared page silently."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from doctree.cli import cli
from doctree.memory.revert import revert_run, undo_lines
from doctree.store.documents import Actor, Provenance
from doctree.store.runs import Runs

AGENT = Actor("memory-agent", "main")
ME = Actor("user", "alice")
ACTIVE = "# Active\n\n## Preferences\n- likes Lisbon\n\n## Dates\n- 2026-12-01: launch\n"


def run_writes(repo, session, body, path="~/memory/active", status="completed"):
    runs = Runs(repo.conn)
    rid = runs.start(owner="main", backend="offline", model="m", session_id=session)
    repo.write("main", path, body, provenance=Provenance(actor=AGENT, run=rid))
    runs.finish(rid, status, "end_turn" if status == "completed" else "error")
    return rid


@pytest.fixture
def shared(repo):
    """Run 1 (failed) added a line to active; run 2 then added another and made a page."""
    repo.write("main", "~/memory/active", ACTIVE, provenance=Provenance(AGENT))
    repo.write("main", "~/memory/notes", "# Notes\n", provenance=Provenance(AGENT))
    first = run_writes(repo, "s-1", ACTIVE + "- prefers tea\n", status="failed")
    repo.write(
        "main",
        "~/memory/notes",
        "# Notes\n\n- from run 1\n",
        provenance=Provenance(actor=AGENT, run=first),
    )
    run_writes(
        repo, "s-2", ACTIVE.replace("- likes Lisbon\n", "- likes Porto\n") + "- prefers tea\n"
    )
    return first


# -- the three-way undo --------------------------------------------------------------------


def test_undo_takes_out_an_added_line_and_keeps_a_line_added_after_it():
    assert undo_lines("a\nb\n", "a\nb\nrun\n", "a\nb\nrun\nlater\n") == "a\nb\nlater\n"


def test_undo_puts_back_a_line_the_run_changed_and_keeps_later_changes_elsewhere():
    before, run = "a\nb\nc\n", "a\nb\nC by the run\n"
    assert undo_lines(before, run, "later a\nb\nC by the run\n") == "later a\nb\nc\n"


def test_undo_clashes_on_changes_to_adjacent_lines():
    """As diff3 does: a later change right next to the run's is not told apart from it."""
    assert undo_lines("a\nb\n", "a\nB by the run\n", "later a\nB by the run\n") is None


def test_undo_puts_back_a_line_the_run_removed():
    assert undo_lines("a\nb\nc\n", "a\nc\n", "a\nc\nlater\n") == "a\nb\nc\nlater\n"


def test_undo_clashes_when_a_later_change_edited_the_runs_line():
    assert undo_lines("a\n", "a\nrun\n", "a\nrun, edited later\n") is None


def test_undo_clashes_when_the_runs_line_is_there_twice_beside_later_lines():
    assert undo_lines("a\n", "a\nx\n", "a\nx\nlater\nx\n") is None


lines = st.lists(st.sampled_from(["alpha", "beta", "gamma", "- item", "", "# H"]), max_size=8)


@given(before=lines, run=lines)
def test_undo_with_no_later_change_gives_back_the_text_before_the_run(before, run):
    b = "".join(f"{x}\n" for x in before)
    r = "".join(f"{x}\n" for x in run)
    assert undo_lines(b, r, r) == b


later_lines = st.lists(st.text("xyz", min_size=1).map(lambda x: f"later {x}"), max_size=4)


@given(before=lines, added=lines, top=later_lines, bottom=later_lines)
def test_undo_of_appended_lines_keeps_lines_added_later_above_and_below(before, added, top, bottom):
    """The run appended lines (as the memory agent does to active); later work added lines
    at the top and after the run's: the undo is clean and keeps all of the later lines."""

    def text(ls):
        return "".join(f"{x}\n" for x in ls)

    run = before + added
    assert undo_lines(text(before), text(run), text(top + run + bottom)) == text(
        top + before + bottom
    )


# -- the library ---------------------------------------------------------------------------


def test_whole_document_revert_keeps_a_page_changed_since_and_says_by_whom(repo, shared):
    report = revert_run(repo, shared, actor=ME)
    kept = {i.path: i for i in report.kept}
    assert kept["~/memory/active"].changed_since.startswith("memory-agent:main (version 3")
    assert repo.read("main", "~/memory/active").body.endswith("- prefers tea\n")


def test_line_revert_takes_out_the_runs_line_and_keeps_the_later_change(repo, shared):
    report = revert_run(repo, shared, actor=ME, lines=True)
    assert repo.read("main", "~/memory/active").body == ACTIVE.replace("Lisbon", "Porto")
    assert repo.read("main", "~/memory/notes").body == "# Notes\n"
    assert {i.path: i.actions for i in report.reverted} == {
        "~/memory/active": ["lines-undone"],
        "~/memory/notes": ["restored"],
    }
    assert report.review == []


def test_line_revert_twice_changes_nothing_the_second_time(repo, shared):
    revert_run(repo, shared, actor=ME, lines=True)
    count = len(repo.log("main", limit=None))
    report = revert_run(repo, shared, actor=ME, lines=True)
    assert len(repo.log("main", limit=None)) == count
    assert report.reverted == [] and report.review == []
    assert {i.path for i in report.unchanged} == {"~/memory/active", "~/memory/notes"}


def test_a_clash_is_left_as_it_is_and_recorded_for_review(repo, shared):
    run_writes(repo, "s-3", ACTIVE + "- prefers tea, green\n")
    report = revert_run(repo, shared, actor=ME, lines=True)
    assert repo.read("main", "~/memory/active").body == ACTIVE + "- prefers tea, green\n"
    assert [i.path for i in report.review] == ["~/memory/active"]
    (review,) = Runs(repo.conn).reviews([shared])[shared]
    assert review.path == "~/memory/active" and "compare versions" in review.reason


def test_keeping_the_changed_pages_resolves_the_review(repo, shared):
    run_writes(repo, "s-3", ACTIVE + "- prefers tea, green\n")
    revert_run(repo, shared, actor=ME, lines=True)
    revert_run(repo, shared, actor=ME, keep_changed=True)
    assert Runs(repo.conn).reviews([shared]) == {}


def test_a_failed_runs_automatic_revert_flags_what_it_cannot_put_back(repo):
    """The runtime's revert of a failed run (lines=True): a page whose run-made path was
    taken since cannot come back, and is flagged rather than kept silently."""
    repo.write("main", "~/memory/old", "# Old\n", provenance=Provenance(AGENT))
    runs = Runs(repo.conn)
    rid = runs.start(owner="main", backend="offline", model="m")
    repo.move("main", "~/memory/old", "~/memory/new", provenance=Provenance(actor=AGENT, run=rid))
    runs.finish(rid, "failed", "error", "boom")
    repo.write("main", "~/memory/old", "# Another page\n", provenance=Provenance(AGENT))
    report = revert_run(repo, rid, actor=Actor("system", f"revert-run-{rid}"), lines=True)
    assert [i.path for i in report.review] == ["~/memory/new"]
    assert [r.path for r in runs.reviews([rid])[rid]] == ["~/memory/new"]


def test_a_page_written_by_another_run_while_the_run_ran_is_flagged_not_undone(repo):
    """Versions interleaved with the run's: its own lines cannot be told apart by a diff of
    its last version against the one before it, so nothing is guessed."""
    repo.write("main", "~/memory/active", ACTIVE, provenance=Provenance(AGENT))
    runs = Runs(repo.conn)
    rid = runs.start(owner="main", backend="offline", model="m")
    repo.write(
        "main", "~/memory/active", ACTIVE + "- run 1\n", provenance=Provenance(actor=AGENT, run=rid)
    )
    other = run_writes(repo, "s-2", ACTIVE + "- run 1\n- run 2\n")
    repo.write("main", "~/memory/active", ACTIVE + "- run 1\n- run 2\n- run 1 again\n",
               provenance=Provenance(actor=AGENT, run=rid))  # fmt: skip
    runs.finish(rid, "failed", "error", "boom")
    report = revert_run(repo, rid, actor=ME, lines=True)
    assert [i.path for i in report.review] == ["~/memory/active"]
    assert "while the run ran" in report.review[0].reason
    assert "- run 2" in repo.read("main", "~/memory/active").body
    assert other != rid


def test_forget_rewrites_the_reason_of_a_review(repo):
    runs = Runs(repo.conn)
    rid = runs.start(owner="main", backend="offline", model="m")
    repo.write("main", "~/memory/a", "x", provenance=Provenance(actor=AGENT, run=rid))
    doc = repo.read("main", "~/memory/a")
    runs.flag_reviews(rid, [(doc.id, "about Kohl")])
    runs.scrub("main", lambda text: text.replace("Kohl", "[forgotten]"))
    assert runs.reviews([rid])[rid][0].reason == "about [forgotten]"


# -- the command line ----------------------------------------------------------------------


def invoke(db_path, *args):
    return CliRunner().invoke(cli, ["--db", str(db_path), *args])


def test_cli_revert_stops_at_a_page_changed_since_and_names_it(db_path, repo, shared):
    count = len(repo.log("main", limit=None))
    result = invoke(db_path, "revert", "--run", str(shared))
    assert result.exit_code == 3, result.output
    assert "~/memory/active (by memory-agent:main" in result.output
    assert "--lines" in result.output and "--keep-changed" in result.output
    assert len(repo.log("main", limit=None)) == count  # nothing reverted


def test_cli_revert_lines_takes_out_only_the_runs_lines(db_path, repo, shared):
    result = invoke(db_path, "revert", "--run", str(shared), "--lines", "--yes")
    assert result.exit_code == 0, result.output
    assert "lines-undone" in result.output
    assert repo.read("main", "~/memory/active").body == ACTIVE.replace("Lisbon", "Porto")


def test_cli_revert_dry_run_lists_the_page_changed_since(db_path, repo, shared):
    result = invoke(db_path, "revert", "--run", str(shared), "--dry-run", "--json")
    assert result.exit_code == 0, result.output
    kept = json.loads(result.output)["kept"]
    assert [i["path"] for i in kept] == ["~/memory/active"]
    assert kept[0]["changed_since"].startswith("memory-agent:main")


def test_cli_revert_refuses_lines_with_keep_changed(db_path, shared):
    result = invoke(db_path, "revert", "--run", str(shared), "--lines", "--keep-changed")
    assert result.exit_code == 2
    assert "give one" in result.output
