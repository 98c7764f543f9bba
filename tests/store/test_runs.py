"""The runs table: a run is opened, accumulates turns and usage, and is finished once."""

from __future__ import annotations

import pytest

from doctree.errors import NotFoundError, UserError
from doctree.store.runs import Runs, Usage


@pytest.fixture
def runs(repo):
    return Runs(repo.conn)


def start(runs, **kw):
    args = {"owner": "main", "backend": "replay", "model": "m", "session_id": "s-1"}
    return runs.start(**{**args, **kw})


def test_a_new_run_is_running_with_no_usage(runs):
    run = runs.get(start(runs))
    assert (run.status, run.turns, run.usage, run.cost_usd, run.ended_at) == (
        "running",
        0,
        Usage(),
        0,
        None,
    )


def test_turns_add_up_usage_and_cost(runs):
    run_id = start(runs)
    runs.record_turn(run_id, Usage(10, 2, 100, 50), 0.01)
    runs.record_turn(run_id, Usage(5, 3, 150, 0), 0.02)
    run = runs.get(run_id)
    assert run.turns == 2
    assert run.usage == Usage(15, 5, 250, 50)
    assert run.cost_usd == pytest.approx(0.03)


def test_tool_calls_and_errors_are_counted(runs):
    run_id = start(runs)
    runs.record_tool_calls(run_id, 4, 1)
    run = runs.get(run_id)
    assert (run.tool_calls, run.tool_errors) == (4, 1)


def test_finish_records_status_reason_error_and_end_time(runs):
    run = runs.finish(start(runs), "failed", "error", "APIError: boom")
    assert (run.status, run.stop_reason, run.error) == ("failed", "error", "APIError: boom")
    assert run.ended_at is not None


def test_finish_refuses_an_unknown_status(runs):
    with pytest.raises(UserError, match="must be completed, stopped or failed"):
        runs.finish(start(runs), "done", None)


def test_unknown_run_is_not_found(runs):
    with pytest.raises(NotFoundError, match="run 99"):
        runs.get(99)


def test_list_is_newest_first_and_filters(runs):
    a = start(runs, owner="main")
    b = start(runs, owner="ops")
    c = start(runs, owner="main", session_id="s-2")
    assert [r.id for r in runs.list()] == [c, b, a]
    assert [r.id for r in runs.list(owner="main")] == [c, a]
    assert [r.id for r in runs.list(session_id="s-2")] == [c]
    assert [r.id for r in runs.list(limit=1)] == [c]


def test_runs_share_the_store_file(db_path, repo):
    from doctree.store.documents import DocumentsRepository

    run_id = start(Runs(repo.conn))
    with DocumentsRepository(db_path) as other:
        assert Runs(other.conn).get(run_id).owner == "main"
