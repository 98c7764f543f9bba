"""The offline memory agent on transcripts written the way people talk, one per behaviour.

Each folder of tests/fixtures/behaviours/ holds the sessions of one behaviour (replayed in
order on a fresh tree) and expected.json the facts a person would expect memory to keep:
a fact is a line of a page that holds every listed string (case-insensitive). The test
prints the facts kept per behaviour, and fails if any expected fact is missing, if a page
that must not exist does, if a forgotten or superseded statement is still current, or if any
version of any page ever held a secret.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from doctree.agent.offline import OfflineMemoryAgent
from doctree.interop.tools import MemoryTools
from doctree.memory.secrets import find_secrets
from doctree.sessions.transcripts import parse_transcript
from doctree.store.documents import DocumentsRepository

BEHAVIOURS = Path(__file__).parent / "fixtures" / "behaviours"
EXPECTED = json.loads((BEHAVIOURS / "expected.json").read_text(encoding="utf-8"))


def replay(repo: DocumentsRepository, folder: Path) -> list[str]:
    notes = []
    for path in sorted(folder.glob("*.md")):
        text = path.read_text(encoding="utf-8")
        t = parse_transcript(text, source=str(path))
        summary = OfflineMemoryAgent().run(
            text, MemoryTools(repo, t.owner, session_id=t.session_id)
        )
        assert summary.tool_errors == 0, str(summary)
        notes += summary.notes
    return notes


def current_pages(repo: DocumentsRepository) -> dict[str, str]:
    out = {}
    for owner in repo.owners():
        for doc in repo.documents(owner, "~/memory"):
            out[doc.path] = doc.body
    return out


def has_line(body: str, parts: list[str], *, current: bool = False) -> bool:
    """Whether a line of `body` holds every part; `current`: not counting the lines under a
    "Past" heading (what was superseded) or marked past."""
    lines, past = [], False
    for ln in body.split("\n"):
        if ln.startswith("## "):
            past = ln == "## Past"
        if not (current and (past or ln.startswith("- past"))):
            lines.append(ln)
    return any(all(p.lower() in line.lower() for p in parts) for line in lines)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_behaviour_keeps_the_expected_facts(repo, name, capsys):
    spec = EXPECTED[name]
    notes = replay(repo, BEHAVIOURS / name)
    pages = current_pages(repo)
    kept = [f for f in spec["facts"] if has_line(pages.get(f["page"], ""), f["line"])]
    missing = [f for f in spec["facts"] if f not in kept]
    with capsys.disabled():
        print(f"\n{name}: {len(kept)}/{len(spec['facts'])} expected facts kept")
    problems = [f"missing on {f['page']}: a line with {f['line']}" for f in missing]
    problems += [f"page {p} should not exist" for p in spec.get("no_pages", []) if p in pages]
    for text in spec.get("absent", []):
        problems += [f"{p} still holds {text!r}" for p, b in pages.items() if text in b]
    for parts in spec.get("absent_lines", []):
        problems += [
            f"{p} has a current line with {parts}"
            for p, b in pages.items()
            if has_line(b, parts, current=True)
        ]
    for f in spec.get("absent_on", []):
        if has_line(pages.get(f["page"], ""), f["line"], current=True):
            problems.append(f"{f['page']} still has a current line with {f['line']}")
    for word in spec.get("summary", []):
        if not any(word in n for n in notes):
            problems.append(f"the run summary does not say {word!r}: {notes}")
    assert not problems, (
        "\n".join(problems)
        + "\n\n"
        + "\n\n".join(f"== {p}\n{b}" for p, b in sorted(pages.items()) if "/archive" not in p)
    )


def test_no_version_of_any_page_holds_a_secret(repo):
    for name in sorted(EXPECTED):
        replay(repo, BEHAVIOURS / name)
    found = []
    for owner in repo.owners():
        for v in repo.log(owner, "~", limit=None):
            body = v.body or ""
            found += [(v.path, v.version, s.kind) for s in find_secrets(body)]
    assert found == []
    assert any("[secret: " in b or "secret (" in b for b in current_pages(repo).values())


def test_the_readme_example_gives_alice_a_page_that_comes_back_first(db_path):
    from doctree import Engine, load_memories

    db = db_path
    engine = Engine(db, handler="offline")
    try:
        s = engine.start_session("main")
        engine.append(s.id, "user", "Remember that Alice prefers green tea.")
        engine.sleep(s.id)
        engine.run_worker_once()
    finally:
        engine.close()
    with DocumentsRepository(db) as repo:
        assert "Alice prefers green tea." in repo.read("main", "~/memory/people/alice").body
        memory = load_memories(repo, "main", cap=8000, query="Alice")
    assert memory.index("~/memory/people/alice") < memory.index("~/memory/archive/")
