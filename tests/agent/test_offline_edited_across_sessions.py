"""A value changed in a later session with a word of change edits the one line it replaces
in place when that line gives only that value: the rest of the line stays current."""

from __future__ import annotations

from doctree.agent.offline.pages import Page
from doctree.agent.offline.write import _order_sections
from tests.agent.offline_runs import current_facts, past_facts, run, transcript


def _two_sessions(repo, first: str, then: str) -> tuple[str, str]:
    run(
        repo,
        transcript(
            "s-one",
            ("user", "2035-04-02T09:00:00Z", first),
            ("assistant", "2035-04-02T09:01:00Z", "Noted."),
        ),
    )
    run(
        repo,
        transcript(
            "s-two",
            ("user", "2035-04-16T09:00:00Z", then),
            ("assistant", "2035-04-16T09:01:00Z", "Updated."),
        ),
    )
    return current_facts(repo), past_facts(repo)


def test_what_else_the_line_said_stays_current(repo):
    now, past = _two_sessions(
        repo,
        "My cousin Taini is getting married on 14 June in Aberaeron.",
        "Taini's wedding has moved to 21 June.",
    )
    assert "(2035-06-21) in Aberaeron" in now
    assert "(2035-06-14)" not in now
    assert "(2035-06-14)" in past


def test_a_line_of_several_values_is_not_copied(repo):
    # the line's other value (the cleaner's day) may be what a later change is of
    now, _ = _two_sessions(
        repo,
        "Kofi walks Biscuit for £12 a walk and Ines cleans on Thursdays.",
        "Kofi is putting his price up to £14 a walk.",
    )
    assert "£12" not in now
    assert not [ln for ln in now.splitlines() if "£14" in ln and "Ines cleans" in ln]


def test_a_day_gone_by_is_never_edited(repo):
    now, _ = _two_sessions(
        repo,
        "The shed roof blew off on 1 April, the insurer is sending someone.",
        "The assessor came on 15 April instead of the 10th.",
    )
    assert "blew off on 15 April" not in now and "(2035-04-15), the insurer" not in now


def test_a_section_of_current_lines_comes_before_past():
    page = Page(
        "Notes",
        sections={
            "Facts": ["- a"],
            "Past": ["- b"],
            "How things are set up": ["- c"],
            "Sessions": ["- d"],
        },
    )
    _order_sections(page)
    assert list(page.sections) == ["Facts", "How things are set up", "Past", "Sessions"]
