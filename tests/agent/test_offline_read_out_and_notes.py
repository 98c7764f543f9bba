"""A pasted block the assistant reads out at the end of a session, a note someone else
wrote, readings left doubtful in brackets, a thing cut short as notes cut it, and a whole
plan replaced: what the offline agent keeps of each."""

from __future__ import annotations

from doctree.agent.offline import language as lang
from doctree.agent.offline.blocks import note_writer
from doctree.agent.offline.segment import split_sentences
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import current_facts, page_lines, run, transcript


def _facts(tmp_path, *sessions: list[tuple[str, str, str]]) -> str:
    with DocumentsRepository(tmp_path / "m.db") as repo:
        for i, messages in enumerate(sessions):
            run(repo, transcript(f"s-read-{i}", *messages))
        return current_facts(repo)


def _lines(tmp_path, *sessions: list[tuple[str, str, str]]) -> tuple[list[str], list[str]]:
    with DocumentsRepository(tmp_path / "m.db") as repo:
        for i, messages in enumerate(sessions):
            run(repo, transcript(f"s-read-{i}", *messages))
        return page_lines(repo)


# -- a pasted block read out as the session ends -------------------------------------------

SCHEDULE = [
    (
        "user",
        "2031-03-02T10:00:00Z",
        "What does this vet estimate mean?\n\n"
        "```\n"
        "ESTIMATE  Pip (feline, 6y)   Kestrel Vets   Mr A. Lindqvist MRCVS\n"
        "  GA + dental scale/polish                       £289.00\n"
        "  XR-DENT (full mouth)                           £118.50\n"
        "  EXT x2 (204, 304) if req.                      £96.00 ea\n"
        "Adm: Wed 12/03 08:15   Pre-op bloods 05/03 16:40\n"
        "```",
    ),
    (
        "assistant",
        "2031-03-02T10:02:00Z",
        "Here is what it covers:\n\n"
        "- **£289.00** is for a general anaesthetic and a scale and polish of Pip's teeth.\n"
        "- **£118.50** buys dental X-rays of the whole mouth.\n"
        "- Teeth **204** and **304** are his upper and lower canines on the left; pulling "
        "each costs £96.00, only if the vet finds it needed.\n"
        "- Pip goes in on **Wednesday 12 March** at 08:15, with blood tests before the "
        "anaesthetic on 5 March at 16:40.\n\n"
        "The vet is Mr Lindqvist at Kestrel Vets. I haven't kept anything you didn't ask me to.",
    ),
]


def test_the_reading_of_a_pasted_block_ending_the_session_is_kept(tmp_path):
    facts = _facts(tmp_path, SCHEDULE)
    assert "289.00" in facts and "anaesthetic" in facts
    assert "204" in facts and "canines" in facts
    assert "2031-03-12" in facts and "08:15" in facts
    assert "I haven't kept" not in facts  # the assistant speaking of itself is no fact


def test_a_reading_the_user_answers_without_taking_it_up_is_not_kept(tmp_path):
    replied = [*SCHEDULE, ("user", "2031-03-02T10:05:00Z", "Hmm, that is a lot for one cat.")]
    assert "canines" not in _facts(tmp_path, replied)


def test_a_reading_of_what_was_not_asked_about_is_not_kept(tmp_path):
    told = [
        (
            SCHEDULE[0][0],
            SCHEDULE[0][1],
            SCHEDULE[0][2].replace("What does this vet estimate mean?", "Pip's estimate came."),
        ),
        SCHEDULE[1],
    ]
    assert "canines" not in _facts(tmp_path, told)


def test_a_reading_that_only_repeats_lines_already_kept_adds_none(tmp_path):
    said = [
        (
            "user",
            "2031-03-02T10:00:00Z",
            "Can you keep this?\n\n```\nThe quiz night is on Friday 14 March at 19:30.\n```",
        ),
        ("assistant", "2031-03-02T10:01:00Z", "- The quiz night is Friday 14 March, 19:30."),
    ]
    facts = _facts(tmp_path, said)
    assert "19:30" in facts and "Found by the assistant" not in facts


