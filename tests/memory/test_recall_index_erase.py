"""Every erasure takes its words out of the SQLite recall index, which keeps no copy of the
record (migration 016): each entry it changes is taken out with the values it was made from,
derived from the rows. After `forget`, `redact`, `redact --whole-version` and `withhold`, a
search for the erased words finds nothing, no term of them is left, FTS5's integrity check
passes, and taking out every entry the rows give leaves the index empty."""

from __future__ import annotations

import pytest

from doctree.memory.erase import forget, redact, redact_version, withhold
from doctree.memory.recall import catch_up_recall, hand_over
from doctree.sessions.repository import SessionsRepository
from doctree.store.documents import Actor, DocumentsRepository, Provenance
from doctree.store.recall import RecallIndex
from tests.recall_index import assert_index_made_from_rows, terms_of

OWNER = "main"
P = Provenance(Actor("agent", OWNER))
LONG = " ".join(
    f"Stage {i} of the climb took us past the quarry and over the ridge." for i in range(12)
)
SAID = {
    "s-climb": [
        "We start the climb from Glenmore at dawn.",
        LONG,
        "Bring the orange rope and two flasks of cocoa.",
        "The hut warden is called Morag; she keeps the keys.",
        "Our cousin Fergus lives in Aviemore and will drive us.",
        "The forecast says snow above the ridge by noon.",
        "Keep the spare batteries in the lid pocket.",
    ],
    "s-bakery": [
        "The sourdough starter is named Clementine.",
        "Feed Clementine rye flour every Tuesday.",
        "Morag from the hut asked for a loaf too.",
    ],
}


@pytest.fixture
def store(tmp_path):
    """Two sessions handed over in several parts, as a worker does: a first part stored
    by a catch-up, the rest noted and stored by the next one, and a part handed over again
    (a retry) with records stored already."""
    db = tmp_path / "doctree.db"
    repo = DocumentsRepository(db)
    sessions = SessionsRepository(repo.conn)
    index = RecallIndex(repo.conn)
    for sid, texts in SAID.items():
        sessions.ensure(OWNER, sid, created_at="2026-02-01T08:00:00Z")
        for i, text in enumerate(texts):
            sessions.append_history(
                sid, "user" if i % 2 else "assistant", text, time=f"2026-02-01T08:0{i}:00Z"
            )
        ids = [r.id for r in sessions.history(sid)]
        index.note_handed_over(OWNER, sid, 0, ids[2])
        catch_up_recall(repo.conn)
        # a retry from the second record: two stored already, two new
        hand_over(repo.conn, OWNER, sid, sessions.history(sid)[1:5])
        if len(ids) > 5:
            index.note_handed_over(OWNER, sid, ids[4], ids[-1])
            catch_up_recall(repo.conn)
    repo.conn.commit()
    assert index.count(OWNER) == sum(len(t) for t in SAID.values()) + 1  # LONG: 2 pieces
    assert_index_made_from_rows(str(db))
    yield repo, db
    repo.close()


def gone(repo: DocumentsRepository, db, *words: str) -> None:
    index = RecallIndex(repo.conn)
    for word in words:
        assert index.search(OWNER, word) == [], word
        assert word.lower() not in terms_of(repo.conn), word
    assert_index_made_from_rows(str(db))


def test_forget_leaves_no_term_of_the_word_in_the_recall_index(store):
    repo, db = store
    report = forget(repo, OWNER, "Morag", vacuum_file=False)
    assert report.recall_passages == 2 and report.recall_contexts >= 2
    gone(repo, db, "Morag")
    assert RecallIndex(repo.conn).search(OWNER, "Clementine")  # the rest is found


def test_forget_of_words_inside_a_long_record_reaches_its_neighbours(store):
    repo, db = store
    # the first words of the long record are its neighbours' surroundings
    forget(repo, OWNER, "Stage 0 of the climb", vacuum_file=False)
    index = RecallIndex(repo.conn)
    assert not [h for h in index.search(OWNER, '"stage 0"') if "Stage 0" in h.text]
    assert_index_made_from_rows(str(db))
    assert index.search(OWNER, "quarry")


def test_redact_leaves_no_term_of_the_span_in_the_recall_index(store):
    repo, db = store
    repo.write(OWNER, "~/memory/climb", "# Climb\n\nCousin Fergus drives.\n", provenance=P)
    redact(repo, OWNER, "~/memory/climb", "Fergus", vacuum_file=False)
    gone(repo, db, "Fergus")
    assert RecallIndex(repo.conn).search(OWNER, "Aviemore")


def test_redact_of_a_whole_version_leaves_no_term_of_its_passages(store):
    repo, db = store
    repo.write(OWNER, "~/memory/bake", "# Bake\n\n" + SAID["s-bakery"][1] + "\n", provenance=P)
    repo.write(OWNER, "~/memory/bake", "# Bake\n\nRye.\n", provenance=P)
    _, erased = redact_version(repo, OWNER, "~/memory/bake", 1, vacuum_file=False)
    assert erased == 1
    gone(repo, db, "Tuesday")
    assert RecallIndex(repo.conn).search(OWNER, "sourdough")


def test_redact_of_a_whole_version_of_a_long_record_takes_every_piece_out(store):
    repo, db = store
    repo.write(OWNER, "~/memory/route", "# Route\n\n" + LONG + "\n", provenance=P)
    repo.write(OWNER, "~/memory/route", "# Route\n\nUp.\n", provenance=P)
    _, erased = redact_version(repo, OWNER, "~/memory/route", 1, vacuum_file=False)
    assert erased == 2
    gone(repo, db, "quarry")
    # the records either side of it: no longer indexed with its words, nor with each other's
    around = {e[2]: e[3] for e in RecallIndex(repo.conn).entries(OWNER)}
    climb = SAID["s-climb"]
    assert around[climb[0]] == around[climb[2]] == ""  # (the 3rd ended a hand-over)
    assert around[climb[3]] == f"{climb[2]} {climb[4]}"
    assert RecallIndex(repo.conn).search(OWNER, "orange rope")


def test_records_handed_over_after_an_erasure_of_the_last_one_are_indexed_from_the_rows(store):
    repo, db = store
    last = SAID["s-bakery"][-1]
    repo.write(OWNER, "~/memory/loaf", "# Loaf\n\n" + last + "\n", provenance=P)
    repo.write(OWNER, "~/memory/loaf", "# Loaf\n\nBread.\n", provenance=P)
    assert redact_version(repo, OWNER, "~/memory/loaf", 1, vacuum_file=False)[1] == 1
    sessions = SessionsRepository(repo.conn)
    for i, text in enumerate(["Clementine doubled overnight.", "Then bake at dawn."]):
        sessions.append_history("s-bakery", "user", text, time=f"2026-02-02T08:0{i}:00Z")
    hand_over(repo.conn, OWNER, "s-bakery", sessions.history("s-bakery")[-2:])
    repo.conn.commit()
    assert_index_made_from_rows(str(db))
    hits = RecallIndex(repo.conn).search(OWNER, "overnight")
    assert [h.text for h in hits] == ["Clementine doubled overnight.", "Then bake at dawn."]


def test_withhold_leaves_no_term_of_the_sentence_taken_back(store):
    repo, db = store
    withhold(repo, OWNER, ["s-climb"], ["Bring the orange rope and two flasks of cocoa."])
    repo.conn.commit()
    gone(repo, db, "cocoa", "flasks")
    assert RecallIndex(repo.conn).search(OWNER, "batteries")
