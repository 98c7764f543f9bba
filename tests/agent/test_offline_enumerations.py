"""The assistant's enumerations as referents: a user deletes, edits or chooses what the
assistant listed by pointing at it ("delete the second point", "in 3 it's Thursday the 15th",
"the cheaper one"), switches a choice of two later ("go with the other one"), and takes one
person's entry off a list of their own; when the referent is unsure, nothing is done."""

from __future__ import annotations

import pytest

from doctree.agent.offline.enumerations import Enumeration, enumerations, pointed
from tests.agent.offline_runs import current_facts, everything, past_facts, run, transcript

NEWS = (
    "Quick update. My landlord Pieter is raising the rent to £1,150 from June. My colleague "
    "Amara is pregnant with twins. The boiler service is booked for Tuesday 13 May at 8am. "
    "I've started going to pottery on Wednesdays."
)
ITEMS = (
    "Rent going up to £1,150 from June (landlord Pieter).",
    "Amara, your colleague, is expecting twins.",
    "Boiler service: Tuesday 13 May, 8am.",
    "Pottery on Wednesdays.",
)
MARKERS = ("£1,150", "Amara", "boiler", "pottery")


def recap(style: str) -> str:
    if style == "numbered":
        lines = [f"{i}. {x}" for i, x in enumerate(ITEMS, 1)]
    elif style == "paren":
        lines = [f"{i}) {x}" for i, x in enumerate(ITEMS, 1)]
    else:
        lines = [f"- {x}" for x in ITEMS]
    return "Got it, here's what I have:\n\n" + "\n".join(lines)


def recap_session(reply: str, style: str = "numbered") -> str:
    return transcript(
        "s-recap",
        ("user", "2031-05-04T09:00:00Z", NEWS),
        ("assistant", "2031-05-04T09:01:00Z", recap(style)),
        ("user", "2031-05-04T09:03:00Z", reply),
        ("assistant", "2031-05-04T09:04:00Z", "Done."),
    )


@pytest.mark.parametrize(
    ("reply", "style", "gone"),
    [
        ("Delete the second point, it isn't mine to share.", "numbered", {1}),
        ("Scrap number 2.", "paren", {1}),
        ("Can you remove item #2?", "numbered", {1}),
        ("Oh, take the second one out, please.", "bulleted", {1}),
        ("And the last one, take that out as well.", "numbered", {3}),
        ("The first two are fine, drop the rest.", "numbered", {2, 3}),
        ("Please delete points 2 and 4.", "numbered", {1, 3}),
    ],
)
def test_an_item_deleted_by_its_place_takes_the_statement_it_restates_and_no_other(
    repo, reply, style, gone
):
    summary = run(repo, recap_session(reply, style))
    text = everything(repo)
    for i, marker in enumerate(MARKERS):
        if i in gone:
            assert marker not in text, (marker, text)
        else:
            assert marker in current_facts(repo), (marker, text)
    # the statement and the request leave the session's record too
    said = [raw for _, raw in summary.withheld]
    assert reply in said
    assert not any("Amara" in raw for raw in said) or 1 in gone


@pytest.mark.parametrize(
    ("reply", "new", "old"),
    [
        ("In 3 it's Thursday the 15th, not Tuesday.", "Thursday the 15th (2031-05-15)", "13 May"),
        ("Point 1 should say £1,200.", "£1,200", "£1,150"),
        ("Item 3 should be 9am, sorry.", "at 9am", "at 8am"),
        ("Change 3 to Friday 16 May.", "Friday 16 May (2031-05-16)", "Tuesday 13 May"),
    ],
)
def test_an_item_edited_by_its_place_replaces_the_value_of_the_statement_it_restates(
    repo, reply, new, old
):
    run(repo, recap_session(reply))
    facts = current_facts(repo)
    assert new in facts, facts
    assert old not in facts, facts
    for marker in ("Amara", "pottery"):  # the other items stay as said
        assert marker in facts


@pytest.mark.parametrize(
    "reply",
    [
        "Delete the fifth point.",  # beyond the list
        "Scrap number 7, please.",
        "In 9 it's Friday the 16th.",
    ],
)
def test_a_place_beyond_the_list_changes_nothing(repo, reply):
    run(repo, recap_session(reply))
    facts = current_facts(repo)
    for marker in MARKERS:
        assert marker in facts, (marker, facts)
    assert "13 May" in facts


