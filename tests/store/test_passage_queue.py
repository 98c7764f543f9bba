"""The passage index's queue (`passage_pending`) filled by the statements that change a
document, without a trigger on `documents` (migration 015): every kind of change still
queues the document, a batch of writes leaves its full-text entries to the COMMIT, and a
database written before the migration keeps every document and every queued one."""

from __future__ import annotations

from doctree.memory.passages import refresh_passages
from doctree.store import db as dbmod
from doctree.store.documents import DocumentsRepository
from doctree.store.migrations import migrations
from doctree.store.passages import PassageIndex

MIGRATION = "015_passage_pending_without_triggers"


def queued(repo: DocumentsRepository) -> set[int]:
    return {r[0] for r in repo.conn.execute("SELECT document_id FROM passage_pending")}


def emptied(repo: DocumentsRepository) -> None:
    repo.conn.execute("DELETE FROM passage_pending")


def test_every_kind_of_change_puts_the_document_in_the_passage_queue(tmp_path):
    repo = DocumentsRepository(tmp_path / "m.db")
    created = repo.write("main", "~/notes/tea", "Green tea at four.")
    parent = repo.read("main", "~/notes").id
    assert queued(repo) == {created.id, parent}  # the parent made for it too

    emptied(repo)
    repo.write("main", "~/notes/tea", "Black tea at five.")
    assert queued(repo) == {created.id}

    emptied(repo)
    repo.write("main", "~/notes/tea", "Black tea at five.", title="Afternoon tea")
    assert queued(repo) == {created.id}  # a new title, the same body

    emptied(repo)
    repo.write("main", "~/notes/tea", "Black tea at five.", title="Afternoon tea")
    assert queued(repo) == set()  # nothing changed, no version, nothing to cut again

    emptied(repo)
    moved = repo.move("main", "~/notes", "~/drinks")
    assert queued(repo) == {d.id for d in moved} == {created.id, parent}

    emptied(repo)
    repo.delete("main", "~/drinks/tea")
    assert queued(repo) == {created.id}

    emptied(repo)
    repo.restore("main", "~/drinks/tea", 1)
    assert queued(repo) == {created.id}

    emptied(repo)
    repo.scrub_paths(created.id, lambda p: p.replace("tea", "brew"), lambda t: t)
    assert queued(repo) == {created.id}
    repo.close()


def test_a_change_rolled_back_leaves_nothing_queued(tmp_path):
    repo = DocumentsRepository(tmp_path / "m.db")
    repo.write("main", "~/a", "one")
    emptied(repo)
    try:
        with repo.transaction():
            repo.write("main", "~/a", "two")
            repo.write("main", "~/b", "new")
            raise RuntimeError("the caller gives up")
    except RuntimeError:
        pass
    assert queued(repo) == set()
    repo.close()


def test_a_batch_of_creates_writes_the_full_text_index_at_commit_not_at_each_write(tmp_path):
    """No statement of a create gives FTS5 cause to write its pending entries out, so a
    transaction of many adds them to the index in one go (before migration 015 the queue's
    trigger made each write flush the one before as a segment of its own)."""
    repo = DocumentsRepository(tmp_path / "m.db")
    repo.write("main", "~/seed", "the index has a segment already")
    leaves = "SELECT COUNT(*) FROM documents_fts_data"
    bodies = {
        f"~/notes/n{i:02d}": f"Note {i} on kettles, teapots and leaf number {i * 7}."
        for i in range(40)
    }
    with repo.transaction():
        first, *rest = bodies.items()
        repo.write("main", *first)
        before = repo.conn.execute(leaves).fetchone()[0]
        for path, body in rest:
            repo.write("main", path, body)
        assert repo.conn.execute(leaves).fetchone()[0] == before  # all still pending
    hits = repo.search("main", "teapots", limit=100)
    assert sorted(h.path for h in hits) == sorted(bodies)
    assert {h.path for h in repo.search("main", "leaf 273")} >= {"~/notes/n39"}
    repo.close()


def test_a_database_written_before_the_migration_keeps_its_documents_and_queue(
    tmp_path, monkeypatch
):
    # A database as an older release wrote it, lexical then; the vectors kept at write by a
    # default that ranks by meaning need tables of later migrations.
    monkeypatch.setenv("DOCTREE_RETRIEVAL", "lexical")
    target = tmp_path / "old.db"
    conn = dbmod.connect(target, migrate=False)
    dbmod.apply_migrations(conn, available=[m for m in migrations() if m[0] < 14])
    triggers = "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'documents'"
    assert {r[0] for r in conn.execute(triggers)} == {
        "passage_pending_on_insert",
        "passage_pending_on_update",
    }
    old = DocumentsRepository(conn)
    for i in range(12):
        old.write("main", f"~/people/p{i}", f"# Person {i}\n\nLikes [[~/people/p{(i + 1) % 12}]].")
    old.write("main", "~/people/p3", "# Person 3\n\nMoved to Lisbon.")
    old.move("main", "~/people/p4", "~/archive/p4")
    old.delete("main", "~/people/p5")
    refresh_passages(old, "main")  # the index holds all of it; then one more change waits
    old.write("main", "~/people/p6", "# Person 6\n\nPlays the cello.")
    waiting = queued(old)
    documents = {d.path: (d.id, d.version, d.body) for d in old.documents("main")}
    versions = old.conn.execute("SELECT COUNT(*) FROM document_versions").fetchone()[0]
    conn.close()

    repo = DocumentsRepository(target)  # opens it, and applies migration 015
    applied = [r[0] for r in repo.conn.execute("SELECT name FROM doctree_migrations")]
    assert MIGRATION in applied
    assert repo.conn.execute(triggers).fetchall() == []
    assert {d.path: (d.id, d.version, d.body) for d in repo.documents("main")} == documents
    assert repo.conn.execute("SELECT COUNT(*) FROM document_versions").fetchone()[0] == versions
    assert queued(repo) == waiting == {documents["~/people/p6"][0]}
    repo.write("main", "~/people/p7", "# Person 7\n\nKeeps bees.")
    refresh_passages(repo, "main")
    assert queued(repo) == set()
    found = {h.path for h in PassageIndex(repo).search("main", "cello OR bees")}
    assert {"~/people/p6", "~/people/p7"} <= found
    repo.close()
