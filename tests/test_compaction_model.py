"""Compaction with the compaction agent on the real anthropic SDK, talking real HTTP to the
loopback fake of the Messages API (`tests/fakes/messages_api.py`)."""

from __future__ import annotations

import logging

import anthropic
import pytest
from click.testing import CliRunner

from doctree.cli import cli
from doctree.llm.definitions import load_definition
from doctree.memory.compaction import AnthropicCondenser, Compactor
from doctree.store.documents import Actor, DocumentsRepository, Provenance
from tests.fakes.messages_api import FakeMessagesServer, HttpError, Scripted, message, text_block

OWNER = "main"
TARGET = "~/memory/compacted"
CONDENSED = "# Memory\n\n## People\n\n- Alice leads Apollo; prefers green tea.\n"


def store(repo, owner, path, body):
    """A page as the memory agent writes it (compaction leaves pages written by hand alone)."""
    return repo.write(owner, path, body, provenance=Provenance(Actor("memory-agent", owner)))


def seed(repo):
    store(repo, OWNER, "~/memory/people/alice", "# Alice\n\nAlice leads Apollo.\n")
    store(repo, OWNER, "~/memory/prefs", "Alice prefers green tea.\n")
    store(repo, OWNER, "~/memory/projects/apollo", "# Apollo\n\nLaunch on 2026-12-01.\n")


def answer(text=CONDENSED, **kw):
    return message(text_block(text), **kw)


@pytest.fixture
def serve():
    servers = []

    def start(responder):
        server = FakeMessagesServer(responder).start()
        servers.append(server)
        return server

    yield start
    for s in servers:
        s.stop()


def model_compactor(repo, server, definition=None):
    client = anthropic.Anthropic(api_key="test-key", base_url=server.base_url, max_retries=0)
    return Compactor(repo, condenser=AnthropicCondenser(client, definition))


def versions(repo):
    return {d.path: d.version for d in repo.documents(OWNER)}


def test_compaction_sends_every_document_in_the_prompt(repo, serve):
    seed(repo)
    server = serve(Scripted([answer()]))
    model_compactor(repo, server).compact(OWNER, whole_memory=True)
    prompt = server.requests[0].body["messages"][0]["content"]
    for body in ("Alice leads Apollo.", "Alice prefers green tea.", "Launch on 2026-12-01."):
        assert body in prompt


def test_compaction_writes_the_models_condensed_output(repo, serve):
    seed(repo)
    server = serve(Scripted([answer()]))
    result = model_compactor(repo, server).compact(OWNER, whole_memory=True)
    body = repo.read(OWNER, TARGET).body
    assert result.status == "compacted" and result.backend == "anthropic"
    assert body.startswith(CONDENSED)


def test_model_condensed_document_links_every_source(repo, serve):
    seed(repo)
    server = serve(Scripted([answer()]))
    model_compactor(repo, server).compact(OWNER, whole_memory=True)
    links = repo.read(OWNER, TARGET).links
    assert links == ["~/memory/people/alice", "~/memory/prefs", "~/memory/projects/apollo"]


def test_compaction_request_is_one_turn_without_tools(repo, serve):
    seed(repo)
    server = serve(Scripted([answer()]))
    model_compactor(repo, server).compact(OWNER, whole_memory=True)
    request = server.requests[0].body
    assert len(server.requests) == 1
    assert "tools" not in request
    assert [m["role"] for m in request["messages"]] == ["user"]


def test_compaction_agent_definition_has_one_turn_no_tools_and_a_dollar_limit():
    d = load_definition("compaction-agent")
    assert (d.max_turns, d.tools, d.max_budget_usd) == (1, [], 0.05)


def test_compaction_request_uses_the_compaction_agents_prompt(repo, serve):
    seed(repo)
    server = serve(Scripted([answer()]))
    model_compactor(repo, server).compact(OWNER, whole_memory=True)
    system = server.requests[0].body["system"]
    assert "keep every key fact, decision" in system.lower()


def test_recompaction_sends_earlier_condensed_document_with_new_ones(repo, serve):
    seed(repo)
    server = serve(Scripted([answer(), answer("# Memory\n\n- Alice; Bob in Berlin.\n")]))
    model_compactor(repo, server).compact(OWNER, whole_memory=True)
    store(repo, OWNER, "~/memory/people/bob", "Bob moved to Berlin.")
    model_compactor(repo, server).compact(OWNER, whole_memory=True)
    prompt = server.requests[1].body["messages"][0]["content"]
    assert "Alice leads Apollo; prefers green tea." in prompt  # the earlier condensed text
    assert "Bob moved to Berlin." in prompt
    assert "## Sources" not in prompt
    assert repo.read(OWNER, TARGET).version == 2


