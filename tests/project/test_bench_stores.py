"""The recall benchmarks keep their stores when asked (`--stores`), so that settings are
compared on the same stores without building them again, and change the recall record's
settings alone when asked (`--recall-set`)."""

from __future__ import annotations

import gzip
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"


def _data(folder: Path) -> Path:
    """A LongMemEval file of one question over two sessions."""
    folder.mkdir()
    question = {
        "question_id": "q-bikes",
        "question_type": "single-session-user",
        "question": "What colour is my new bike?",
        "question_date": "2023/05/30 (Tue) 10:00",
        "answer": "red",
        "answer_session_ids": ["s1"],
        "haystack_dates": ["2023/05/20 (Sat) 09:00", "2023/05/21 (Sun) 09:00"],
        "haystack_session_ids": ["s1", "s2"],
        "haystack_sessions": [
            [
                {"role": "user", "content": "I bought a new bike, a red one.", "has_answer": True},
                {"role": "assistant", "content": "Congratulations on the new bike!"},
            ],
            [
                {"role": "user", "content": "Can you suggest a recipe for lentil soup?"},
                {"role": "assistant", "content": "Try lentils with cumin and lemon."},
            ],
        ],
    }
    with gzip.open(folder / "longmemeval_s_dev.json.gz", "wt", encoding="utf-8") as f:
        json.dump([question], f)
    return folder


def _run(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DOCTREE_LONGMEMEVAL": str(data), "DOCTREE_RETRIEVAL": "lexical"}
    return subprocess.run(
        [
            sys.executable,
            str(BENCH / "longmemeval.py"),
            "--mode",
            "raw",
            "--retrieval",
            "lexical",
            *args,
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )


def _versions(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT count(*) FROM document_versions").fetchone()[0]


def test_a_kept_store_is_ranked_again_as_it_is_not_built_twice(tmp_path):
    data, stores = _data(tmp_path / "data"), tmp_path / "stores"
    first = _run(data, "--stores", str(stores))
    assert first.returncode == 0, first.stderr
    db = stores / "raw-q-bikes.db"
    assert db.exists()
    versions = _versions(db)
    assert versions >= 2  # a document a session, at least
    second = _run(data, "--stores", str(stores))
    assert second.returncode == 0, second.stderr
    assert _versions(db) == versions
    table = [line for line in first.stdout.splitlines() if line.startswith("doctree")]
    assert table and table == [
        line for line in second.stdout.splitlines() if line.startswith("doctree")
    ]


def test_without_stores_nothing_is_kept(tmp_path):
    data = _data(tmp_path / "data")
    proc = _run(data)
    assert proc.returncode == 0, proc.stderr
    assert not list(tmp_path.glob("**/*.db"))


def test_recall_set_changes_the_record_settings_and_refuses_an_unknown_one(tmp_path):
    data = _data(tmp_path / "data")
    ok = _run(data, "--recall-set", "semantic_weight=0.5")
    assert ok.returncode == 0, ok.stderr
    assert "recall settings changed: {'semantic_weight': 0.5}" in ok.stdout
    bad = _run(data, "--recall-set", "no_such_weight=1")
    assert bad.returncode != 0
    assert "--recall-set 'no_such_weight=1': unknown setting" in bad.stderr


def test_per_question_writes_what_each_mode_found_of_each_question(tmp_path):
    data, out = _data(tmp_path / "data"), tmp_path / "questions.json"
    proc = _run(data, "--per-question", str(out))
    assert proc.returncode == 0, proc.stderr
    rows = json.loads(out.read_text())
    assert [(r["id"], r["type"], r["mode"]) for r in rows] == [
        ("q-bikes", "single-session-user", "raw")
    ]
    assert rows[0]["question"] == "What colour is my new bike?"
    assert rows[0]["found"] == {"lexical": {"500": True, "2000": True}}


def _locomo(folder: Path) -> Path:
    """A LoCoMo file of one conversation, one session of two turns, a question on each."""
    folder.mkdir()
    turns = [
        {"speaker": "Ann", "dia_id": "D1:1", "text": "I adopted a grey cat named Pixel."},
        {"speaker": "Bo", "dia_id": "D1:2", "text": "Lovely! I went hiking in the Alps."},
    ]
    sample = {
        "sample_id": "conv-26",
        "conversation": {
            "speaker_a": "Ann",
            "speaker_b": "Bo",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": turns,
        },
        "qa": [
            {"question": "What is the name of Ann's cat?", "category": 4, "evidence": ["D1:1"]},
            {"question": "Where did Bo go hiking?", "category": 4, "evidence": ["D1:2"]},
        ],
    }
    (folder / "locomo10.json").write_text(json.dumps([sample]))
    return folder


def test_locomo_per_question_lists_each_question_with_the_evidence_found(tmp_path):
    data, out = _locomo(tmp_path / "data"), tmp_path / "questions.json"
    env = {**os.environ, "DOCTREE_LOCOMO": str(data), "DOCTREE_RETRIEVAL": "lexical"}
    proc = subprocess.run(
        [
            sys.executable,
            str(BENCH / "locomo.py"),
            *("--mode", "raw", "--conversations", "conv-26", "--budgets", "500"),
            *("--retrieval", "lexical", "--per-question", str(out)),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    rows = json.loads(out.read_text())
    assert [(r["mode"], r["split"], r["conversation"], r["question"]) for r in rows] == [
        ("raw", "selected", "conv-26", "What is the name of Ann's cat?"),
        ("raw", "selected", "conv-26", "Where did Bo go hiking?"),
    ]
    assert rows[0]["category"] == "single-hop"
    assert rows[0]["evidence"] == ["D1:1"]
    assert rows[0]["recall"] == {"lexical": {"500": 1.0}}
    assert rows[0]["found"] == {"lexical": {"500": ["D1:1"]}}
