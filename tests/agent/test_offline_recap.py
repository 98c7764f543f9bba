"""The assistant's recap of what the user said, read as the user's statements when the user
lets it stand, in place of words the rules could not keep (another language, a dialect, a
layout): never a name or a sum the assistant brought in, never what the user took back, a
recap turned down or corrected, a list set out by place, nor a line said twice."""

from __future__ import annotations

import pytest

from doctree.agent.offline.recap import as_users
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import page_lines, run, transcript

T0, T1, T2, T3 = (
    "2028-03-01T09:00:00Z",  # a Wednesday
    "2028-03-01T09:01:00Z",
    "2028-03-01T09:02:00Z",
    "2028-03-01T09:03:00Z",
)


def _lines(tmp_path, *messages: tuple[str, str, str]) -> list[str]:
    with DocumentsRepository(tmp_path / "m.db") as repo:
        run(repo, transcript("s-recap", *messages))
        now, _ = page_lines(repo)
        return [ln for ln in now if not ln.startswith("- [[")]


def _pages(tmp_path, *messages: tuple[str, str, str]) -> dict[str, str]:
    with DocumentsRepository(tmp_path / "m.db") as repo:
        run(repo, transcript("s-recap", *messages))
        return {d.path: d.body for d in repo.documents("main", "~/memory")}


#: (what the user wrote, in words the rules do not read, the assistant's recap, the words a
#: line must then hold together)
UNREAD = [
    (
        "mia cugina giulia sab treno 9.40 bologna centrale, tienimelo a mente",
        "So your cousin Giulia arrives at Bologna Centrale on Saturday, on the 9.40 train.",
        ["Giulia", "Bologna Centrale", "2028-03-04"],
    ),
    (
        "buurman joost doet de kat vr t/m zo, sleutel bij nr 14",
        "Noted: your neighbour Joost looks after the cat from Friday to Sunday, and the key "
        "is at number 14.",
        ["Joost", "cat", "14"],
    ),
    (
        "siostra kasia robi sernik!! przyjeżdża z gdańska w pt",
        "Got it: your sister Kasia is baking the cheesecake and comes from Gdańsk on Friday.",
        ["Kasia", "cheesecake", "Gdańsk"],
    ),
]


@pytest.mark.parametrize(("said", "recap", "parts"), UNREAD)
def test_a_recap_the_user_lets_stand_keeps_what_the_rules_could_not_read(
    tmp_path, said, recap, parts
):
    lines = _lines(tmp_path, ("user", T0, said), ("assistant", T1, recap))
    assert any(all(p.lower() in ln.lower() for p in parts) for ln in lines), lines


@pytest.mark.parametrize(("said", "recap", "parts"), UNREAD[:2])
def test_a_recap_is_kept_when_the_next_message_goes_on_to_something_else(
    tmp_path, said, recap, parts
):
    lines = _lines(
        tmp_path,
        ("user", T0, said),
        ("assistant", T1, recap),
        ("user", T2, "Great. Also the boiler service is booked for next Tuesday."),
    )
    assert any(all(p.lower() in ln.lower() for p in parts) for ln in lines), lines


@pytest.mark.parametrize(
    "reply",
    [
        "No, that's wrong, she arrives on Sunday.",
        "Nope, not Bologna Centrale.",
        "Actually, it's the 10.40 train.",
        "Please don't keep any of that.",
        "Forget that, she may not come at all.",
        "Ignore that, I mixed her up with someone else.",
    ],
)
def test_a_recap_turned_down_corrected_or_taken_back_keeps_nothing(tmp_path, reply):
    said, recap, _ = UNREAD[0]
    lines = _lines(tmp_path, ("user", T0, said), ("assistant", T1, recap), ("user", T2, reply))
    assert not any("Bologna Centrale" in ln and "2028-03-04" in ln for ln in lines), lines


@pytest.mark.parametrize(
    "recap",
    [
        # a name the user never said: the assistant's own
        "So your cousin Giulia arrives on Saturday and Marco from the agency meets her.",
        # a figure the user never said: a sum the assistant worked out
        "So Giulia arrives on Saturday, and the two tickets come to €84.",
        # a question, not a statement
        "So your cousin Giulia arrives at Bologna Centrale on Saturday?",
        # the assistant speaking of itself
        "I'll remind you that Giulia arrives at Bologna Centrale on Saturday.",
    ],
)
def test_what_the_assistant_adds_or_asks_is_no_recap(tmp_path, recap):
    said = UNREAD[0][0]
    lines = _lines(tmp_path, ("user", T0, said), ("assistant", T1, recap))
    assert not any("Marco" in ln or "€84" in ln or "Giulia arrives" in ln for ln in lines), lines


def test_a_recap_never_names_what_the_user_took_back(tmp_path):
    lines = _lines(
        tmp_path,
        (
            "user",
            T0,
            "buurman joost doet de kat vr t/m zo. broer ruud zit diep in de schulden",
        ),
        ("user", T1, "Don't keep what I said about Ruud."),
        (
            "assistant",
            T2,
            "Understood, nothing about Ruud. Your neighbour Joost looks after the cat from "
            "Friday to Sunday; Ruud is in debt.",
        ),
    )
    assert not any("Ruud" in ln for ln in lines), lines


