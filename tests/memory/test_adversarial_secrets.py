"""Attacks on "no secret is ever stored": a transcript pasting a key of every kind, written
through every door (the engine's history, the worker's hand-over to the recall record and
the memory agent, the library, the CLI, MCP, the memory tool, the agent's tools), titles
and paths included. Afterwards the raw bytes of the SQLite file and its WAL (or every row
of every PostgreSQL table) hold none of them, and no reader serves one back.

Each check first finds a canary written beside the secrets, so a grep that could not see
stored text would fail rather than pass.
"""

from __future__ import annotations

import json
import secrets as random_tokens
import subprocess
import sys
from pathlib import Path

import pytest

from doctree.engine import Engine
from doctree.errors import PathError
from doctree.interop.mcp_server import DoctreeTools
from doctree.interop.memory_tool import DoctreeMemoryTool
from doctree.interop.tools import MemoryTools
from doctree.memory.context import load_memories
from doctree.memory.recall import blend
from doctree.store.backends import is_database_url
from doctree.store.documents import DocumentsRepository
from doctree.store.recall import RecallIndex
from doctree.store.secrets import find_secrets
from tests.secrets_corpus import Case, secrets

OWNER = "main"


def one_of_each_kind() -> list[Case]:
    seen: dict[str, Case] = {}
    for c in secrets(seed=101, per_template=1):
        seen.setdefault(c.kind, c)
    return list(seen.values())


def fragments(secret: str) -> list[str]:
    """What must not be stored of a secret: the whole of it, and each line of a PEM body."""
    lines = [ln for ln in secret.split("\n") if len(ln) >= 12 and "-----" not in ln]
    return [secret, *lines]


def raw_sqlite(path: Path) -> bytes:
    """Every byte of the database file, its WAL and its shared-memory index, as on disk."""
    return b"".join(
        p.read_bytes() for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm")) if p.exists()
    )


def raw_postgres(repo: DocumentsRepository) -> str:
    """Every row of every table of the database, as text (byte columns in hex)."""
    tables = [
        r[0]
        for r in repo.conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
        ).fetchall()
    ]
    assert "session_history" in tables and "recall_passages" in tables
    return "\n".join(
        str(r[0]) for t in tables for r in repo.conn.execute(f'SELECT t::text FROM "{t}" t')
    )


def stored(db_path: object, repo: DocumentsRepository) -> str:
    if is_database_url(db_path):
        return raw_postgres(repo)
    return raw_sqlite(Path(db_path)).decode("latin-1")


def leaked(text: str, cases: list[Case]) -> list[str]:
    """The kinds of the cases some fragment of whose secret is in `text` (as text, or as hex,
    which is how PostgreSQL shows a byte column)."""
    return [
        c.kind for c in cases if any(f in text or f.encode().hex() in text for f in fragments_of(c))
    ]


def fragments_of(case: Case) -> list[str]:
    """`fragments` of the case's secret; a secret too short to be told apart from the other
    digits of a database file (a card's three-digit security code) is looked for with the
    words said before it ("CVC: 737"), which only an unmasked copy holds."""
    if len(case.secret) >= 8:
        return fragments(case.secret)
    at = case.text.index(case.secret)
    return [case.text[max(0, at - 8) : at + len(case.secret)]]


@pytest.fixture
def pasted(db_path):
    """A session whose records paste one secret of every kind, handed over by the worker
    (recall record and the offline memory agent), then every other door writing them too."""
    cases = one_of_each_kind()
    canary = "canary" + random_tokens.token_hex(8)
    with Engine(db_path, handler="offline", compact=False) as engine:
        s = engine.start_session(OWNER, "s-pasted", created_at="2026-12-01T09:00:00Z")
        for i, c in enumerate(cases):
            t = f"2026-12-01T09:{i:02d}:00Z"
            engine.append(s.id, "user", f"{canary} remember this: {c.text}", time=t)
        engine.append(
            s.id,
            "tool_call",
            {"name": "shell", "input": {"cmd": f"deploy --key {cases[0].secret}"}},
            time="2026-12-01T10:00:00Z",
        )
        engine.sleep(s.id)
        result = engine.run_worker_once()
        assert result.processed == [s.id], result
    repo = DocumentsRepository(db_path)
    body = "\n".join(f"- {c.text}" for c in cases)
    aws = next(c for c in cases if c.kind == "aws-access-key").secret
    token = next(c for c in cases if c.kind == "github-token").secret
    front = f"---\ntitle: {token}\ntags: [keys]\n---\n"
    repo.write(OWNER, "~/memory/pasted", front + f"# {canary}\n{body}\n", title=f"key {aws}")
    repo.edit(OWNER, "~/memory/pasted", canary, f"{canary} {token}")
    MemoryTools(repo, OWNER, session_id="s-pasted").call(
        "document_write", {"path": "~/memory/tools-page", "body": body, "title": token}
    )
    DoctreeTools(repo, OWNER).call("write", {"path": "~/memory/mcp-page", "body": body})
    DoctreeMemoryTool(repo, OWNER).execute(
        {"command": "create", "path": "/memories/memtool.md", "file_text": body}
    )
    yield db_path, repo, cases, canary
    repo.close()


