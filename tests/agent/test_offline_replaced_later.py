"""A value replaced in a later session and left current is the worst kind of line left: it
says something false. Each mechanism here finds the earlier line about the same thing by a
handle that does not depend on the words of one language (a date counted from the old one,
a name said first, an item and its list, two names of a clause) and puts it under "Past",
the new value current; when it is unsure which line is meant, every line stays as said."""

from __future__ import annotations

from datetime import date

from doctree.agent.offline import shifts, supersession
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import page_lines, run, transcript


def _lines(repo: DocumentsRepository) -> tuple[str, str]:
    now, past = page_lines(repo)
    return "\n".join(now), "\n".join(past)


def _two_sessions(repo: DocumentsRepository, first: str, second: str, *reply: str) -> None:
    run(repo, transcript("s-one", ("user", "2030-02-20T09:00:00Z", first)))
    later: list[tuple[str, str, object]] = [("user", "2030-03-01T09:00:00Z", second)]
    if reply:
        later.append(("assistant", "2030-03-01T09:01:00Z", reply[0]))
    run(repo, transcript("s-two", *later))


def test_a_move_by_a_count_with_its_new_date_replaces_the_line_of_the_old_date(repo):
    # the later statement names the thing another way ("the operation" of "hip
    # replacement"): the old date, the new less the count, is the handle
    _two_sessions(
        repo,
        "My hip replacement is on Tuesday 12 March 2030 at the Royal Free.",
        "They've pushed the operation two weeks later, to Tuesday 26 March.",
    )
    now, past = _lines(repo)
    assert "2030-03-12" not in now, now
    assert "2030-03-12" in past, past
    assert "2030-03-26" in now, now


def test_a_move_by_a_count_alone_counts_the_new_date_from_the_old(repo):
    _two_sessions(
        repo,
        "The school fete is on Saturday 8 June 2030.",
        "The fete has been put back a week because of the roadworks.",
    )
    now, past = _lines(repo)
    assert "2030-06-08" not in now, now
    assert "2030-06-08" in past, past
    assert any("fete" in ln and "2030-06-15" in ln for ln in now.splitlines()), now


def test_a_count_of_how_long_or_from_now_moves_nothing(repo):
    _two_sessions(
        repo,
        "The school fete is on Saturday 8 June 2030.",
        "The fete stall takes a week to build, and I'm in Crete in two weeks.",
    )
    now, _ = _lines(repo)
    assert any("fete" in ln and "2030-06-08" in ln for ln in now.splitlines()), now


def test_a_move_by_a_count_that_two_lines_could_mean_moves_neither(repo):
    run(
        repo,
        transcript(
            "s-one",
            ("user", "2030-02-20T09:00:00Z", "The fete is on Saturday 8 June 2030."),
            ("user", "2030-02-20T09:05:00Z", "The fete raffle draw is on Sunday 9 June 2030."),
        ),
    )
    run(
        repo,
        transcript(
            "s-two", ("user", "2030-03-01T09:00:00Z", "The fete has been moved back a week.")
        ),
    )
    now, _ = _lines(repo)
    assert "2030-06-08" in now and "2030-06-09" in now, now


def test_shifts_reads_the_count_and_its_direction():
    assert [s.days for s in shifts.shifts("They pushed the launch back two weeks.")] == [14]
    assert [s.days for s in shifts.shifts("The launch was brought forward 3 days.")] == [-3]
    assert [s.days for s in shifts.shifts("Moving the release another week.")] == [7]
    assert shifts.shifts("The course lasts for a week.") == []
    assert shifts.shifts("I moved house two weeks ago.") == []
    assert shifts.shifts("Can we push it back a week?") == []


def test_a_value_said_as_the_old_one_is_never_the_new_one():
    line = "The board review is on 26 April (2030-04-26)."
    text = (
        "Ana changed the board review from 3 May (2030-05-03) to 17 May (2030-05-17) "
        "on 2 April (2030-04-02)."
    )
    assert all(r.new.norm != "2030-05-03" for r in supersession.replacements(text, line))
    # "from 02:15 to 03:40": the value after "to" is the new one
    reps = supersession.replacements(
        "Moved the backup from 02:15 to 03:40 tonight.", "The backup runs at 02:15 every night."
    )
    assert [r.new.norm for r in reps] == ["03:40"], reps


def test_a_name_said_first_on_the_line_is_still_its_name():
    line = "Gideon Marsh has the long ladder until 23 April (2033-04-23)."
    assert supersession.replacements("Gideon's ladder until 30 April (2033-04-30).", line)
    # another person's ladder is not his
    assert not supersession.replacements("Petra's ladder until 30 April (2033-04-30).", line)


