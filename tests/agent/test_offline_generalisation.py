"""The offline agent on the development half of tests/fixtures/generalisation/: transcripts
written in styles the agent was not written for (bench/pages.py scores every half; the
held-out and set-aside halves are measured there, never asserted on here, so they are not
fitted to)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.pages import run  # noqa: E402


def test_the_pages_keep_facts_and_answer_questions_on_the_development_half():
    scores = run("dev", set())
    assert len(scores) >= 5
    facts = sum(s.facts for s in scores)
    kept = sum(s.kept for s in scores)
    questions = sum(s.questions for s in scores)
    answered = sum(s.answered for s in scores)
    leaks = [leak for s in scores for leak in s.leaks]
    missing = [(s.name, m) for s in scores for m in s.missing]
    assert kept / facts >= 0.85, missing
    assert answered / questions >= 0.9, [(s.name, q) for s in scores for q in s.unanswered]
    # A forgotten topic's sentence that does not name it ("Our contractor is Bauwerk" after
    # "The kitchen renovation starts ...") goes with it: nothing may leak.
    assert leaks == [], leaks
