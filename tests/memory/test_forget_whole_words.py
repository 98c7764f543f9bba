"""`forget` of a plain text takes it as whole words: an end of the text that is a letter or a
digit does not match inside a longer word, so forgetting a name leaves the other words that
happen to spell it ("Ann" leaves "Annual"), in the pages, their history, the sessions and the
recall record, and the preview lists the longer words it leaves. `--regex` and `redact` of a
span match where they find the text, as before."""

from __future__ import annotations

import json

from click.testing import CliRunner

from doctree.cli import cli
from doctree.memory.erase import FORGOTTEN, REDACTED, forget, redact
from doctree.memory.recall import hand_over
from doctree.sessions.repository import SessionsRepository
from doctree.sessions.sessions import AgentDescriptor
from doctree.store.documents import DocumentsRepository
from doctree.store.recall import RecallIndex

OWNER = "a"
NOTES = (
    "# Notes\nAnn is coming on Friday.\nThe Annual review is in May.\n"
    "Ann's car is red; Ann-Marie drives.\nThe Mann report, ann_tag.\n"
)


def _session(repo, sid: str, *texts: str):
    sessions = SessionsRepository(repo.conn)
    sessions.ensure(AgentDescriptor("agent", OWNER), sid)
    for i, text in enumerate(texts):
        sessions.append_history(sid, "user" if i % 2 == 0 else "assistant", text)
    hand_over(repo.conn, OWNER, sid, sessions.history(sid))
    return sessions


def test_forget_of_a_name_leaves_the_longer_words_that_spell_it(repo):
    repo.write(OWNER, "~/notes/a", NOTES)
    repo.write(OWNER, "~/notes/a", NOTES + "Ann again.\n")
    sessions = _session(repo, "s-1", "Ann and the Annual dinner.", "Noted: Ann, Annual dinner.")

    forget(repo, OWNER, "Ann")

    want = (
        NOTES.replace("Ann is", f"{FORGOTTEN} is")
        .replace("Ann's car", f"{FORGOTTEN}'s car")
        .replace("Ann-Marie", f"{FORGOTTEN}-Marie")
    )
    v1, v2, v3 = (v.body for v in repo.history(OWNER, "~/notes/a"))
    assert v1 == want and v2 == want + f"{FORGOTTEN} again.\n" and v3 == v2
    assert "The Annual review" in v3 and "The Mann report, ann_tag." in v3
    said = [r.content for r in sessions.history("s-1")]
    assert said == [
        f"{FORGOTTEN} and the Annual dinner.",
        f"Noted: {FORGOTTEN}, Annual dinner.",
    ]
    texts = [p.text for p in RecallIndex(repo.conn).passages(OWNER)]
    assert texts and all("Annual dinner" in t and "Ann " not in t for t in texts)


def test_forget_with_any_case_leaves_longer_words_and_takes_each_case(repo):
    repo.write(OWNER, "~/notes/a", "ann, ANN and Ann. Joanna, annual, Anne.\n")
    forget(repo, OWNER, "ann", ignore_case=True)
    assert repo.read(OWNER, "~/notes/a").body == (
        f"{FORGOTTEN}, {FORGOTTEN} and {FORGOTTEN}. Joanna, annual, Anne.\n"
    )


def test_digits_and_a_text_ending_in_a_symbol_match_as_whole_words_at_their_letter_ends(repo):
    repo.write(
        OWNER, "~/notes/a", "12 Mill Lane; 112 Mill Lane; 12 Mill Lanes.\nC++ and C++11, XC++.\n"
    )
    forget(repo, OWNER, "12 Mill Lane")
    forget(repo, OWNER, "C++")
    assert repo.read(OWNER, "~/notes/a").body == (
        f"{FORGOTTEN}; 112 Mill Lane; 12 Mill Lanes.\n{FORGOTTEN} and {FORGOTTEN}11, XC++.\n"
    )


def test_in_a_script_without_spaces_the_text_matches_inside_a_run_of_letters(repo):
    repo.write(OWNER, "~/notes/a", "田中さんは金曜日に来ます。김철수는 학생이다.\n")
    forget(repo, OWNER, "田中")
    forget(repo, OWNER, "김철수")
    assert repo.read(OWNER, "~/notes/a").body == (
        f"{FORGOTTEN}さんは金曜日に来ます。{FORGOTTEN}는 학생이다.\n"
    )


def test_a_regex_and_a_redacted_span_still_match_inside_words(repo):
    repo.write(OWNER, "~/notes/a", "Annual, Joanna.\n")
    forget(repo, OWNER, "ann", regex=True)
    assert repo.read(OWNER, "~/notes/a").body == f"Annual, Jo{FORGOTTEN}a.\n"
    repo.write(OWNER, "~/notes/b", "card 5678901234\n")
    redact(repo, OWNER, "~/notes/b", "1234")
    assert repo.read(OWNER, "~/notes/b").body == f"card 567890{REDACTED}\n"


def test_the_preview_lists_the_longer_words_it_leaves(tmp_path):
    db = tmp_path / "d.db"
    repo = DocumentsRepository(db)
    repo.write(OWNER, "~/notes/a", NOTES)
    repo.write(OWNER, "~/notes/b", "Annual leave, Annual budget.\n")
    repo.close()
    args = ["--db", str(db), "--owner", OWNER, "forget", "Ann", "--dry-run"]
    out = CliRunner().invoke(cli, args)
    assert out.exit_code == 0, out.output
    assert "left as they are, the text inside longer words: Annual (3)" in out.output
    out = CliRunner().invoke(cli, [*args, "--json"])
    assert json.loads(out.output)["inside_words"] == [{"word": "Annual", "count": 3}]
    out = CliRunner().invoke(cli, [*args[:-1], "--yes", "--json"])
    assert json.loads(out.output)["inside_words"] == []
    repo = DocumentsRepository(db)
    assert repo.read(OWNER, "~/notes/b").body == "Annual leave, Annual budget.\n"
    repo.close()
