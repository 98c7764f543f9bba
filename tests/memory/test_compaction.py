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
)
from doctree.memory.lines import extract_lines
from doctree.store.documents import Actor, DocumentsRepository, Provenance
from doctree.store.leases import Leases

OWNER = "main"
TARGET = "~/memory/compacted"
MEMORY_AGENT = Actor("memory-agent", OWNER)


def store(repo, owner, path, body):
    """A page as the memory agent writes it (pages written by hand are never condensed
    unless asked; see tests/memory/test_compaction_trust.py)."""
    return repo.write(owner, path, body, provenance=Provenance(Actor("memory-agent", owner)))


@pytest.fixture(autouse=True)
def offline(monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.delenv("ANTHROPIC_BASE_URL", raising=False)
    monkeypatch.delenv("DOCTREE_COMPACTION_THRESHOLD", raising=False)
    monkeypatch.delenv("DOCTREE_COMPACTION_THRESHOLDS", raising=False)


# What the memory agent says on several pages: a pass gains by saying it once.
SHARED = "".join(
    f"- Shared fact {i}: the Apollo steering group meets every second Tuesday in the large "
    f"room on the third floor, and the minutes go to the whole team by Friday noon.\n"
    for i in range(6)
)


def seed(repo):
    store(
        repo,
        OWNER,
        "~/memory/people/alice",
        "# Alice\n\nAlice leads [[~/memory/projects/apollo]]. She prefers green tea.\n\n" + SHARED,
    )
    store(
        repo,
        OWNER,
        "~/memory/projects/apollo",
        "# Apollo\n\nWe decided to launch on 2026-12-01.\n\n- budget: 40k\n\n" + SHARED,
    )
    store(
        repo,
        OWNER,
        "~/memory/notes",
        "Hello there, how are you today?\n\nWe decided to launch on 2026-12-01.\n\n" + SHARED,
    )


def compactor(repo, **kw):
    return Compactor(repo, condenser="offline", **kw)


def test_compaction_writes_condensed_document(repo):
    seed(repo)
    result = compactor(repo).compact(OWNER, whole_memory=True)
    doc = repo.read(OWNER, TARGET)
    assert result.status == "compacted"
    assert "We decided to launch on 2026-12-01." in doc.body
    assert "- budget: 40k" in doc.body


def test_compaction_retires_every_snapshot_document(repo):
    seed(repo)
    compactor(repo).compact(OWNER, whole_memory=True)
    live = [d.path for d in repo.documents(OWNER, "~/memory")]
    assert live == ["~/memory", TARGET]


def test_retired_documents_keep_readable_history(repo):
    seed(repo)
    compactor(repo).compact(OWNER, whole_memory=True)
    history = repo.history(OWNER, "~/memory/people/alice")
    assert [v.operation for v in history] == ["created", "deleted"]
    assert "green tea" in repo.read(OWNER, "~/memory/people/alice", version=1).body


def test_condensed_document_links_to_every_source(repo):
    seed(repo)
    compactor(repo).compact(OWNER, whole_memory=True)
    doc = repo.read(OWNER, TARGET)
    for path in ("~/memory/people/alice", "~/memory/projects/apollo", "~/memory/notes"):
        assert path in doc.links
        assert f"[[{path}]]" in doc.body


def test_condensed_document_names_source_versions(repo):
    seed(repo)
    store(repo, OWNER, "~/memory/notes", "Alice prefers green tea. Bob is new.")
    compactor(repo).compact(OWNER, whole_memory=True)
    assert "- [[~/memory/notes]] (version 2)" in repo.read(OWNER, TARGET).body


def test_compaction_drops_duplicate_lines_across_documents(repo):
    seed(repo)
    compactor(repo).compact(OWNER, whole_memory=True)
    body = repo.read(OWNER, TARGET).body
    assert body.count("Shared fact 0:") == 1
    # kept under the first source by path, tied to the others by links
    line = next(ln for ln in body.splitlines() if "Shared fact 0:" in ln)
    assert line.endswith(
        "by Friday noon. (also [[~/memory/people/alice]]) (also [[~/memory/projects/apollo]])"
    )
    # a repeat shorter than the link it would add stays where it is
    assert body.count("We decided to launch on 2026-12-01.") == 2


def test_compaction_versions_carry_the_compaction_actor(repo):
    seed(repo)
    compactor(repo).compact(OWNER, whole_memory=True)
    deleted = repo.history(OWNER, "~/memory/notes")[-1]
    assert deleted.actor == "system:compaction"
    assert repo.history(OWNER, TARGET)[-1].actor == "system:compaction"


def test_recompaction_folds_earlier_condensed_document_with_new_ones(repo):
    seed(repo)
    compactor(repo).compact(OWNER, whole_memory=True)
    store(repo, OWNER, "~/memory/people/bob", "# Bob\n\nBob moved to Berlin.\n")
    result = compactor(repo).compact(OWNER, whole_memory=True)
    body = repo.read(OWNER, TARGET).body
    assert result.condensed_version == 2
    assert "Bob moved to Berlin." in body
    assert "We decided to launch on 2026-12-01." in body
    assert "version 1 of [[~/memory/compacted]]" in body
    assert not repo.exists(OWNER, "~/memory/people/bob")


def test_recompaction_keeps_one_sources_section(repo):
    seed(repo)
    compactor(repo).compact(OWNER, whole_memory=True)
    store(repo, OWNER, "~/memory/people/bob", "Bob moved to Berlin.")
    compactor(repo).compact(OWNER, whole_memory=True)
    assert repo.read(OWNER, TARGET).body.count("## Sources") == 1


def test_compaction_with_nothing_new_changes_nothing(repo):
    seed(repo)
    compactor(repo).compact(OWNER, whole_memory=True)
    result = compactor(repo).compact(OWNER, whole_memory=True)
    assert result.status == "nothing"
    assert repo.read(OWNER, TARGET).version == 1


def test_compaction_leaves_other_owners_alone(repo):
    seed(repo)
    store(repo, "other", "~/memory/x", "other agent's memory")
    store(repo, "other", "~/memory/y", "more of it")
    compactor(repo).compact(OWNER, whole_memory=True)
    assert [d.path for d in repo.documents("other", "~/memory")] == [
        "~/memory",
        "~/memory/x",
        "~/memory/y",
    ]


def test_compaction_of_a_subtree_leaves_the_rest(repo):
    seed(repo)
    store(repo, OWNER, "~/memory/projects/zeus", "Zeus is paused until 2027-01-10.")
    result = compactor(repo).compact(OWNER, "~/memory/projects")
    assert result.condensed_path == "~/memory/projects/compacted"
    assert repo.exists(OWNER, "~/memory/people/alice")
    assert not repo.exists(OWNER, "~/memory/projects/zeus")


def test_compaction_is_skipped_while_another_holder_has_the_lease(repo, db_path):
    seed(repo)
    other = DocumentsRepository(db_path)
    assert Leases(other.conn).acquire("compaction:main", "someone-else", 60)
    result = compactor(repo).compact(OWNER, whole_memory=True)
    other.close()
    assert result.status == "skipped"
    assert not repo.exists(OWNER, TARGET)
    assert repo.read(OWNER, "~/memory/notes").version == 1


def test_compaction_runs_when_another_owners_lease_is_held(repo):
    seed(repo)
    Leases(repo.conn).acquire("compaction:other", "someone-else", 60)
    assert compactor(repo).compact(OWNER, whole_memory=True).status == "compacted"


def test_compaction_releases_its_lease_after_success(repo):
    seed(repo)
    compactor(repo).compact(OWNER, whole_memory=True)
    assert Leases(repo.conn).holder("compaction:main") is None


def too_small_repo(db_path):
    return DocumentsRepository(db_path, max_body_bytes=1200)  # each page fits, the condensed not


def test_failed_compaction_leaves_every_document_at_its_version(db_path):
    repo = too_small_repo(db_path)
    seed(repo)
    before = {d.path: d.version for d in repo.documents(OWNER)}
    result = compactor(repo).compact(OWNER, whole_memory=True)
    assert result.status == "failed"
    assert {d.path: d.version for d in repo.documents(OWNER)} == before
    repo.close()


def test_failed_compaction_logs_and_does_not_raise(db_path, caplog):
    repo = too_small_repo(db_path)
    seed(repo)
    with caplog.at_level(logging.WARNING, logger="doctree.memory.compaction"):
        result = compactor(repo).compact(OWNER, whole_memory=True)
    assert "BodyTooLargeError" in result.error
    assert "failed, nothing changed" in caplog.text
    repo.close()


def test_failed_compaction_releases_its_lease_so_next_trigger_retries(db_path):
    repo = too_small_repo(db_path)
    seed(repo)
    compactor(repo).compact(OWNER, whole_memory=True)
    assert Leases(repo.conn).holder("compaction:main") is None
    repo.max_body_bytes = 100_000
    assert compactor(repo).compact(OWNER, whole_memory=True).status == "compacted"
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
    compactor(repo).compact(OWNER, whole_memory=True)
    assert not repo.exists(OWNER, "~/memory/people")


def test_parent_with_child_written_later_is_kept(repo):
    seed(repo)
    c = compactor(repo)
    snapshot, _, _ = c.snapshot(OWNER, "~/memory")
    people = next(s for s in snapshot if s.path == "~/memory/people")
    store(repo, OWNER, "~/memory/people/carol", "Carol joined on 2026-11-02.")
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
        cli, ["--db", str(db_path), "compact", "--backend", "offline", "--whole-memory", "--yes"]
    )
    assert result.exit_code == 0, result.output
    assert "compacted ~/memory: 5 document(s) retired" in result.output


