"""One compaction per owner at a time across real processes (the lease in the database)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading

from doctree.store.documents import Actor, Provenance
from tests.fakes.messages_api import FakeMessagesServer, message, text_block

OWNER = "main"
AGENT = Actor("memory-agent", OWNER)

COMPACT = """
import json, sys
from doctree.memory.compaction import Compactor
from doctree.store.documents import DocumentsRepository
repo = DocumentsRepository(sys.argv[1])
result = Compactor(repo, condenser="anthropic").compact("main", "~/memory/t")
print(json.dumps({"status": result.status, "error": result.error}))
"""


def spawn(db_path, base_url):
    env = {**os.environ, "ANTHROPIC_BASE_URL": base_url, "ANTHROPIC_API_KEY": "test-key"}
    return subprocess.Popen(
        [sys.executable, "-c", COMPACT, str(db_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def outcome(proc):
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    return json.loads(out.strip().splitlines()[-1])


def test_two_processes_compacting_one_owner_one_runs_one_skips(repo, db_path):
    repo.write(OWNER, "~/memory/t/a", "Alice prefers tea.", provenance=Provenance(AGENT))
    repo.write(OWNER, "~/memory/t/b", "Bob moved to Berlin.", provenance=Provenance(AGENT))
    arrived, release = threading.Event(), threading.Event()

    def slow_model(request):
        arrived.set()  # the first process holds the lease and waits on the model
        release.wait(30)
        return message(text_block("# Memory\n\n- Alice: tea. Bob: Berlin.\n"))

    with FakeMessagesServer(slow_model) as server:
        first = spawn(db_path, server.base_url)
        assert arrived.wait(30), "the first process never reached the model"
        second = spawn(db_path, server.base_url)
        second_result = outcome(second)
        release.set()
        first_result = outcome(first)
        requests = len(server.requests)
    assert (first_result["status"], second_result["status"]) == ("compacted", "skipped")
    assert requests == 1
    assert repo.read(OWNER, "~/memory/t/compacted").version == 1


def test_lease_of_a_crashed_compaction_expires_and_is_taken_over(repo, db_path):
    from doctree.memory.compaction import Compactor
    from doctree.store.leases import Leases

    repo.write(OWNER, "~/memory/t/a", "Alice prefers tea.", provenance=Provenance(AGENT))
    repo.write(OWNER, "~/memory/t/b", "Bob moved to Berlin.", provenance=Provenance(AGENT))
    Leases(repo.conn).acquire("compaction:main", "process:gone:1:1", ttl=-1)  # already expired
    assert Compactor(repo, condenser="offline").compact(OWNER, "~/memory/t").status == "compacted"
