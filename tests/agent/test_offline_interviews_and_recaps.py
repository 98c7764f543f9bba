"""An interview typed up as questions and answers, a family word with the name in brackets,
a recap the user lets stand while asking for one thing to be let go of, numbers said in
words, a time written "8 p.m." inside a sentence, and a person of many facts in one
session: what the offline agent keeps of each."""

from __future__ import annotations

from doctree.agent.offline.bibtex import bibtex_entries
from doctree.agent.offline.blocks import interview_read
from doctree.agent.offline.recap import _in_words, links_read, mixed_language, standing
from doctree.agent.offline.segment import split_sentences
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import current_facts, run, transcript


def _facts(tmp_path, *sessions: list[tuple[str, str, str]]) -> str:
    with DocumentsRepository(tmp_path / "m.db") as repo:
        for i, messages in enumerate(sessions):
            run(repo, transcript(f"s-qa-{i}", *messages))
        return current_facts(repo)


def _pages(tmp_path, *sessions: list[tuple[str, str, str]]) -> dict[str, str]:
    with DocumentsRepository(tmp_path / "m.db") as repo:
        for i, messages in enumerate(sessions):
            run(repo, transcript(f"s-qa-{i}", *messages))
        return {d.path: d.body for d in repo.documents("main", "~/memory")}


# -- an interview typed up as Q: and A: lines ------------------------------------------------

INTERVIEW = (
    "I interviewed Aunt Wilma (Wilhelmina Roost) for the family tree, typed up below.\n\n"
    "Q: Where did you grow up?\n"
    "A: Zeeland, on a dairy farm. I was the youngest.\n"
    "Q: And work?\n"
    "A: I taught piano in Utrecht for thirty years.\n"
    "Q: Family?\n"
    "A: My brother Kees ran the farm after Father died."
)


def test_an_interviews_answers_are_the_interviewees_lines():
    read = interview_read(INTERVIEW)
    assert "Wilhelmina Roost: I taught piano in Utrecht for thirty years." in read
    assert "Where did you grow up?" in read and "Q: " not in read


def test_an_interview_answer_is_filed_on_the_interviewee_not_read_as_the_users(tmp_path):
    pages = _pages(
        tmp_path,
        [
            ("user", "2031-05-02T10:00:00Z", INTERVIEW),
            ("assistant", "2031-05-02T10:01:00Z", "What a life. Want help with the tree?"),
        ],
    )
    wilhelmina = pages.get("~/memory/people/wilhelmina-roost", "")
    assert "Utrecht" in wilhelmina
    kees = pages.get("~/memory/people/kees", "")
    # her brother, never the user's
    assert "the user's brother" not in kees
    assert "Wilhelmina Roost's brother" in kees


def test_qa_lines_with_no_one_named_as_interviewed_stay_as_they_are():
    text = "Notes from the FAQ:\n\nQ: Can I park?\nA: Yes, bay 4.\nQ: Wifi?\nA: Ask at the desk."
    assert interview_read(text) == text


def test_one_question_and_answer_is_no_interview():
    text = "I interviewed Bo Lind today.\n\nQ: Why?\nA: Because."
    assert interview_read(text) == text


# -- a family word with the name in brackets ----------------------------------------------


def test_a_family_word_with_the_name_in_brackets_names_one_person(tmp_path):
    pages = _pages(
        tmp_path,
        [
            (
                "user",
                "2031-05-02T10:00:00Z",
                "Grandma (Odette Laine) sent the quilt pattern. Grandma's 90 on the 9th of June.",
            ),
            ("assistant", "2031-05-02T10:01:00Z", "Lovely, a big birthday."),
        ],
    )
    odette = pages.get("~/memory/people/odette-laine", "") + pages.get("~/memory/people/odette", "")
    assert "2031-06-09" in odette
    assert "~/memory/people/grandma" not in pages


# -- a recap the user lets stand while asking for one thing to go ----------------------------

