"""A month or a weekday set against another of its kind, both named in full ("ends in
April, not March"), corrects the value the old one gave: in the same session or a later
one, the line that said March is no longer current. A month set against something else
("in May, not at the school") corrects nothing."""

from __future__ import annotations

from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import current_facts, run, transcript


def _session(repo: DocumentsRepository, sid: str, day: str, *messages: str) -> None:
    run(
        repo,
        transcript(sid, *[("user", f"{day}T10:{i:02d}:00Z", m) for i, m in enumerate(messages)]),
    )


def test_a_month_set_against_another_replaces_it_in_a_later_session(tmp_path):
    with DocumentsRepository(tmp_path / "p.db") as repo:
        _session(
            repo,
            "s-1",
            "2029-01-10",
            "Our broadband is with Plusnet and the contract ends in March.",
        )
        _session(
            repo, "s-2", "2029-01-20", "Sorry, the broadband contract ends in April, not March."
        )
        facts = current_facts(repo)
    assert "April" in facts, facts
    assert "ends in March" not in facts, facts


def test_a_month_set_against_another_replaces_it_in_the_same_session(tmp_path):
    with DocumentsRepository(tmp_path / "p.db") as repo:
        _session(
            repo,
            "s-1",
            "2029-01-10",
            "Our broadband is with Plusnet and the contract ends in March.",
            "Actually the broadband contract ends in April, not March.",
        )
        facts = current_facts(repo)
    assert "April" in facts, facts
    assert "ends in March" not in facts, facts


def test_a_month_set_against_something_else_corrects_nothing(tmp_path):
    with DocumentsRepository(tmp_path / "p.db") as repo:
        _session(repo, "s-1", "2029-01-10", "The craft fair is in the village hall in May.")
        _session(repo, "s-2", "2029-01-20", "The craft fair is in May, not at the school.")
        facts = current_facts(repo)
    assert "village hall in May" in facts, facts
