"""A new value set against the old one with "not" and no comma between ("the tasting is
now 6:30 not 5:45", "it's £95 now not £80") replaces the line that held the old one, in a
later session or the same one; a "not" with no value before it ("the lesson is not at 4")
still says nothing new."""

from __future__ import annotations

from doctree.agent.offline import supersession
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import run, transcript


def _current(repo: DocumentsRepository) -> str:
    lines = []
    for d in repo.documents("main", "~/memory"):
        if "/archive/" in d.path:
            continue
        body = d.body.split("## Past")[0]
        for section in body.split("\n## ")[1:]:
            name, *rest = section.split("\n")
            if name.strip() not in ("Recent sessions", "Sessions", "Related"):
                lines += [ln for ln in rest if ln.startswith("- ") and " — past: " not in ln]
    return "\n".join(lines)


def test_a_time_now_set_against_the_old_with_not_replaces_it_in_a_later_session(repo):
    run(
        repo,
        transcript(
            "s-one",
            ("user", "2029-05-02T09:00:00Z", "The wine tasting at the Old Mill is at 5:45pm."),
        ),
    )
    run(
        repo,
        transcript(
            "s-two",
            (
                "user",
                "2029-05-09T09:00:00Z",
                "The Old Mill rang, the wine tasting is now 6:30pm not 5:45.",
            ),
        ),
    )
    now = _current(repo)
    assert "18:30" in now or "6:30" in now, now
    assert "is at 5:45pm" not in now, now  # the line that gave it, edited in place


def test_a_value_before_now_not_is_the_new_one_and_the_value_after_is_the_old():
    text = "The gym membership is £95 now not £80."
    (claim,) = supersession.claims(text)
    assert not claim.inert
    assert [v.norm for v in claim.values] == ["95"]
    assert supersession.old_after_not(text) == {("amount", "80")}


def test_a_not_with_no_value_before_it_still_says_nothing_new():
    (claim,) = supersession.claims("The piano lesson is not at 4:15 this week.")
    assert claim.inert
    assert supersession.old_after_not("The piano lesson is not at 4:15 this week.") == set()


def test_a_not_before_a_value_of_another_kind_leaves_the_clause_denied():
    # "£40 not on the 3rd": a sum and a day, nothing set against the sum
    (claim,) = supersession.claims("The refund was £40 not on the 3rd.")
    assert claim.inert
