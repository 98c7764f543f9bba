"""The assistant's recap of what the user said, read as the user's statements when the user
lets it stand, in place of words the rules could not keep (another language, a dialect, a
layout): never a name or a sum the assistant brought in, never what the user took back, a
recap turned down or corrected, a list set out by place, nor a line said twice."""

from __future__ import annotations

import pytest

from doctree.agent.offline.recap import as_users, clauses
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


# -- restatements asked as questions, glyphs, names said before, requests about their own
# message, the day a thing moved to ------------------------------------------------------------


def test_a_restatement_asked_as_a_question_is_kept_when_the_user_says_yes(tmp_path):
    lines = _lines(
        tmp_path,
        ("user", T0, "🏊 Ines tue+thu 6pm 🅿️ Northgate, 🎒 kit = me"),
        (
            "assistant",
            T1,
            "Just to confirm: Ines has swimming on Tuesdays and Thursdays at 6pm at "
            "Northgate, and you pack her kit?",
        ),
        ("user", T2, "👍"),
    )
    assert any("Ines" in ln and "Northgate" in ln and "swimming" in ln for ln in lines), lines


@pytest.mark.parametrize("reply", ["no, Wednesdays not Tuesdays", "🤔 not quite"])
def test_a_restatement_asked_as_a_question_is_not_kept_without_a_yes(tmp_path, reply):
    lines = _lines(
        tmp_path,
        ("user", T0, "🏊 Ines tue+thu 6pm 🅿️ Northgate, 🎒 kit = me"),
        (
            "assistant",
            T1,
            "Have I got this right: Ines has swimming on Tuesdays and Thursdays at 6pm at "
            "Northgate?",
        ),
        ("user", T2, reply),
    )
    assert not any("swimming" in ln for ln in lines), lines


def test_a_question_that_asks_something_else_is_no_restatement(tmp_path):
    lines = _lines(
        tmp_path,
        ("user", T0, "🏊 Ines tue+thu 6pm 🅿️ Northgate"),
        ("assistant", T1, "Would you like me to set a reminder for Ines on those days?"),
        ("user", T2, "👍"),
    )
    assert not any("reminder" in ln for ln in lines), lines


def test_a_line_of_glyphs_gives_way_to_the_recap_in_words(tmp_path):
    pages = _pages(
        tmp_path,
        ("user", T0, "🐱 Pepper 💉 Fri 4pm @ Larchwood Vets ☎️ 0161 496 0732"),
        (
            "assistant",
            T1,
            "Got it: Pepper the cat has her vaccination at Larchwood Vets on Friday at 4pm "
            "(0161 496 0732).",
        ),
        ("user", T2, "ty"),
    )
    facts = [
        ln
        for path, body in pages.items()
        if "/archive/" not in path
        for ln in body.splitlines()
        if ln.startswith("- 2028")
    ]
    assert any("vaccination" in ln and "2028-03-03" in ln for ln in facts), facts
    assert not any("💉" in ln for ln in facts), facts  # the line of glyphs gave way


def test_a_name_said_earlier_in_the_session_may_be_restated(tmp_path):
    lines = _lines(
        tmp_path,
        ("user", T0, "My neighbour Oskar Lind is feeding the fish while I'm away."),
        ("assistant", T1, "That's kind of him."),
        ("user", T2, "oskar den 5:e 👍 nyckel i brevlådan"),
        ("assistant", T3, "So Oskar Lind starts on the 5th, and the key is in the letterbox."),
    )
    assert any("Oskar" in ln and "letterbox" in ln for ln in lines), lines


def test_weekdays_said_as_plurals_are_not_names_the_assistant_brought_in(tmp_path):
    lines = _lines(
        tmp_path,
        ("user", T0, "tamsin judo sat 10.15 @ Hollins Hall"),
        ("assistant", T1, "Noted: Tamsin does judo on Saturdays at 10.15 at Hollins Hall."),
    )
    assert any("Tamsin" in ln and "judo" in ln and "Saturdays" in ln for ln in lines), lines


