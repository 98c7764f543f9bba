"""A request that asks a person's name not to be kept ("don't keep his name or anything about
it"), the person said before by a pronoun, lets go of that person; the imperative verb that
opens the request ("Drop him …") is never read as the person it means."""

from __future__ import annotations

from doctree.agent.offline.language import forget_request
from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import page_lines, run, transcript

T = [f"2033-04-11T18:{i:02d}:00Z" for i in range(10)]


def _text(tmp_path, *messages: tuple[str, str]) -> str:
    with DocumentsRepository(tmp_path / "m.db") as repo:
        run(repo, transcript("s-name", *[(k, T[i], c) for i, (k, c) in enumerate(messages)]))
        now, past = page_lines(repo)
        paths = [d.path for d in repo.documents("main", "~/memory")]
    return "\n".join(now + past + paths)


def test_a_name_not_to_be_kept_is_asked_of_whom_the_pronoun_means():
    assert forget_request("Please don't keep his name or anything about it.") == (True, "him")
    assert forget_request("Don't store their names, please.") == (True, "them")


def test_a_name_kept_elsewhere_or_a_habit_told_is_no_request():
    assert forget_request("Don't keep her name on the rota.") is None
    assert forget_request("I don't keep their names in my phone.") is None
    assert forget_request("Don't forget her name.") is None


def test_the_person_said_before_is_let_go_of(tmp_path):
    text = _text(
        tmp_path,
        (
            "user",
            "Tobias Fairweather does history for our quiz team. Ulla Brandt does music. "
            "Odile Marchetti does sport.",
        ),
        ("assistant", "Noted."),
        (
            "user",
            "Odile has pulled out for family reasons. Drop her from the team please, and "
            "don't keep her name or anything about it anywhere.",
        ),
        ("assistant", "Done."),
    )
    assert "Odile" not in text and "Marchetti" not in text
    assert "Ulla Brandt" in text and "Tobias Fairweather" in text


def test_an_opening_verb_before_a_pronoun_is_no_name(tmp_path):
    # the only capitalised word before the request is its own verb: whom "him" means is the
    # person the message named before, not "Take"
    text = _text(
        tmp_path,
        ("user", "My cousin Ignatius Ferreira is lending me his ladder on Saturday."),
        ("assistant", "Noted."),
        (
            "user",
            "Ignatius has asked me to keep it quiet. Take him off completely, and don't keep "
            "his name either.",
        ),
        ("assistant", "Done."),
    )
    assert "Ignatius" not in text and "Ferreira" not in text