def test_a_place_with_no_list_before_it_changes_nothing(repo):
    text = transcript(
        "s-nolist",
        ("user", "2031-05-04T09:00:00Z", NEWS),
        ("assistant", "2031-05-04T09:01:00Z", "Thanks, noted all of that."),
        ("user", "2031-05-04T09:03:00Z", "Delete the second point."),
        ("assistant", "2031-05-04T09:04:00Z", "Done."),
    )
    run(repo, text)
    facts = current_facts(repo)
    for marker in MARKERS:
        assert marker in facts, (marker, facts)


def test_a_list_three_messages_back_is_not_pointed_at(repo):
    text = transcript(
        "s-old",
        ("user", "2031-05-04T09:00:00Z", NEWS),
        ("assistant", "2031-05-04T09:01:00Z", recap("numbered")),
        ("user", "2031-05-04T09:02:00Z", "Thanks. My bike was stolen yesterday."),
        ("assistant", "2031-05-04T09:03:00Z", "Sorry to hear that."),
        ("user", "2031-05-04T09:04:00Z", "I'll report it to the police tonight."),
        ("assistant", "2031-05-04T09:05:00Z", "Good idea."),
        ("user", "2031-05-04T09:06:00Z", "Delete the second point."),
        ("assistant", "2031-05-04T09:07:00Z", "Done."),
    )
    run(repo, text)
    assert "Amara" in current_facts(repo)


OPTIONS = (
    "Here are both options for each:\n\n"
    "Gym\n"
    "- A: Pulse Fitness, Mill Road, £32 a month, next to your office\n"
    "- B: Corefit, Station Square, £24 a month\n\n"
    "Piano lessons\n"
    "1. Mondays 5pm with Mrs Okoro\n"
    "2. Thursdays 6:15pm at the music school\n\n"
    "Which would you like?"
)


def choice_session(reply: str) -> str:
    return transcript(
        "s-choose",
        ("user", "2031-06-01T18:00:00Z", "Help me choose a gym and piano lessons for Theo."),
        ("assistant", "2031-06-01T18:01:00Z", OPTIONS),
        ("user", "2031-06-01T18:03:00Z", reply),
        ("assistant", "2031-06-01T18:04:00Z", "Noted."),
    )


@pytest.mark.parametrize(
    ("reply", "gym", "piano"),
    [
        ("Gym, the one nearer my office. Piano lessons, the latter.", "Pulse Fitness", "Thursdays"),
        ("Gym: the cheaper one. Piano lessons: the former.", "Corefit", "Mondays"),
        ("For the gym, option B please. Piano lessons, the earlier one.", "Corefit", "Mondays"),
        (
            "Gym, the more expensive one. Piano lessons, the later one.",
            "Pulse Fitness",
            "Thursdays",
        ),
        ("Gym, the less expensive option. Piano lessons, the second one.", "Corefit", "Thursdays"),
    ],
)
def test_a_choice_by_description_or_order_is_recorded_in_the_chosen_items_words(
    repo, reply, gym, piano
):
    run(repo, choice_session(reply))
    facts = current_facts(repo)
    assert f"Gym: the user chose {gym}" in facts, facts
    assert f"Piano lessons: the user chose {piano}" in facts, facts


def test_a_bare_pick_after_two_lists_chooses_nothing(repo):
    run(repo, choice_session("The latter."))
    assert "chose" not in everything(repo)


def test_a_pick_among_inline_options_names_the_option(repo):
    text = transcript(
        "s-inline",
        ("user", "2031-06-01T18:00:00Z", "I need to get to Leeds on Friday for the conference."),
        ("assistant", "2031-06-01T18:01:00Z", "Two direct trains: would you like the 7:15 or the 8:40?"),
        ("user", "2031-06-01T18:03:00Z", "The earlier one, please."),
        ("assistant", "2031-06-01T18:04:00Z", "Noted."),
    )  # fmt: skip
    run(repo, text)
    assert "The user chose the 7:15" in current_facts(repo)