def test_a_request_about_its_own_message_leaves_the_recap_before_it(tmp_path):
    lines = _lines(
        tmp_path,
        ("user", T0, "🦷 Ravi dentist Thu 2pm @ Kingsway Dental"),
        ("assistant", T1, "Got it: Ravi has the dentist at Kingsway Dental on Thursday at 2pm."),
        ("user", T2, "His dad cancelled on him again 😤 don't save that pls"),
        ("assistant", T3, "Sorry to hear that. I won't keep it."),
    )
    assert any("Ravi" in ln and "Kingsway Dental" in ln for ln in lines), lines
    assert not any("cancelled" in ln for ln in lines), lines


def test_a_thing_moved_from_one_day_to_another_is_upcoming_on_the_new_day(tmp_path):
    pages = _pages(
        tmp_path,
        ("user", T0, "The boiler service has moved from Friday to Monday 13 March."),
    )
    upcoming = pages["~/memory/active"].split("## Upcoming")[1].split("##")[0]
    assert "- 2028-03-13:" in upcoming and "- 2028-03-03:" not in upcoming, upcoming


def test_a_range_from_one_day_to_another_starts_on_its_first(tmp_path):
    pages = _pages(
        tmp_path, ("user", T0, "I'm away from 6 March to 10 March at my brother's in Leeds.")
    )
    upcoming = pages["~/memory/active"].split("## Upcoming")[1].split("##")[0]
    assert "- 2028-03-06:" in upcoming, upcoming


def test_a_code_block_after_a_colon_is_no_list(tmp_path):
    lines = _lines(
        tmp_path,
        (
            "user",
            T0,
            "kaz rota @ elm court: mon bins, wed recycling -- fix my script?\n\n```\nrota = {}\n```",
        ),
        (
            "assistant",
            T1,
            "Fill the dict like this:\n\n```python\nrota = {'Mon': 'bins'}\n```\n\n"
            "So Kaz puts the bins out at Elm Court on Mondays and the recycling on Wednesdays.",
        ),
    )
    assert any("Kaz" in ln and "recycling" in ln for ln in lines), lines


def test_a_recap_of_two_things_is_two_facts_and_a_clause_leaning_back_stays_with_its_own():
    two = clauses(
        ["Pepper has her jabs at Larchwood Vets on Friday, and the Volvo's service is at "
         "Hartley Motors on Monday."]
    )  # fmt: skip
    assert two == [
        "Pepper has her jabs at Larchwood Vets on Friday.",
        "the Volvo's service is at Hartley Motors on Monday.",
    ]
    for one in (
        "Pepper has her jabs at Larchwood Vets on Friday, and her booster is due at Larchwood.",
        "Pepper has her jabs at Larchwood Vets on Friday, and the lunch is on Monday.",
    ):
        assert clauses([one]) == [one]


def test_the_items_of_a_list_that_state_are_a_recap_and_advice_is_not(tmp_path):
    lines = _lines(
        tmp_path,
        (
            "user",
            T0,
            '[Event "Wessex Rapidplay"]\n[Round "2"]\n[White "Mbeki, Thandi"]\n'
            '[Black "Corrigan, Paul"]\n[Result "1-0"]\n[Opening "Caro-Kann"]',
        ),
        (
            "assistant",
            T1,
            "Here's what that says:\n\n"
            "- Round 2: Thandi had White and beat Paul Corrigan with the Caro-Kann.\n"
            "- Ask Corrigan for a rematch at the Wessex Rapidplay.\n",
        ),
    )
    assert any("Thandi" in ln and "Corrigan" in ln and "beat" in ln for ln in lines), lines
    assert not any("rematch" in ln for ln in lines), lines


def test_a_list_item_pointed_at_by_place_is_no_recap(tmp_path):
    lines = _lines(
        tmp_path,
        ("user", T0, "thandi v corrigan rd 2, 1-0, caro-kann; thandi v osei rd 3, 0-1"),
        (
            "assistant",
            T1,
            "So:\n\n- Round 2: Thandi beat Corrigan with the Caro-Kann.\n"
            "- Round 3: Thandi lost to Osei.\n",
        ),
        ("user", T2, "drop the second point please"),
    )
    assert not any("Osei" in ln for ln in lines), lines


