"""Migrations 010 and 012 on a database written before them: a version's sha256, stored in
every row until then, is derived from its body; every version reads back byte for byte with
the digest it had, an erased version keeps neither the digest nor the size of the content it
had, and an erasure after the migrations still finds the copies of the erased content by
their digest, on both backends."""

from __future__ import annotations

import random

import pytest

from doctree.store import db as dbmod
from doctree.store.backends import is_database_url
from doctree.store.documents import DocumentsRepository
from doctree.store.migrations import migrations
from doctree.store.model import sha256

MIGRATION = "010_version_digest_derived"
TABLES = ("documents", "document_versions", "document_references")


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def old_target(request, tmp_path):
    if request.param == "sqlite":
        return tmp_path / "old.db"
    return request.getfixturevalue("postgres_url_without_tables")


def write_history(repo: DocumentsRepository) -> dict[str, list[str]]:
    """Long one-line-edit chains (past a full copy every 32 versions), non-ASCII text, an
    empty body, a move, a deletion and a restore; each path's bodies by version."""
    rnd = random.Random(7)
    words = ["alpha", "beta", "Zoë", "日本語", "naïve", "→", "tea", "secret-word"]
    bodies: dict[str, list[str]] = {}

    def write(path: str, body: str) -> None:
        repo.write("main", path, body)
        bodies.setdefault(path, []).append(body)

    for i in range(3):
        write(f"~/n{i}", "\n".join(" ".join(rnd.choices(words, k=8)) for _ in range(20)))
    for _ in range(70):
        path = f"~/n{rnd.randrange(2)}"
        lines = bodies[path][-1].split("\n")
        lines[rnd.randrange(len(lines))] = " ".join(rnd.choices(words, k=9))
        write(path, "\n".join(lines))
    write("~/empty", "")
    repo.move("main", "~/n2", "~/moved")
    repo.delete("main", "~/n1")
    repo.restore("main", "~/n1", 2)
    return bodies


def old_database(
    target, source: DocumentsRepository, erased: dict[int, tuple[str, int]]
) -> dict[int, str]:
    """`source`'s rows in a database at the migration before 010, each version's digest
    stored in its row as the store wrote it then (an erased version's, given in `erased` by
    row id with its size, was that of the content it had); returns those digests by row
    id."""
    if is_database_url(target):
        from doctree.store.backends import postgres

        conn = dbmod.connect(target, migrate=False)
        postgres.apply_migrations(conn, available=[m for m in postgres.migrations() if m[0] < 10])
    else:
        conn = dbmod.connect(target, migrate=False)
        dbmod.apply_migrations(conn, available=[m for m in migrations() if m[0] < 10])
    digests: dict[int, str] = {}
    conn.execute("BEGIN")
    for table in TABLES:
        rows = source.conn.execute(f"SELECT * FROM {table} ORDER BY id").fetchall()
        if not rows:
            continue
        columns = list(rows[0].keys())
        if table == "document_versions":  # stored in every row before migration 010
            columns.append("content_sha256")
        for row in rows:
            values = list(row)
            if table == "document_versions":
                v = source.version(row["document_id"], row["version"])
                # An erased version kept the digest and size of the content it had.
                digest, size = erased.get(row["id"], (v.content_sha256, row["size"]))
                digests[row["id"]] = digest
                values.append(bytes.fromhex(digest))
                values[columns.index("size")] = size
            if "parent_id" in columns:
                values[columns.index("parent_id")] = None
            marks = ",".join("?" * len(columns))
            conn.execute(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", values)
        if table == "documents":
            for row in rows:
                conn.execute(
                    "UPDATE documents SET parent_id = ? WHERE id = ?", (row["parent_id"], row["id"])
                )
    if is_database_url(target):
        for table in TABLES:
            conn.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                f" (SELECT MAX(id) FROM {table}))"
            ).fetchall()
    else:
        conn.execute(
            "INSERT INTO documents_fts (rowid, path, title, body) SELECT id, path, title,"
            " doctree_body(body_data) FROM documents WHERE deleted_at IS NULL"
        )
    conn.execute("COMMIT")
    stored = "SELECT COUNT(*) FROM document_versions WHERE content_sha256 IS NULL"
    assert conn.execute(stored).fetchone()[0] == 0  # every row has its digest, as before
    conn.close()
    return digests