# -- a note someone else wrote -------------------------------------------------------------


def test_the_writer_a_message_names_above_a_note_is_found():
    assert note_writer("I'm copying out the note Odile left on the fridge.") == "Odile"
    assert note_writer("Here's a text from Bram Okoro:") == "Bram Okoro"
    assert note_writer("Here's the note I wrote myself:") is None
    assert note_writer("My note to the plumber:") is None


def test_i_and_my_in_a_note_someone_else_wrote_are_theirs(tmp_path):
    facts = _facts(
        tmp_path,
        [
            (
                "user",
                "2031-04-07T18:00:00Z",
                "Typing up the note Odile left on the fridge. Odile is our lodger.\n\n"
                "```\n"
                "Away Thurs 10th to my brother Anselm's in Lyon, back Sunday\n"
                "My rent for April is in the blue envelope\n"
                "```",
            ),
            ("assistant", "2031-04-07T18:01:00Z", "Thanks, noted."),
        ],
    )
    assert "Odile's brother Anselm" in facts
    assert "the user's brother" not in facts and "the user's rent" not in facts


# -- readings left doubtful in brackets ----------------------------------------------------


def test_a_question_mark_inside_brackets_ends_no_sentence():
    assert split_sentences("Bin day is the [3rd? 5th?] - leave it out the night before.") == [
        "Bin day is the [3rd? 5th?] - leave it out the night before."
    ]
    assert split_sentences("It was £12 (or £14?) in total. Paid in cash.") == [
        "It was £12 (or £14?) in total.",
        "Paid in cash.",
    ]


# -- a thing cut short as notes cut it -------------------------------------------------------


def test_a_word_cut_short_beside_a_named_thing_is_the_thing():
    assert lang.concerns("had temp 39.1 at noon, gave Nurofen 2.5ml", {"temperature"}, ("Nurofen",))
    assert lang.concerns(
        "the info pack from Halberd is in the drawer", {"information"}, ("Halberd",)
    )
    # a short word, or one cut by one or two letters, is not a thing cut short
    assert not lang.concerns("the tem at Halberd", {"temperature"}, ("Halberd",))
    assert not lang.concerns("Halberd moved the temperature probe", {"temper"}, ("Halberd",))


def test_forgetting_a_thing_a_note_cut_short_takes_its_line(tmp_path):
    facts = _facts(
        tmp_path,
        [
            (
                "user",
                "2031-05-03T17:00:00Z",
                "Typing up the note Bettina left. She's the nanny.\n\n"
                "```\n"
                "Theo had temp 38.6 after nap, gave Nurofen 2.5ml at 3\n"
                "Library books are due back on the 9th\n"
                "```",
            ),
            ("assistant", "2031-05-03T17:01:00Z", "Got it."),
            (
                "user",
                "2031-05-03T17:05:00Z",
                "Actually don't keep the temperature and Nurofen stuff, he's fine.",
            ),
            ("assistant", "2031-05-03T17:06:00Z", "Done."),
        ],
    )
    assert "38.6" not in facts and "Nurofen" not in facts
    assert "Library books" in facts  # the note's other line stays


# -- a whole plan replaced -----------------------------------------------------------------


def test_a_plan_of_many_values_replaced_is_not_edited_in_place(tmp_path):
    now, past = _lines(
        tmp_path,
        [
            (
                "user",
                "2031-06-01T09:00:00Z",
                "My coach on Saturday 14 June leaves Leeds at 07:05 from bay 12, seat 31, "
                "changes at Preston at 09:40 and gets into Carlisle at 11:55, £34 return, "
                "back at 18:10.",
            ),
            ("assistant", "2031-06-01T09:01:00Z", "Noted."),
        ],
        [
            (
                "user",
                "2031-06-08T09:00:00Z",
                "My coach now leaves Leeds at 08:20.",
            ),
            ("assistant", "2031-06-08T09:01:00Z", "Noted."),
        ],
    )
    text = "\n".join(now)
    # one value of a plan of many changed: the old plan's other values do not stand as
    # current, edited around the new one (they may have changed with it)
    assert "Preston" not in text
    assert any("Preston" in ln for ln in past)
    assert "08:20" in text


