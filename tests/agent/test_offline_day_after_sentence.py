"""A sentence that is only a day ("Yesterday.", "Last night.") is the day of the sentence
before it, said with it; after a question, or with more said, it stands alone."""

from __future__ import annotations

import pytest

from doctree.agent.offline.segment import split_sentences
from tests.agent.offline_runs import current_facts, run, transcript


@pytest.mark.parametrize(
    ("paragraph", "sentences"),
    [
        ("I passed my driving test. Yesterday. Still shaking.",
         ["I passed my driving test. Yesterday.", "Still shaking."]),
        ("Got the keys to the flat! This morning. Moving in soon.",
         ["Got the keys to the flat! This morning.", "Moving in soon."]),
        ("Sold the old bike. Last night.", ["Sold the old bike. Last night."]),
    ],
)  # fmt: skip
def test_a_sentence_that_is_only_a_day_is_said_with_the_one_before(paragraph, sentences):
    assert split_sentences(paragraph) == sentences


@pytest.mark.parametrize(
    ("paragraph", "first"),
    [
        ("When did you post it? Yesterday. It should be there soon.", "When did you post it?"),
        ("I posted it. Yesterday was hectic.", "I posted it."),
        ("I posted it. Yesterday I rang them too.", "I posted it."),
        # a day said again for effect
        (
            "The plumber moved us to Friday. Friday! I work Fridays.",
            "The plumber moved us to Friday.",
        ),
    ],
)
def test_a_day_after_a_question_or_said_with_more_stands_alone(paragraph, first):
    assert split_sentences(paragraph)[0] == first


def test_the_day_of_a_sentence_said_after_it_is_written_on_its_line(repo):
    run(
        repo,
        transcript(
            "s-day",
            ("user", "2031-06-12T18:00:00Z",
             "I swam my first mile in the lake. Yesterday. Took 41 minutes."),
        ),
    )  # fmt: skip
    now = current_facts(repo)
    assert any("first mile" in ln and "2031-06-11" in ln for ln in now.splitlines()), now
