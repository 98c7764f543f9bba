"""Days said as still to come, whatever the tense around them: "this coming Friday", the
day after an arrow ("Mon → Wed"), "a week Thursday"; the day a sentence is about when it
sets one aside ("not this Friday but the 16th"); and a stretch of time counted from a
holiday ("the weekend after Easter"), which is no day of the holiday and is kept as said."""

from __future__ import annotations

from datetime import date

import pytest

from doctree.agent.offline.resolve import resolve_relative
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript

WED = date(2029, 3, 7)  # a Wednesday


def _upcoming(repo: DocumentsRepository, *messages: str) -> list[str]:
    """The Upcoming lines of the active page after `messages`, said on WED."""
    run(
        repo,
        transcript(
            "s-ahead",
            *[("user", f"2029-03-07T10:{i:02d}:00Z", m) for i, m in enumerate(messages)],
        ),
    )
    body = next(d.body for d in repo.documents("main", "~/memory") if d.path.endswith("/active"))
    part = body.split("## Upcoming", 1)[1].split("\n## ", 1)[0] if "## Upcoming" in body else ""
    return [ln for ln in part.splitlines() if ln.startswith("- ")]


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("netball practice got moved to this coming Saturday", "Saturday (2029-03-10)"),
        ("they rescheduled the tasting for the coming Monday", "Monday (2029-03-12)"),
        ("choir was shifted Tuesday → Thursday", "Thursday (2029-03-08)"),
        ("we pushed the viewing Friday -> Monday", "Monday (2029-03-12)"),
    ],
)
def test_a_coming_day_or_the_day_after_an_arrow_is_never_one_gone(said, meant):
    out, _ = resolve_relative(said, WED, past=True)
    assert meant in out, out


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("we met on Monday", "Monday (2029-03-05)"),
        ("I saw her last Thursday", "Thursday (2029-03-01)"),
    ],
)
def test_a_day_of_a_sentence_about_the_past_is_still_the_one_gone(said, meant):
    out, _ = resolve_relative(said, WED, past=True)
    assert meant in out, out


def test_a_week_and_a_weekday_is_that_weekday_a_week_on():
    out, _ = resolve_relative("The recital is a week Thursday.", WED)
    assert "a week Thursday (2029-03-15)" in out, out
    out, _ = resolve_relative("The recital is a week on Thursday.", WED)
    assert "(2029-03-15)" in out, out


def test_once_a_week_before_a_weekday_is_no_week_on():
    out, _ = resolve_relative("I swim once a week Thursday evenings.", WED)
    assert "2029-03-15" not in out, out


def test_the_day_after_an_arrow_is_the_day_a_sentence_is_about(tmp_path):
    with DocumentsRepository(tmp_path / "p.db") as repo:
        lines = _upcoming(repo, "Pottery class moved Tuesday → Friday this week.")
    assert lines and lines[0].startswith("- 2029-03-09:"), lines


def test_a_day_set_aside_is_not_the_day_a_sentence_is_about(tmp_path):
    with DocumentsRepository(tmp_path / "p.db") as repo:
        lines = _upcoming(repo, "The glazier comes not this Friday but the one after, the 16th.")
    assert lines and lines[0].startswith("- 2029-03-16:"), lines


def test_a_day_said_first_and_another_set_aside_stays_the_first(tmp_path):
    with DocumentsRepository(tmp_path / "p.db") as repo:
        lines = _upcoming(repo, "The glazier comes on the 16th, not on Friday the 9th.")
    assert lines and lines[0].startswith("- 2029-03-16:"), lines


@pytest.mark.parametrize(
    "said",
    [
        "We drive to the lakes the weekend after Easter.",
        "We visit the weekend before Christmas.",
        "We are away the fortnight after Easter.",
    ],
)
def test_a_stretch_counted_from_a_holiday_is_no_day_of_it(said):
    out, found = resolve_relative(said, WED)
    assert not found, out


def test_a_day_counted_from_a_holiday_is_still_dated():
    out, found = resolve_relative("We fly home the day after Easter.", WED)
    assert "(2029-04-02)" in out, out
