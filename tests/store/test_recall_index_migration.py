"""A database written before migration 016 (the recall index with a copy of every passage,
its surroundings and dates) keeps every passage, finds the same passages in the same order,
and holds an index that its rows account for, entry by entry."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from click.testing import CliRunner

from doctree.cli import cli
from doctree.memory.recall import blend, passages_of, recall
from doctree.store import db as dbmod
from doctree.store.documents import DocumentsRepository
from doctree.store.migrations import migrations
from doctree.store.recall import RecallIndex
from tests.recall_index import assert_index_made_from_rows, terms_of

OWNER = "main"
MIGRATION = "016_recall_index_contentless"
LONG = " ".join(
    f"On day {i} we walked along the coast to the lighthouse and back again." for i in range(14)
)


@dataclass(frozen=True)
class Rec:
    kind: str
    time: str
    content: str


def old_clip(text: str) -> str:
    return " ".join(text.split()[:40])


def store_as_before(conn: sqlite3.Connection, session_id: str, batch: list[Rec]) -> None:
    """Store one hand-over of `batch` as the code before migration 016 stored it: the rows,
    and an FTS5 entry with a copy of the text, the surroundings (the first 40 words of the
    records next to it in the hand-over) and the dates."""
    rows = passages_of(batch)
    texts = [r.content for r in batch]
    index = {f"{r.time}#{i}": i for i, r in enumerate(batch)}
    for row in rows:
        i = index[row.record]
        before = old_clip(texts[i - 1]) if i > 0 else ""
        after = old_clip(texts[i + 1]) if i + 1 < len(texts) else ""
        around = f"{before} {after}" if before and after else before or after
        cur = conn.execute(
            "INSERT INTO recall_passages (owner, session_id, record, piece, speaker, time, day,"
            " text, words) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (OWNER, session_id, row.record, row.piece, row.speaker, row.time, row.day,
             row.text, row.words),
        )  # fmt: skip
        conn.execute(
            "INSERT INTO recall_fts (rowid, owner, text, surroundings, speaker, dates)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (cur.lastrowid, OWNER, row.text, around, row.speaker, row.dates),
        )


def forget_as_before(conn: sqlite3.Connection, word: str, marker: str = "[forgotten]") -> None:
    """An erasure as the code before migration 016 made it: the passages' text and every
    entry's surroundings with the word replaced."""
    for rowid, text, around, speaker, dates in conn.execute(
        "SELECT rowid, text, surroundings, speaker, dates FROM recall_fts"
    ).fetchall():
        if word not in text and word not in around:
            continue
        new = text.replace(word, marker)
        conn.execute("UPDATE recall_passages SET text = ? WHERE id = ?", (new, rowid))
        conn.execute("DELETE FROM recall_fts WHERE rowid = ?", (rowid,))
        conn.execute(
            "INSERT INTO recall_fts (rowid, owner, text, surroundings, speaker, dates)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (rowid, OWNER, new, around.replace(word, marker), speaker, dates),
        )


TRIP = [
    Rec("user", "2026-05-04T09:00:00Z", "We fly to Lisbon on Friday, then take the train north."),
    Rec("assistant", "2026-05-04T09:00:05Z", "Noted: Lisbon on Friday, the train after."),
    Rec("user", "2026-05-04T09:01:00Z", LONG),
    Rec("assistant", "2026-05-04T09:01:09Z", "A long walk. Did the lighthouse keeper wave?"),
]
LATER = [  # the same session's next hand-over: its first record had no record before it
    Rec("user", "2026-05-06T18:00:00Z", "He did, and gave us tea in a tin mug."),
    Rec("assistant", "2026-05-06T18:00:04Z", "Tea at the lighthouse, then."),
    Rec("user", "2026-05-06T18:02:00Z", "Next month we go to Porto for the wine."),
]
GARDEN = [
    Rec("user", "2026-04-20T07:30:00Z", "The tomatoes need staking before the storm."),
    Rec("assistant", "2026-04-20T07:30:03Z", "Stake the tomatoes, and the beans too?"),
    Rec("user", "2026-04-20T07:31:00Z", "The beans are fine; the lighthouse lamp is on our wall."),
]
QUERIES = [
    "lighthouse tea",
    "when do we fly to Lisbon",
    "tomatoes storm",
    "what did we do on day 7 along the coast",
    "Porto wine next month",
    "train north",
]


def old_database(path: Path) -> None:
    conn = dbmod.connect(path, migrate=False)
    dbmod.apply_migrations(conn, available=[m for m in migrations() if m[0] < 16])
    with conn:
        store_as_before(conn, "s-trip", TRIP)
        store_as_before(conn, "s-trip", LATER)
        store_as_before(conn, "s-garden", GARDEN)
        forget_as_before(conn, "Lisbon")
    conn.close()


