"""What a real SQLite store holds in its bytes after the texts have been said: each appended
to a session's record, written on a page, and replayed through the offline memory agent."""

from __future__ import annotations

from pathlib import Path

from doctree.sessions.repository import SessionsRepository
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript


def stored_bytes(tmp_path: Path, texts: list[str], page: str, session: str) -> bytes:
    """The bytes of the database file and its -wal after `texts` were stored every way."""
    db = tmp_path / "s.db"
    with SessionsRepository(db) as s:
        s.create("main", "s-1")
        for text in texts:
            s.append_history("s-1", "user", text)
    repo = DocumentsRepository(db)
    try:
        repo.write("main", page, "\n".join(texts))
        times = [f"2031-04-04T08:{i:02d}:00Z" for i in range(len(texts))]
        messages = [("user", t, text) for t, text in zip(times, texts, strict=True)]
        run(repo, transcript(session, *messages))
    finally:
        repo.close()
    return b"".join(p.read_bytes() for p in db.parent.glob(db.name + "*"))
