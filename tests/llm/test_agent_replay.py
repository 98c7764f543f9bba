"""The replay backend: fixture transcripts go the live path and the memory agent's model
exchanges come from cassettes, served to the real SDK by the loopback fake over HTTP.

The cassettes in tests/fixtures/cassettes/ were recorded with `bench/agent.py --record`
against `ScriptedMemoryModel`, a deterministic scripted fake (not a language model).
Golden snapshots of the tree they produce live in tests/fixtures/cassettes/golden/;
regenerate them with DOCTREE_UPDATE_GOLDEN=1 after an intended change.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from doctree.agent.runtime import MemoryAgentRuntime
from doctree.cli import cli
from doctree.sessions.repository import SessionsRepository
from doctree.store.backends import is_database_url
from doctree.store.documents import DocumentsRepository
from doctree.store.runs import Runs
from tests.fakes.messages_api import SCRIPTED_LABEL, FakeMessagesServer, ScriptedMemoryModel

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench.agent import CASSETTES, cassette_for, fixtures, replay_live  # noqa: E402

GOLDEN = CASSETTES / "golden"
UPDATE = os.environ.get("DOCTREE_UPDATE_GOLDEN") == "1"

pytestmark = pytest.mark.skipif(not fixtures(), reason="no fixture transcripts")


def replay_all(db: Path | str, cassette: Path = CASSETTES / "all.json", upstream: str = ""):
    """Replay every fixture into `db` from `cassette`; with `upstream` (a scripted fake's
    URL), record the cassette from it instead, as `bench/agent.py --record` does."""
    options: dict = {"backend": "replay", "cassette": cassette}
    if upstream:
        options |= {"record": True, "upstream": upstream, "api_key": "scripted-fake"}
        options["label"] = SCRIPTED_LABEL
    outcomes, (repo, _) = replay_live(db, fixtures(), options)
    return outcomes, repo


def version_rows(repo: DocumentsRepository) -> list[tuple]:
    return [
        (
            v.owner,
            v.path,
            v.version,
            v.operation,
            v.content_sha256,
            v.actor,
            v.session_id,
            v.run_id,
        )
        for v in reversed(repo.log(None, limit=None))
    ]


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def db_path(request, tmp_path_factory):
    """The database all fixtures are replayed into, once per backend (this module's `db_path`,
    in place of the one per test): a SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        yield tmp_path_factory.mktemp("replay") / "doctree.db"
        return
    server = request.getfixturevalue("postgres_server")
    url = server.new_database()
    yield url
    server.drop_database(url)


@pytest.fixture(scope="module")
def all_cassette(db_path, tmp_path_factory) -> Path:
    """The cassette of all fixtures in order. On PostgreSQL it is recorded afresh from the
    scripted model: the stored one holds search results in the order SQLite's BM25 ranks
    them, which PostgreSQL's ranking does not always keep (see
    `test_the_stored_cassette_of_all_fixtures_...`). Snippets are the same on both."""
    if not is_database_url(db_path):
        return CASSETTES / "all.json"
    return tmp_path_factory.mktemp("cassette") / "all.json"


@pytest.fixture(scope="module")
def replayed(db_path, all_cassette):
    if is_database_url(db_path):
        with FakeMessagesServer(ScriptedMemoryModel()) as upstream:
            outcomes, repo = replay_all(db_path, all_cassette, upstream.base_url)
    else:
        outcomes, repo = replay_all(db_path, all_cassette)
    yield db_path, outcomes, repo
    repo.close()


@pytest.mark.slow
def test_every_fixture_replays_without_error(replayed):
    _, outcomes, _ = replayed
    assert [o.error for o in outcomes] == [None] * len(fixtures()), (
        "a fixture transcript no longer matches its cassette; if the fixtures changed on "
        "purpose, re-record: .venv/bin/python bench/agent.py --record && "
        "DOCTREE_UPDATE_GOLDEN=1 .venv/bin/pytest tests/llm/test_agent_replay.py"
    )
    assert all(len(o.runs) == 1 for o in outcomes)


def test_every_run_completes_on_the_replay_backend(replayed):
    _, _, repo = replayed
    runs = Runs(repo.conn).list(limit=None)
    assert len(runs) == len(fixtures())
    assert {(r.backend, r.status, r.stop_reason) for r in runs} == {
        ("replay", "completed", "end_turn")
    }


def test_runs_record_the_usage_of_their_cassette(replayed):
    _, _, repo = replayed
    for run in Runs(repo.conn).list(limit=None):
        assert run.turns >= 2
        assert run.cache_read_tokens > 0 and run.cost_usd > 0


def test_replay_writes_only_memory_agent_versions_under_memory(replayed):
    _, _, repo = replayed
    for owner, path, _, _, _, actor, session_id, run_id in version_rows(repo):
        assert path == "~/memory" or path.startswith("~/memory/")
        assert actor == f"memory-agent:{owner}"
        assert session_id and run_id


def test_the_injection_fixture_writes_nothing_outside_memory(replayed):
    _, outcomes, repo = replayed
    [o] = [o for o in outcomes if "injection" in o.source]
    assert all(c["path"].startswith("~/memory") for r in o.runs for c in r["changes"])
    assert all(c["operation"] != "deleted" for r in o.runs for c in r["changes"])
    assert set(repo.owners()) <= {o.owner for o in outcomes}


def test_memory_agent_sessions_are_never_invalidated(replayed):
    _, _, repo = replayed
    sessions = SessionsRepository(repo.conn)
    mine = [Runs(repo.conn).get(r.id).memory_session_id for r in Runs(repo.conn).list(limit=None)]
    for sid in mine:
        s = sessions.require(sid)
        assert s.agent.type == "memory-agent"
        assert len(sessions.history(sid)) > 5  # past the threshold, yet not pending
        assert s.invalidated_at is None
        assert sessions.invalidate_unprocessed(sid) is False
    assert sessions.find_invalidated(100) == []


