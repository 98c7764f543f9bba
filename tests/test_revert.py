"""Reverting a run: what it changed is put back, later work is kept, twice changes nothing.

Runs are real rows in `runs`; the failing-run cases drive the real SDK against the loopback
fake of the Messages API, and the worker's retry goes through a real worker tick.
"""

from __future__ import annotations

import json
import time

import pytest
from click.testing import CliRunner

from doctree.agent.runtime import MemoryAgentRuntime, RunFailedError
from doctree.cli import cli
from doctree.errors import NotFoundError, UserError
from doctree.memory.revert import revert_run
from doctree.sessions.repository import SessionsRepository
from doctree.store.documents import Actor, Provenance
from doctree.store.runs import Runs
from doctree.worker.worker import MemoryWorker
from tests.fakes.messages_api import (
    FakeMessagesServer,
    HttpError,
    Scripted,
    message,
    text_block,
    tool_use_block,
)

AGENT = Actor("memory-agent", "main")
ME = Actor("user", "alice")
ACTIVE = "# Active\n\n## Preferences\n"
TRANSCRIPT = "# Transcript of session s-1\n\n- agent: main\n- session: s-1\n"


@pytest.fixture
def runs(repo):
    return Runs(repo.conn)


@pytest.fixture
def run_id(repo, runs):
    """A failed run that changed, created, moved and deleted documents."""
    repo.write("main", "~/memory/active", ACTIVE)
    repo.write("main", "~/memory/old", "# Old\n")
    repo.write("main", "~/memory/gone", "# Gone\n")
    rid = runs.start(owner="main", backend="anthropic", model="m")
    repo.write(
        "main", "~/memory/active", ACTIVE + "- tea\n", provenance=Provenance(actor=AGENT, run=rid)
    )
    repo.write(
        "main", "~/memory/people/bob", "# Bob\n", provenance=Provenance(actor=AGENT, run=rid)
    )
    repo.move(
        "main", "~/memory/old", "~/memory/archive/old", provenance=Provenance(actor=AGENT, run=rid)
    )
    repo.delete("main", "~/memory/gone", provenance=Provenance(actor=AGENT, run=rid))
    runs.finish(rid, "failed", "error", "boom")
    return rid


def paths(repo):
    return [d.path for d in repo.documents("main")]


def version_count(repo):
    return len(repo.log("main", limit=None))


# -- the library ---------------------------------------------------------------------------


def test_revert_restores_a_document_the_run_changed(repo, run_id):
    revert_run(repo, run_id, actor=ME)
    assert repo.read("main", "~/memory/active").body == ACTIVE


def test_revert_deletes_documents_the_run_created_with_their_parents(repo, run_id):
    revert_run(repo, run_id, actor=ME)
    assert not repo.exists("main", "~/memory/people/bob")
    assert not repo.exists("main", "~/memory/people")


def test_revert_restores_a_document_the_run_deleted(repo, run_id):
    revert_run(repo, run_id, actor=ME)
    assert repo.read("main", "~/memory/gone").body == "# Gone\n"


def test_revert_moves_back_a_document_the_run_moved(repo, run_id):
    old_id = repo.get("main", "~/memory/archive/old").id
    revert_run(repo, run_id, actor=ME)
    assert repo.get("main", "~/memory/old").id == old_id
    assert not repo.exists("main", "~/memory/archive")


def test_revert_brings_the_tree_back_to_its_state_before_the_run(repo, run_id):
    revert_run(repo, run_id, actor=ME)
    assert paths(repo) == ["~/memory", "~/memory/active", "~/memory/gone", "~/memory/old"]


def test_revert_changes_are_new_versions_by_the_reverting_actor(repo, run_id):
    revert_run(repo, run_id, actor=ME)
    history = repo.history("main", "~/memory/active")
    assert [(v.version, v.operation, v.actor) for v in history] == [
        (1, "created", "agent:main"),
        (2, "modified", "memory-agent:main"),
        (3, "restored", "user:alice"),
    ]


