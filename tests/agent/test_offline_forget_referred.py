"""A request to forget a thing finds it by every way the conversation named it: the user's
sentence that never says the word, which the assistant restated with it (they share values:
an address, an amount, a name), and the sentences going on from it; and it takes exactly
those, never a neighbouring line."""

from __future__ import annotations

import pytest

from doctree.agent.offline import OfflineMemoryAgent
from doctree.agent.offline.referred import ThingTest, referred
from doctree.agent.offline.segment import segment
from doctree.interop.tools import MemoryTools
from doctree.sessions.transcripts import Transcript, parse_transcript
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import current_facts, transcript

MONDAY = "2031-06-02T18:00:00Z"
NEXT_MONDAY = "2031-06-09T18:00:00Z"
DENTIST = "The dentist is on 3 June with Dr Osei."


def run_all(repo: DocumentsRepository, *texts: str, earlier: bool = True):
    """Each session in turn, each able to read the ones before (as `doctree replay` gives
    them from their record, unless `earlier` is False); the last run's summary."""
    said: dict[str, Transcript] = {}
    summary = None
    for text in texts:
        t = parse_transcript(text)
        summary = OfflineMemoryAgent().run(
            text,
            MemoryTools(repo, t.owner, session_id=t.session_id),
            earlier=said.get if earlier else None,
        )
        said[t.session_id] = t
    return summary


def monday(said: str, restated: str) -> str:
    return transcript(
        "s-first",
        ("user", MONDAY, f"{DENTIST} {said}"),
        ("assistant", "2031-06-02T18:01:00Z", f"Noted the dentist with Dr Osei on 3 June, {restated}"),
    )  # fmt: skip


CASES = [
    (
        "Went to look at a two-bed on 9 Larch Close, £890 a month, we liked the garden.",
        "and the flat on 9 Larch Close (£890 a month).",
        "Scrap what I told you last Monday about the flat.",
        ("Larch Close", "890"),
    ),
    (
        "Put down £350 on a secondhand cello from Harrow Strings, I collect it in July.",
        "and the instrument from Harrow Strings (£350 down).",
        "Forget what I said last Monday about the instrument.",
        ("Harrow Strings", "350"),
    ),
    (
        "Booked a week at Penhallow Farm from 14 to 21 August, £1,300 all in.",
        "and the holiday at Penhallow Farm (£1,300, 14 to 21 August).",
        "Ignore everything from our chat on the 2nd about the holiday.",
        ("Penhallow", "1,300"),
    ),
]


@pytest.mark.parametrize(("said", "restated", "request_", "gone"), CASES)
def test_an_earlier_sentence_named_only_in_the_assistants_restatement_goes(
    repo, said, restated, request_, gone
):
    summary = run_all(
        repo,
        monday(said, restated),
        transcript("s-later", ("user", NEXT_MONDAY, request_)),
    )
    facts = current_facts(repo)
    for value in gone:
        assert value not in facts
    assert "Dr Osei" in facts  # the other thing said in the same message stays
    # what leaves that conversation's record: the sentence, and the clause restating it
    record = summary.withheld_earlier["s-first"]
    assert (MONDAY, said) in record
    assert ("2031-06-02T18:01:00Z", restated.rstrip(".").replace("and", ", and", 1)) in record
    assert not any(DENTIST in x for _, x in record)


@pytest.mark.parametrize(("said", "restated", "request_", "gone"), CASES)
def test_without_the_earlier_conversation_nothing_is_removed_and_the_page_says_so(
    repo, said, restated, request_, gone
):
    summary = run_all(
        repo,
        monday(said, restated),
        transcript("s-later", ("user", NEXT_MONDAY, request_)),
        earlier=False,
    )
    assert gone[0] in current_facts(repo)  # not known to be the thing: a wrong erase is worse
    assert not summary.withheld_earlier
    assert any("said nothing of it" in n for n in summary.notes)


@pytest.mark.parametrize(
    "request_",
    [
        "Actually forget about the flat, we're not going for it.",
        "Please drop the stuff about the flat.",
        "Can you remove everything about the flat?",
    ],
)
def test_in_the_same_session_the_restated_sentence_and_its_continuation_go(repo, request_):
    run_all(
        repo,
        transcript(
            "s-one",
            ("user", MONDAY, f"{DENTIST} Went to see a two-bed on 9 Larch Close, £890 a month. "
             "It has a south-facing garden. Tom starts nursery in September."),
            ("assistant", "2031-06-02T18:01:00Z",
             "Noted the dentist, and the flat on 9 Larch Close (£890 a month)."),
            ("user", "2031-06-02T18:05:00Z", request_),
        ),
    )  # fmt: skip
    facts = current_facts(repo)
    assert "Larch Close" not in facts and "south-facing" not in facts
    assert "Dr Osei" in facts and "nursery" in facts


