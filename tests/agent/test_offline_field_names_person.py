"""A pasted record's field whose value is a person's full name ("Site contact: Ruth
Abara"): a line of its own, kept as said, though it has no verb, no figure and no code."""

from __future__ import annotations

from doctree.agent.offline import language as lang
from tests.agent.offline_runs import run, transcript


def test_a_field_naming_a_person_is_kept(repo):
    record = (
        "Here's the card from the allotment office:\n\n```\n"
        "PLOT RECORD\n"
        "Plot:            14B, Hollins Lane\n"
        "Tenants' rep:    Ruth Abara\n"
        "Water:           standpipe by the gate\n"
        "```"
    )
    run(repo, transcript("s-1", ("user", "2027-05-03T18:00:00Z", record)))
    pages = "\n".join(
        d.body for d in repo.documents("main", "~/memory") if "/archive/" not in d.path
    )
    assert "Tenants' rep: Ruth Abara" in pages


def test_labelled_names_are_worth_keeping():
    assert lang.worth_keeping("Site contact: Ruth Abara")
    assert lang.worth_keeping("Parents' rep: Dev O'NEILL")


def test_a_field_of_plain_words_is_not_kept_as_a_name():
    # a value in lower case, or one word alone, names no one
    assert not lang.worth_keeping("Water: standpipe by")
    assert not lang.worth_keeping("Colour: Blue")