def test_revert_report_lists_what_was_put_back_and_how(repo, run_id):
    report = revert_run(repo, run_id, actor=ME)
    assert {i.path: i.actions for i in report.reverted} == {
        "~/memory/active": ["restored"],
        "~/memory/people": ["deleted"],
        "~/memory/people/bob": ["deleted"],
        "~/memory/archive": ["deleted"],
        "~/memory/old": ["moved"],
        "~/memory/gone": ["undeleted"],
    }


def test_document_changed_by_someone_else_after_the_run_is_kept(repo, run_id):
    repo.write("main", "~/memory/active", ACTIVE + "- tea\n- coffee\n", provenance=Provenance(ME))
    report = revert_run(repo, run_id, actor=ME)
    assert repo.read("main", "~/memory/active").body == ACTIVE + "- tea\n- coffee\n"
    [kept] = report.kept
    assert kept.path == "~/memory/active"
    assert "changed since by user:alice (version 3, modified)" in kept.reason


def test_created_document_with_a_later_child_by_someone_else_is_kept(repo, run_id):
    repo.write("main", "~/memory/people/carol", "# Carol\n", provenance=Provenance(ME))
    report = revert_run(repo, run_id, actor=ME)
    assert repo.exists("main", "~/memory/people")
    assert repo.exists("main", "~/memory/people/carol")
    assert not repo.exists("main", "~/memory/people/bob")
    [kept] = report.kept
    assert kept.path == "~/memory/people"
    assert "'~/memory/people/carol'" in kept.reason


def test_move_back_is_reported_when_the_old_path_is_taken(repo, run_id):
    repo.write("main", "~/memory/old", "# A new old\n", provenance=Provenance(ME))
    report = revert_run(repo, run_id, actor=ME)
    assert repo.exists("main", "~/memory/archive/old")
    assert repo.read("main", "~/memory/old").body == "# A new old\n"
    [kept] = [i for i in report.kept if i.before_path == "~/memory/old"]
    assert kept.path == "~/memory/archive/old"
    assert "'~/memory/old', is taken by another document" in kept.reason


def test_deleted_document_whose_path_was_taken_since_is_kept(repo, run_id):
    repo.write("main", "~/memory/gone", "# Gone again\n", provenance=Provenance(ME))
    report = revert_run(repo, run_id, actor=ME)
    assert repo.read("main", "~/memory/gone").body == "# Gone again\n"
    [kept] = report.kept
    assert "'~/memory/gone', is taken by another document" in kept.reason


def test_document_changed_by_someone_else_during_the_run_is_kept(repo, runs):
    repo.write("main", "~/memory/active", ACTIVE)
    rid = runs.start(owner="main", backend="anthropic", model="m")
    repo.write(
        "main", "~/memory/active", ACTIVE + "- tea\n", provenance=Provenance(actor=AGENT, run=rid)
    )
    repo.write("main", "~/memory/active", ACTIVE + "- tea\n- mine\n", provenance=Provenance(ME))
    repo.write(
        "main",
        "~/memory/active",
        ACTIVE + "- tea\n- mine\n- ok\n",
        provenance=Provenance(actor=AGENT, run=rid),
    )
    runs.finish(rid, "failed", "error", "boom")
    report = revert_run(repo, rid, actor=ME)
    assert "- mine" in repo.read("main", "~/memory/active").body
    assert [i.path for i in report.kept] == ["~/memory/active"]


def test_moved_subtree_comes_back_whole(repo, runs):
    repo.write("main", "~/memory/projects/x/notes", "# Notes\n")
    rid = runs.start(owner="main", backend="anthropic", model="m")
    repo.move(
        "main",
        "~/memory/projects/x",
        "~/memory/archive/x",
        provenance=Provenance(actor=AGENT, run=rid),
    )
    repo.write(
        "main",
        "~/memory/archive/x/notes",
        "# Notes v2\n",
        provenance=Provenance(actor=AGENT, run=rid),
    )
    runs.finish(rid, "failed", "error", "boom")
    revert_run(repo, rid, actor=ME)
    assert repo.read("main", "~/memory/projects/x/notes").body == "# Notes\n"
    assert not repo.exists("main", "~/memory/archive")


