"""Letters a user writes to memory in the old commercial style, and files pasted with the
assistant's reading of them: the user's own "kindly strike …" is a request, "the 5th inst."
is of this month, a letter's own date is not the day it tells of, "X is my husband" names a
husband, and a recap of a pasted file (its days written as figures) is read in the user's
voice."""

from __future__ import annotations

from datetime import date

import pytest

from doctree.agent.offline import language as lang
from doctree.agent.offline.recap import _names, _states
from doctree.agent.offline.resolve import resolve_relative
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import page_lines, run, transcript


def _now(tmp_path, *sessions: list[tuple[str, str, str]]) -> list[str]:
    with DocumentsRepository(tmp_path / "m.db") as repo:
        for i, messages in enumerate(sessions):
            run(repo, transcript(f"s-letter-{i}", *messages))
        now, _ = page_lines(repo)
        return [ln for ln in now if not ln.startswith("- [[")]


# -- the user's own letter ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("sentence", "target"),
    [
        ("Kindly strike from your record what I wrote of Alun's new post.", "Alun's new post"),
        ("Please take out of your notes the bit about the overdraft.", "the overdraft"),
        ("Kindly remove from your memory everything about my old address.", "my old address"),
    ],
)
def test_a_request_naming_memory_before_what_it_lets_go_of_is_read(sentence, target):
    assert lang.forget_request(sentence) == (True, target)


@pytest.mark.parametrize(
    "sentence",
    [
        "I wrote about the overdraft in my diary.",
        "I always forget what I wrote about the overdraft.",
        "Please remove from the list the bit about the overdraft.",
    ],
)
def test_writing_about_something_asks_nothing(sentence):
    assert lang.forget_request(sentence) is None


def test_a_letter_to_whoever_reads_it_asks_what_it_asks(tmp_path):
    first = [
        (
            "user",
            "2031-04-02T10:00:00Z",
            "Dear Sir or Madam,\n\nMy nephew Alun has lately taken a post at the Cardiff "
            "branch of the bank, which he wishes kept quiet for now. My chiropodist, Mrs "
            "Hale, calls on the 14th inst.\n\nYours faithfully,\nG. Probert",
        ),
        ("assistant", "2031-04-02T10:01:00Z", "Noted, Mr Probert."),
    ]
    second = [
        (
            "user",
            "2031-04-09T10:00:00Z",
            "Dear Sir or Madam,\n\nKindly strike from your record what I wrote of Alun's "
            "post; he has asked me to say nothing until it is settled.\n\nYours "
            "faithfully,\nG. Probert",
        ),
        ("assistant", "2031-04-09T10:01:00Z", "Noted."),
    ]
    text = "\n".join(_now(tmp_path, first, second))
    assert "Cardiff" not in text and "the bank" not in text
    assert "strike" not in text  # the request is no line of its own
    assert "Mrs Hale" in text and "2031-04-14" in text  # what was not asked stays


# -- the commercial style's days -----------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "day"),
    [
        ("The invoice was payable on the 1st inst. and is still open.", date(2031, 4, 1)),
        ("The goods will be dispatched on the 5th prox.", date(2031, 5, 5)),
        ("Your letter of the 28th ult. is to hand.", date(2031, 3, 28)),
        ("Payment is due on the 6th proximo.", date(2031, 5, 6)),
    ],
)
def test_inst_prox_and_ult_name_this_next_and_last_month(said, day):
    text, found = resolve_relative(said, date(2031, 4, 2), past=lang.past_tense(said))
    assert [d for _, d in found] == [day]
    assert f"({day.isoformat()})" in text


def test_a_day_in_the_commercial_style_ends_no_sentence():
    from doctree.agent.offline.segment import split_sentences

    assert split_sentences("It stands for the 18th inst. at half past ten, at the clinic.") == [
        "It stands for the 18th inst. at half past ten, at the clinic."
    ]


