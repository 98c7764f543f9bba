"""A value named as the new one of what it is of, said after it ("the new date of the
hearing is …"), replaces the earlier line that gave the old one; a sentence that ends inside
a quotation ('… at the county court." Same case number.') ends its clause there, so that
what is said after it ("same …") is not read as saying the value still holds."""

from __future__ import annotations

from datetime import date

from doctree.agent.offline import supersession
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript

_OLD = "Tribunal hearing: Tuesday 5 May 2043 (2043-05-05) at 10am at Fenwick House, case 55123."


def test_the_new_date_of_a_thing_replaces_its_line():
    text = (
        "The new date of the hearing is Friday 12 June 2043 (2043-06-12) at 10am at Fenwick House."
    )
    reps = supersession.replacements(text, _OLD, said_on=date(2043, 4, 20))
    assert {r.old.norm for r in reps} == {"2043-05-05"}


def test_a_quoted_sentence_ends_its_clause_before_what_follows_it():
    text = (
        'They wrote: "The new date of the hearing is Friday 12 June 2043 (2043-06-12) at 10am '
        'at Fenwick House." Same case number.'
    )
    reps = supersession.replacements(text, _OLD, said_on=date(2043, 4, 20))
    assert {r.old.norm for r in reps} == {"2043-05-05"}


def test_a_new_thing_with_a_date_replaces_nothing():
    # "a new appointment for the boiler": a second thing, no value of the first moved
    text = "There's a new appointment for the boiler on Friday 12 June 2043 (2043-06-12) at 10am."
    assert not supersession.replacements(text, _OLD, said_on=date(2043, 4, 20))


def current_lines(repo: DocumentsRepository) -> str:
    return "\n".join(
        ln
        for d in repo.documents("main", "~/memory")
        if "/archive/" not in d.path
        for ln in d.body.splitlines()
        if "— past:" not in ln
    )


def test_a_quoted_new_date_retires_the_old_one_of_an_earlier_session(repo):
    run(
        repo,
        transcript(
            "s-1",
            (
                "user",
                "2043-04-10T09:00:00Z",
                "The tribunal hearing is on Tuesday 5 May 2043 at 10am at Fenwick House, "
                "case 55123.",
            ),
        ),
    )
    run(
        repo,
        transcript(
            "s-2",
            (
                "user",
                "2043-04-20T09:00:00Z",
                'The clerk wrote back: "Your new date of hearing is Friday 12 June 2043 at '
                '10am at Fenwick House." Same case number.',
            ),
        ),
    )
    text = current_lines(repo)
    assert "2043-06-12" in text
    assert "2043-05-05" not in text
