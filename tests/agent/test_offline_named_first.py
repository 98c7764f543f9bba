"""A sentence that names someone first, says who they are and goes on with "he" or "she"
("Ottilie Brandt, a woman from the choir, she runs the bakery") is about that person: its
"she" is never someone named before. An opening word of talk ("Honestly, the thing is, he
…") names no one, and its pronoun is read as before."""

from __future__ import annotations

from tests.agent.offline_runs import everything, run, transcript

DAY = "2034-06-12T09:00:00Z"


def _pages(repo, second: str) -> str:
    run(
        repo,
        transcript(
            "s-named",
            ("user", DAY, "My aunt Philippa is staying with us till Sunday."),
            ("assistant", "2034-06-12T09:01:00Z", "Lovely."),
            ("user", "2034-06-12T09:02:00Z", second),
            ("assistant", "2034-06-12T09:03:00Z", "Noted."),
        ),
    )
    return everything(repo, archive=False)


def _page_of(text: str, title: str) -> str:
    return text.split(f"# {title}\n", 1)[1].split("\n# ", 1)[0] if f"# {title}\n" in text else ""


def test_the_pronoun_is_the_person_named_first(repo):
    text = _pages(repo, "Ottilie Brandt, a woman from the choir, she runs the bakery in Hove.")
    assert "bakery" in text
    assert "bakery" not in _page_of(text, "Philippa")


def test_an_opening_word_of_talk_names_no_one(repo):
    text = _pages(repo, "Honestly, the worst part is, she snores like a train.")
    assert "snores" in _page_of(text, "Philippa")