def test_the_other_one_in_a_later_session_switches_the_choice_and_keeps_the_old_under_past(repo):
    run(repo, choice_session("Gym, the former. Piano lessons, the latter."))
    later = transcript(
        "s-switch",
        ("user", "2031-06-12T18:00:00Z", "Change of plan for the gym, let's go with the other one."),
        ("assistant", "2031-06-12T18:01:00Z", "Switched."),
    )  # fmt: skip
    run(repo, later)
    facts = current_facts(repo)
    assert "Gym: the user chose Corefit" in facts
    assert "Gym: the user chose Pulse Fitness" not in facts
    assert "Gym: the user chose Pulse Fitness" in past_facts(repo)
    assert "Piano lessons: the user chose Thursdays" in facts  # the other choice stays


def test_the_other_one_in_the_same_session_replaces_the_choice(repo):
    text = transcript(
        "s-switch-now",
        ("user", "2031-06-01T18:00:00Z", "Help me choose a gym and piano lessons for Theo."),
        ("assistant", "2031-06-01T18:01:00Z", OPTIONS),
        ("user", "2031-06-01T18:03:00Z", "Gym, the former. Piano lessons, the latter."),
        ("assistant", "2031-06-01T18:04:00Z", "Noted."),
        ("user", "2031-06-01T18:10:00Z", "Actually, for piano lessons I'll switch to the other one."),
        ("assistant", "2031-06-01T18:11:00Z", "Switched."),
    )  # fmt: skip
    run(repo, text)
    facts = current_facts(repo)
    assert "Piano lessons: the user chose Mondays" in facts
    assert "Piano lessons: the user chose Thursdays" not in facts
    assert "Gym: the user chose Pulse Fitness" in facts


def test_the_other_one_without_a_choice_of_its_name_switches_nothing(repo):
    run(repo, choice_session("Gym, the former. Piano lessons, the latter."))
    later = transcript(
        "s-switch-other",
        ("user", "2031-06-12T18:00:00Z", "For the swimming club, let's go with the other one."),
        ("assistant", "2031-06-12T18:01:00Z", "Noted."),
    )  # fmt: skip
    run(repo, later)
    facts = current_facts(repo)
    assert "Gym: the user chose Pulse Fitness" in facts
    assert "Piano lessons: the user chose Thursdays" in facts
    assert not past_facts(repo)


PRESENTS = (
    "Birthday presents to sort, keep this for me:\n\n"
    "Gran (Rosa) ... knitting bag ... £30\n"
    "Uncle Tomasz ... whisky glasses ... £25\n"
    "Milo, my godson, 7 ... a kite ... £15\n"
    "Nadia (my boss) ... hand cream ... £12\n"
)
ENTRIES = {
    "Rosa": "knitting bag",
    "Tomasz": "whisky glasses",
    "Milo": "kite",
    "Nadia": "hand cream",
}


@pytest.mark.parametrize(
    ("request_", "who"),
    [
        ("Don't keep anything about Nadia's present, she sometimes sees my screen.", "Nadia"),
        ("Forget anything about Tomasz's present.", "Tomasz"),
        ("Actually, take Milo off the list, his mum is sorting it.", "Milo"),
    ],
)
@pytest.mark.parametrize("same_message", [True, False])
def test_one_persons_entry_of_a_list_leaves_and_the_rest_of_the_list_stays(
    repo, request_, who, same_message
):
    if same_message:
        messages = [("user", "2031-06-01T18:00:00Z", f"{PRESENTS}\n{request_}")]
    else:
        messages = [
            ("user", "2031-06-01T18:00:00Z", PRESENTS),
            ("assistant", "2031-06-01T18:01:00Z", "Saved."),
            ("user", "2031-06-01T18:03:00Z", request_),
        ]
    run(repo, transcript("s-presents", *messages, ("assistant", "2031-06-01T18:05:00Z", "Done.")))
    text = everything(repo)
    assert ENTRIES[who] not in text, text
    for other, item in ENTRIES.items():
        if other != who:
            assert item in current_facts(repo), (item, text)


def test_an_entry_named_by_a_name_two_lines_share_is_left_alone(repo):
    twice = PRESENTS + "Milo's teacher ... a card ... £5\n"
    messages = [
        ("user", "2031-06-01T18:00:00Z", twice.replace("Milo's teacher", "Milo (teacher)")),
        ("assistant", "2031-06-01T18:01:00Z", "Saved."),
        ("user", "2031-06-01T18:03:00Z", "Forget anything about Milo's present."),
    ]
    run(repo, transcript("s-two", *messages, ("assistant", "2031-06-01T18:05:00Z", "Done.")))
    facts = current_facts(repo)
    assert "kite" in facts and "a card" in facts


