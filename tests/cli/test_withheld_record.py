"""What a user asks, within a session, not to be kept ("… don't keep that", "off the record:
…") leaves the session's record too: the session's history, the recall record that
`context --query` quotes from, and the copy of the transcript the memory agent's run was
given. What was said beside it stays everywhere, and the same words said in another
session are not touched."""

from __future__ import annotations

import json
from pathlib import Path

from doctree.memory.recall import texts as recall_texts
from doctree.store.documents import DocumentsRepository
from tests.cli.replaying import doctree, in_turn, write_session


def session(tmp_path: Path, sid: str, day: str, *said: str) -> str:
    return write_session(tmp_path, sid, in_turn(day, said))


def everything_stored(db_path: Path) -> bytes:
    """Every byte of the database file and its write-ahead log."""
    out = db_path.read_bytes()
    wal = db_path.with_name(db_path.name + "-wal")
    return out + (wal.read_bytes() if wal.exists() else b"")


def test_a_statement_taken_back_leaves_the_history_and_the_recall_record(db_path, tmp_path):
    other = session(
        tmp_path, "s-before", "2031-04-01",
        "Kasia told me her sister Mara is pregnant with twins, which she isn't.",
        "Noted.",
    )  # fmt: skip
    taken = session(
        tmp_path, "s-taken", "2031-04-02",
        "I booked the dentist for April 9th. My sister Mara is pregnant with twins. "
        "Don't keep that.",
        "Noted the dentist on April 9th.",
        "Off the record: I've applied for a job at Brightwell Logistics. Nobody at work knows.",
        "Understood.",
    )  # fmt: skip
    doctree(db_path, "replay", other, taken)
    said = doctree(db_path, "transcript", "s-taken")
    assert "dentist for April 9th" in said
    for gone in ("pregnant", "Don't keep that", "Brightwell", "Nobody at work", "Off the record"):
        assert gone not in said, gone
    recalled = json.loads(
        doctree(db_path, "context", "--query", "Mara pregnant Brightwell job", "--words", "500",
                "--json")
    )  # fmt: skip
    quoted = json.dumps(recalled["passages"])
    assert "Brightwell" not in quoted and "Nobody at work" not in quoted
    # the same words said in another session were not taken back there
    assert "which she isn't" in doctree(db_path, "transcript", "s-before")
    dentist = json.dumps(
        json.loads(doctree(db_path, "context", "--query", "dentist", "--words", "500", "--json"))
    )
    assert "April 9th" in dentist
    if str(db_path).startswith("postgresql"):
        return  # the file's bytes are SQLite's to check (PostgreSQL: the same rows, above)
    # nothing of it is left in the file either, once a forget of something else vacuums it
    doctree(db_path, "forget", "--yes", "zzz-nothing-matches-this")
    stored = everything_stored(Path(db_path))
    assert b"Brightwell" not in stored
    assert b"dentist for April 9th" in stored


def test_a_thing_forgotten_in_its_own_session_leaves_that_sessions_record(db_path, tmp_path):
    """ "Forget everything I said about X" in the session that said X: the sentences that say
    it and the request leave the session's history and recall record, as "forget that" does;
    a sentence beside them stays, and so does the same thing said in another session."""
    other = session(
        tmp_path, "s-other", "2031-04-01",
        "Our neighbours are converting their loft in May.",
        "Noted.",
    )  # fmt: skip
    said = session(
        tmp_path, "s-loft", "2031-04-02",
        "We're converting the loft in June with Hadley Builders.",
        "Noted.",
        "The window cleaner comes on Thursdays.",
        "Noted.",
        "Forget everything I said about the loft conversion.",
        "Done.",
    )  # fmt: skip
    doctree(db_path, "replay", other, said)
    record = doctree(db_path, "transcript", "s-loft")
    assert "Hadley" not in record and "Forget everything" not in record
    assert "window cleaner comes on Thursdays" in record
    quoted = json.dumps(
        json.loads(doctree(db_path, "context", "--query", "loft Hadley window cleaner",
                           "--words", "500", "--json"))["passages"]
    )  # fmt: skip
    assert "Hadley" not in quoted and "window cleaner" in quoted
    assert "their loft in May" in doctree(db_path, "transcript", "s-other")


def test_a_model_backed_agent_is_never_given_what_was_taken_back(db_path, tmp_path, monkeypatch):
    """With a model as the memory agent, the sentences taken back leave the session's record
    before the model is asked, and the transcript it is given holds none of them: its pages
    cannot keep what it never saw. What was said beside them reaches it as said."""
    from tests.fakes.messages_api import FakeMessagesServer, Scripted, message, text_block

    srv = FakeMessagesServer(Scripted([message(text_block("Done."))])).start()
    try:
        monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
        taken = session(
            tmp_path, "s-model", "2031-05-02",
            "The boiler service is on May 14th. Between us, I'm thinking of selling the flat. "
            "Back on the record: the engineer is called Idris.",
            "Noted the boiler service and Idris.",
            "Also my neighbour Tamsin owes me £40. Actually, forget that.",
            "Forgotten.",
        )  # fmt: skip
        doctree(db_path, "replay", "--backend", "anthropic", "--base-url", srv.base_url, taken)
        [request] = srv.requests
        given = json.dumps(request.body["messages"])
        assert "boiler service is on May 14th" in given and "Idris" in given
        for gone in ("selling the flat", "Between us", "Tamsin owes", "forget that"):
            assert gone not in given, gone
        said = doctree(db_path, "transcript", "s-model")
        assert "boiler service is on May 14th" in said and "Idris" in said
        for gone in ("selling the flat", "Tamsin owes", "forget that"):
            assert gone not in said, gone
    finally:
        srv.stop()


