"""The SQLite passage index keeps terms only (contentless FTS5, migration 002): an entry is
taken out with what it indexed derived again, and no term of text cut away stays in it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from doctree.memory.passages import sync_passages
from doctree.store.db import apply_migrations
from doctree.store.documents import Actor, DocumentsRepository, Provenance
from doctree.store.encoding import encode_full
from doctree.store.migrations import migrations
from doctree.store.passages import PassageIndex, surroundings

P = Provenance(Actor("agent", "main"))


def terms(path: Path) -> dict[str, int]:
    """Every term of the passage index with the number of entries holding it."""
    conn = sqlite3.connect(path)
    conn.execute("CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, passages_fts, 'row')")
    out = {t: n for t, n in conn.execute("SELECT term, doc FROM temp.v")}
    conn.execute("INSERT INTO passages_fts (passages_fts) VALUES ('integrity-check')")
    conn.close()
    return out


def test_the_index_keeps_no_copy_of_a_passage(tmp_path):
    repo = DocumentsRepository(tmp_path / "d.db")
    repo.write("main", "~/memory/zoo", "# Zoo\n\n- quokka hops\n- wombat digs\n", provenance=P)
    sync_passages(repo, "main")
    tables = {r[0] for r in repo.conn.execute("SELECT name FROM sqlite_master")}
    assert "passages_fts" in tables and "passages_fts_content" not in tables
    assert [h.text for h in PassageIndex(repo).search("main", 'text : "quokka"')] == [
        "- quokka hops"
    ]
    repo.close()


def test_a_rewritten_document_leaves_no_term_of_its_old_passages_or_title(tmp_path):
    db = tmp_path / "d.db"
    repo = DocumentsRepository(db)
    body = "# Quokkas\n\n- quokka hops\n- wombat digs\n- dingo howls\n"
    repo.write("main", "~/memory/zoo", body, provenance=P)
    sync_passages(repo, "main")
    before = terms(db)
    # a word in its own passage and in its neighbours' surroundings; the title in all three
    assert (before["dingo"], before["wombat"], before["quokka"]) == (2, 3, 3)

    repo.write("main", "~/memory/zoo", "# Birds\n\n- heron waits\n- egret wades\n", provenance=P)
    assert sync_passages(repo, "main") == 1
    after = terms(db)
    assert not {"quokka", "wombat", "dingo", "hop", "dig", "howl"} & set(after)
    assert after["heron"] == 2 and after["bird"] == 2
    assert [h.text for h in PassageIndex(repo).search("main", 'text : "egret"')] == [
        "- egret wades"
    ]

    repo.delete("main", "~/memory/zoo", provenance=P)
    sync_passages(repo, "main")
    assert not {"heron", "egret", "bird"} & set(terms(db))
    repo.close()


def _old_database(path: Path) -> None:
    """A database of the schema before 002, holding passages as its code stored them: the
    index with a copy of each passage's text, surroundings and dates."""
    conn = sqlite3.connect(path, isolation_level=None)
    apply_migrations(conn, available=[m for m in migrations() if m[0] < 2])
    docs = {
        1: ("~/memory/zoo", "Zoo", ["- quokka hops d", "- wombat digs"], "d20230508"),
        2: ("~/memory/sea", "Sea", ["- otter floats", "- seal dives"], ""),  # pending
    }
    for doc_id, (path_, title, texts, dates) in docs.items():
        conn.execute(
            "INSERT INTO documents (id, owner, path, title, version, content_sha256, size,"
            " created_at, updated_at, body_data) VALUES (?, 'main', ?, ?, 1, '', 0, 't', 't', ?)",
            (doc_id, path_, title, encode_full("\n".join(texts))),
        )
        conn.execute(
            "INSERT INTO passage_sources (document_id, owner, version) VALUES (?, 'main', 1)",
            (doc_id,),
        )
        around = surroundings(title, [(t, "") for t in texts])
        for seq, (text, s) in enumerate(zip(texts, around, strict=True)):
            cur = conn.execute(
                "INSERT INTO passages (document_id, owner, path, seq, heading, text, words)"
                " VALUES (?, 'main', ?, ?, '', ?, 3)",
                (doc_id, path_, seq, text),
            )
            conn.execute(
                "INSERT INTO passages_fts (rowid, owner, text, surroundings, speaker, dates)"
                " VALUES (?, 'main', ?, ?, '', ?)",
                (cur.lastrowid, text, s, dates),
            )
    conn.execute("DELETE FROM passage_pending WHERE document_id = 1")
    conn.close()


def test_migration_002_keeps_the_index_of_current_passages_and_drops_the_pending(tmp_path):
    db = tmp_path / "old.db"
    _old_database(db)
    repo = DocumentsRepository(db)  # applies 002
    index = PassageIndex(repo)
    assert [h.text for h in index.search("main", 'text : "quokka"')] == ["- quokka hops d"]
    assert [h.text for h in index.search("main", 'dates : "d20230508"')] == [
        "- quokka hops d",
        "- wombat digs",
    ]
    # the pending document's passages are gone, to be cut again at the next catch-up
    assert index.search("main", '"otter"') == []
    sources = repo.conn.execute("SELECT document_id, title FROM passage_sources").fetchall()
    assert [tuple(r) for r in sources] == [(1, "Zoo")]
    dates = repo.conn.execute("SELECT DISTINCT dates FROM passages").fetchall()
    assert [tuple(r) for r in dates] == [("d20230508",)]
    assert "otter" not in terms(db)

    # an entry made before the migration is taken out whole
    with repo.transaction():
        index.drop([1])
    assert not {"quokka", "wombat", "zoo", "d20230508"} & set(terms(db))
    repo.close()


def test_a_passage_text_is_stored_packed_and_read_back_whole(tmp_path):
    """On SQLite a passage's text is stored as `encode_full` makes it (compressed when that
    is smaller): the text of a page is then in the file once as text at most, and every
    read gives it back whole."""
    repo = DocumentsRepository(tmp_path / "d.db")
    item = "- the quokka hops " + "round and round the yard again " * 8
    repo.write("main", "~/memory/zoo", f"# Zoo\n\n{item}\n- a wombat digs\n", provenance=P)
    sync_passages(repo, "main")
    stored = dict(repo.conn.execute("SELECT seq, text FROM passages").fetchall())
    assert stored[0] == encode_full(item.strip()) and len(stored[0]) < len(item) // 2
    index = PassageIndex(repo)
    [hit] = index.search("main", 'text : "quokka"')
    assert hit.text == item.strip()
    assert [h.text for h in index.around(hit.document_id, 0, 0, 1)] == [
        item.strip(),
        "- a wombat digs",
    ]
    assert [h.text for h in index.by_ids("main", [hit.id])] == [item.strip()]
    # Taking the entry out derives what it indexed from the packed text: nothing is left.
    repo.write("main", "~/memory/zoo", "# Zoo\n\n- an egret waits\n", provenance=P)
    sync_passages(repo, "main")
    repo.close()
    assert "quokka" not in terms(tmp_path / "d.db") and "wombat" not in terms(tmp_path / "d.db")