def test_digits_written_for_letters_are_no_figures_a_recap_must_hold(tmp_path):
    # Arabic in Latin letters writes sounds as digits ("ma3a", "ray7a"): the recap that says
    # the message in words holds its one figure (11) and replaces it
    lines = _lines(
        tmp_path,
        (
            "user",
            T0,
            "Khalto Mona ray7a el dentist bokra ma3a Hany, el maw3ed sa3a 11 fe Saray Clinic.",
        ),
        (
            "assistant",
            T1,
            "So your aunt Mona is going to the dentist at Saray Clinic tomorrow at 11am with Hany.",
        ),
        ("user", T2, "Tamam"),
    )
    assert any("Mona" in ln and "going to the dentist" in ln for ln in lines), lines
    assert not any("maw3ed" in ln for ln in lines if ln.startswith("- 2028")), lines


def test_a_plural_of_the_users_word_is_no_new_name(tmp_path):
    lines = _lines(
        tmp_path,
        ("user", T0, "\\newcommand{\\rsvpwho}{Dev Mistry}\n\\newcommand{\\venue}{Kew Pavilion}"),
        ("assistant", T1, "Updated: the do is at Kew Pavilion, with RSVPs to Dev Mistry."),
    )
    assert any("RSVPs to Dev Mistry" in ln for ln in lines), lines


def test_a_day_given_by_its_weekday_alone_takes_the_day_the_recap_gives(tmp_path):
    # T0 is Wednesday 1 March 2028: "the Thursday" before a dinner on Friday the 10th is the
    # 9th, which the rules alone do not tell from the 2nd
    pages = _pages(
        tmp_path,
        ("user", T0, "The gala dinner is Friday the 10th. I'm collecting the hired gowns from "
                     "Veronne on the Thursday."),
        ("assistant", T1, "Gala dinner Friday 10 March; gowns to collect from Veronne on "
                          "Thursday 9 March."),
        ("user", T2, "thanks"),
    )  # fmt: skip
    text = "\n".join(b for p, b in pages.items() if "/archive/" not in p)
    gowns = [ln for ln in text.splitlines() if "Veronne" in ln and ln.startswith("- 2028")]
    assert gowns and all("2028-03-09" in ln for ln in gowns), gowns


def test_a_recap_that_names_another_weekday_changes_no_day(tmp_path):
    pages = _pages(
        tmp_path,
        ("user", T0, "I'm collecting the hired gowns from Veronne on the Thursday."),
        ("assistant", T1, "Gowns to collect from Veronne; the shop is shut on Monday 6 March."),
        ("user", T2, "thanks"),
    )
    text = "\n".join(b for p, b in pages.items() if "/archive/" not in p)
    gowns = [ln for ln in text.splitlines() if "collecting the hired gowns" in ln]
    assert gowns and not any("2028-03-06" in ln for ln in gowns), gowns


def test_a_recap_of_a_message_in_another_script_may_name_its_transliterations(tmp_path):
    lines = _lines(
        tmp_path,
        ("user", T0, "予約確認：旅館みどり、箱根・強羅、3月10日 チェックイン15時"),
        (
            "assistant",
            T1,
            "That's a booking at Ryokan Midori in Gora, Hakone, checking in on 10 March at 15:00.",
        ),
        ("user", T2, "thanks"),
    )
    assert any("Ryokan Midori" in ln and "Hakone" in ln for ln in lines), lines


@pytest.mark.parametrize(
    "advice",
    [
        "Then Ana could drive you to Leeds on Saturday 4 March.",
        "Maybe Ana and Joss can share the drive to Leeds on Saturday 4 March.",
        "Perhaps Ana takes the van to Leeds on Saturday 4 March.",
    ],
)
def test_advice_that_names_what_the_user_said_is_no_recap(tmp_path, advice):
    lines = _lines(
        tmp_path,
        ("user", T0, "My sister Ana is visiting from Leeds with Joss, her van is huge"),
        ("assistant", T1, advice),
    )
    assert not any("2028-03-04" in ln for ln in lines), lines


