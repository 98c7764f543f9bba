"""The recall record is stored after the hand-over, many sessions in one write: the worker
notes the records it hands over in the transaction that reads them, and a catch-up stores
them (the worker's at the end of a tick, a reader's before it reads). Nothing handed over is
ever missing from what a reader finds, a crash loses nothing, and a reader that may not
write sees the record as of the last catch-up."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import time

import pytest

from doctree.memory.context import load_memories
from doctree.memory.recall import catch_up_recall, recall
from doctree.sessions.repository import SessionsRepository
from doctree.store.documents import DocumentsRepository
from doctree.store.recall import HandedOver, RecallIndex
from doctree.worker.worker import MemoryWorker

OWNER = "main"


def pending_session(sessions: SessionsRepository, sid: str, words: list[str]) -> None:
    """A session of OWNER whose records each say one of `words`, put to sleep (pending)."""
    sessions.ensure(OWNER, sid, created_at="2026-03-01T09:00:00Z")
    for i, word in enumerate(words):
        sessions.append_history(
            sid, "user", f"Record {i}: the word is {word}.", time=f"2026-03-01T09:0{i}:00Z"
        )
    sessions.sleep(sid)


class ReadsWhileHandling:
    """A memory agent that, at each job, reads memory on a connection of its own: what a
    reader (the engine's agent, `doctree context`) finds while the worker's tick goes on."""

    def __init__(self, db_path, query: str):
        self.db_path, self.query = db_path, query
        self.seen: list[tuple[str, set[str], list[str]]] = []

    def handle(self, job) -> None:
        repo = DocumentsRepository(self.db_path)
        try:
            waiting = {n.session_id for n in RecallIndex(repo.conn).pending(OWNER)}
            said = recall(repo, OWNER, self.query, budget=500)
            self.seen.append((job.session_id, waiting, [p.session_id for p in said.passages]))
        finally:
            repo.close()


def test_a_reader_during_the_tick_finds_a_session_handed_over_before_the_catch_up(db_path):
    with SessionsRepository(db_path) as s:
        pending_session(s, "s-first", ["quokka", "wallaby"] * 3)
        pending_session(s, "s-second", ["heron", "egret"] * 3)
    handler = ReadsWhileHandling(db_path, "quokka")
    # no catch-up within the tick: the first session waits in the notes until its end
    w = MemoryWorker(db_path, handler=handler, catch_up_interval=3600)
    try:
        assert sorted(w.tick().processed) == ["s-first", "s-second"]
    finally:
        w.close()
    (first, waiting_1, found_1), (second, waiting_2, found_2) = handler.seen
    assert (first, second) == ("s-first", "s-second")
    # at its hand-over, a session's records are noted, not yet stored ...
    assert waiting_1 == {"s-first"} and "s-first" in found_1  # ... the reader stores them
    assert waiting_2 == {"s-second"} and "s-first" in found_2
    with SessionsRepository(db_path) as s:
        assert not RecallIndex(s.conn).any_pending()  # the tick's end stored the rest


def test_the_tick_ends_with_every_record_handed_over_stored(db_path):
    with SessionsRepository(db_path) as s:
        for i in range(5):
            pending_session(s, f"s{i}", [f"word{i}x{j}" for j in range(6)])
    w = MemoryWorker(db_path, handler=type("Nothing", (), {"handle": lambda self, job: None})())
    try:
        assert len(w.tick().processed) == 5
        index = RecallIndex(w.sessions.conn)
        assert not index.any_pending()
        assert [p.session_id for p in index.passages(OWNER)] == [
            f"s{i}" for i in range(5) for _ in range(6)
        ]
    finally:
        w.close()


class StoredSoFar:
    """A memory agent that lists, at each job, which sessions the record holds already (a
    plain read of the stored passages: no catch-up)."""

    def __init__(self, db_path):
        self.db_path = db_path
        self.stored: list[set[str]] = []

    def handle(self, job) -> None:
        with SessionsRepository(self.db_path) as s:
            self.stored.append({p.session_id for p in RecallIndex(s.conn).passages(OWNER)})


def test_a_long_tick_stores_the_record_as_it_goes(db_path):
    with SessionsRepository(db_path) as s:
        for i in range(3):
            pending_session(s, f"s{i}", [f"word{i}" for _ in range(6)])
    handler = StoredSoFar(db_path)
    w = MemoryWorker(db_path, handler=handler, catch_up_interval=0)
    try:
        assert len(w.tick().processed) == 3
    finally:
        w.close()
    # before each claim, what was handed over before it is stored
    assert handler.stored == [set(), {"s0"}, {"s0", "s1"}]


def test_a_reader_inside_a_read_transaction_sees_the_record_as_of_the_last_catch_up(
    db_path, repo, caplog
):
    with SessionsRepository(db_path) as s:
        pending_session(s, "s-tea", ["darjeeling"] * 6)
        # the state a worker that died before its tick's end leaves: records noted
        last = s.max_id("s-tea")
        RecallIndex(s.conn).note_handed_over(OWNER, "s-tea", 0, last)
    with caplog.at_level(logging.WARNING, logger="doctree.memory.recall"), repo.snapshot():
        assert recall(repo, OWNER, "darjeeling", budget=200).passages == []
    assert "not caught up (inside a read transaction)" in caplog.text
    # outside it, the reader stores them first
    assert [p.session_id for p in recall(repo, OWNER, "darjeeling", budget=200).passages] == [
        "s-tea"
    ] * 6
    assert "darjeeling" in load_memories(repo, OWNER, query="darjeeling")


def test_a_note_widened_after_a_catch_up_read_it_stays_for_the_next(db_path):
    with SessionsRepository(db_path) as s:
        pending_session(s, "s1", ["alpha", "beta", "gamma", "delta", "epsilon", "zeta"])
        ids = [r.id for r in s.history("s1")]
        index = RecallIndex(s.conn)
        index.note_handed_over(OWNER, "s1", 0, ids[2])
        read = index.pending()
        assert read == [HandedOver("s1", OWNER, 0, ids[2])]
        index.note_handed_over(OWNER, "s1", ids[2], ids[5])  # a second hand-over meanwhile
        index.caught_up(read)
        assert index.pending() == [HandedOver("s1", OWNER, 0, ids[5])]
        assert catch_up_recall(s.conn) == 6
        assert catch_up_recall(s.conn) == 0  # stored once
        assert [p.record for p in index.passages(OWNER)] == [f"h{i}" for i in ids]


class ErasesWhileHandling:
    """A memory agent during whose run the session's history loses a word on a connection
    of its own (an erasure of the history alone, before any catch-up): the records the
    worker read with its claim are no longer what is stored."""

    def __init__(self, db_path, word: str):
        self.db_path, self.word = db_path, word

    def handle(self, job) -> None:
        with SessionsRepository(self.db_path) as s:
            if any(self.word in str(m.content) for m in job.parsed.messages):
                assert s.scrub(OWNER, lambda t: t.replace(self.word, "[gone]")) == 3


def test_records_erased_after_the_claim_read_them_are_stored_as_erased(db_path):
    with SessionsRepository(db_path) as s:
        pending_session(s, "s-kept", ["heron"] * 6)
        pending_session(s, "s-erased", ["ocelot", "lynx"] * 3)
    w = MemoryWorker(db_path, handler=ErasesWhileHandling(db_path, "ocelot"))
    try:
        assert sorted(w.tick().processed) == ["s-erased", "s-kept"]
        texts = {p.text for p in RecallIndex(w.sessions.conn).passages(OWNER)}
    finally:
        w.close()
    assert "Record 0: the word is [gone]." in texts
    assert "Record 1: the word is lynx." in texts
    assert not any("ocelot" in t for t in texts)
    assert len(texts) == 12


def test_the_records_of_many_notes_are_read_in_one_go_and_reused_when_unchanged(db_path):
    with SessionsRepository(db_path) as s:
        for i in range(4):
            pending_session(s, f"s{i}", [f"w{i}x{j}" for j in range(6)])
        records, known = s.read_history("s1")
        assert [r.id for r in records] == sorted(known)
        ranges = [("s0", 0, s.max_id("s0")), ("s1", records[1].id, records[4].id), ("s3", 0, 0)]
        read = s.noted_history(ranges, known)
        assert read["s0"] == s.history("s0")
        assert read["s1"] == records[2:5]
        assert all(a is b for a, b in zip(read["s1"], records[2:5], strict=True))  # reused
        assert read["s3"] == []
        s.scrub(OWNER, lambda t: t.replace("w1x3", "[gone]"))
        again = s.noted_history(ranges, known)
        assert [r.content for r in again["s1"]] == [
            "Record 2: the word is w1x2.",
            "Record 3: the word is [gone].",
            "Record 4: the word is w1x4.",
        ]


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_a_worker_killed_mid_tick_loses_no_record_a_reader_can_find(db_path, tmp_path):
    with SessionsRepository(db_path) as s:
        for i, word in enumerate(["marmalade", "porcupine", "saxophone"]):
            pending_session(s, f"s{i}", [word] * 6)
    jobs = tmp_path / "jobs.jsonl"
    proc = subprocess.Popen(
        [sys.executable, "-m", "doctree", "--db", str(db_path), "worker", "--interval", "60",
         "--batch", "3", "--backend", f"jobs:{jobs}:1.5", "--lease-ttl", "5"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        end = time.time() + 60
        while not (jobs.exists() and jobs.read_text().count("\n") >= 1):
            assert time.time() < end and proc.poll() is None, proc.stderr.read()
            time.sleep(0.02)
        # the first session is handed over; the worker now holds the second in its handler
        with SessionsRepository(db_path) as s:
            end = time.time() + 30
            while "s1" not in {n.session_id for n in RecallIndex(s.conn).pending()}:
                assert time.time() < end
                time.sleep(0.02)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.communicate(timeout=30)
    with SessionsRepository(db_path) as s:
        assert RecallIndex(s.conn).pending()  # the kill came before the tick's end
    out = subprocess.run(
        [sys.executable, "-m", "doctree", "--db", str(db_path), "context", "--query",
         "marmalade porcupine"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    # the session handed over and the one in the agent's hands when it died: both found
    assert "the word is marmalade" in out.stdout and "the word is porcupine" in out.stdout
    with SessionsRepository(db_path) as s:
        assert not RecallIndex(s.conn).pending()
