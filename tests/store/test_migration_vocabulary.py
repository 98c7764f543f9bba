"""The vocabulary migration (SQLite 014, PostgreSQL 002) upgrades a database made at the
schema before it in place: every session, run and passage survives under its new name
(`owner`, `definition`, `passages`, 'context-compaction'), search over passages still
finds what it found, and no object of the schema keeps an older name."""

from __future__ import annotations

from typing import Any

import pytest

from doctree.memory.retrieval import cut_document, rank_documents
from doctree.sessions.repository import SessionsRepository
from doctree.store import db as dbmod
from doctree.store.documents import Actor, DocumentsRepository
from doctree.store.passages import PassageIndex
from doctree.store.runs import Runs

ACTOR = Actor("agent", "main")
OLD_NAMES = ("chunk", "agent_id", "source_agent", "idx_sessions_agent", "idx_runs_source")
BODY = "# Tea\n\nAlice prefers green tea in the morning.\n\nBob drinks coffee at noon.\n"


def fill_old_schema(conn: Any, *, postgres: bool) -> dict[str, Any]:
    """Sessions, history, runs, documents and their passages, written at the schema before
    the vocabulary migration, with its names."""
    repo = DocumentsRepository(conn)
    doc = repo.write("main", "~/memory/tea", BODY, actor=ACTOR)
    other = repo.write("main", "~/memory/later", "# Later\n\nNot indexed yet.\n", actor=ACTOR)
    conn.execute("BEGIN")
    for sid, kind, owner, reason in (
        ("s1", "agent", "main", "compaction"),
        ("s2", "agent", "main", "reset"),
        ("s3", "agent", "ops", None),
        ("m1", "memory-agent", "main", None),
    ):
        conn.execute(
            "INSERT INTO sessions (id, agent_type, agent_id, created_at, ended_at, ended_reason)"
            " VALUES (?, ?, ?, '2026-11-20T09:00:00Z', ?, ?)",
            (sid, kind, owner, reason and "2026-11-20T10:00:00Z", reason),
        )
    conn.execute(
        "INSERT INTO session_history (session_id, kind, content, time)"
        " VALUES ('s1', 'user', '\"hello\"', '2026-11-20T09:01:00Z')"
    )
    for definition, owner in (("memory-agent", "main"), ("compaction-agent", "ops")):
        conn.execute(
            "INSERT INTO runs (agent, source_agent, session_id, backend, model, status,"
            " started_at) VALUES (?, ?, 's1', 'offline', 'offline', 'completed',"
            " '2026-11-20T09:02:00Z')",
            (definition, owner),
        )
    rows = cut_document(doc.path, doc.title, BODY)
    conn.execute(
        "INSERT INTO chunk_sources (document_id, owner, version) VALUES (?, 'main', ?)",
        (doc.id, doc.version),
    )
    conn.execute("DELETE FROM chunk_pending WHERE document_id = ?", (doc.id,))
    ids = []
    for r in rows:
        (passage_id,) = conn.execute(
            "INSERT INTO chunks (document_id, owner, path, seq, speaker, day, heading, text,"
            " words, timed) VALUES (?, 'main', ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (doc.id, doc.path, r.seq, r.speaker, r.day, r.heading, r.text, r.words, 0),
        ).fetchone()
        ids.append(passage_id)
        if postgres:
            conn.execute(
                "UPDATE chunks SET search_vector = setweight(to_tsvector('doctree_english', ?),"
                " 'A') WHERE id = ?",
                (r.text, passage_id),
            )
        else:
            conn.execute(
                "INSERT INTO chunks_fts (rowid, owner, text, context, speaker, dates)"
                " VALUES (?, 'main', ?, ?, ?, ?)",
                (passage_id, r.text, r.context, r.speaker or "", r.dates),
            )
    conn.execute("COMMIT")
    pending = {r[0] for r in conn.execute("SELECT document_id FROM chunk_pending")}
    assert other.id in pending and doc.id not in pending
    return {"doc": doc.id, "pending": pending, "passages": ids, "texts": [r.text for r in rows]}