# -- a recap that dates the day a scrap of the user's named ---------------------------------


def test_a_recap_dating_a_weekday_the_user_said_in_scraps_is_read(tmp_path):
    now, past = _lines(
        tmp_path,
        [
            (
                "user",
                "2031-03-08T09:00:00Z",
                "The plumber Dariusz can only come on Friday the 14th between 9 and 12.",
            ),
            ("assistant", "2031-03-08T09:01:00Z", "Noted."),
        ],
        [
            (
                "user",
                "2031-03-11T18:00:00Z",
                "Great. Plumber cancelled on me. Rebooked for Tuesday. Tuesday! "
                'And "first thing" means 7:30 apparently.',
            ),
            (
                "assistant",
                "2031-03-11T18:01:00Z",
                "That's annoying. Updated: the plumber is now coming on **Tuesday 18 March**, "
                "first thing at **7:30**.",
            ),
        ],
    )
    text = "\n".join(now)
    assert any("2031-03-18" in ln and "7:30" in ln for ln in now)
    assert "**" not in text  # the recap's markup is no part of the line
    assert not any("2031-03-14" in ln for ln in now)
    assert any("2031-03-14" in ln for ln in past)


# -- a card set out line by line, and a reply drafted for the user ------------------------------

CARD = [
    (
        "user",
        "2032-02-01T10:00:00Z",
        "This arrived and I have no idea how to answer it properly:\n\n"
        "```\n"
        "Dr and Mrs Lionel Ashdown\n"
        "request the pleasure of your company\n"
        "at the christening of their son\n"
        "Felix Arthur\n"
        "at St Mary's Church, Cowley\n"
        "on Sunday the fourteenth of March\n"
        "at eleven o'clock\n"
        "```\n\n"
        "Felix is my nephew.",
    ),
    (
        "assistant",
        "2032-02-01T10:02:00Z",
        "The christening of **Felix** is on **Sunday 14 March** at 11am at St Mary's Church, "
        "Cowley. A formal answer goes in the third person:\n\n"
        "> Mr Ravi Desai thanks Dr and Mrs Lionel Ashdown for their kind invitation to the "
        "christening on Friday and accepts with pleasure.",
    ),
    ("user", "2032-02-01T10:05:00Z", "Lovely, thank you."),
]


def test_a_sentence_set_out_line_by_line_is_read_as_one():
    from doctree.agent.offline.segment import _line_sentences

    lines = [
        "Dr and Mrs Lionel Ashdown",
        "request the pleasure of your company",
        "at the christening of their son",
        "Felix Arthur",
        "at St Mary's Church, Cowley",
    ]
    assert _line_sentences(lines) == [" ".join(lines)]
    # lines that each say their own thing stay apart
    assert _line_sentences(["Bins go out on Monday.", "Recycling is Thursday"]) == [
        "Bins go out on Monday.",
        "Recycling is Thursday",
    ]


def test_a_card_pasted_in_a_fence_and_asked_about_is_read_with_its_day(tmp_path):
    facts = _facts(tmp_path, CARD)
    assert any("Felix" in ln and "2032-03-14" in ln for ln in facts.split("\n"))
    # the reply the assistant drafted for the user is no finding ("on Friday" in it is none)
    assert "Ravi Desai thanks" not in facts


# -- markdown footnotes --------------------------------------------------------------------

FOOTNOTED = (
    "Plan for the allotment open day:\n\n"
    "```\n"
    "We're holding it at Plot 14[^where] on the last weekend of July[^when].\n"
    "Teas are run by Mrs Okafor[^teas].\n\n"
    "[^where]: The big plot by the gate. Key from the shed, code on the board.\n"
    "[^when]: Saturday 26 July to Sunday 27 July. Gates open at 10am.\n"
    "[^teas]: She needs the urn back by 1 August.\n"
    "```"
)


