"""The SQLite passage index in two tables (migration 017): `passages_fts` holds a passage's
text, speaker and dates with each entry's length, `passages_surroundings_fts` its
surroundings without lengths. A database written before keeps every document, its index
holds the same terms for the same passages, split, and every entry is taken out whole by
what the rows derive."""

from __future__ import annotations

import math
import sqlite3
from pathlib import Path

import pytest

from doctree.memory.context import load_memories
from doctree.memory.passages import cut_document, sync_passages
from doctree.store import db as dbmod
from doctree.store.documents import Actor, DocumentsRepository, Provenance
from doctree.store.encoding import encode_full
from doctree.store.migrations import migrations
from doctree.store.model import sha256
from doctree.store.passages import PassageIndex, surroundings

OWNER = "main"
P = Provenance(Actor("agent", OWNER))
TABLES = ("passages_fts", "passages_surroundings_fts")
DOCS = {
    1: (
        "~/memory/trips/lisbon",
        "Lisbon trip",
        "# Lisbon\n\n## Flights\n\n- We fly out on Friday 8 May 2026.\n"
        "- The train north leaves at nine.\n\n## Food\n\n- Custard tarts at the bakery.\n",
    ),
    2: (
        "~/memory/garden",
        "Garden",
        "The tomatoes need staking before the storm.\n\nThe beans are fine this year.\n",
    ),
    3: ("~/memory/people/ana", "Ana", "- Ana plays the cello.\n- She moved to Porto in 2024.\n"),
}


def old_database(path: Path) -> None:
    """A database of the schema before 017, its passages stored as the code before stored
    them: one contentless index of text, surroundings, speaker and dates. Document 1's
    texts are packed, the others' plain (rows stored before packing)."""
    conn = dbmod.connect(path, migrate=False)
    dbmod.apply_migrations(conn, available=[m for m in migrations() if m[0] < 17])
    with conn:
        for doc_id, (path_, title, body) in DOCS.items():
            conn.execute(
                "INSERT INTO documents (id, owner, path, title, version, content_sha256, size,"
                " created_at, updated_at, body_data) VALUES (?, ?, ?, ?, 1, ?, ?, 't', 't', ?)",
                (
                    doc_id,
                    OWNER,
                    path_,
                    title,
                    bytes.fromhex(sha256(body)),
                    len(body.encode()),
                    encode_full(body),
                ),  # fmt: skip
            )
            conn.execute(
                "INSERT INTO documents_fts (rowid, path, title, body) VALUES (?, ?, ?, ?)",
                (doc_id, path_, title, body),
            )
            conn.execute(
                "INSERT INTO passage_sources (document_id, owner, version, title)"
                " VALUES (?, ?, 1, ?)",
                (doc_id, OWNER, title),
            )
            rows = cut_document(path_, title, body)
            around = surroundings(title, [(r.text, r.heading) for r in rows])
            for r, s in zip(rows, around, strict=True):
                cur = conn.execute(
                    "INSERT INTO passages (document_id, owner, path, seq, speaker, day, heading,"
                    " text, words, timed, dates) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (doc_id, OWNER, path_, r.seq, r.speaker, r.day, r.heading,
                     encode_full(r.text) if doc_id == 1 else r.text, r.words, int(r.timed),
                     r.dates),
                )  # fmt: skip
                conn.execute(
                    "INSERT INTO passages_fts (rowid, owner, text, surroundings, speaker, dates)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (cur.lastrowid, OWNER, r.text, s, r.speaker or "", r.dates),
                )
        conn.execute("DELETE FROM passage_pending")
    conn.close()


def entries(path: Path, tables: tuple[str, ...]) -> set[tuple[str, int, str]]:
    """(term, passage id, column) of every entry of these FTS5 tables; each one's integrity
    checked."""
    conn = sqlite3.connect(path)
    out = set()
    for table in tables:
        conn.execute(
            f"CREATE VIRTUAL TABLE temp.v_{table} USING fts5vocab(main, {table}, 'instance')"
        )
        out |= set(conn.execute(f"SELECT term, doc, col FROM temp.v_{table}").fetchall())
        conn.execute(f"INSERT INTO {table} ({table}) VALUES ('integrity-check')")
    conn.close()
    return out


def test_migration_017_keeps_every_document_and_splits_the_same_terms(tmp_path):
    db = tmp_path / "old.db"
    old_database(db)
    before = entries(db, ("passages_fts",))
    assert {c for _, _, c in before} == {"owner", "text", "surroundings", "dates"}

    repo = DocumentsRepository(db)  # applies 017
    assert [r[0] for r in repo.conn.execute("SELECT name FROM doctree_migrations")][-1] == (
        "017_passage_index_split"
    )
    assert {p: repo.read(OWNER, p).body for p, _, _ in DOCS.values()} == {
        p: body for p, _, body in DOCS.values()
    }
    repo.close()
    assert entries(db, ("passages_fts", "passages_surroundings_fts")) == before
    assert {c for _, _, c in entries(db, ("passages_fts",))} == {"owner", "text", "dates"}
    assert {c for _, _, c in entries(db, ("passages_surroundings_fts",))} == {"surroundings"}