def test_compact_command_with_if_over_skips_small_trees(db_path, repo):
    seed(repo)
    result = CliRunner().invoke(
        cli,
        [
            "--db",
            str(db_path),
            "compact",
            "--whole-memory",
            "--backend",
            "offline",
            "--if-over",
            "100000",
            "--yes",
        ],
    )
    assert result.exit_code == 0
    assert "(or what is new in it) is under the threshold" in result.output


def test_compact_command_failure_exits_nonzero_in_one_line(db_path, repo, monkeypatch):
    seed(repo)
    monkeypatch.setenv("DOCTREE_MAX_BODY_BYTES", "150")
    result = CliRunner().invoke(
        cli, ["--db", str(db_path), "compact", "--backend", "offline", "--whole-memory", "--yes"]
    )
    assert result.exit_code == 1
    assert "failed, nothing changed" in result.output
    assert "Traceback" not in result.output


def test_compact_command_json_lists_retired_documents(db_path, repo):
    import json

    seed(repo)
    result = CliRunner().invoke(
        cli,
        [
            "--db",
            str(db_path),
            "compact",
            "--backend",
            "offline",
            "--whole-memory",
            "--json",
            "--yes",
        ],
    )
    data = json.loads(result.output)
    assert "~/memory/people/alice" in data["retired"]


