"""A messaging app's exported chat (WhatsApp, Signal, iMessage-like) is read line by line:
each line its sender's, dated by its own stamp; the app's own lines (encryption notices, who
was added, media left out, deleted messages) are nobody's words; the group's title is the
subject of what is said in it; emoji are left out; the exporter's own lines are the user's."""

from __future__ import annotations

from datetime import date

import pytest

from doctree.agent.offline.chat import chat_export, without_emoji
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript

_ANDROID = """Here's the allotment group, keep what matters:

11/05/2030, 08:01 - Messages and calls are end-to-end encrypted. No one outside of this chat can read them.
11/05/2030, 08:02 - Priya created group "Plot 14 work party 🌱"
11/05/2030, 08:03 - Priya added Tom, You
11/05/2030, 08:05 - Priya: Skip is arriving Saturday 18 May at 9am 🚛
11/05/2030, 08:06 - Tom: <Media omitted>
11/05/2030, 08:07 - Tom: I'll bring the big wheelbarrow
and the spare gloves
11/05/2030, 08:09 - Priya: This message was deleted
11/05/2030, 08:10 - Priya: can you sort the tea urn?
11/05/2030, 08:11 - You: yes happy to
"""

_IOS = """[02.06.30, 19:14:03] Marta: Rehearsal moved to Thursday 6 June at 18:00
[02.06.30, 19:15:40] Joel: ok 👍
[02.06.30, 19:16:12] Joel: I'll book room 4 for it
[02.06.30, 19:20:55] Marta: image omitted
"""

_ISO = """[2030-07-01 10:02] Lena: the vet said Biscuit needs the booster on 15 July
[2030-07-01 10:05] Me: I'll take her, the surgery is on Mill Lane
[2030-07-01 10:06] Lena: great, thanks!
"""


def test_an_android_export_gives_each_line_its_sender_its_day_and_the_groups_title():
    before, lines, after = chat_export(_ANDROID)
    assert before[0].startswith("Here's the allotment group")
    assert not any(x.strip() for x in after)
    assert [(x.sender, x.text) for x in lines] == [
        ("Priya", "Skip is arriving Saturday 18 May at 9am"),
        ("Tom", "I'll bring the big wheelbarrow and the spare gloves"),
        ("Priya", "can you sort the tea urn?"),
        (None, "yes happy to"),
    ]
    assert {x.day for x in lines} == {date(2030, 5, 11)}
    assert lines[0].title == "Plot 14 work party"


@pytest.mark.parametrize(
    ("export", "day", "senders"),
    [
        (_IOS, date(2030, 6, 2), ["Marta", "Joel", "Joel"]),
        (_ISO, date(2030, 7, 1), ["Lena", None, "Lena"]),
    ],
)
def test_ios_and_iso_stamped_exports_are_read_the_same_way(export, day, senders):
    _, lines, _ = chat_export(export)
    assert [x.sender for x in lines] == senders  # "Me" is the user; "image omitted" no line
    assert {x.day for x in lines} == {day}
    assert all("👍" not in x.text for x in lines)


def test_text_with_fewer_than_three_stamped_lines_is_no_export():
    assert chat_export("12/03/2030, 18:02 - Ana: hi\nJust one line of a chat.") is None


def test_emoji_are_left_out_and_the_spaces_they_leave_closed():
    assert without_emoji("BOOKED!! 🙏⛪ see you 👋🏽 there") == "BOOKED!! see you there"


def _pages(repo: DocumentsRepository) -> str:
    return "\n".join(
        d.body.split("## Past")[0]
        for d in repo.documents("main", "~/memory")
        if "/archive/" not in d.path
    )


def test_an_exported_chat_keeps_its_senders_lines_and_drops_the_apps_own(repo):
    run(repo, transcript("s-chat", ("user", "2030-05-11T09:00:00Z", _ANDROID)))
    pages = _pages(repo)
    assert "Priya: Skip is arriving Saturday 18 May" in pages, pages
    assert "Plot 14 work party" in pages  # the subject of a line that says only when
    assert "wheelbarrow and the spare gloves" in pages
    for app_line in ("end-to-end", "Media omitted", "message was deleted", "added Tom"):
        assert app_line not in pages
    # a yes to someone's request is kept with what it says yes to
    assert 'The user said "yes happy to" when Priya asked: can you sort the tea urn?' in pages


def test_a_later_line_of_the_chat_that_changes_a_time_replaces_the_earlier(repo):
    export = _ANDROID + "11/05/2030, 17:40 - Priya: skip now comes at 11am, not 9am\n"
    run(repo, transcript("s-chat", ("user", "2030-05-11T19:00:00Z", export)))
    pages = _pages(repo)
    assert "11am" in pages
    assert "Skip is arriving Saturday 18 May at 9am" not in pages, pages


def test_stamps_with_the_month_in_words_are_read_too():
    export = (
        "Mar 12, 2030 at 6:02 PM - Dana: the plumber comes Thursday at 8\n"
        "Mar 12, 2030 at 6:05 PM - You: ok I'll be in\n"
        "13 March 2030, 09:10 - Dana: he says bring the spare key\n"
    )
    _, lines, _ = chat_export(export)
    assert [(x.day, x.sender) for x in lines] == [
        (date(2030, 3, 12), "Dana"),
        (date(2030, 3, 12), None),
        (date(2030, 3, 13), "Dana"),
    ]


def test_the_users_words_after_an_export_are_read_as_theirs(repo):
    # the export ends at the blank line after its last message; what follows is the user's
    export = (
        "The choir committee, from last night:\n\n"
        "```\n"
        "[09/03/2030 20:01] marta_k: minutes are up on the drive\n"
        "[09/03/2030 20:03] Joel: I'll print copies for Sunday\n"
        "[09/03/2030 20:05] marta_k: thanks!\n"
        "```\n\n"
        "marta_k is Marta Kowal, our treasurer. The drive is the choir's shared folder.\n"
    )
    before, lines, after = chat_export(export.replace("```\n", ""))
    assert len(lines) == 3 and lines[-1].text == "thanks!"
    assert any("Marta Kowal, our treasurer" in x for x in after)
    run(repo, transcript("s-chat", ("user", "2030-03-10T09:00:00Z", export)))
    assert "Marta Kowal, our treasurer" in _pages(repo)
