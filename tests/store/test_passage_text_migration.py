"""Migrations 013 and 014 on PostgreSQL: a passage's text, a TEXT column until then, is stored
as `encoding.encode_full` makes it (compressed where that is smaller), and a word two rows at
most hold loses its term-statistics rows. A database written before them keeps every
document, version, reference and passage, and every search finds what it found before,
ranked as before; passages cut after it are stored packed."""

from __future__ import annotations

import pytest

from doctree.memory.recall import catch_up
from doctree.store import db as dbmod
from doctree.store import encoding
from doctree.store.backends import postgres
from doctree.store.documents import DocumentsRepository
from doctree.store.passages import PassageIndex

pytestmark = pytest.mark.postgres

MIGRATION = "013_packed_passage_text"
TABLES = ("documents", "document_versions", "document_references", "passage_sources", "passages")
NOTES = {
    "~/kitchen/bread": "# Bread\n\nThe sourdough starter wants feeding every morning with rye "
    "flour and warm water.\n\nBake at two hundred and thirty degrees; the crust darkens "
    "after forty minutes.",
    "~/garden/roses": "# Roses\n\nPrune the climbing roses in late winter, above an outward "
    "bud.\n\nFeed them with compost in spring.",
    "~/travel/kyoto": "# Kyoto\n\nThe moss garden at Saihō-ji needs a postcard booked weeks "
    "ahead — naïve visitors are turned away.\n\n日本語 signs at the gate.",
    "~/short": "Tea.",
}
QUERIES = ["sourdough", "roses OR compost", "garden", "naïve", "forty minutes", "tea", "日本語"]


def searches(repo: DocumentsRepository) -> dict[str, list[tuple[object, ...]]]:
    index = PassageIndex(repo)
    found: dict[str, list[tuple[object, ...]]] = {}
    for q in QUERIES:
        hits = index.search("main", q)
        found["passages:" + q] = [(h.id, h.path, h.seq, h.text, round(h.score, 9)) for h in hits]
        docs = repo.search("main", q, limit=10)
        found["documents:" + q] = [(d.path, d.version) for d in docs]
    return found


def everything(repo: DocumentsRepository) -> dict[str, object]:
    """Every document with its history and references, and every passage's text."""
    out: dict[str, object] = {}
    for path in NOTES:
        doc = repo.read("main", path)
        out[path] = (doc.id, doc.version, doc.body, doc.content_sha256)
        out[path + "@history"] = [
            (v.version, v.operation, v.body) for v in repo.history("main", path)
        ]
    out["references"] = repo.conn.execute(
        "SELECT source_id, version, kind, target_path, target_id FROM document_references"
        " ORDER BY id"
    ).fetchall()
    index = PassageIndex(repo)
    ids = [r[0] for r in repo.conn.execute("SELECT id FROM passages ORDER BY id").fetchall()]
    out["passages"] = [
        (h.id, h.document_id, h.seq, h.heading, h.text) for h in index.by_ids("main", ids)
    ]
    return out


def test_a_database_written_before_keeps_every_passage_and_search(
    postgres_url, postgres_url_without_tables
):
    source = DocumentsRepository(postgres_url)
    for path, body in NOTES.items():
        source.write("main", path, body)
    source.write("main", "~/garden/roses", NOTES["~/garden/roses"] + "\n\nSee [[~/kitchen/bread]].")
    NOTES["~/garden/roses"] += "\n\nSee [[~/kitchen/bread]]."
    catch_up(source.conn, "main")
    before = everything(source)
    found = searches(source)
    assert sum(len(v) for v in found.values()) > 10  # the queries find something

    old = dbmod.connect(postgres_url_without_tables, migrate=False)
    postgres.apply_migrations(old, available=[m for m in postgres.migrations() if m[0] < 13])
    column = "SELECT data_type FROM information_schema.columns WHERE table_name = 'passages'"
    assert old.execute(column + " AND column_name = 'text'").fetchone()[0] == "text"
    old.execute("BEGIN")
    for table in TABLES:
        rows = source.conn.execute(f"SELECT * FROM {table} ORDER BY 1").fetchall()
        columns = list(rows[0].keys())
        marks = ",".join("?" * len(columns))
        for row in rows:
            values = list(row)
            if table == "passages":  # text, as the store wrote it before
                values[columns.index("text")] = encoding.text_of(row["text"])
            if table == "documents":
                values[columns.index("parent_id")] = None
            old.execute(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", values)
        if table == "documents":
            for row in rows:
                old.execute(
                    "UPDATE documents SET parent_id = ? WHERE id = ?", (row["parent_id"], row["id"])
                )
        if table != "passage_sources":
            old.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT MAX(id) FROM {table}))"
            ).fetchall()
    old.execute("DELETE FROM passage_pending")  # caught up, as the source is
    old.execute("COMMIT")
    rare = (
        "SELECT COUNT(*) FROM (SELECT 1 FROM search_terms GROUP BY owner, source, term"
        " HAVING SUM(df) <= 2) r"
    )
    assert old.execute(rare).fetchone()[0] > 10  # a row for every word, before 014
    old.close()
    source.close()

    repo = DocumentsRepository(postgres_url_without_tables)  # applies migration 013
    applied = [r[0] for r in repo.conn.execute("SELECT name FROM doctree_migrations")]
    assert MIGRATION in applied and "014_rare_terms_counted" in applied
    assert repo.conn.execute(rare).fetchone()[0] == 0
    assert repo.conn.execute(column + " AND column_name = 'text'").fetchone()[0] == "bytea"
    assert everything(repo) == before
    assert searches(repo) == found

    # Cut again after the migration: stored packed, read back the same, found the same.
    long_note = NOTES["~/kitchen/bread"] + "\n\nThe starter smells of apples when it is hungry."
    repo.write("main", "~/kitchen/bread", long_note)
    catch_up(repo.conn, "main")
    stored = repo.conn.execute(
        "SELECT p.text FROM passages p JOIN documents d ON d.id = p.document_id"
        " WHERE d.path = '~/kitchen/bread' ORDER BY p.seq"
    ).fetchall()
    assert stored and all(isinstance(r[0], bytes) for r in stored)
    assert any(r[0][0] == encoding.FULL_DEFLATE for r in stored)  # compressed where smaller
    assert "apples" in " ".join(encoding.text_of(r[0]) for r in stored)
    assert {h.path for h in PassageIndex(repo).search("main", "apples")} == {"~/kitchen/bread"}
    repo.close()