CARD = [
    (
        "user",
        "2031-09-01T09:00:00Z",
        "Notes for the retirement lunch: Ingrid Falk, twenty-six years in our accounts team, "
        "lunch is at the Boathouse. Ingrid sails a dinghy called the Petrel, and Gus from "
        "facilities, who never got on with her, is not invited.",
    ),
    (
        "assistant",
        "2031-09-01T09:01:00Z",
        "Got it. Ingrid Falk is retiring after 26 years in accounts, with lunch at the "
        "Boathouse. Ingrid sails a dinghy, the Petrel.",
    ),
    (
        "user",
        "2031-09-01T09:02:00Z",
        "Actually, take Gus out of it. Forget Gus altogether, please.",
    ),
    ("assistant", "2031-09-01T09:03:00Z", "Done, nothing about him is kept."),
]


def test_a_recap_stands_when_the_reply_only_lets_go_of_what_it_does_not_name():
    recap = ["Ingrid Falk is retiring after 26 years in accounts.", "She sails the Petrel."]
    reply = ["Actually, take Gus out of it.", "Forget Gus altogether, please."]
    assert standing(reply, recap) == recap


def test_a_reply_correcting_a_value_still_sets_the_recap_aside():
    recap = ["Ingrid Falk is retiring after 26 years in accounts."]
    assert standing(["Actually, it's 27 years, not 26."], recap) == []


def test_the_recap_keeps_what_the_forgotten_persons_sentence_also_said(tmp_path):
    facts = _facts(tmp_path, CARD)
    assert "Gus" not in facts
    assert "Petrel" in facts


# -- numbers said in words, as a recap writes them ------------------------------------------


def test_a_number_said_in_words_is_read_as_its_figure():
    assert _in_words("at eight, for thirty-one years, twenty two of them").split() == [
        "8",
        "31",
        "22",
    ]


def test_a_number_word_inside_another_word_is_no_figure():
    assert _in_words("someone often went eighteenth") == ""


# -- a time written with dots inside a sentence -----------------------------------------------


def test_a_time_with_dots_before_a_lower_case_word_ends_no_sentence():
    said = split_sentences("The party is at 8 p.m. at the Boathouse. Bring a card.")
    assert said == ["The party is at 8 p.m. at the Boathouse.", "Bring a card."]


def test_a_time_with_dots_ending_a_sentence_still_ends_it():
    said = split_sentences("We start at 9 a.m. Lunch is provided.")
    assert said == ["We start at 9 a.m.", "Lunch is provided."]


# -- a person of many facts in one session ------------------------------------------------


def test_every_fact_of_a_person_said_in_one_session_is_kept(tmp_path):
    lines = [
        "Bettina Sorel is my new landlady.",
        "Bettina lives in the flat downstairs.",
        "Bettina works nights at the hospital.",
        "Bettina has a cat called Juno.",
        "Bettina collects the rent on the 1st.",
        "Bettina prefers bank transfers.",
        "Bettina is allergic to lilies.",
        "Bettina plays the cello.",
        "Bettina grew up in Lyon.",
        "Bettina's number is 07700 900123.",
        "Bettina drives a green van.",
    ]
    facts = _facts(
        tmp_path,
        [
            ("user", "2031-05-02T10:00:00Z", " ".join(lines)),
            ("assistant", "2031-05-02T10:01:00Z", "Noted."),
        ],
    )
    for word in ("Lyon", "900123", "green van", "cello"):
        assert word in facts, word


# -- a pasted BibTeX reading list -----------------------------------------------------------

BIB = (
    "Here's my reading list, which first?\n\n"
    "```\n"
    "% manager sync: not a fact\n"
    "@article{vance2029,\n"
    "  author  = {Vance, Imogen and {de la Cruz}, Mateo and others},\n"
    "  title   = {Salt marsh {CO$_2$} uptake},\n"
    "  journal = {Estuarine Letters},\n"
    "  year    = {2029},\n"
    "  note    = {my advisor's paper}\n"
    "}\n"
    "@book{holm2027,\n"
    "  author    = {Holm, Sigrid},\n"
    "  title     = {Tides and Sediment},\n"
    "  publisher = {Fenwick Press},\n"
    "  year      = 2027,\n"
    "  note      = {library copy, due back 2031-03-20}\n"
    "}\n"
    "```"
)


