"""An identifier the store keeps as it is (a session id, an agent id, an actor id, an agent
type) is refused when it holds a secret, as a path is: a key pasted as a session id would
otherwise reach the sessions table, every history record, every version's provenance and
the run records, where no mask reaches it. The error shows the identifier with its secret as
a marker."""

from __future__ import annotations

import uuid

import pytest
from click.testing import CliRunner

from doctree.cli import cli
from doctree.errors import UserError
from doctree.sessions.repository import SessionsRepository
from doctree.store.documents import DocumentsRepository
from doctree.store.model import Actor, Provenance

GITHUB = "ghp_" + "abcdefghijklmnopqrstuvwxyz0123456789"
AWS = "AKIA" + "IOSFODNN7EXAMPLE"
SLACK = "xoxb-" + "123456789012-123456789012-abcdefghijklmnopqrstuvwx"

#: Ids engines and people use, none of which may be refused.
ORDINARY = [
    str(uuid.UUID(int=0x3E6A7F31D609433F8EC2D536671F1AE4)),
    "s-20261127-143012-ab12cd34",
    "msg_01XFDUDYJgAACzvnptvVoYEL",
    "chatcmpl-9xYzAbCdEfGhIjKlMnOpQrStUv",
    "01HXZ8K3M4N5P6Q7R8S9T0VWXY",
    "a3f1c9e27b4d8f6051e2a9c7d3b8f4e1a6c2d9e0",
    "thread_abc123DEF456ghi789",
]


def _bytes(db) -> bytes:
    return b"".join(p.read_bytes() for p in db.parent.glob(db.name + "*"))


@pytest.mark.parametrize("key", [GITHUB, f"conv-{AWS}", SLACK])
def test_a_session_id_holding_a_secret_is_refused_and_nothing_is_stored(tmp_path, key):
    db = tmp_path / "s.db"
    with SessionsRepository(db) as s:
        with pytest.raises(UserError) as e:
            s.create("main", key)
        assert "session id" in str(e.value) and "[secret: " in str(e.value)
        assert key not in str(e.value)
        with pytest.raises(UserError):
            s.append_history(key, "user", "hello")
    assert key.encode() not in _bytes(db)


def test_an_agent_id_or_an_agent_type_holding_a_secret_is_refused(tmp_path):
    with SessionsRepository(tmp_path / "s.db") as s:
        with pytest.raises(UserError, match=r"agent id 'gen-\[secret: aws-access-key\]'"):
            s.create(f"gen-{AWS}", "s1")
        with pytest.raises(UserError, match="agent type") as e:
            s.create(("xoxb-" + "1234567890-abcdefghij-klmnopqrst", "main"), "s2")
        assert "1234567890-abcdefghij" not in str(e.value)


def test_a_versions_actor_or_session_holding_a_secret_is_refused(tmp_path):
    db = tmp_path / "d.db"
    repo = DocumentsRepository(db)
    try:
        with pytest.raises(UserError, match="actor id"):
            repo.write("main", "~/a", "x", provenance=Provenance(Actor("user", GITHUB)))
        with pytest.raises(UserError, match="session id"):
            repo.write("main", "~/a", "x", provenance=Provenance(session=f"run-{AWS}"))
        with pytest.raises(UserError, match="not found"):
            repo.read("main", "~/a")
    finally:
        repo.close()
    assert GITHUB.encode() not in _bytes(db) and AWS.encode() not in _bytes(db)


def test_ordinary_ids_are_kept_as_they_are(tmp_path):
    db = tmp_path / "s.db"
    with SessionsRepository(db) as s:
        for sid in ORDINARY:
            assert s.create("main", sid).id == sid
    repo = DocumentsRepository(db)
    try:
        for sid in ORDINARY:
            doc = repo.write(
                "main", "~/a", sid, provenance=Provenance(Actor("user", sid), session=sid)
            )
            assert doc.body == sid
    finally:
        repo.close()


def test_replay_of_a_transcript_whose_session_id_holds_a_key_stores_nothing(tmp_path):
    transcript = tmp_path / "01.md"
    transcript.write_text(
        f"# Transcript of session {GITHUB}\n\n- agent: gen\n- session: {GITHUB}\n"
        "- started: 2031-03-30T19:00:00Z\n- ended: 2031-03-30T19:20:00Z\n\n"
        "## user · 2031-03-30T19:00:00Z\n\nMy sister Tilly moved to Leeds last week.\n\n"
        "## assistant · 2031-03-30T19:01:00Z\n\nNoted.\n",
        encoding="utf-8",
    )
    db = tmp_path / "r.db"
    result = CliRunner().invoke(cli, ["--db", str(db), "replay", str(transcript)])
    assert result.exit_code == 2, result.output
    assert "session id '[secret: github-token]'" in result.output
    assert GITHUB not in result.output
    assert GITHUB.encode() not in _bytes(db)
