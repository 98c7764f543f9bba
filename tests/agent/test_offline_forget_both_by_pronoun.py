"""A request naming two people, one by a kin word ("the bit about her uncle and Marisol"),
reaches a line where the kin word's person is said only as "he" or "she" ("He's lending
Marisol the van"): the person the pronoun was read as, by the reading the agent makes of it,
is the one the kin word named earlier ("Her uncle Ilario …"). That person's other lines
stay, and so does a line whose "he" was read as someone else."""

from __future__ import annotations

from doctree.store.documents import DocumentsRepository
from tests.agent.offline_runs import page_lines, run, transcript

T = [f"2031-07-05T09:{i:02d}:00Z" for i in range(10)]


def _text(tmp_path, *messages: tuple[str, str]) -> str:
    with DocumentsRepository(tmp_path / "m.db") as repo:
        run(repo, transcript("s-both", *[(k, T[i], c) for i, (k, c) in enumerate(messages)]))
        body = "\n".join(d.body for d in repo.documents("main", "~/memory"))
        now, past = page_lines(repo)
    return body + "\n" + "\n".join(now + past)


def test_a_line_saying_the_kin_person_by_pronoun_is_taken(tmp_path):
    text = _text(
        tmp_path,
        ("user", "Her uncle Ilario is painting the shed on Sunday."),
        ("assistant", "Noted."),
        ("user", "He's lending his van to Marisol for the whole of August."),
        ("assistant", "Noted."),
        ("user", "Actually don't keep the bit about her uncle and Marisol, it's private."),
        ("assistant", "Done."),
    )
    assert "Marisol" not in text
    assert "painting the shed" in text  # his other line stays


def test_the_same_in_one_message(tmp_path):
    text = _text(
        tmp_path,
        (
            "user",
            "Her uncle Ilario is painting the shed on Sunday. He's lending his van to "
            "Marisol for the whole of August.",
        ),
        ("assistant", "Noted."),
        ("user", "Please don't keep the bit about her uncle and Marisol."),
        ("assistant", "Done."),
    )
    assert "Marisol" not in text
    assert "painting the shed" in text
