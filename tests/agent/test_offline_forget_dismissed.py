"""A "forget it" that gives up a task ("forget it, I'll book it myself", "oh forget it, not
worth the hassle") asks nothing to be forgotten: every line the user said stays. A "forget it"
that goes on to ask that what was said not be kept still asks it."""

from __future__ import annotations

import pytest

from doctree.agent.offline.language import dismisses, forget_request
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import page_lines, run, transcript

T = [f"2028-04-02T10:0{i}:00Z" for i in range(6)]
SAID = "My nephew Tobias is visiting from Leeds on 14 May."


def _lines(repo: DocumentsRepository) -> list[str]:
    now, _ = page_lines(repo)
    return now


@pytest.mark.parametrize(
    "reply",
    [
        "Forget it, I'll reserve the table myself.",
        "ugh forget it, not worth the bother",
        "oh forget it, I'll get my brother to do it someone else can sort it",
        "Forget it, I'll ring a different place someone else recommended.",
        "Ah, forget it. I'll sort it out myself tomorrow.",
        "Never mind, forget it, too pricey anyway.",
        "Forget about it, doesn't matter.",
    ],
)
def test_a_task_given_up_keeps_every_line(repo, reply):
    run(
        repo,
        transcript(
            "s-a",
            ("user", T[0], SAID),
            ("assistant", T[1], "Lovely. Shall I book somewhere for dinner that evening?"),
            ("user", T[2], reply),
        ),
    )
    assert any("Tobias" in ln for ln in _lines(repo)), _lines(repo)


@pytest.mark.parametrize(
    "reply",
    [
        "Forget it, I'd rather you didn't keep that.",
        "forget it — don't write that down",
        "Forget it, too personal, just don't keep it.",
    ],
)
def test_a_forget_it_that_asks_still_asks(repo, reply):
    run(
        repo,
        transcript(
            "s-a",
            ("user", T[0], SAID),
            ("assistant", T[1], "Noted."),
            ("user", T[2], reply),
        ),
    )
    assert not any("Tobias" in ln for ln in _lines(repo)), _lines(repo)


@pytest.mark.parametrize(
    "sentence",
    [
        "Forget it, I'll pick them up myself.",
        "forget it, not worth the effort",
        "nah forget it, I'll ask somebody else",
        "Forget it, it's too far.",
        "Forget it, I give up.",
    ],
)
def test_dismissals_ask_nothing(sentence):
    assert forget_request(sentence) is None


@pytest.mark.parametrize(
    ("sentence", "after"),
    [
        ("My cousin is pregnant, forget it, I'll tell you later.", ""),  # it said something
        ("Forget it, I'll tell you some other time.", ""),  # telling: what was said
        ("Forget it.", "I'd rather you didn't keep that."),
        ("Forget that.", "I'll do it myself."),  # "that" names what was said
    ],
)
def test_not_a_dismissal(sentence, after):
    assert not dismisses(sentence, after)


@pytest.mark.parametrize(
    ("offer", "reply"),
    [
        ("Lovely. Shall I book somewhere for dinner that evening?", "Forget it."),
        ("Lovely. Do you want me to look up trains from Leeds?", "nah forget it"),
        ("Lovely. Would you like a few ideas for the weekend?", "ok forget it then"),
        ("Nice. Can I suggest a museum or two?", "Forget it. Thanks anyway."),
    ],
)
def test_a_forget_it_declining_an_offer_keeps_every_line(repo, offer, reply):
    """ "Forget it" alone, answering the assistant's offer or question, declines it: the
    user's line before stays."""
    run(
        repo,
        transcript(
            "s-a",
            ("user", T[0], SAID),
            ("assistant", T[1], offer),
            ("user", T[2], reply),
        ),
    )
    assert any("Tobias" in ln for ln in _lines(repo)), _lines(repo)


@pytest.mark.parametrize(
    ("offer", "reply"),
    [
        ("Noted.", "Forget it."),  # no offer: what was said is taken back
        ("Shall I save that to your notes?", "nah forget it"),  # declines keeping it
        ("Shall I book somewhere for dinner?", "forget it, please don't keep that"),
        ("Shall I book somewhere for dinner?", "Forget it. I'd rather that wasn't kept."),
    ],
)
def test_a_forget_it_after_an_offer_that_asks_still_asks(repo, offer, reply):
    run(
        repo,
        transcript(
            "s-a",
            ("user", T[0], SAID),
            ("assistant", T[1], offer),
            ("user", T[2], reply),
        ),
    )
    assert not any("Tobias" in ln for ln in _lines(repo)), _lines(repo)


def test_a_statement_before_forget_it_is_taken_back_after_an_offer(repo):
    run(
        repo,
        transcript(
            "s-a",
            ("assistant", T[0], "Would you like help planning May?"),
            ("user", T[1], f"{SAID} Forget it."),
        ),
    )
    assert not any("Tobias" in ln for ln in _lines(repo)), _lines(repo)


@pytest.mark.parametrize(
    ("suggestion", "reply"),
    [
        ("Maybe he could try a different driving instructor?", "Forget that idea."),
        ("You could ask his school about a tutor.", "forget that, he'd never go"),
        ("Would it help to find him a weekend course?", "Nah, forget it."),
        ("How about a bike instead of the train?", "scratch that, too far"),
    ],
)
def test_a_forget_that_turning_down_a_suggestion_keeps_every_line(repo, suggestion, reply):
    """ "Forget that" right after the assistant's suggestion or offer, naming nothing but
    "that" and saying nothing of saying or keeping, turns the suggestion down."""
    run(
        repo,
        transcript(
            "s-a",
            ("user", T[0], SAID),
            ("assistant", T[1], suggestion),
            ("user", T[2], reply),
        ),
    )
    assert any("Tobias" in ln for ln in _lines(repo)), _lines(repo)


@pytest.mark.parametrize(
    "reply",
    [
        "forget that, I shouldn't have told you.",
        "Forget that. Don't keep it.",
        "Forget I said that.",
        "Forget that, it's private.",
    ],
)
def test_a_forget_that_after_a_suggestion_that_speaks_of_saying_still_asks(repo, reply):
    run(
        repo,
        transcript(
            "s-a",
            ("user", T[0], SAID),
            ("assistant", T[1], "You could take him to the science museum."),
            ("user", T[2], reply),
        ),
    )
    assert not any("Tobias" in ln for ln in _lines(repo)), _lines(repo)
