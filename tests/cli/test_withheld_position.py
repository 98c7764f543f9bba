"""A forget by position ("forget the last two things I said", "scrap that last one") leaves the
session's record as it leaves the pages: the statements it counts and the request go from
the history, the recall record `context --query` quotes and the run's copy of the
transcript; the statement before them stays everywhere."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from doctree.sessions.transcripts import format_transcript
from tests.cli.replaying import doctree, write_session


def session(tmp_path: Path, sid: str, *said: str) -> str:
    """User messages, each acknowledged, a minute apart."""
    messages = []
    for i, text in enumerate(said):
        messages.append({"kind": "user", "time": f"2031-08-04T10:{2 * i:02d}:00Z", "content": text})
        messages.append(
            {"kind": "assistant", "time": f"2031-08-04T10:{2 * i:02d}:30Z", "content": "Noted."}
        )
    return write_session(tmp_path, sid, messages)


@pytest.mark.parametrize(
    ("request_", "gone", "kept"),
    [
        ("Actually, forget the last two things I said.", ["Thessaly", "Okonkwo"], ["Aldgate"]),
        ("Don't keep the last 2 points, neither is mine to share.", ["Thessaly", "Okonkwo"],
         ["Aldgate"]),
        ("Scrap that last one, it's too early.", ["Okonkwo"], ["Aldgate", "Thessaly"]),
    ],
)  # fmt: skip
def test_a_forget_by_position_leaves_the_record_with_exactly_what_it_counts(
    db_path, tmp_path, request_, gone, kept
):
    path = session(
        tmp_path, "s-pos",
        "The dentist moved to the Aldgate practice from September.",
        "My colleague Rhea is moving to Thessaly next spring.",
        "Dr Okonkwo says my scan results came back clear.",
        request_,
    )  # fmt: skip
    doctree(db_path, "replay", path)
    said = doctree(db_path, "transcript", "s-pos")
    copy = doctree(db_path, "transcript", "memory-agent-main-run-1")
    pages = doctree(db_path, "show", "~/memory")
    answer = json.loads(
        doctree(db_path, "context", "--query", "Aldgate Thessaly Okonkwo scan dentist",
                "--words", "800", "--json")
    )  # fmt: skip
    recalled = json.dumps([answer["recalled"], answer["text"]])
    for where in (said, copy, pages, recalled):
        for word in gone:
            assert word not in where, (word, where)
    assert request_ not in said and request_ not in copy
    for word in kept:
        assert word in said and word in copy and word in recalled, word


def dated(tmp_path: Path, sid: str, day: str, *said: str) -> str:
    """A session of `day`: user and assistant messages in turn, a minute apart."""
    messages = [
        {"kind": "user" if i % 2 == 0 else "assistant", "time": f"{day}T10:0{i}:00Z",
         "content": text}
        for i, text in enumerate(said)
    ]  # fmt: skip
    return write_session(tmp_path, sid, messages)


@pytest.mark.parametrize(
    "request_",
    [
        "Forget everything I told you yesterday.",
        "Please scrap everything from yesterday's chat.",
        "Wipe everything from our last chat.",
    ],
)
def test_a_forget_of_everything_an_earlier_conversation_said_leaves_its_record(
    db_path, tmp_path, request_
):
    before = dated(
        tmp_path, "s-sun", "2031-06-01",
        "The chimney sweep comes on 9 June.", "Noted the chimney sweep on 9 June.",
    )  # fmt: skip
    taken = dated(
        tmp_path, "s-mon", "2031-06-02",
        "My flatmate Quentin is quitting his job at Harrowgate Bank. He hasn't told anyone.",
        "Noted: Quentin is leaving Harrowgate Bank.",
    )  # fmt: skip
    later = dated(tmp_path, "s-tue", "2031-06-03", request_, "Done.")
    doctree(db_path, "replay", before, taken, later)
    said = doctree(db_path, "transcript", "s-mon")
    copy = doctree(db_path, "transcript", "memory-agent-main-run-2")  # the run that read it
    answer = json.loads(
        doctree(db_path, "context", "--query", "Quentin Harrowgate Bank job chimney sweep",
                "--words", "800", "--json")
    )  # fmt: skip
    recalled = json.dumps([answer["recalled"], answer["text"]])
    pages = doctree(db_path, "show", "~/memory")
    for where in (said, copy, recalled, pages):
        assert "Quentin" not in where and "Harrowgate" not in where, where
    # the conversation before it stays, in its record and on the pages
    assert "chimney sweep" in doctree(db_path, "transcript", "s-sun")
    assert "chimney sweep" in recalled


@pytest.mark.parametrize(
    ("sentence", "kept", "gone"),
    [
        ("The boiler service is on 14 May, and we're moving to Lisbon in June — actually "
         "don't save that bit.", "The boiler service is on 14 May", "Lisbon"),
        ("The window cleaner comes Thursdays, my brother owes the bank £8,000 but don't write "
         "that down.", "The window cleaner comes Thursdays", "£8,000"),
    ],
)  # fmt: skip
def test_a_clause_taken_back_inside_a_sentence_leaves_the_record_and_the_rest_stays(
    db_path, tmp_path, sentence, kept, gone
):
    path = dated(tmp_path, "s-clause", "2031-05-05", sentence, "Noted.")
    doctree(db_path, "replay", path)
    said = doctree(db_path, "transcript", "s-clause")
    assert kept in said and gone not in said, said
    assert "don't" not in said
    answer = json.loads(
        doctree(db_path, "context", "--query", f"{kept} {gone}", "--words", "800", "--json")
    )
    recalled = json.dumps([answer["recalled"], answer["text"]])
    assert gone not in recalled and kept.split()[1] in recalled


def test_a_sentence_put_right_and_then_taken_back_leaves_the_record_as_it_was_said(
    db_path, tmp_path
):
    messages = [
        ("user", "The recycling goes out on Tuesdays. My friend Mauve is expecting twins."),
        ("user", "*Maeve"),
        ("user", "Don't keep that."),
        ("assistant", "Understood."),
    ]
    path = tmp_path / "s-typo.md"
    path.write_text(
        format_transcript(
            [{"kind": k, "time": f"2031-08-04T10:0{i}:00Z", "content": c}
             for i, (k, c) in enumerate(messages)],
            owner="main",
            session_id="s-typo",
        )
    )  # fmt: skip
    doctree(db_path, "replay", str(path))
    said = doctree(db_path, "transcript", "s-typo")
    pages = doctree(db_path, "show", "~/memory")
    for where in (said, pages):
        assert "twins" not in where, where
    assert "The recycling goes out on Tuesdays." in said
