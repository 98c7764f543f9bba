"""What the SQLite recall index holds, checked against the rows it is made from.

`recall_fts` keeps no copy of what it indexed (migration 016): an entry is taken out with the
values it was made from, derived again from the rows (`RecallIndex.entries`). The index is
right when taking out every entry so derived leaves it empty and whole: a value that differs
from the one indexed would leave terms behind (or fail FTS5's integrity check)."""

from __future__ import annotations

import sqlite3

from doctree.store.recall import RecallIndex


def terms_of(conn: sqlite3.Connection) -> set[str]:
    """Every term in `recall_fts`, after FTS5's integrity check passed."""
    conn.execute("INSERT INTO recall_fts (recall_fts) VALUES ('integrity-check')")
    conn.execute(
        "CREATE VIRTUAL TABLE IF NOT EXISTS temp.recall_vocab USING fts5vocab(main, recall_fts, 'row')"
    )
    return {t for (t,) in conn.execute("SELECT term FROM temp.recall_vocab")}


def assert_index_made_from_rows(path: str) -> None:
    """The index of the database at `path` holds exactly the entries its rows give: taking
    each out with those values leaves no term (in a transaction rolled back)."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        assert terms_of(conn) or not conn.execute("SELECT 1 FROM recall_passages").fetchone()
        conn.execute("BEGIN")
        entries = RecallIndex(conn).entries()
        conn.executemany(
            "INSERT INTO recall_fts (recall_fts, rowid, owner, text, surroundings, speaker, dates)"
            " VALUES ('delete', ?, ?, ?, ?, ?, ?)",
            entries,
        )
        conn.execute("INSERT INTO recall_fts (recall_fts) VALUES ('optimize')")
        left = terms_of(conn)
        conn.execute("ROLLBACK")
        assert not left, f"terms left after every entry was taken out: {sorted(left)[:20]}"
    finally:
        conn.close()
