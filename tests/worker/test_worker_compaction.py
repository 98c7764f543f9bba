"""The memory worker, as an engine runs it, compacts an agent's memory after a store."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from doctree.cli import cli
from doctree.engine import Engine
from doctree.sessions.transcripts import parse_transcript
from doctree.store.documents import DocumentsRepository
from doctree.store.runs import Runs

FIXTURES = sorted((Path(__file__).parents[1] / "fixtures" / "transcripts").glob("*.md"))[:3]


def _queue_fixtures(engine: Engine) -> None:
    for path in FIXTURES:
        t = parse_transcript(path.read_text(encoding="utf-8"), source=path.name)
        engine.start_session(t.owner, t.session_id, created_at=t.started)
        for m in t.messages:
            engine.append(t.session_id, m.kind, m.content, time=m.time)
        engine.sleep(t.session_id)


def _compactions(db_path: Path) -> list:
    """The compaction passes run (each is a run, also one that found nothing to gain)."""
    with DocumentsRepository(db_path) as repo:
        return [r for r in Runs(repo.conn).list(owner="main") if r.definition == "compaction-agent"]


def test_engine_worker_compacts_past_the_threshold(db_path, monkeypatch):
    monkeypatch.setenv("DOCTREE_COMPACTION_THRESHOLD", "2000")
    with Engine(db_path, handler="offline") as engine:
        _queue_fixtures(engine)
        tick = engine.run_worker_once()
    assert len(tick.processed) == len(FIXTURES)
    assert _compactions(db_path), "no compaction ran after the memory agent stored"


def test_engine_worker_without_compaction_leaves_memory_alone(db_path, monkeypatch):
    monkeypatch.setenv("DOCTREE_COMPACTION_THRESHOLD", "2000")
    with Engine(db_path, handler="offline", compact=False) as engine:
        _queue_fixtures(engine)
        engine.run_worker_once()
    assert _compactions(db_path) == []


def test_worker_command_compacts_by_default(db_path, monkeypatch):
    monkeypatch.setenv("DOCTREE_COMPACTION_THRESHOLD", "2000")
    with Engine(db_path, handler="offline") as engine:
        _queue_fixtures(engine)
    result = CliRunner().invoke(
        cli, ["--db", str(db_path), "worker", "--once", "--backend", "offline"]
    )
    assert result.exit_code == 0, result.output
    assert _compactions(db_path)