def test_a_letters_own_date_is_not_the_day_it_tells_of(tmp_path):
    now = _now(
        tmp_path,
        [
            (
                "user",
                "2031-04-09T10:00:00Z",
                "I have a letter from the council dated the 2nd, advising that the bins "
                "will be collected on Saturday 26 April from now on.",
            ),
            ("assistant", "2031-04-09T10:01:00Z", "Noted."),
        ],
    )
    dated = [ln for ln in now if "bins" in ln and ln.startswith("- 2031-04-26")]
    assert dated, now


# -- tense ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sentence", "past"),
    [
        ("and I am to have the left knee done on the 9th", False),
        ("She is to start at the school in May", False),
        ("my left knee is playing up", False),
        ("I left on Monday", True),
        ("She left the keys with the neighbour", True),
    ],
)
def test_left_as_a_side_and_an_arrangement_are_not_the_past(sentence, past):
    assert lang.past_tense(sentence) is past


def test_an_arrangement_after_a_past_clause_is_to_come(tmp_path):
    now = _now(
        tmp_path,
        [
            (
                "user",
                "2031-11-20T10:00:00Z",
                "The surgeon saw me on the 18th as arranged, and I am to have the left knee "
                "done on the 9th of January.",
            ),
            ("assistant", "2031-11-20T10:01:00Z", "Noted."),
        ],
    )
    assert any("2032-01-09" in ln for ln in now), now


# -- kin said with "is" --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "slug", "relation"),
    [
        ("Tobias is my husband.", "tobias", "husband"),
        ("Ysolde is our daughter, she's nine.", "ysolde", "daughter"),
    ],
)
def test_a_name_said_to_be_kin_gets_its_page(tmp_path, said, slug, relation):
    with DocumentsRepository(tmp_path / "m.db") as repo:
        run(
            repo,
            transcript(
                "s-kin",
                ("user", "2031-04-09T10:00:00Z", f"Some family bits. {said}"),
                ("assistant", "2031-04-09T10:01:00Z", "Noted."),
            ),
        )
        body = repo.read("main", f"~/memory/people/{slug}").body
    assert f"the user's {relation}" in body


def test_a_friend_of_kin_is_no_kin(tmp_path):
    with DocumentsRepository(tmp_path / "m.db") as repo:
        run(
            repo,
            transcript(
                "s-kin",
                ("user", "2031-04-09T10:00:00Z", "Tobias is my brother's friend from work."),
                ("assistant", "2031-04-09T10:01:00Z", "Noted."),
            ),
        )
        text = "\n".join(d.body for d in repo.documents("main", "~/memory"))
    assert "the user's brother" not in text.replace("the user's brother's", "")


# -- a pasted file and the assistant's reading of it ---------------------------------------


def test_a_list_item_opening_on_a_determiner_and_a_verb_states():
    assert _states("The dentist has moved to Friday 4 April.", "dentist 2031-04-04")
    assert not _states("Call the dentist on Friday.", "dentist")


def test_a_common_word_opening_a_later_sentence_is_no_name():
    # (a possessive opening the item is a name's: "Ysolde's check")
    assert _names("Ysolde's check is done. Her review with Dr Pike is on 4 June.") == [
        "Ysolde",
        "Dr",
        "Pike",
    ]
    assert _names("The check is done. Her review with Dr Pike is on 4 June.") == ["Dr", "Pike"]


FILE = (
    "Updated list, just what changed:\n\n```org\n#+TITLE: jobs.org\n\n* House\n"
    "** DONE dentist check                      :ysolde:\n"
    "   CLOSED: [2031-04-08 Tue 10:25]\n"
    "** TODO dentist review                     :ysolde:\n"
    "   SCHEDULED: <2031-07-08 Tue 09:00>\n   Dr Pike.\n"
    "** TODO gutter clearing\n   SCHEDULED: <2031-04-23 Wed>\n"
    "   :PROPERTIES:\n   :CONTACT:  Hendry Roofing\n   :END:\n```"
)


