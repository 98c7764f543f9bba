"""Which model backend runs, said out loud: `worker --backend anthropic` without a key refuses
at once (exit 2, one line, no session touched), as `replay` does; `auto` prints which
backend it picked and why, so the paid API is never used silently. Real processes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from doctree.sessions.repository import SessionsRepository

pytestmark = pytest.mark.slow

FIXTURE = Path(__file__).parents[1] / "fixtures" / "transcripts" / "01-personal-assistant.md"


def run(db, *args: str, key: str | None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ANTHROPIC_")}
    if key is not None:
        env["ANTHROPIC_API_KEY"] = key
        env["ANTHROPIC_BASE_URL"] = "http://127.0.0.1:9"  # never reached: nothing is pending
    return subprocess.run(
        [sys.executable, "-m", "doctree", "--db", str(db), *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


@pytest.fixture
def pending(db_path):
    """A database with one session waiting for the memory agent."""
    with SessionsRepository(db_path) as sessions:
        sessions.create("main", "s-pending")
        sessions.append_history("s-pending", "user", "I moved to Lisbon last week.")
        sessions.sleep("s-pending")
    return db_path


def test_worker_with_the_anthropic_backend_and_no_key_refuses_before_any_tick(pending):
    r = run(pending, "worker", "--backend", "anthropic", "--once", key=None)
    assert r.returncode == 2, r.stderr
    assert r.stderr.strip() == "error: backend 'anthropic': set ANTHROPIC_API_KEY"
    assert "tick:" not in r.stdout + r.stderr
    with SessionsRepository(pending) as sessions:
        s = sessions.require("s-pending")
        assert s.invalidated_at is not None and s.failures == 0  # untouched, still pending


def test_worker_auto_says_it_picked_offline_without_a_key(pending):
    r = run(pending, "worker", "--once", key=None)
    assert r.returncode == 0, r.stderr
    assert "backend auto: picked 'offline' (no model API key is set" in r.stderr
    assert "1 processed" in r.stdout


def test_worker_auto_says_it_picked_the_paid_api_when_a_key_is_set(db_path):
    r = run(db_path, "worker", "--once", key="sk-ant-test")
    assert r.returncode == 0, r.stderr
    assert "backend auto: picked 'anthropic' because ANTHROPIC_API_KEY is set" in r.stderr
    assert "paid API" in r.stderr and "--backend offline" in r.stderr


def test_worker_with_a_backend_named_on_purpose_prints_no_choice(db_path):
    r = run(db_path, "worker", "--once", "--backend", "offline", key="sk-ant-test")
    assert r.returncode == 0 and "backend auto" not in r.stderr


def test_replay_auto_says_which_backend_it_picked(db_path):
    r = run(db_path, "replay", str(FIXTURE), "--backend", "auto", key=None)
    assert r.returncode == 0, r.stderr
    assert "backend auto: picked 'offline'" in r.stderr


def test_replay_with_the_anthropic_backend_and_no_key_refuses_the_same_way(db_path):
    r = run(db_path, "replay", str(FIXTURE), "--backend", "anthropic", key=None)
    assert r.returncode == 2
    assert r.stderr.strip() == "error: backend 'anthropic': set ANTHROPIC_API_KEY"