def test_tier_pages_are_kept_out_of_a_pass_by_default(repo):
    seed(repo)
    store(repo, OWNER, "~/memory/active", "- 2026-12-01: launch Apollo")
    result = compactor(repo).compact(OWNER, whole_memory=True)
    assert repo.read(OWNER, "~/memory/active").version == 1
    assert "~/memory/active" not in result.retired
    assert "launch Apollo" not in repo.read(OWNER, TARGET).body


def test_kept_subtrees_come_from_the_environment():
    policy = CompactionPolicy.from_env({"DOCTREE_COMPACTION_KEEP": "~/memory/people, ~/memory/x"})
    assert policy.keeps("~/memory/people/alice") and not policy.keeps("~/memory/peoplex")


def test_empty_keep_setting_lets_a_pass_take_everything(repo):
    seed(repo)
    store(repo, OWNER, "~/memory/active", "- 2026-12-01: launch Apollo")
    policy = CompactionPolicy.from_env({"DOCTREE_COMPACTION_KEEP": ""})
    compactor(repo, policy=policy).compact(OWNER, whole_memory=True)
    assert not repo.exists(OWNER, "~/memory/active")


def test_hook_given_a_database_path_opens_its_own_connection(repo, db_path):
    seed(repo)
    hook = compaction_hook(db_path, backend="offline", policy=CompactionPolicy(threshold=100))
    hook(SimpleNamespace(owner=OWNER, session_id="s-1"))
    assert repo.exists(OWNER, TARGET)


