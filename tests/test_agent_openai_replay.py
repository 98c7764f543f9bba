"""The fixture transcripts through the `openai` backend: the recorded cassettes of the
Anthropic path, translated to chat completions and served by the loopback fake, with the
same tool traffic checks (every request must carry the recorded transcript, tools, calls and
tool results, in order) and the same golden trees as the Anthropic replay."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from doctree.llm.replay import Cassette
from doctree.store.runs import Runs
from tests.fakes.chat_completions import CassetteChat, FakeChatServer

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.agent import CASSETTES, cassette_for, fixtures, replay_live  # noqa: E402

GOLDEN = CASSETTES / "golden"

# The cassettes hold search results in the order SQLite's BM25 ranks them (see
# tests/test_agent_replay.py); PostgreSQL's ranking does not always keep it.
pytestmark = [
    pytest.mark.skipif(not fixtures(), reason="no fixture transcripts"),
    pytest.mark.sqlite_only,
]


def replay_openai(db, transcripts, cassette: Path, **options):
    responder = CassetteChat(Cassette.load(cassette), source=cassette.name)
    with FakeChatServer(responder) as srv:
        runtime_options = {
            "backend": "openai:qwen2.5:7b",
            "base_url": srv.base_url + "/v1",
            "context_window": 200_000,
            **options,
        }
        outcomes, (repo, _) = replay_live(db, transcripts, runtime_options)
    return outcomes, repo, srv, responder


def documents(repo, owner: str) -> str:
    return "\n".join(
        f"==> {d.path} (v{d.version}) <==\n{d.body}" for d in repo.documents(owner, "~/memory")
    )


def test_every_fixture_replays_with_the_recorded_tool_traffic_and_the_golden_tree(db_path):
    outcomes, repo, srv, responder = replay_openai(db_path, fixtures(), CASSETTES / "all.json")
    try:
        assert [o.error for o in outcomes] == [None] * len(fixtures())
        assert responder.served == len(responder.cassette.interactions) == len(srv.requests)
        runs = Runs(repo.conn).list(limit=None)
        assert {(r.backend, r.model, r.status) for r in runs} == {
            ("openai", "qwen2.5:7b", "completed")
        }
        owners = sorted(repo.owners())
        golden = sorted(p.name[len("documents-") : -len(".md")] for p in GOLDEN.glob("documents-*"))
        assert owners == golden
        for owner in owners:
            expected = (GOLDEN / f"documents-{owner}.md").read_text(encoding="utf-8")
            assert documents(repo, owner) == expected
    finally:
        repo.close()


@pytest.mark.parametrize("transcript", fixtures(), ids=lambda p: p.stem)
def test_each_fixture_replays_on_a_fresh_tree_through_chat_completions(db_path, transcript):
    outcomes, repo, srv, responder = replay_openai(db_path, [transcript], cassette_for(transcript))
    try:
        assert outcomes[0].error is None
        assert outcomes[0].runs[0]["status"] == "completed"
        assert responder.served == len(responder.cassette.interactions)
        # usage is what the server reported, turn by turn
        recorded = sum(
            i["response"]["body"]["usage"]["output_tokens"] for i in responder.cassette.interactions
        )
        assert outcomes[0].runs[0]["usage"]["output_tokens"] == recorded
    finally:
        repo.close()


def test_a_changed_tool_result_fails_the_run_with_the_difference(db_path, tmp_path):
    """The traffic check bites: memory that differs from the recording's (a page already
    there) changes a tool result, and the fake refuses the request naming the difference."""
    from doctree.store.documents import DocumentsRepository

    transcript = fixtures()[0]
    seeded = DocumentsRepository(db_path)
    seeded.write(_owner(transcript), "~/memory/unexpected", "# Unexpected\n")
    before = {d.path: d.body for d in seeded.documents(_owner(transcript), "~")}
    seeded.close()
    outcomes, repo, srv, _ = replay_openai(db_path, [transcript], cassette_for(transcript))
    try:
        assert "differs from the recording" in outcomes[0].error
        assert {d.path: d.body for d in repo.documents(_owner(transcript), "~")} == before
    finally:
        repo.close()


def _owner(transcript: Path) -> str:
    from doctree.sessions.transcripts import parse_transcript

    return parse_transcript(transcript.read_text(encoding="utf-8"), source=str(transcript)).owner


def test_every_fixture_runs_inside_an_8k_window(db_path):
    """The scripted memory model over chat completions, on the shipped 8k window: no request
    exceeds the window (the fake refuses one that would), every run ends, and every write
    stays under ~/memory. The long fixture is handed over in parts."""
    from tests.fakes.chat_completions import ChatModel
    from tests.fakes.messages_api import ScriptedMemoryModel

    with FakeChatServer(ChatModel(ScriptedMemoryModel()), context_window=8192) as srv:
        options = {"backend": "openai:qwen2.5:7b", "base_url": srv.base_url + "/v1"}
        outcomes, (repo, _) = replay_live(db_path, fixtures(), options)
    try:
        assert srv.oversized == [] and srv.failures == []
        assert [o.error for o in outcomes] == [None] * len(fixtures())
        runs = Runs(repo.conn).list(limit=None)
        assert {r.status for r in runs} <= {"completed", "stopped"}
        assert all(r.stop_reason != "error" for r in runs)
        parts = [
            r.body["messages"][1]["content"]
            for r in srv.requests
            if len(r.body["messages"]) == 2 and "This is part" in r.body["messages"][1]["content"]
        ]
        assert parts, "the long fixture was not split"
        handed: dict[tuple[str, int], list[int]] = {}
        for p in parts:
            session = re.search(r"session `([^`]+)`", p).group(1)
            i, n = map(int, re.search(r"part (\d+) of (\d+)", p).groups())
            handed.setdefault((session, n), []).append(i)
        for (session, n), numbers in handed.items():  # every part of every split transcript
            assert sorted(numbers) == list(range(1, n + 1)), session
        assert max(len(v) for v in handed.values()) > 5  # the long fixture, in many parts
        for owner in repo.owners():
            assert all(d.path.startswith("~/memory") for d in repo.documents(owner, "~"))
    finally:
        repo.close()
