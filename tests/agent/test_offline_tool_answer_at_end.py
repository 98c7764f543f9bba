"""A session that ends on the assistant's answer from a tool to what the user asked (a
search for opening hours, an address, a phone number) keeps what the assistant read out of
it, as it would were the user to go on without turning it down; a tool result nobody asked
for stays out."""

from __future__ import annotations

import json

from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript


def _current(repo: DocumentsRepository) -> str:
    return "\n".join(
        d.body.split("## Past")[0]
        for d in repo.documents("main", "~/memory")
        if "/archive/" not in d.path
    )


def _search(ask: str, answer: str) -> str:
    hits = [
        {
            "title": "Lindqvist Cycles, 7 Harrow Yard",
            "url": "https://lindqvist.example",
            "snippet": "Open Tue-Sat 10:00-18:00. Call 0161 496 0321.",
        }
    ]
    return transcript(
        "s-shop",
        ("user", "2031-06-02T09:00:00Z", ask),
        (
            "tool_call",
            "2031-06-02T09:00:05Z",
            {"id": "q1", "name": "web_search", "input": {"query": "Lindqvist Cycles hours"}},
        ),
        (
            "tool_result",
            "2031-06-02T09:00:07Z",
            {"tool_use_id": "q1", "content": json.dumps(hits), "is_error": False},
        ),
        ("assistant", "2031-06-02T09:00:10Z", answer),
    )


ANSWER = (
    "Lindqvist Cycles at 7 Harrow Yard is open Tuesday to Saturday, 10:00 to 18:00; "
    "phone 0161 496 0321."
)


def test_the_answer_a_session_ends_on_is_kept_when_the_user_asked(repo):
    run(repo, _search("My chain snapped on the hill. Is Lindqvist Cycles open tomorrow?", ANSWER))
    now = _current(repo)
    assert "0161 496 0321" in now, now
    assert "7 Harrow Yard" in now, now
    assert "chain snapped" in now, now  # the user's own line stays


def test_an_imperative_asks_as_a_question_does(repo):
    run(repo, _search("Find me the bike shop's phone number, the one near the canal.", ANSWER))
    assert "0161 496 0321" in _current(repo)


def test_a_tool_answer_to_nothing_asked_stays_out(repo):
    run(repo, _search("My chain snapped on the hill, so I walked home.", ANSWER))
    assert "0161 496 0321" not in _current(repo)
