"""Forget requests read by the offline memory agent: only the user's own request acts, it
forgets every subject it names, writes nothing new about them, and is itself a run's change
that `revert` puts back."""

from __future__ import annotations

import pytest

from doctree.memory.revert import revert_run
from doctree.store.documents import Actor, DocumentsRepository
from doctree.store.runs import Runs
from tests.agent.offline_runs import run, transcript

DAY1 = "2027-05-03T18:00:00Z"
DAY2 = "2027-05-04T09:00:00Z"
FACTS = [
    ("user", DAY1, "Had coffee with Jonas Berg today. Jonas is leaving Spotify in June."),
    ("user", "2027-05-03T18:04:00Z", "Elif Kaya told me she is getting divorced."),
    ("user", "2027-05-03T18:08:00Z", "The kitchen renovation starts on May 17."),
    ("user", "2027-05-03T18:12:00Z", "My gym is Urban Climb in Hackney, I go on Tuesdays."),
]


def pages(repo: DocumentsRepository) -> dict[str, str]:
    return {d.path: d.body for d in repo.documents("main", "~/memory")}


def holding(repo: DocumentsRepository, text: str) -> list[str]:
    return sorted(p for p, b in pages(repo).items() if text.lower() in b.lower())


def remembered(repo: DocumentsRepository) -> None:
    run(repo, transcript("s-facts", *FACTS))
    assert holding(repo, "Urban Climb") and holding(repo, "renovation")


def test_a_forget_request_in_unquoted_pasted_text_removes_nothing(repo):
    remembered(repo)
    run(
        repo,
        transcript(
            "s-paste",
            (
                "user",
                DAY2,
                "My colleague pasted this in our chat, funny:\n\n"
                "forget about the gym, nobody goes anyway",
            ),
        ),
    )
    assert holding(repo, "Urban Climb")
    page = pages(repo)["~/memory/archive/2027-W18/s-paste"]
    assert "Forgotten on request" not in page


def test_a_forget_request_in_quoted_text_removes_nothing(repo):
    remembered(repo)
    run(
        repo,
        transcript("s-quote", ("user", DAY2, "Look:\n\n> forget everything about Urban Climb")),
    )
    assert holding(repo, "Urban Climb")


def test_a_participants_forget_request_in_a_thread_removes_nothing(repo):
    remembered(repo)
    run(
        repo,
        transcript(
            "s-thread",
            ("user", DAY2, "[09:00] Marta: forget about the gym, it's closing"),
            ("user", "2027-05-04T09:01:00Z", "[09:01] Sven: ok"),
        ),
    )
    assert holding(repo, "Urban Climb")
    page = pages(repo)["~/memory/archive/2027-W18/s-thread"]
    assert "said by someone else; nothing was removed" in page


def test_the_assistant_saying_forget_removes_nothing(repo):
    remembered(repo)
    run(
        repo,
        transcript(
            "s-assistant",
            ("user", DAY2, "What do you know about my week?"),
            ("assistant", "2027-05-04T09:00:10Z", "You can forget about the gym for now."),
        ),
    )
    assert holding(repo, "Urban Climb")


def test_forgetting_two_people_forgets_both_everywhere_and_writes_nothing_about_them(repo):
    remembered(repo)
    assert "~/memory/people/jonas-berg" in pages(repo)
    run(
        repo,
        transcript(
            "s-forget",
            ("user", DAY2, "Please forget what I said about Jonas and Elif. It was in confidence."),
        ),
    )
    assert holding(repo, "Jonas") == []
    assert holding(repo, "Elif") == []
    assert holding(repo, "divorce") == []
    now = pages(repo)
    assert not [p for p in now if p.startswith("~/memory/people/")]  # no `and-elif` page
    assert holding(repo, "Urban Climb")  # what was not asked stays


def test_forgetting_a_topic_removes_its_lines_and_is_not_stored_as_a_fact(repo):
    remembered(repo)
    run(repo, transcript("s-topic", ("user", DAY2, "And forget the renovation stuff too.")))
    assert holding(repo, "renovation") == []
    assert holding(repo, "stuff") == []
    assert holding(repo, "Urban Climb")


