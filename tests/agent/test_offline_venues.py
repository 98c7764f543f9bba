"""A named venue ("at the Crown") is a value a later one replaces, like a date; a statement
whose verb is a word in -s after a plain noun ("Book club meets at …") is kept."""

from __future__ import annotations

import pytest

from doctree.agent.offline.language import has_verb
from doctree.agent.offline.supersession import replacements
from tests.agent.offline_runs import current_facts, past_facts, run, transcript

DAY = "2032-09-01T09:00:00Z"
LATER = "2032-09-01T09:05:00Z"


@pytest.mark.parametrize(
    "old, new, was, now",
    [
        ("The quiz night is at the Red Lion on Friday.",
         "Change of plan: the quiz night has moved to the Bell & Anchor.", "red lion",
         "bell & anchor"),
        ("Choir practice is at the Guildhall this term.",
         "Choir practice is at the Methodist Hall now.", "guildhall", "methodist hall"),
    ],
)  # fmt: skip
def test_a_later_venue_replaces_the_earlier(old, new, was, now):
    reps = replacements(new, old)
    assert [(r.old.norm, r.new.norm) for r in reps if r.kind == "venue"] == [(was, now)]


@pytest.mark.parametrize(
    "old, new",
    [
        # another thing at another venue: two facts
        ("The quiz night is at the Red Lion on Friday.", "Karaoke is at the Bell now."),
        # no word of change and not the same thing said the same way
        ("We had lunch at the Crown.", "The wedding reception is at the Grange."),
    ],
)
def test_a_venue_of_another_thing_replaces_nothing(old, new):
    assert not [r for r in replacements(new, old) if r.kind == "venue"]


def test_the_old_venue_goes_under_past(repo):
    run(
        repo,
        transcript(
            "s-venue",
            ("user", DAY, "The allotment society AGM is at the Corn Exchange on 3 October."),
            ("assistant", DAY, "Noted."),
            ("user", LATER, "Update: the AGM has moved to the Scout Hut, same date."),
        ),
    )
    now, past = current_facts(repo), past_facts(repo)
    assert "Scout Hut" in now
    assert "Corn Exchange" not in now
    assert "Corn Exchange" in past


@pytest.mark.parametrize(
    "text, verb",
    [
        ("Book group meets at the library on the first Monday.", True),
        ("The recycling lorry comes every other Tuesday.", True),
        ("Pottery class restarts on 12 January.", True),
        ("The fish van visits on Thursdays.", True),
        # a noun in -s is no verb
        ("Gym kit and towels by the door.", False),
    ],
)
def test_a_verb_in_s_after_a_noun_is_a_verb(text, verb):
    assert has_verb(text) is verb


@pytest.mark.parametrize(
    "old, new, now",
    [
        ("The book swap is at the Old Library on Saturday.", "The book swap is at Priya's now.",
         "priya's"),
        ("Our games night is at the Crown in Leeds.",
         "Games night has moved to Tomasz's flat instead.", "tomasz's"),
    ],
)  # fmt: skip
def test_someones_home_is_a_venue_that_replaces_the_earlier(old, new, now):
    reps = replacements(new, old)
    assert [r.new.norm for r in reps if r.kind == "venue"] == [now]


@pytest.mark.parametrize(
    "old, new",
    [
        # a possessive that is no place: a request, a surprise
        ("The book swap is at the Old Library on Saturday.",
         "The book swap moved at Priya's request."),
        ("The book swap is at the Old Library on Saturday.",
         "The book swap moved, to Priya's surprise."),
        # another thing at someone's home
        ("The book swap is at the Old Library on Saturday.", "Karaoke is at Priya's now."),
    ],
)  # fmt: skip
def test_a_possessive_that_is_no_home_replaces_no_venue(old, new):
    assert not [r for r in replacements(new, old) if r.kind == "venue"]


def test_a_venue_moved_to_someones_home_leaves_the_old_line_whole_under_past(repo):
    run(
        repo,
        transcript(
            "s-venue-home",
            ("user", DAY, "The street party is on 9 August at the Bowling Club in Hove."),
            ("assistant", DAY, "Noted."),
            ("user", LATER, "The club's roof leaks, so the street party is at Delphine's now."),
        ),
    )
    now, past = current_facts(repo), past_facts(repo)
    assert "Bowling Club" not in now
    assert "the Delphine's" not in now + past  # never edited into the old line
    assert "Bowling Club" in past
