"""A memory agent run killed mid-run (a real `doctree worker` process, SIGKILL) keeps none of
its partial writes, even when a later run changed the same page before the worker that takes
its session over reverts it: the crashed run's own lines are taken out and the later run's
stay, or, where the later run changed those very lines, the run is flagged for review and
listed by `doctree runs` — never kept silently."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from doctree.sessions.repository import SessionsRepository
from doctree.store.documents import Actor, Provenance
from doctree.store.runs import Runs
from tests.fakes.messages_api import FakeMessagesServer, message, tool_use_block

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

ACTIVE = "# Active\n\n## Preferences\n"
CRASHED = "- prefers tea (session s-crash)\n"
LATER = "- prefers jazz (session s-later)\n"
MEMORY_AGENT = Actor("memory-agent", "main")


def doctree(db, *args, env=None):
    return subprocess.run(
        [sys.executable, "-m", "doctree", "--db", str(db), *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


class CrashingModel:
    """The first request edits ~/memory/active; the second waits until the test has killed
    the worker (so the run is cut off mid-way, its first write made)."""

    def __init__(self):
        self.waiting = threading.Event()
        self.release = threading.Event()

    def __call__(self, request):
        if sum(1 for m in request["messages"] if m["role"] == "assistant") == 0:
            return message(
                tool_use_block(
                    "document_edit",
                    {
                        "path": "~/memory/active",
                        "old_string": "## Preferences\n",
                        "new_string": "## Preferences\n" + CRASHED,
                    },
                )
            )
        self.waiting.set()
        self.release.wait(60)
        return message({"type": "text", "text": "too late"})


def crash_a_run(db_path, repo):
    """A worker process hands session s-crash to the memory agent on the Messages API and is
    killed with SIGKILL after the agent's first write; returns the crashed run's id."""
    repo.write("main", "~/memory/active", ACTIVE, provenance=Provenance(MEMORY_AGENT))
    sessions = SessionsRepository(repo.conn)
    sessions.create("main", "s-crash")
    for i in range(6):
        sessions.append_history("s-crash", "user", f"message {i}: I prefer tea")
    sessions.sleep("s-crash")
    model = CrashingModel()
    with FakeMessagesServer(model) as server:
        env = {
            **os.environ,
            "ANTHROPIC_API_KEY": "test-key",
            "ANTHROPIC_BASE_URL": server.base_url,
        }
        worker = subprocess.Popen(
            [
                sys.executable, "-m", "doctree", "--db", str(db_path), "worker",
                "--backend", "anthropic", "--interval", "0.05", "--lease-ttl", "1",
                "--no-compact",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )  # fmt: skip
        try:
            assert model.waiting.wait(60), "the worker never reached the model's second turn"
            worker.send_signal(signal.SIGKILL)
            worker.communicate(timeout=30)
        finally:
            model.release.set()
            if worker.poll() is None:
                worker.kill()
                worker.communicate(timeout=30)
    assert worker.returncode == -signal.SIGKILL
    (run,) = Runs(repo.conn).list(session_id="s-crash")
    assert repo.read("main", "~/memory/active").body == ACTIVE + CRASHED  # its partial write
    return run.id


def a_later_run_writes_active(repo, body):
    """Another session's run, completed after the crash, changes the same page."""
    runs = Runs(repo.conn)
    rid = runs.start(owner="main", backend="offline", model="m", session_id="s-later")
    repo.write("main", "~/memory/active", body, provenance=Provenance(actor=MEMORY_AGENT, run=rid))
    runs.finish(rid, "completed", "end_turn")
    return rid


def take_over(db_path, tmp_path):
    """A worker process that takes the crashed session over once its lease has lapsed (its
    backend records the hand-over and writes nothing)."""
    time.sleep(1.2)  # the killed worker's lease (1 s) lapses
    result = doctree(
        db_path, "worker", "--once", "--backend", f"jobs:{tmp_path / 'jobs.jsonl'}",
        "--lease-ttl", "5", "--no-compact", "--json",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_crashed_runs_own_line_is_taken_out_and_the_later_runs_line_stays(db_path, repo, tmp_path):
    crashed = crash_a_run(db_path, repo)
    a_later_run_writes_active(repo, ACTIVE + CRASHED + LATER)
    tick = take_over(db_path, tmp_path)
    assert crashed in tick["orphans"] and "s-crash" in tick["processed"]
    assert repo.read("main", "~/memory/active").body == ACTIVE + LATER
    run = Runs(repo.conn).get(crashed)
    assert (run.status, run.stop_reason) == ("failed", "orphaned")
    assert run.reverted_by == f"system:revert-run-{crashed}"
    assert Runs(repo.conn).reviews([crashed]) == {}


def test_crashed_run_whose_line_a_later_run_changed_is_flagged_for_review(db_path, repo, tmp_path):
    crashed = crash_a_run(db_path, repo)
    rewritten = ACTIVE + "- prefers tea, green (sessions s-crash, s-later)\n"
    a_later_run_writes_active(repo, rewritten)
    take_over(db_path, tmp_path)
    assert repo.read("main", "~/memory/active").body == rewritten  # later work not overwritten
    listed = doctree(db_path, "runs", "--json")
    assert listed.returncode == 0, listed.stderr
    run = next(r for r in json.loads(listed.stdout) if r["id"] == crashed)
    assert [v["path"] for v in run["needs_review"]] == ["~/memory/active"]
    assert "changed the run's own lines" in run["needs_review"][0]["reason"]
    table = doctree(db_path, "runs").stdout
    row = next(ln for ln in table.splitlines() if ln.split()[:1] == [str(crashed)])
    assert " review " in row
    shown = doctree(db_path, "run-show", str(crashed)).stdout
    assert "needs review (1)" in shown and "~/memory/active" in shown
