"""Handlers for worker processes in the adversarial tests (`--backend python:run_handlers:...`).

`slow_agent` is a memory agent as the worker sees it: it starts a run, writes a page of the
source agent's memory through `MemoryTools` under that run, and then, while the file named by
DOCTREE_TEST_HOLD exists, touches DOCTREE_TEST_STARTED and waits (to be killed or stopped
mid-run); then it finishes the run. No model: the run's shape is what the worker must handle.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

from doctree.interop.tools import MemoryTools
from doctree.store.documents import DocumentsRepository
from doctree.store.runs import Run, Runs


@dataclass
class Outcome:
    run: Run


class SlowAgent:
    def __init__(self, repo: DocumentsRepository):
        self.repo = repo
        self.runs = Runs(repo.conn)

    def handle(self, job) -> Outcome:
        run_id = self.runs.start(
            owner=job.owner, backend="test", model="slow", session_id=job.session_id
        )
        tools = MemoryTools(self.repo, job.owner, session_id=job.session_id, run_id=run_id)
        result = tools.call(
            "document_write",
            {
                "path": f"~/memory/log/{job.session_id}",
                "body": f"# Log\nrecords {job.first_history_id}-{job.last_history_id} by pid "
                f"{os.getpid()}\n",
            },
        )
        assert not result.is_error, result.content
        hold = os.environ.get("DOCTREE_TEST_HOLD")
        started = os.environ.get("DOCTREE_TEST_STARTED")
        if started:
            with open(started, "a") as f:
                f.write(f"{os.getpid()} {run_id}\n")
        while hold and Path(hold).exists():
            time.sleep(0.02)
        return Outcome(self.runs.finish(run_id, "completed", "end_turn"))


def slow_agent(repo: DocumentsRepository) -> SlowAgent:
    return SlowAgent(repo)


class LeakyAgent:
    """A memory agent whose failure quotes a credential (an upstream error echoing the key
    it was sent): DOCTREE_TEST_SECRET."""

    def __init__(self, repo: DocumentsRepository):
        self.repo = repo

    def handle(self, job) -> Outcome:
        raise RuntimeError(f"upstream refused the key {os.environ['DOCTREE_TEST_SECRET']}")


def leaky_agent(repo: DocumentsRepository) -> LeakyAgent:
    return LeakyAgent(repo)
