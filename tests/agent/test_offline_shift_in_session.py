"""A day moved by a count in the session that said it ("entries close on Friday" … "they've
extended the entries deadline by a week"): the new day is the old one plus the count,
written after the count, and the earlier line goes under Past. When two earlier days could
be the one moved, nothing moves."""

from __future__ import annotations

from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import page_lines, run, transcript

DAY = "2036-03-03T10:00:00Z"  # a Monday
LATER = "2036-03-03T10:05:00Z"


def _session(repo: DocumentsRepository, first: str, second: str) -> tuple[list[str], list[str]]:
    run(
        repo,
        transcript(
            "s-shift",
            ("user", DAY, first),
            ("assistant", DAY, "Noted."),
            ("user", LATER, second),
            ("assistant", LATER, "Noted."),
        ),
    )
    return page_lines(repo)


def test_a_deadline_extended_by_a_count_gets_its_new_day(repo: DocumentsRepository):
    now, past = _session(
        repo,
        "Entries for the quilt show close this Friday.",
        "Good news, the organisers extended the entries deadline by a week.",
    )
    assert any("by a week (2036-03-14)" in ln for ln in now)
    assert not any("2036-03-07" in ln for ln in now)
    assert any("2036-03-07" in ln for ln in past)


def test_two_days_it_could_move_move_nothing(repo: DocumentsRepository):
    now, past = _session(
        repo,
        "Entries for the quilt show close this Friday. Entries for the cake stall close on Thursday.",
        "The organisers extended the entries deadline by a week.",
    )
    assert not any("2036-03-14" in ln or "2036-03-13" in ln for ln in now)
    assert not past


def test_a_stay_for_a_week_moves_nothing(repo: DocumentsRepository):
    now, past = _session(
        repo,
        "Entries for the quilt show close this Friday.",
        "The judges are staying on for a week after the entries close.",
    )
    assert any("2036-03-07" in ln for ln in now)
    assert not past


def test_a_count_that_explains_a_move_already_said_moves_nothing(repo: DocumentsRepository):
    # the record gives the new day and the log the move; the comment under them says why:
    # the count is already applied
    now, _ = _session(
        repo,
        "Kiln firing: batch 7 (due by March 27, 2036)",
        "Ingrid changed the firing date from March 20, 2036 to March 27, 2036.\n\n"
        "Pushing batch 7 back a week, the glaze needs to cure.",
    )
    assert not any("2036-04-03" in ln for ln in now)
    assert any("2036-03-27" in ln for ln in now)
