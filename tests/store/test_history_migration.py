"""Migration 008 on a database written before it: every version reads back byte for byte,
every sha256 is the one it was (now kept as bytes), and every version's references are
kept, row for row (a declared link of an older version is recorded nowhere else), on both
backends.

The database "written before" has the schema of migrations 001-007, and its rows are those
the store writes (bodies encoded, references, tombstones), with the digests as the hex text
the store kept until then."""

from __future__ import annotations

import random

import pytest

from doctree.errors import ConflictError
from doctree.store import db as dbmod
from doctree.store import encoding
from doctree.store.backends import is_database_url
from doctree.store.documents import DocumentsRepository
from doctree.store.migrations import migrations
from doctree.store.model import sha256, sha256_digest

MIGRATION = "008_leaner_history"
TABLES = ("documents", "document_versions", "document_references")
REFERENCES = (
    "SELECT id, source_id, version, kind, target_path, target_id FROM document_references"
    " ORDER BY id"
)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def old_target(request, tmp_path):
    """Where the database of the older release goes: a SQLite file, or an empty
    PostgreSQL database (no tables yet)."""
    if request.param == "sqlite":
        return tmp_path / "old.db"
    return request.getfixturevalue("postgres_url_without_tables")


def history(repo: DocumentsRepository) -> dict[str, list[str]]:
    """Write a history with long chains (past a full copy every 32 versions), moves, a
    deletion and a restore, non-ASCII text, an empty body; returns each path's bodies by
    version as written."""
    rnd = random.Random(5)
    words = ["alpha", "beta", "gamma", "Zoë", "日本語", "naïve", "→", "tea"]
    bodies: dict[str, list[str]] = {}

    def write(path: str, body: str, links: list[str] | None = None) -> None:
        repo.write("main", path, body, links=links)
        bodies.setdefault(path, []).append(body)

    for i in range(6):
        lines = [" ".join(rnd.choices(words, k=8)) for _ in range(30)]
        write(f"~/notes/n{i}", f"# Note {i}\n\n" + "\n".join(lines))
    for _ in range(90):  # one-line edits: deltas, with full copies at 1, 33, 65
        path = f"~/notes/n{rnd.randrange(2)}"
        lines = bodies[path][-1].split("\n")
        lines[rnd.randrange(2, len(lines))] = " ".join(rnd.choices(words, k=9))
        write(path, "\n".join(lines))
    write("~/notes/empty", "")
    write("~/notes/index", "See [[~/notes/n1]] and [[~/notes/n2]].", ["~/notes/n0", "~/x"])
    write("~/notes/index", "See [[~/notes/n1]], [[~/notes/n2]] and [[~/later]].", ["~/y"])
    write("~/notes/index", "See [[~/notes/n1]] and [[~/later]].", [])
    repo.move("main", "~/notes/n3", "~/archive/n3")
    repo.delete("main", "~/notes/n4")
    repo.restore("main", "~/notes/n4", 1)
    return bodies


def older_values(source: DocumentsRepository) -> dict[int, bytes | None]:
    """Each version's body as the store encoded it until migration 008, by row id: a delta
    against the version before (`encoding.encode`), a full copy at the first version of
    each block, and the current version `CURRENT` where it was a full copy."""
    out: dict[int, bytes | None] = {}
    for (doc_id,) in source.conn.execute("SELECT id FROM documents").fetchall():
        before: str | None = None
        history = source.conn.execute(
            "SELECT id, version FROM document_versions WHERE document_id = ? ORDER BY version",
            (doc_id,),
        ).fetchall()
        for row_id, number in history:
            text = source.version(doc_id, number).body
            if text is None:
                out[row_id] = None
            else:
                full = encoding.encode_full(text)
                value = encoding.encode(text, before, number, full)
                last = number == history[-1][1]
                out[row_id] = encoding.CURRENT if last and value == full else value
            before = text
    return out


