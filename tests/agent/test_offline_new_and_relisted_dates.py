"""A day given as the new one of its kind ("the new completion date is …"), a day set down again
("relisted for …") or one said to be given up ("the 3 June date has been vacated") replaces
the day said before; a day a clause says something will not happen on ("not opening
Saturday") is no day to come, its line kept as said."""

from __future__ import annotations

from datetime import date

from doctree.agent.offline.supersession import replacements
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import current_facts, run, transcript

OLD = "Completion (the day we get the keys) is 14 March (2036-03-14) if the searches come back."


def test_a_new_date_named_as_such_replaces_the_old():
    new = "New completion date is 28 March (2036-03-28), by the afternoon."
    assert replacements(new, OLD, said_on=date(2036, 3, 2))


def test_a_new_date_of_another_thing_replaces_nothing():
    # the cue names a new date, but of the dentist's appointment, not of the completion
    new = "The dentist gave me a new date: 28 March (2036-03-28)."
    assert not replacements(new, OLD, said_on=date(2036, 3, 2))


def test_a_relisted_hearing_replaces_its_vacated_day():
    line = "Tribunal hearing is 3 June 2036 (2036-06-03), 2pm."
    new = (
        "The tribunal hearing fixed for 3 June 2036 (2036-06-03) has been vacated and is "
        "relisted for 9 July 2036 (2036-07-09)."
    )
    reps = replacements(new, line, said_on=date(2036, 5, 1))
    assert reps and reps[0].new.norm == "2036-07-09"


def test_a_day_said_as_a_value_of_another_thing_replaces_nothing():
    line = "Tribunal hearing is 3 June 2036 (2036-06-03), 2pm."
    new = "The bundle was posted on 12 May 2036 (2036-05-12)."
    assert not replacements(new, line, said_on=date(2036, 5, 1))


T = [f"2036-05-05T10:{i:02d}:00Z" for i in range(10)]


def _active(tmp_path, message: str) -> str:
    with DocumentsRepository(tmp_path / "m.db") as repo:
        run(repo, transcript("s-day", ("user", T[0], message), ("assistant", T[1], "Noted.")))
        page = repo.get("main", "~/memory/active")
        facts = current_facts(repo)
    body = page.body if page else ""
    upcoming = body.split("## Upcoming")[1].split("\n## ")[0] if "## Upcoming" in body else ""
    return upcoming + "\n====\n" + facts


def test_a_day_said_not_to_happen_is_no_upcoming_date(tmp_path):
    said = "Fit to travel again, but the coach is not coming on Saturday"
    upcoming, facts = _active(tmp_path, said + " after all.").split("\n====\n")
    assert said not in upcoming
    assert said in facts  # the line kept as said


def test_a_day_something_will_happen_on_stays_upcoming(tmp_path):
    upcoming, _ = _active(tmp_path, "The coach is coming on Saturday, not Friday.").split(
        "\n====\n"
    )
    assert "The coach is coming on Saturday" in upcoming
