""" "Forget that" said as "any of that", "all of that", "keep that out of your notes" or "none of
that goes anywhere" takes back what was just said, as "forget that" does; the statement said
before it on something else stays. Keeping something out of a report, a mail or a talk is no
request of memory."""

from __future__ import annotations

import pytest

from doctree.agent.offline.language import forget_request
from tests.agent.offline_runs import everything, run, transcript


@pytest.mark.parametrize(
    ("messages", "kept", "gone"),
    [
        (["The window cleaner comes on April 8th.", "My nephew Caius was suspended from school.",
          "don't put any of that anywhere"],
         ["window cleaner"], ["suspended"]),
        (["The window cleaner comes on April 8th.",
          "My nephew Caius was suspended from school. Keep that out of your notes."],
         ["window cleaner"], ["suspended"]),
        (["The window cleaner comes on April 8th.", "My nephew Caius was suspended from school.",
          "none of that goes in your notes, ok?"],
         ["window cleaner"], ["suspended"]),
        (["The window cleaner comes on April 8th.", "My nephew Caius was suspended from school.",
          "scrub all of it"],
         ["window cleaner"], ["suspended"]),
        (["The window cleaner comes on April 8th.",
          "My nephew Caius was suspended from school, don't write any of that down."],
         ["window cleaner"], ["suspended"]),
    ],
)  # fmt: skip
def test_any_of_that_takes_back_what_was_just_said(repo, messages, kept, gone):
    times = [f"2031-04-01T09:{i:02d}:00Z" for i in range(len(messages))]
    run(repo, transcript("s-any", *[("user", t, m) for t, m in zip(times, messages, strict=True)]))
    text = everything(repo, archive=False)
    for k in kept:
        assert k in text, (k, text)
    for g in gone:
        assert g not in text, (g, text)


@pytest.mark.parametrize(
    "sentence",
    [
        "Keep that out of the report until the audit is done.",
        "Don't put any of that in the slides.",
        "Delete all that clutter from the hallway.",
        "I can't forget all of that.",
        "None of that goes in the recycling.",
    ],
)
def test_keeping_something_out_of_anything_but_memory_asks_nothing(sentence):
    assert forget_request(sentence) is None


def test_a_line_kept_out_of_a_report_stays(repo):
    run(repo, transcript("s-report", ("user", "2031-04-01T09:00:00Z",
        "Our churn rose to 7% in March. Keep that out of the board report for now.")))  # fmt: skip
    assert "7%" in everything(repo, archive=False)