def test_reverting_twice_changes_nothing_the_second_time(repo, run_id):
    revert_run(repo, run_id, actor=ME)
    before = version_count(repo)
    again = revert_run(repo, run_id, actor=ME)
    assert version_count(repo) == before
    assert (again.reverted, again.kept, len(again.unchanged)) == ([], [], 6)


def test_revert_is_recorded_on_the_run(repo, runs, run_id):
    revert_run(repo, run_id, actor=ME)
    run = runs.get(run_id)
    assert (run.status, run.reverted_by) == ("failed", "user:alice")
    assert run.reverted_at is not None


def test_second_revert_keeps_the_first_reverts_time(repo, runs, run_id):
    first = revert_run(repo, run_id, actor=ME)
    again = revert_run(repo, run_id, actor=Actor("user", "bob"))
    run = runs.get(run_id)
    assert first.already_reverted_at is None
    assert again.already_reverted_at == run.reverted_at
    assert run.reverted_by == "user:alice"


def test_dry_run_reports_what_would_be_put_back_and_writes_nothing(repo, runs, run_id):
    before = version_count(repo)
    report = revert_run(repo, run_id, actor=ME, dry_run=True)
    assert version_count(repo) == before
    assert runs.get(run_id).reverted_at is None
    assert {i.path: i.actions for i in report.reverted}["~/memory/archive/old"] == ["moved"]


def test_a_run_still_running_is_refused(repo, runs):
    rid = runs.start(owner="main", backend="anthropic", model="m")
    with pytest.raises(UserError, match=f"run {rid} is still running"):
        revert_run(repo, rid, actor=ME)


def test_a_run_still_running_is_reverted_when_forced(repo, runs):
    rid = runs.start(owner="main", backend="anthropic", model="m")
    repo.write("main", "~/memory/a", "# A\n", provenance=Provenance(actor=AGENT, run=rid))
    revert_run(repo, rid, actor=ME, force=True)
    assert not repo.exists("main", "~/memory/a")


def test_unknown_run_is_an_error(repo):
    with pytest.raises(NotFoundError, match="run 99: no such run"):
        revert_run(repo, 99, actor=ME)


# -- the command line ----------------------------------------------------------------------


def invoke(db_path, *args):
    return CliRunner().invoke(cli, ["--db", str(db_path), *args])


def test_cli_revert_prints_what_was_put_back_and_what_was_kept(db_path, repo, run_id):
    repo.write("main", "~/memory/people/bob", "# Bob, edited\n", provenance=Provenance(ME))
    result = invoke(db_path, "revert", "--run", str(run_id), "--keep-changed", "--yes")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == (
        f"run {run_id} (owner 'main'): put back 4, kept 2, for review 0, unchanged 0"
    )
    assert any(ln.split()[:2] == ["restored", "~/memory/active"] for ln in lines)
    kept = {ln.split()[1]: ln for ln in lines if ln.split()[0] == "kept"}
    assert "changed since by user:alice" in kept["~/memory/people/bob"]
    assert "'~/memory/people/bob'" in kept["~/memory/people"]


def test_cli_revert_json_is_the_report(db_path, run_id):
    result = invoke(db_path, "revert", "--run", str(run_id), "--json", "--yes")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["run_id"], data["dry_run"], len(data["reverted"])) == (run_id, False, 6)
    assert data["reverted"][0]["versions"]


def test_cli_revert_dry_run_writes_nothing(db_path, repo, run_id):
    before = version_count(repo)
    result = invoke(db_path, "revert", "--run", str(run_id), "--dry-run")
    assert result.exit_code == 0, result.output
    assert "would put back 6" in result.output
    assert version_count(repo) == before


def test_cli_revert_of_an_unknown_run_is_a_user_error(db_path, repo):
    result = invoke(db_path, "revert", "--run", "42")
    assert result.exit_code == 2
    assert "run 42: no such run" in result.output


def test_cli_run_show_says_when_a_run_was_reverted(db_path, run_id):
    invoke(db_path, "revert", "--run", str(run_id), "--yes")
    result = invoke(db_path, "run-show", str(run_id))
    assert "reverted:" in result.output and "by user:" in result.output


# -- the runtime and the worker ------------------------------------------------------------