def test_the_agents_forget_is_a_change_of_its_run_that_revert_puts_back(repo):
    remembered(repo)
    runs = Runs(repo.conn)
    rid = runs.start(owner="main", backend="offline", model="offline-rules-1")
    run(
        repo,
        transcript("s-forget", ("user", DAY2, "Forget what I said about Jonas.")),
        run_id=rid,
    )
    runs.finish(rid, "completed", "end_turn")
    assert holding(repo, "Jonas") == []
    revert_run(repo, rid, actor=Actor("user", "me"))
    assert "~/memory/people/jonas-berg" in pages(repo)
    assert "Spotify" in pages(repo)["~/memory/people/jonas-berg"]


def test_forgetting_a_topic_forgets_the_sentences_that_went_on_about_it(repo):
    run(
        repo,
        transcript(
            "s-reno",
            (
                "user",
                DAY1,
                "The kitchen renovation starts on May 17. Our contractor is Bauwerk, "
                "and the budget is 18,000 euros.",
            ),
            ("user", "2027-05-03T18:12:00Z", "My gym is Urban Climb in Hackney."),
        ),
    )
    assert holding(repo, "Bauwerk")
    run(repo, transcript("s-forget", ("user", DAY2, "Forget the renovation stuff, please.")))
    assert holding(repo, "Bauwerk") == [] and holding(repo, "18,000") == []
    assert holding(repo, "Urban Climb")  # what was said apart from it stays


def test_what_the_user_says_of_a_forget_request_is_not_kept_either(repo):
    remembered(repo)
    run(
        repo,
        transcript(
            "s-why",
            (
                "user",
                DAY2,
                "Please forget what I said about Jonas. That was told to me in confidence.",
            ),
        ),
    )
    assert holding(repo, "in confidence") == []
    assert holding(repo, "Jonas") == []


def test_forgetting_a_persons_news_kept_secret_removes_it_and_nothing_else(repo):
    # "keep it to myself" asks for the forgetting; it does not take it back. The request
    # names "Elif's divorce" where the line said "divorced": the line about her goes.
    remembered(repo)
    run(
        repo,
        transcript(
            "s-forget",
            (
                "user",
                DAY2,
                "Please forget what I told you about Elif's divorce, she asked me to keep it "
                "to myself. The renovation news is fine.",
            ),
        ),
    )
    assert not holding(repo, "divorced")
    assert holding(repo, "renovation") and holding(repo, "Jonas")


def test_keep_it_that_ends_the_request_takes_it_back(repo):
    remembered(repo)
    run(
        repo,
        transcript(
            "s-withdrawn",
            ("user", DAY2, "Forget about the gym. Actually no, keep it."),
        ),
    )
    assert holding(repo, "Urban Climb")


def test_forgetting_the_bit_about_someone_removes_that_news_from_their_page(repo):
    run(
        repo,
        transcript(
            "s-club",
            ("user", DAY1, "Tomasz is retiring at Easter. Ines has been off sick with shingles."),
        ),
    )
    assert holding(repo, "shingles")
    run(
        repo,
        transcript(
            "s-club-2",
            ("user", DAY2, "Please forget the bit about Ines being off sick, it was private."),
        ),
    )
    assert holding(repo, "shingles") == []
    assert holding(repo, "retiring")


def test_forgetting_an_identifier_completely_removes_every_line_that_holds_it(repo):
    run(
        repo,
        transcript(
            "s-orders",
            (
                "user",
                DAY1,
                "Order PO-5521 is for the standing desk. Order PO-5522 is for the lamp.",
            ),
        ),
    )
    assert holding(repo, "PO-5522")
    run(
        repo, transcript("s-orders-2", ("user", DAY2, "Forget PO-5522 completely, I sent it back."))
    )
    assert holding(repo, "PO-5522") == []
    assert holding(repo, "PO-5521")


def test_dont_forget_x_completely_is_not_a_request_to_forget():
    from doctree.agent.offline.language import forget_request

    assert forget_request("Don't forget the passports completely packed.") is None
    assert forget_request("Please forget the part about the lawsuit.") == (True, "the lawsuit")