def copy_rows(source: DocumentsRepository, target: object) -> dict[tuple[str, int], str]:
    """Copy the store's rows into a database of the older schema, with each digest as hex
    text and each body as it was encoded then; returns the hex digests stored there, by
    (table, row id)."""
    digests: dict[tuple[str, int], str] = {}
    older = older_values(source)
    assert any(encoding.needs_previous(v) for v in older.values())
    for table in TABLES:
        rows = source.conn.execute(f"SELECT * FROM {table} ORDER BY id").fetchall()
        columns = list(rows[0].keys())
        if table == "document_versions":  # stored in every row until migration 010
            columns.append("content_sha256")
        marks = ",".join("?" * len(columns))
        for row in rows:
            values = list(row)
            if table == "document_versions":  # derived from its body since migration 010
                digest = sha256_digest(
                    source.version(row["document_id"], row["version"]).body or ""
                )
                values.append(digest.hex())
                digests[table, row["id"]] = values[-1]
            elif "content_sha256" in columns:
                values[columns.index("content_sha256")] = row["content_sha256"].hex()
                digests[table, row["id"]] = row["content_sha256"].hex()
            if table == "document_versions":
                values[columns.index("body_data")] = older[row["id"]]
            if "parent_id" in columns:  # a parent may have a later id (a move): set below
                values[columns.index("parent_id")] = None
            target.execute(  # type: ignore[attr-defined]
                f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", values
            )
        if table == "documents":
            for row in rows:
                target.execute(  # type: ignore[attr-defined]
                    "UPDATE documents SET parent_id = ? WHERE id = ?", (row["parent_id"], row["id"])
                )
    return digests


def old_database(target, source: DocumentsRepository) -> dict[tuple[str, int], str]:
    """A database at migration 007 holding `source`'s rows; returns its stored digests."""
    before = [m for m in migrations() if m[0] < 8]
    conn = dbmod.connect(target, migrate=False)
    if is_database_url(target):
        from doctree.store.backends import postgres

        before = [m for m in postgres.migrations() if m[0] < 8]
        postgres.apply_migrations(conn, available=before)
    else:
        dbmod.apply_migrations(conn, available=before)
    conn.execute("BEGIN")
    digests = copy_rows(source, conn)
    if is_database_url(target):  # ids given explicitly: the identities go on after them
        for table in TABLES:
            conn.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                f" (SELECT MAX(id) FROM {table}))"
            ).fetchall()
    else:  # the full-text index of the live documents, as the store keeps it
        conn.execute(
            "INSERT INTO documents_fts (rowid, path, title, body) SELECT id, path, title,"
            " doctree_body(body_data) FROM documents WHERE deleted_at IS NULL"
        )
    conn.execute("COMMIT")
    stored = conn.execute("SELECT content_sha256 FROM document_versions LIMIT 1").fetchone()[0]
    assert isinstance(stored, str) and len(stored) == 64  # the older format, as hex text
    conn.close()
    return digests


