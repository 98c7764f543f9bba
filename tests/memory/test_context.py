"""Loading memory under a cap (seed 000: loadMemories, storeMemory, getTotalMemorySize)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from doctree.cli import cli
from doctree.errors import UserError
from doctree.memory.context import (
    SEPARATOR,
    iter_documents,
    load_memories,
    relevant_ids,
    total_size,
)
from doctree.store.backends import begin_write, dialect_of
from doctree.store.db import connect
from doctree.store.documents import DocumentsRepository

OWNER = "main"


def write(repo, path, body):
    return repo.write(OWNER, path, body)


def test_load_memories_is_empty_without_documents(repo):
    assert load_memories(repo, OWNER) == ""


def test_load_memories_is_empty_when_only_empty_parents_exist(repo):
    write(repo, "~/memory/people/alice", "")
    assert load_memories(repo, OWNER) == ""


def test_load_memories_joins_every_document(repo):
    write(repo, "~/memory/people/alice", "# Alice\n\nAlice prefers tea.")
    write(repo, "~/memory/projects/apollo", "# Apollo\n\nLaunch on 2026-12-01.")
    text = load_memories(repo, OWNER)
    assert "Alice prefers tea." in text
    assert "Launch on 2026-12-01." in text
    assert text.count(SEPARATOR) == 1


def test_load_memories_puts_most_recently_changed_first(repo):
    write(repo, "~/memory/a", "first written")
    write(repo, "~/memory/b", "second written")
    write(repo, "~/memory/a", "first written, then changed last")
    text = load_memories(repo, OWNER)
    assert text.index("changed last") < text.index("second written")


def test_load_memories_names_each_documents_path(repo):
    write(repo, "~/memory/people/alice", "Alice prefers tea.")
    assert "<!-- ~/memory/people/alice v1 -->" in load_memories(repo, OWNER)


def test_load_memories_stops_before_document_that_would_overflow_cap(repo):
    write(repo, "~/memory/old", "o" * 50)
    write(repo, "~/memory/big", "b" * 500)
    write(repo, "~/memory/new", "n" * 50)
    text = load_memories(repo, OWNER, cap=300)
    assert "n" * 50 in text
    assert "b" * 10 not in text
    assert "o" * 50 not in text  # a soft cap stops; it does not skip ahead
    assert len(text) <= 300


def test_load_memories_never_cuts_a_document(repo):
    bodies = {f"~/memory/doc{i}": f"fact {i} " * (10 + 7 * i) for i in range(8)}
    for path, body in bodies.items():
        write(repo, path, body)
    for cap in range(0, 2000, 37):
        text = load_memories(repo, OWNER, cap=cap)
        assert len(text) <= cap
        for body in bodies.values():
            # each document is there whole or not at all
            assert body.strip() in text or body.strip()[:20] not in text


def test_load_memories_under_cap_may_return_less_than_cap(repo):
    write(repo, "~/memory/small", "s" * 10)
    write(repo, "~/memory/large", "l" * 1000)
    text = load_memories(repo, OWNER, cap=500)
    assert text == ""  # the newest document alone overflows: nothing, rather than a cut


def test_load_memories_ranks_by_relevance_to_query(repo):
    write(repo, "~/memory/apollo", "Apollo launch is planned for December.")
    write(repo, "~/memory/tea", "Alice prefers green tea in the morning.")
    write(repo, "~/memory/misc", "Unrelated notes about the weather.")
    text = load_memories(repo, OWNER, query="what tea does Alice like")
    assert text.index("green tea") < text.index("Apollo")
    assert text.index("green tea") < text.index("weather")


def test_ranked_documents_put_matches_first_then_recent(repo):
    write(repo, "~/memory/match", "Bob moved to Berlin.")
    write(repo, "~/memory/recent", "Something else entirely.")
    paths = [d.path for d in iter_documents(repo, OWNER, query="Berlin")]
    assert paths == ["~/memory/match", "~/memory/recent"]


def test_load_memories_reads_only_under_given_subtree(repo):
    write(repo, "~/memory/kept", "inside memory")
    write(repo, "~/notes/other", "outside memory")
    assert "outside memory" not in load_memories(repo, OWNER)
    assert "outside memory" in load_memories(repo, OWNER, under="~/notes")


def test_load_memories_never_reads_another_owners_documents(repo):
    repo.write("other", "~/memory/secret", "other agent's secret")
    assert load_memories(repo, OWNER) == ""


def test_load_memories_rejects_a_negative_cap(repo):
    with pytest.raises(UserError, match="cap -1"):
        load_memories(repo, OWNER, cap=-1)


def test_stored_memory_is_loaded_verbatim(repo):
    body = "# Alice\n\n- prefers tea\n- lives in Lisbon"
    write(repo, "~/memory/people/alice", body)
    assert body in load_memories(repo, OWNER)


def test_storing_same_path_replaces_it_with_a_new_version(repo):
    write(repo, "~/memory/people/alice", "Alice lives in Munich.")
    doc = write(repo, "~/memory/people/alice", "Alice lives in Berlin.")
    text = load_memories(repo, OWNER)
    assert doc.version == 2
    assert "Berlin" in text and "Munich" not in text


def test_storing_below_missing_parent_creates_it(repo):
    write(repo, "~/memory/projects/apollo/launch", "Launch on 2026-12-01.")
    assert repo.exists(OWNER, "~/memory/projects/apollo")
    assert "Launch on 2026-12-01." in load_memories(repo, OWNER)


def test_total_size_sums_every_document_in_bytes(repo):
    write(repo, "~/memory/a", "abc")
    write(repo, "~/memory/b/c", "héllo")  # é is two bytes
    assert total_size(repo, OWNER) == 3 + 6


def test_total_size_is_zero_without_documents(repo):
    assert total_size(repo, OWNER) == 0


def test_total_size_leaves_out_deleted_documents(repo):
    write(repo, "~/memory/a", "abc")
    write(repo, "~/memory/b", "defg")
    repo.delete(OWNER, "~/memory/b")
    assert total_size(repo, OWNER) == 3


def test_context_command_prints_loaded_memory(db_path, repo):
    write(repo, "~/memory/people/alice", "Alice prefers tea.")
    result = CliRunner().invoke(cli, ["--db", str(db_path), "context", "--cap", "500"])
    assert result.exit_code == 0, result.output
    assert "Alice prefers tea." in result.output


def test_context_command_with_query_puts_match_first(db_path, repo):
    write(repo, "~/memory/tea", "Alice prefers tea.")
    write(repo, "~/memory/apollo", "Apollo launches in December.")
    result = CliRunner().invoke(cli, ["--db", str(db_path), "context", "--query", "tea"])
    assert result.output.index("tea") < result.output.index("Apollo")


def test_context_command_rejects_negative_cap_in_one_line(db_path):
    result = CliRunner().invoke(cli, ["--db", str(db_path), "context", "--cap", "-5"])
    assert result.exit_code == 2
    assert "Traceback" not in result.output


def test_load_memories_leaves_out_a_document_moved_away(repo):
    write(repo, "~/memory/a", "moved away later")
    write(repo, "~/memory/b", "stays")
    repo.move(OWNER, "~/memory/a", "~/elsewhere/a")
    text = load_memories(repo, OWNER)
    assert "moved away later" not in text and "stays" in text


def test_load_memories_leaves_out_deleted_documents(repo):
    write(repo, "~/memory/a", "deleted later")
    repo.delete(OWNER, "~/memory/a")
    assert load_memories(repo, OWNER) == ""


def test_load_memories_includes_a_document_moved_in(repo):
    write(repo, "~/inbox/a", "moved into memory")
    repo.move(OWNER, "~/inbox/a", "~/memory/a")
    assert "moved into memory" in load_memories(repo, OWNER)


def test_load_memories_reads_past_the_first_page_of_changes(repo):
    write(repo, "~/memory/old", "the oldest fact")
    with repo.transaction():
        for i in range(300):
            write(repo, "~/memory/churn", f"churn {i}")
    text = load_memories(repo, OWNER, cap=100_000)
    assert "the oldest fact" in text and text.count("churn 2") == 1


# -- ranking by passages (doctree.memory.retrieval.rank_documents) ----------------------------------


def test_load_memories_query_ignores_stopwords(repo):
    write(repo, "~/memory/tea", "Alice drinks green tea.")
    write(repo, "~/memory/chatter", "What is it that you do, and what is the point of it all?")
    text = load_memories(repo, OWNER, query="what is the tea that Alice drinks")
    assert text.index("green tea") < text.index("the point of it all")


def test_load_memories_query_puts_the_page_named_for_the_subject_first(repo):
    write(repo, "~/memory/projects/apollo", "# Apollo\n\n- The launch date is December 8.")
    write(repo, "~/memory/archive/s-1", "# Session\n\n- Apollo launch moved; the launch is later.")
    text = load_memories(repo, OWNER, query="when is the Apollo launch")
    assert text.startswith("<!-- ~/memory/projects/apollo ")


def test_load_memories_query_sees_a_document_written_in_the_callers_transaction(repo):
    write(repo, "~/memory/old", "Something recent but unrelated.")
    with repo.transaction():
        write(repo, "~/memory/berlin", "Bob moved to Berlin.")
        write(repo, "~/memory/newest", "Also unrelated, and newest.")
        text = load_memories(repo, OWNER, query="Berlin")
    assert text.startswith("<!-- ~/memory/berlin ")


def test_load_memories_query_forgets_a_document_of_a_rolled_back_transaction(repo):
    write(repo, "~/memory/kept", "Kept notes about Berlin.")
    with pytest.raises(RuntimeError), repo.transaction():
        write(repo, "~/memory/undone", "Undone notes about Berlin.")
        assert "Undone notes" in load_memories(repo, OWNER, query="Berlin")
        raise RuntimeError("roll back")
    text = load_memories(repo, OWNER, query="Berlin")
    assert "Undone notes" not in text and "Kept notes" in text


def _read_only(db_path, how: str) -> DocumentsRepository:
    if how == "mode=ro":
        conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, isolation_level=None)
    else:
        conn = sqlite3.connect(db_path, isolation_level=None)
        conn.execute("PRAGMA query_only = ON")
    conn.row_factory = sqlite3.Row
    return DocumentsRepository(conn)


@pytest.mark.sqlite_only
@pytest.mark.parametrize("how", ["mode=ro", "query_only"])
def test_load_memories_query_on_a_read_only_connection_ranks_by_the_store_search(
    db_path, repo, how, caplog
):
    write(repo, "~/memory/berlin", "Bob moved to Berlin.")  # never indexed: no query ran
    write(repo, "~/memory/newest", "Unrelated and newest.")
    ro = _read_only(db_path, how)
    text = load_memories(ro, OWNER, query="where did Bob move")
    ro.conn.close()
    assert text.startswith("<!-- ~/memory/berlin ")
    assert "Unrelated and newest." in text
    assert "passage index of 'main' not updated" in caplog.text


@pytest.mark.sqlite_only
def test_load_memories_query_on_a_read_only_connection_uses_an_index_that_is_current(db_path, repo):
    write(repo, "~/memory/tea", "Alice drinks green tea.")
    write(repo, "~/memory/chatter", "What is it that you do, and what is the point of it all?")
    load_memories(repo, OWNER, query="tea")  # brings the index up to date
    ro = _read_only(db_path, "mode=ro")
    text = load_memories(ro, OWNER, query="what is the tea that Alice drinks")
    ro.conn.close()
    # the store's search would rank 'chatter' first (it matches 'what', 'is', 'the', 'that')
    assert text.index("green tea") < text.index("the point of it all")


def test_load_memories_query_while_another_connection_holds_the_write_lock(db_path, repo, caplog):
    write(repo, "~/memory/berlin", "Bob moved to Berlin.")
    write(repo, "~/memory/newest", "Unrelated and newest.")
    conn = connect(db_path)
    dialect_of(conn).set_wait_timeout(conn, 50)
    waiting = DocumentsRepository(conn)
    begin_write(repo.conn)
    try:
        text = load_memories(waiting, OWNER, query="where did Bob move")
    finally:
        repo.conn.execute("ROLLBACK")
        waiting.close()
    assert text.startswith("<!-- ~/memory/berlin ")
    # SQLite: "database is locked"; PostgreSQL: "canceling statement due to lock timeout"
    assert "database is locked" in caplog.text or "lock timeout" in caplog.text


def test_load_memories_query_in_an_outdated_read_transaction_leaves_it_open(db_path, repo, caplog):
    write(repo, "~/memory/berlin", "Bob moved to Berlin.")
    conn = connect(db_path)
    reader = DocumentsRepository(conn)
    conn.execute("BEGIN")
    assert reader.get(OWNER, "~/memory/berlin") is not None  # the snapshot is taken
    write(repo, "~/memory/newest", "Written by another connection meanwhile.")
    text = load_memories(reader, OWNER, query="where did Bob move")
    still_open = conn.in_transaction
    conn.execute("ROLLBACK")
    reader.close()
    assert text.startswith("<!-- ~/memory/berlin ") and still_open
    assert "passage index of 'main' not updated" in caplog.text


def test_load_memories_query_in_a_read_snapshot_never_takes_the_write_lock(db_path, repo):
    write(repo, "~/memory/berlin", "Bob moved to Berlin.")  # never indexed: no query ran
    other = DocumentsRepository(connect(db_path))
    dialect_of(other.conn).set_wait_timeout(other.conn, 50)
    with repo.snapshot():
        text = load_memories(repo, OWNER, query="where did Bob move")
        other.write(OWNER, "~/memory/written", "Written while the snapshot is open.")
    other.close()
    assert text.startswith("<!-- ~/memory/berlin ")


def test_load_memories_query_ranks_by_passages_again_once_the_snapshot_is_over(repo):
    write(repo, "~/memory/tea", "Alice drinks green tea.")
    write(repo, "~/memory/chatter", "What is it that you do, and what is the point of it all?")
    with repo.snapshot():
        load_memories(repo, OWNER, query="tea")
    text = load_memories(repo, OWNER, query="what is the tea that Alice drinks")
    assert text.index("green tea") < text.index("the point of it all")


def test_relevant_ids_rejects_an_unknown_ranking(repo):
    with pytest.raises(UserError, match="ranking 'bm25'"):
        relevant_ids(repo, OWNER, "tea", ranking="bm25")


# -- relevance on the fixture transcripts ----------------------------------------------------

FIXTURES = Path(__file__).parents[1] / "fixtures" / "transcripts"


@pytest.fixture(scope="module")
def replayed(tmp_path_factory):
    """A database after `doctree replay` of every fixture on the offline backend."""
    db = tmp_path_factory.mktemp("relevance") / "doctree.db"
    transcripts = sorted(map(str, FIXTURES.glob("*.md")))
    result = CliRunner().invoke(
        cli, ["--db", str(db), "replay", "--backend", "offline", *transcripts]
    )
    assert result.exit_code == 0, result.output
    r = DocumentsRepository(db)
    yield r
    r.close()


def test_apollo_launch_question_loads_the_apollo_project_page_first(replayed):
    text = load_memories(replayed, OWNER, query="when is the Apollo launch")
    assert text.startswith("<!-- ~/memory/projects/apollo ")
    assert "The launch date is December 8 (2026-12-08)." in text.split(SEPARATOR)[0]


@pytest.mark.parametrize(
    ("owner", "query", "answer"),
    [
        ("main", "when is Anna's birthday", "December 4"),
        ("main", "where does Bob live now", "Berlin"),
        ("main", "when is the dentist appointment", "Dr. Okafor"),
        ("main", "how should money be stored in the ledger", "integer cents"),
        ("main", "when does the old MySQL replica get switched off", "December 15"),
        ("main", "where was the team dinner", "Kohl"),
        ("ops", "what log retention did we set on the database hosts", "14 days"),
    ],
)
def test_fixture_question_loads_a_document_with_its_answer_first(replayed, owner, query, answer):
    first = load_memories(replayed, owner, query=query).split(SEPARATOR)[0]
    assert answer in first


def test_load_memories_reads_the_documents_it_loads_in_one_read_per_page(repo):
    # 30 documents about herons loaded for a query, then the most recent of 30 others: the
    # documents are read by id, a list at a time (one round trip on a server), not one by one.
    for i in range(30):
        write(repo, f"~/memory/birds/heron{i:02d}", f"Heron {i} stood in the river at dawn.")
    for i in range(30):
        write(repo, f"~/memory/walks/walk{i:02d}", f"Walk {i} up the hill in the fog.")
    load_memories(repo, OWNER, query="heron")  # the passage index brought up to date
    statements: list[str] = []
    if dialect_of(repo.conn).name == "postgresql":
        execute = repo.conn.execute

        def traced(sql, params=(), **kw):
            statements.append(sql)
            return execute(sql, params, **kw)

        repo.conn.execute = traced
    else:
        repo.conn.set_trace_callback(statements.append)
    text = load_memories(repo, OWNER, cap=100_000, query="heron river")
    assert text.count("stood in the river") == 30 and text.count("up the hill") == 30
    assert text.index("Heron") < text.index("Walk")
    by_id = [s for s in statements if s.lstrip().startswith("SELECT * FROM documents WHERE id")]
    # the relevant documents, then the page of recent changes
    assert len(by_id) == 2, by_id


def test_read_by_ids_keeps_the_order_asked_and_leaves_out_unknown_ids(repo):
    a = write(repo, "~/notes/a", "alpha")
    b = write(repo, "~/notes/b", "beta")
    c = write(repo, "~/notes/c", "gamma")
    repo.delete(OWNER, "~/notes/b")
    docs = list(repo.read_by_ids([c.id, 10_000, a.id, b.id]))
    assert [(d.path, d.body, d.deleted) for d in docs] == [
        ("~/notes/c", "gamma", False),
        ("~/notes/a", "alpha", False),
        ("~/notes/b", "beta", True),
    ]
    assert list(repo.read_by_ids([])) == []
    with pytest.raises(UserError):
        list(repo.read_by_ids(["1"]))