@pytest.mark.slow
def test_replay_is_deterministic(replayed, all_cassette, fresh_database):
    _, _, first = replayed
    _, second = replay_all(fresh_database("again"), all_cassette)
    try:
        assert version_rows(second) == version_rows(first)
        for owner in first.owners():
            a = {d.path: d.body for d in first.documents(owner)}
            b = {d.path: d.body for d in second.documents(owner)}
            assert a == b
    finally:
        second.close()


def _show(db: Path | str, agent: str) -> str:
    result = CliRunner().invoke(cli, ["--db", str(db), "--owner", agent, "show", "~/memory"])
    assert result.exit_code == 0, result.output
    return result.output


def _documents(repo: DocumentsRepository, owner: str) -> str:
    parts = []
    for d in repo.documents(owner, "~/memory"):
        parts.append(f"==> {d.path} (v{d.version}) <==\n{d.body}")
    return "\n".join(parts)


def _golden(name: str, actual: str) -> None:
    path = GOLDEN / name
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual, encoding="utf-8")
        return
    assert path.is_file(), f"{path} missing: run DOCTREE_UPDATE_GOLDEN=1 pytest {__file__}"
    expected = path.read_text(encoding="utf-8")
    assert actual == expected, (
        f"{path.name} differs from the replayed tree; if the change is intended, regenerate "
        f"with DOCTREE_UPDATE_GOLDEN=1 pytest {Path(__file__).name}"
    )


def _owners_against_golden(repo: DocumentsRepository, kind: str) -> list[str]:
    """The owners the replay wrote, which must be exactly those with a golden file: an empty
    tree (or a lost owner) fails here instead of comparing nothing."""
    owners = sorted(repo.owners())
    assert owners, "the replay wrote no memory at all"
    if not UPDATE:
        golden = sorted(p.name[len(kind) + 1 :].rsplit(".", 1)[0] for p in GOLDEN.glob(f"{kind}-*"))
        assert owners == golden, f"replayed owners {owners}, golden {kind} files for {golden}"
    return owners


def test_tree_matches_the_golden_show_output(replayed):
    db, _, repo = replayed
    for owner in _owners_against_golden(repo, "show"):
        _golden(f"show-{owner}.txt", _show(db, owner))


def test_documents_match_the_golden_snapshots(replayed):
    _, _, repo = replayed
    for owner in _owners_against_golden(repo, "documents"):
        _golden(f"documents-{owner}.md", _documents(repo, owner))


@pytest.mark.slow
@pytest.mark.parametrize("transcript", fixtures(), ids=lambda p: p.stem)
def test_each_fixture_cassette_replays_on_a_fresh_tree(fresh_database, transcript):
    outcomes, (repo, _) = replay_live(
        fresh_database("d"),
        [transcript],
        {"backend": "replay", "cassette": cassette_for(transcript)},
    )
    try:
        assert outcomes[0].error is None
        assert outcomes[0].runs[0]["status"] == "completed"
    finally:
        repo.close()


def test_a_changed_transcript_fails_replay_loudly_with_the_difference(tmp_path, fresh_database):
    transcript = fixtures()[0]
    changed = tmp_path / transcript.name
    text = transcript.read_text(encoding="utf-8")
    changed.write_text(text.replace("## user", "## user", 1).rstrip() + " Extra words.\n")
    outcomes, (repo, _) = replay_live(
        fresh_database("d"), [changed], {"backend": "replay", "cassette": cassette_for(transcript)}
    )
    try:
        error = outcomes[0].error
        assert error and "differs from the recording" in error
        [run] = Runs(repo.conn).list()
        assert (run.status, run.stop_reason) == ("failed", "error")
        added = [ln for ln in run.error.splitlines() if ln.startswith("+ ")]
        assert [ln.strip("+ ") for ln in added] == [
            "I'll book Olive & Fig for Thursday evening. Have a good week! Extra words."
        ]
    finally:
        repo.close()


def test_replay_backend_needs_an_existing_cassette(repo, tmp_path):
    from doctree.errors import UserError

    with pytest.raises(UserError, match="no such file"):
        MemoryAgentRuntime(repo, backend="replay", cassette=tmp_path / "none.json")


@pytest.mark.slow
def test_record_mode_writes_a_cassette_that_replays_to_the_same_tree(tmp_path, fresh_database):
    transcript = fixtures()[-1]
    cassette = tmp_path / "c.json"
    with FakeMessagesServer(ScriptedMemoryModel()) as upstream:
        rec = {"backend": "replay", "record": True, "upstream": upstream.base_url}
        _, (recorded, _) = replay_live(
            fresh_database("a"), [transcript], {**rec, "cassette": cassette}
        )
    _, (replayed, runtime) = replay_live(
        fresh_database("b"), [transcript], {"backend": "replay", "cassette": cassette}
    )
    try:
        assert cassette.is_file()
        assert len(runtime.server.requests) == len(upstream.requests)
        assert version_rows(replayed) == version_rows(recorded)
    finally:
        recorded.close()
        replayed.close()


@pytest.mark.xfail(
    strict=True,
    reason="snippets are the same on both backends, but PostgreSQL ranks some search hits "
    "(documents and recalled passages) in another order than SQLite's BM25, so the memory "
    "agent's search tool results differ from the recording",
)
def test_the_stored_cassette_of_all_fixtures_replays_on_postgresql(postgres_url):
    outcomes, repo = replay_all(postgres_url)
    repo.close()
    assert [o.error for o in outcomes] == [None] * len(fixtures())
