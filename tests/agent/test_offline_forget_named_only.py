"""A request that names only the thing to let go of, in the ways people say it ("Forget the
plumber.", "drop the allotment, please", "you can forget Bea now", "never mind the boiler,
don't keep it", "no need to remember my shoe size"), removes the lines that say it and
nothing else. A thing called by a short word ("the van", "the GP") is found as a longer one
is; one clause of a line goes when only it says the thing; "my old number" takes only the
value memory holds as past. Words of forgetting that turn down the assistant's suggestion,
say something of oneself, or set a concern aside ask nothing."""

from __future__ import annotations

import pytest

from doctree.agent.offline.language import bare_forget
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import current_facts, page_lines, run, transcript

DAY1 = "2031-07-01T10:00:00Z"
DAY2 = "2031-07-08T10:00:00Z"
DAY3 = "2031-07-15T10:00:00Z"


def told(repo: DocumentsRepository) -> None:
    run(
        repo,
        transcript(
            "s-told",
            ("user", DAY1, "My allotment plot rent is £65 a year."),
            ("user", "2031-07-01T10:01:00Z", "My cousin Bea works at the planetarium."),
            ("user", "2031-07-01T10:02:00Z", "My GP is Dr Okafor at Riverside Practice."),
            ("user", "2031-07-01T10:03:00Z", "My van is due its MOT on 9 September."),
        ),
    )


def every_line(repo: DocumentsRepository) -> str:
    now, past = page_lines(repo)
    return "\n".join(now + past)


@pytest.mark.parametrize(
    ("request_", "gone", "stays"),
    [
        ("Drop the allotment plot, please.", "£65", ["planetarium", "Okafor", "MOT"]),
        ("Let go of the allotment stuff.", "£65", ["planetarium", "Okafor", "MOT"]),
        ("Never mind the allotment plot, don't keep it.", "£65", ["planetarium", "MOT"]),
        ("Never mind the allotment plot.", "£65", ["planetarium", "MOT"]),
        ("No need to remember the allotment plot.", "£65", ["planetarium", "MOT"]),
        ("Stop remembering the allotment plot.", "£65", ["planetarium", "MOT"]),
        ("You can forget the allotment plot now.", "£65", ["planetarium", "MOT"]),
        ("Forget the GP.", "Riverside", ["planetarium", "£65", "MOT"]),
        ("Forget the van.", "MOT", ["planetarium", "£65", "Okafor"]),
        ("Forget Bea.", "planetarium", ["£65", "Okafor", "MOT"]),
        ("I take back what I said about the allotment plot.", "£65", ["planetarium", "MOT"]),
    ],
)
def test_a_request_naming_only_its_thing_removes_only_it(repo, request_, gone, stays):
    told(repo)
    run(repo, transcript("s-ask", ("user", DAY2, request_)))
    facts = current_facts(repo)
    assert gone not in every_line(repo)
    for word in stays:
        assert word in facts


def test_dont_forget_one_thing_but_forget_another(repo):
    run(
        repo,
        transcript(
            "s-both",
            ("user", DAY1, "My allotment plot rent is £65 a year."),
            (
                "user",
                "2031-07-01T10:01:00Z",
                "Don't forget my niece's recital is on 3 August, but forget the allotment plot.",
            ),
        ),
    )
    facts = current_facts(repo)
    assert "3 August" in facts
    assert "£65" not in every_line(repo)


def test_a_forget_of_one_clause_keeps_the_other(repo):
    run(
        repo,
        transcript("s-a", ("user", DAY1, "I have a ferret called Pip and I sing in a choir.")),
    )
    run(repo, transcript("s-b", ("user", DAY2, "Forget the ferret.")))
    facts = current_facts(repo)
    assert "choir" in facts
    assert "ferret" not in every_line(repo)


def test_forgetting_the_old_value_keeps_the_new(repo):
    run(repo, transcript("s-1", ("user", DAY1, "My home phone number is 01632 960111.")))
    run(repo, transcript("s-2", ("user", DAY2, "My new home phone number is 01632 960222.")))
    assert "960111" in every_line(repo)  # under Past
    run(repo, transcript("s-3", ("user", DAY3, "Forget my old home phone number.")))
    assert "960222" in current_facts(repo)
    assert "960111" not in every_line(repo)


@pytest.mark.parametrize(
    ("suggestion", "reply"),
    [
        ("I could book the allotment plot viewing for Saturday.", "Forget the allotment plot."),
        ("Do you want me to set a reminder for the van?", "Forget the van."),
    ],
)
def test_turning_down_the_assistant_keeps_the_lines(repo, suggestion, reply):
    told(repo)
    run(
        repo,
        transcript(
            "s-ask",
            ("assistant", DAY2, suggestion),
            ("user", "2031-07-08T10:01:00Z", reply),
        ),
    )
    facts = current_facts(repo)
    assert "£65" in facts and "MOT" in facts


@pytest.mark.parametrize(
    "said",
    [
        "I need to let go of the anger about that job.",
        "I always forget my van keys.",
        "Forget the van, we'll take the train on Sunday.",
        "Never mind the cost.",
        "I drop the kids at school at 8:15.",
        "Don't forget the van.",
        "She said to forget the allotment plot.",
        "Forget Tuesday.",
    ],
)
def test_words_of_forgetting_that_ask_nothing(said):
    assert bare_forget(said) is None


def test_a_sentence_that_asks_nothing_keeps_the_lines(repo):
    told(repo)
    run(repo, transcript("s-ask", ("user", DAY2, "I always forget my van keys.")))
    assert "MOT" in current_facts(repo)


def test_a_request_naming_two_things_removes_both(repo):
    told(repo)
    run(repo, transcript("s-ask", ("user", DAY2, "Forget the van and the GP, please.")))
    lines = every_line(repo)
    assert "MOT" not in lines and "Riverside" not in lines
    facts = current_facts(repo)
    assert "£65" in facts and "planetarium" in facts


@pytest.mark.parametrize(
    "said", ["Forget the van and the weekend.", "Forget the van and I'll ring you later."]
)
def test_a_list_with_a_time_or_a_clause_asks_nothing(said):
    assert bare_forget(said) is None


@pytest.mark.parametrize(
    "said",
    [
        "Let go of the rope slowly, the instructor said.",  # a manner and a speaker
        "Forget the ring road, the flyover is shut.",  # a clause of its own
        "Drop the asking price to 240,000.",  # a value moved
    ],
)
def test_an_instruction_or_a_clause_is_no_request(said):
    assert bare_forget(said) is None


def test_an_instruction_said_keeps_every_line(repo):
    told(repo)
    before = current_facts(repo)
    run(
        repo,
        transcript(
            "s-rope",
            ("user", DAY2, "Let go of the van handle slowly, the mechanic said."),
            ("assistant", DAY2, "Noted."),
        ),
    )
    after = current_facts(repo)
    assert [ln for ln in before.splitlines() if ln not in after] == []
