"""A bare weekday said on that weekday ("the vet is Thursday at 3" said on a Thursday) is
today when the time said with it is still to come, a week on when it has gone by, and left
as said without a time, as either may be meant. "next Thursday" and "this Thursday" keep
their own readings."""

from __future__ import annotations

from datetime import date

from doctree.agent.offline.resolve import resolve_relative
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import everything, run, transcript

THU = date(2029, 3, 8)  # a Thursday


def test_a_later_hour_the_same_weekday_is_today():
    text, dates = resolve_relative("The vet is Thursday at 3.", THU, hour=9.5)
    assert dates == [("Thursday", THU)], (text, dates)


def test_a_morning_hour_still_to_come_is_today():
    text, dates = resolve_relative("Physio Thursday morning at 11.", THU, hour=8.0)
    assert dates == [("Thursday", THU)], (text, dates)


def test_an_hour_gone_by_is_a_week_on():
    text, dates = resolve_relative("Choir is Thursday at 10am.", THU, hour=16.0)
    assert dates == [("Thursday", date(2029, 3, 15))], (text, dates)


def test_the_same_weekday_without_a_time_is_left_as_said():
    text, dates = resolve_relative("The boiler service is Thursday.", THU, hour=9.0)
    assert dates == [] and text == "The boiler service is Thursday.", (text, dates)


def _said_on_thursday(tmp_path, message: str, db: str = "p.db") -> str:
    with DocumentsRepository(tmp_path / db) as repo:
        run(repo, transcript("s-same", ("user", "2029-03-08T08:40:00Z", message)))
        return everything(repo, archive=False)


def test_another_weekday_and_next_are_as_before(tmp_path):
    assert "Friday (2029-03-09)" in _said_on_thursday(tmp_path, "The boiler service is on Friday.")
    assert "next Thursday (2029-03-15)" in _said_on_thursday(
        tmp_path, "Choir starts next Thursday.", "choir.db"
    )


def test_a_session_on_that_weekday_dates_the_line_today(tmp_path):
    pages = _said_on_thursday(tmp_path, "I have an eye test Thursday at 2pm.")
    assert "Thursday (2029-03-08)" in pages, pages
    assert "2029-03-15" not in pages, pages