def check_upgraded(location: Any, made: dict[str, Any]) -> None:
    with DocumentsRepository(location) as repo:
        sessions = SessionsRepository(repo.conn)
        got = {
            s.session.id: (s.session.agent.type, s.session.agent.owner, s.session.ended_reason)
            for s in sessions.list_sessions(limit=None)
        }
        assert got == {
            "s1": ("agent", "main", "context-compaction"),
            "s2": ("agent", "main", "reset"),
            "s3": ("agent", "ops", None),
            "m1": ("memory-agent", "main", None),
        }
        assert [h.content for h in sessions.history("s1")] == ["hello"]
        runs = Runs(repo.conn)
        assert [(r.definition, r.owner) for r in runs.list(limit=None)] == [
            ("compaction-agent", "ops"),
            ("memory-agent", "main"),
        ]
        assert [r.owner for r in runs.list(owner="main")] == ["main"]
        index = PassageIndex(repo)
        kept = repo.conn.execute(
            "SELECT id, text FROM passages WHERE document_id = ? ORDER BY id", (made["doc"],)
        ).fetchall()
        assert [(r[0], r[1]) for r in kept] == list(
            zip(made["passages"], made["texts"], strict=True)
        )
        (coffee, *_) = index.search("main", "coffee")
        assert "Bob drinks coffee" in coffee.text and coffee.id in made["passages"]
        assert any("green tea" in h.text for h in index.search("main", "green"))
        # The pending queue survived (the document written later), and its triggers work.
        pending = "SELECT document_id FROM passage_pending"
        assert {r[0] for r in repo.conn.execute(pending)} == made["pending"]
        new = repo.write("main", "~/memory/new", "# New\n\nA kettle.\n", actor=ACTOR)
        assert {r[0] for r in repo.conn.execute(pending)} == made["pending"] | {new.id}
        # Ids of passages keep growing from where they were.
        assert [d.path for d in rank_documents(repo, "main", "kettle")] == ["~/memory/new"]
        newest = repo.conn.execute("SELECT MAX(id) FROM passages").fetchone()[0]
        assert newest > max(made["passages"])


def test_sqlite_database_of_the_previous_schema_is_upgraded_in_place(tmp_path):
    path = tmp_path / "old.db"
    conn = dbmod.connect(path, migrate=False)
    dbmod.apply_migrations(conn, upto=13)
    made = fill_old_schema(conn, postgres=False)
    conn.close()
    check_upgraded(path, made)
    conn = dbmod.connect(path)
    names = conn.execute("SELECT type, name, COALESCE(sql, '') FROM sqlite_master").fetchall()
    leftovers = [(t, n) for t, n, sql in names for old in OLD_NAMES if old in n or old in sql]
    assert leftovers == []
    assert "014_vocabulary" in dbmod.applied_migrations(conn)
    conn.close()


def test_postgresql_database_of_the_previous_schema_is_upgraded_in_place(
    postgres_url_without_tables,
):
    from doctree.store.backends import postgres

    url = postgres_url_without_tables
    conn = postgres.connect(url, migrate=False)
    postgres.apply_migrations(conn, available=postgres.migrations()[:1])
    made = fill_old_schema(conn, postgres=True)
    conn.close()
    check_upgraded(url, made)
    conn = postgres.connect(url)
    names = [
        r[0]
        for r in conn.execute(
            "SELECT relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE n.nspname = current_schema()"
            " UNION ALL SELECT conname FROM pg_constraint"
            " UNION ALL SELECT tgname FROM pg_trigger"
            " UNION ALL SELECT proname FROM pg_proc WHERE proname LIKE 'doctree%'"
            " UNION ALL SELECT column_name FROM information_schema.columns"
            " WHERE table_schema = current_schema()"
        )
    ]
    assert [n for n in names for old in OLD_NAMES if old in n] == []
    assert {"passages", "passage_sources", "passage_pending"} <= set(names)
    conn.close()


@pytest.mark.parametrize("reason", ["compaction", "context-compaction"])
def test_a_session_ended_by_context_compaction_records_the_new_word(db_path, reason):
    sessions = SessionsRepository(db_path)
    sessions.create("main", "s1")
    sessions.append_history("s1", "user", "x")
    sessions.end("s1", reason)  # 'compaction' is the older name, still accepted
    assert sessions.require("s1").ended_reason == "context-compaction"
    sessions.close()
