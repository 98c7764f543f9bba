"""A dream or a made-up story told to the assistant is no fact about anyone
(`doctree.agent.offline.fiction`): its sentences are left out, the real ones around it kept."""

from __future__ import annotations

from doctree.agent.offline.fiction import outside_fiction
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import page_lines, run, transcript


def test_the_sentences_of_a_dream_are_left_out_until_it_closes():
    said = [
        "Had such a vivid nightmare last night.",
        "My landlord Piotr sold the flat to a circus.",
        "Then my sister was a pilot flying us to Peru.",
        "I woke up at 4 and couldn't sleep.",
        "My rent review with Piotr is on 3 March.",
    ]
    assert outside_fiction(said) == [said[0], said[3], said[4]]


def test_a_made_up_story_is_left_out_and_what_follows_it_for_the_record_is_kept():
    said = [
        "I'm writing a story for my niece Ada, she's 7.",
        "There's a fox called Juniper who runs a post office on the moon.",
        "His brother Bramble is a baker.",
        "For the record, Ada's real birthday is 9 June.",
    ]
    assert outside_fiction(said) == [said[0], said[3]]


def test_a_wish_a_dream_job_or_a_story_in_the_news_opens_nothing():
    for said in (
        ["I dream of a house by the sea.", "We move to Leith on 2 May."],
        ["My dream job would be at the RSPB.", "The interview is on Friday."],
        ["The story in the paper was about our street.", "Our bins go on Tuesdays."],
    ):
        assert outside_fiction(said) == said


def test_a_request_about_memory_inside_a_dream_is_read_and_closes_it():
    said = [
        "I dreamt that Marek quit his job.",
        "He moved to Oslo in the dream.",
        "Don't save anything about Marek, by the way.",
        "The boat trip was wild.",
    ]
    assert outside_fiction(said) == [said[0], said[2], said[3]]


def test_a_dream_that_nothing_closes_runs_to_four_sentences():
    said = ["Had a strange dream.", *(f"Odd thing {i} happened." for i in range(1, 6))]
    assert outside_fiction(said) == [said[0], said[5]]


def test_characters_of_a_bedtime_story_make_no_page_and_real_facts_stay(
    repo: DocumentsRepository,
):
    message = (
        "I've been telling a bedtime story to my daughter Nell, she's 6. "
        "There's an owl called Quillon who lives in the clock tower in Ripon, and his cousin "
        "Sorrel sells umbrellas to snails. Nell loves it. "
        "For the record, Nell's swimming lesson moved to Wednesdays at 5pm."
    )
    run(repo, transcript("s-f1", ("user", "2031-10-06T19:00:00Z", message)))
    now, _ = page_lines(repo)
    paths = [d.path for d in repo.documents("main", "~/memory")]
    assert not any("quillon" in p or "sorrel" in p for p in paths), paths
    assert not any("Quillon" in ln or "Sorrel" in ln or "umbrellas" in ln for ln in now), now
    assert any("Wednesdays" in ln for ln in now), now
