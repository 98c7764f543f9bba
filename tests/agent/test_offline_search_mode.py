"""The offline agent looks pages up by their words whatever retrieval's default mode: its
pages and its tool calls are the same under `DOCTREE_RETRIEVAL=hybrid` as under lexical,
while the same tools in a model agent's hands search by the default, and the schema of
`document_search` has no mode."""

from __future__ import annotations

import pytest

from doctree.agent.offline import OfflineMemoryAgent
from doctree.interop.tools import MemoryTools, SearchInput
from doctree.sessions.transcripts import parse_transcript
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import transcript

SESSIONS = [
    transcript(
        "s-one",
        ("user", "2026-03-02T09:00:00Z", "My sister Hilde lives in Utrecht and plays the cello."),
        ("assistant", "2026-03-02T09:00:05Z", "Noted."),
        ("user", "2026-03-02T09:01:00Z", "The boiler in the cellar is serviced every October."),
        ("assistant", "2026-03-02T09:01:05Z", "Noted."),
    ),
    transcript(
        "s-two",
        ("user", "2026-03-09T18:00:00Z", "Hilde moved from Utrecht to Leiden last week."),
        ("assistant", "2026-03-09T18:00:05Z", "Noted."),
        ("user", "2026-03-09T18:01:00Z", "I am learning to bake sourdough bread on Sundays."),
        ("assistant", "2026-03-09T18:01:05Z", "Noted."),
    ),
    transcript(
        "s-three",
        ("user", "2026-03-16T08:00:00Z", "The heating technician comes on Friday at noon."),
        ("assistant", "2026-03-16T08:00:05Z", "Noted."),
        ("user", "2026-03-16T08:01:00Z", "My sister now plays the viola instead of the cello."),
        ("assistant", "2026-03-16T08:01:05Z", "Noted."),
    ),
]


class Recorded(MemoryTools):
    """Memory tools that keep every call's name, input and answer."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.log: list[tuple[str, dict, str]] = []

    def call(self, name, input):
        result = super().call(name, input)
        self.log.append((name, dict(input), result.content))
        return result


def replay(db: str) -> tuple[dict[str, str], list[tuple[str, dict, str]]]:
    """The pages and the tool calls (with their answers) of the sessions' offline runs."""
    from doctree.store.db import connect

    repo = DocumentsRepository(connect(db))
    log: list[tuple[str, dict, str]] = []
    for text in SESSIONS:
        t = parse_transcript(text)
        tools = Recorded(repo, t.owner, session_id=t.session_id)
        OfflineMemoryAgent().run(text, tools)
        log.extend(tools.log)
    pages = {d.path: d.body for d in repo.documents("main", "~/memory")}
    return pages, log


def test_offline_pages_and_calls_do_not_depend_on_the_default_mode(tmp_path, monkeypatch):
    monkeypatch.setenv("DOCTREE_RETRIEVAL", "lexical")
    lexical = replay(str(tmp_path / "lexical.db"))
    monkeypatch.setenv("DOCTREE_RETRIEVAL", "hybrid")
    hybrid = replay(str(tmp_path / "hybrid.db"))
    assert any(name == "document_search" for name, _, _ in lexical[1])
    assert hybrid[1] == lexical[1]
    assert hybrid[0] == lexical[0]


def test_a_search_mode_the_caller_set_stays(tmp_path, monkeypatch):
    """Guard: the offline agent sets lexical only on tools given no mode, for its run."""
    from doctree.store.db import connect

    monkeypatch.setenv("DOCTREE_RETRIEVAL", "lexical")
    repo = DocumentsRepository(connect(str(tmp_path / "m.db")))
    text = SESSIONS[0]
    t = parse_transcript(text)
    chosen = MemoryTools(repo, t.owner, session_id=t.session_id, search_mode="semantic")
    OfflineMemoryAgent().run(text, chosen)
    assert chosen.search_mode == "semantic"
    given_none = MemoryTools(repo, t.owner, session_id="s-again")
    OfflineMemoryAgent().run(text.replace("s-one", "s-again"), given_none)
    assert given_none.search_mode is None  # the run's lexical does not outlive the run


@pytest.mark.parametrize("mode", ["lexical", "hybrid"])
def test_a_model_agents_search_follows_the_default(tmp_path, monkeypatch, mode):
    """Guard: tools given no mode, outside the offline agent, search by the default; a
    search by meaning finds a page that shares no word with the query."""
    from doctree.store.db import connect

    monkeypatch.setenv("DOCTREE_RETRIEVAL", mode)
    repo = DocumentsRepository(connect(str(tmp_path / "m.db")))
    tools = MemoryTools(repo, "main")
    body = "- the cat sleeps on the windowsill\n- the kitten eats fish twice a day"
    assert not tools.call("document_write", {"path": "~/memory/pets", "body": body}).is_error
    out = tools.call("document_search", {"query": "feline"}).content
    assert ("~/memory/pets" in out) == (mode == "hybrid")


def test_the_search_schema_has_no_mode():
    assert set(SearchInput.model_json_schema()["properties"]) == {"query", "under", "limit"}