def test_a_migrated_database_finds_by_text_and_by_surroundings_and_loads_for_a_query(tmp_path):
    db = tmp_path / "old.db"
    old_database(db)
    repo = DocumentsRepository(db)
    index = PassageIndex(repo)
    # "cello" is in one passage's text, and in its neighbour's surroundings: the passage
    # that says it ranks first
    hits = index.search(OWNER, '"cello"')
    assert [h.text for h in hits] == ["- Ana plays the cello.", "- She moved to Porto in 2024."]
    # "tomatoes" only in the first passage, and the surroundings of the one after
    assert [h.text for h in index.search(OWNER, '"tomatoes"')][0] == (
        "The tomatoes need staking before the storm."
    )
    # a heading's word, in no passage's text: found by the surroundings alone
    assert {h.text for h in index.search(OWNER, '"flights"')} >= {
        "- We fly out on Friday 8 May 2026.",
        "- The train north leaves at nine.",
    }
    assert "Custard tarts" in load_memories(repo, OWNER, query="custard tarts bakery", cap=2000)
    repo.close()


def test_entries_made_by_the_migration_are_taken_out_whole(tmp_path):
    """A contentless entry is taken out with the values the rows derive: had the migration
    made any other, terms would stay (or the index would fail its integrity check)."""
    db = tmp_path / "old.db"
    old_database(db)
    repo = DocumentsRepository(db)
    for path_, _, _ in DOCS.values():
        repo.write(OWNER, path_, "- an egret waits.\n", title="Birds", provenance=P)
    assert sync_passages(repo, OWNER) == 3
    repo.close()
    left = {t for t, _, _ in entries(db, TABLES)}
    assert left == {"main", "an", "egret", "wait", "bird"}


def test_a_passage_is_found_by_its_text_and_its_surroundings_scores_summed(tmp_path):
    """A passage whose text and surroundings both match scores above one matched by either
    alone, and each table gives the matches of its own columns only."""
    repo = DocumentsRepository(tmp_path / "d.db")
    repo.write(
        OWNER,
        "~/memory/birds",
        "# Herons\n\n- the heron waits by the pond.\n- a duck swims past.\n- a goose honks.\n",
        provenance=P,
    )
    sync_passages(repo, OWNER)
    index = PassageIndex(repo)
    hits = index.search(OWNER, '"heron"', weights=(1.0, 0.3, 0.5, 1.0))
    # the first passage holds the word in its text and its title: both scores
    assert hits[0].text == "- the heron waits by the pond."
    only_text = index.search(OWNER, '"heron"', weights=(1.0, 0.0, 0.5, 1.0))
    only_around = index.search(OWNER, '"heron"', weights=(0.0, 0.3, 0.0, 0.0))
    by_id = {h.id: h.score for h in only_around}
    assert hits[0].score == pytest.approx(only_text[0].score + by_id[hits[0].id])
    assert {h.text for h in hits[1:]} == {"- a duck swims past.", "- a goose honks."}
    assert all(h.score == pytest.approx(by_id[h.id]) for h in hits[1:])
    assert 0 < hits[1].score < hits[0].score
    # a column filter reaches the table that holds the column
    assert [h.text for h in index.search(OWNER, 'text : "heron"')] == [hits[0].text]
    assert len(index.search(OWNER, 'surroundings : "heron"')) == 3
    repo.close()


@pytest.mark.parametrize(
    "titles",
    [
        ("Pond", "Heron", "Goose"),  # one word each: the surroundings are a word on average
        ("", "", "Heron"),  # no title but one: most entries empty
        ("Still pond water", "Grey heron wading", "Loud goose honking"),  # three words: 0
    ],
)
def test_surroundings_shorter_than_a_few_words_on_average_still_score_below_the_text(
    tmp_path, titles
):
    """One-passage pages: a passage's surroundings are its title alone. FTS5 reads a sizeless
    entry's length as -1, so BM25's normalisation is 0 for entries of three words on
    average and negative below: each is then scored as a match found once."""
    repo = DocumentsRepository(tmp_path / "d.db")
    texts = ("the heron waits by the pond.", "ducks swim past the reeds.", "a goose honks.")
    for i, (title, text) in enumerate(zip(titles, texts, strict=True)):
        repo.write(OWNER, f"~/memory/n{i}", text + "\n", title=title, provenance=P)
    sync_passages(repo, OWNER)
    hits = PassageIndex(repo).search(OWNER, '"heron"', weights=(1.0, 0.3, 0.5, 1.0))
    titled = next(i for i, t in enumerate(titles) if "heron" in t.lower())
    assert [h.text for h in hits] == [texts[0], texts[titled]]
    assert all(math.isfinite(h.score) and h.score > 0 for h in hits)
    assert hits[1].score < hits[0].score
    repo.close()