def passages(conn: sqlite3.Connection) -> list[tuple]:
    return conn.execute(
        "SELECT id, owner, session_id, record, piece, speaker, time, day, text, words"
        " FROM recall_passages ORDER BY id"
    ).fetchall()


def found(repo: DocumentsRepository) -> list:
    """The ranked passages and the blended context of every query."""
    out = []
    for q in QUERIES:
        hits = [
            (h.id, round(h.score, 9))
            for h in RecallIndex(repo.conn).search(OWNER, q.replace(" ", " OR "))
        ]
        said = recall(repo, OWNER, q, budget=120, now=None).text
        ctx, _ = blend(repo, OWNER, q, budget_words=200)
        out.append((q, hits, said, ctx.text))
    return out


def test_a_recall_record_written_before_the_migration_keeps_every_passage_and_its_results(
    tmp_path, monkeypatch
):
    # A database as an older release wrote it, lexical then; the vectors kept at write by a
    # default that ranks by meaning need tables of later migrations.
    monkeypatch.setenv("DOCTREE_RETRIEVAL", "lexical")
    target = tmp_path / "old.db"
    old_database(target)
    conn = dbmod.connect(target, migrate=False)
    rows = passages(conn)
    assert {r[3].endswith("#2") and r[4] for r in rows} == {0, 1}  # a record cut in pieces
    old_terms = terms_of(conn)
    before = found(DocumentsRepository(conn))
    conn.close()
    assert any(hits for _, hits, _, _ in before)

    repo = DocumentsRepository(target)  # opens it, and applies migration 016
    applied = [r[0] for r in repo.conn.execute("SELECT name FROM doctree_migrations")]
    assert MIGRATION in applied  # (and those after it)
    assert passages(repo.conn) == rows
    assert found(repo) == before
    assert terms_of(repo.conn) == old_terms
    assert [tuple(r) for r in repo.conn.execute("SELECT * FROM recall_fts")] == [
        (None,) * 5 for _ in rows
    ]  # no copy of anything
    repo.close()
    assert_index_made_from_rows(str(target))
    out = CliRunner().invoke(
        cli, ["--db", str(target), "context", "--query", QUERIES[0], "--words", "200", "--json"]
    )
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["text"] == before[0][3]


def test_an_entry_an_old_erasure_left_unlike_its_rows_is_made_again_from_them(tmp_path):
    """An old erasure replaced words in the surroundings as a string: where a marker took
    the place of several words inside a record's first 40, the record's clip now reaches
    further than the entry's surroundings. The migration makes such an entry again from the
    rows, so that taking it out later removes exactly what it holds."""
    target = tmp_path / "old.db"
    conn = dbmod.connect(target, migrate=False)
    dbmod.apply_migrations(conn, available=[m for m in migrations() if m[0] < 16])
    words = " ".join(f"w{i}" for i in range(45))
    with conn:
        store_as_before(
            conn,
            "s1",
            [
                Rec("user", "2026-05-04T09:00:00Z", "the big blue house " + words),
                Rec("assistant", "2026-05-04T09:00:05Z", "Understood, a house by the sea."),
            ],
        )
        forget_as_before(conn, "the big blue house")
    conn.close()
    repo = DocumentsRepository(target)
    entries = RecallIndex(repo.conn).entries()
    # the reply's surroundings: the erased record's first 40 words, as it reads now
    assert entries[1][3] == "[forgotten] " + " ".join(f"w{i}" for i in range(39))
    repo.close()
    assert_index_made_from_rows(str(target))


def test_the_upgraded_file_gives_back_the_pages_of_the_copy(tmp_path):
    """The migration drops the index with its copy of the record: the file shrinks, its
    freed pages given back rather than kept free."""
    target = tmp_path / "old.db"
    conn = dbmod.connect(target, migrate=False)
    dbmod.apply_migrations(conn, available=[m for m in migrations() if m[0] < 16])
    with conn:
        for i in range(40):
            store_as_before(conn, f"s-trip-{i}", TRIP)
            store_as_before(conn, f"s-trip-{i}", LATER)
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.close()
    repo = DocumentsRepository(target)
    after = repo.conn.execute("PRAGMA page_count").fetchone()[0]
    free = repo.conn.execute("PRAGMA freelist_count").fetchone()[0]
    repo.close()
    assert after < pages * 0.9 and free * 32 <= after
    assert_index_made_from_rows(str(target))