def test_a_restatement_maps_back_only_to_the_sentence_sharing_its_values():
    t = parse_transcript(
        transcript(
            "s-one",
            ("user", MONDAY, "The car repair at Dunmore Garage came to £890. "
             "Viewed a two-bed on 9 Larch Close at £890 a month. That reminds me, "
             "Ana's birthday is on Friday."),
            ("assistant", "2031-06-02T18:01:00Z",
             "Noted the repair, and the flat on 9 Larch Close (£890 a month)."),
        )
    )  # fmt: skip
    found = referred(segment(t).turns, ThingTest({"flat"}))
    assert found.said == ["Viewed a two-bed on 9 Larch Close at £890 a month."]
    assert found.restating == [", and the flat on 9 Larch Close (£890 a month)"]


def test_a_restatement_sharing_one_value_names_nothing():
    t = parse_transcript(
        transcript(
            "s-one",
            ("user", MONDAY, "Viewed a two-bed near Larchfield last night."),
            ("assistant", "2031-06-02T18:01:00Z", "Noted the flat near Larchfield."),
        )
    )  # fmt: skip
    # one value shared ("Larchfield") is not enough to tell: nothing is taken
    found = referred(segment(t).turns, ThingTest({"flat"}))
    assert found.said == [] and found.restating == []


def test_the_rows_after_a_pasted_tables_row_stay(repo):
    table = (
        "| date | shop | item | amount |\n|---|---|---|---|\n"
        "| 04/03 | Orla Books | atlas | £42.00 |\n"
        "| 09/03 | Quayside Hotel | 2 nights | £260.00 |\n"
        "| 12/03 | B2 Print | 20 posters | £42.00 |\n"
    )
    run_all(
        repo,
        transcript(
            "s-one",
            ("user", MONDAY, f"My March costs, please keep them:\n\n{table}"),
            ("user", "2031-06-02T18:05:00Z",
             "Take the Quayside Hotel out altogether, that was a personal trip."),
        ),
    )  # fmt: skip
    facts = current_facts(repo)
    assert "Quayside" not in facts
    assert "Orla Books" in facts and "B2 Print" in facts


def test_a_date_of_the_earlier_conversation_that_has_passed_goes_from_its_week_page(repo):
    run_all(
        repo,
        transcript(
            "s-first",
            ("user", MONDAY, f"{DENTIST} Booked two places on the Ashby Hall tour for "
             "Thursday 5 June, £12 each."),
            ("assistant", "2031-06-02T18:01:00Z",
             "Noted the dentist, and the open day at Ashby Hall on 5 June (£12 a place)."),
        ),
        transcript("s-later", ("user", NEXT_MONDAY,
                               "Forget what I told you last Monday about the open day.")),
    )  # fmt: skip
    everything = "\n".join(d.body for d in repo.documents("main", "~/memory"))
    assert "Ashby" not in everything  # also not under the week's dates that passed
    assert "Dr Osei" in everything


@pytest.mark.parametrize(
    ("note", "request_", "rest"),
    [
        (
            "- note to self: the credit union lent me £900 for the van. pay back £90 a month",
            "and scrap the note about the loan entirely",
            "£90",
        ),
        (
            "- reminder: sold the old piano for £400 to a neighbour. buyer collects it in May",
            "Please forget the bit about the sale.",
            "collects",
        ),
        (
            "* borrowed the long ladder from next door for the gutters. return it by the 20th",
            "Actually drop the note about the ladder.",
            "return it",
        ),
    ],
)
def test_the_rest_of_a_note_goes_with_it_and_the_next_note_stays(repo, note, request_, rest):
    run_all(
        repo,
        transcript(
            "s-notes",
            ("user", MONDAY, f"Jotting a few things down:\n\n{note}\n- {DENTIST}\n"
             "- the boiler service is on 14 June"),
        ),
        transcript("s-later", ("user", NEXT_MONDAY, request_)),
    )  # fmt: skip
    facts = current_facts(repo)
    assert rest not in facts  # the rest of the note's line went with it
    assert "Dr Osei" in facts and "boiler" in facts  # the next notes are their own


def test_the_rest_of_a_paragraph_is_no_part_of_a_thing_forgotten_in_it(repo):
    run_all(
        repo,
        transcript(
            "s-para",
            ("user", MONDAY, "Long week. The credit union lent me £900 for the van. "
             "The boiler service is on 14 June. Mira starts her new job on Monday."),
        ),
        transcript("s-later", ("user", NEXT_MONDAY, "And scrap the note about the loan.")),
    )  # fmt: skip
    facts = current_facts(repo)
    assert "£900" not in facts
    assert "boiler" in facts and "Mira" in facts