def test_a_bibtex_entry_is_read_as_one_statement_with_its_authors_as_people_say_them():
    entries = bibtex_entries(BIB.split("```")[1])
    assert entries is not None and len(entries) == 2
    assert entries[0].startswith("“Salt marsh CO")
    assert "by Imogen Vance, Mateo de la Cruz and others (2029), Estuarine Letters" in entries[0]
    assert entries[1].endswith("(2027), Fenwick Press; note: library copy, due back 2031-03-20.")
    assert not any("sync" in e for e in entries)


def test_text_with_no_bibtex_entry_is_not_read_as_one():
    assert bibtex_entries("email me @ home {soon}, thanks") is None
    assert bibtex_entries("@comment{nothing here}") is None


def test_a_pasted_reading_list_keeps_each_entry_and_a_renewal_replaces_its_due_date(tmp_path):
    with DocumentsRepository(tmp_path / "m.db") as repo:
        run(
            repo,
            transcript(
                "s-bib-1",
                ("user", "2031-03-01T10:00:00Z", BIB),
                ("assistant", "2031-03-01T10:01:00Z", "Start with the Vance paper."),
            ),
        )
        run(
            repo,
            transcript(
                "s-bib-2",
                (
                    "user",
                    "2031-03-15T10:00:00Z",
                    "I've renewed the Holm book till the 3rd of April.",
                ),
                ("assistant", "2031-03-15T10:01:00Z", "Good."),
            ),
        )
        facts = current_facts(repo)
    assert "Estuarine Letters" in facts and "Tides and Sediment" in facts
    assert "2031-04-03" in facts
    assert "due back 2031-03-20" not in facts


def test_a_deadline_given_until_a_later_day_replaces_the_earlier_one(tmp_path):
    with DocumentsRepository(tmp_path / "m.db") as repo:
        run(
            repo,
            transcript(
                "s-dl-1",
                (
                    "user",
                    "2031-03-01T10:00:00Z",
                    "Dr Okonkwo wants the methods chapter by the 10th.",
                ),
                ("assistant", "2031-03-01T10:01:00Z", "Noted."),
            ),
        )
        run(
            repo,
            transcript(
                "s-dl-2",
                (
                    "user",
                    "2031-03-05T10:00:00Z",
                    "Dr Okonkwo has given me until the 17th for the methods chapter.",
                ),
                ("assistant", "2031-03-05T10:01:00Z", "That helps."),
            ),
        )
        facts = current_facts(repo)
    assert "2031-03-17" in facts
    assert "2031-03-10" not in facts


# -- links whose details are in their query strings ----------------------------------------


def test_a_links_query_string_is_read_decoded():
    said = links_read("see https://rail.example/book?dep=09%3A15&seat=C%2012&from=York+Central")
    assert "09:15" in said and "C 12" in said and "York Central" in said


def test_a_message_with_no_link_is_read_as_it_is():
    assert links_read("C++ at 50% off") == "C++ at 50% off"


def test_a_recap_reading_out_a_links_details_is_kept(tmp_path):
    facts = _facts(
        tmp_path,
        [
            (
                "user",
                "2031-06-01T09:00:00Z",
                "Can you keep the details of this booking?\n"
                "https://coach.example/book?from=Leeds&to=Whitby&date=2031-06-20"
                "&time=07%3A45&ref=HX%20PLQ",
            ),
            (
                "assistant",
                "2031-06-01T09:01:00Z",
                "Coach: Leeds to Whitby on 20 June 2031 at 07:45, booking HX PLQ.",
            ),
            ("user", "2031-06-01T09:02:00Z", "Great, thanks."),
        ],
    )
    assert "HX PLQ" in facts and "07:45" in facts


# -- a message switching languages within its sentences ---------------------------------


MIXED = (
    "Sasa, nakuomba unikumbushe mambo machache wiki hii, my diary is a mess. Dada yangu, "
    "Auntie Njeri, anakuja from "
    "Kisumu Ijumaa hii, atafika saa nne asubuhi at the Kencom stage, nitaenda kumpokea."
)


