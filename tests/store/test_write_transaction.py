"""`write_transaction` nested: each level inside an open transaction is a savepoint, all of
one name, undone alone when it fails and kept when it ends."""

from __future__ import annotations

import pytest

from doctree.store.backends import write_transaction
from doctree.store.documents import DocumentsRepository


def names(conn) -> list[str]:
    return [r[0] for r in conn.execute("SELECT name FROM leases ORDER BY name").fetchall()]


def take(conn, name: str) -> None:
    conn.execute(
        "INSERT INTO leases (name, holder, acquired_at, expires_at) VALUES (?, 'h', 0, 1)",
        (name,),
    )


def test_a_failed_inner_level_is_undone_alone_and_the_rest_committed(db_path):
    repo = DocumentsRepository(db_path)
    conn = repo.conn
    try:
        with write_transaction(conn):
            take(conn, "a")
            with write_transaction(conn):
                take(conn, "b")
                with pytest.raises(ValueError), write_transaction(conn):
                    take(conn, "c")
                    raise ValueError("the innermost level fails")
                take(conn, "d")
            with pytest.raises(ValueError), write_transaction(conn):
                take(conn, "e")
                with write_transaction(conn):  # ended, then undone with the level around it
                    take(conn, "f")
                raise ValueError("a middle level fails after its inner one ended")
            take(conn, "g")
        assert not conn.in_transaction
        assert names(conn) == ["a", "b", "d", "g"]
    finally:
        repo.close()


def test_nested_document_transactions_reuse_savepoint_names_and_undo_alone(tmp_path):
    """The store's own nested transactions: a failed level undoes only its writes, and the
    savepoints are named by depth, so a long run of them does not fill the connection's
    cache of prepared statements with one-off texts."""
    repo = DocumentsRepository(tmp_path / "m.db")
    said: list[str] = []
    repo.conn.set_trace_callback(said.append)
    try:
        with repo.transaction():
            for i in range(40):
                with repo.transaction():
                    repo.write("o", f"~/memory/kept-{i}", f"kept {i}")
                    if i % 2:
                        with pytest.raises(ValueError), repo.transaction():
                            repo.write("o", f"~/memory/undone-{i}", "undone")
                            raise ValueError("this level fails")
        assert all(repo.exists("o", f"~/memory/kept-{i}") for i in range(40))
        assert not any(repo.exists("o", f"~/memory/undone-{i}") for i in range(40))
        savepoints = {s for s in said if s.startswith("SAVEPOINT")}
        assert savepoints == {"SAVEPOINT doctree_sp1", "SAVEPOINT doctree_sp2"}
    finally:
        repo.close()
