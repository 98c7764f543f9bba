"""Compaction on the offline (extractive) backend: snapshot semantics, lossless retirement,
the per-owner lease, failures, thresholds, the worker hook and `doctree compact`."""

from __future__ import annotations

import logging
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from doctree.cli import cli
from doctree.errors import UserError
from doctree.memory.compaction import (
    CompactionPolicy,
    Compactor,
    ExtractiveCondenser,
    SourceDocument,
    compaction_hook,
    extract_lines,
)
from doctree.store.documents import DocumentsRepository
from doctree.store.leases import Leases

OWNER = "main"
TARGET = "~/memory/compacted"


@pytest.fixture(autouse=True)
def offline(monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.delenv("ANTHROPIC_BASE_URL", raising=False)
    monkeypatch.delenv("DOCTREE_COMPACTION_THRESHOLD", raising=False)
    monkeypatch.delenv("DOCTREE_COMPACTION_THRESHOLDS", raising=False)


def seed(repo):
    repo.write(
        OWNER,
        "~/memory/people/alice",
        "# Alice\n\nAlice leads [[~/memory/projects/apollo]]. She prefers green tea.\n",
    )
    repo.write(
        OWNER,
        "~/memory/projects/apollo",
        "# Apollo\n\nWe decided to launch on 2026-12-01.\n\n- budget: 40k\n",
    )
    repo.write(
        OWNER, "~/memory/notes", "Hello there, how are you today?\n\nShe prefers green tea.\n"
    )


def compactor(repo, **kw):
    return Compactor(repo, condenser="offline", **kw)


def test_compaction_writes_condensed_document(repo):
    seed(repo)
    result = compactor(repo).compact(OWNER)
    doc = repo.read(OWNER, TARGET)
    assert result.status == "compacted"
    assert "We decided to launch on 2026-12-01." in doc.body
    assert "- budget: 40k" in doc.body


def test_compaction_retires_every_snapshot_document(repo):
    seed(repo)
    compactor(repo).compact(OWNER)
    live = [d.path for d in repo.documents(OWNER, "~/memory")]
    assert live == ["~/memory", TARGET]


def test_retired_documents_keep_readable_history(repo):
    seed(repo)
    compactor(repo).compact(OWNER)
    history = repo.history(OWNER, "~/memory/people/alice")
    assert [v.operation for v in history] == ["created", "deleted"]
    assert "green tea" in repo.read(OWNER, "~/memory/people/alice", version=1).body


def test_condensed_document_links_to_every_source(repo):
    seed(repo)
    compactor(repo).compact(OWNER)
    doc = repo.read(OWNER, TARGET)
    for path in ("~/memory/people/alice", "~/memory/projects/apollo", "~/memory/notes"):
        assert path in doc.links
        assert f"[[{path}]]" in doc.body


def test_condensed_document_names_source_versions(repo):
    seed(repo)
    repo.write(OWNER, "~/memory/notes", "Alice prefers green tea. Bob is new.")
    compactor(repo).compact(OWNER)
    assert "- [[~/memory/notes]] (version 2)" in repo.read(OWNER, TARGET).body


def test_compaction_drops_duplicate_lines_across_documents(repo):
    seed(repo)
    compactor(repo).compact(OWNER)
    body = repo.read(OWNER, TARGET).body
    assert body.lower().count("prefers green tea") == 1


def test_compaction_versions_carry_the_compaction_actor(repo):
    seed(repo)
    compactor(repo).compact(OWNER)
    deleted = repo.history(OWNER, "~/memory/notes")[-1]
    assert deleted.actor == "system:compaction"
    assert repo.history(OWNER, TARGET)[-1].actor == "system:compaction"


def test_recompaction_folds_earlier_condensed_document_with_new_ones(repo):
    seed(repo)
    compactor(repo).compact(OWNER)
    repo.write(OWNER, "~/memory/people/bob", "# Bob\n\nBob moved to Berlin.\n")
    result = compactor(repo).compact(OWNER)
    body = repo.read(OWNER, TARGET).body
    assert result.condensed_version == 2
    assert "Bob moved to Berlin." in body
    assert "We decided to launch on 2026-12-01." in body
    assert "version 1 of [[~/memory/compacted]]" in body
    assert not repo.exists(OWNER, "~/memory/people/bob")


def test_recompaction_keeps_one_sources_section(repo):
    seed(repo)
    compactor(repo).compact(OWNER)
    repo.write(OWNER, "~/memory/people/bob", "Bob moved to Berlin.")
    compactor(repo).compact(OWNER)
    assert repo.read(OWNER, TARGET).body.count("## Sources") == 1


def test_compaction_with_nothing_new_changes_nothing(repo):
    seed(repo)
    compactor(repo).compact(OWNER)
    result = compactor(repo).compact(OWNER)
    assert result.status == "nothing"
    assert repo.read(OWNER, TARGET).version == 1


def test_compaction_leaves_other_owners_alone(repo):
    seed(repo)
    repo.write("other", "~/memory/x", "other agent's memory")
    repo.write("other", "~/memory/y", "more of it")
    compactor(repo).compact(OWNER)
    assert [d.path for d in repo.documents("other", "~/memory")] == [
        "~/memory",
        "~/memory/x",
        "~/memory/y",
    ]


def test_compaction_of_a_subtree_leaves_the_rest(repo):
    seed(repo)
    repo.write(OWNER, "~/memory/projects/zeus", "Zeus is paused until 2027-01-10.")
    result = compactor(repo).compact(OWNER, "~/memory/projects")
    assert result.condensed_path == "~/memory/projects/compacted"
    assert repo.exists(OWNER, "~/memory/people/alice")
    assert not repo.exists(OWNER, "~/memory/projects/zeus")


def test_compaction_is_skipped_while_another_holder_has_the_lease(repo, db_path):
    seed(repo)
    other = DocumentsRepository(db_path)
    assert Leases(other.conn).acquire("compaction:main", "someone-else", 60)
    result = compactor(repo).compact(OWNER)
    other.close()
    assert result.status == "skipped"
    assert not repo.exists(OWNER, TARGET)
    assert repo.read(OWNER, "~/memory/notes").version == 1


def test_compaction_runs_when_another_owners_lease_is_held(repo):
    seed(repo)
    Leases(repo.conn).acquire("compaction:other", "someone-else", 60)
    assert compactor(repo).compact(OWNER).status == "compacted"


def test_compaction_releases_its_lease_after_success(repo):
    seed(repo)
    compactor(repo).compact(OWNER)
    assert Leases(repo.conn).holder("compaction:main") is None


def too_small_repo(db_path):
    return DocumentsRepository(db_path, max_body_bytes=150)


def test_failed_compaction_leaves_every_document_at_its_version(db_path):
    repo = too_small_repo(db_path)
    seed(repo)
    before = {d.path: d.version for d in repo.documents(OWNER)}
    result = compactor(repo).compact(OWNER)
    assert result.status == "failed"
    assert {d.path: d.version for d in repo.documents(OWNER)} == before
    repo.close()


def test_failed_compaction_logs_and_does_not_raise(db_path, caplog):
    repo = too_small_repo(db_path)
    seed(repo)
    with caplog.at_level(logging.WARNING, logger="doctree.memory.compaction"):
        result = compactor(repo).compact(OWNER)
    assert "BodyTooLargeError" in result.error
    assert "failed, nothing changed" in caplog.text
    repo.close()


def test_failed_compaction_releases_its_lease_so_next_trigger_retries(db_path):
    repo = too_small_repo(db_path)
    seed(repo)
    compactor(repo).compact(OWNER)
    assert Leases(repo.conn).holder("compaction:main") is None
    repo.max_body_bytes = 100_000
    assert compactor(repo).compact(OWNER).status == "compacted"
    repo.close()


def test_below_threshold_does_not_compact(repo):
    seed(repo)
    result = compactor(repo, policy=CompactionPolicy(threshold=10_000)).maybe_compact(OWNER)
    assert result.status == "below-threshold"
    assert not repo.exists(OWNER, TARGET)


def test_over_threshold_compacts(repo):
    seed(repo)
    result = compactor(repo, policy=CompactionPolicy(threshold=100)).maybe_compact(OWNER)
    assert result.status == "compacted"


def test_threshold_is_configurable_per_owner(repo):
    seed(repo)
    policy = CompactionPolicy(threshold=100, thresholds={"main": 10_000})
    assert compactor(repo, policy=policy).maybe_compact(OWNER).status == "below-threshold"


def test_thresholds_come_from_the_environment():
    policy = CompactionPolicy.from_env(
        {"DOCTREE_COMPACTION_THRESHOLD": "5000", "DOCTREE_COMPACTION_THRESHOLDS": "a=10,b=20"}
    )
    assert (policy.threshold_for("a"), policy.threshold_for("b"), policy.threshold_for("c")) == (
        10,
        20,
        5000,
    )


def test_bad_threshold_setting_names_the_item():
    with pytest.raises(UserError, match="'a=lots'"):
        CompactionPolicy.from_env({"DOCTREE_COMPACTION_THRESHOLDS": "a=lots"})


def test_worker_hook_compacts_the_jobs_agent_past_threshold(repo):
    seed(repo)
    hook = compaction_hook(repo, backend="offline", policy=CompactionPolicy(threshold=100))
    hook(SimpleNamespace(owner=OWNER, session_id="s-1"))
    assert repo.exists(OWNER, TARGET)


def test_worker_hook_never_raises_on_failure(db_path, caplog):
    repo = too_small_repo(db_path)
    seed(repo)
    hook = compaction_hook(repo, backend="offline", policy=CompactionPolicy(threshold=100))
    hook(SimpleNamespace(owner=OWNER, session_id="s-1"))
    assert not repo.exists(OWNER, TARGET)
    repo.close()


def test_empty_parent_documents_are_retired_with_their_children(repo):
    seed(repo)
    compactor(repo).compact(OWNER)
    assert not repo.exists(OWNER, "~/memory/people")


def test_parent_with_child_written_later_is_kept(repo):
    seed(repo)
    c = compactor(repo)
    snapshot, _ = c.snapshot(OWNER, "~/memory")
    people = next(s for s in snapshot if s.path == "~/memory/people")
    repo.write(OWNER, "~/memory/people/carol", "Carol joined on 2026-11-02.")
    assert c._retire(OWNER, people) is False
    assert repo.exists(OWNER, "~/memory/people")


def test_extractive_condensation_is_deterministic():
    sources = [
        SourceDocument(
            1, "~/memory/a", "A", "Alice lives in Lisbon. She likes jazz.\n\n- met 2026-01-02", 1
        ),
        SourceDocument(2, "~/memory/b", "B", "Bob decided to move. Nothing else.", 3),
    ]
    c = ExtractiveCondenser()
    assert c.condense(sources, previous=None, under="~/memory") == c.condense(
        list(reversed(sources)), previous=None, under="~/memory"
    )


def test_extract_lines_drops_greetings_and_questions():
    lines = [line for _, line in extract_lines("Hello there, how are you today?\n\nThanks!")]
    assert lines == []


def test_extract_lines_keeps_facts_and_drops_code_and_headings():
    text = "# Title\n\n```\nsecret code\n```\n\nWe decided to ship. Filler sentence.\n\n- item\n"
    lines = [line for _, line in extract_lines(text)]
    assert lines == ["- We decided to ship.", "- item"]


def test_compact_command_reports_what_it_did(db_path, repo):
    seed(repo)
    result = CliRunner().invoke(
        cli, ["--db", str(db_path), "compact", "--backend", "offline", "--yes"]
    )
    assert result.exit_code == 0, result.output
    assert "compacted ~/memory: 5 document(s) retired" in result.output


def test_compact_command_with_if_over_skips_small_trees(db_path, repo):
    seed(repo)
    result = CliRunner().invoke(
        cli,
        ["--db", str(db_path), "compact", "--backend", "offline", "--if-over", "100000", "--yes"],
    )
    assert result.exit_code == 0
    assert "(or what is new in it) is under the threshold" in result.output


def test_compact_command_failure_exits_nonzero_in_one_line(db_path, repo, monkeypatch):
    seed(repo)
    monkeypatch.setenv("DOCTREE_MAX_BODY_BYTES", "150")
    result = CliRunner().invoke(
        cli, ["--db", str(db_path), "compact", "--backend", "offline", "--yes"]
    )
    assert result.exit_code == 1
    assert "failed, nothing changed" in result.output
    assert "Traceback" not in result.output


def test_compact_command_json_lists_retired_documents(db_path, repo):
    import json

    seed(repo)
    result = CliRunner().invoke(
        cli, ["--db", str(db_path), "compact", "--backend", "offline", "--json", "--yes"]
    )
    data = json.loads(result.output)
    assert "~/memory/people/alice" in data["retired"]


def test_tier_pages_are_kept_out_of_a_pass_by_default(repo):
    seed(repo)
    repo.write(OWNER, "~/memory/active", "- 2026-12-01: launch Apollo")
    result = compactor(repo).compact(OWNER)
    assert repo.read(OWNER, "~/memory/active").version == 1
    assert "~/memory/active" not in result.retired
    assert "launch Apollo" not in repo.read(OWNER, TARGET).body


def test_kept_subtrees_come_from_the_environment():
    policy = CompactionPolicy.from_env({"DOCTREE_COMPACTION_KEEP": "~/memory/people, ~/memory/x"})
    assert policy.keeps("~/memory/people/alice") and not policy.keeps("~/memory/peoplex")


def test_empty_keep_setting_lets_a_pass_take_everything(repo):
    seed(repo)
    repo.write(OWNER, "~/memory/active", "- 2026-12-01: launch Apollo")
    policy = CompactionPolicy.from_env({"DOCTREE_COMPACTION_KEEP": ""})
    compactor(repo, policy=policy).compact(OWNER)
    assert not repo.exists(OWNER, "~/memory/active")


def test_hook_given_a_database_path_opens_its_own_connection(repo, db_path):
    seed(repo)
    hook = compaction_hook(db_path, backend="offline", policy=CompactionPolicy(threshold=100))
    hook(SimpleNamespace(owner=OWNER, session_id="s-1"))
    assert repo.exists(OWNER, TARGET)


def test_worker_compacts_after_the_memory_agent_stores(db_path, repo):
    from pathlib import Path

    from doctree.sessions.repository import SessionsRepository
    from doctree.sessions.transcripts import parse_transcript
    from doctree.sessions.worker import MemoryWorker, default_handler

    fixtures = sorted((Path(__file__).parent / "fixtures" / "transcripts").glob("*.md"))[:3]
    sessions = SessionsRepository(db_path)
    for path in fixtures:
        t = parse_transcript(path.read_text(encoding="utf-8"), source=path.name)
        sessions.ensure(t.agent, t.session_id, created_at=t.started)
        for m in t.messages:
            sessions.append_history(t.session_id, m.kind, m.content, time=m.time)
        sessions.sleep(t.session_id)
    policy = CompactionPolicy(threshold=2000)
    worker = MemoryWorker(
        db_path,
        handler=default_handler(repo, "offline"),
        after_handle=compaction_hook(db_path, backend="offline", policy=policy),
    )
    tick = worker.tick()
    worker.close()
    sessions.close()
    assert len(tick.processed) == len(fixtures)
    assert repo.exists(OWNER, TARGET)
    assert any(v.actor == "system:compaction" for v in repo.log(OWNER, "~/memory", limit=None))


def test_same_fact_cited_from_two_pages_is_kept_once():
    sources = [
        SourceDocument(1, "~/memory/p", "P", "- Priya leads the backend ([[~/memory/s1|s1]])", 1),
        SourceDocument(2, "~/memory/s", "S", "- 09:02 [named] Priya leads the backend.", 1),
    ]
    text = ExtractiveCondenser().condense(sources, previous=None, under="~/memory")
    assert text.count("Priya leads the backend") == 1


def test_link_only_lines_are_left_out():
    sources = [
        SourceDocument(1, "~/memory/p", "P", "- [[~/memory/people/anna]]\n- Anna likes tea", 1)
    ]
    text = ExtractiveCondenser().condense(sources, previous=None, under="~/memory")
    assert "- [[~/memory/people/anna]]" not in text and "- Anna likes tea" in text


def test_condensed_text_over_budget_keeps_new_material_first():
    earlier = SourceDocument(
        9,
        TARGET,
        "C",
        "# C\n\n## Old ([[~/memory/old]])\n\n"
        + "".join(f"- old fact {i} here\n" for i in range(40)),
        1,
    )
    new = [SourceDocument(1, "~/memory/new", "New", "- Bob moved to Berlin.", 1)]
    text = ExtractiveCondenser().condense(new, previous=earlier, under="~/memory", budget_bytes=300)
    assert "Bob moved to Berlin." in text and "old fact 3 here" not in text
    assert "(40 lines left out to stay within 300 bytes" in text


def test_no_pass_past_threshold_without_enough_new_material(repo):
    seed(repo)
    c = compactor(repo, policy=CompactionPolicy(threshold=100))
    assert c.maybe_compact(OWNER).status == "compacted"
    repo.write(OWNER, "~/memory/tiny", "ok.")
    assert c.maybe_compact(OWNER).status == "below-threshold"  # 3 bytes new < 25


def test_a_kept_subtree_named_explicitly_is_compacted(repo):
    repo.write(OWNER, "~/memory/active/a", "- 2026-12-01: launch Apollo")
    repo.write(OWNER, "~/memory/active/b", "- 2026-12-02: review the launch")
    result = compactor(repo).compact(OWNER, "~/memory/active")
    assert result.status == "compacted" and len(result.retired) == 2


def test_condensed_document_fits_the_default_load_cap(repo):
    from doctree.memory.context import load_memories

    for i in range(40):
        repo.write(OWNER, f"~/memory/notes/n{i}", f"- Fact {i}: Alice decided item {i} " * 6)
    compactor(repo, policy=CompactionPolicy(threshold=100_000)).compact(OWNER)
    assert "<!-- ~/memory/compacted v1 -->" in load_memories(repo, OWNER)


def test_compact_command_for_all_agents_compacts_each_over_the_threshold(db_path, repo):
    seed(repo)
    repo.write("ops", "~/memory/a", "Disk alerts on db-1 are noise. " * 3)
    repo.write("ops", "~/memory/b", "Page the on-call for db-2 only.")
    repo.write("tiny", "~/memory/x", "small")
    result = CliRunner().invoke(
        cli,
        [
            "--db",
            str(db_path),
            "compact",
            "--all-owners",
            "--if-over",
            "100",
            "--backend",
            "offline",
            "--yes",
        ],
    )
    assert result.exit_code == 0, result.output
    assert repo.exists("main", TARGET) and repo.exists("ops", TARGET)
    assert "tiny: nothing compacted" in result.output


def test_condensed_text_over_budget_keeps_the_first_lines_of_every_source():
    sources = [
        SourceDocument(
            i,
            f"~/memory/s{i}",
            f"S{i}",
            "".join(f"- source {i} fact number {j}\n" for j in range(20)),
            1,
        )
        for i in range(3)
    ]
    text = ExtractiveCondenser().condense(
        sources, previous=None, under="~/memory", budget_bytes=900
    )
    assert len(text.encode()) <= 900
    for i in range(3):
        assert f"- source {i} fact number 0\n" in text
        assert f"- source {i} fact number 19" not in text
    assert (
        "lines left out to stay within 900 bytes; they are in the history of their sources.)"
        in text
    )