def test_a_sentence_taken_back_leaves_a_pasted_blocks_spacing_in_its_message(db_path, tmp_path):
    block = "```\nretries:   3\n    backoff:  exponential\n\tlimit:    40\n```"
    taken = session(
        tmp_path, "s-block", "2031-05-06",
        f"Here is the worker config.\n\n{block}\n\nMy uncle Piet failed his driving test. "
        "Don't keep that.",
        "Noted the config.",
    )  # fmt: skip
    doctree(db_path, "replay", taken)
    said = doctree(db_path, "transcript", "s-block")
    assert "driving test" not in said and "Don't keep that" not in said
    # only the join where the sentences were is tidied: the block keeps its spacing
    assert "retries:   3\n    backoff:  exponential\n\tlimit:    40" in said
    assert "Here is the worker config." in said


def test_a_forget_naming_an_earlier_conversation_finds_what_the_assistant_called_it(
    db_path, tmp_path
):
    first = session(
        tmp_path, "s-monday", "2031-06-02",
        "The boiler service is booked with Hartley Heating on Friday 13 June. "
        "Went to look at a three-bed on 22 Quarry Lane, £1,240 a month, we might take it.",
        "Noted the boiler service with Hartley Heating on Friday 13 June, and the house on "
        "22 Quarry Lane (£1,240 a month).",
    )  # fmt: skip
    later = session(
        tmp_path, "s-next", "2031-06-09",
        "Forget what I told you last Monday about the house. We're not moving after all.",
        "Done.",
    )  # fmt: skip
    doctree(db_path, "replay", first, later)
    pages = doctree(db_path, "show", "~/memory")
    said = doctree(db_path, "transcript", "s-monday")
    copy = doctree(db_path, "transcript", "memory-agent-main-run-1")  # the run's own copy
    assert "Hartley Heating" in copy
    answer = json.loads(
        doctree(db_path, "context", "--query", "Quarry Lane house rent", "--words", "500",
                "--json")
    )  # fmt: skip
    recalled = json.dumps([answer["recalled"], answer["text"]])
    for where in (pages, said, copy, recalled):
        assert "Quarry Lane" not in where and "1,240" not in where
    # the rest of that conversation stays, on the pages and in its record
    assert "Hartley Heating" in said
    assert "Noted the boiler service with Hartley Heating on Friday 13 June." in said
    boiler = json.dumps(
        json.loads(doctree(db_path, "context", "--query", "boiler", "--words", "500", "--json"))
    )
    assert "Hartley" in boiler


def test_a_short_sentence_taken_back_leaves_only_the_message_it_was_said_in(db_path, tmp_path):
    taken = session(
        tmp_path, "s-twice", "2031-05-07",
        "My brother Alek has run up debts again. He's moving out. Don't keep that.",
        "He's moving out. I won't keep any of it.",
        "Different thing: the lodger upstairs gave notice. He's moving out. "
        "The landlord is relisting the room.",
        "So the room is being relisted. He's moving out.",
    )  # fmt: skip
    doctree(db_path, "replay", taken)
    said = doctree(db_path, "transcript", "s-twice")
    assert "Alek" not in said and "Don't keep that" not in said
    # the assistant's reply right after it repeated it whole: gone from there too
    assert "## assistant · 2031-05-07T10:01:00Z\n\nI won't keep any of it." in said
    # said again in another message, of someone else: it stays there, as said
    assert "gave notice. He's moving out. The landlord" in said
    assert "So the room is being relisted. He's moving out." in said
    copy = doctree(db_path, "transcript", "memory-agent-main-run-1")  # the run's own copy
    assert "Alek" not in copy and "gave notice. He's moving out. The landlord" in copy
    with DocumentsRepository(db_path) as repo:
        stored = list(recall_texts(repo.conn, "main"))
    assert "Different thing: the lodger upstairs gave notice. He's moving out." in " ".join(stored)
    assert "I won't keep any of it." in stored and not any("Alek" in p for p in stored)


def test_a_forget_that_names_no_thing_after_an_earlier_session_does_not_fail_the_run(
    db_path, tmp_path
):
    """A forget whose words name nothing ("forget the last two things I said") after an
    earlier session: the run completes; what the earlier session said stays."""
    earlier = session(
        tmp_path, "s-first", "2031-05-01", "My cousin Ilse moved to Graz in March.", "Noted."
    )
    later = session(
        tmp_path, "s-second", "2031-05-03", "Forget the last two things I said.", "Done."
    )
    out = json.loads(doctree(db_path, "replay", "--json", earlier, later))
    assert "failed" not in json.dumps(out), out
    assert "Graz" in doctree(db_path, "transcript", "s-first")
