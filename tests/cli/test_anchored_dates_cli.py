"""Anchored dates through `doctree replay`: a date counted from an event of an earlier
session is written with its day, and marked when the event moves; `doctree show` lists the
pages they are on and `doctree read` prints them."""

from __future__ import annotations

from pathlib import Path

from tests.cli.replaying import doctree, in_turn, write_session


def session(tmp_path: Path, sid: str, day: str, *said: str) -> str:
    return write_session(tmp_path, sid, in_turn(day, said))


def test_anchored_dates_through_replay_and_show(db_path, tmp_path):
    first = session(
        tmp_path, "s-plan", "2031-05-05",
        "The kitchen fitters start on Monday 2 June. The worktop templating is the Friday "
        "before the fitters start, and the final invoice is due a month after 2 June.",
        "Noted.",
    )  # fmt: skip
    moved = session(
        tmp_path, "s-moved", "2031-05-12",
        "The fitters rang: the fitters start has moved to Monday 9 June now.",
        "Noted.",
    )  # fmt: skip
    doctree(db_path, "replay", "--backend", "offline", first)
    tree = doctree(db_path, "show", "~/memory")
    assert "├── active          Active" in tree, tree
    active = doctree(db_path, "read", "~/memory/active")
    assert "the Friday before the fitters start (2031-05-30)" in active, active
    assert "a month after 2 June (2031-07-02)" in active, active
    doctree(db_path, "replay", "--backend", "offline", moved)
    active = doctree(db_path, "read", "~/memory/active")
    assert (
        "the Friday before the fitters start (2031-05-30; counted from the fitters start, "
        "which moved to 2031-06-09 on 2031-05-12)"
    ) in active, active
    # counted from a date said with it, not from the event: no mark
    assert (
        "a month after 2 June (2031-07-02)," in active
        or "a month after 2 June (2031-07-02)." in active
    )