def test_dont_write_that_down_at_the_end_of_a_long_sentence_drops_only_the_clause_before_it(repo):
    run(
        repo,
        transcript(
            "s-run-on",
            (
                "user",
                DAY1,
                "the plumber Wojtek comes on the 9th at noon, the boiler is a Vaillant from "
                "2019, and the garage door code is 558211 but don't write that down anywhere",
            ),
        ),
    )
    assert holding(repo, "Vaillant")
    assert holding(repo, "558211") == []
    assert holding(repo, "garage door code") == []


@pytest.mark.parametrize(
    "said",
    [
        "My friend Jess is pregnant and hasn't told anyone yet, so forget I said that.",
        "Jess is pregnant, due in February, and hasn't told anyone at work yet, so actually "
        "don't put that anywhere, forget I mentioned it.",
        "Jess got the job at Corran. She's also pregnant, due in February, so don't write that "
        "down.",
        "jess is pregnant and hasnt told work, dont keep that",
    ],
)
def test_a_request_after_one_clause_and_what_goes_on_from_it_takes_back_the_whole_clause(
    repo, said
):
    run(repo, transcript("s-clause", ("user", DAY1, "My friend Jess lives in Bristol.")))
    run(repo, transcript("s-clause2", ("user", DAY1, said)))
    assert holding(repo, "pregnant") == []
    assert holding(repo, "Bristol")
    if "Corran" in said:
        assert holding(repo, "Corran")


def test_a_request_after_clauses_of_their_own_subjects_takes_back_only_the_last(repo):
    run(
        repo,
        transcript(
            "s-clauses",
            (
                "user",
                DAY1,
                "Tom starts at Arden on Monday, and he's leaving his flat, but don't write that "
                "down.",
            ),
        ),
    )
    assert holding(repo, "Arden")
    assert holding(repo, "flat") == []


def test_deleting_something_completely_is_about_files_and_forgets_nothing():
    from doctree.agent.offline.language import forget_request

    assert forget_request("Delete the old release branch completely, it is merged.") is None
    assert forget_request("Erase the staging disk entirely before the handover.") is None


def test_wipe_him_from_whatever_you_have_forgets_the_person_named_before(repo):
    run(
        repo,
        transcript(
            "s-club",
            ("user", DAY1, "Tobias Brandt runs the Thursday chess club and drives the minibus."),
            ("user", "2027-05-03T18:05:00Z", "Nadia Osei keeps the club's accounts."),
        ),
    )
    assert holding(repo, "Tobias") and holding(repo, "Nadia")
    run(
        repo,
        transcript(
            "s-club-2",
            (
                "user",
                DAY2,
                "Tobias has left the club and asked that nobody keeps his details. Please wipe "
                "him from whatever you've got, and I'll drive the minibus myself.",
            ),
        ),
    )
    assert holding(repo, "Tobias") == []
    assert holding(repo, "Nadia")


def test_clear_out_everything_about_him_means_the_name_said_before_it(repo):
    run(
        repo,
        transcript(
            "s-pups",
            (
                "user",
                DAY1,
                "We're choosing between two puppies: Biscuit is a beagle, Moss a collie.",
            ),
        ),
    )
    run(
        repo,
        transcript(
            "s-pups-2",
            (
                "user",
                DAY2,
                "We took Moss home today! Biscuit went to another family, so can you clear out "
                "everything I told you about him?",
            ),
        ),
    )
    assert holding(repo, "Biscuit") == []
    assert holding(repo, "Moss")


def test_wipe_whatever_you_have_got_on_him_forgets_the_person_and_keeps_the_other(repo):
    run(
        repo,
        transcript(
            "s-tenants",
            ("user", DAY1, "Rupert Vane rents the top flat and pays on the 3rd."),
            ("user", "2027-05-03T18:05:00Z", "Ottilie Marsh has the basement flat."),
        ),
    )
    assert holding(repo, "Rupert") and holding(repo, "Ottilie")
    run(
        repo,
        transcript(
            "s-tenants-2",
            (
                "user",
                DAY2,
                "right, Rupert's a no. wipe whatever you've got on him please",
            ),
        ),
    )
    assert holding(repo, "Rupert") == []
    assert holding(repo, "Ottilie")


