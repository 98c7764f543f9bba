"""Through `doctree replay` and `doctree context --query --json`: a thought typed over short
messages and a labelled value are what memory answers with; a sentence of short messages
taken back leaves each of its messages in the session's record, and the messages beside it
stay; a secret typed over two messages is nowhere in memory."""

from __future__ import annotations

import json
from pathlib import Path

from doctree.store.documents import DocumentsRepository
from tests.cli.replaying import doctree, write_session


def test_short_messages_and_a_labelled_value_reach_the_pages_and_a_taken_back_one_leaves(
    db_path, tmp_path
):
    path = session(
        tmp_path, "s-frag",
        "so", "the physio", "at Kelvin House", "says my shoulder", "needs four more sessions",
        "A: Noted.",
        "Guesthouse: Tŷ Gwyn",
        "A: Noted.",
        "my neighbour", "Orla", "is selling", "her Volvo", "A: ok",
        "actually don't save that",
        "A: Sure.",
        "my pin is", "4471",
        "A: Noted.",
    )  # fmt: skip
    doctree(db_path, "replay", "--backend", "offline", path)
    with DocumentsRepository(db_path) as repo:
        pages = "\n".join(d.body for d in repo.documents("main", "~/memory"))
    answer = json.loads(
        doctree(db_path, "context", "--query", "physio Kelvin House shoulder guesthouse Orla",
                "--words", "800", "--json")
    )  # fmt: skip
    text = answer["text"]
    assert any("Kelvin House" in ln and "physio" in ln for ln in text.splitlines()), text
    assert "Guesthouse: Tŷ Gwyn" in text
    said = doctree(db_path, "transcript", "s-frag")
    recalled = json.dumps([answer["recalled"], text])
    for word in ("Orla", "Volvo", "my neighbour", "don't save that"):
        assert word not in said and word not in pages and word not in recalled, word
    # every other message stays in the record as typed, each at its own time
    for kept in ("the physio", "at Kelvin House", "needs four more sessions", "Tŷ Gwyn"):
        assert kept in said
    # the record masks the value the message before leads into; the pages never hold it
    assert "4471" not in pages and "4471" not in said and "4471" not in recalled
    assert "[secret: pin]" in said


def dated(tmp_path: Path, sid: str, day: str, *said: str) -> str:
    """A session of `day`, messages nine seconds apart; "A: …" is the assistant's."""
    messages = [
        {
            "kind": "assistant" if text.startswith("A: ") else "user",
            "time": f"{day}T10:{i // 6:02d}:{i % 6 * 9:02d}Z",
            "content": text.removeprefix("A: "),
        }
        for i, text in enumerate(said)
    ]
    return write_session(tmp_path, sid, messages)


def session(tmp_path: Path, sid: str, *said: str) -> str:
    """A session of 2031-08-04 (see `dated`)."""
    return dated(tmp_path, sid, "2031-08-04", *said)


def test_a_later_forget_of_a_thought_typed_over_short_messages_leaves_each_of_them(
    db_path, tmp_path
):
    first = dated(
        tmp_path, "s-mon", "2031-06-02",
        "so", "my flatmate", "Quentin", "is quitting", "Harrowgate Bank", "A: Noted.",
        "The chimney sweep comes on 9 June.", "A: Noted.",
    )  # fmt: skip
    later = dated(
        tmp_path,
        "s-tue",
        "2031-06-03",
        "Scrap what I told you yesterday about Quentin.",
        "A: Done.",
    )
    doctree(db_path, "replay", "--backend", "offline", first, later)
    said = doctree(db_path, "transcript", "s-mon")
    answer = json.loads(
        doctree(db_path, "context", "--query", "Quentin Harrowgate Bank flatmate chimney sweep",
                "--words", "800", "--json")
    )  # fmt: skip
    recalled = json.dumps([answer["recalled"], answer["text"]])
    with DocumentsRepository(db_path) as repo:
        pages = "\n".join(d.body for d in repo.documents("main", "~/memory"))
    for word in ("Quentin", "Harrowgate", "my flatmate", "is quitting"):
        assert word not in said, (word, said)  # each message of it, at its own time
    for where in (recalled, pages):  # (the request itself names him)
        for word in ("Harrowgate", "my flatmate", "is quitting"):
            assert word not in where, (word, where)
    assert "chimney sweep" in said and "chimney sweep" in recalled