def edit_active():
    """A non-idempotent change: applied twice, the preference line appears twice."""
    return tool_use_block(
        "document_edit",
        {
            "path": "~/memory/active",
            "old_string": "## Preferences\n",
            "new_string": "## Preferences\n- prefers tea (session s-1)\n",
        },
    )


def write_bob():
    return tool_use_block("document_write", {"path": "~/memory/people/bob", "body": "# Bob\n"})


def runtime_on(repo, srv):
    return MemoryAgentRuntime(
        repo, backend="anthropic", api_key="k", base_url=srv.base_url, max_retries=2
    )


def failing_script():
    """Two writes, then the server fails until the SDK's retries (2) run out."""
    return [message(edit_active(), write_bob()), *[HttpError(500, "boom") for _ in range(3)]]


def test_runtime_reverts_a_failed_run_before_raising(repo):
    repo.write("main", "~/memory/active", ACTIVE)
    with (
        FakeMessagesServer(Scripted(failing_script())) as srv,
        pytest.raises(RunFailedError) as e,
    ):
        runtime_on(repo, srv).run("main", "s-1", TRANSCRIPT)
    assert len(srv.requests) == 4
    assert repo.read("main", "~/memory/active").body == ACTIVE
    assert not repo.exists("main", "~/memory/people")
    run = Runs(repo.conn).get(e.value.run_id)
    assert (run.status, run.reverted_by) == ("failed", f"system:revert-run-{run.id}")


def test_runtime_does_not_revert_a_run_stopped_at_a_limit(repo):
    repo.write("main", "~/memory/active", ACTIVE)
    script = [message(edit_active()), message(write_bob()), message(text_block("more"))]
    with FakeMessagesServer(Scripted(script)) as srv:
        rt = MemoryAgentRuntime(
            repo,
            backend="anthropic",
            api_key="k",
            base_url=srv.base_url,
            definition=runtime_on(repo, srv).definition.model_copy(update={"max_turns": 2}),
        )
        result = rt.run("main", "s-1", TRANSCRIPT)
    assert (result.run.status, result.run.stop_reason) == ("stopped", "max_turns")
    assert result.run.reverted_at is None
    assert repo.exists("main", "~/memory/people/bob")
    assert "- prefers tea" in repo.read("main", "~/memory/active").body


def test_worker_retry_after_a_failed_run_writes_no_duplicate_lines(repo):
    repo.write("main", "~/memory/active", ACTIVE)
    sessions = SessionsRepository(repo.conn)
    sessions.create("main", "s-1")
    for i in range(6):
        sessions.append_history("s-1", "user", f"message {i}: I prefer tea")
    script = [*failing_script(), message(edit_active(), write_bob()), message(text_block("ok"))]
    with FakeMessagesServer(Scripted(script)) as srv:
        worker = MemoryWorker(repo.conn, handler=runtime_on(repo, srv), retry_base=0.05)
        assert worker.tick().failed == ["s-1"]
        time.sleep(0.1)
        assert worker.tick().processed == ["s-1"]
    body = repo.read("main", "~/memory/active").body
    assert body.count("- prefers tea (session s-1)") == 1
    assert [r.status for r in Runs(repo.conn).list()] == ["completed", "failed"]


def test_without_the_revert_the_retry_would_duplicate_the_line(repo):
    """The contrast case: the same two tool calls applied twice duplicate the entry."""
    repo.write("main", "~/memory/active", ACTIVE)
    script = [message(edit_active()), message(text_block("ok"))] * 2
    with FakeMessagesServer(Scripted(script)) as srv:
        rt = runtime_on(repo, srv)
        rt.run("main", "s-1", TRANSCRIPT)
        rt.run("main", "s-1", TRANSCRIPT)
    assert repo.read("main", "~/memory/active").body.count("- prefers tea (session s-1)") == 2


def test_cli_runs_lists_a_reverted_run_as_reverted(db_path, run_id):
    assert invoke(db_path, "revert", "--run", str(run_id), "--yes").exit_code == 0
    result = invoke(db_path, "runs")
    assert result.exit_code == 0, result.output
    row = next(ln for ln in result.output.splitlines() if ln.split()[0] == str(run_id))
    assert "reverted" in row.split()