def test_a_footnote_is_read_as_said_of_what_its_mark_ends():
    from doctree.agent.offline.blocks import footnote_anchors, footnotes_named, footnotes_read

    read = footnotes_read(FOOTNOTED)
    assert "[^" not in read
    assert "We're holding it at Plot 14: The big plot by the gate." in read
    assert "We're holding it at Plot 14 on the last weekend of July: Gates open at 10am." in read
    assert "Teas are run by Mrs Okafor: She needs the urn back by 1 August." in read
    anchors = footnote_anchors(FOOTNOTED)
    assert list(anchors) == ["where", "when", "teas"]
    assert footnotes_named("Change footnote 3: by 3 August.", anchors) == (
        "Change (Teas are run by Mrs Okafor): by 3 August."
    )
    assert footnotes_named("footnote 9 is wrong", anchors) == "footnote 9 is wrong"
    assert footnotes_read("A price [^1] with no note below.") == "A price [^1] with no note below."


def test_a_footnote_named_later_moves_the_day_it_gave(tmp_path):
    now, past = _lines(
        tmp_path,
        [
            ("user", "2031-06-02T09:00:00Z", f"{FOOTNOTED}\n\nCan you keep the details?"),
            ("assistant", "2031-06-02T09:01:00Z", "Kept."),
            (
                "user",
                "2031-06-02T09:05:00Z",
                "Update footnote 2: we're now opening from Friday the 25th, the council "
                "gave us an extra day.",
            ),
            ("assistant", "2031-06-02T09:06:00Z", "Noted."),
        ],
    )
    assert any("2031-07-25" in ln for ln in now)
    assert not any("2031-07-26" in ln and "2031-07-25" not in ln for ln in now)
    assert any("Key from the shed" in ln for ln in now)  # the other footnotes stand


# -- the days of a range ---------------------------------------------------------------------


def test_the_days_of_a_range_are_its_ends():
    from doctree.agent.offline import supersession

    line = "The lodge: Friday 27 August (2038-08-27) to Monday 30 August (2038-08-30)."
    assert [v.role for v in supersession.values(line)] == ["from", "to"]
    # a stay said to start earlier replaces its first day, not its last
    new = "We're now going to the lodge from Thursday the 26th (2038-08-26)."
    (rep,) = supersession.replacements(new, line)
    assert rep.old.norm == "2038-08-27" and rep.new.norm == "2038-08-26"
    # "from … to …" of a change still names the old day as the one left
    moved = "The lodge booking moved from 27 August (2038-08-27) to 28 August (2038-08-28)."
    assert all(r.new.norm == "2038-08-28" for r in supersession.replacements(moved, line))


# -- days counted from a birthday, and a day called off -------------------------------------


def test_a_day_counted_from_a_birthday_counts_from_the_birthday(tmp_path):
    facts = _facts(
        tmp_path,
        [
            (
                "user",
                "2034-01-09T08:00:00Z",
                "Ilse turns 7 on the 3rd of May. Her party is the Sunday after her birthday. "
                "Bram, my partner, turns 50 on the 2nd of March, and his retirement do is "
                "five days after his birthday.",
            ),
            ("assistant", "2034-01-09T08:01:00Z", "Got them."),
        ],
    )
    # five days after Bram's birthday (2 March), not after the day the party is counted to
    assert "2034-03-07" in facts
    assert "2034-05-12" not in facts and "2034-05-09" not in facts


def test_a_weekday_called_off_is_the_one_to_come():
    from datetime import date

    from doctree.agent.offline.resolve import resolve_relative

    ref = date(2031, 3, 11)  # a Tuesday
    text, found = resolve_relative("The plumber has cancelled Friday.", ref, by_clause=True)
    assert [d for _, d in found] == [date(2031, 3, 14)]
    # a weekday in a sentence about the past still reads as the one gone
    text, found = resolve_relative("The plumber came on Friday.", ref, by_clause=True)
    assert [d for _, d in found] == [date(2031, 3, 7)]


