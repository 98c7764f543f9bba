"""An erasure reaches the records handed over that the recall record has not stored yet
(noted by the worker, stored by a catch-up): it stores them first, then erases, so no term
of what it erases is left in the record's index, whatever the order of the two."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Any

from doctree.memory.erase import forget, redact_version
from doctree.memory.recall import recall
from doctree.sessions.repository import SessionsRepository
from doctree.store.backends import dialect_of
from doctree.store.documents import Actor, DocumentsRepository, Provenance
from doctree.store.recall import RecallIndex

OWNER = "main"
P = Provenance(Actor("agent", OWNER))
SAID = [
    "We planned the trip to Zanzibar in the spring.",
    "The ferry from Dar leaves at noon on Thursdays.",
    "Pack the snorkel and the reef shoes for the lagoon.",
]


def noted_session(repo: DocumentsRepository, sid: str, texts: list[str]) -> None:
    """A session whose records a worker handed over and noted, and died before storing
    them (the notes are all that is left of the hand-over)."""
    s = SessionsRepository(repo.conn)
    s.ensure(OWNER, sid, created_at="2026-04-01T10:00:00Z")
    for i, text in enumerate(texts):
        s.append_history(sid, "user", text, time=f"2026-04-01T10:0{i}:00Z")
    RecallIndex(repo.conn).note_handed_over(OWNER, sid, 0, s.max_id(sid))


def terms(repo: DocumentsRepository) -> set[str]:
    """Every term the recall record's index holds (SQLite: FTS5's vocabulary, checked for
    integrity; PostgreSQL: the lexemes of every row's tsvector)."""
    if dialect_of(repo.conn).name == "sqlite":
        path = repo.conn.execute("PRAGMA database_list").fetchone()[2]
        conn = sqlite3.connect(path)
        conn.execute("CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, recall_fts, 'row')")
        out = {t for (t,) in conn.execute("SELECT term FROM temp.v")}
        conn.execute("INSERT INTO recall_fts (recall_fts) VALUES ('integrity-check')")
        conn.close()
        return out
    out = set()
    for (vector,) in repo.conn.execute("SELECT search_vector::text FROM recall_passages"):
        out.update(re.findall(r"'([^']+)'", vector or ""))
    return out


def rows(repo: DocumentsRepository) -> list[Any]:
    return repo.conn.execute("SELECT session_id, text FROM recall_passages ORDER BY id").fetchall()


def test_forget_stores_the_noted_records_first_and_leaves_no_term_of_the_word(repo):
    noted_session(repo, "s-trip", SAID)
    assert "zanzibar" not in terms(repo)  # nothing stored yet
    report = forget(repo, OWNER, "Zanzibar", vacuum_file=False)
    assert report.recall_passages == 1 and report.history_records == 1
    assert not RecallIndex(repo.conn).any_pending()
    stored = [r[1] for r in rows(repo)]
    assert stored[0] == "We planned the trip to [forgotten] in the spring."
    assert stored[1:] == SAID[1:]
    left = terms(repo)
    assert "zanzibar" not in left
    assert {"snorkel", "lagoon", "spring"} <= left  # the rest is found
    said = recall(repo, OWNER, "snorkel lagoon", budget=200).passages
    assert SAID[2] in [p.text for p in said]


def test_forget_dry_run_counts_the_noted_records(repo):
    noted_session(repo, "s-trip", SAID)
    report = forget(repo, OWNER, "ferry", dry_run=True)
    assert report.recall_passages == 1 and report.history_records == 1
    assert [r[1] for r in rows(repo)] == SAID  # stored as they are, nothing erased


def test_redact_of_a_whole_version_erases_the_noted_records_its_sentences_came_from(repo):
    noted_session(repo, "s-trip", SAID)
    repo.write(OWNER, "~/memory/trip", "# Trip\n\n" + SAID[1] + "\n", provenance=P)
    repo.write(OWNER, "~/memory/trip", "# Trip\n\nBy ferry.\n", provenance=P)
    _, erased = redact_version(repo, OWNER, "~/memory/trip", 1, vacuum_file=False)
    assert erased == 1
    assert [r[1] for r in rows(repo)] == [SAID[0], SAID[2]]
    assert not RecallIndex(repo.conn).any_pending()
    said = recall(repo, OWNER, "ferry Dar noon", budget=200).passages
    assert SAID[1] not in [p.text for p in said]
    # the records around it were indexed with its words (their surroundings): gone too
    left = terms(repo)
    assert not {"dar", "ferry", "noon", "thursdays", "thursday"} & left
    assert {"zanzibar", "snorkel", "lagoon"} <= left


def test_redact_of_a_whole_version_leaves_the_surroundings_of_other_records_whole(repo):
    long_record = " ".join(f"w{i}" for i in range(60)) + "."  # clipped in its neighbours
    said = [SAID[0], long_record, SAID[1], SAID[2]]
    noted_session(repo, "s-trip", said)
    repo.write(OWNER, "~/memory/trip", "# Trip\n\n" + long_record + "\n", provenance=P)
    repo.write(OWNER, "~/memory/trip", "# Trip\n\nBy ferry.\n", provenance=P)
    _, erased = redact_version(repo, OWNER, "~/memory/trip", 1, vacuum_file=False)
    assert erased == 1
    left = terms(repo)
    assert not {"w0", "w39", "w40", "w59"} & left
    assert {"zanzibar", "dar", "snorkel"} <= left


def test_the_surroundings_lose_a_cut_run_of_erased_words_and_nothing_else():
    from doctree.memory.recall import SURROUNDING_WORDS, without_words_of

    erased = "the ferry from Dar leaves at noon on Thursdays."
    strip = without_words_of([erased])
    # the whole text, between other words
    assert strip("we planned it " + erased + " pack the shoes") == "we planned it pack the shoes"
    # a clip that cut it: the record before had SURROUNDING_WORDS - 3 words
    before = " ".join(["x"] * (SURROUNDING_WORDS - 3))
    cut = before + " the ferry from"
    assert strip(cut + " after words") == before + " after words"
    # the same first words elsewhere, not where a clip ends: kept
    assert strip("take the ferry from here") == "take the ferry from here"


def test_records_erased_between_hand_over_and_catch_up_are_stored_as_erased(repo):
    noted_session(repo, "s-trip", SAID)
    # an erasure of the history alone (the record not read): the catch-up reads it after
    SessionsRepository(repo.conn).scrub(OWNER, lambda t: t.replace("snorkel", "[gone]"))
    said = recall(repo, OWNER, "reef shoes lagoon", budget=200).passages
    assert "Pack the [gone] and the reef shoes for the lagoon." in [p.text for p in said]
    assert "snorkel" not in terms(repo)


def test_the_record_of_a_database_path_is_checked_on_the_file(tmp_path: Path):
    repo = DocumentsRepository(tmp_path / "d.db")
    try:
        noted_session(repo, "s-trip", SAID)
        forget(repo, OWNER, "lagoon", vacuum_file=True)
        data = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.is_file())
        assert b"lagoon" not in data and b"snorkel" in data
    finally:
        repo.close()
