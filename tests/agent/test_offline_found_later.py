"""A value kept in one session and changed in a later one by what the assistant found (or
read back), accepted by the user, is a value replaced like any other: the old line goes under
"Past" with its date, the new one is current. The finding reaches the same supersession a
user's own statement does; where it is unsure which line is meant, every line stays."""

from __future__ import annotations

from datetime import date

from doctree.agent.offline import supersession
from doctree.agent.offline.model import Turn
from doctree.agent.offline.recap import recapped
from doctree.agent.offline.write import Writer
from doctree.interop.tools import MemoryTools
from doctree.sessions.transcripts import parse_transcript
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import page_lines, run, transcript


def _lines(repo: DocumentsRepository) -> tuple[list[str], list[str]]:
    return page_lines(repo)


def _found_later(repo: DocumentsRepository, first: str, found: str, reply: str) -> None:
    run(repo, transcript("s-one", ("user", "2031-04-02T09:00:00Z", first)))
    run(
        repo,
        transcript(
            "s-two",
            ("user", "2031-04-20T09:00:00Z", "The joiner sent his revised plan, have a look."),
            ("assistant", "2031-04-20T09:01:00Z", found),
            ("user", "2031-04-20T09:05:00Z", reply),
        ),
    )


def test_an_accepted_finding_with_a_new_day_replaces_the_earlier_line(repo):
    _found_later(
        repo,
        "The loft conversion should be finished by Friday 9 May.",
        "From the plan, the loft conversion should now be finished by Friday 16 May.",
        "Yes, that's right.",
    )
    now, past = _lines(repo)
    assert not any("2031-05-09" in ln and "loft" in ln for ln in now), now
    assert any("2031-05-09" in ln for ln in past), past
    assert any("2031-05-16" in ln and "loft" in ln for ln in now), now
    # what is coming lists the new day in place of the old
    upcoming = [ln for ln in now if ln.startswith("- 2031-05-16: ")]
    assert upcoming, now


def test_a_finding_writes_its_days_with_their_year(repo):
    _found_later(
        repo,
        "The joiner is Callum Reyes.",
        "From the plan, the staircase goes in the week of 12 May.",
        "Yes, that's right.",
    )
    now, _ = _lines(repo)
    assert any("staircase" in ln and "2031-05-12" in ln for ln in now), now


def test_a_day_said_twice_in_a_sentence_is_dated_where_it_is_said_again(repo):
    _found_later(
        repo,
        "The joiner is Callum Reyes.",
        "From the plan, the skirting is fitted in the weeks of 5 and 12 May, and the"
        " staircase the week of 12 May.",
        "Yes, that's right.",
    )
    now, _ = _lines(repo)
    line = next(ln for ln in now if "staircase" in ln)
    assert line.count("(2031-05-12)") == 2, line
    assert "staircase the week of 12 May (2031-05-12)" in line, line


def test_a_line_that_opens_on_its_days_gives_them_the_thing_after_the_colon():
    old = "Monday 5 May (2031-05-05): the staircase by Callum Reyes, after the skirting."
    (claim,) = supersession.claims(old)
    assert {"staircas", "callum", "rey"} & claim.thing, claim
    new = "The staircase by Callum Reyes is now Monday 12 May."
    reps = supersession.replacements(new, old, said_on=date(2031, 4, 20))
    assert [(r.old.norm, r.new.norm) for r in reps] == [("2031-05-05", "2031-05-12")]


def test_a_finding_that_two_lines_could_mean_replaces_neither(repo):
    run(
        repo,
        transcript(
            "s-one",
            ("user", "2031-04-02T09:00:00Z", "The loft floor should be finished by Friday 9 May."),
            ("user", "2031-04-02T09:05:00Z", "The loft roof should be finished by Friday 2 May."),
        ),
    )
    run(
        repo,
        transcript(
            "s-two",
            ("user", "2031-04-20T09:00:00Z", "The joiner sent his revised plan, have a look."),
            (
                "assistant",
                "2031-04-20T09:01:00Z",
                "From the plan, the loft should now be finished by Friday 16 May.",
            ),
            ("user", "2031-04-20T09:05:00Z", "Yes, that's right."),
        ),
    )
    now, _ = _lines(repo)
    assert any("2031-05-09" in ln and "floor" in ln for ln in now), now
    assert any("2031-05-02" in ln and "roof" in ln for ln in now), now


def test_a_value_said_not_to_hold_as_the_reason_leaves_the_new_one_a_change():
    old = "The recital is at Elm Hall, doors at 7pm."
    for new in (
        "Recital doors now 6:30pm (the hall can't do 7), same place.",
        "The recital doors are now at 6:30pm because the hall can't do 7pm.",
    ):
        reps = supersession.replacements(new, old, said_on=date(2031, 4, 20))
        assert [(r.old.norm, r.new.norm) for r in reps] == [("19:00", "18:30")], new


def test_a_value_said_not_to_hold_is_still_no_new_value():
    old = "The recital is at Elm Hall, doors at 7pm."
    assert not supersession.replacements(
        "The recital doors aren't at 6:30pm, whatever the poster says.",
        old,
        said_on=date(2031, 4, 20),
    )


def test_two_values_of_one_line_replaced_by_two_sentences_are_both_edited(repo):
    _found_later(
        repo,
        "Monday 12 May: the tiler comes, so the bathroom is done by Friday 16 May.",
        "From the plan, the tiler now comes on Monday 19 May. The bathroom should now be done"
        " by Friday 23 May.",
        "Yes, that's right.",
    )
    now, past = _lines(repo)
    edited = [ln for ln in now if "tiler comes" in ln and "2031-05-19" in ln]
    assert edited and all("2031-05-23" in ln for ln in edited), now
    assert not any("2031-05-16" in ln or "2031-05-12" in ln for ln in now), now
    assert any("2031-05-16" in ln for ln in past), past


def test_a_recap_may_name_a_code_an_earlier_session_kept():
    said = "So the Marlow Arms block is now 6 rooms, still under the same code KESTRELWED."
    turn = Turn(kind="assistant", time="2031-04-20T09:01:00Z", sentences=[said], message=said)
    heard = ["From the log: e41 Marlow Arms block down to 6 rooms, same code."]
    # a name nobody said in the session nor memory holds: the assistant's own, not a recap
    assert recapped(turn, heard, []) == []
    # held on a current line of memory from an earlier session: a restatement
    assert recapped(turn, heard, [], held=lambda word: word == "KESTRELWED") == [said]


def test_memory_holds_a_word_only_on_a_current_line_of_an_earlier_session(repo):
    run(
        repo,
        transcript(
            "s-one",
            ("user", "2031-04-02T09:00:00Z", "The hotel block is 10 rooms, code KESTRELWED."),
        ),
    )
    later = parse_transcript(transcript("s-two", ("user", "2031-04-20T09:00:00Z", "Nothing new.")))
    writer = Writer("~/memory", later, MemoryTools(repo, "main", session_id="s-two"))
    writer.read_known()
    assert writer.holds_word("KESTRELWED")
    assert not writer.holds_word("KESTREL")  # a word of its own, not a piece of one
    assert not writer.holds_word("OSPREYWED")
