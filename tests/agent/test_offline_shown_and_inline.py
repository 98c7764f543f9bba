"""What only the assistant sees and what a mail answers inline: a picture the user shows
("[image: scan.jpg]") is read out by the assistant, and that reading is what it holds, found
like a tool's result, its days read as the user's would be; the user's "X, not Y" puts a
figure of it right. A reply written inline under a quoted mail keeps every quoted paragraph
as the quoted writer's. A recap of pasted countdowns or labels is read in the user's voice,
and a reply asking to forget one named thing lets the rest of a recap stand. A forget said
in the user's words reaches the line read from the assistant's restatement of it."""

from __future__ import annotations

import pytest

from doctree.agent.offline import OfflineMemoryAgent
from doctree.agent.offline import language as lang
from doctree.agent.offline.mail import mail_chain
from doctree.agent.offline.recap import standing
from doctree.agent.offline.segment import without_attachments
from doctree.interop.tools import MemoryTools
from doctree.sessions.transcripts import Transcript, parse_transcript
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import current_facts, page_lines, run, transcript


def _facts(tmp_path, *sessions: list[tuple[str, str, str]]) -> str:
    with DocumentsRepository(tmp_path / "m.db") as repo:
        for i, messages in enumerate(sessions):
            run(repo, transcript(f"s-shown-{i}", *messages))
        return current_facts(repo)


def _all_lines(tmp_path, *sessions: list[tuple[str, str, str]]) -> str:
    """Each session in turn, each able to read the ones before (as `doctree replay` gives
    them from their record); every line of the pages a person reads."""
    said: dict[str, Transcript] = {}
    with DocumentsRepository(tmp_path / "m.db") as repo:
        for i, messages in enumerate(sessions):
            text = transcript(f"s-shown-{i}", *messages)
            t = parse_transcript(text)
            OfflineMemoryAgent().run(
                text, MemoryTools(repo, t.owner, session_id=t.session_id), earlier=said.get
            )
            said[t.session_id] = t
        now, past = page_lines(repo)
        return "\n".join(now + past)


# -- a picture only the assistant sees ------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "[image: IMG_0042.jpg]\nWhat does it say?",
        "[Photo]\nwhat does it say?",
        "<attachment: lease.pdf> what does it say?",
        "![](https://example.org/a.png)\nwhat does it say?",
        "IMG_0042.HEIC\nwhat does it say?",
    ],
)
def test_the_mark_of_an_attachment_is_taken_off(text):
    rest, shown = without_attachments(text)
    assert shown and rest.lower() == "what does it say?"


def test_text_that_only_names_a_picture_shows_none():
    assert without_attachments("I took a photo of the beach [so pretty]") == (
        "I took a photo of the beach [so pretty]",
        False,
    )


SHOWN = [
    (
        "user",
        "2031-05-04T09:00:00Z",
        "[image: board.jpg]\n\nThat's the whiteboard in our hall. Can you read it off?",
    ),
    (
        "assistant",
        "2031-05-04T09:01:00Z",
        "Here's what it says:\n\n"
        '- **Thu 8** – "Oskar – swimming gala 5.20, Millfield pool"\n'
        '- **Sat 10** – "Quiz night @ the Anchor, 7.30"\n\n'
        'There\'s a note at the bottom: "Halvorsen Glazing – window fitting – Tue 13 May".',
    ),
    (
        "user",
        "2031-05-04T09:03:00Z",
        "Oskar is my nephew. The gala is 5.50 not 5.20, my writing is awful.",
    ),
    ("assistant", "2031-05-04T09:04:00Z", "Got it."),
]


def test_the_assistants_reading_of_a_picture_is_kept_with_its_days(tmp_path):
    facts = _facts(tmp_path, SHOWN)
    assert "Millfield" in facts and "2031-05-08" in facts
    assert "Anchor" in facts and "2031-05-10" in facts
    assert "Halvorsen Glazing" in facts and "2031-05-13" in facts
    assert "**" not in facts  # the reading's markup is no part of the line


def test_the_users_correction_of_a_figure_read_off_a_picture_holds(tmp_path):
    facts = _facts(tmp_path, SHOWN)
    gala = [ln for ln in facts.split("\n") if "Millfield" in ln]
    assert gala and all("5.50" in ln and "5.20" not in ln for ln in gala)


def test_a_picture_not_asked_about_is_no_reading(tmp_path):
    facts = _facts(
        tmp_path,
        [
            ("user", "2031-05-04T09:00:00Z", "[image: dog.jpg]\n\nLook at him in the snow!"),
            (
                "assistant",
                "2031-05-04T09:01:00Z",
                "He looks delighted. Huskies like Koda love -5 degrees.",
            ),
            ("user", "2031-05-04T09:02:00Z", "He does."),
        ],
    )
    assert "Huskies" not in facts


# -- a mail answered inline -----------------------------------------------------------------

INLINE = (
    "Here's what I sent back to the choir.\n\n"
    "On Mon, 5 May 2031 at 18:00, Ines Barros <ines@harbourchoir.example> wrote:\n"
    "> The summer concert is at St Olave's on Saturday 21 June.\n"
    "> Can you sing?\n\n"
    "Yes, count me in.\n\n"
    "> Rehearsals are on Tuesdays at 7.15 in the church\n"
    "> hall, starting 27 May.\n\n"
    "Fine by me.\n\n"
    "> Tickets are £8, payable to the treasurer by 1 June.\n\n"
    "Will do."
)


def test_every_quoted_paragraph_of_an_inline_reply_is_the_quoted_writers():
    chain = mail_chain(INLINE)
    assert chain is not None and len(chain) == 2
    quoted = " ".join(chain[0].lines)
    assert chain[0].sender == "Ines Barros"
    assert "starting 27 May" in quoted and "payable to the treasurer" in quoted
    own = " ".join(chain[1].lines)
    assert "Fine by me." in own and "Tickets" not in own