@pytest.mark.slow
def test_worker_compacts_after_the_memory_agent_stores(db_path, repo):
    from pathlib import Path

    from doctree.compose import Settings, build_handler
    from doctree.sessions.repository import SessionsRepository
    from doctree.sessions.transcripts import parse_transcript
    from doctree.worker.worker import MemoryWorker

    fixtures = sorted((Path(__file__).parents[1] / "fixtures" / "transcripts").glob("*.md"))[:3]
    sessions = SessionsRepository(db_path)
    for path in fixtures:
        t = parse_transcript(path.read_text(encoding="utf-8"), source=path.name)
        sessions.ensure(t.owner, t.session_id, created_at=t.started)
        for m in t.messages:
            sessions.append_history(t.session_id, m.kind, m.content, time=m.time)
        sessions.sleep(t.session_id)
    policy = CompactionPolicy(threshold=2000)
    worker = MemoryWorker(
        db_path,
        handler=build_handler(repo, Settings(backend="offline")),
        after_handle=compaction_hook(db_path, backend="offline", policy=policy),
    )
    tick = worker.tick()
    worker.close()
    sessions.close()
    assert len(tick.processed) == len(fixtures)
    # The hook ran a pass after the store (one the lossless condenser may find no gain in).
    from doctree.store.runs import Runs

    passes = [r for r in Runs(repo.conn).list(owner=OWNER) if r.definition == "compaction-agent"]
    assert passes and all(r.status == "completed" for r in passes)
    assert all(r.stop_reason in ("end_turn", "no_gain") for r in passes)


def test_same_fact_cited_from_two_pages_is_kept_once_with_both_citations():
    sources = [
        SourceDocument(1, "~/memory/p", "P", "- Priya leads the backend ([[~/memory/s1|s1]])", 1),
        SourceDocument(2, "~/memory/s", "S", "- Priya leads the backend [[~/memory/s2]]", 1),
    ]
    text = ExtractiveCondenser().condense(sources, previous=None, under="~/memory")
    assert text.count("Priya leads the backend") == 1
    line = next(ln for ln in text.splitlines() if "Priya leads the backend" in ln)
    assert "[[~/memory/s1|s1]]" in line and "[[~/memory/s2]]" in line
    assert "(also [[~/memory/s]])" in line


def test_the_same_words_at_another_time_are_not_a_repeat():
    sources = [
        SourceDocument(1, "~/memory/p", "P", "- 2026-11-18: Priya met the user.", 1),
        SourceDocument(2, "~/memory/s", "S", "- 2026-11-20: Priya met the user.", 1),
    ]
    text = ExtractiveCondenser().condense(sources, previous=None, under="~/memory")
    assert "2026-11-18: Priya met the user." in text and "2026-11-20: Priya met the user." in text


def test_link_only_lines_are_kept():
    sources = [
        SourceDocument(1, "~/memory/p", "P", "- [[~/memory/people/anna]]\n- Anna likes tea", 1)
    ]
    text = ExtractiveCondenser().condense(sources, previous=None, under="~/memory")
    assert "- [[~/memory/people/anna]]" in text and "- Anna likes tea" in text


def test_condensed_text_over_budget_keeps_every_line():
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
    assert "Bob moved to Berlin." in text
    assert all(f"- old fact {i} here\n" in text for i in range(40))
    assert "left out" not in text


def test_a_threshold_driven_pass_that_would_not_shrink_the_subtree_writes_nothing(repo):
    store(repo, OWNER, "~/memory/a", "Alice prefers tea.")
    store(repo, OWNER, "~/memory/b", "Bob moved to Berlin.")
    before = {d.path: d.version for d in repo.documents(OWNER)}
    result = compactor(repo, policy=CompactionPolicy(threshold=10)).maybe_compact(OWNER)
    assert result.status == "no-gain"
    assert {d.path: d.version for d in repo.documents(OWNER)} == before


def test_no_pass_past_threshold_without_enough_new_material(repo):
    seed(repo)
    c = compactor(repo, policy=CompactionPolicy(threshold=100))
    assert c.maybe_compact(OWNER).status == "compacted"
    store(repo, OWNER, "~/memory/tiny", "ok.")
    assert c.maybe_compact(OWNER).status == "below-threshold"  # 3 bytes new < 25


def test_a_kept_subtree_named_explicitly_is_compacted(repo):
    store(repo, OWNER, "~/memory/active/a", "- 2026-12-01: launch Apollo")
    store(repo, OWNER, "~/memory/active/b", "- 2026-12-02: review the launch")
    result = compactor(repo).compact(OWNER, "~/memory/active")
    assert result.status == "compacted" and len(result.retired) == 2


def test_compact_command_for_all_agents_compacts_each_over_the_threshold(db_path, repo):
    seed(repo)
    store(repo, "ops", "~/memory/a", "Disk alerts on db-1 are noise.\n\n" + SHARED)
    store(repo, "ops", "~/memory/b", "Page the on-call for db-2 only.\n\n" + SHARED)
    store(repo, "tiny", "~/memory/x", "small")
    result = CliRunner().invoke(
        cli,
        [
            "--db",
            str(db_path),
            "compact",
            "--whole-memory",
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