def test_a_database_written_before_reads_every_version_with_the_digest_it_had(old_target, tmp_path):
    """Migrations 010 and 012: every version reads back byte for byte with the digest it
    had; the erased version's row, which kept the digest and size of the content it had,
    keeps neither (migration 012): they become those of the empty body."""
    source = DocumentsRepository(tmp_path / "source.db")
    bodies = write_history(source)
    doc_n0 = source.read("main", "~/n0").id
    source.erase_version("main", "~/n0", 5)
    erased = source.version(doc_n0, 5)
    assert erased.body is None
    had = bodies["~/n0"][4]  # the erased content, as an older store kept its digest
    erased_ids = {erased.id: (sha256(had), len(had.encode()))}
    ids = {p: source.read("main", p).id for p in bodies if p != "~/n2"}
    ids["~/n2"] = source.read("main", "~/moved").id
    digests = old_database(old_target, source, erased_ids)
    source.close()

    repo = DocumentsRepository(old_target)  # opens it, and applies the migrations
    applied = [r[0] for r in repo.conn.execute("SELECT name FROM doctree_migrations")]
    assert MIGRATION in applied and "012_erased_versions_keep_no_digest" in applied
    checked = 0
    for path, written in bodies.items():
        doc_id = ids[path]
        last = repo.conn.execute("SELECT version FROM documents WHERE id = ?", (doc_id,))
        history = {}
        for number in range(1, last.fetchone()[0] + 1):
            v = repo.version(doc_id, number)
            if v.body is not None:
                assert v.content_sha256 == digests[v.id] == sha256(v.body)  # the digest it had
            history[number] = v
        for number, body in enumerate(written, start=1):
            if path == "~/n0" and number == 5:
                gone = history[number]
                assert gone.body is None
                assert (gone.content_sha256, gone.size) == (sha256(""), 0)
                assert gone.content_sha256 != sha256(had)
            else:
                assert history[number].body == body  # byte for byte
            checked += 1
    assert checked == sum(len(b) for b in bodies.values()) > 70
    columns = repo.conn.execute("SELECT * FROM document_versions LIMIT 1").fetchone().keys()
    assert "content_sha256" not in columns  # no version stores a digest
    repo.close()
    if not is_database_url(old_target):  # the digest's bytes are not left in a free page
        for name in (old_target, old_target.with_name(old_target.name + "-wal")):
            if name.exists():
                assert bytes.fromhex(sha256(had)) not in name.read_bytes()


def test_erasing_content_a_redacted_version_kept_finds_it_by_its_derived_digest(repo):
    """Redacting an older version keeps the current body in a `redacted` version; once the
    current content itself is redacted, that copy goes too, found by its digest (which is
    derived from its body, no longer stored in its row)."""
    repo.write("main", "~/d", "first")
    repo.write("main", "~/d", "the secret")
    doc = repo.read("main", "~/d")
    repo.erase_version("main", "~/d", 1)  # appends a `redacted` version with "the secret"
    copies = [v for v in repo.history("main", "~/d") if v.operation == "redacted"]
    assert [v.body for v in copies] == ["the secret"]
    assert copies[0].content_sha256 == doc.content_sha256 == sha256("the secret")
    repo.erase_version("main", "~/d", doc.version)
    assert all(v.body != "the secret" for v in repo.history("main", "~/d"))
    assert repo.version(doc.id, copies[0].version).body is None
    assert repo.version(doc.id, copies[0].version).content_sha256 == sha256("")