def test_a_list_set_out_by_place_is_no_recap(tmp_path):
    # its items are pointed at by their place ("delete the second point"), read for that
    lines = _lines(
        tmp_path,
        ("user", T0, UNREAD[1][0]),
        (
            "assistant",
            T1,
            "Here's what I have:\n1. Joost looks after the cat from Friday to Sunday.\n"
            "2. The key is with Joost.",
        ),
    )
    assert not any("Joost looks after" in ln for ln in lines), lines


def test_a_recap_of_a_line_kept_already_is_not_kept_twice(tmp_path):
    # the user's own line holds the day: a second line would leave a later change two to move
    lines = _lines(
        tmp_path,
        ("user", T0, "My sister Ana is flying in on Friday at 18:40, terminal 2."),
        ("assistant", T1, "Noted: Ana lands on Friday at 18:40 at terminal 2."),
    )
    assert any("18:40" in ln and "Ana" in ln for ln in lines), lines
    assert not any("Ana lands" in ln for ln in lines), lines


def test_a_recap_stays_on_the_page_of_whom_it_restates(tmp_path):
    pages = _pages(
        tmp_path,
        (
            "user",
            T0,
            "buurman joost doet de kat vr t/m zo; zus lotte komt za eten",
        ),
        (
            "assistant",
            T1,
            "Noted: your neighbour Joost looks after the cat from Friday to Sunday; your "
            "sister Lotte comes to dinner on Saturday.",
        ),
    )
    joost = pages.get("~/memory/people/joost", "")
    lotte = pages.get("~/memory/people/lotte", "")
    assert "cat" in joost and "dinner" not in joost
    assert "dinner" in lotte and "cat" not in lotte


@pytest.mark.parametrize(
    ("recap", "said"),
    [
        (
            "So your mum's operation is on Monday; you go the week after.",
            "So my mum's operation is on Monday; I go the week after.",
        ),
        (
            "Your brother lent you £800 and you're paying it back.",
            "My brother lent me £800 and I'm paying it back.",
        ),
        ("Kirsty covers the first week, and you take the second.", None),
        ("The key is yours until Sunday.", "The key is mine until Sunday."),
    ],
)
def test_a_recap_is_read_in_the_users_voice(recap, said):
    expected = said or "Kirsty covers the first week, and I take the second."
    assert as_users(recap) == expected


def test_the_trace_hook_is_handed_each_stages_output_in_order(tmp_path):
    from doctree.agent.offline import OfflineMemoryAgent
    from doctree.agent.offline.model import Analysis, Filing, Segmented
    from doctree.interop.tools import MemoryTools

    seen: list[tuple[str, object]] = []
    text = transcript("s-trace", ("user", T0, "My sister Ana is flying in on Friday at 18:40."))
    with DocumentsRepository(tmp_path / "m.db") as repo:
        OfflineMemoryAgent().run(
            text, MemoryTools(repo, "main", session_id="s-trace"), trace=lambda *x: seen.append(x)
        )
    assert [stage for stage, _ in seen] == ["segment", "extract", "file"]
    segmented, analysis, filing = (out for _, out in seen)
    assert isinstance(segmented, Segmented) and isinstance(analysis, Analysis)
    assert isinstance(filing, Filing)
    assert any("18:40" in s.text for s in filing.facts)


@pytest.mark.parametrize(
    "reply",
    [
        "Great. The bit about the train strike has to go though, forget it.",
        "Thanks. Oh and forget about the dentist, I cancelled.",
    ],
)
def test_a_recap_stands_beside_a_request_to_let_go_of_something_else(tmp_path, reply):
    said, recap, parts = UNREAD[0]
    lines = _lines(
        tmp_path,
        ("user", T0, said + ". dentist giov 11, sciopero dei treni lunedì"),
        ("assistant", T1, recap),
        ("user", T2, reply),
    )
    assert any(all(p.lower() in ln.lower() for p in parts) for ln in lines), lines


def test_a_recap_naming_what_the_reply_lets_go_of_is_not_kept(tmp_path):
    said, recap, _ = UNREAD[0]
    lines = _lines(
        tmp_path,
        ("user", T0, said),
        ("assistant", T1, recap),
        ("user", T2, "The Giulia bit has to go, forget it altogether."),
    )
    assert not any("Giulia" in ln for ln in lines), lines


def test_what_the_assistant_says_it_noted_is_a_recap(tmp_path):
    lines = _lines(
        tmp_path,
        ("user", T0, "FN:Halle Brandt\nTEL;TYPE=cell:+44 7700 900123\nNOTE:climbing, Thursdays"),
        ("assistant", T1, "Done. I've noted that Halle Brandt climbs on Thursdays and her "
         "mobile is +44 7700 900123."),
        ("user", T2, "Perfect."),
    )  # fmt: skip
    assert any("Halle Brandt" in ln and "900123" in ln for ln in lines), lines