def test_a_recap_of_a_pasted_file_with_days_as_figures_is_read(tmp_path):
    now = _now(
        tmp_path,
        [
            ("user", "2031-04-09T19:00:00Z", FILE),
            (
                "assistant",
                "2031-04-09T19:01:00Z",
                "Got it:\n\n- The dentist review with Dr Pike is on Tuesday 8 July at 9:00.\n"
                "- The gutter clearing is booked with Hendry Roofing for Wednesday 23 April.",
            ),
            ("user", "2031-04-09T19:02:00Z", "Thanks."),
        ],
    )
    assert any("2031-07-08" in ln and "review" in ln for ln in now), now
    assert any("2031-04-23" in ln and "Hendry Roofing" in ln for ln in now), now


# -- a pasted machine file read back item by item ------------------------------------------

TIMERS = (
    "This is the crontab on the little server, can you say what each line does?\n\n```\n"
    "# m h dom mon dow command\n"
    "0 6 * * *     /opt/bin/water.sh ferns\n"
    '45 18 * * 3   /opt/bin/remind.sh "recycling out"\n'
    "20 3 * * 6    rsync -a /home/photos/ hal:/vault/photos/\n"
    '0 7,19 * * *  /opt/bin/remind.sh "Bruno: eye drops"\n'
    "```\n\nBruno is our old spaniel. Hal is the NAS in the loft."
)
READ_BACK = (
    "Line by line:\n\n"
    "- `0 6 * * *` – the ferns are watered at 06:00 every day.\n"
    '- `45 18 * * 3` – a "recycling out" reminder at 18:45 every Wednesday.\n'
    "- `20 3 * * 6` – the photos are copied to Hal, the NAS, at 03:20 every Saturday.\n"
    "- `0 7,19 * * *` – Bruno's eye drops reminder twice a day, at 07:00 and 19:00."
)


def _after_read_back(tmp_path, reply: str) -> str:
    """The current lines after the file, its reading back and the user's `reply`."""
    return "\n".join(
        _now(
            tmp_path,
            [
                ("user", "2031-05-03T10:00:00Z", TIMERS),
                ("assistant", "2031-05-03T10:02:00Z", READ_BACK),
                ("user", "2031-05-03T10:05:00Z", reply),
            ],
        )
    )


def test_each_item_of_a_file_read_back_is_kept(tmp_path):
    now = _after_read_back(tmp_path, "Great, thanks.")
    for held in ("06:00", "18:45 every Wednesday", "03:20 every Saturday", "07:00 and 19:00"):
        assert held in now, (held, now)


def test_a_reply_correcting_one_item_leaves_the_others_standing(tmp_path):
    now = _after_read_back(tmp_path, "The recycling one is wrong, it goes out on Thursdays now.")
    assert "18:45 every Wednesday" not in now  # the item the reply turned down
    for held in ("03:20 every Saturday", "07:00 and 19:00"):
        assert held in now, (held, now)


def test_a_reply_touching_most_items_leaves_none():
    from doctree.agent.offline.recap import standing

    recap = [x[2:] for x in READ_BACK.splitlines() if x.startswith("- ")]
    reply = ["No, the ferns, recycling and photos lines are all wrong."]
    assert standing(reply, recap, READ_BACK) == []


def test_an_item_labelled_by_a_piece_of_the_paste_states():
    item = "`20 3 * * 6` – the photos are copied to Hal, the NAS, at 03:20 every Saturday."
    assert _states(item, TIMERS)


def test_a_name_alone_does_not_make_a_clause_say_a_sentence_again():
    from doctree.agent.offline.recap import restated

    clause = "The reminder for Bruno's eye drops goes twice a day."
    assert restated(clause, ["Bruno is our old spaniel."], lambda _: []) == []
    assert restated(clause, ["Bruno has his eye drops twice a day."], lambda _: []) == [0]


# -- a thing named before "forget it" -------------------------------------------------------


