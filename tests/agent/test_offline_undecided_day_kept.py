"""A verbless note of a day with a slash whose order nothing in the conversation settles
("on 3/2": 3 February or 2 March), too long to pass for a fragment, is kept as said,
undated, not dropped; a question of that form is not a note."""

from __future__ import annotations

from tests.agent.offline_runs import everything, run, transcript

NOTE = "Car insurance review appointment on 3/2 at the broker office."


def test_a_note_of_an_undecided_day_is_kept_as_said(repo):
    run(repo, transcript("s-day", ("user", "2031-05-06T10:00:00Z", NOTE)))
    pages = everything(repo, archive=False)
    assert f"- 2031-05-06: {NOTE}" in pages, pages


def test_a_question_of_that_form_is_not_kept(repo):
    run(repo, transcript("s-ask", ("user", "2031-05-06T10:00:00Z", NOTE[:-1] + "?")))
    pages = everything(repo, archive=False)
    assert "- 2031-05-06: Car insurance" not in pages, pages