# -- a visit said as a stay, and a predicate cut from its subject -----------------------------


def test_a_visit_said_as_a_stay_is_forgotten_whole(tmp_path):
    facts = _facts(
        tmp_path,
        [
            (
                "user",
                "2033-04-02T20:00:00Z",
                "Lovely news, my aunt, the formidable Hildegard, has offered to help by staying "
                "the whole week of the 21st. The boiler is serviced on the 9th.",
            ),
            ("assistant", "2033-04-02T20:01:00Z", "Noted."),
            (
                "user",
                "2033-04-02T20:03:00Z",
                "Actually forget what I said about Hildegard's visit, it's not settled.",
            ),
            ("assistant", "2033-04-02T20:04:00Z", "Done."),
        ],
    )
    assert "Hildegard" not in facts  # not even the subject left without its verb
    assert "boiler" in facts  # the other statement stays


def test_the_predicate_cut_leaves_no_subject_alone():
    from doctree.agent.offline.clauses import clause_left

    assert clause_left("My aunt, the formidable Hildegard, is staying the week.", {"stay"}) is None
    # a clause of its own still goes alone
    assert clause_left("Tom is moving to Leeds, and his sister is pregnant.", {"pregnant"}) == (
        "Tom is moving to Leeds."
    )


# -- a reader's guesses settled later ----------------------------------------------------------


def test_guesses_in_brackets_are_settled_by_what_the_user_says_later(tmp_path):
    facts = _facts(
        tmp_path,
        [
            (
                "user",
                "2034-09-01T17:00:00Z",
                "Typing up the note the cleaner, Orla, left. My guesses in brackets:\n\n"
                "```\n"
                "Window man is coming the [9th? 19th?] - leave the side gate open\n"
                "Call Mr [Hanley? Handley?] about the gutter\n"
                "You owe me £[36? 38?] for the oven\n"
                "```",
            ),
            ("assistant", "2034-09-01T17:01:00Z", "Which readings are right?"),
            (
                "user",
                "2034-09-01T17:20:00Z",
                "Texted her: it's the 19th, Mr Handley, and it's £38.",
            ),
            ("assistant", "2034-09-01T17:21:00Z", "Thanks."),
        ],
    )
    assert "Window man is coming the 19th (2034-09-19)" in facts
    assert "Mr Handley about the gutter" in facts
    assert "Orla £38" in facts
    assert "?]" not in facts and "Hanley?" not in facts


def test_a_later_sentence_about_something_else_settles_nothing():
    from doctree.agent.offline.extract import _settled

    raw = "Window man is coming the [9th? 19th?] - leave the side gate open"
    assert _settled(raw, "It's the 19th, the window man said.")[1] == 1
    assert _settled(raw, "Both are fine.") == (raw, 0)
    assert _settled(raw, "the 9th or the 19th, no idea") == (raw, 0)  # two readings said


# -- bad input: long runs of marks are read within bounds -----------------------------------


def test_what_a_footnote_notes_is_looked_for_just_before_its_mark():
    from doctree.agent.offline.blocks import footnote_anchors

    # a mark after a long run of text without a clause break: its anchor is the end of it,
    # not the whole run (each mark reads a bounded stretch, so many marks stay linear)
    text = "word " * 4000 + "the hall[^h]\n[^h]: Booked."
    anchor = footnote_anchors(text)["h"]
    assert anchor.endswith("the hall") and len(anchor) <= 200


def test_a_long_bracket_is_no_reading_of_guesses():
    from doctree.agent.offline.extract import _GUESSES, _settled

    # guesses are a few words: a bracket of hundreds of characters is something else, and
    # an unclosed one is not searched to the end of the text for each of its marks
    long = "Note [" + "a? " * 200 + "]"
    assert _GUESSES.search(long) is None
    assert _settled(long, "it's a") == (long, 0)
    assert _GUESSES.search("[" + "a?" * 5000) is None
