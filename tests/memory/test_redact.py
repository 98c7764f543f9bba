"""Forget a text everywhere, redact a span of one document, redact a whole version: exactly
what was matched goes, every other byte stays (`doctree.memory.erase`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from doctree.cli import cli
from doctree.errors import NotFoundError, UserError
from doctree.memory.erase import (
    FORGOTTEN,
    REDACTED,
    forget,
    redact,
    redact_version,
    redact_version_by_id,
)
from doctree.memory.recall import hand_over
from doctree.sessions.repository import SessionsRepository
from doctree.sessions.sessions import AgentDescriptor
from doctree.store.documents import Actor
from doctree.store.recall import RecallIndex

OWNER = "a"
ADMIN = Actor("user", "admin")
ADDRESS = "12 Mill Lane"
ALICE = "# Alice\nLikes tea.\nMet Kohl at the fair.\nWorks at Acme.\n"


def bodies(repo, path):
    return [v.body for v in repo.history(OWNER, path)]


@pytest.fixture
def address_history(repo):
    """alice: v1 clean, v2 mentions the address, v3 still does; bob: never."""
    repo.write(OWNER, "~/memory/alice", "Alice likes tea.")
    repo.write(OWNER, "~/memory/alice", f"Alice likes tea. Lives at {ADDRESS}.")
    repo.write(OWNER, "~/memory/alice", f"Alice likes coffee. Lives at {ADDRESS}.")
    repo.write(OWNER, "~/memory/bob", "Bob likes water.")
    return repo


# -- forget: exactly the match -----------------------------------------------------------


def test_forget_of_a_word_keeps_every_other_line_of_the_page_and_its_history(repo):
    repo.write(OWNER, "~/memory/people/alice", ALICE)

    report = forget(repo, OWNER, "Kohl", actor=ADMIN)

    expected = ALICE.replace("Kohl", FORGOTTEN)
    assert bodies(repo, "~/memory/people/alice") == [expected, expected]
    assert repo.read(OWNER, "~/memory/people/alice").body == expected
    assert [(h.versions, h.new_version) for h in report.hits] == [([1], 2)]
    v1, v2 = repo.history(OWNER, "~/memory/people/alice")
    assert (v1.operation, v1.erasure, v2.operation, v2.actor) == (
        "created",
        "rewritten",
        "redacted",
        "user:admin",
    )


def test_forget_rewrites_old_versions_in_place_and_keeps_every_other_byte(address_history):
    forget(address_history, OWNER, ADDRESS, actor=ADMIN)

    assert bodies(address_history, "~/memory/alice") == [
        "Alice likes tea.",
        f"Alice likes tea. Lives at {FORGOTTEN}.",
        f"Alice likes coffee. Lives at {FORGOTTEN}.",
        f"Alice likes coffee. Lives at {FORGOTTEN}.",
    ]
    assert [v.redacted for v in address_history.history(OWNER, "~/memory/alice")] == [
        False,
        True,
        True,
        False,
    ]
    assert bodies(address_history, "~/memory/bob") == ["Bob likes water."]
    assert address_history.search(OWNER, "Mill") == []


def test_a_rewritten_version_has_the_digest_and_size_of_its_new_body(address_history):
    from doctree.store.model import sha256

    forget(address_history, OWNER, ADDRESS)

    for v in address_history.history(OWNER, "~/memory/alice"):
        assert (v.content_sha256, v.size) == (sha256(v.body), len(v.body.encode()))


def test_forget_of_text_only_in_old_versions_makes_no_new_version(address_history):
    address_history.write(OWNER, "~/memory/alice", "Alice likes coffee.")

    report = forget(address_history, OWNER, ADDRESS)

    assert [(h.versions, h.new_version) for h in report.hits] == [([2, 3], None)]
    assert address_history.read(OWNER, "~/memory/alice").version == 4


def test_forget_keeps_a_long_history_stored_as_deltas_readable(repo):
    lines = [f"line {i}\n" for i in range(40)]
    for n in range(40):
        lines[n] = f"line {n} edited, Kohl was here\n" if n % 7 == 0 else f"line {n} edited\n"
        repo.write(OWNER, "~/memory/long", "".join(lines))
    before = bodies(repo, "~/memory/long")

    forget(repo, OWNER, "Kohl")

    after = bodies(repo, "~/memory/long")
    assert after[:40] == [b.replace("Kohl", FORGOTTEN) for b in before]
    assert not any("Kohl" in b for b in after)


def test_forget_records_who_erased_on_the_new_version(address_history):
    forget(address_history, OWNER, ADDRESS, actor=ADMIN)

    added = address_history.history(OWNER, "~/memory/alice")[3:]
    assert [(v.operation, v.actor) for v in added] == [("redacted", "user:admin")]


def test_forget_dry_run_reports_and_changes_nothing(address_history):
    before = [(v.id, v.body) for v in address_history.log(None, limit=None)]

    report = forget(address_history, OWNER, ADDRESS, dry_run=True)

    assert [(h.versions, h.new_version) for h in report.hits] == [([2, 3], 4)]
    assert [e.line for e in report.examples] == [f"Alice likes coffee. Lives at {ADDRESS}."]
    assert [(v.id, v.body) for v in address_history.log(None, limit=None)] == before


def test_forget_matches_a_regex(address_history):
    report = forget(address_history, OWNER, r"\b\d+ Mill Lane\b", regex=True)

    assert report.rewritten == 2
    assert address_history.read(OWNER, "~/memory/alice").body.endswith(f"Lives at {FORGOTTEN}.")


def test_forget_only_touches_documents_under_the_given_path(address_history):
    address_history.write(OWNER, "~/archive/old", f"old address {ADDRESS}")

    report = forget(address_history, OWNER, ADDRESS, under="~/archive")

    assert [h.path for h in report.hits] == ["~/archive/old"]
    assert ADDRESS in address_history.read(OWNER, "~/memory/alice").body


def test_forget_reaches_deleted_documents_and_keeps_them_deleted(address_history):
    address_history.delete(OWNER, "~/memory/alice")

    report = forget(address_history, OWNER, ADDRESS)

    assert report.hits[0].deleted and report.hits[0].versions == [2, 3, 4]
    assert not any(ADDRESS in (b or "") for b in bodies(address_history, "~/memory/alice"))
    assert "Alice likes coffee." in bodies(address_history, "~/memory/alice")[-1]
    assert not address_history.exists(OWNER, "~/memory/alice")


def test_forget_refuses_an_empty_pattern(repo):
    with pytest.raises(UserError, match="pattern '': must not be empty"):
        forget(repo, OWNER, "")


def test_forget_refuses_a_pattern_of_white_space_only(repo):
    repo.write(OWNER, "~/memory/alice", "Alice likes tea.")
    with pytest.raises(UserError, match="only white space"):
        forget(repo, OWNER, " \n")
    assert repo.read(OWNER, "~/memory/alice").body == "Alice likes tea."


@pytest.mark.parametrize(
    "between", ["\n", "  ", "\u00a0", "\t", "\r\n"], ids=["newline", "two", "nbsp", "tab", "crlf"]
)
def test_forget_of_a_plain_text_finds_it_across_a_line_break_or_other_spacing(repo, between):
    """The words asked for, wrapped onto two lines or spaced otherwise, are the same words:
    each goes, with the spacing between them, and nothing around them."""
    body = f"# Notes\n\nSaw Dr{between}Quennell on Tuesday.\nDr Quennell rang.\nDr Jones too.\n"
    repo.write(OWNER, "~/memory/notes", body)
    sessions = _session(repo, "s-1", f"I saw Dr{between}Quennell today.", "Noted.")

    report = forget(repo, OWNER, "Dr Quennell")

    assert repo.read(OWNER, "~/memory/notes").body == (
        f"# Notes\n\nSaw {FORGOTTEN} on Tuesday.\n{FORGOTTEN} rang.\nDr Jones too.\n"
    )
    assert bodies(repo, "~/memory/notes")[0] == repo.read(OWNER, "~/memory/notes").body
    assert [r.content for r in sessions.history("s-1")] == [f"I saw {FORGOTTEN} today.", "Noted."]
    assert RecallIndex(repo.conn).search(OWNER, "quennell") == []
    assert report.recall_passages == 1


def test_forget_of_a_plain_text_keeps_its_words_apart_and_other_spellings(repo):
    """Only white space may differ: the words joined, hyphenated or in another case stay."""
    body = "DrQuennell\nDr-Quennell\ndr quennell\nDr. Quennell\n"
    repo.write(OWNER, "~/memory/notes", body)

    report = forget(repo, OWNER, "Dr Quennell")

    assert report.hits == []
    assert repo.read(OWNER, "~/memory/notes").body == body


def test_forget_replaces_only_the_matched_part_of_a_title_and_a_path_segment(repo):
    doc = repo.write(OWNER, "~/memory/people/anna-kohl", "Anna.\n", title="Anna Kohl")

    forget(repo, OWNER, "kohl", ignore_case=True)

    now = repo.read_by_id(doc.id)
    assert now.path == f"~/memory/people/anna-forgotten-{doc.id}"
    assert now.title == f"Anna {FORGOTTEN}"
    assert all("ohl" not in v.path + v.title for v in repo.history(OWNER, now.path))


@pytest.mark.parametrize(
    ("forgotten", "slug"),
    [("Kohl", "anna-kohl"), ("Anna Kohl", "anna-kohl"), ("Müller", "hans-muller")],
)
def test_forget_of_a_name_renames_the_page_path_spelling_it_and_the_links_to_it(
    repo, forgotten, slug
):
    doc = repo.write(OWNER, f"~/memory/people/{slug}", f"{forgotten} plays chess.\n")
    index = repo.write(
        OWNER,
        "~/memory/people",
        f"# People\n\n- [[~/memory/people/{slug}]]\n- [[~/memory/people/bo]]\n",
    )
    repo.write(OWNER, "~/memory/people/bo", "Bo.\n")

    forget(repo, OWNER, forgotten)

    now = repo.read_by_id(doc.id)
    assert now.path != f"~/memory/people/{slug}" and f"forgotten-{doc.id}" in now.path
    body = repo.read_by_id(index.id).body
    assert f"[[{now.path}]]" in body  # the link still leads to the page
    assert "- [[~/memory/people/bo]]" in body  # and the other link is as it was
    assert all(slug.split("-")[-1] not in v.path for v in repo.history(OWNER, now.path))
    assert all(slug not in (v.body or "") for v in repo.history(OWNER, "~/memory/people"))
    links = [r for r in repo.links(OWNER, "~/memory/people") if r.kind == "body"]
    assert {r.target_path: r.state for r in links}[now.path] == "resolved"


def test_forget_of_a_word_leaves_a_path_where_it_is_only_part_of_a_longer_word(repo):
    doc = repo.write(OWNER, "~/memory/projects/annual-review", "Due in May.\n")
    ann = repo.write(OWNER, "~/memory/people/ann", "Ann is my aunt.\n")

    forget(repo, OWNER, "Ann")

    assert repo.read_by_id(doc.id).path == "~/memory/projects/annual-review"
    assert repo.read_by_id(ann.id).path == f"~/memory/people/forgotten-{ann.id}"


@pytest.mark.parametrize("forgotten", ["C++", "AT&T"])
def test_forget_of_a_text_with_symbols_leaves_the_path_its_slug_would_name(repo, forgotten):
    slug = {"C++": "c", "AT&T": "at-t"}[forgotten]
    doc = repo.write(OWNER, f"~/memory/topics/{slug}", "Another thing entirely.\n")
    repo.write(OWNER, "~/memory/notes", f"I use {forgotten} at work.\n")

    forget(repo, OWNER, forgotten)

    assert repo.read_by_id(doc.id).path == f"~/memory/topics/{slug}"
    assert forgotten not in repo.read(OWNER, "~/memory/notes").body


def test_forget_reaches_a_deleted_document_that_shares_its_path_with_a_live_one(repo):
    old = repo.write(OWNER, "~/memory/alice", f"Lives at {ADDRESS}.")
    repo.delete(OWNER, "~/memory/alice")
    live = repo.write(OWNER, "~/memory/alice", f"Alice, at {ADDRESS}.")

    report = forget(repo, OWNER, ADDRESS, actor=ADMIN)

    assert sorted((h.document_id, h.versions) for h in report.hits) == [
        (old.id, [1, 2]),
        (live.id, [1]),
    ]
    assert [repo.version(old.id, n).body for n in (1, 2)] == [f"Lives at {FORGOTTEN}."] * 2
    assert repo.read(OWNER, "~/memory/alice").body == f"Alice, at {FORGOTTEN}."


# -- the sessions: history and the recall record -----------------------------------------


def _session(repo, sid: str, *texts: str):
    sessions = SessionsRepository(repo.conn)
    sessions.ensure(AgentDescriptor("agent", OWNER), sid)
    for i, text in enumerate(texts):
        sessions.append_history(sid, "user" if i % 2 == 0 else "assistant", text)
    records = sessions.history(sid)
    hand_over(repo.conn, OWNER, sid, records)
    return sessions


def test_forget_replaces_only_the_match_in_session_history_and_the_recall_record(repo):
    sessions = _session(repo, "s-1", "I met Kohl at the fair today.", "Nice, who else was there?")

    report = forget(repo, OWNER, "Kohl")

    said = [r.content for r in sessions.history("s-1")]
    assert said == [f"I met {FORGOTTEN} at the fair today.", "Nice, who else was there?"]
    texts = [p.text for p in RecallIndex(repo.conn).passages(OWNER)]
    assert texts == said
    assert (report.history_records, report.recall_passages) == (1, 1)


def test_forget_leaves_no_erased_text_among_the_texts_the_process_remembers(repo):
    """The recall record remembers texts found to hold no secret (`recall.masked`); an erase
    drops them, so the erased words stay in no copy in the process either."""
    from doctree.store import recall as store_recall

    _session(repo, "s-1", "I met Kohl at the fair today.", "Nice, who else was there?")
    assert any("Kohl" in t for t in store_recall._CLEAN)  # noqa: SLF001 - the remembered texts

    forget(repo, OWNER, "Kohl")

    assert not any("Kohl" in t for t in store_recall._CLEAN)  # noqa: SLF001


def test_forget_takes_the_text_out_of_the_neighbour_context_the_recall_index_keeps(repo):
    _session(repo, "s-1", "I met Kohl at the fair today.", "Nice, who else was there?")
    index = RecallIndex(repo.conn)
    assert [h.record for h in index.search(OWNER, "kohl")] != []

    report = forget(repo, OWNER, "Kohl")

    assert index.search(OWNER, "kohl") == []  # neither the text nor the context has it
    assert report.recall_contexts >= 1
    # Everything else stays: "fair" still finds the neighbour through its context.
    assert sorted(h.text for h in index.search(OWNER, "fair")) == [
        f"I met {FORGOTTEN} at the fair today.",
        "Nice, who else was there?",
    ]


def _passage_terms(path: Path) -> set[str]:
    """Every term of the SQLite passage index, its integrity checked."""
    import sqlite3

    conn = sqlite3.connect(path)
    conn.execute("CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, passages_fts, 'row')")
    out = {r[0] for r in conn.execute("SELECT term FROM temp.v")}
    conn.execute("INSERT INTO passages_fts (passages_fts) VALUES ('integrity-check')")
    conn.close()
    return out


def test_forget_takes_a_word_out_of_the_passage_index_surroundings_and_the_file(tmp_path):
    """A word in a passage's text is in its neighbours' surroundings too, and a title's word
    in every passage's surroundings: after forget the index holds neither, nor does any
    byte of the file, and every other word of the page stays findable."""
    from doctree.memory.passages import sync_passages
    from doctree.store.documents import DocumentsRepository
    from doctree.store.passages import PassageIndex

    db = tmp_path / "d.db"
    repo = DocumentsRepository(db)
    body = "- the quokka hops at dawn.\n- zarquon lives by the weir.\n- an otter dives.\n"
    repo.write(OWNER, "~/memory/river", body, title="Wyvernholt river")
    sync_passages(repo, OWNER)
    index = PassageIndex(repo)
    assert len(index.search(OWNER, 'surroundings : "zarquon"')) == 2  # the two neighbours
    assert {"zarquon", "wyvernholt"} <= _passage_terms(db)

    forget(repo, OWNER, "zarquon")
    forget(repo, OWNER, "Wyvernholt")
    sync_passages(repo, OWNER)

    assert index.search(OWNER, '"zarquon" OR "wyvernholt"') == []
    assert sorted(h.text for h in index.search(OWNER, '"quokka" OR "otter" OR "weir"')) == sorted(
        ["- an otter dives.", "- the quokka hops at dawn.", f"- {FORGOTTEN} lives by the weir."]
    )
    repo.close()
    terms = _passage_terms(db)
    assert not {"zarquon", "wyvernholt"} & terms and {"quokka", "otter", "weir", "river"} <= terms
    raw = b"".join(p.read_bytes() for p in tmp_path.glob("d.db*"))
    assert b"zarquon" not in raw.lower() and b"wyvernholt" not in raw.lower()


# -- redact: a span of one document ------------------------------------------------------


def test_redact_of_a_span_replaces_it_in_that_document_only(repo):
    repo.write(OWNER, "~/memory/people/alice", ALICE)
    repo.write(OWNER, "~/memory/people/bob", "Bob met Kohl too.\n")

    report = redact(repo, OWNER, "~/memory/people/alice", "Kohl", actor=ADMIN)

    expected = ALICE.replace("Kohl", REDACTED)
    assert bodies(repo, "~/memory/people/alice") == [expected, expected]
    assert repo.read(OWNER, "~/memory/people/bob").body == "Bob met Kohl too.\n"
    assert [h.path for h in report.hits] == ["~/memory/people/alice"]


def test_redact_of_a_span_reaches_the_recall_record_from_python(repo):
    repo.write(OWNER, "~/memory/people/alice", ALICE)
    _session(repo, "s-1", "I met Kohl at the fair today.", "Noted.")

    redact(repo, OWNER, "~/memory/people/alice", "Kohl")

    index = RecallIndex(repo.conn)
    assert [p.text for p in index.passages(OWNER)][0] == f"I met {REDACTED} at the fair today."
    assert index.search(OWNER, "kohl") == []


# -- redact --whole-version: the explicit choice -----------------------------------------


def test_redact_version_erases_the_whole_content_and_records_who(repo):
    repo.write(OWNER, "~/notes", "secret one\n")
    repo.write(OWNER, "~/notes", "public two\n")

    record, _ = redact_version(repo, OWNER, "~/notes", 1, actor=ADMIN)

    assert (record.operation, record.version, record.actor) == ("redacted", 3, "user:admin")
    assert bodies(repo, "~/notes") == [None, "public two\n", "public two\n"]


def test_a_redacted_version_keeps_no_digest_or_size_that_would_confirm_a_guess(db_path):
    """A short content (a PIN) is guessed in ten thousand tries if its digest or its size
    stays in the history: an erased version has the digest and size of an empty body, and
    the file holds the digest nowhere."""
    from doctree.store.documents import DocumentsRepository
    from doctree.store.model import sha256

    secret = "PIN 8086\n"
    repo = DocumentsRepository(db_path)
    repo.write(OWNER, "~/notes", secret)
    repo.write(OWNER, "~/notes", "no PIN here\n")
    redact_version(repo, OWNER, "~/notes", 1, actor=ADMIN)
    erased = repo.history(OWNER, "~/notes")[0]
    assert (erased.body, erased.content_sha256, erased.size) == (None, sha256(""), 0)
    repo.close()
    history = json.loads(_cli(db_path, "history", "~/notes", "--json").output)
    digests = json.dumps(history)
    assert sha256(secret) not in digests and "8086" not in digests
    assert [v["size"] for v in history if v["version"] == 1] == [0]
    if isinstance(db_path, Path):  # SQLite: the file (and its journal) holds it nowhere
        raw = b"".join(p.read_bytes() for p in db_path.parent.glob(db_path.name + "*"))
        assert bytes.fromhex(sha256(secret)) not in raw and sha256(secret).encode() not in raw


def test_redact_version_by_id_reaches_a_deleted_document_whose_path_was_taken(repo):
    old = repo.write(OWNER, "~/notes", "secret")
    repo.delete(OWNER, "~/notes")
    new = repo.write(OWNER, "~/notes", "public")

    record, _ = redact_version_by_id(repo, old.id, 1, actor=ADMIN)

    assert (record.document_id, record.operation, record.deleted) == (old.id, "redacted", True)
    assert repo.version(old.id, 1).body is None
    assert repo.read(OWNER, "~/notes").body == "public"
    assert [v.redacted for v in repo.history(OWNER, "~/notes")] == [False]
    assert repo.read_by_id(new.id).version == 1


def test_redact_version_by_id_of_an_unknown_document_is_not_found(repo):
    with pytest.raises(NotFoundError, match="no document with id 42"):
        redact_version_by_id(repo, 42, 1)


def test_redact_version_erases_the_recall_passages_it_came_from(repo):
    said = "Bob keeps the spare key under the blue flower pot."
    _session(repo, "s-1", said)
    repo.write(OWNER, "~/memory/people/bob", said + "\n")

    _, erased = redact_version(repo, OWNER, "~/memory/people/bob", 1)

    assert erased == 1
    assert list(RecallIndex(repo.conn).passages(OWNER)) == []


# -- the CLI -----------------------------------------------------------------------------


def _cli(db_path, *args, input=None, env=None):
    return CliRunner().invoke(
        cli, ["--db", str(db_path), "--owner", OWNER, *args], input=input, env=env
    )


def test_cli_forget_from_a_script_without_yes_refuses_and_changes_nothing(db_path):
    _cli(db_path, "write", "~/memory/people/alice", input=ALICE)

    result = _cli(db_path, "forget", "Kohl")

    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and "--yes" in result.output
    assert "--dry-run" in result.output
    assert _cli(db_path, "read", "~/memory/people/alice").output == ALICE


def test_cli_forget_dry_run_previews_the_documents_versions_and_lines(db_path):
    _cli(db_path, "write", "~/memory/people/alice", input=ALICE)

    result = _cli(db_path, "forget", "Kohl", "--dry-run")

    assert result.exit_code == 0
    assert "~/memory/people/alice: versions v1 rewritten; new current version v2" in result.output
    assert "~/memory/people/alice v1: Met »Kohl« at the fair." in result.output
    assert _cli(db_path, "read", "~/memory/people/alice").output == ALICE


def test_cli_forget_with_yes_prints_what_it_touched(db_path):
    _cli(db_path, "write", "~/memory/x", input=f"address {ADDRESS}")

    result = _cli(db_path, "forget", ADDRESS, "--yes")

    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == "forgot ~/memory/x v1; now v2"
    assert _cli(db_path, "read", "~/memory/x").output == f"address {FORGOTTEN}\n"


def test_cli_forget_json_is_the_report(db_path):
    _cli(db_path, "write", "~/memory/x", input=f"address {ADDRESS}")

    data = json.loads(_cli(db_path, "forget", ADDRESS, "--yes", "--json").output)

    assert (data["rewritten_versions"], data["new_versions"], data["dry_run"]) == (1, 1, False)


def test_cli_redact_of_a_span_with_yes(db_path):
    _cli(db_path, "write", "~/memory/people/alice", input=ALICE)

    result = _cli(db_path, "redact", "~/memory/people/alice", "Kohl", "--yes")

    assert result.exit_code == 0, result.output
    assert _cli(db_path, "read", "~/memory/people/alice", "--version", "1").output == (
        ALICE.replace("Kohl", REDACTED)
    )


def test_cli_redact_whole_version_erases_the_version_and_records_who(db_path):
    _cli(db_path, "write", "~/notes", input="secret one\n")
    _cli(db_path, "write", "~/notes", input="public two\n")

    result = _cli(
        db_path, "redact", "~/notes", "--whole-version", "1", "--yes", env={"USER": "eve"}
    )

    assert result.exit_code == 0
    assert result.output == "redacted ~/notes version 1; recorded as version 3 by user:eve\n"
    history = _cli(db_path, "history", "~/notes", "--json")
    assert '"redacted": true' in history.output and "secret" not in history.output


def test_cli_redact_needs_a_span_or_whole_version_and_not_both(db_path):
    _cli(db_path, "write", "~/notes", input="x")

    for args in ([], ["x", "--whole-version", "1"]):
        result = _cli(db_path, "redact", "~/notes", *args, "--yes")
        assert result.exit_code == 2
        assert result.output == (
            "error: redact: give SPAN (the text to erase) or --whole-version N, and not both\n"
        )


def test_cli_redact_of_a_missing_version_is_a_one_line_error(db_path):
    _cli(db_path, "write", "~/notes", input="x")

    result = _cli(db_path, "redact", "~/notes", "--whole-version", "9", "--yes")

    assert result.exit_code == 2
    assert result.output == (
        "error: document '~/notes' has no version 9 (its versions are 1 to 1)\n"
    )


# -- one service -------------------------------------------------------------------------


def test_the_store_offers_no_redaction_that_would_miss_the_sessions():
    from doctree.store.documents import DocumentsRepository

    assert not hasattr(DocumentsRepository, "redact")
    assert not hasattr(DocumentsRepository, "redact_by_id")


def test_every_door_erases_through_the_one_service():
    """Outside the store, only `doctree.memory.erase` calls the store's erasure primitives."""
    import re
    from pathlib import Path

    import doctree

    root = Path(doctree.__file__).parent
    primitive = re.compile(
        r"\.(erase_version|erase_version_by_id|replace_text|scrub_paths|scrub_links)\("
        r"|\bscrub\(|vacuum_file\("
    )
    callers = sorted(
        str(p.relative_to(root))
        for p in root.rglob("*.py")
        if not str(p.relative_to(root)).startswith("store/")
        and primitive.search(p.read_text(encoding="utf-8"))
    )
    assert callers == ["memory/erase.py", "memory/recall.py", "sessions/records.py"]