@pytest.mark.parametrize(
    ("sentence", "thing"),
    [
        ("The stuff I told you about the loan, forget it.", "the loan"),
        ("That thing I told you about Dara's job, please forget it.", "Dara's job"),
        ("The bit that I said about my sister, scratch that.", "my sister"),
    ],
)
def test_a_thing_named_before_forget_it_is_what_it_means(sentence, thing):
    assert lang.said_of(sentence) == thing


def test_no_thing_is_named_by_a_verb_after_about():
    assert lang.said_of("That thing I told you about was great.") is None
    assert lang.said_of("Those are both great things.") is None


def test_forget_it_after_a_thing_named_takes_that_thing_and_not_the_line_before(tmp_path):
    now = "\n".join(
        _now(
            tmp_path,
            [
                (
                    "user",
                    "2031-05-03T10:00:00Z",
                    "My cousin Dara lost his job at the brewery last week. The plumber "
                    "comes on Friday to fix the boiler.",
                ),
                ("assistant", "2031-05-03T10:01:00Z", "Noted."),
                (
                    "user",
                    "2031-05-03T10:02:00Z",
                    "The stuff I told you about Dara's job, forget it.",
                ),
                ("assistant", "2031-05-03T10:03:00Z", "Done."),
            ],
        )
    )
    assert "brewery" not in now
    assert "plumber" in now


# -- more ways to ask, and a memory of one's own -------------------------------------------


@pytest.mark.parametrize(
    ("sentence", "target"),
    [
        ("Can you delete the part where I mentioned my debt?", "my debt"),
        ("Please don't remember that my sister is pregnant.", "my sister is pregnant"),
        ("I'd prefer you didn't save anything about my health.", "my health"),
        ("Strike that last bit about the money.", "the money"),
        ("Could you wipe the entry on my old flat?", "my old flat"),
        ("Delete the line about my salary.", "my salary"),
        ("Drop what I mentioned earlier about the job offer.", "the job offer"),
    ],
)
def test_more_ways_of_asking_name_what_goes(sentence, target):
    assert lang.forget_request(sentence) == (True, target)


@pytest.mark.parametrize(
    "sentence",
    [
        "I don't remember that.",
        "I don't remember that she was there.",
        "We really don't keep it at home.",
        "I deleted the line about my salary.",
        "Delete the line about the dog from the email.",
        "She told me to forget it.",
        "I tried to forget about the argument.",
        "He said to drop it.",
        "I was able to remove it by scrubbing the tank.",
    ],
)
def test_ones_own_memory_and_a_documents_edit_ask_nothing(sentence):
    assert lang.forget_request(sentence) is None


def test_not_remembering_something_erases_nothing(tmp_path):
    now = "\n".join(
        _now(
            tmp_path,
            [
                ("user", "2031-05-03T10:00:00Z", "My niece Orla starts at Leeds in September."),
                ("assistant", "2031-05-03T10:01:00Z", "Did she say which course?"),
                ("user", "2031-05-03T10:02:00Z", "I don't remember that."),
                ("assistant", "2031-05-03T10:03:00Z", "No problem."),
            ],
        )
    )
    assert "Leeds" in now


@pytest.mark.parametrize(
    "sentence",
    [
        "I want you to forget that.",
        "Can you try to forget it?",
        "I need you to just forget that.",
        "Feel free to forget that.",
        "Make sure to delete that.",
    ],
)
def test_asking_the_assistant_to_forget_is_still_a_request(sentence):
    assert lang.forget_request(sentence) == (True, None)


def test_what_someone_told_the_user_to_do_erases_nothing(tmp_path):
    now = "\n".join(
        _now(
            tmp_path,
            [
                ("user", "2031-05-03T10:00:00Z", "Grandad's funeral is on Friday 9 May."),
                ("assistant", "2031-05-03T10:01:00Z", "I'm so sorry."),
                (
                    "user",
                    "2031-05-03T10:02:00Z",
                    "Mum and I argued about the flowers. She told me to forget it.",
                ),
                ("assistant", "2031-05-03T10:03:00Z", "That sounds hard."),
            ],
        )
    )
    assert "flowers" in now or "argued" in now
    assert "2031-05-09" in now