def test_a_message_switching_languages_inside_its_sentences_is_mixed():
    assert mixed_language(MIXED)


def test_english_shorthand_and_jargon_are_not_read_as_another_language():
    assert not mixed_language("I need to book the dentist for Tuesday and then pick up the kids.")
    assert not mixed_language(
        "kubectl rollout restart the api deployment then check grafana for the p99 latency"
    )


def test_the_recap_of_a_mixed_language_message_is_kept(tmp_path):
    facts = _facts(
        tmp_path,
        [
            ("user", "2031-07-01T06:00:00Z", MIXED),
            (
                "assistant",
                "2031-07-01T06:01:00Z",
                "Here's what I have:\n\n"
                "- Your sister, Auntie Njeri, arrives from Kisumu on Friday 4 July 2031 at 10:00 "
                "a.m. at the Kencom stage. You're meeting her.",
            ),
        ],
    )
    assert "Kisumu" in facts and "2031-07-04" in facts


# -- a sum in thousands with no currency ---------------------------------------------------


def test_a_sum_in_thousands_is_replaced_by_a_later_one(tmp_path):
    with DocumentsRepository(tmp_path / "m.db") as repo:
        run(
            repo,
            transcript(
                "s-k-1",
                ("user", "2031-03-01T10:00:00Z", "I pledged 15K to Wairimu's harambee."),
                ("assistant", "2031-03-01T10:01:00Z", "Noted."),
            ),
        )
        run(
            repo,
            transcript(
                "s-k-2",
                (
                    "user",
                    "2031-03-05T10:00:00Z",
                    "My pledge to Wairimu's harambee is now 25K, not 15K.",
                ),
                ("assistant", "2031-03-05T10:01:00Z", "Updated."),
            ),
        )
        facts = current_facts(repo)
    assert "25K" in facts
    assert "pledged 15K" not in facts


def test_a_race_or_a_screen_in_k_is_no_sum():
    from doctree.agent.offline.supersession import values

    assert values("I ran a 5k run and bought a 4K monitor") == ()


def test_a_listed_recap_item_opening_on_a_past_verb_states_what_was_done(tmp_path):
    facts = _facts(
        tmp_path,
        [
            (
                "user",
                "2031-02-01T10:00:00Z",
                "Typed up what Nan told me:\n\nmet Grandad Piet at the Palais in Leeds, 1958.\n"
                "married at St Anne's two years later.",
            ),
            (
                "assistant",
                "2031-02-01T10:01:00Z",
                "For your notes:\n\n- Met Grandad Piet at the Palais in Leeds in 1958.\n"
                "- Married at St Anne's two years later.",
            ),
        ],
    )
    assert "Palais" in facts and "1958" in facts


def test_a_listed_item_that_orders_is_no_recap():
    from doctree.agent.offline.recap import _states

    assert not _states("Call Dev about the Palais on Monday.", "the Palais, Dev")
    assert _states("Met Dev at the Palais.", "met Dev at the Palais")


def test_what_the_user_calls_someone_with_who_they_are_and_their_name_in_brackets(tmp_path):
    pages = _pages(
        tmp_path,
        [
            (
                "user",
                "2031-05-02T10:00:00Z",
                "Nonna (my grandmother, Lucia Ferri) is coming in May. Nonna only eats "
                "vegetarian on full-moon days.",
            ),
            ("assistant", "2031-05-02T10:01:00Z", "Noted."),
        ],
    )
    lan = "".join(body for path, body in pages.items() if path.startswith("~/memory/people/lucia"))
    assert "vegetarian" in lan


def test_a_bibtex_entry_of_braces_nested_past_any_reading_is_read_without_them():
    deep = "@article{a, author={Lee, Ann}, title=" + "{" * 5000 + "Tides" + "}" * 5000 + "}"
    entries = bibtex_entries(deep)
    assert entries is not None and len(entries) == 1
    assert "Tides" in entries[0] and "Ann Lee" in entries[0]