def test_what_the_assistant_knows_about_a_name_the_user_said_is_no_recap(tmp_path):
    lines = _lines(
        tmp_path,
        ("user", T0, "I'm visiting Seattle with Priyanka next week, any tips?"),
        ("assistant", T1, "Happy to help."),
        ("user", T2, "mostly coffee"),
        (
            "assistant",
            T3,
            "Several roasters in Seattle serve a pumpkin spice latte through the autumn season.",
        ),
    )
    assert not any("pumpkin" in ln for ln in lines), lines


def test_a_message_switching_between_two_languages_gives_way_to_the_recap(tmp_path):
    # half its sentences in another language: the recap in English is a reading, its time
    # ("9 o'clock" of words) and its day ("14 July" of a month the rules do not read) too,
    # and a name the other language changed at its start ("o Gaerdydd") is the user's
    lines = _lines(
        tmp_path,
        (
            "user",
            T0,
            "Sorry, I switch between English and Welsh all the time. Mae Owain, fy mrawd, yn "
            "dod adre o Gaerdydd ar 14 Gorffennaf, am naw o'r gloch! Bydd e'n aros gyda ni am "
            "wythnos gyfan.",
        ),
        (
            "assistant",
            T1,
            "Lovely! Your brother Owain is coming home from Caerdydd on 14 July at 9 o'clock, "
            "and he's staying with you for a whole week.",
        ),
        ("user", T2, "Ie, diolch."),
    )
    assert any("Owain" in ln and "2028-07-14" in ln and "Caerdydd" in ln for ln in lines), lines


def test_an_item_of_a_recap_list_keeps_its_sentences_that_restate(tmp_path):
    lines = _lines(
        tmp_path,
        ("user", T0, "The roofer's quote came through.\n\nQuinn Roofing, Mill Lane, Leek\n"
         "Ridge tiles 640.00\nScaffold 420.00\nTotal 1,060.00"),
        ("assistant", T1, "The sum is right."),
        ("user", T2, "I'll ring them. It's Dara Quinn I spoke to, it's his firm. He comes to "
         "look at the ridge on Friday at 9.\n\nThe scaffold can go, we have our own."),
        ("assistant", T3, "Noted:\n\n- Roofer: Dara Quinn, Quinn Roofing, Leek. Quote to be "
         "reissued at £768.00 with VAT.\n- Ridge survey with Dara: Friday 3 March "
         "2028 at 09:00."),
        ("user", "2028-03-01T09:04:00Z", "Thank you."),
    )  # fmt: skip
    assert any("Roofer: Dara Quinn" in ln for ln in lines), lines
    # the sentence that says what the assistant worked out is no restatement of the user's
    assert not any("Roofer" in ln and "reissued" in ln for ln in lines), lines


#: A message in another language, its time on the 24-hour clock ("15h"), and the recap that
#: says the time as "3 p.m."
GARAGE = (
    "Allô! Grosse journée. Peux-tu noter des affaires pour moi?\n\n"
    "Premièrement: l'auto est chez Garage Lapointe sur Beaubien depuis mardi, la "
    "transmission. Ils m'ont appelé, c'est 2 150 $, pis je peux aller la chercher "
    "après-demain après 15h."
)


def test_a_time_the_recap_says_with_a_dotted_pm_is_a_reading(tmp_path):
    """The recap's "3" of "3 p.m." is the time read, not a figure the assistant brought in."""
    recap = (
        "Noted: your car is at Garage Lapointe on rue Beaubien for the transmission, the bill "
        "is $2,150, and you can pick it up the day after tomorrow, Friday 3 March 2028, after "
        "3 p.m."
    )
    lines = _lines(tmp_path, ("user", T0, GARAGE), ("assistant", T1, recap), ("user", T2, "Merci!"))
    assert any("Lapointe" in ln and "2028-03-03" in ln for ln in lines), lines


def test_a_figure_the_recap_adds_beside_a_dotted_pm_is_still_its_own(tmp_path):
    recap = (
        "Noted: your car is at Garage Lapointe on rue Beaubien for the transmission, the bill "
        "is $2,150 with 2 new mounts, and you can pick it up the day after tomorrow, Friday 3 "
        "March 2028, after 3 p.m."
    )
    lines = _lines(tmp_path, ("user", T0, GARAGE), ("assistant", T1, recap), ("user", T2, "Merci!"))
    assert not any("mounts" in ln for ln in lines), lines
