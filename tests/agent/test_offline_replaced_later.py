"""A value replaced in a later session and left current is the worst kind of line left: it
says something false. Each mechanism here finds the earlier line about the same thing by a
handle that does not depend on the words of one language (a date counted from the old one,
a name said first, an item and its list, two names of a clause) and puts it under "Past",
the new value current; when it is unsure which line is meant, every line stays as said."""

from __future__ import annotations

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
