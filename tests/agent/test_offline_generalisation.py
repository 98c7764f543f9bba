"""The offline agent on the development half of tests/fixtures/generalisation/: transcripts
written in styles the agent was not written for (bench/pages.py scores every half; the
held-out and set-aside halves are measured there, never asserted on here, so they are not
fitted to)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.pages import HALVES, HELD_ASIDE, SET, Score, misses, run  # noqa: E402
from doctree.sessions.transcripts import parse_transcript  # noqa: E402

ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
KEYS = {"half", "kind", "facts", "questions", "absent", "no_pages", "absent_current", "absent_on"}


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


def test_every_transcript_of_the_set_is_scored_on_what_it_says():
    """expected.json and the folders agree, and no expectation is kept or missed by construction:
    every part of a fact, answer or leak that a line must hold is said in the transcript, except an absolute date,
    which must not be a day a session of it was held (every line a session writes carries that
    day, so such a fact would be kept by any line); forgotten or secret text is in the
    transcript, so its check can fail."""
    expected = json.loads((SET / "expected.json").read_text(encoding="utf-8"))
    on_disk = {(p.parent.name, p.name) for p in SET.glob("*/*") if p.is_dir()}
    assert on_disk == {(spec["half"], name) for name, spec in expected.items()}
    for name, spec in expected.items():
        assert spec["half"] in HALVES and set(spec) <= KEYS, name
        assert spec["facts"] and spec["questions"], name
        raw = ""
        days: set[str] = set()
        for path in sorted((SET / spec["half"] / name).glob("*.md")):
            text = path.read_text(encoding="utf-8")
            t = parse_transcript(text, source=str(path))
            raw += text
            days.update(m.time[:10] for m in t.messages)
        parts = [p for fact in spec["facts"] for p in fact]
        parts += [a for q in spec["questions"] for a in q["answer"]]
        # `!x` parts say what a leaking line does not hold: any word may be named there
        parts += [p for leak in spec.get("absent_current", []) for p in leak if p[:1] != "!"]
        parts += [p for leak in spec.get("absent_on", []) for p in leak["line"] if p[:1] != "!"]
        for part in parts:
            assert part.strip(), name
            if ISO_DAY.fullmatch(part):
                assert part not in days, (name, part)
            else:
                assert part.lower() in raw.lower(), (name, part)
        for text in spec.get("absent", []):
            assert text in raw, (name, text)


@pytest.mark.parametrize(
    "half,least",
    [
        ("fresh", 8),
        ("fresh2", 10),
        ("fresh3", 10),
        ("fresh4", 10),
        ("fresh5", 10),
        ("fresh7", 10),
        ("fresh8", 10),
        ("fresh9", 10),
        ("fresh10", 10),
        ("fresh11", 10),
        ("fresh12", 10),
        ("fresh13", 10),
        ("fresh14", 10),
        ("fresh15", 10),
        ("fresh16", 10),
        ("fresh17", 10),
        ("fresh18", 10),
        ("fresh19", 10),
        ("fresh20", 10),
        ("fresh21", 10),
    ],
)
def test_a_fresh_half_is_held_aside_with_its_own_transcripts(half: str, least: int):
    expected = json.loads((SET / "expected.json").read_text(encoding="utf-8"))
    names = [name for name, spec in expected.items() if spec["half"] == half]
    assert half in HELD_ASIDE and len(names) >= least
    assert not set(names) & {n for n, s in expected.items() if s["half"] != half}


@pytest.mark.parametrize(
    "half",
    [
        "fresh2",
        "fresh3",
        "fresh4",
        "fresh5",
        "fresh7",
        "fresh8",
        "fresh9",
        "fresh10",
        "fresh11",
        "fresh12",
    ],
)
def test_each_transcript_of_a_later_fresh_half_is_small_enough_to_read_whole(half: str):
    """1-3 sessions, 5-10 facts and 2-4 questions each: a miss can be traced by reading it."""
    expected = json.loads((SET / "expected.json").read_text(encoding="utf-8"))
    for name, spec in expected.items():
        if spec["half"] == half:
            sessions = list((SET / half / name).glob("*.md"))
            assert 1 <= len(sessions) <= 3, name
            assert 5 <= len(spec["facts"]) <= 10 and 2 <= len(spec["questions"]) <= 4, name


def test_a_held_aside_half_s_misses_are_listed_only_when_it_is_asked_for_by_name():
    dev = Score("debugging", "k", "dev", facts=1, missing=[["b-7"]])
    aside = Score("car-thread", "k", "fresh2", facts=1, missing=[["46,200"]], leaks=["x"])
    assert misses([dev, aside], "all") == ["debugging: missing ['b-7']"]
    assert misses([dev, aside], "fresh2") == [
        "debugging: missing ['b-7']",
        "car-thread: missing ['46,200']",
        "car-thread: leak x",
    ]
    assert misses([dev, aside], "fresh") == ["debugging: missing ['b-7']"]
    later = Score("router-help", "k", "fresh3", facts=1, missing=[["1.2.1"]])
    assert misses([dev, aside, later], "fresh2") == misses([dev, aside], "fresh2")
    assert misses([dev, aside, later], "fresh3") == [
        "debugging: missing ['b-7']",
        "router-help: missing ['1.2.1']",
    ]
    newest = Score("wills", "k", "fresh4", facts=1, missing=[["Lowri"]], leaks=["y"])
    assert misses([dev, later, newest], "fresh3") == misses([dev, later], "fresh3")
    assert misses([dev, later, newest], "all") == ["debugging: missing ['b-7']"]
    assert misses([dev, later, newest], "fresh4") == [
        "debugging: missing ['b-7']",
        "wills: missing ['Lowri']",
        "wills: leak y",
    ]
    fifth = Score("voicemail-ums", "k", "fresh5", facts=1, unanswered=["when is the plumber"])
    assert misses([dev, newest, fifth], "fresh4") == misses([dev, newest], "fresh4")
    assert misses([dev, newest, fifth], "all") == ["debugging: missing ['b-7']"]
    assert misses([dev, newest, fifth], "fresh5") == [
        "debugging: missing ['b-7']",
        "voicemail-ums: unanswered 'when is the plumber'",
    ]
    seventh = Score("notes-to-self", "k", "fresh7", facts=1, leaks=["page ~/memory/people/devika"])
    assert misses([dev, fifth, seventh], "fresh6") == ["debugging: missing ['b-7']"]
    assert misses([dev, fifth, seventh], "all") == ["debugging: missing ['b-7']"]
    assert misses([dev, fifth, seventh], "fresh7") == [
        "debugging: missing ['b-7']",
        "notes-to-self: leak page ~/memory/people/devika",
    ]


@pytest.mark.parametrize(
    "half",
    [
        "fresh4",
        "fresh5",
        "fresh7",
        "fresh8",
        "fresh9",
        "fresh10",
        "fresh11",
        "fresh12",
        "fresh13",
        "fresh14",
        "fresh15",
        "fresh16",
        "fresh17",
        "fresh18",
        "fresh19",
        "fresh20",
        "fresh21",
    ],
)
def test_a_later_fresh_half_checks_forgotten_secret_and_superseded_text(half: str):
    """Leaks can be scored: at least two transcripts name text that must not be kept (a
    forgotten item or a secret) and two name a superseded value that must not stay current."""
    expected = json.loads((SET / "expected.json").read_text(encoding="utf-8"))
    specs = [spec for spec in expected.values() if spec["half"] == half]
    assert sum(1 for spec in specs if spec.get("absent")) >= 2, half
    assert sum(1 for spec in specs if spec.get("absent_current")) >= 2, half