def test_an_item_taken_off_a_list_leaves_the_others_on_it(repo):
    _two_sessions(
        repo,
        "add red lentils and 9V batteries to the shopping list",
        "take red lentils off the shopping list",
    )
    now, past = _lines(repo)
    assert not any("lentils" in ln and "off the" not in ln for ln in now.splitlines()), now
    assert "9V batteries" in now, now
    assert "red lentils and 9V batteries" in past, past


def test_someone_no_longer_at_a_place_moves_the_line_that_put_them_there(repo):
    _two_sessions(
        repo,
        "My daughter Ottilie is seven and goes to Hillcrest Primary on weekdays.",
        "Ottilie isn't at Hillcrest now, she started at Oakfield School this week.",
    )
    now, past = _lines(repo)
    assert not any("Hillcrest Primary on weekdays" in ln for ln in now.splitlines()), now
    assert "Hillcrest Primary" in past, past


def test_a_recap_dates_a_change_the_user_said_in_words_no_rule_dates(repo):
    _two_sessions(
        repo,
        "Physio with Dr Okafor is on Monday 11 March 2030 at 10am.",
        "Physio with Dr Okafor got moved, Thursday 14 now lah.",
        "Updated: your physio with Dr Okafor is now on Thursday 14 March.",
    )
    now, past = _lines(repo)
    assert "2030-03-11" not in now, now
    assert "2030-03-11" in past, past
    assert "2030-03-14" in now, now


def test_a_numbered_value_said_again_with_another_number_replaces_it(repo):
    # "Bay 4" to "Bay 6", "week 3" to "week 5": a number after the name of what it numbers
    _two_sessions(
        repo,
        "The van for the move is parked in Bay 4 behind the depot.",
        "The depot moved the van to Bay 6 now.",
    )
    now, past = _lines(repo)
    assert "Bay 4" not in now, now
    assert "Bay 4" in past, past
    assert "Bay 6" in now, now


def test_numbered_values_read_the_number_after_its_name():
    kinds = {(v.kind, v.norm) for v in supersession.values("in week 9 of term, Gate 14")}
    assert kinds == {("numbered:week", "9"), ("numbered:gate", "14")}, kinds
    # a day and month, a time and an aside are no numbered value
    said = supersession.values("on Monday 17 at 10am (week 1 started then)")
    assert not any(v.kind.startswith("numbered:") for v in said), said


def test_someone_doing_a_thing_instead_of_another_replaces_the_line_naming_them(repo):
    _two_sessions(
        repo,
        "Thaddeus is doing the tiling on 14 August 2030.",
        "Thaddeus has flu, so his brother Casimir is doing the tiling instead.",
    )
    now, past = _lines(repo)
    assert not any("Thaddeus is doing the tiling" in ln for ln in now.splitlines()), now
    assert "Thaddeus is doing the tiling" in past, past


def test_a_record_cell_said_to_go_elsewhere_is_edited_in_its_record(repo):
    run(
        repo,
        transcript(
            "s-one",
            (
                "user",
                "2030-02-20T09:00:00Z",
                "Here are the teams:\n\n```\nparent,child,team\nMr Quayle,Ivo,Heron\n"
                "Ms Brandt,Lotte,Kite\nMrs Osei,Kofi,Heron\n```",
            ),
        ),
    )
    run(
        repo,
        transcript(
            "s-two",
            ("user", "2030-03-01T09:00:00Z", "Ivo goes to Kite and Lotte to Heron from now on."),
        ),
    )
    now, past = _lines(repo)
    ivo = [ln for ln in now.splitlines() if "Ivo" in ln and "Quayle" in ln]
    assert ivo and all("Kite" in ln and "Heron" not in ln for ln in ivo), now
    assert any("Ivo" in ln and "Heron" in ln for ln in past.splitlines()), past


def test_the_next_of_a_series_said_again_once_its_day_came_replaces_it(repo):
    run(
        repo,
        transcript(
            "s-one",
            ("user", "2030-03-04T09:00:00Z", "Next blood test Thursday 7 March at the surgery."),
        ),
    )
    run(
        repo,
        transcript(
            "s-two",
            (
                "user",
                "2030-03-07T12:00:00Z",
                "Bloods done, the nurse says all fine, next test in four weeks, Thursday 4 April.",
            ),
        ),
    )
    now, past = _lines(repo)
    assert "(2030-03-07)" not in now, now
    assert "(2030-03-07)" in past, past


def test_the_next_of_a_series_said_before_its_day_came_is_two_facts():
    line = "Next blood test Thursday 7 March (2030-03-07)."
    text = "My next dentist visit is Thursday 4 April (2030-04-04)."
    assert not supersession.next_again(text, line, date(2030, 3, 7))
    later = "Next test Thursday 4 April (2030-04-04)."
    assert supersession.next_again(later, line, date(2030, 3, 7))
    assert not supersession.next_again(later, line, date(2030, 3, 5))  # its day not come