def test_the_database_holds_no_secret_of_any_kind(pasted):
    db_path, repo, cases, canary = pasted
    raw = stored(db_path, repo)
    assert canary in raw  # the grep sees what was stored
    assert leaked(raw, cases) == []


def test_every_layer_holds_the_typed_marker_instead(pasted):
    _, repo, cases, _ = pasted
    history = "\n".join(
        json.dumps(r.content)
        for r in Engine(repo.location or repo.path, handler="offline").sessions.history("s-pasted")
    )
    recall = "\n".join(p.text for p in RecallIndex(repo.conn).passages(OWNER))
    versions = "\n".join(
        f"{v.path}\n{v.title}\n{v.body}" for v in repo.log(OWNER, "~", limit=None) if v.body
    )
    for layer in (history, recall, versions):
        assert leaked(layer, cases) == []
        assert find_secrets(layer) == []
    for c in cases:
        assert f"[secret: {c.kind}]" in history, c.kind
        assert f"[secret: {c.kind}]" in recall, c.kind
    first = repo.read(OWNER, "~/memory/pasted", version=1)
    assert first.title == "key [secret: aws-access-key]"
    assert "title: [secret: github-token]" in first.body  # frontmatter too
    assert repo.read(OWNER, "~/memory/tools-page").title == "[secret: github-token]"


def test_no_reader_serves_a_secret(pasted):
    _, repo, cases, _ = pasted
    query = "remember this key token password"
    served = [
        load_memories(repo, OWNER, cap=20_000, query=query),
        blend(repo, OWNER, query, budget_words=5000)[0].text,
        DoctreeTools(repo, OWNER).call("context", {"query": query, "cap": 20_000}).content,
        DoctreeTools(repo, OWNER).call("search", {"query": "remember"}).content,
        MemoryTools(repo, OWNER, session_id="s-other")
        .call("document_search", {"query": "remember this"})
        .content,
    ]
    assert "[secret: " in served[0]  # the recall section was served, with its markers
    for text in served:
        assert leaked(text, cases) == []


def test_a_key_pasted_as_a_page_name_is_refused_without_repeating_it(repo):
    aws = one_of_each_kind()[0].secret
    with pytest.raises(PathError) as e:
        repo.write(OWNER, f"~/memory/keys/{aws}", "x")
    assert aws not in str(e.value)
    assert "~/memory/keys/secret-aws-access-key" in str(e.value)
    assert "holds a secret" in str(e.value)
    with pytest.raises(PathError) as e:
        repo.write(OWNER, f"~/memory/keys/my key {aws}", "x")  # not a slug, and a secret
    assert aws not in str(e.value)
    assert not repo.exists(OWNER, "~/memory/keys")
    result = MemoryTools(repo, OWNER).call(
        "document_write", {"path": f"~/memory/{aws.lower()}x", "body": "x"}
    )
    assert result.is_error is False or aws.lower() not in result.content


@pytest.mark.slow
def test_the_cli_writes_no_secret_and_refuses_one_in_a_path(tmp_path):
    db = tmp_path / "cli.db"
    token = one_of_each_kind()[2].secret
    assert token.startswith("gh")

    def run(*args: str, input: str = "") -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "doctree", "--db", str(db), *args],
            input=input,
            capture_output=True,
            text=True,
            timeout=60,
        )

    ok = run("write", "~/notes", "--title", f"token {token}", input=f"# Notes\ntoken {token}\n")
    assert ok.returncode == 0, ok.stderr
    bad = run("write", f"~/keys/{token}", input="x")
    assert bad.returncode == 2 and token not in bad.stderr and "holds a secret" in bad.stderr
    assert "Traceback" not in bad.stderr
    shown = run("read", "~/notes")
    assert "[secret: github-token]" in shown.stdout and token not in shown.stdout
    assert token.encode() not in raw_sqlite(db)
