"""Loading memory under a cap (seed 000: loadMemories, storeMemory, getTotalMemorySize)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from doctree.cli import cli
from doctree.context import SEPARATOR, load_memories, ranked_documents, total_size
from doctree.errors import UserError

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
    paths = [d.path for d in ranked_documents(repo, OWNER, query="Berlin")]
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