def test_an_inline_reply_keeps_what_each_quoted_paragraph_says(tmp_path):
    facts = _facts(
        tmp_path,
        [
            ("user", "2031-05-06T08:00:00Z", INLINE),
            ("assistant", "2031-05-06T08:01:00Z", "Noted."),
        ],
    )
    assert "7.15" in facts and "£8" in facts and "2031-06-01" in facts


# -- recaps ---------------------------------------------------------------------------------


def test_a_reply_forgetting_one_named_thing_lets_the_rest_of_a_recap_stand():
    recap = [
        "Your niece Ada starts at Kelso High on 2 September.",
        "Ada's kitten is called Biscuit.",
    ]
    reply = ["Actually, forget what I said about the kitten, she'd hate me sharing that."]
    assert standing(reply, recap) == recap[:1]
    assert standing(["Actually, no, it's the 3rd."], recap) == []


COUNTDOWN = [
    (
        "user",
        "2031-01-05T09:00:00Z",
        "My widget only shows days left, can you turn them into dates and keep them?\n\n"
        "```\n"
        "🎻 Recital ........ 12 days\n"
        "🚗 Car tax due ...... 40 days\n"
        "```\n\nMum's Ilse, by the way.",
    ),
    (
        "assistant",
        "2031-01-05T09:01:00Z",
        "From today, Sunday 5 January:\n\n"
        "- 🎻 Recital: **Friday 17 January**\n"
        "- 🚗 Car tax due: **Friday 14 February**\n",
    ),
    ("user", "2031-01-05T09:02:00Z", "Perfect."),
]


def test_a_recap_dating_pasted_labels_is_read_in_the_users_voice(tmp_path):
    facts = _facts(tmp_path, COUNTDOWN)
    assert "Recital" in facts and "2031-01-17" in facts
    assert "Car tax" in facts and "2031-02-14" in facts


def test_a_possessive_opening_a_recap_sentence_is_a_name(tmp_path):
    facts = _facts(
        tmp_path,
        [
            (
                "user",
                "2031-03-02T09:00:00Z",
                "Booked the ferry for the 14th, Marit's meeting me off the boat. It's her "
                "birthday on the Tuesday so I'm staying the week.",
            ),
            (
                "assistant",
                "2031-03-02T09:01:00Z",
                "Lovely. Marit's birthday is Tuesday 18 March.",
            ),
            ("user", "2031-03-02T09:02:00Z", "Yes!"),
        ],
    )
    assert any("Marit" in ln and "2031-03-18" in ln for ln in facts.split("\n"))


# -- a firm named like a person -------------------------------------------------------------


@pytest.mark.parametrize(
    ("sentence", "firm"),
    [
        ("I've told Ashby Crane, the letting agents, that we're leaving.", "Ashby Crane"),
        ("We went with Okafor Lunn, our solicitors.", "Okafor Lunn"),
    ],
)
def test_a_name_said_to_be_people_of_a_trade_is_a_firm(sentence, firm):
    assert firm in [m.group("name") for p in lang.ORGS for m in p.finditer(sentence)]


@pytest.mark.parametrize(
    "sentence",
    [
        "Overall, the developments were slow.",
        "I met Jonah and Tess, the organisers.",
        "Ask Priya, the managers said so.",
        "We flew to Lyon, the inhabitants were lovely.",
    ],
)
def test_no_firm_in_what_only_looks_like_one(sentence):
    pattern = [p for p in lang.ORGS if "grandparents" in p.pattern][0]
    assert pattern.search(sentence) is None


# -- a forget in the user's words of a line in the assistant's ------------------------------


def test_a_forget_reaches_the_line_read_from_a_restatement(tmp_path):
    first = [
        (
            "user",
            "2031-04-01T20:00:00Z",
            "Also herself wants the shed cleared before her brother Tobias comes to stay on "
            "the 19th.",
        ),
        (
            "assistant",
            "2031-04-01T20:01:00Z",
            "Shed cleared before Tobias's visit on Saturday 19 April.",
        ),
    ]
    second = [
        (
            "user",
            "2031-04-08T20:00:00Z",
            "Forget what I told you about her brother coming to stay, it's off and she'd "
            "rather none of it was written down.",
        ),
        ("assistant", "2031-04-08T20:01:00Z", "Done."),
    ]
    text = _all_lines(tmp_path, first, second)
    assert "Tobias" not in text


def test_a_recap_dating_the_undated_part_of_a_sentence_is_a_line_of_its_own(tmp_path):
    facts = _facts(
        tmp_path,
        [
            (
                "user",
                "2031-01-20T18:00:00Z",
                "Paste of my list:\n\n```\n⏳ Countdowns\n🧳 Oslo trip ...... 30 days\n"
                "🩺 Check-up – Dr Lindqvist 15 days\n```\n\nThe cast came off on Saturday so "
                "that one's gone, and Dr Lindqvist wants to see me for a check-up.",
            ),
            (
                "assistant",
                "2031-01-20T18:01:00Z",
                "From today, Monday 20 January:\n\n- 🧳 Oslo trip: **Wednesday 19 February**\n"
                "- 🩺 Check-up with Dr Lindqvist: **Tuesday 4 February**\n",
            ),
            ("user", "2031-01-20T18:02:00Z", "Thanks!"),
        ],
    )
    assert any("Lindqvist" in ln and "2031-02-04" in ln for ln in facts.split("\n"))
    assert "2031-01-18" in facts  # the cast's Saturday stays on its own line