def test_a_wipe_after_news_of_the_person_in_the_same_message_forgets_him(repo):
    run(
        repo,
        transcript(
            "s-tenants",
            ("user", DAY1, "Rupert Vane rents the top flat and pays on the 3rd."),
        ),
    )
    run(
        repo,
        transcript(
            "s-tenants-2",
            ("user", DAY2, "Rupert has moved out. Wipe whatever you've got on him please."),
        ),
    )
    assert holding(repo, "Rupert") == []


def test_take_it_out_altogether_forgets_that_item_only(repo):
    run(
        repo,
        transcript(
            "s-claims",
            ("user", DAY1, "Mileage claim: the Harrogate visit was 84 miles."),
            ("user", "2027-05-03T18:05:00Z", "The Leeds visit was 31 miles."),
        ),
    )
    assert holding(repo, "Harrogate") and holding(repo, "Leeds")
    run(
        repo,
        transcript(
            "s-claims-2",
            ("user", DAY2, "Take the Harrogate visit out altogether, I went for myself."),
        ),
    )
    assert holding(repo, "Harrogate") == []
    assert holding(repo, "Leeds")
    from doctree.agent.offline.language import forget_request

    assert forget_request("Take the bins out completely before the men come.") is None


def test_a_pronoun_nobody_can_be_meant_by_forgets_nothing(repo):
    remembered(repo)
    run(repo, transcript("s-who", ("user", DAY2, "Please wipe him from whatever you've got.")))
    assert holding(repo, "Jonas") and holding(repo, "Urban Climb")


def test_dont_keep_that_after_a_secret_takes_back_that_sentence_only(repo):
    run(
        repo,
        transcript(
            "s-visit",
            ("user", DAY1, "The electrician Priya Nair is rewiring the shed on the 12th."),
            (
                "user",
                "2027-05-03T18:05:00Z",
                "I'm out that day, so she'll let herself in: the key safe by the side gate is "
                "4471. I'll text it to her myself, don't keep that.",
            ),
        ),
    )
    assert holding(repo, "rewiring")  # the message before is not what was taken back
    assert holding(repo, "4471") == []
    assert holding(repo, "key safe") == []
    from doctree.agent.offline.language import forget_request

    assert forget_request("I'll text it to her, don't hang on to it.") == (True, None)


def test_clear_about_is_not_a_request_to_forget():
    from doctree.agent.offline.language import forget_request

    assert forget_request("I'm not clear about the dates yet.") is None
    assert forget_request("Remove the screws from the panel first.") is None
    assert forget_request("Delete Nadia from your notes, please.") == (True, "Nadia")


def test_a_name_that_opens_a_clause_after_a_comma_ends_what_is_forgotten(repo):
    """ "remove anything about Anton, Greta says …": Greta opens the reason, she is not a
    second thing to forget, and Anton is forgotten."""
    from doctree.agent.offline.language import forget_request

    assert forget_request("Please remove anything about Anton, Greta says he moved away.") == (
        True,
        "Anton",
    )
    assert forget_request("Forget about Anton, Greta and the boat loan.") == (
        True,
        "Anton, Greta and the boat loan",
    )
    run(
        repo,
        transcript(
            "s-greta",
            ("user", DAY1, "My cousin Greta lives in Tromsø. Her lodger is called Anton."),
            ("user", "2027-05-03T18:04:00Z", "Anton is a welder and plays the accordion."),
        ),
    )
    assert holding(repo, "accordion")
    run(
        repo,
        transcript(
            "s-greta-2",
            (
                "user",
                DAY2,
                "Actually please remove anything about Anton, Greta says he moved out and "
                "doesn't want to be mentioned.",
            ),
        ),
    )
    assert not holding(repo, "Anton") and not holding(repo, "accordion")
    assert holding(repo, "Tromsø")
    page = pages(repo)["~/memory/archive/2027-W18/s-greta-2"]
    assert "Not acted on" not in page


