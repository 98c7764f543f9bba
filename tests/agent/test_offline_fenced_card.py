"""A fenced card or sheet that holds a table drawn with bars between lines of notes: the
notes are read as the user's own; a block of code, or one with no notes, is left as it
was."""

from __future__ import annotations

from doctree.agent.offline.blocks import unfence_text
from tests.agent.offline_runs import current_facts, run, transcript

CARD = """Here's the plan for the relay:

```
RELAY PLAN        Captain: Oona Ferris
Stage | From        | To          | km
------+-------------+-------------+----
 1    | Ambleside   | Grasmere    | 6.1
 2    | Grasmere    | Dunmail     | 5.4
Total 11.5 km, two runners a stage.
Support driver: Piet Ansel (brother) 07700 900555
```"""


def test_the_notes_around_a_fenced_table_are_read_after_it():
    opened = unfence_text(CARD)
    tail = opened.rsplit("```", 1)[1]
    assert "Total 11.5 km, two runners a stage." in tail
    assert "Captain: Oona Ferris" in tail
    assert "Ambleside" not in tail  # the table stays in its fence


def test_a_fenced_table_with_code_beside_it_is_left_as_it_was():
    text = "```\nx = load()\nname | km | time\n---+----+-----\nA | 1 | 2\nB | 3 | 4\nprint(x)\n```"
    assert unfence_text(text) == text


def test_a_fenced_table_alone_is_left_as_it_was():
    text = "```\nname | km | time\n-----+----+-----\nA | 1 | 2\nB | 3 | 4\n```"
    assert unfence_text(text) == text


def test_a_cards_notes_are_kept(repo):
    run(repo, transcript("s-card", ("user", "2031-06-02T09:00:00Z", CARD)))
    now = current_facts(repo)
    assert "11.5 km" in now, now
    assert any("Piet Ansel" in ln and "brother" in ln for ln in now.splitlines()), now