def test_enumerations_read_numbered_lettered_bulleted_and_inline_lists():
    lists = enumerations(OPTIONS)
    assert [e.label for e in lists] == ["Gym", "Piano lessons"]
    assert lists[0].items[1].startswith("Corefit") and lists[0].marks == ("a", "b")
    assert enumerations("Shall I book either the Friday slot or the Monday one?") == [
        Enumeration(("the Friday slot", "the Monday one"), inline=True)
    ]
    assert enumerations("Noted, thanks.") == []


@pytest.mark.parametrize(
    "sentence",
    [
        "And next Friday we demo the first screens to the support team.",  # an ordinal in passing
        "I'll drop the kids at the second gate.",
        "The latter part of the week is busy.",
    ],
)
@pytest.mark.parametrize("asked", [True, False])
def test_ordinals_said_in_passing_point_at_nothing(sentence, asked):
    lists = enumerations(recap("numbered"))
    assert pointed(sentence, lists, asked=asked) is None


def test_an_item_whose_statement_also_holds_another_item_takes_nothing_whole(repo):
    text = transcript(
        "s-shared",
        ("user", "2031-05-04T09:00:00Z",
         "I'm moving to 9 Elm Row on Saturday 24 May and my friend Caoimhe is driving the van "
         "on moving day. The car's MOT is due on 9 June."),
        ("assistant", "2031-05-04T09:01:00Z",
         "Noted:\n\n1. Moving to 9 Elm Row on Saturday 24 May.\n"
         "2. Caoimhe is driving the van on moving day.\n3. Car MOT due 9 June."),
        ("user", "2031-05-04T09:03:00Z", "Delete the first point."),
        ("assistant", "2031-05-04T09:04:00Z", "Done."),
    )  # fmt: skip
    run(repo, text)
    facts = current_facts(repo)
    assert "Caoimhe" in facts and "MOT" in facts, facts


@pytest.mark.parametrize(
    ("said", "who", "new"),
    [
        ("Gran's gone off knitting, so she's getting a jigsaw instead.", "Rosa", "jigsaw"),
        ("Tomasz is getting a hip flask instead, same budget.", "Tomasz", "hip flask"),
        ("Change for Milo: a yo-yo instead, he has lost interest.", "Milo", "yo-yo"),
    ],
)
def test_a_persons_entry_said_to_be_another_thing_instead_in_a_later_session_is_replaced(
    repo, said, who, new
):
    first = [
        ("user", "2031-06-01T18:00:00Z", PRESENTS.replace("Gran (Rosa)", "Gran")),
        ("assistant", "2031-06-01T18:01:00Z", "Saved."),
    ]
    run(repo, transcript("s-list", *first))
    later = [
        ("user", "2031-06-20T18:00:00Z", said),
        ("assistant", "2031-06-20T18:01:00Z", "Updated."),
    ]
    run(repo, transcript("s-change", *later))
    facts, past = current_facts(repo), past_facts(repo)
    assert ENTRIES[who] not in facts and ENTRIES[who] in past, (facts, past)
    assert new in facts
    for other, item in ENTRIES.items():  # the rest of the list stays as it was
        if other != who:
            assert item in facts, (item, facts)


def test_instead_with_no_one_entry_of_its_name_replaces_no_entry(repo):
    first = [
        ("user", "2031-06-01T18:00:00Z", PRESENTS + "Milo (teacher) ... a card ... £5\n"),
        ("assistant", "2031-06-01T18:01:00Z", "Saved."),
    ]
    run(repo, transcript("s-list", *first))
    later = [
        ("user", "2031-06-20T18:00:00Z", "Milo is getting a yo-yo instead. Dinner is at 7pm instead."),
        ("assistant", "2031-06-20T18:01:00Z", "Updated."),
    ]  # fmt: skip
    run(repo, transcript("s-change", *later))
    facts = current_facts(repo)
    for item in [*ENTRIES.values(), "a card"]:
        assert item in facts, (item, facts)