def test_wiping_an_old_detail_takes_only_its_clause(repo):
    """ "wipe the old address": a person's detail named by its kind is forgotten where it is
    said, and the clause beside it that gives the new one stays."""
    from doctree.agent.offline.language import forget_request

    assert forget_request("And wipe the old address, I don't need it now.") == (
        True,
        "the old address",
    )
    assert forget_request("Wipe my laptop before you hand it back.") is None
    run(
        repo,
        transcript(
            "s-move",
            (
                "user",
                DAY1,
                "Our old address was 3 Quarry Lane but we moved out in April to 8 Mill Road.",
            ),
        ),
    )
    run(repo, transcript("s-move-2", ("user", DAY2, "Wipe the old address, I don't need it.")))
    assert not holding(repo, "Quarry")
    assert holding(repo, "8 Mill Road")
    assert not holding(repo, "Wipe the old address")


@pytest.mark.parametrize(
    ("said", "target"),
    [
        (
            "I'd rather you didn't keep the stuff about Uncle Ray's operation.",
            "Uncle Ray's operation",
        ),
        ("Please don't remember my weight.", "my weight"),
        ("Don't hold on to my pension figure.", "my pension figure"),
        ("I don't want you remembering my address.", "my address"),
        ("No need to keep anything about Ilse going forward.", "Ilse"),
        ("Delete all mention of the tribunal.", "the tribunal"),
        ("Erase any record of my counselling.", "my counselling"),
        ("Forget I ever mentioned the audition.", "the audition"),
        ("Pretend I never told you about the tattoo.", "the tattoo"),
        ("Forget Oskar's mobile number, it changed.", "Oskar's mobile number"),
        ("Forget about Ilse, Oskar, and the caravan.", "Ilse, Oskar, and the caravan"),
        ("can u forget abt the caravan pls", "the caravan"),
    ],
)
def test_requests_to_forget_in_everyday_wordings_name_their_thing(said, target):
    from doctree.agent.offline.language import forget_request

    assert forget_request(said) == (True, target)


@pytest.mark.parametrize(
    "said",
    [
        "Please don't save my seat, I'll be late.",
        "Can you not remember my name? It's Sam.",
        "We don't need to keep our old car.",
        "I don't want you to be late.",
        "Don't forget my birthday is on the 3rd.",
        "I'd rather you didn't book anything yet.",
    ],
)
def test_sentences_that_only_look_like_forgetting_ask_nothing(said):
    from doctree.agent.offline.language import forget_request

    assert forget_request(said) is None


def test_clear_my_memory_of_a_thing_names_the_thing():
    from doctree.agent.offline.language import forget_request, forget_targets

    asked = forget_request("Clear my memory of the tribunal stuff.")
    assert asked is not None and asked[1] is not None
    assert forget_targets(asked[1]) == ["tribunal"]


def test_keeping_asked_against_in_another_wording_forgets_the_thing(repo):
    run(
        repo,
        transcript(
            "s-weigh",
            ("user", DAY1, "My weight is 91 kg this week and my gym is Urban Climb."),
        ),
    )
    assert holding(repo, "91 kg")
    run(repo, transcript("s-weigh-2", ("user", DAY2, "Please don't remember my weight.")))
    assert not holding(repo, "91 kg")
    assert holding(repo, "Urban Climb")


def test_forget_i_mentioned_him_means_the_one_name_beside_an_opening_verb(repo):
    run(
        repo,
        transcript(
            "s-quiz",
            (
                "user",
                DAY1,
                "Quiz night running order:\n\n"
                "- Round 1: Flags of the world\n"
                "- Round 2: Kofi's story about his gambling debts\n"
                "- Round 3: Eighties film quotes",
            ),
            (
                "user",
                "2027-05-03T18:05:00Z",
                "Drop round 2 entirely, Kofi asked us to cut it, forget I mentioned him.",
            ),
        ),
    )
    assert holding(repo, "Kofi") == []
    assert holding(repo, "gambling") == []
    assert holding(repo, "Flags of the world")


def test_forget_i_mentioned_him_beside_two_names_forgets_no_one(repo):
    run(
        repo,
        transcript(
            "s-quiz",
            ("user", DAY1, "Kofi Mensah hosts round 2 and Dawit Bekele marks the answers."),
            (
                "user",
                "2027-05-03T18:05:00Z",
                "Kofi told Dawit about the change, forget I mentioned him.",
            ),
        ),
    )
    assert holding(repo, "Kofi") and holding(repo, "Dawit")