def test_a_database_written_before_the_migration_reads_every_version_byte_exact(
    old_target, tmp_path
):
    source = DocumentsRepository(tmp_path / "source.db")
    bodies = history(source)
    references = {
        p: (source.links("main", p), source.backlinks("main", p, include_parent=True))
        for p in ("~/notes/index", "~/notes/n1", "~/notes/n2", "~/notes", "~/archive/n3")
    }
    written = source.conn.execute(REFERENCES).fetchall()
    assert {v for _, _, v, kind, _, _ in written if kind == "link"} == {1, 2}  # older versions
    digests = old_database(old_target, source)
    ids = {p: source.read("main", p).id for p in bodies if p != "~/notes/n3"}
    ids["~/notes/n3"] = source.read("main", "~/archive/n3").id
    source.close()

    repo = DocumentsRepository(old_target)  # opens it, and applies the migration
    recorded = [r[0] for r in repo.conn.execute("SELECT name FROM doctree_migrations")]
    assert MIGRATION in recorded
    # Every reference row is kept, each version's, and the current ones say the same.
    assert [tuple(r) for r in repo.conn.execute(REFERENCES).fetchall()] == [
        tuple(r) for r in written
    ]
    for p, (links, backlinks) in references.items():
        assert repo.links("main", p) == links
        assert repo.backlinks("main", p, include_parent=True) == backlinks
    checked = 0
    for path, written in bodies.items():
        now_at = repo.conn.execute("SELECT path FROM documents WHERE id = ?", (ids[path],))
        versions = {v.version: v for v in repo.history("main", now_at.fetchone()[0])}
        for number, body in enumerate(written, start=1):
            v = repo.version(ids[path], number)
            assert v.body == body  # byte for byte: the text, and its UTF-8
            assert v.content_sha256 == sha256(body) == digests["document_versions", v.id]
            assert versions[number].body == body
            assert versions[number].content_sha256 == v.content_sha256
            checked += 1
    assert checked == sum(len(b) for b in bodies.values()) > 96
    # The moved, deleted and restored documents: their later versions (no new body) too.
    for doc_id in ids.values():
        current = repo.conn.execute(
            "SELECT id, version FROM documents WHERE id = ?", (doc_id,)
        ).fetchone()
        for number in range(1, current["version"] + 1):
            v = repo.version(doc_id, number)
            assert v.content_sha256 == digests["document_versions", v.id] == sha256(v.body or "")
        assert (
            repo.version(doc_id, current["version"]).content_sha256 == digests["documents", doc_id]
        )
    # Stored as 32 bytes now, the same digests; a version's is derived from its body since
    # migration 010 (and its column gone since 012).
    raw = dict(repo.conn.execute("SELECT id, content_sha256 FROM documents").fetchall())
    assert {len(bytes(d)) for d in raw.values()} == {32}
    assert {i: bytes(d).hex() for i, d in raw.items()} == {
        i: d for (t, i), d in digests.items() if t == "documents"
    }
    version_row = repo.conn.execute("SELECT * FROM document_versions LIMIT 1").fetchone()
    columns = version_row.keys()  # (`in` of a row itself looks at its values)
    assert "content_sha256" not in columns
    # A precondition on the digest read before the migration still holds after it.
    doc = repo.read("main", "~/notes/n0")
    assert doc.content_sha256 == digests["documents", doc.id]
    with pytest.raises(ConflictError):
        repo.write("main", "~/notes/n0", "stale", content_sha256=sha256("not the body"))
    after = repo.write("main", "~/notes/n0", "fresh", content_sha256=doc.content_sha256.upper())
    assert after.version == doc.version + 1 and repo.read("main", "~/notes/n0").body == "fresh"
    assert repo.version(doc.id, doc.version).body == bodies["~/notes/n0"][-1]

    # The older kind of value and the new one in one block: a document's history goes on
    # from values stored before, and reads back, erased and rewritten, byte for byte.
    n1 = bodies["~/notes/n1"]
    for k in range(40):
        n1.append(n1[-1].replace("\n", f" +{k}\n", 1))
        repo.write("main", "~/notes/n1", n1[-1])
    doc_id = ids["~/notes/n1"]
    assert [v.body for v in repo.history("main", "~/notes/n1")] == n1
    assert [repo.version(doc_id, k).body for k in range(1, len(n1) + 1)] == n1
    values = [bytes(v) for (v,) in repo.conn.execute(
        "SELECT body_data FROM document_versions WHERE document_id = ?", (doc_id,)
    ) if v]  # fmt: skip
    assert any(map(encoding.needs_previous, values)) and any(map(encoding.needs_next, values))
    middle = len(n1) - 40  # the last version stored before the migration
    repo.erase_version("main", "~/notes/n1", middle)
    assert repo.version(doc_id, middle).body is None
    want = [b if k != middle else None for k, b in enumerate(n1, start=1)]
    assert [v.body for v in repo.history("main", "~/notes/n1")][: len(n1)] == want
    assert [repo.version(doc_id, k).body for k in range(1, len(n1) + 1)] == want
    word = "gamma"
    changed, _ = repo.replace_text(doc_id, lambda t: t.replace(word, "[gone]"))
    assert changed
    for k in range(1, len(n1) + 1):
        body = repo.version(doc_id, k).body
        assert body == (None if want[k - 1] is None else want[k - 1].replace(word, "[gone]"))
    repo.close()