def test_model_failure_leaves_every_document_at_its_version(repo, serve):
    seed(repo)
    before = versions(repo)
    server = serve(Scripted([HttpError(500, "overloaded")]))
    result = model_compactor(repo, server).compact(OWNER, whole_memory=True)
    assert result.status == "failed"
    assert versions(repo) == before


def test_model_failure_is_logged_not_raised(repo, serve, caplog):
    seed(repo)
    server = serve(Scripted([HttpError(500, "overloaded")]))
    with caplog.at_level(logging.WARNING, logger="doctree.memory.compaction"):
        result = model_compactor(repo, server).compact(OWNER, whole_memory=True)
    assert "InternalServerError" in result.error
    assert "compaction of ~/memory for main failed" in caplog.text


def test_next_trigger_after_model_failure_compacts(repo, serve):
    seed(repo)
    server = serve(Scripted([HttpError(500, "overloaded"), answer()]))
    compactor = model_compactor(repo, server)
    assert compactor.compact(OWNER, whole_memory=True).status == "failed"
    assert compactor.compact(OWNER, whole_memory=True).status == "compacted"


def test_answer_cut_off_at_max_tokens_changes_nothing(repo, serve):
    seed(repo)
    before = versions(repo)
    server = serve(Scripted([answer("# Memory\n\n- Alice le", stop_reason="max_tokens")]))
    result = model_compactor(repo, server).compact(OWNER, whole_memory=True)
    assert "cut off at max_tokens" in result.error
    assert versions(repo) == before


def test_request_over_the_dollar_limit_is_refused_before_sending(repo, serve):
    seed(repo)
    store(repo, OWNER, "~/memory/huge", "word " * 20_000)
    server = serve(Scripted([answer()]))
    tight = load_definition("compaction-agent").model_copy(update={"max_budget_usd": 0.001})
    result = model_compactor(repo, server, tight).compact(OWNER, whole_memory=True)
    assert result.status == "failed" and "max_budget_usd 0.001" in result.error
    assert server.requests == []


def test_max_tokens_is_lowered_to_fit_the_dollar_limit(repo, serve):
    seed(repo)
    server = serve(Scripted([answer()]))
    tight = load_definition("compaction-agent").model_copy(update={"max_budget_usd": 0.01})
    model_compactor(repo, server, tight).compact(OWNER, whole_memory=True)
    assert server.requests[0].body["max_tokens"] < tight.max_response_tokens


def test_compaction_racing_a_concurrent_write_keeps_the_write(repo, db_path, serve):
    seed(repo)

    def write_during_the_pass(request):
        other = DocumentsRepository(db_path)
        other.write(OWNER, "~/memory/prefs", "Alice now prefers coffee.")
        other.write(OWNER, "~/memory/people/carol", "Carol joined on 2026-11-02.")
        other.close()
        return answer()

    server = serve(write_during_the_pass)
    result = model_compactor(repo, server).compact(OWNER, whole_memory=True)
    assert result.status == "compacted"
    assert repo.read(OWNER, "~/memory/prefs").body == "Alice now prefers coffee."
    assert repo.read(OWNER, "~/memory/people/carol").version == 1
    assert not repo.exists(OWNER, "~/memory/projects/apollo")
    assert result.kept == ["~/memory/people", "~/memory/prefs"]


def test_condensed_document_written_during_the_pass_fails_the_pass_without_changes(
    repo, db_path, serve
):
    seed(repo)

    def write_target(request):
        other = DocumentsRepository(db_path)
        other.write(OWNER, TARGET, "written by someone else meanwhile")
        other.close()
        return answer()

    server = serve(write_target)
    result = model_compactor(repo, server).compact(OWNER, whole_memory=True)
    assert result.status == "failed" and "changed while compaction ran" in result.error
    assert repo.exists(OWNER, "~/memory/prefs")


def test_compaction_is_recorded_as_a_run_with_its_usage(repo, serve):
    from doctree.store.runs import Runs

    seed(repo)
    server = serve(Scripted([answer(usage={"input_tokens": 900, "output_tokens": 100})]))
    result = model_compactor(repo, server).compact(OWNER, whole_memory=True)
    run = Runs(repo.conn).get(result.run_id)
    assert (run.definition, run.status, run.input_tokens, run.output_tokens) == (
        "compaction-agent",
        "completed",
        900,
        100,
    )
    assert {v.path for v in repo.log(OWNER, run_id=result.run_id)} >= {TARGET, "~/memory/prefs"}


def test_compact_command_reaches_the_model_through_anthropic_base_url(
    db_path, repo, serve, monkeypatch
):
    seed(repo)
    server = serve(Scripted([answer()]))
    monkeypatch.setenv("ANTHROPIC_BASE_URL", server.base_url)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
    result = CliRunner().invoke(cli, ["--db", str(db_path), "compact", "--whole-memory", "--yes"])
    assert result.exit_code == 0, result.output
    assert len(server.requests) == 1
    assert repo.read(OWNER, TARGET).body.startswith(CONDENSED)
