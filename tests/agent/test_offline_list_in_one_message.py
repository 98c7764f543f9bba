"""Lines of one message that say the same words with other values ("Class: Tue 4 Nov",
"Class: Tue 11 Nov", "Class: Tue 18 Nov") are a list: every one stays current. Only the
last stayed, the others went under Past or were lost. A later line of the same message that
says it puts one right ("sorry", "now", "moved") still replaces, and so does a later message."""

from __future__ import annotations

from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript


def _lines(repo: DocumentsRepository) -> list[str]:
    return [
        ln
        for d in repo.documents("main", "~/memory")
        if "/archive/" not in d.path
        for ln in d.body.split("\n")
        if ln.startswith("- ")
    ]


def _current(lines: list[str], value: str) -> bool:
    return any(value in ln and "— past" not in ln for ln in lines)


def test_like_lines_of_one_message_are_all_kept(repo):
    run(
        repo,
        transcript(
            "s-one",
            (
                "user",
                "2030-10-28T09:00:00Z",
                "Pottery course booked.\nClass: Tue 4 Nov 18:30\nClass: Tue 11 Nov 18:30\n"
                "Class: Tue 18 Nov 18:30",
            ),
            ("assistant", "2030-10-28T09:01:00Z", "Lovely, noted."),
        ),
    )
    lines = _lines(repo)
    for day in ("2030-11-04", "2030-11-11", "2030-11-18"):
        assert _current(lines, day), (day, lines)


def test_a_line_that_puts_one_right_in_the_same_message_still_replaces(repo):
    run(
        repo,
        transcript(
            "s-one",
            (
                "user",
                "2030-10-28T09:00:00Z",
                "The boiler service is at 8:15. Sorry, the boiler service is at 9:45.",
            ),
            ("assistant", "2030-10-28T09:01:00Z", "Noted."),
        ),
    )
    lines = _lines(repo)
    assert _current(lines, "9:45"), lines
    assert not _current(lines, "8:15"), lines


def test_a_later_message_still_replaces_without_a_word_for_it(repo):
    run(
        repo,
        transcript(
            "s-one",
            ("user", "2030-10-28T09:00:00Z", "The boiler service is at 8:15."),
            ("assistant", "2030-10-28T09:01:00Z", "Noted."),
            ("user", "2030-10-28T09:05:00Z", "The boiler service is at 9:45."),
            ("assistant", "2030-10-28T09:06:00Z", "Noted."),
        ),
    )
    lines = _lines(repo)
    assert _current(lines, "9:45"), lines
    assert not _current(lines, "8:15"), lines
