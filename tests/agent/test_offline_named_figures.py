"""A verbless line that lists figures each with the name of what it measures ("Sizes from
the tailor: neck 16, sleeve 34, waist 32") is kept as said, though no verb says anything;
a later "a 17 neck now, not 16" corrects the one figure it names, in that line."""

from __future__ import annotations

import pytest

from doctree.agent.offline import language as lang
from doctree.agent.offline.resolve import correction_of
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import current_facts, past_facts, run, transcript


@pytest.mark.parametrize(
    "said",
    [
        "Sizes from the tailor: neck 16, sleeve 34, waist 32.",
        "Bloods back: Hb 131, ferritin 40 ug and B12 280.",
        "Tyre pressures front 33, rear 36",
    ],
)
def test_a_line_of_named_figures_is_worth_keeping(said):
    assert lang.named_figures(said)
    assert lang.worth_keeping(said)


@pytest.mark.parametrize(
    "said",
    [
        "Still waiting on: collar, cuffs, hem.",  # names, no figures
        "Which one: neck 16, sleeve 34?",  # a question
        "Neck 16.",  # one figure alone is a fragment of its own
        "Thanks, see you at 5.",
    ],
)
def test_no_list_of_named_figures(said):
    assert not lang.named_figures(said)


def test_a_figure_said_to_hold_now_corrects_the_old_one():
    assert correction_of("I'm a 17 neck now, not 16.") == ("I'm a 17 neck now", "16", "17")
    assert correction_of("The shelf is 90 now, not 80.") == ("The shelf is 90 now", "80", "90")
    # without "now" (or a word of correction) two numbers are only contrasted
    assert correction_of("The shelf is 90, not 80.") is None
    # an amount or a share said to hold now is a later value of its thing, not a figure
    # looked for as said
    assert correction_of("The subs have gone up: £45 now, not £40.") is None
    assert correction_of("The interest is 4% now, not 3%.") is None


def test_the_named_figure_kept_and_corrected_in_a_later_session(repo: DocumentsRepository):
    run(
        repo,
        transcript(
            "s-sizes",
            (
                "user",
                "2027-04-01T10:00:00Z",
                "Sizes from the tailor: neck 16, sleeve 34, waist 32.",
            ),
            ("assistant", "2027-04-01T10:01:00Z", "Got them."),
        ),
    )
    assert "neck 16, sleeve 34, waist 32" in current_facts(repo)
    run(
        repo,
        transcript(
            "s-resized",
            (
                "user",
                "2027-04-20T10:00:00Z",
                "Measured again at the fitting: I'm a 17 neck now, not 16.",
            ),
            ("assistant", "2027-04-20T10:01:00Z", "Noted."),
        ),
    )
    now = current_facts(repo)
    assert "neck 17, sleeve 34, waist 32" in now, now
    assert "neck 16, sleeve 34" not in now, now
    assert "neck 16, sleeve 34" in past_facts(repo)
