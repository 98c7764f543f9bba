"""A line break inside a message ends a sentence: two people told of on two lines are two
statements, so forgetting one leaves the other's; a name no rule made a person ("sunday was
Anselm") is who a following "he" means when nobody else could be; the lines of a pasted
list are facts of their own, so a later change to one of them moves only that one."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doctree.agent.offline import segment
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript

DAY1 = "2028-02-11T21:00:00Z"
DAY2 = "2028-02-19T10:00:00Z"


def _pages(repo: DocumentsRepository) -> dict[str, str]:
    return {d.path: d.body for d in repo.documents("main", "~/memory")}


def _current(repo: DocumentsRepository) -> str:
    """Every line of the pages a person reads that holds now (not under Past)."""
    out = []
    for path, body in _pages(repo).items():
        if path.startswith("~/memory/archive"):
            continue
        out += [ln for ln in body.split("## Past")[0].split("\n") if " — past: " not in ln]
    return "\n".join(out)


TWO_LINES = (
    "sunday was Anselm - board games then a pub quiz. he's a tram driver and keeps bees\n"
    "monday was Corwin - a gallery and noodles. he plays the oboe in an orchestra"
)


def test_two_people_on_two_lines_are_two_statements(repo):
    run(repo, transcript("s-week", ("user", DAY1, TWO_LINES)))
    pages = _pages(repo)
    assert "~/memory/people/anselm" in pages, sorted(pages)
    anselm = pages["~/memory/people/anselm"]
    assert "tram driver" in anselm
    assert "oboe" not in anselm  # Corwin's line is not Anselm's


def test_forgetting_one_of_two_people_on_two_lines_keeps_the_other(repo):
    run(repo, transcript("s-week", ("user", DAY1, TWO_LINES)))
    run(
        repo,
        transcript("s-later", ("user", DAY2, "Corwin is out. wipe whatever you've got on him.")),
    )
    everything = "\n".join(_pages(repo).values())
    assert "Corwin" not in everything and "oboe" not in everything
    now = _current(repo)
    assert "tram driver" in now and "board games" in now, now


def test_he_after_two_unknown_names_stays_as_said(repo):
    """Two names no rule typed, in one sentence, then "he": either could be meant, so
    nobody's page gets it."""
    run(
        repo,
        transcript(
            "s-ride",
            ("user", DAY1, "the lift was Osric and Tamsin on friday.\nhe drives a blue van"),
        ),
    )
    pages = _pages(repo)
    assert not any("blue van" in b for p, b in pages.items() if p.startswith("~/memory/people/"))
    assert "blue van" in _current(repo)


def test_an_animal_named_as_it_is_introduced_is_a_pet_not_the_he(repo):
    run(
        repo,
        transcript(
            "s-pet",
            ("user", DAY1, "thursday was Evander - a long walk. he has a whippet called Pepper"),
        ),
    )
    pages = _pages(repo)
    assert "~/memory/people/pepper" not in pages, sorted(pages)
    assert "whippet" in pages.get("~/memory/people/evander", ""), sorted(pages)


def test_a_line_ending_on_a_comma_goes_on_below(repo):
    run(
        repo,
        transcript(
            "s-wrap",
            ("user", DAY1, "The quarterly board meeting moved to the library annexe,\nroom 4B."),
        ),
    )
    assert "annexe, room 4B" in _current(repo)


def test_a_change_to_one_line_of_a_pasted_list_moves_only_that_line(repo):
    run(
        repo,
        transcript(
            "s-pills",
            (
                "user",
                DAY1,
                "Dad's tablets now:\nBreakfast: ramipril 5 mg\nBedtime: atorvastatin 20 mg",
            ),
        ),
    )
    run(
        repo,
        transcript(
            "s-review",
            ("user", DAY2, "The GP has lowered the atorvastatin to 10 mg from today."),
        ),
    )
    now = _current(repo)
    assert "ramipril 5 mg" in now, now
    assert "atorvastatin 20 mg" not in now, now
    assert "10 mg" in now


def test_a_match_of_a_line_that_goes_on_starts_within_its_last_characters():
    # `_goes_on` searches only the end of a line: the pattern, less its closing `\s*$`,
    # matches nothing wider than that
    import re._parser as sre_parse  # type: ignore[import-not-found]

    body = segment._LINE_GOES_ON.pattern.removesuffix(r"\s*$")
    assert body != segment._LINE_GOES_ON.pattern
    assert sre_parse.parse(body, re.I).getwidth()[1] <= segment.GOES_ON_WIDTH


_LINE_PIECES = (
    st.sampled_from(
        ["and", "or", "the", "which", "their", "brand", "Band", "AND", ",", ":", "—", "-", "x"]
    )
    | st.sampled_from([" ", "  ", "\t", "\u00a0", "\u2003"])
    | st.text(max_size=3)
)


@settings(max_examples=500, deadline=None)
@given(st.lists(_LINE_PIECES, max_size=12))
def test_a_line_goes_on_where_the_whole_line_searched_says_it_does(pieces):
    line = "".join(pieces)
    assert segment._goes_on(line) == bool(segment._LINE_GOES_ON.compiled.search(line))


@pytest.mark.parametrize(
    ("line", "goes_on"),
    [
        ("we met at the", True),
        ("we met at theatre", False),
        ("lunch with Ana and   ", True),
        ("lunch with Ana, brand", False),
        ("lunch with Ana," + " " * 40, True),
        ("x" * 80 + " which", True),
        ("x" * 80 + "which", False),
    ],
)
def test_a_line_that_goes_on(line: str, goes_on: bool):
    assert segment._goes_on(line) is goes_on
