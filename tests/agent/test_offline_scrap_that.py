"""A correction that opens on "scrap that" and gives what holds instead: the day it gives
replaces the latest earlier day the user gave of the same thing, and the sentence said just
before it is kept, not taken back."""

from __future__ import annotations

from tests.agent.offline_runs import page_lines, run, transcript

DAY = "2031-06-03T09:00:00Z"  # a Tuesday


def _session(repo, correction: str) -> tuple[list[str], list[str]]:
    run(
        repo,
        transcript(
            "s-report",
            (
                "user",
                DAY,
                "The grant report is due to my manager Lucia Ferrante by Thursday week. "
                "Also my proofreader is my cousin Tendai, she reads it the weekend before.",
            ),
            ("assistant", "2031-06-03T09:01:00Z", "Noted, due Thursday 12 June 2031."),
            ("user", "2031-06-03T09:02:00Z", correction),
        ),
    )
    return page_lines(repo)


def test_scrap_that_with_a_new_day_replaces_the_day_and_keeps_the_line_before(repo):
    now, past = _session(
        repo,
        "Scrap that, Lucia just phoned: she wants it Monday the 9th instead because of the audit.",
    )
    assert any("Tendai" in ln and "proofreader" in ln for ln in now)
    assert any("2031-06-09" in ln for ln in now)
    assert not any("2031-06-12" in ln for ln in now)
    assert any("2031-06-12" in ln for ln in past)


def test_scrap_that_with_a_day_of_nothing_said_keeps_the_earlier_day(repo):
    now, _ = _session(repo, "Scrap that, the plumber comes on Monday the 9th instead.")
    assert any("2031-06-12" in ln and "grant report" in ln for ln in now)
